//! Deterministic per-role answers. Each answer is built as the role's output type from
//! `clair_core::llm::roles` and serialised, so it matches the role's schema by construction. Every
//! role reads the user-message layout documented in core/src/llm/roles.rs and uses the evidence in
//! it, so the pipeline does real work against the mock.

use crate::text::*;
use clair_core::config::ClaimType;
use clair_core::llm::roles::*;
use serde_json::Value;
use std::collections::BTreeSet;

const ALL_HEADERS: &[&str] = &[
    "QUESTION",
    "CLAIM",
    "EVIDENCE",
    "REPAIR",
    "OBJECTIONS",
    "AFFIRMATIVE BRIEF",
    "PREMISE",
    "HYPOTHESIS",
    "AUDITED STATEMENTS",
    "GOLD ANSWER",
    "SYSTEM ANSWER",
    "CITED EVIDENCE",
    "PUBLISHED CLAIM",
    "ANSWER",
    "STATEMENTS",
    "CONTEXT",
    "REFERENCE",
    "CHUNK",
];

fn sec(user: &str, h: &str) -> Option<String> {
    section(user, h, ALL_HEADERS)
}

/// The answer for `role` to the user message `user`. `vision_variant` (vision_disagree fault) makes
/// page_vision return a table that differs per call.
pub fn answer(role: Role, user: &str, vision_variant: Option<u64>) -> Value {
    match role {
        Role::Planner => to_value(&planner(user)),
        Role::NarrativeEvidence => to_value(&narrative(user)),
        Role::TabularEvidence => to_value(&tabular(user)),
        Role::VisualEvidence => to_value(&visual(user)),
        Role::Affirmative => to_value(&affirmative(user)),
        Role::Adversarial => to_value(&adversarial(user)),
        Role::Entailment => to_value(&entailment(user)),
        Role::JudgeDraft => to_value(&judge_draft(user)),
        Role::Synthesizer => to_value(&synthesizer(user)),
        Role::PageVision => to_value(&page_vision(user, vision_variant)),
        Role::CorrectnessJudge => to_value(&correctness(user)),
        Role::Hyde => to_value(&hyde(user)),
        Role::FaithfulnessJudge => to_value(&faithfulness(user)),
        Role::RagasStatements => to_value(&ragas_statements(user)),
        Role::RagasFaithfulness => to_value(&ragas_faithfulness(user)),
        Role::RagasAnswerRelevancy => to_value(&ragas_answer_relevancy(user)),
        Role::RagasContextPrecision => to_value(&ragas_context_precision(user)),
        Role::RagasContextRecall => to_value(&ragas_context_recall(user)),
        Role::GraphExtraction => to_value(&graph_extraction(user)),
    }
}

// ---------------------------------------------------------------- RAGAS judge (evaluation)
//
// A statement is supported by a text when every figure it states is there and at least half of its
// content words are; a text is useful for a reference when it gives one of its figures or a third
// of its content words.

fn supported_by(statement: &str, text: &str) -> bool {
    let (s, t) = (strip_citations(statement), strip_citations(text));
    let tn = numbers(&t);
    let figures_found = numbers(&s).iter().filter(|n| !n.is_year()).all(|n| tn.iter().any(|m| same_number(m.value, n.value)));
    let sw = content_set(&s);
    figures_found && !sw.is_empty() && 2 * overlap(&sw, &content_set(&t)) >= sw.len()
}

fn ragas_statements(user: &str) -> RagasStatementsOut {
    let answer = strip_citations(&sec(user, "ANSWER").unwrap_or_default());
    // A removed citation leaves "percent ." behind: close the gap.
    RagasStatementsOut { statements: sentences(&answer).into_iter().map(|s| collapse_ws(&s).replace(" .", ".")).filter(|s| !s.is_empty()).collect() }
}

fn ragas_faithfulness(user: &str) -> RagasFaithfulnessOut {
    let context = sec(user, "CONTEXT").unwrap_or_default();
    let statements = sec(user, "STATEMENTS").unwrap_or_default();
    let verdicts = statements
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .map(|st| {
            let ok = supported_by(st, &context);
            RagasVerdict { statement: st.to_string(), reason: if ok { "its figures and terms are in the context".into() } else { "the context does not state it".into() }, verdict: ok as u8 }
        })
        .collect();
    RagasFaithfulnessOut { verdicts }
}

fn ragas_answer_relevancy(user: &str) -> RagasAnswerRelevancyOut {
    let answer = strip_citations(&sec(user, "ANSWER").unwrap_or_default());
    let low = answer.to_lowercase();
    let noncommittal = ["not sure", "don't know", "do not know", "cannot determine", "insufficient"].iter().any(|p| low.contains(p));
    let first = sentences(&answer).into_iter().next().unwrap_or_default();
    let words: Vec<String> = raw_words(&first).into_iter().filter(|w| !is_stopword(&w.to_lowercase())).take(10).collect();
    let question = if words.is_empty() { String::new() } else { format!("What does the report say about {}?", words.join(" ")) };
    RagasAnswerRelevancyOut { question, noncommittal: noncommittal as u8 }
}

fn ragas_context_precision(user: &str) -> RagasContextPrecisionOut {
    let context = strip_citations(&sec(user, "CONTEXT").unwrap_or_default());
    let reference = sec(user, "REFERENCE").unwrap_or_default();
    let cn = numbers(&context);
    let figure = numbers(&reference).iter().filter(|n| !n.is_year()).any(|n| cn.iter().any(|m| same_number(m.value, n.value)));
    let rw = content_set(&reference);
    let terms = !rw.is_empty() && 3 * overlap(&rw, &content_set(&context)) >= rw.len();
    let useful = figure || terms;
    RagasContextPrecisionOut { reason: if useful { "the context gives the reference's figures or terms".into() } else { "the context is about something else".into() }, verdict: useful as u8 }
}

fn ragas_context_recall(user: &str) -> RagasContextRecallOut {
    let context = sec(user, "CONTEXT").unwrap_or_default();
    let reference = sec(user, "REFERENCE").unwrap_or_default();
    let classifications = sentences(&reference)
        .into_iter()
        .map(|st| {
            let ok = supported_by(&st, &context);
            RagasAttribution { reason: if ok { "found in the context".into() } else { "not in the context".into() }, statement: st, attributed: ok as u8 }
        })
        .collect();
    RagasContextRecallOut { classifications }
}

// ---------------------------------------------------------------- graph extraction (indexing)

