//! Chain-of-Custody checkpoint (paper §3.7; spec §2.7): is the affirmative brief entailed by the
//! evidence at the hand-off to adversarial review? `entails ∧ γ ≥ 0.5`.

use super::entailment::{self, Entailment};
use super::Ctx;
use crate::llm::roles::EntailmentLabel;
use crate::llm::Transport;
use crate::retrieve::Search;

/// An empty brief fails without a model call ("empty draft").
pub async fn check<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim_id: &str, evidence: &str, brief: &str) -> Entailment {
    if brief.trim().is_empty() {
        return Entailment { label: EntailmentLabel::Neutral, confidence: 0.0, rationale: "empty draft".into(), failure: None };
    }
    entailment::check(ctx, claim_id, evidence, brief).await
}

/// The note handed back to the affirmative after a failed check (spec §2.6).
pub fn repair_note(e: &Entailment) -> String {
    let why = match &e.failure {
        Some(f) => format!("the grounding check could not be completed ({f})"),
        None => e.rationale.clone(),
    };
    format!(
        "Your previous brief was not fully supported by the evidence. Grounding check rationale: {why}. Narrow or drop every statement the evidence does not directly support."
    )
}
