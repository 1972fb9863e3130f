//! Adversarial Counsel (paper §3.6; spec §2.8): attack the brief in six categories with a severity,
//! and say whether the claim should be abstained on. A failed call fails closed (abstain), fixing
//! the reference's fail-open default (spec §12).

use super::Ctx;
use crate::llm::roles::{AdversarialOut, Severity};
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// Which brief was reviewed (`initial`, `repair`, `rebuttal <n>`).
    pub stage: String,
    pub attacks: Vec<crate::llm::roles::Attack>,
    pub recommend_abstain: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

impl Review {
    pub fn n_high(&self) -> u32 {
        self.attacks.iter().filter(|a| a.severity == Severity::High).count() as u32
    }
}

pub fn user_message(claim: &str, evidence: &str, brief: &str) -> String {
    let brief = if brief.trim().is_empty() { "(no brief was written)" } else { brief };
    format!("CLAIM: {claim}\n\nEVIDENCE:\n{evidence}\n\nAFFIRMATIVE BRIEF:\n{brief}")
}

pub async fn review<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim_id: &str, claim: &str, evidence: &str, brief: &str, stage: &str) -> Review {
    let o = ctx.client.call::<AdversarialOut>(Some(claim_id), prompts::ADVERSARIAL, &user_message(claim, evidence, brief)).await;
    Review { stage: stage.to_string(), attacks: o.value.attacks, recommend_abstain: o.value.recommend_abstain, failure: o.failure }
}