/// Entities: runs of capitalised words (joined by "of" / "and"), first 15 in order;
/// relations: consecutive entities of one sentence, the words between them as the predicate.
fn graph_extraction(user: &str) -> GraphExtractionOut {
    let chunk = sec(user, "CHUNK").unwrap_or_default();
    let mut entities: Vec<String> = vec![];
    let mut relations = vec![];
    for sentence in sentences(&chunk) {
        // "Johnson & Johnson": the ampersand is no word of its own; read it as "and".
        let words = raw_words(&sentence.replace(" & ", " and "));
        let mut found: Vec<(usize, usize, String)> = vec![];
        let mut i = 0;
        while i < words.len() {
            let starts = |w: &str| w.chars().next().is_some_and(|c| c.is_uppercase()) && w.chars().any(|c| c.is_alphabetic()) && !is_stopword(&w.to_lowercase());
            if starts(&words[i]) {
                let mut j = i + 1;
                while j < words.len() && (starts(&words[j]) || (words[j] == "and" || words[j] == "of") && j + 1 < words.len() && starts(&words[j + 1])) {
                    j += 1;
                }
                let name = words[i..j].join(" ");
                if name.chars().filter(|c| c.is_alphabetic()).count() >= 2 {
                    found.push((i, j, name));
                }
                i = j;
            } else {
                i += 1;
            }
        }
        for (_, _, n) in &found {
            if entities.len() < 15 && !entities.iter().any(|e| e.eq_ignore_ascii_case(n)) {
                entities.push(n.clone());
            }
        }
        for w in found.windows(2) {
            let between: Vec<String> = words[w[0].1..w[1].0].iter().take(4).map(|x| x.to_lowercase()).collect();
            let predicate = if between.is_empty() { "with".to_string() } else { between.join(" ") };
            if entities.iter().any(|e| e == &w[0].2) && entities.iter().any(|e| e == &w[1].2) && w[0].2 != w[1].2 {
                relations.push(Relation { subject: w[0].2.clone(), predicate, object: w[1].2.clone() });
            }
        }
    }
    GraphExtractionOut { entities, relations }
}

fn to_value<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

/// A JSON answer that violates the role's schema: an extra top-level field (every schema has
/// `additionalProperties: false`, and the core types `deny_unknown_fields`).
pub fn schema_violation(good: &Value) -> Value {
    let mut v = good.clone();
    if let Some(o) = v.as_object_mut() {
        o.insert("unexpected_field".into(), Value::String("not in the schema".into()));
    }
    v
}

// ---------------------------------------------------------------- planner

fn question_of(user: &str) -> String {
    match sec(user, "QUESTION") {
        Some(q) => {
            // Only the question paragraph: stop at the first blank line (the preview follows).
            let para: Vec<&str> = q.lines().take_while(|l| !l.trim().is_empty()).collect();
            collapse_ws(&para.join(" "))
        }
        None => collapse_ws(user.lines().find(|l| !l.trim().is_empty()).unwrap_or("")),
    }
}

const PREPOSITIONS: &[&str] = &["in", "for", "of", "at", "during", "by", "on", "from", "to"];
const QUESTION_STARTS: &[&str] = &[
    "what", "how", "why", "which", "who", "when", "where", "did", "does", "do", "is", "was", "were", "are", "has", "have",
];

fn claim_type_of(text: &str) -> Option<ClaimType> {
    // Whole words only: "separation" is not a ratio, "causeway" not a cause.
    let norm: String = text.to_lowercase().chars().map(|c| if c.is_alphanumeric() || c == '%' { c } else { ' ' }).collect();
    let l = format!(" {} ", norm.split_whitespace().collect::<Vec<_>>().join(" "));
    let has = |ks: &[&str]| ks.iter().any(|k| l.contains(k));
    if has(&[" why ", "because", "driven", " drove ", " drive ", " due ", "reason", " cause", "attribut", "factor", "explain"]) {
        Some(ClaimType::CauseAttribution)
    } else if has(&["trend", "increase", "decrease", "over the years", "change", " grow", "growth", "decline", " rise", " rose", " fell", " fall", "compared"]) {
        Some(ClaimType::FactTrend)
    } else if has(&[" ratio", "margin", " per ", "% of", "divided", "percentage of", "share of", "proportion", "as a percent"]) {
        Some(ClaimType::RatioIdentity)
    } else {
        None
    }
}

fn starts_item(part: &str) -> bool {
    let first = part.split_whitespace().next().unwrap_or("");
    let lower = first.to_lowercase();
    first.chars().next().map(|c| c.is_uppercase() || c.is_ascii_digit() || c == '$').unwrap_or(false)
        || lower.starts_with("fy")
        || lower.starts_with("q1")
        || lower.starts_with("q2")
        || lower.starts_with("q3")
        || lower.starts_with("q4")
        || QUESTION_STARTS.contains(&lower.as_str())
}

/// Replace the head's trailing item (the words after its last preposition or comma) by `item`.
fn substitute_item(head: &str, item: &str) -> String {
    let words: Vec<&str> = head.split_whitespace().collect();
    let cut = words.iter().rposition(|w| PREPOSITIONS.contains(&w.to_lowercase().as_str()));
    match cut {
        Some(k) if k + 1 < words.len() => format!("{} {}", words[..=k].join(" "), item),
        _ => {
            let n = item.split_whitespace().count().min(words.len().saturating_sub(1)).max(1);
            let keep = words.len().saturating_sub(n);
            format!("{} {}", words[..keep].join(" "), item).trim().to_string()
        }
    }
}

fn planner(user: &str) -> PlannerOut {
    let q = question_of(user);
    // Only the question sentence: FinanceBench-style questions append instructions after the '?'.
    let core_q = match q.find('?') {
        Some(k) if q[k + 1..].trim().len() > 0 => &q[..=k],
        _ => q.as_str(),
    };
    let q_trim = core_q.trim().trim_end_matches('?').trim().to_string();
    let fallback_type = claim_type_of(&q).unwrap_or(ClaimType::FactNumeric);
    let mut texts: Vec<String> = vec![];
    let lower = format!(" {} ", q_trim.to_lowercase());
    let splittable = !lower.contains(" between ") && !lower.contains(" ratio ");
    if splittable && q_trim.contains(" and ") {
        let parts: Vec<&str> = q_trim.split(" and ").collect();
        // Re-join parts whose following segment does not start a new item ("research and development").
        let mut segs: Vec<String> = vec![parts[0].to_string()];
        for p in &parts[1..] {
            if starts_item(p) {
                segs.push(p.to_string());
            } else {
                let last = segs.last_mut().unwrap();
                last.push_str(" and ");
                last.push_str(p);
            }
        }
        if segs.len() > 1 {
            // "growth in India, Pakistan and Nepal": the head's comma list is items too.
            let mut head = segs[0].clone();
            let mut items: Vec<String> = vec![];
            if let Some(k) = head.rfind(", ") {
                let tail = head[k + 2..].to_string();
                if tail.split_whitespace().count() <= 3 && starts_item(&tail) {
                    items.push(tail);
                    head.truncate(k);
                    while let Some(k2) = head.rfind(", ") {
                        let t2 = head[k2 + 2..].to_string();
                        if t2.split_whitespace().count() <= 3 && starts_item(&t2) {
                            items.insert(0, t2);
                            head.truncate(k2);
                        } else {
                            break;
                        }
                    }
                }
            }
            // "India, Pakistan and Bangladesh in 2025": the last item's trailing phrase applies to all.
            let mut rest: Vec<String> = items.into_iter().chain(segs[1..].iter().cloned()).collect();
            let mut suffix = String::new();
            if let Some(last) = rest.last_mut() {
                let words: Vec<&str> = last.split_whitespace().collect();
                let first = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
                if !QUESTION_STARTS.contains(&first.as_str()) {
                    if let Some(k) = words.iter().skip(1).position(|w| PREPOSITIONS.contains(&w.to_lowercase().as_str())).map(|k| k + 1) {
                        if k <= 3 {
                            suffix = words[k..].join(" ");
                            *last = words[..k].join(" ");
                        }
                    }
                }
            }
            let with_suffix = |t: String| if suffix.is_empty() { t } else { format!("{t} {suffix}") };
            texts.push(with_suffix(head.clone()));
            for it in rest {
                let first = it.split_whitespace().next().unwrap_or("").to_lowercase();
                if it.split_whitespace().count() >= 4 || QUESTION_STARTS.contains(&first.as_str()) {
                    texts.push(it);
                } else {
                    texts.push(with_suffix(substitute_item(&head, &it)));
                }
            }
        }
    }
    if texts.is_empty() {
        texts.push(q_trim.clone());
    }
    let mut seen = BTreeSet::new();
    let claims: Vec<PlannedClaim> = texts
        .into_iter()
        .map(|t| collapse_ws(&t))
        .filter(|t| !t.is_empty() && seen.insert(t.to_lowercase()))
        .take(3)
        .map(|t| {
            let claim_type = claim_type_of(&t).unwrap_or(fallback_type);
            PlannedClaim { text: t, claim_type }
        })
        .collect();
    if claims.is_empty() {
        return PlannerOut { claims: vec![PlannedClaim { text: if q.is_empty() { "the question".into() } else { q }, claim_type: fallback_type }] };
    }
    PlannerOut { claims }
}

