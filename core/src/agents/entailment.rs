//! The entailment tool (spec §3), shared by the custody checkpoint (§3.7) and the terminal audit
//! (§3.8) so both apply one standard. Fails closed: a failed call is `neutral` at 0.0.

use super::Ctx;
use crate::llm::roles::{EntailmentLabel, EntailmentOut};
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entailment {
    pub label: EntailmentLabel,
    /// γ: the model's self-reported confidence.
    pub confidence: f64,
    pub rationale: String,
    /// Some(reason) when the call failed and the neutral default stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

impl Entailment {
    /// `entails ∧ γ ≥ bar` (paper §3.7, §3.8), from a call that actually answered.
    pub fn passes(&self, bar: f64) -> bool {
        self.failure.is_none() && self.label == EntailmentLabel::Entails && self.confidence >= bar
    }
}

pub fn user_message(premise: &str, hypothesis: &str) -> String {
    format!("PREMISE:\n{premise}\n\nHYPOTHESIS:\n{hypothesis}")
}

pub async fn check<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim_id: &str, premise: &str, hypothesis: &str) -> Entailment {
    let o = ctx.client.call::<EntailmentOut>(Some(claim_id), prompts::ENTAILMENT, &user_message(premise, hypothesis)).await;
    Entailment { label: o.value.label, confidence: o.value.confidence, rationale: o.value.rationale, failure: o.failure }
}
