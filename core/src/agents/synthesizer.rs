//! Brief Synthesizer (paper §3.9; spec §7): one line per claim, one checked rephrase, abstention.
//!
//! The rephrase is always checked (spec §12): it is accepted only if every citation label survives
//! verbatim, no number appears that is not in a published line, abstentions stay recognisable, and
//! the text is non-empty. When no claim was published the model is not called at all: the answer is
//! the fixed abstention text, which states no figure (the reference let the model write anything
//! here and it invented figures).

use super::Ctx;
use crate::calc::is_year;
use crate::export::{Answer, AnswerLine, Citation};
use crate::ledger::Ledger;
use crate::llm::roles::SynthesizerOut;
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;
use serde::{Deserialize, Serialize};

use super::judge::Verdict;
use super::ClaimTask;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Rephrase {
    /// The model's text passed every check and is the answer.
    Accepted,
    /// The model's text failed a check; the raw lines are the answer.
    Rejected { reason: String },
    /// No call was made (every claim abstained, or a single-pass baseline).
    Skipped { reason: String },
}

/// Replace every number in a claim text with "…" so an abstention line states no figure.
pub fn mask_numbers(text: &str) -> String {
    let mut out = String::new();
    let mut in_num = false;
    for c in text.chars() {
        let numeric = c.is_ascii_digit() || (in_num && (c == ',' || c == '.'));
        if numeric {
            if !in_num {
                out.push('…');
            }
            in_num = true;
        } else {
            in_num = false;
            out.push(c);
        }
    }
    out
}

/// The fixed abstention sentence (spec §7.1: contains "insufficient", "evidence", "abstaining").
pub fn abstention_line(claim_text: &str) -> String {
    format!(
        "On \"{}\": there is insufficient grounded evidence to answer confidently, so the system is abstaining on this point.",
        mask_numbers(claim_text.trim())
    )
}

pub const ALL_ABSTAINED: &str = "The question could not be answered from the source documents: no claim passed the audit.";

pub fn label(c: &Citation) -> String {
    format!("[{}, p.{}]", c.source, c.page)
}

/// One line per claim, in claim order (spec §7.1).
pub fn lines(ledger: &Ledger, claims: &[(ClaimTask, Verdict)]) -> Vec<AnswerLine> {
    claims
        .iter()
        .map(|(task, v)| {
            if !v.published {
                return AnswerLine { claim_id: task.claim_id.clone(), published: false, text: abstention_line(&task.text), citations: vec![] };
            }
            let citations: Vec<Citation> = v.citations.iter().filter_map(|id| Citation::of(ledger, id)).collect();
            let mut labels: Vec<String> = vec![];
            for c in &citations {
                let l = label(c);
                if !labels.contains(&l) {
                    labels.push(l);
                }
            }
            let text = format!("{} {}", v.answer_fragment.trim(), labels.join(" ")).trim().to_string();
            AnswerLine { claim_id: task.claim_id.clone(), published: true, text, citations }
        })
        .collect()
}

pub fn user_message(question: &str, lines: &[AnswerLine]) -> String {
    let body: Vec<String> = lines.iter().map(|l| format!("- {}", l.text)).collect();
    format!("QUESTION: {question}\n\nAUDITED STATEMENTS:\n{}", body.join("\n"))
}

/// Words that say which way a change went (paper §3.9: a rephrase adds nothing, so it may not turn
/// a decrease into an increase).
const UP: &[&str] = &[
    "increase", "increased", "increases", "increasing", "rise", "rises", "rose", "risen", "rising", "grew", "grow", "grows", "grown",
    "growth", "up", "higher", "gain", "gained", "gains", "improved", "improve", "improvement", "climbed", "jumped", "expanded", "surged",
];
const DOWN: &[&str] = &[
    "decrease", "decreased", "decreases", "decreasing", "decline", "declined", "declines", "declining", "fell", "fall", "falls",
    "fallen", "falling", "drop", "dropped", "drops", "down", "lower", "reduced", "reduction", "shrank", "contracted", "dipped", "slid",
    "deteriorated", "worsened",
];
/// Words after which a number is a level, not a change ("fell to 42%", "was 5%", "from 43%").
const LEVEL: &[&str] = &["to", "from", "at", "of", "was", "were", "is", "are", "be", "reached", "totaled", "totalled", "stood"];
/// Unit words that may stand between a change and its direction ("5 percent decline").
const UNIT_WORDS: &[&str] = &["percent", "percentage", "point", "points", "pp", "bps", "basis", "million", "billion", "thousand"];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    /// A number: absolute value, explicitly negative (minus sign or accounting parentheses),
    /// followed by a percent sign.
    Num(f64, bool, bool),
}

