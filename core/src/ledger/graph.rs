//! The typed multigraph (spec §1.4): petgraph `StableGraph` with node ids kept in an index.
//!
//! Relations actually written (the reference wrote only the first three, spec §11.21):
//! `SUPPORTS` (evidence → claim, score = retrieval confidence; passed constraint check → claim),
//! `SAME_AS` (table cell → text/chart node naming its row label), `VIOLATES_CONSTRAINT` (failed
//! constraint check → claim), `DERIVED_FROM` (derived metric → each input cell or span), and
//! `CONTRADICTS` (between two nodes that give different values for the same metric and period).

use crate::calc::ChangeKind;
use crate::config::{ClaimType, Modality};
use crate::corpus::{BBox, TablePart};
use crate::llm::roles::HedgeType;
use petgraph::stable_graph::{NodeIndex, StableGraph};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

use super::custody::CustodyEvent;
use super::docket::DocketEntry;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Relation {
    Supports,
    SameAs,
    ViolatesConstraint,
    DerivedFrom,
    Contradicts,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Supports => "SUPPORTS",
            Relation::SameAs => "SAME_AS",
            Relation::ViolatesConstraint => "VIOLATES_CONSTRAINT",
            Relation::DerivedFrom => "DERIVED_FROM",
            Relation::Contradicts => "CONTRADICTS",
        }
    }
}

/// Where on a page an evidence node came from (for citations and highlighting).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Locator {
    /// The corpus document id the node was grounded in.
    pub doc_id: String,
    #[serde(default)]
    pub bboxes: Vec<BBox>,
    #[serde(default)]
    pub page_size: (f32, f32),
    /// The pages of a table that runs over several pages (this one included), so a viewer can
    /// follow it; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub table_parts: Vec<TablePart>,
    /// The section of the document the page falls in (outline title or filing item; issue 3
    /// deliverable 1), so a reader knows where in the report the evidence sits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The page number printed on the page (`/PageLabels`), when the PDF defines one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_label: Option<String>,
}

