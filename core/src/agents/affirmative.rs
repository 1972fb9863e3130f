//! Affirmative Counsel (paper §3.6; spec §2.6): argue for the claim from the evidence; revise after
//! a custody repair note or the adversary's objections.

use super::Ctx;
use crate::llm::roles::{AffirmativeOut, Attack};
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;

/// What the affirmative is answering.
#[derive(Debug, Clone, Copy)]
pub enum BriefInput<'a> {
    Initial,
    /// Custody failed: fix grounding first. Not a rebuttal round (spec §2.6).
    Repair(&'a str),
    /// The adversary's latest findings: a rebuttal round.
    Rebuttal(&'a [Attack]),
}

pub fn attack_line(a: &Attack) -> String {
    format!("- [{}] {}: {}", enum_name(&a.severity), enum_name(&a.category), a.detail)
}

pub(crate) fn enum_name<E: serde::Serialize>(e: &E) -> String {
    serde_json::to_value(e).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

pub fn user_message(claim: &str, evidence: &str, input: BriefInput) -> String {
    let base = format!("CLAIM: {claim}\n\nEVIDENCE:\n{evidence}");
    match input {
        BriefInput::Initial => base,
        BriefInput::Repair(note) => format!("{base}\n\nREPAIR:\n{note}"),
        BriefInput::Rebuttal([]) => format!("{base}\n\nOBJECTIONS:\n(none)"),
        BriefInput::Rebuttal(attacks) => {
            let lines: Vec<String> = attacks.iter().map(attack_line).collect();
            format!("{base}\n\nOBJECTIONS:\n{}", lines.join("\n"))
        }
    }
}

/// Returns the brief (empty on failure: custody then fails it without a call) and the failure.
pub async fn brief<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim_id: &str, claim: &str, evidence: &str, input: BriefInput<'_>) -> (String, Option<String>) {
    let o = ctx.client.call::<AffirmativeOut>(Some(claim_id), prompts::AFFIRMATIVE, &user_message(claim, evidence, input)).await;
    (o.value.brief.trim().to_string(), o.failure)
}