// ---------------------------------------------------------------- blocks

/// A `[KIND i] (meta)` block: index, meta text inside the parentheses, body.
#[derive(Debug, Clone)]
struct Block {
    index: i64,
    meta: String,
    body: String,
}

fn blocks(user: &str, kind: &str) -> Vec<Block> {
    let mut out: Vec<Block> = vec![];
    let open = format!("[{kind} ");
    for line in user.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(&open) {
            if let Some(close) = rest.find(']') {
                if let Ok(index) = rest[..close].trim().parse::<i64>() {
                    let after = rest[close + 1..].trim();
                    let meta = after.strip_prefix('(').and_then(|m| m.rfind(')').map(|k| m[..k].to_string())).unwrap_or_default();
                    let inline = if after.starts_with('(') { after.rfind(')').map(|k| after[k + 1..].trim()).unwrap_or("") } else { after };
                    out.push(Block { index, meta, body: inline.to_string() });
                    continue;
                }
            }
        }
        if let Some(b) = out.last_mut() {
            if !b.body.is_empty() {
                b.body.push('\n');
            }
            b.body.push_str(line);
        }
    }
    for b in &mut out {
        b.body = b.body.trim().to_string();
    }
    out
}

fn meta_field(meta: &str, key: &str) -> Option<String> {
    let k = meta.find(&format!("{key}:"))?;
    let rest = &meta[k + key.len() + 1..];
    // Caption is last and may contain commas; other fields end at the next ", ".
    let v = if key == "caption" { rest } else { rest.split(", ").next().unwrap_or(rest) };
    let v = v.trim();
    if v.is_empty() || v == "none" {
        None
    } else {
        Some(v.to_string())
    }
}

fn claim_of(user: &str) -> String {
    sec(user, "CLAIM").map(|c| collapse_ws(c.lines().take_while(|l| !l.trim().is_empty()).collect::<Vec<_>>().join(" ").as_str())).unwrap_or_default()
}

/// Year-ish period tokens in a text: "2022", "FY2022", "FY22", "fiscal 2022", "Q3 2023".
fn periods(s: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for w in raw_words(s) {
        let l = w.to_lowercase();
        let digits: String = l.chars().filter(|c| c.is_ascii_digit()).collect();
        if digits.len() == 4 && (digits.starts_with("19") || digits.starts_with("20")) {
            out.insert(digits[2..].to_string());
        } else if l.starts_with("fy") && digits.len() == 2 && l.len() == 4 {
            out.insert(digits);
        }
    }
    out
}

// ---------------------------------------------------------------- narrative

fn hedge_type_of(s: &str) -> HedgeType {
    let l = format!(" {} ", s.to_lowercase());
    let has = |ks: &[&str]| ks.iter().any(|k| l.contains(k));
    if has(&["according to", " said", " stated", " reported by", " claims ", " claimed"]) {
        HedgeType::Attribution
    } else if has(&[" may ", " might ", " expect", " estimate", " likely", " anticipate", " could ", " projected", " forecast"]) {
        HedgeType::Hedge
    } else {
        HedgeType::Fact
    }
}

const METRIC_VERBS: &[&str] = &[
    "was", "were", "is", "are", "of", "totaled", "totalled", "reached", "amounted", "stood", "increased", "decreased", "rose",
    "fell", "grew", "declined", "improved", "came", "equaled", "equalled", "hit",
];

/// `(metric, period, value, unit)` from a sentence like "Net revenue in fiscal 2022 was $5.2 billion".
fn metric_of_sentence(sent: &str) -> Option<(String, String, String, Option<String>)> {
    let nums = numbers(sent);
    let years: Vec<&Num> = nums.iter().filter(|n| n.is_year()).collect();
    let value = nums.iter().find(|n| !n.is_year() && !sent[..n.start].trim_end().to_lowercase().ends_with("fy"))?;
    let year = years.iter().min_by_key(|y| (y.start as i64 - value.start as i64).abs())?;
    // Metric: the words before the verb that precedes the value.
    let before = &sent[..value.start];
    let words: Vec<&str> = before.split_whitespace().collect();
    let verb = words.iter().rposition(|w| METRIC_VERBS.contains(&w.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase().as_str()))?;
    let mut metric_words: Vec<&str> = words[..verb].to_vec();
    // Cut a trailing period phrase ("in fiscal 2022", "for 2022").
    if let Some(k) = metric_words.iter().position(|w| ["in", "for", "during", "at"].contains(&w.to_lowercase().as_str())) {
        metric_words.truncate(k);
    }
    let take = metric_words.len().min(4);
    let metric_words = &metric_words[metric_words.len() - take..];
    let metric = metric_words
        .iter()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '&' && c != '-'))
        .filter(|w| !w.is_empty())
        .skip_while(|w| ["the", "a", "an", "our", "its", "their", "and"].contains(&w.to_lowercase().as_str()))
        .collect::<Vec<_>>()
        .join(" ");
    if metric.is_empty() || !metric.chars().any(|c| c.is_alphabetic()) {
        return None;
    }
    // Period as written: "fiscal 2022" / "FY2022" / "2022".
    let pre = sent[..year.start].trim_end();
    let period = if pre.to_lowercase().ends_with("fiscal year") {
        format!("fiscal year {}", year.text)
    } else if pre.to_lowercase().ends_with("fiscal") {
        format!("fiscal {}", year.text)
    } else if year.start >= 2 && sent.as_bytes()[year.start - 2..year.start].eq_ignore_ascii_case(b"fy") {
        format!("{}{}", &sent[year.start - 2..year.start], year.text)
    } else {
        year.text.clone()
    };
    let after = sent[value.end..].trim_start().to_lowercase();
    let scale = ["trillion", "billion", "million", "thousand"].into_iter().find(|s| after.starts_with(s));
    let dollar = sent[..value.start].trim_end().ends_with('$');
    let unit = if after.starts_with('%') || after.starts_with("percent") {
        Some("%".to_string())
    } else {
        match (dollar, scale) {
            (true, Some(s)) => Some(format!("$ {s}")),
            (true, None) => Some("$".to_string()),
            (false, Some(s)) => Some(s.to_string()),
            (false, None) => None,
        }
    };
    let digits: String = value.text.chars().filter(|c| *c != ',').collect();
    Some((metric, period, digits, unit))
}

