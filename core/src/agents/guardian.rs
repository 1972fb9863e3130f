//! Ledger Guardian (paper §3.5; spec §2.5): no model call. Writes the claim's evidence into the
//! ledger, links it across modalities, records the ratio constraint, and decides escalation from
//! coverage A(c) (in exact basis points).

use super::{AgentEvidence, ClaimTask, EvidenceItem};
use crate::authority::{coverage_bp, escalates};
use crate::calc::{parse_number, parse_period};
use crate::config::{ClaimType, Modality, Settings};
use crate::ledger::graph::{Node, NodeKind, Relation};
use crate::ledger::Ledger;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuardOutcome {
    /// A(c) in basis points.
    pub coverage_bp: u32,
    /// Modalities present, in the order they were first written.
    pub present: Vec<Modality>,
    pub escalate: bool,
    /// Why the claim escalated (or not), for the record.
    pub reason: String,
}

/// Deterministic per-claim node ids: `c<n>-<kind>-<k>`.
pub struct IdGen {
    prefix: String,
    counters: Vec<(&'static str, usize)>,
}

impl IdGen {
    pub fn for_claim(claim_id: &str) -> IdGen {
        let n = claim_id.strip_prefix("claim-").unwrap_or(claim_id);
        IdGen { prefix: format!("c{n}"), counters: vec![] }
    }
    pub fn next(&mut self, kind: &'static str) -> String {
        let k = match self.counters.iter_mut().find(|(name, _)| *name == kind) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                self.counters.push((kind, 1));
                1
            }
        };
        format!("{}-{kind}-{k}", self.prefix)
    }
}

pub fn claim_node(claim: &ClaimTask, question: &str) -> Node {
    Node {
        node_id: claim.claim_id.clone(),
        claim_id: claim.claim_id.clone(),
        kind: NodeKind::Claim { question: question.to_string(), claim_type: claim.claim_type, text: claim.text.clone() },
    }
}

/// Write one agent's items: plain items first in list order, each derived metric with DERIVED_FROM
/// edges to its inputs (which precede it in the list). Returns the node id of every item.
fn write_items(ledger: &mut Ledger, ids: &mut IdGen, claim_id: &str, items: &[EvidenceItem]) -> Vec<String> {
    let mut node_ids: Vec<String> = vec![];
    for it in items {
        let (kind_name, kind) = match (&it.derived, it.modality) {
            (Some(d), _) => (
                "metric",
                NodeKind::DerivedMetric {
                    metric: d.metric.clone(),
                    kind: d.kind,
                    earlier_period: d.earlier_period.clone(),
                    later_period: d.later_period.clone(),
                    formula: d.formula.clone(),
                    value: d.value,
                    rendered: d.rendered.clone(),
                    source: d.source.clone(),
                    page: d.page,
                },
            ),
            (None, Modality::Table) => (
                "cell",
                NodeKind::TableCell {
                    source: it.source.clone(),
                    page: it.page,
                    row_label: it.row_label.clone().unwrap_or_default(),
                    col_label: it.col_label.clone().unwrap_or_default(),
                    value: it.value.clone().unwrap_or_else(|| it.content.clone()),
                    unit: it.unit.clone(),
                    locator: it.locator.clone(),
                    notes: it.notes.clone(),
                },
            ),
            (None, Modality::Chart) => (
                "fig",
                NodeKind::ChartRegion { source: it.source.clone(), page: it.page, description: it.content.clone(), locator: it.locator.clone() },
            ),
            (None, _) => (
                "span",
                NodeKind::TextSpan {
                    source: it.source.clone(),
                    page: it.page,
                    text: it.content.clone(),
                    hedge_type: it.hedge_type,
                    figure: match (&it.row_label, &it.value) {
                        (Some(m), Some(v)) => Some((m.clone(), it.col_label.clone().unwrap_or_default(), v.clone())),
                        _ => None,
                    },
                    locator: it.locator.clone(),
                },
            ),
        };
        let id = ledger.add_node(Node { node_id: ids.next(kind_name), claim_id: claim_id.to_string(), kind });
        ledger.add_edge(&id, claim_id, Relation::Supports, Some(it.confidence));
        if let Some(d) = &it.derived {
            for &input in &d.inputs {
                if let Some(src) = node_ids.get(input) {
                    ledger.add_edge(&id, src, Relation::DerivedFrom, None);
                }
            }
        }
        node_ids.push(id);
    }
    node_ids
}

