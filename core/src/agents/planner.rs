//! Planner-Orchestrator (paper §3.3; spec §2.1): decompose the question into 1..max typed claims,
//! with a modality-agnostic wording preview of the corpus.
//!
//! Small models repeat themselves: one returned the same claim eight times, and every copy was
//! verified (8× the calls, issue 39 item 2). Claims that say the same thing are merged here, before
//! the `max_claims` cut, keeping the first wording and its type, with a ledger note naming what was
//! merged (`merge_duplicates`).

use super::{ClaimTask, Ctx};
use crate::config::ClaimType;
use crate::llm::roles::{PlannedClaim, PlannerOut};
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub claims: Vec<ClaimTask>,
    /// Why the fallback claim was used or the plan was cut, if so (goes to the ledger notes).
    pub notes: Vec<String>,
}

/// The planner's user message (layout fixed in `llm::roles`).
pub fn user_message(question: &str, preview: &[String]) -> String {
    let lines = if preview.is_empty() { "- (no documents were retrieved)".to_string() } else { preview.join("\n") };
    format!("QUESTION: {question}\n\nSOURCE PREVIEW (wording only: not exhaustive, do not cite):\n{lines}")
}

pub async fn plan<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>) -> Result<Plan, String> {
    let s = ctx.settings;
    // §3.3: top-12 preview, all modalities, 300 characters each.
    let hyde = ctx.hyde_passage(None, ctx.question).await;
    let hits = ctx.retrieve(ctx.question, s.retrieval.k_preview, None, hyde.as_deref()).await?;
    let preview: Vec<String> = hits
        .iter()
        .map(|h| {
            let text: String = h.doc.text.chars().take(s.retrieval.preview_chars).collect();
            format!("- [{}, p.{}, {}] {}", h.doc.source, h.doc.page, h.doc.modality.as_str(), text.replace('\n', " "))
        })
        .collect();
    let max = s.pipeline.max_claims;
    let system = format!("{}\nMaximum number of claims: {max}.", prompts::PLANNER);
    let out = ctx.client.call::<PlannerOut>(None, &system, &user_message(ctx.question, &preview)).await;
    let mut notes = vec![];
    let mut planned = out.value.claims;
    if let Some(f) = &out.failure {
        notes.push(format!("planner call failed ({f}); using the fallback claim"));
    }
    let (kept, merged) = merge_duplicates(planned, s.pipeline.claim_merge_similarity);
    planned = kept;
    notes.extend(merged);
    if planned.len() > max {
        // The reference aborted the run on a 13th claim (§12); we keep the first `max`.
        notes.push(format!("planner proposed {} claims; kept the first {max}", planned.len()));
        planned.truncate(max);
    }
    let claims: Vec<ClaimTask> = if planned.is_empty() {
        if out.failure.is_none() {
            notes.push("planner returned no claims; using the fallback claim".into());
        }
        // §3.3 fallback: the question itself, typed CAUSE_ATTRIBUTION (commits to no figure).
        vec![ClaimTask { claim_id: "claim-1".into(), text: ctx.question.trim().to_string(), claim_type: ClaimType::CauseAttribution, fallback: true }]
    } else {
        planned
            .into_iter()
            .enumerate()
            .map(|(i, c)| ClaimTask { claim_id: format!("claim-{}", i + 1), text: c.text.trim().to_string(), claim_type: c.claim_type, fallback: false })
            .collect()
    };
    Ok(Plan { claims, notes })
}

/// A claim's words for comparison: lower case, punctuation dropped, a possessive `'s` dropped, and
/// numbers in one spelling (`32,765` = `32765`, `1.50` = `1.5`, `$5` = `5`), so that two wordings of
/// one claim compare equal.
fn words(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let prev_digit = i > 0 && chars[i - 1].is_ascii_digit();
        let next_digit = chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        } else if (c == ',' || c == '.') && prev_digit && next_digit && !cur.is_empty() {
            // Inside a number: a thousands separator is dropped, a decimal point kept.
            if c == '.' {
                cur.push('.');
            }
        } else if (c == '\'' || c == '\u{2019}') && chars.get(i + 1).is_some_and(|n| *n == 's' || *n == 'S')
            && !chars.get(i + 2).is_some_and(|n| n.is_alphanumeric())
        {
            // "3M's" → "3m": the possessive adds nothing to what is claimed.
            out.push(std::mem::take(&mut cur));
            continue;
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.retain(|w| !w.is_empty() && w != "s" || w.chars().any(|c| c.is_ascii_digit()));
    out.into_iter().map(|w| canonical_number(&w).unwrap_or(w)).collect()
}

/// `1.50` → `1.5`, `2018` → `2018`, `007` → `7`; None for a word that is not a plain number.
fn canonical_number(w: &str) -> Option<String> {
    if !w.chars().next()?.is_ascii_digit() || !w.chars().all(|c| c.is_ascii_digit() || c == '.') || w.matches('.').count() > 1 {
        return None;
    }
    let (int, frac) = w.split_once('.').unwrap_or((w, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    Some(if frac.is_empty() { int.to_string() } else { format!("{int}.{frac}") })
}

/// A word carrying a figure or a period (`2018`, `32765`, `fy2018`, `q3`).
fn is_number(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit())
}

/// Same claim? Identical words after normalisation, or a word overlap (Jaccard) of at least `bar`
/// — but never two claims whose numbers (figures, years) differ: "net sales in 2018" and "net
/// sales in 2017" share most words and are two claims.
fn same_claim(a: &[String], b: &[String], bar: f64) -> bool {
    use std::collections::BTreeSet;
    let (sa, sb): (BTreeSet<&str>, BTreeSet<&str>) = (a.iter().map(String::as_str).collect(), b.iter().map(String::as_str).collect());
    fn nums<'a>(s: &BTreeSet<&'a str>) -> BTreeSet<&'a str> {
        s.iter().filter(|w| is_number(w)).copied().collect()
    }
    if nums(&sa) != nums(&sb) {
        return false;
    }
    if sa == sb {
        return true;
    }
    let inter = sa.intersection(&sb).count() as f64;
    let union = sa.union(&sb).count() as f64;
    union > 0.0 && inter / union >= bar
}