fn narrative(user: &str) -> NarrativeOut {
    let claim = content_set(&claim_of(user));
    let tags = blocks(user, "SPAN")
        .into_iter()
        .map(|b| {
            let hedge_type = hedge_type_of(&b.body);
            // The sentence with a labelled figure that best matches the claim.
            let best = sentences(&b.body)
                .into_iter()
                .filter_map(|s| metric_of_sentence(&s).map(|m| (overlap(&claim, &content_set(&s)), m)))
                .max_by_key(|(o, _)| *o)
                .filter(|(o, _)| *o > 0 || claim.is_empty());
            match best {
                Some((_, (metric, period, value, unit))) => SpanTag {
                    span_index: b.index,
                    hedge_type,
                    metric_label: Some(metric),
                    period_label: Some(period),
                    value: Some(value),
                    unit,
                },
                None => SpanTag { span_index: b.index, hedge_type, metric_label: None, period_label: None, value: None, unit: None },
            }
        })
        .collect();
    NarrativeOut { tags }
}

// ---------------------------------------------------------------- tabular

#[derive(Debug, Clone)]
struct Row {
    label: String,
    cells: Vec<(String, String)>,
}

fn split_md_row(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    t.split('|').map(|c| c.trim().to_string()).collect()
}

fn is_separator_row(cells: &[String]) -> bool {
    !cells.is_empty() && cells.iter().all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':' || ch == ' '))
}

/// Rows of a table document: a markdown table and/or row docs `[caption — ]label: col=val, col=val`.
fn table_rows(body: &str) -> Vec<Row> {
    let mut rows = vec![];
    let mut header: Option<Vec<String>> = None;
    for line in body.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('|') {
            let cells = split_md_row(t);
            if is_separator_row(&cells) {
                continue;
            }
            match &header {
                None => header = Some(cells),
                Some(h) => {
                    if cells.is_empty() || cells[0].is_empty() {
                        continue;
                    }
                    let pairs = cells[1..]
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| !v.is_empty())
                        .map(|(j, v)| (h.get(j + 1).cloned().unwrap_or_else(|| format!("column {}", j + 2)), v.clone()))
                        .collect();
                    rows.push(Row { label: cells[0].clone(), cells: pairs });
                }
            }
        } else if let Some((label, rest)) = {
            // `[caption — ]label: ...`: the caption may itself contain ": ", so cut it off first.
            let first_eq = t.find('=').unwrap_or(t.len());
            let t = match t[..first_eq].rfind(" — ") {
                Some(d) => &t[d + " — ".len()..],
                None => t,
            };
            t.find(": ").map(|k| (t[..k].trim(), &t[k + 2..]))
        } {
            let mut pairs = vec![];
            for part in split_pairs(rest) {
                if let Some(e) = part.find('=') {
                    let (c, v) = (part[..e].trim(), part[e + 1..].trim());
                    if !c.is_empty() && !v.is_empty() {
                        pairs.push((c.to_string(), v.to_string()));
                    }
                }
            }
            if !pairs.is_empty() && !label.is_empty() {
                rows.push(Row { label: label.to_string(), cells: pairs });
            }
        }
    }
    rows
}

