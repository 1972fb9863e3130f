//! One line of text per pipeline progress event, in the paper's vocabulary.

use clair_core::pipeline::{ClaimPhase, ProgressEvent};

pub fn describe(ev: &ProgressEvent) -> String {
    let cost = |t: &clair_core::export::Totals| {
        let c = if t.unpriced_models.is_empty() { format!("${:.4}", t.cost_usd) } else { format!("${:.4} + unpriced", t.cost_usd) };
        format!(" · {} calls, {} tokens, {c}", t.calls, t.input_tokens + t.output_tokens)
    };
    match ev {
        ProgressEvent::Started { .. } => "Planner: decomposing the question into claims…".into(),
        ProgressEvent::Planned { claims, totals, .. } => {
            let list: Vec<String> = claims.iter().map(|c| format!("{} ({})", c.text, c.claim_type.as_str())).collect();
            format!("Planner: {} claim(s): {}{}", claims.len(), list.join("; "), cost(totals))
        }
        ProgressEvent::Claim { claim_id, phase, totals } => {
            let what = match phase {
                ClaimPhase::Evidence => "gathering text, table and chart evidence".to_string(),
                ClaimPhase::Guardian { evidence, coverage_bp, escalated } => format!(
                    "guardian: {evidence} evidence items, coverage {:.2} → {}",
                    *coverage_bp as f64 / 10_000.0,
                    if *escalated { "escalated to debate" } else { "fast path" }
                ),
                ClaimPhase::Affirmative { stage, round } => format!("affirmative counsel ({stage}, round {round})"),
                ClaimPhase::Custody { stage, verdict } => format!("custody check after {stage}: {verdict:?}"),
                ClaimPhase::Adversarial { round, high_findings, recommend_abstain, .. } => format!(
                    "adversarial counsel (round {round}): {high_findings} high-severity finding(s){}",
                    if *recommend_abstain { ", recommends abstaining" } else { "" }
                ),
                ClaimPhase::Audit => "judge-auditor: terminal entailment audit".to_string(),
                ClaimPhase::Judged { label, published, reason } => {
                    format!("verdict {label:?}{}", if *published { " — published".to_string() } else { format!(" — not published: {reason}") })
                }
            };
            format!("{claim_id}: {what}{}", cost(totals))
        }
        ProgressEvent::Synthesizing { totals } => format!("Brief synthesizer: composing the answer{}", cost(totals)),
        ProgressEvent::Finished { abstained, partial, failed, totals } => format!(
            "Finished: {}{}",
            if *failed { "failed (model calls failed)" } else if *abstained { "abstained" } else if *partial { "partial answer" } else { "answered" },
            cost(totals)
        ),
    }
}