impl Locator {
    /// Where a reader finds physical page `page` in the report: its section, and the printed page
    /// number when it differs from the physical one (`Part II — Item 7. … · printed p. 34`).
    pub fn place(&self, page: u32) -> Option<String> {
        let printed = self.page_label.as_deref().filter(|l| !l.is_empty() && *l != page.to_string()).map(|l| format!("printed p. {l}"));
        let parts: Vec<String> = self.section.iter().cloned().chain(printed).collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

/// Node payloads by type (spec §1.4), with provenance the reference dropped (§12).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "node_type", rename_all = "snake_case")]
pub enum NodeKind {
    Claim {
        question: String,
        claim_type: ClaimType,
        text: String,
    },
    TextSpan {
        source: String,
        page: u32,
        text: String,
        hedge_type: Option<HedgeType>,
        /// The figure the narrative agent tagged in this passage, if any (metric, period, value).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<(String, String, String)>,
        locator: Locator,
    },
    TableCell {
        source: String,
        page: u32,
        row_label: String,
        col_label: String,
        value: String,
        unit: Option<String>,
        locator: Locator,
        /// The table's footnotes the cell's row or column marks point at, as printed ("(b) As of
        /// …"; `ingest::notes`): shown with the cell, not part of what agents read of it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notes: Vec<String>,
    },
    DerivedMetric {
        metric: String,
        kind: ChangeKind,
        earlier_period: String,
        later_period: String,
        formula: String,
        /// What the formula evaluates to (pp, or a fraction for relative change).
        value: f64,
        rendered: String,
        source: String,
        page: u32,
    },
    ChartRegion {
        source: String,
        page: u32,
        description: String,
        locator: Locator,
    },
    ConstraintCheck {
        name: String,
        passed: bool,
        severity: String,
        detail: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub node_id: String,
    /// The claim this node belongs to (the claim's own id for claim nodes).
    pub claim_id: String,
    #[serde(flatten)]
    pub kind: NodeKind,
}

impl Node {
    /// Node type name as in the spec (`claim`, `text_span`, …).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Claim { .. } => "claim",
            NodeKind::TextSpan { .. } => "text_span",
            NodeKind::TableCell { .. } => "table_cell",
            NodeKind::DerivedMetric { .. } => "derived_metric",
            NodeKind::ChartRegion { .. } => "chart_region",
            NodeKind::ConstraintCheck { .. } => "constraint_check",
        }
    }

    /// The evidence modality of a node (spec §1.7 node → modality map); derived metrics are
    /// `tool_derived` whichever agent computed them (fixes the reference's text-span shortcut).
    pub fn modality(&self) -> Option<Modality> {
        match self.kind {
            NodeKind::TextSpan { .. } => Some(Modality::Text),
            NodeKind::TableCell { .. } => Some(Modality::Table),
            NodeKind::DerivedMetric { .. } => Some(Modality::ToolDerived),
            NodeKind::ChartRegion { .. } => Some(Modality::Chart),
            NodeKind::Claim { .. } | NodeKind::ConstraintCheck { .. } => None,
        }
    }

    /// (source, page) for nodes that can be cited.
    pub fn source_page(&self) -> Option<(&str, u32)> {
        match &self.kind {
            NodeKind::TextSpan { source, page, .. }
            | NodeKind::TableCell { source, page, .. }
            | NodeKind::ChartRegion { source, page, .. }
            | NodeKind::DerivedMetric { source, page, .. } => Some((source, *page)),
            _ => None,
        }
    }

    pub fn locator(&self) -> Option<&Locator> {
        match &self.kind {
            NodeKind::TextSpan { locator, .. } | NodeKind::TableCell { locator, .. } | NodeKind::ChartRegion { locator, .. } => Some(locator),
            _ => None,
        }
    }

    /// Where in the report the node's page is (`Locator::place`), for evidence and citations.
    pub fn place(&self) -> Option<String> {
        let (_, page) = self.source_page()?;
        self.locator()?.place(page)
    }

    /// The content without the source prefix.
    pub fn content(&self) -> String {
        match &self.kind {
            NodeKind::Claim { text, .. } => text.clone(),
            NodeKind::TextSpan { text, hedge_type, .. } => match hedge_type {
                Some(HedgeType::Hedge) => format!("(hedge) {text}"),
                Some(HedgeType::Attribution) => format!("(attribution) {text}"),
                _ => text.clone(),
            },
            NodeKind::TableCell { row_label, col_label, value, unit, .. } => match unit {
                Some(u) if !u.trim().is_empty() => format!("{row_label} / {col_label} = {value} {u}"),
                _ => format!("{row_label} / {col_label} = {value}"),
            },
            NodeKind::DerivedMetric { metric, kind, earlier_period, later_period, formula, rendered, .. } => {
                format!("{}: {formula} = {rendered}", crate::calc::heading(*kind, metric, earlier_period, later_period))
            }
            NodeKind::ChartRegion { description, .. } => description.clone(),
            NodeKind::ConstraintCheck { detail, .. } => detail.clone(),
        }
    }

    /// The line an agent sees (spec §1.4 "describe"): `[<source>, p.<page>] <content>` for nodes
    /// with a source. Derived metrics now carry their later cell's source, so they are citable too.
    pub fn describe(&self) -> String {
        match self.source_page() {
            Some((s, p)) => format!("[{s}, p.{p}] {}", self.content()),
            None => self.content(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub relation: Relation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgeDump {
    pub source: String,
    pub target: String,
    pub relation: Relation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// Something that went wrong and was resolved conservatively (a model call that fell back to its
/// default, a dropped cell, a truncated plan) — written to the ledger so nothing fails silently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerNote {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    pub stage: String,
    pub detail: String,
}

/// The serialized ledger (spec §1.4 `ledger.json`, extended).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LedgerDump {
    pub nodes: Vec<Node>,
    pub edges: Vec<EdgeDump>,
    pub custody_log: Vec<CustodyEvent>,
    pub authority_docket: Vec<DocketEntry>,
    #[serde(default)]
    pub notes: Vec<LedgerNote>,
}

#[derive(Debug, Clone, Default)]
pub struct Ledger {
    graph: StableGraph<Node, Edge>,
    index: HashMap<String, NodeIndex>,
    pub custody_log: Vec<CustodyEvent>,
    pub docket: Vec<DocketEntry>,
    pub notes: Vec<LedgerNote>,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Add a node; returns its id. A node with an existing id replaces nothing and is ignored.
    pub fn add_node(&mut self, node: Node) -> String {
        let id = node.node_id.clone();
        if !self.index.contains_key(&id) {
            let ix = self.graph.add_node(node);
            self.index.insert(id.clone(), ix);
        }
        id
    }

    /// Add an edge between two existing nodes; false when either id is unknown.
    pub fn add_edge(&mut self, from: &str, to: &str, relation: Relation, score: Option<f64>) -> bool {
        match (self.index.get(from), self.index.get(to)) {
            (Some(&a), Some(&b)) => {
                self.graph.add_edge(a, b, Edge { relation, score });
                true
            }
            _ => false,
        }
    }

    pub fn note(&mut self, claim_id: Option<&str>, stage: &str, detail: impl Into<String>) {
        self.notes.push(LedgerNote { claim_id: claim_id.map(str::to_string), stage: stage.into(), detail: detail.into() });
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.index.get(id).and_then(|&ix| self.graph.node_weight(ix))
    }

    /// Nodes in insertion order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.graph.node_indices().filter_map(|ix| self.graph.node_weight(ix))
    }

    /// Edges in insertion order, by node id.
    pub fn edges(&self) -> Vec<EdgeDump> {
        self.graph
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = self.graph.edge_endpoints(e)?;
                let w = self.graph.edge_weight(e)?;
                Some(EdgeDump {
                    source: self.graph[a].node_id.clone(),
                    target: self.graph[b].node_id.clone(),
                    relation: w.relation,
                    score: w.score,
                })
            })
            .collect()
    }

    /// supp(c): nodes with a SUPPORTS edge into the claim, in insertion order, with score(u, c) of
    /// the first such edge (spec §1.4, §1.7).
    pub fn support(&self, claim_id: &str) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = vec![];
        for e in self.edges() {
            if e.target == claim_id && e.relation == Relation::Supports && !out.iter().any(|(id, _)| *id == e.source) {
                out.push((e.source, e.score.unwrap_or(0.0)));
            }
        }
        out
    }