/// Run the guardian for one claim (spec §2.5 steps 1–6, with derived metrics as `derived_metric`
/// nodes whichever agent computed them, and CONTRADICTS edges between disagreeing figures).
pub fn run(
    ledger: &mut Ledger,
    ids: &mut IdGen,
    claim: &ClaimTask,
    text: &AgentEvidence,
    table: &AgentEvidence,
    chart: &AgentEvidence,
    settings: &Settings,
) -> GuardOutcome {
    let cid = claim.claim_id.as_str();
    let mut present: Vec<Modality> = vec![];
    let mut mark = |m: Modality| {
        if !present.contains(&m) {
            present.push(m);
        }
    };
    for list in [text, table, chart] {
        for it in &list.items {
            mark(it.modality);
        }
    }
    let text_ids = write_items(ledger, ids, cid, &text.items);
    let table_ids = write_items(ledger, ids, cid, &table.items);
    let chart_ids = write_items(ledger, ids, cid, &chart.items);

    // SAME_AS (spec §2.5 step 4): a table row label of ≥ 4 characters named in a chart or text node.
    let others: Vec<(String, String)> = chart_ids
        .iter()
        .zip(&chart.items)
        .chain(text_ids.iter().zip(&text.items).filter(|(_, it)| it.derived.is_none()))
        .map(|(id, it)| (id.clone(), it.content.to_lowercase()))
        .collect();
    for (id, it) in table_ids.iter().zip(&table.items) {
        if it.derived.is_some() {
            continue;
        }
        let label = it.row_label.as_deref().unwrap_or("").trim().to_lowercase();
        if label.chars().count() < 4 {
            continue;
        }
        for (oid, body) in &others {
            if body.contains(&label) {
                ledger.add_edge(id, oid, Relation::SameAs, None);
            }
        }
    }

    // CONTRADICTS: two figures for the same metric and period that disagree (issue 5 item 5).
    let mut figures: Vec<(String, String, String, f64)> = vec![]; // (node, metric, period key, value)
    for (id, it) in text_ids.iter().zip(&text.items).chain(table_ids.iter().zip(&table.items)) {
        if it.derived.is_some() {
            continue;
        }
        let (Some(m), Some(v)) = (&it.row_label, &it.value) else { continue };
        let Some(v) = parse_number(v) else { continue };
        let period = it.col_label.clone().unwrap_or_default();
        let key = parse_period(&period).map(|p| format!("{p:?}")).unwrap_or_else(|| period.trim().to_lowercase());
        figures.push((id.clone(), m.trim().to_lowercase(), key, v));
    }
    for i in 0..figures.len() {
        for j in i + 1..figures.len() {
            let (a, b) = (&figures[i], &figures[j]);
            if a.1 == b.1 && a.2 == b.2 && (a.3 - b.3).abs() > 1e-9 * a.3.abs().max(b.3.abs()).max(1.0) {
                ledger.add_edge(&b.0, &a.0, Relation::Contradicts, None);
            }
        }
    }

    // RATIO_IDENTITY constraint (spec §2.5 step 5): was the ratio actually computed?
    if claim.claim_type == ClaimType::RatioIdentity {
        let passed = text.items.iter().chain(&table.items).any(|i| i.modality == Modality::ToolDerived);
        let detail = if passed {
            "ratio identity: a calculator result is available for this claim".to_string()
        } else {
            "ratio identity: no calculator result could be derived from the evidence".to_string()
        };
        let id = ledger.add_node(Node {
            node_id: ids.next("check"),
            claim_id: cid.to_string(),
            kind: NodeKind::ConstraintCheck { name: "ratio_identity_computed".into(), passed, severity: "SOFT_WARN".into(), detail },
        });
        let rel = if passed { Relation::Supports } else { Relation::ViolatesConstraint };
        ledger.add_edge(&id, cid, rel, None);
    }

    let weights = settings.effective_weights();
    let a = coverage_bp(&weights, claim.claim_type, &present);
    let below = escalates(a, settings.pipeline.fast_path_threshold);
    let escalate = below || claim.fallback;
    let reason = if claim.fallback {
        format!("fallback claim: always debated (A = {a} bp)")
    } else if below {
        format!("coverage A = {a} bp is below the fast-path threshold")
    } else {
        format!("coverage A = {a} bp meets the fast-path threshold")
    };
    GuardOutcome { coverage_bp: a, present, escalate, reason }
}
