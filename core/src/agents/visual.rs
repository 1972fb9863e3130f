//! Visual Evidence agent (paper §3.4; spec §2.4): claim-relevant readings from chart descriptions.

use super::{AgentEvidence, ClaimTask, Ctx, EvidenceItem};
use crate::config::Modality;
use crate::corpus::Hit;
use crate::llm::roles::VisualOut;
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;

pub fn user_message(claim: &str, hits: &[Hit]) -> String {
    let blocks: Vec<String> = hits
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let (t, cap) = match &h.doc.chart {
                Some(c) => (if c.chart_type.is_empty() { "other" } else { c.chart_type.as_str() }, c.caption.trim()),
                None => ("other", ""),
            };
            let cap = if cap.is_empty() { "none" } else { cap };
            format!("[CHART {i}] (page {}, type: {t}, caption: {cap})\n{}", h.doc.page, h.doc.text)
        })
        .collect();
    format!("CLAIM: {claim}\n\n{}", blocks.join("\n\n"))
}

pub async fn run<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim: &ClaimTask, hyde: Option<&str>) -> Result<AgentEvidence, String> {
    let hits = ctx.retrieve(&claim.text, ctx.settings.retrieval.k_visual, Some(Modality::Chart), hyde).await?;
    if hits.is_empty() {
        return Ok(AgentEvidence::default());
    }
    let out = ctx.client.call::<VisualOut>(Some(&claim.claim_id), prompts::VISUAL, &user_message(&claim.text, &hits)).await;
    Ok(build(&hits, &out.value, out.failure))
}

/// Post-processing: drop out-of-range indices, empty findings and — fixing spec §12 — findings the
/// model marked as not about the claim, which the reference counted toward coverage.
pub fn build(hits: &[Hit], out: &VisualOut, failure: Option<String>) -> AgentEvidence {
    let mut ev = AgentEvidence { failure, ..Default::default() };
    for f in &out.findings {
        let Some(h) = usize::try_from(f.chart_index).ok().and_then(|i| hits.get(i)) else {
            ev.dropped.push(format!("finding names chart {} which was not shown", f.chart_index));
            continue;
        };
        if !f.relevant {
            ev.dropped.push(format!("chart {} judged not relevant to the claim", h.doc.id));
            continue;
        }
        if f.finding.trim().is_empty() {
            ev.dropped.push(format!("empty finding for chart {}", h.doc.id));
            continue;
        }
        ev.items.push(EvidenceItem::from_hit(h, Modality::Chart, f.finding.trim().to_string()));
    }
    ev
}