/// Merge duplicate and near-duplicate planned claims (issue 39 item 2), keeping the first of each
/// group with its wording and type. Returns the kept claims in order and one note per merged group.
pub fn merge_duplicates(claims: Vec<PlannedClaim>, bar: f64) -> (Vec<PlannedClaim>, Vec<String>) {
    let mut kept: Vec<(PlannedClaim, Vec<String>, usize)> = vec![];
    let mut merged_into: Vec<Vec<String>> = vec![];
    for c in claims {
        let w = words(&c.text);
        match kept.iter_mut().position(|(_, kw, _)| same_claim(kw, &w, bar)) {
            Some(i) => {
                kept[i].2 += 1;
                merged_into[i].push(c.text.trim().to_string());
            }
            None => {
                kept.push((c, w, 1));
                merged_into.push(vec![]);
            }
        }
    }
    let notes = kept
        .iter()
        .zip(&merged_into)
        .filter(|(_, m)| !m.is_empty())
        .map(|((c, _, n), m)| {
            let same = m.iter().filter(|t| t.as_str() == c.text.trim()).count();
            let others: Vec<String> = m.iter().filter(|t| t.as_str() != c.text.trim()).map(|t| format!("\"{t}\"")).collect();
            let mut what = vec![];
            if same > 0 {
                what.push(format!("{same} exact {}", if same == 1 { "copy" } else { "copies" }));
            }
            if !others.is_empty() {
                what.push(format!("{} ({})", if others.len() == 1 { "a near-duplicate" } else { "near-duplicates" }, others.join(", ")));
            }
            format!("planner proposed \"{}\" {n} times; merged {} into the first (pipeline.claim_merge_similarity)", c.text.trim(), what.join(" and "))
        })
        .collect();
    (kept.into_iter().map(|(c, _, _)| c).collect(), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pc(text: &str, t: ClaimType) -> PlannedClaim {
        PlannedClaim { text: text.into(), claim_type: t }
    }

    #[test]
    fn eight_copies_of_one_claim_become_one_with_a_note() {
        let claims = vec![pc("3M net sales in 2018", ClaimType::FactNumeric); 8];
        let (kept, notes) = merge_duplicates(claims, 0.8);
        assert_eq!(kept, vec![pc("3M net sales in 2018", ClaimType::FactNumeric)]);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("8 times") && notes[0].contains("7 exact copies"), "{}", notes[0]);
    }

    #[test]
    fn rewordings_that_differ_in_case_punctuation_and_number_format_are_merged_keeping_the_first_type() {
        let claims = vec![
            pc("3M's net sales were $32,765 million in 2018.", ClaimType::FactNumeric),
            pc("3M net sales were 32765 million in 2018", ClaimType::FactTrend),
            pc("  3M NET SALES WERE $32,765.0 MILLION IN 2018 ", ClaimType::CauseAttribution),
            pc("Net sales of 3M were $32,765 million in 2018", ClaimType::FactNumeric),
        ];
        let (kept, notes) = merge_duplicates(claims, 0.8);
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(kept[0].claim_type, ClaimType::FactNumeric);
        assert_eq!(kept[0].text, "3M's net sales were $32,765 million in 2018.");
        assert!(notes[0].contains("Net sales of 3M"), "{}", notes[0]);
    }

    #[test]
    fn claims_about_different_years_or_figures_are_never_merged() {
        let claims = vec![
            pc("3M net sales in 2018", ClaimType::FactNumeric),
            pc("3M net sales in 2017", ClaimType::FactNumeric),
            pc("3M net sales were $32,765 million in 2018", ClaimType::FactNumeric),
            pc("3M net sales were $31,657 million in 2018", ClaimType::FactNumeric),
        ];
        let (kept, notes) = merge_duplicates(claims.clone(), 0.5);
        assert_eq!(kept, claims);
        assert!(notes.is_empty());
    }

    #[test]
    fn distinct_claims_below_the_similarity_bar_are_kept_apart() {
        let claims = vec![
            pc("3M attributed 2018 sales growth to organic local-currency growth", ClaimType::CauseAttribution),
            pc("3M attributed 2018 sales growth to acquisitions", ClaimType::CauseAttribution),
        ];
        assert_eq!(merge_duplicates(claims.clone(), 0.8).0.len(), 2);
        // The bar is a setting: at 0.5 these two count as one.
        assert_eq!(merge_duplicates(claims, 0.5).0.len(), 1);
    }

    #[test]
    fn number_spellings_normalise_to_one_form() {
        assert_eq!(words("$32,765.50 and 1.0% in FY2018"), vec!["32765.5", "and", "1", "in", "fy2018"]);
        assert_eq!(words("3M’s revenue"), vec!["3m", "revenue"]);
    }
}