fn tokens(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphabetic() {
            let mut w = String::new();
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '\'') {
                w.extend(c[i].to_lowercase());
                i += 1;
            }
            out.push(Tok::Word(w));
        } else if c[i].is_ascii_digit() {
            let start = i;
            let mut s = String::new();
            while i < c.len() && (c[i].is_ascii_digit() || ((c[i] == ',' || c[i] == '.') && c.get(i + 1).is_some_and(|d| d.is_ascii_digit()))) {
                if c[i] != ',' {
                    s.push(c[i]);
                }
                i += 1;
            }
            // Look back past currency signs for a minus or an opening parenthesis.
            let mut b = start;
            while b > 0 && matches!(c[b - 1], '$' | '€' | '£' | '¥' | '₹' | '৳') {
                b -= 1;
            }
            let minus = b > 0 && matches!(c[b - 1], '-' | '−' | '–') && (b < 2 || !c[b - 2].is_alphanumeric());
            let percent = c.get(i) == Some(&'%');
            let after = if percent { i + 1 } else { i };
            let paren = b > 0 && c[b - 1] == '(' && c.get(after) == Some(&')');
            if let Ok(v) = s.parse::<f64>() {
                out.push(Tok::Num(v, minus || paren, percent));
            }
        } else {
            i += 1;
        }
    }
    out
}

fn is_dir(w: &str) -> Option<bool> {
    if UP.contains(&w) {
        Some(true)
    } else if DOWN.contains(&w) {
        Some(false)
    } else {
        None
    }
}