/// Split `a=1, b=2,345, c=3` on the ", " that starts a new `key=` pair (values may contain commas).
fn split_pairs(s: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for piece in s.split(", ") {
        let starts_pair = piece.contains('=') && !piece.starts_with(|c: char| c.is_ascii_digit());
        match out.last_mut() {
            Some(last) if !starts_pair => {
                last.push_str(", ");
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

fn unit_of(value: &str, context: &str) -> Option<String> {
    let ctx = context.to_lowercase();
    if value.contains('%') {
        return Some("%".into());
    }
    for s in ["in billions", "in millions", "in thousands"] {
        if ctx.contains(s) {
            let scale = &s[3..];
            return Some(if value.contains('$') || ctx.contains('$') { format!("$ {scale}") } else { scale.to_string() });
        }
    }
    if value.contains('$') {
        return Some("$".into());
    }
    None
}

fn tabular(user: &str) -> TabularOut {
    let claim_text = claim_of(user);
    let claim = content_set(&claim_text);
    let claim_periods = periods(&claim_text);
    let mut picks: Vec<(usize, CellPick)> = vec![];
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut candidates: Vec<(usize, i64, Row, String)> = vec![];
    for b in blocks(user, "TABLE") {
        let caption = meta_field(&b.meta, "caption").unwrap_or_default();
        for row in table_rows(&b.body) {
            let label_words = content_set(&row.label);
            if label_words.is_empty() {
                continue;
            }
            let shared = overlap(&label_words, &claim);
            // The row must be about the claim: at least half of its label's words are claim words.
            if shared == 0 || shared * 2 < label_words.len() {
                continue;
            }
            candidates.push((shared, b.index, row, format!("{caption} {}", b.body.lines().next().unwrap_or(""))));
        }
    }
    let best = candidates.iter().map(|c| c.0).max().unwrap_or(0);
    for (score, index, row, context) in candidates {
        if score < best {
            continue;
        }
        let numeric: Vec<&(String, String)> = row.cells.iter().filter(|(_, v)| v.chars().any(|c| c.is_ascii_digit())).collect();
        let table_has_periods = row.cells.iter().any(|(c, _)| !periods(c).is_empty());
        let chosen: Vec<&(String, String)> = if !claim_periods.is_empty() && table_has_periods {
            numeric.iter().copied().filter(|(c, _)| periods(c).iter().any(|p| claim_periods.contains(p))).take(2).collect()
        } else {
            numeric.iter().copied().take(2).collect()
        };
        for (col, value) in chosen {
            if !seen.insert((row.label.clone(), col.clone())) {
                continue;
            }
            picks.push((
                score,
                CellPick { table_index: index, row_label: row.label.clone(), col_label: col.clone(), value: value.clone(), unit: unit_of(value, &format!("{context} {col}")) },
            ));
        }
    }
    TabularOut { cells: picks.into_iter().map(|(_, c)| c).take(6).collect() }
}

// ---------------------------------------------------------------- visual

fn visual(user: &str) -> VisualOut {
    let claim = content_set(&claim_of(user));
    let findings = blocks(user, "CHART")
        .into_iter()
        .map(|b| {
            let caption = meta_field(&b.meta, "caption");
            let kind = meta_field(&b.meta, "type").unwrap_or_else(|| "other".into());
            let about = content_set(&format!("{} {}", caption.clone().unwrap_or_default(), b.body));
            let relevant = overlap(&claim, &about) > 0;
            let finding = if relevant {
                let best = sentences(&b.body)
                    .into_iter()
                    .max_by_key(|s| (overlap(&claim, &content_set(s)), numbers(s).len()))
                    .unwrap_or_default();
                let name = caption.map(|c| format!(" \"{c}\"")).unwrap_or_default();
                format!("The {kind} chart{name} shows (approximate reading): {best}")
            } else {
                "This chart is not about the claim's metric.".to_string()
            };
            ChartFinding { chart_index: b.index, relevant, finding }
        })
        .collect();
    VisualOut { findings }
}

// ---------------------------------------------------------------- debate

fn claim_and_evidence(user: &str) -> (String, String, Vec<EvidenceLine>) {
    let claim = claim_of(user);
    let ev = sec(user, "EVIDENCE").unwrap_or_default();
    let lines = if is_no_evidence(&ev) { vec![] } else { evidence_lines(&ev) };
    (claim, ev, lines)
}

/// The sentence of `content` that best matches the claim (claim words, then numbers).
fn best_sentence(content: &str, claim: &BTreeSet<String>) -> (usize, String) {
    let mut best: Option<(usize, usize, String)> = None;
    for s in sentences(content) {
        let score = overlap(claim, &content_set(&s));
        let n = numbers(&s).len().min(3);
        if best.as_ref().map(|b| (score, n) > (b.0, b.1)).unwrap_or(true) {
            best = Some((score, n, s));
        }
    }
    best.map(|(s, _, t)| (s, t)).unwrap_or((0, content.to_string()))
}

/// Table evidence `row / col = value[ unit]` read as a sentence.
fn readable(sentence: &str) -> String {
    let s = sentence.trim();
    if let (Some(slash), Some(eq)) = (s.find(" / "), s.find(" = ")) {
        if slash < eq {
            return format!("{} for {} was {}", &s[..slash], &s[slash + 3..eq], s[eq + 3..].trim());
        }
    }
    s.to_string()
}

fn end_sentence(s: &str) -> String {
    let t = s.trim().trim_end_matches([',', ';', ':']);
    if t.ends_with(['.', '!', '?']) {
        t.to_string()
    } else {
        format!("{t}.")
    }
}

fn affirmative(user: &str) -> AffirmativeOut {
    let (claim_text, _, lines) = claim_and_evidence(user);
    if lines.is_empty() {
        return AffirmativeOut { brief: format!("The evidence does not support the claim \"{claim_text}\": no evidence was provided.") };
    }
    let claim = content_set(&claim_text);
    let narrow = sec(user, "REPAIR").is_some() || sec(user, "OBJECTIONS").is_some();
    let mut ranked: Vec<(usize, usize, String, String)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (score, s) = best_sentence(&l.content, &claim);
            (score, i, s, l.citation.clone())
        })
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let top = ranked[0].0;
    let keep = if narrow { 1 } else { 3 };
    let parts: Vec<String> = ranked
        .into_iter()
        .filter(|r| r.0 > 0 || top == 0)
        .take(keep)
        .map(|(_, _, s, cite)| {
            let s = end_sentence(&readable(&s));
            if cite.is_empty() {
                s
            } else {
                format!("{} {cite}.", s.trim_end_matches('.'))
            }
        })
        .collect();
    AffirmativeOut { brief: parts.join(" ") }
}

fn adversarial(user: &str) -> AdversarialOut {
    let (_claim, ev, lines) = claim_and_evidence(user);
    let brief = sec(user, "AFFIRMATIVE BRIEF").unwrap_or_default();
    let mut attacks = vec![];
    if lines.is_empty() || is_no_evidence(&ev) {
        attacks.push(Attack { category: AttackCategory::Scope, detail: "There is no evidence for this claim, so the brief cannot be grounded.".into(), severity: Severity::High });
        return AdversarialOut { attacks, recommend_abstain: true };
    }
    let brief_t = brief.trim();
    if brief_t.is_empty() || brief_t.to_lowercase().starts_with("(no brief") {
        return AdversarialOut {
            attacks: vec![Attack { category: AttackCategory::Scope, detail: "No affirmative brief was written.".into(), severity: Severity::High }],
            recommend_abstain: true,
        };
    }
    let evidence_text: String = lines.iter().map(|l| l.content.as_str()).collect::<Vec<_>>().join(" ");
    let ev_nums = numbers(&evidence_text);
    let plain = strip_citations(brief_t);
    let missing: Vec<String> = numbers(&plain)
        .into_iter()
        .filter(|n| !ev_nums.iter().any(|e| same_number(e.value, n.value)))
        .map(|n| n.text)
        .collect();
    if !missing.is_empty() {
        attacks.push(Attack {
            category: AttackCategory::Numeric,
            detail: format!("The brief states {} which does not appear in the evidence.", missing.join(", ")),
            severity: Severity::High,
        });
    }
    let cites = citations(brief_t);
    if cites.is_empty() {
        attacks.push(Attack { category: AttackCategory::CitationGap, detail: "The brief cites no [source, page] for its statements.".into(), severity: Severity::Medium });
    } else {
        let known: BTreeSet<&str> = lines.iter().map(|l| l.citation.as_str()).collect();
        let unknown: Vec<&String> = cites.iter().filter(|c| !known.contains(c.as_str())).collect();
        if !unknown.is_empty() {
            attacks.push(Attack {
                category: AttackCategory::CitationGap,
                detail: format!("The brief cites {} which is not among the evidence.", unknown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")),
                severity: Severity::Medium,
            });
        }
    }
    let causal = ["because", "due to", "driven by", "caused by", "as a result of", "resulted from"];
    let lb = plain.to_lowercase();
    let le = evidence_text.to_lowercase();
    if let Some(c) = causal.iter().find(|c| lb.contains(*c)) {
        if !causal.iter().any(|c| le.contains(c)) {
            attacks.push(Attack {
                category: AttackCategory::CausalOverclaim,
                detail: format!("The brief asserts causation (\"{c}\") that the evidence does not state."),
                severity: Severity::Medium,
            });
        }
    }
    AdversarialOut { attacks, recommend_abstain: false }
}

// ---------------------------------------------------------------- entailment

/// The content words just before a number (its label), for contradiction detection.
fn label_before(s: &str, n: &Num) -> Vec<String> {
    let words = content_words(&s[..n.start]);
    words.into_iter().rev().take(2).collect()
}

fn entailment(user: &str) -> EntailmentOut {
    let premise_raw = sec(user, "PREMISE").unwrap_or_default();
    let hypothesis_raw = sec(user, "HYPOTHESIS").unwrap_or_default();
    if is_no_evidence(&premise_raw) {
        return EntailmentOut { label: EntailmentLabel::Neutral, confidence: 0.3, rationale: "The premise holds no evidence.".into() };
    }
    let premise = strip_citations(&premise_raw);
    let hypothesis = strip_citations(&hypothesis_raw);
    if hypothesis.trim().is_empty() {
        return EntailmentOut { label: EntailmentLabel::Neutral, confidence: 0.3, rationale: "The hypothesis is empty.".into() };
    }
    let p_nums = numbers(&premise);
    let h_nums = numbers(&hypothesis);
    let missing: Vec<&Num> = h_nums.iter().filter(|h| !p_nums.iter().any(|p| same_number(p.value, h.value))).collect();
    if !missing.is_empty() {
        // Contradiction: the premise gives a different figure for the same label.
        for m in &missing {
            let label = label_before(&hypothesis, m);
            if label.is_empty() || m.is_year() {
                continue;
            }
            for p in p_nums.iter().filter(|p| !p.is_year()) {
                let pl = label_before(&premise, p);
                if !pl.is_empty() && pl[0] == label[0] {
                    return EntailmentOut {
                        label: EntailmentLabel::Contradicts,
                        confidence: 0.8,
                        rationale: format!("The premise gives {} for \"{}\", not {}.", p.text, label[0], m.text),
                    };
                }
            }
        }
        return EntailmentOut {
            label: EntailmentLabel::Neutral,
            confidence: 0.3,
            rationale: format!("The figure(s) {} do not appear in the premise.", missing.iter().map(|n| n.text.as_str()).collect::<Vec<_>>().join(", ")),
        };
    }
    let hw = content_set(&hypothesis);
    let pw = content_set(&premise);
    let frac = if hw.is_empty() { 1.0 } else { overlap(&hw, &pw) as f64 / hw.len() as f64 };
    if frac >= 0.6 {
        EntailmentOut { label: EntailmentLabel::Entails, confidence: 1.0, rationale: format!("Every figure and {:.0}% of the terms are in the premise.", frac * 100.0) }
    } else if frac >= 0.4 {
        EntailmentOut { label: EntailmentLabel::Entails, confidence: 0.9, rationale: format!("Every figure and {:.0}% of the terms are in the premise.", frac * 100.0) }
    } else {
        EntailmentOut { label: EntailmentLabel::Neutral, confidence: 0.3, rationale: format!("Only {:.0}% of the hypothesis terms are in the premise.", frac * 100.0) }
    }
}

// ---------------------------------------------------------------- judge, synthesis

fn judge_draft(user: &str) -> JudgeDraftOut {
    let (claim_text, _, lines) = claim_and_evidence(user);
    if lines.is_empty() {
        return JudgeDraftOut { insufficient: true, sentence: "INSUFFICIENT EVIDENCE".into() };
    }
    let claim = content_set(&claim_text);
    // Authority order: the first line that is about the claim.
    let line = lines.iter().find(|l| overlap(&claim, &content_set(&l.content)) > 0).unwrap_or(&lines[0]);
    let (_, s) = best_sentence(&line.content, &claim);
    let sentence = end_sentence(&strip_citations(&readable(&s)));
    if sentence.trim_end_matches('.').trim().is_empty() {
        return JudgeDraftOut { insufficient: true, sentence: "INSUFFICIENT EVIDENCE".into() };
    }
    JudgeDraftOut { insufficient: false, sentence }
}

fn synthesizer(user: &str) -> SynthesizerOut {
    let block = sec(user, "AUDITED STATEMENTS").unwrap_or_default();
    let lines: Vec<String> = block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.strip_prefix("- ").unwrap_or(l).trim().to_string())
        .collect();
    if lines.is_empty() {
        return SynthesizerOut { answer: "The question could not be answered from the source.".into() };
    }
    SynthesizerOut { answer: lines.join(" ") }
}

// ---------------------------------------------------------------- evaluation, hyde

fn number_matches(gold: &Num, sys: &[Num]) -> bool {
    let tol = 0.5 * 10f64.powi(-(gold.decimals as i32));
    sys.iter().any(|s| {
        [1.0, 1e3, 1e-3, 1e6, 1e-6].iter().any(|k| {
            let v = s.value * k;
            (v - gold.value).abs() <= tol.max(1e-9) || same_number(v, gold.value)
        })
    })
}

fn correctness(user: &str) -> CorrectnessOut {
    let gold = sec(user, "GOLD ANSWER").unwrap_or_default();
    let sys = strip_citations(&sec(user, "SYSTEM ANSWER").unwrap_or_default());
    let g = numbers(&gold);
    let s = numbers(&sys);
    if !g.is_empty() {
        let hit = g.iter().filter(|n| number_matches(n, &s)).count();
        let (label, why) = if hit == g.len() {
            (CorrectnessLabel::Correct, "every figure of the gold answer is in the system answer")
        } else if hit > 0 {
            (CorrectnessLabel::Partial, "some figures of the gold answer are in the system answer")
        } else {
            (CorrectnessLabel::Incorrect, "no figure of the gold answer is in the system answer")
        };
        return CorrectnessOut { label, rationale: format!("{hit} of {} gold figures found: {why}.", g.len()) };
    }
    let gw = content_set(&gold);
    let frac = if gw.is_empty() { 0.0 } else { overlap(&gw, &content_set(&sys)) as f64 / gw.len() as f64 };
    let label = if frac >= 0.6 {
        CorrectnessLabel::Correct
    } else if frac >= 0.3 {
        CorrectnessLabel::Partial
    } else {
        CorrectnessLabel::Incorrect
    };
    CorrectnessOut { label, rationale: format!("{:.0}% of the gold answer's terms are in the system answer.", frac * 100.0) }
}

/// The harness's faithfulness judge: the mock's entailment rule, evidence as premise, the published
/// claim as hypothesis.
fn faithfulness(user: &str) -> FaithfulnessOut {
    let evidence = sec(user, "CITED EVIDENCE").unwrap_or_default();
    let claim = sec(user, "PUBLISHED CLAIM").unwrap_or_default();
    let e = entailment(&format!("PREMISE:\n{evidence}\n\nHYPOTHESIS:\n{claim}"));
    let label = if e.label == EntailmentLabel::Entails { FaithfulnessLabel::Supported } else { FaithfulnessLabel::NotSupported };
    FaithfulnessOut { label, rationale: e.rationale }
}

fn hyde(user: &str) -> HydeOut {
    let q = question_of(user);
    let topic = q.trim().trim_end_matches('?').trim();
    HydeOut { passage: format!("This passage from the filing answers the question \"{q}\". It reports {topic}, with the figures, periods and explanations the company disclosed.") }
}

// ---------------------------------------------------------------- page vision

/// The vision prompt's header lines (`ingest::vision::user_prompt`): the drawing region as page
/// fractions, and the native text layer the mock reads instead of the image.
fn vision_prompt(user: &str) -> (Option<Vec<f32>>, String) {
    let mut region = None;
    let mut text = vec![];
    for line in user.lines() {
        if let Some(r) = line.strip_prefix("DRAWING REGION:") {
            let v: Vec<f32> = r.split_whitespace().filter_map(|x| x.parse().ok()).collect();
            region = (v.len() == 4).then_some(v);
        } else if !(line.starts_with("SOURCE:") || line.starts_with("NATIVE TEXT LAYER:") || line == "(none usable)") {
            text.push(line);
        }
    }
    (region, text.join("\n"))
}

/// A chart page (the prompt names a drawing region): a line chart whose periods are the years of
/// the header line and whose series are the rows with one value per period — what a vision model
/// reads off a performance graph and the data table printed under it.
fn chart_from_text(text: &str, region: Vec<f32>) -> Option<VisionChart> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let periods: Vec<String> = lines
        .iter()
        .map(|l| numbers(l).into_iter().filter(|n| n.is_year()).map(|n| n.text).collect::<Vec<_>>())
        .find(|y| y.len() >= 2)?;
    let mut series = vec![];
    let mut readings = vec![];
    for l in &lines {
        let nums = numbers(l);
        if nums.len() < periods.len() || nums.iter().rev().take(periods.len()).any(|n| n.is_year()) {
            continue;
        }
        let vals = &nums[nums.len() - periods.len()..];
        let label = l[..vals[0].start].trim().trim_end_matches(['$', '(']).trim();
        if label.is_empty() || !label.chars().any(|c| c.is_alphabetic()) {
            continue;
        }
        series.push(label.to_string());
        for (p, v) in periods.iter().zip(vals) {
            readings.push(ValueReading { series: label.to_string(), period: p.clone(), approx_value: v.text.clone() });
        }
    }
    if series.is_empty() {
        return None;
    }
    let (first, last) = (periods.first()?, periods.last()?);
    let trend: Vec<String> = series
        .iter()
        .map(|s| {
            let v: Vec<&ValueReading> = readings.iter().filter(|r| &r.series == s).collect();
            let (a, b) = (v.first().map(|r| r.approx_value.as_str()).unwrap_or(""), v.last().map(|r| r.approx_value.as_str()).unwrap_or(""));
            let dir = match (a.replace(',', "").parse::<f64>(), b.replace(',', "").parse::<f64>()) {
                (Ok(x), Ok(y)) if y > x => "rose",
                (Ok(x), Ok(y)) if y < x => "fell",
                _ => "was flat",
            };
            format!("{s} {dir} from {a} in {first} to {b} in {last}.")
        })
        .collect();
    let caption = lines
        .iter()
        .find(|l| ["comparison", "graph", "figure", "chart", "cumulative"].iter().any(|k| l.to_lowercase().contains(k)))
        .map(|l| l.to_string());
    Some(VisionChart {
        caption,
        chart_type: "line".into(),
        axis_labels: format!("period ({first}–{last}) vs value"),
        series,
        trend_description: trend.join(" "),
        value_readings: readings,
        region: Some(region),
    })
}

fn page_vision(user: &str, variant: Option<u64>) -> PageVisionOut {
    let (region, text) = vision_prompt(user);
    let chart = region.and_then(|r| chart_from_text(&text, r));
    let user = text.as_str();
    let mut prose = vec![];
    let mut tables = vec![];
    let mut md: Vec<Vec<String>> = vec![];
    let mut numeric_rows: Vec<Vec<String>> = vec![];
    let mut year_header: Option<Vec<String>> = None;
    let mut caption: Option<String> = None;
    let flush_md = |md: &mut Vec<Vec<String>>, tables: &mut Vec<VisionTable>, caption: &Option<String>| {
        if md.len() >= 2 {
            let columns = md[0].clone();
            let n = columns.len();
            let rows = md[1..].iter().map(|r| (0..n).map(|j| r.get(j).cloned().unwrap_or_default()).collect()).collect();
            tables.push(VisionTable { caption: caption.clone(), columns, rows });
        }
        md.clear();
    };
    for line in user.lines() {
        let t = line.trim();
        if t.starts_with('|') {
            let cells = split_md_row(t);
            if !is_separator_row(&cells) {
                md.push(cells);
            }
            continue;
        }
        flush_md(&mut md, &mut tables, &caption);
        if t.is_empty() {
            continue;
        }
        let lower = t.to_lowercase();
        if lower.starts_with("table") {
            caption = Some(t.trim_matches('*').to_string());
        }
        let nums = numbers(t);
        let years = nums.iter().filter(|n| n.is_year()).count();
        let first_num = nums.first().map(|n| n.start).unwrap_or(t.len());
        let label = t[..first_num].trim().trim_end_matches(['$', '(']).trim();
        if years >= 2 && years == nums.len() && label.split_whitespace().count() <= 3 {
            year_header = Some(nums.iter().map(|n| n.text.clone()).collect());
        } else if nums.len() >= 2 && !label.is_empty() && label.chars().any(|c| c.is_alphabetic()) && label.len() <= 60 {
            let mut row = vec![label.to_string()];
            row.extend(nums.iter().map(|n| n.text.clone()));
            numeric_rows.push(row);
        } else {
            prose.push(t.to_string());
        }
    }
    flush_md(&mut md, &mut tables, &caption);
    if tables.is_empty() && numeric_rows.len() >= 2 {
        let width = numeric_rows.iter().map(Vec::len).max().unwrap_or(2);
        let mut columns = vec!["Item".to_string()];
        match &year_header {
            Some(h) if h.len() == width - 1 => columns.extend(h.iter().cloned()),
            _ => columns.extend((1..width).map(|j| format!("Column {j}"))),
        }
        let rows = numeric_rows.into_iter().map(|mut r| {
            r.resize(width, String::new());
            r
        });
        tables.push(VisionTable { caption: caption.clone(), columns, rows: rows.collect() });
    }
    if let Some(k) = variant {
        // Consensus tests: a table whose cells differ on every call.
        tables = vec![VisionTable {
            caption: Some("Mock table (vision_disagree)".into()),
            columns: vec!["Item".into(), "Value".into()],
            rows: (0..3).map(|r| vec![format!("Row {}", r + 1), format!("{}", 100 * (k + 1) + r)]).collect(),
        }];
    }
    let charts = if let Some(c) = chart {
        vec![c]
    } else if prose.iter().any(|l| l.to_lowercase().starts_with("figure") || l.to_lowercase().starts_with("chart")) {
        let cap = prose.iter().find(|l| l.to_lowercase().starts_with("figure") || l.to_lowercase().starts_with("chart")).cloned();
        let readings: Vec<ValueReading> = prose
            .iter()
            .flat_map(|l| {
                let nums = numbers(l);
                let years: Vec<Num> = nums.iter().filter(|n| n.is_year()).cloned().collect();
                let vals: Vec<Num> = nums.into_iter().filter(|n| !n.is_year()).collect();
                years.into_iter().zip(vals).map(|(y, v)| ValueReading { series: "value".into(), period: y.text, approx_value: v.text }).collect::<Vec<_>>()
            })
            .take(6)
            .collect();
        vec![VisionChart {
            caption: cap,
            chart_type: "bar".into(),
            axis_labels: "period vs value".into(),
            series: vec!["value".into()],
            trend_description: "Values as read from the chart (mock).".into(),
            value_readings: readings,
            region: None,
        }]
    } else {
        vec![]
    };
    PageVisionOut { prose_text: prose.join("\n"), tables, charts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planner_splits_items_and_types_claims() {
        let p = planner("QUESTION: What was the GDP growth in India and Pakistan in 2024?\n\nPreview:\n- [a, p.1, text] x");
        let texts: Vec<&str> = p.claims.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        let p = planner("QUESTION: What were research and development expenses in FY2022?");
        assert_eq!(p.claims.len(), 1);
        assert_eq!(p.claims[0].claim_type, ClaimType::FactNumeric);
        let p = planner("QUESTION: Why did revenue decline in 2023?");
        assert_eq!(p.claims[0].claim_type, ClaimType::CauseAttribution);
        let p = planner("QUESTION: What was revenue in 2022 and 2023?");
        assert_eq!(p.claims[1].text, "What was revenue in 2023", "{p:?}");
        let p = planner("QUESTION: What were the projected growth rates for India, Pakistan and Bangladesh in 2025?");
        let texts: Vec<&str> = p.claims.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, vec![
            "What were the projected growth rates for India in 2025",
            "What were the projected growth rates for Pakistan in 2025",
            "What were the projected growth rates for Bangladesh in 2025",
        ]);
        // Claim types come from whole words: "separation" does not contain the word "ratio".
        let p = planner("QUESTION: What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?");
        assert_eq!(p.claims[0].claim_type, ClaimType::FactNumeric, "{p:?}");
        let p = planner("QUESTION: What was the current ratio in FY2022?");
        assert_eq!(p.claims[0].claim_type, ClaimType::RatioIdentity);
        let p = planner("QUESTION: What is the FY2018 capex for 3M? Answer from the cash flow statement.");
        assert_eq!(p.claims[0].text, "What is the FY2018 capex for 3M");
    }

    #[test]
    fn narrative_tags_hedges_and_metrics() {
        let n = narrative("CLAIM: Net revenue in fiscal 2022\n\n[SPAN 0]\nNet revenue in fiscal 2022 was $5.2 billion.\n\n[SPAN 1]\nWe expect revenue may grow.");
        assert_eq!(n.tags.len(), 2);
        assert_eq!(n.tags[0].metric_label.as_deref(), Some("Net revenue"));
        assert_eq!(n.tags[0].period_label.as_deref(), Some("fiscal 2022"));
        assert_eq!(n.tags[0].value.as_deref(), Some("5.2"));
        assert_eq!(n.tags[0].unit.as_deref(), Some("$ billion"));
        assert_eq!(n.tags[1].hedge_type, HedgeType::Hedge);
    }

    #[test]
    fn row_docs_parse_with_caption_and_commas() {
        let r = table_rows("Table 1: Income statement — Net revenue: FY2022=5,200, FY2021=4,900");
        assert_eq!(r[0].label, "Net revenue");
        assert_eq!(r[0].cells, vec![("FY2022".into(), "5,200".into()), ("FY2021".into(), "4,900".into())]);
    }

    #[test]
    fn no_role_panics_on_odd_prompts() {
        let odd = [
            "", "\n\n", "CLAIM:", "QUESTION:", "[SPAN x]\n[SPAN 0]", "[TABLE 0] (page", "[CHART 0] (page 1, type: , caption: )\n|",
            "CLAIM: ünïcödé ＦＹ2022 was 5 in 2023\n\n[SPAN 0]\nKelvin \u{212A} FY2022 was 1,000.5 in 2021. [a, p.x] [",
            "PREMISE:\n[, p.1]\n\nHYPOTHESIS:\n1,2,3 [a.pdf, p.1",
            "EVIDENCE:\n[a.pdf, p.1]\n- \n[b.pdf, p.2] Row / col = \n\nAFFIRMATIVE BRIEF:\n[a.pdf, p.1]",
            "GOLD ANSWER:\n0.000\n\nSYSTEM ANSWER:\n1e308 99999999999999999999999",
            "| a | b |\n|---|---|\n| x |\n| | y | z |\nTable 1\nRevenue 2022 2023\nFigure 2 2021 5",
            "[TABLE 0] (page 1, caption: none)\nlabel: =, a=, =b, c=1,000, d",
        ];
        for r in Role::ALL {
            for u in odd {
                let v = answer(r, u, Some(1));
                assert!(!v.is_null(), "{} on {u:?}", r.name());
                let _ = answer(r, &format!("CLAIM: x\n\n{u}"), None);
            }
        }
    }

    #[test]
    fn chart_page_prompt_yields_series_readings_and_the_region() {
        let user = "SOURCE: BESTBUY_2019_10K.pdf, page 25\nDRAWING REGION: 0.124 0.113 0.876 0.466\n\nNATIVE TEXT LAYER:\nCOMPARISON OF 5 YEAR CUMULATIVE TOTAL RETURN*\nFiscal Years Ended  February 1, 2014  January 31, 2015  January 30, 2016\nBest Buy Co., Inc.  $ 100.00  $ 153.08  $ 126.20\nS&P 500  100.00  114.22  113.46\n23";
        let v = page_vision(user, None);
        let c = &v.charts[0];
        assert_eq!(c.series, vec!["Best Buy Co., Inc.", "S&P 500"]);
        assert_eq!(c.region, Some(vec![0.124, 0.113, 0.876, 0.466]));
        assert_eq!((c.value_readings[1].period.as_str(), c.value_readings[1].approx_value.as_str()), ("2015", "153.08"));
        assert!(c.trend_description.contains("S&P 500 rose from 100.00 in 2014 to 113.46 in 2016"), "{}", c.trend_description);
        assert!(!v.prose_text.contains("SOURCE:"), "the prompt's header is not page prose");
        // Without a drawing region (no chart signal) there is no chart.
        assert!(page_vision(&user.replace("DRAWING REGION: 0.124 0.113 0.876 0.466\n", ""), None).charts.is_empty());
    }

    #[test]
    fn entailment_detects_contradiction_by_label() {
        let e = entailment("PREMISE:\n[a, p.1] Revenue was 5,200 in 2022.\n\nHYPOTHESIS:\nRevenue was 6,100 in 2022.");
        assert_eq!(e.label, EntailmentLabel::Contradicts);
    }

    #[test]
    fn ragas_judge_supports_statements_whose_figures_and_terms_are_in_the_context() {
        let f = ragas_faithfulness("CONTEXT:\nNet sales in 2018 were $32,765 million.\n\nSTATEMENTS:\n- Net sales were $32,765 million in 2018.\n- Net sales were $40,000 million in 2018.");
        assert_eq!(f.verdicts.iter().map(|v| v.verdict).collect::<Vec<_>>(), vec![1, 0]);
        let p = ragas_context_precision("QUESTION: q\n\nCONTEXT:\nForward-looking statements.\n\nREFERENCE:\nNet sales were $32,765 million.");
        assert_eq!(p.verdict, 0);
        let st = ragas_statements("QUESTION: q\n\nANSWER:\nSales rose 3.5 percent [a.pdf, p.2]. Margins fell.");
        assert_eq!(st.statements, vec!["Sales rose 3.5 percent.", "Margins fell."]);
        assert_eq!(ragas_answer_relevancy("ANSWER:\nI am not sure.").noncommittal, 1);
    }

    #[test]
    fn graph_extraction_lists_capitalised_names_and_relates_them_within_a_sentence() {
        let g = graph_extraction("CHUNK:\nJohnson & Johnson completed the separation of Kenvue. The Consumer Health business is discontinued.");
        assert_eq!(g.entities, vec!["Johnson and Johnson", "Kenvue", "Consumer Health"]);
        assert_eq!(g.relations, vec![Relation { subject: "Johnson and Johnson".into(), predicate: "completed the separation of".into(), object: "Kenvue".into() }]);
    }
}