    /// Targets of `relation` edges leaving `from`, in insertion order.
    pub fn targets(&self, from: &str, relation: Relation) -> Vec<String> {
        self.edges().into_iter().filter(|e| e.source == from && e.relation == relation).map(|e| e.target).collect()
    }

    /// Append another ledger (a claim's fragment) after this one.
    pub fn merge(&mut self, other: Ledger) {
        let dump = other.dump();
        for n in dump.nodes {
            self.add_node(n);
        }
        for e in dump.edges {
            self.add_edge(&e.source, &e.target, e.relation, e.score);
        }
        self.custody_log.extend(dump.custody_log);
        self.docket.extend(dump.authority_docket);
        self.notes.extend(dump.notes);
    }

    pub fn dump(&self) -> LedgerDump {
        LedgerDump {
            nodes: self.nodes().cloned().collect(),
            edges: self.edges(),
            custody_log: self.custody_log.clone(),
            authority_docket: self.docket.clone(),
            notes: self.notes.clone(),
        }
    }

    /// Rebuild a ledger from its dump (re-import of an exported run).
    pub fn from_dump(d: LedgerDump) -> Ledger {
        let mut l = Ledger::new();
        for n in d.nodes {
            l.add_node(n);
        }
        for e in d.edges {
            l.add_edge(&e.source, &e.target, e.relation, e.score);
        }
        l.custody_log = d.custody_log;
        l.docket = d.authority_docket;
        l.notes = d.notes;
        l
    }

    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_says_where_in_the_report_it_sits() {
        let l = Locator { section: Some("Part II — Item 7. MD&A".into()), page_label: Some("34".into()), ..Default::default() };
        assert_eq!(l.place(36).as_deref(), Some("Part II — Item 7. MD&A · printed p. 34"));
        // A printed number equal to the physical one adds nothing; no section, no label, no place.
        let same = Locator { page_label: Some("36".into()), ..Default::default() };
        assert_eq!(same.place(36), None);
        assert_eq!(Locator::default().place(3), None);
        // Both survive an export and load; a ledger written before they existed still loads.
        let back: Locator = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(back, l);
        let old: Locator = serde_json::from_str(r#"{"doc_id":"d","bboxes":[],"page_size":[612.0,792.0]}"#).unwrap();
        assert_eq!((old.section, old.page_label), (None, None));
    }

    #[test]
    fn ledger_dump_round_trips_and_keeps_insertion_order() {
        let mut l = Ledger::new();
        l.add_node(Node {
            node_id: "claim-1".into(),
            claim_id: "claim-1".into(),
            kind: NodeKind::Claim { question: "q".into(), claim_type: ClaimType::FactNumeric, text: "t".into() },
        });
        l.add_node(Node {
            node_id: "c1-cell-1".into(),
            claim_id: "claim-1".into(),
            kind: NodeKind::TableCell {
                source: "a.pdf".into(),
                page: 3,
                row_label: "Net sales".into(),
                col_label: "2018".into(),
                value: "32,765".into(),
                unit: None,
                locator: Locator::default(),
                notes: vec![],
            },
        });
        assert!(l.add_edge("c1-cell-1", "claim-1", Relation::Supports, Some(0.7)));
        assert!(!l.add_edge("nope", "claim-1", Relation::Supports, None));
        assert_eq!(l.support("claim-1"), vec![("c1-cell-1".to_string(), 0.7)]);
        assert_eq!(l.node("c1-cell-1").unwrap().describe(), "[a.pdf, p.3] Net sales / 2018 = 32,765");
        let d = l.dump();
        let json = serde_json::to_string(&d).unwrap();
        assert!(json.contains(r#""node_type":"table_cell""#), "{json}");
        let back: LedgerDump = serde_json::from_str(&json).unwrap();
        assert_eq!(back, d);
        assert_eq!(Ledger::from_dump(back).dump(), d);
    }
}