/// The figures a text states, each with its sign as a reader takes it: negative when printed
/// negative ("-5%", "(1,234)") or when it is a change and a decrease word governs it ("fell 5%",
/// "a 5% decline", "a decline of 5%"); levels ("to $90 million", "was 42%") keep their printed
/// sign. Years are left out (a year has no sign; `years` lists them).
fn signed_figures(text: &str) -> Vec<(f64, bool)> {
    let t = tokens(text);
    let word = |j: usize| match t.get(j) {
        Some(Tok::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let mut out = vec![];
    for (i, tok) in t.iter().enumerate() {
        let &Tok::Num(v, negative, percent) = tok else { continue };
        if !percent && v.fract() == 0.0 && is_year(v) {
            continue;
        }
        let prev = if i > 0 { word(i - 1) } else { None };
        let prev2 = if i > 1 { word(i - 2) } else { None };
        let unit_after = percent || word(i + 1).is_some_and(|w| matches!(w, "percent" | "pp" | "bps" | "percentage" | "basis"));
        let change = prev == Some("by")
            || prev.and_then(is_dir).is_some()
            || (prev == Some("of") && prev2.and_then(is_dir).is_some())
            || (unit_after && !prev.is_some_and(|w| LEVEL.contains(&w)));
        let mut down = negative;
        if change && !negative {
            // A direction word just after ("5% decline", "5 percent lower"), else the nearest one
            // before it with no other number between.
            let after = (i + 1..t.len())
                .take_while(|&j| word(j).is_some())
                .take(3)
                .filter_map(|j| word(j))
                .find(|w| !UNIT_WORDS.contains(w))
                .and_then(is_dir);
            let before = (0..i).rev().take_while(|&j| word(j).is_some()).filter_map(|j| word(j).and_then(is_dir)).next();
            down = after.or(before) == Some(false);
        }
        out.push((v, down));
    }
    out
}

/// The years a text names ("in 2018").
fn years(text: &str) -> Vec<f64> {
    tokens(text)
        .into_iter()
        .filter_map(|t| match t {
            Tok::Num(v, _, false) if v.fract() == 0.0 && is_year(v) => Some(v),
            _ => None,
        })
        .collect()
}

/// A composed answer cut into sentences, each with the citation labels that follow it (a group of
/// labels after a full stop belongs to the sentence before it).
fn sentences(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = vec![];
    let mut cur = String::new();
    let mut depth = 0i32;
    for i in 0..c.len() {
        cur.push(c[i]);
        match c[i] {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        let end = c[i] == '\n' || (depth <= 0 && matches!(c[i], '.' | '!' | '?' | ';') && c.get(i + 1).is_none_or(|n| n.is_whitespace()));
        if end {
            out.push(std::mem::take(&mut cur));
        }
    }
    out.push(cur);
    let mut merged: Vec<String> = vec![];
    for s in out {
        // Labels that open a segment ("… in 2023. [a.pdf, p.4] Company …", the raw lines joined
        // with spaces) close the sentence before it.
        let (lead, s) = split_leading_labels(&s);
        match merged.last_mut() {
            Some(last) if !lead.is_empty() => last.push_str(lead),
            _ => {}
        }
        let s = if merged.is_empty() { format!("{lead}{s}") } else { s.to_string() };
        let bare: String = strip_labels(&s);
        if !bare.chars().any(char::is_alphanumeric) {
            // Only labels (or nothing): they close the sentence before.
            match merged.last_mut() {
                Some(last) => last.push_str(&s),
                None if s.trim().is_empty() => {}
                None => merged.push(s),
            }
        } else {
            merged.push(s);
        }
    }
    merged
}

/// (the leading `[…]` groups with their spaces, the rest).
fn split_leading_labels(s: &str) -> (&str, &str) {
    let mut end = 0;
    let mut rest = s;
    loop {
        let t = rest.trim_start();
        if !t.starts_with('[') {
            break;
        }
        let Some(close) = t.find(']') else { break };
        let consumed = rest.len() - t.len() + close + 1;
        end += consumed;
        rest = &rest[consumed..];
    }
    s.split_at(end)
}

/// The text without `[source, p.N]` labels (their page numbers are not figures).
fn strip_labels(t: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in t.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

fn line_labels(l: &AnswerLine) -> Vec<String> {
    let mut v: Vec<String> = vec![];
    for c in &l.citations {
        let s = label(c);
        if !v.contains(&s) {
            v.push(s);
        }
    }
    v
}

/// Check a composed answer against the audited lines (paper §3.9: rephrase and reorder, add
/// nothing; spec §7.2 fixed per §12). Ok(()) or the first reason it fails:
/// - every citation label survives verbatim;
/// - every figure it states is in a published line with the same sign: a rephrase that drops a
///   minus sign or the parentheses of a negative, or turns a decrease into an increase, fails;
/// - each line's label stays with that line's own sentence: a sentence stating a line's figures
///   carries one of that line's labels, and a label sits in a sentence stating its line's figures
///   (or, for a line without figures, one of its words);
/// - abstentions stay recognisable; the text is not empty.
pub fn check_rephrase(candidate: &str, lines: &[AnswerLine]) -> Result<(), String> {
    if candidate.trim().is_empty() {
        return Err("the composed answer is empty".into());
    }
    let published: Vec<&AnswerLine> = lines.iter().filter(|l| l.published).collect();
    let mut labels: Vec<String> = vec![];
    for l in &published {
        for s in line_labels(l) {
            if !labels.contains(&s) {
                labels.push(s);
            }
        }
    }
    if let Some(missing) = labels.iter().find(|l| !candidate.contains(l.as_str())) {
        return Err(format!("citation {missing} was dropped"));
    }
    // Per line: its labels, its signed figures, its words.
    let facts: Vec<(Vec<String>, Vec<(f64, bool)>, Vec<String>)> = published
        .iter()
        .map(|l| {
            let bare = strip_labels(&l.text);
            let words = tokens(&bare)
                .into_iter()
                .filter_map(|t| match t {
                    Tok::Word(w) if w.chars().count() >= 4 => Some(w),
                    _ => None,
                })
                .collect();
            (line_labels(l), signed_figures(&bare), words)
        })
        .collect();
    let same = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let line_years: Vec<f64> = published.iter().flat_map(|l| years(&strip_labels(&l.text))).collect();
    if let Some(y) = years(&strip_labels(candidate)).into_iter().find(|y| !line_years.contains(y)) {
        return Err(format!("the number {y} is not in any audited statement"));
    }
    let sents = sentences(candidate);
    for sent in &sents {
        let bare = strip_labels(sent);
        for (v, down) in signed_figures(&bare) {
            let owners: Vec<usize> = (0..facts.len()).filter(|&k| facts[k].1.iter().any(|&(w, d)| same(v, w) && d == down)).collect();
            if owners.is_empty() {
                let shown = if down { format!("-{v}") } else { v.to_string() };
                return Err(match facts.iter().any(|f| f.1.iter().any(|&(w, _)| same(v, w))) {
                    true => format!("the figure {v} changes sign or direction (read as {shown}) from the audited statement"),
                    false => format!("the number {v} is not in any audited statement"),
                });
            }
            if !owners.iter().any(|&k| facts[k].0.is_empty() || facts[k].0.iter().any(|l| sent.contains(l.as_str()))) {
                return Err(format!("the figure {v} is separated from its citation: \"{}\"", sent.trim()));
            }
        }
    }
    for (labels, figs, words) in &facts {
        for lab in labels {
            let holders: Vec<&String> = sents.iter().filter(|s| s.contains(lab.as_str())).collect();
            let with_own = holders.iter().any(|s| {
                let bare = strip_labels(s);
                if figs.is_empty() {
                    let low = bare.to_lowercase();
                    words.iter().any(|w| low.contains(w.as_str()))
                } else {
                    signed_figures(&bare).iter().any(|&(v, _)| figs.iter().any(|&(w, _)| same(v, w)))
                }
            });
            // A label shared with another line may sit with that line's sentence instead.
            let shared = facts.iter().filter(|f| f.0.contains(lab)).count() > 1;
            if !with_own && !shared {
                return Err(format!("citation {lab} no longer stands with the statement it supports"));
            }
        }
    }
    if lines.iter().any(|l| !l.published) {
        let low = candidate.to_lowercase();
        if !(low.contains("insufficient") || low.contains("abstain")) {
            return Err("an abstention is no longer recognisable".into());
        }
    }
    Ok(())
}

/// Compose the answer (spec §7.2, fixed per §12).
pub async fn compose<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, lines: Vec<AnswerLine>) -> (Answer, Rephrase) {
    let published = lines.iter().filter(|l| l.published).count();
    let raw: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    if published == 0 {
        let text = format!("{ALL_ABSTAINED}\n{}", raw.join("\n"));
        let answer = Answer { text, abstained: true, partial: false, lines };
        return (answer, Rephrase::Skipped { reason: "no claim passed the audit".into() });
    }
    let partial = published < lines.len();
    let o = ctx.client.call::<SynthesizerOut>(None, prompts::SYNTHESIZER, &user_message(ctx.question, &lines)).await;
    let (text, status) = match o.failure {
        Some(f) => (raw.join("\n"), Rephrase::Rejected { reason: format!("synthesizer call failed: {f}") }),
        None => match check_rephrase(&o.value.answer, &lines) {
            Ok(()) => (o.value.answer.trim().to_string(), Rephrase::Accepted),
            Err(reason) => (raw.join("\n"), Rephrase::Rejected { reason }),
        },
    };
    (Answer { text, abstained: false, partial, lines }, status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(published: bool, text: &str, cites: &[(&str, u32)]) -> AnswerLine {
        AnswerLine {
            claim_id: "claim-1".into(),
            published,
            text: text.into(),
            citations: cites
                .iter()
                .map(|(s, p)| Citation { source: s.to_string(), page: *p, node_id: "c1-cell-1".into(), bboxes: vec![], page_size: (0.0, 0.0), table_parts: vec![] })
                .collect(),
        }
    }

    #[test]
    fn rephrase_with_an_invented_figure_is_rejected() {
        let l = vec![line(true, "Net sales were $32,765 million in 2018. [3M_2018_10K.pdf, p.60]", &[("3M_2018_10K.pdf", 60)])];
        assert_eq!(check_rephrase("In 2018 net sales reached $32,765 million [3M_2018_10K.pdf, p.60].", &l), Ok(()));
        let e = check_rephrase("Net sales were $32,765 million in 2018, up 3.5% [3M_2018_10K.pdf, p.60].", &l).unwrap_err();
        assert!(e.contains("3.5"), "{e}");
        assert!(check_rephrase("Net sales were $32,765 million in 2018.", &l).unwrap_err().contains("dropped"));
    }

    fn two_lines() -> Vec<AnswerLine> {
        vec![
            line(true, "Net income decreased 5.0% to $1,200 million in 2018. [a.pdf, p.10]", &[("a.pdf", 10)]),
            line(true, "Free cash flow was $(45) million in 2018. [a.pdf, p.12]", &[("a.pdf", 12)]),
        ]
    }

    #[test]
    fn faithful_rephrase_with_signs_directions_and_labels_in_place_is_accepted() {
        let l = two_lines();
        let ok = [
            "In 2018, net income fell 5.0% to $1,200 million [a.pdf, p.10]. Free cash flow was $(45) million [a.pdf, p.12].",
            "Free cash flow was -$45 million in 2018 [a.pdf, p.12]; net income of $1,200 million reflected a 5.0% decline [a.pdf, p.10].",
            "Net income decreased by 5.0% to $1,200 million in 2018.\n[a.pdf, p.10]\nFree cash flow was $(45) million. [a.pdf, p.12]",
        ];
        for c in ok {
            assert_eq!(check_rephrase(c, &l), Ok(()), "{c}");
        }
    }

    #[test]
    fn audited_lines_joined_on_one_line_keep_each_label_with_its_sentence() {
        // spec §7.1 lines are "<fragment>. <labels>": joined with spaces, a label group after a
        // full stop still closes the sentence before it.
        let l = two_lines();
        let joined: Vec<&str> = l.iter().map(|x| x.text.as_str()).collect();
        assert_eq!(check_rephrase(&joined.join(" "), &l), Ok(()));
    }

    #[test]
    fn rephrase_that_drops_a_negative_sign_is_rejected() {
        let e = check_rephrase("In 2018, net income fell 5.0% to $1,200 million [a.pdf, p.10]. Free cash flow was $45 million [a.pdf, p.12].", &two_lines()).unwrap_err();
        assert!(e.contains("45") && e.contains("sign"), "{e}");
    }

    #[test]
    fn rephrase_that_turns_a_decrease_into_an_increase_is_rejected() {
        for c in [
            "In 2018, net income rose 5.0% to $1,200 million [a.pdf, p.10]. Free cash flow was $(45) million [a.pdf, p.12].",
            "Net income of $1,200 million in 2018 reflected a 5.0% increase [a.pdf, p.10]. Free cash flow was $(45) million [a.pdf, p.12].",
        ] {
            let e = check_rephrase(c, &two_lines()).unwrap_err();
            assert!(e.contains("5") && e.contains("direction"), "{c}: {e}");
        }
    }

    #[test]
    fn rephrase_that_moves_a_label_to_another_lines_sentence_is_rejected() {
        // Both labels survive, but each now stands beside the other line's figures.
        let e = check_rephrase("In 2018, net income fell 5.0% to $1,200 million [a.pdf, p.12]. Free cash flow was $(45) million [a.pdf, p.10].", &two_lines()).unwrap_err();
        assert!(e.contains("separated from its citation"), "{e}");
        // Labels gathered at the end leave the first statement without its own.
        let e = check_rephrase("In 2018, net income fell 5.0% to $1,200 million. Free cash flow was $(45) million. [a.pdf, p.10] [a.pdf, p.12]", &two_lines()).unwrap_err();
        assert!(e.contains("separated from its citation"), "{e}");
        // A line without figures keeps its label beside its own words.
        let l = vec![
            line(true, "Management attributed the margin decline to raw material costs. [a.pdf, p.30]", &[("a.pdf", 30)]),
            line(true, "Net sales were $32,765 million in 2018. [a.pdf, p.60]", &[("a.pdf", 60)]),
        ];
        assert_eq!(check_rephrase("Net sales were $32,765 million in 2018 [a.pdf, p.60]. Management attributed the decline to raw material costs [a.pdf, p.30].", &l), Ok(()));
        let e = check_rephrase("Net sales were $32,765 million in 2018 [a.pdf, p.60] [a.pdf, p.30]. Management attributed the decline to raw material costs.", &l).unwrap_err();
        assert!(e.contains("[a.pdf, p.30]"), "{e}");
    }

    #[test]
    fn abstention_lines_state_no_figure() {
        let a = abstention_line("Revenue was 6,439 million in FY2024");
        assert!(!a.chars().any(|c| c.is_ascii_digit()), "{a}");
        assert!(a.contains("insufficient") && a.contains("evidence") && a.contains("abstaining"));
    }
}
