//! Planner-Orchestrator (paper §3.3; spec §2.1): decompose the question into 1..max typed claims,
//! with a modality-agnostic wording preview of the corpus.

use super::{ClaimTask, Ctx};
use crate::config::ClaimType;
use crate::llm::roles::PlannerOut;
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
