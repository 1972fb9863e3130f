//! Narrative Evidence agent (paper §3.4; spec §2.2): tag prose passages (fact / hedge /
//! attribution) and the figures they state; the calculator derives changes from those figures.

use super::{clean_opt, AgentEvidence, ClaimTask, Ctx, EvidenceItem};
use crate::calc::{derive_metrics, NumericCell};
use crate::config::Modality;
use crate::corpus::Hit;
use crate::llm::roles::{HedgeType, NarrativeOut};
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;

pub fn user_message(claim: &str, hits: &[Hit]) -> String {
    let blocks: Vec<String> = hits.iter().enumerate().map(|(i, h)| format!("[SPAN {i}]\n{}", h.doc.text)).collect();
    format!("CLAIM: {claim}\n\n{}", blocks.join("\n\n"))
}

pub async fn run<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim: &ClaimTask, hyde: Option<&str>) -> Result<AgentEvidence, String> {
    let hits = ctx.retrieve(&claim.text, ctx.settings.retrieval.k_narrative, Some(Modality::Text), hyde).await?;
    if hits.is_empty() {
        return Ok(AgentEvidence::default());
    }
    let out = ctx.client.call::<NarrativeOut>(Some(&claim.claim_id), prompts::NARRATIVE, &user_message(&claim.text, &hits)).await;
    Ok(build(&hits, &out.value, out.failure))
}

/// Post-processing (spec §2.2): every span becomes a text item (last tag per index wins, untagged =
/// fact); tagged figures feed the calculator, whose outputs follow the spans as `tool_derived` items
/// with their input spans recorded.
pub fn build(hits: &[Hit], out: &NarrativeOut, failure: Option<String>) -> AgentEvidence {
    let mut ev = AgentEvidence { failure, ..Default::default() };
    let mut tags: Vec<Option<&crate::llm::roles::SpanTag>> = vec![None; hits.len()];
    for t in &out.tags {
        match usize::try_from(t.span_index).ok().filter(|&i| i < hits.len()) {
            Some(i) => tags[i] = Some(t),
            None => ev.dropped.push(format!("narrative tag for span {} is out of range", t.span_index)),
        }
    }
    let mut cells = vec![];
    let mut cell_item = vec![];
    for (i, h) in hits.iter().enumerate() {
        let mut item = EvidenceItem::from_hit(h, Modality::Text, h.doc.text.clone());
        item.hedge_type = Some(tags[i].map(|t| t.hedge_type).unwrap_or(HedgeType::Fact));
        if let Some(t) = tags[i] {
            let (m, v) = (clean_opt(&t.metric_label), clean_opt(&t.value));
            if let (Some(m), Some(v)) = (m, v) {
                let period = clean_opt(&t.period_label).unwrap_or_default();
                item.row_label = Some(m.clone());
                item.col_label = Some(period.clone());
                item.value = Some(v.clone());
                item.unit = clean_opt(&t.unit);
                cells.push(NumericCell { source: h.doc.source.clone(), page: h.doc.page, metric: m, period, value: v, unit: item.unit.clone(), confidence: h.score });
                cell_item.push(i);
            }
        }
        ev.items.push(item);
    }
    for mut d in derive_metrics(&cells) {
        d.inputs = [cell_item[d.inputs[0]], cell_item[d.inputs[1]]];
        ev.items.push(EvidenceItem::from_derived(d));
    }
    ev
}
