//! Tabular Evidence agent (paper §3.4; spec §2.3): pick the exact cells that answer the claim; the
//! calculator derives changes between them.

use super::{clean_opt, AgentEvidence, ClaimTask, Ctx, EvidenceItem};
use crate::calc::{derive_metrics, NumericCell};
use crate::config::Modality;
use crate::corpus::{ExtractionConfidence, Hit};
use crate::llm::roles::TabularOut;
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;

pub fn user_message(claim: &str, hits: &[Hit]) -> String {
    let blocks: Vec<String> = hits
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let cap = h.doc.table.as_ref().map(|t| t.caption.trim()).filter(|c| !c.is_empty()).unwrap_or("none");
            format!("[TABLE {i}] (page {}, caption: {cap})\n{}", h.doc.page, h.doc.text)
        })
        .collect();
    format!("CLAIM: {claim}\n\n{}", blocks.join("\n\n"))
}

pub async fn run<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, claim: &ClaimTask, hyde: Option<&str>) -> Result<AgentEvidence, String> {
    let hits = ctx.retrieve(&claim.text, ctx.settings.retrieval.k_tabular, Some(Modality::Table), hyde).await?;
    if hits.is_empty() {
        return Ok(AgentEvidence::default());
    }
    let out = ctx.client.call::<TabularOut>(Some(&claim.claim_id), prompts::TABULAR, &user_message(&claim.text, &hits)).await;
    Ok(build(&hits, &out.value, out.failure))
}

/// Post-processing (spec §2.3, fixed per §12): drop out-of-range indices and low-confidence tables;
/// drop a second copy of the same (source, page, row, column) — the whole-table and row documents
/// of one table repeat each cell, and a duplicate would fabricate a zero change.
pub fn build(hits: &[Hit], out: &TabularOut, failure: Option<String>) -> AgentEvidence {
    let mut ev = AgentEvidence { failure, ..Default::default() };
    let mut cells = vec![];
    for c in &out.cells {
        let Some(h) = usize::try_from(c.table_index).ok().and_then(|i| hits.get(i)) else {
            ev.dropped.push(format!("cell {:?} / {:?} names table {} which was not shown", c.row_label, c.col_label, c.table_index));
            continue;
        };
        if h.doc.confidence == ExtractionConfidence::Low {
            ev.dropped.push(format!("cell {} / {} comes from a low-confidence table extraction ({})", c.row_label, c.col_label, h.doc.id));
            continue;
        }
        let (row, col, value) = (c.row_label.trim().to_string(), c.col_label.trim().to_string(), c.value.trim().to_string());
        if value.is_empty() {
            ev.dropped.push(format!("cell {row} / {col} has no value"));
            continue;
        }
        let dup = ev.items.iter().any(|i: &EvidenceItem| {
            i.source == h.doc.source && i.page == h.doc.page && i.row_label.as_deref() == Some(row.as_str()) && i.col_label.as_deref() == Some(col.as_str())
        });
        if dup {
            ev.dropped.push(format!("duplicate cell {row} / {col} on {} p.{}", h.doc.source, h.doc.page));
            continue;
        }
        let unit = clean_opt(&c.unit);
        let content = match &unit {
            Some(u) => format!("{row} / {col} = {value} {u}"),
            None => format!("{row} / {col} = {value}"),
        };
        let mut item = EvidenceItem::from_hit(h, Modality::Table, content);
        item.row_label = Some(row.clone());
        item.col_label = Some(col.clone());
        item.value = Some(value.clone());
        item.unit = unit.clone();
        // The footnotes the cell's row or column marks point at (issue 3 deliverable 4), for the
        // user to read with the cell.
        if let Some(t) = &h.doc.table {
            item.notes = crate::ingest::notes::pointed_at(&t.notes, &[row.as_str(), col.as_str()]);
        }
        cells.push(NumericCell { source: h.doc.source.clone(), page: h.doc.page, metric: row, period: col, value, unit, confidence: h.score });
        ev.items.push(item);
    }
    // Cells are items 0..n in order, so calculator input indices are item indices.
    for d in derive_metrics(&cells) {
        ev.items.push(EvidenceItem::from_derived(d));
    }
    ev
}
