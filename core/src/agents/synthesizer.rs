//! Brief Synthesizer (paper §3.9; spec §7): one line per claim, one checked rephrase, abstention.
//!
//! The rephrase is always checked (spec §12): it is accepted only if every citation label survives
//! verbatim, no number appears that is not in a published line, abstentions stay recognisable, and
//! the text is non-empty. When no claim was published the model is not called at all: the answer is
//! the fixed abstention text, which states no figure (the reference let the model write anything
//! here and it invented figures).

use super::Ctx;
use crate::calc::numbers_in;
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

/// Check a composed answer against the audited lines. Ok(()) or the first reason it fails.
pub fn check_rephrase(candidate: &str, lines: &[AnswerLine]) -> Result<(), String> {
    if candidate.trim().is_empty() {
        return Err("the composed answer is empty".into());
    }
    let mut labels: Vec<String> = vec![];
    for l in lines.iter().filter(|l| l.published) {
        for c in &l.citations {
            let s = label(c);
            if !labels.contains(&s) {
                labels.push(s);
            }
        }
    }
    if let Some(missing) = labels.iter().find(|l| !candidate.contains(l.as_str())) {
        return Err(format!("citation {missing} was dropped"));
    }
    let strip = |t: &str| labels.iter().fold(t.to_string(), |acc, l| acc.replace(l.as_str(), " "));
    let allowed: Vec<f64> = lines.iter().filter(|l| l.published).flat_map(|l| numbers_in(&strip(&l.text))).collect();
    if let Some(n) = numbers_in(&strip(candidate)).into_iter().find(|n| !allowed.iter().any(|a| (a - n).abs() < 1e-9)) {
        return Err(format!("the number {n} is not in any audited statement"));
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

    #[test]
    fn abstention_lines_state_no_figure() {
        let a = abstention_line("Revenue was 6,439 million in FY2024");
        assert!(!a.chars().any(|c| c.is_ascii_digit()), "{a}");
        assert!(a.contains("insufficient") && a.contains("evidence") && a.contains("abstaining"));
    }
}
