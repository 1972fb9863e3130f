//! A deterministic layered layout of the ledger graph (paper §3.3: claims and the evidence that
//! supports or contradicts them). Three lanes, left to right: claims → evidence → sources (one
//! source node per cited PDF page, synthesised here; the ledger itself has no source nodes).
//!
//! Within a lane, nodes keep the ledger's order grouped by claim, so a claim's evidence sits
//! beside it; a lane longer than `max_rows` wraps into further columns. Every node occupies its
//! own grid cell, which is why nodes cannot overlap at any size (tested at 300 nodes). Edge paths
//! are computed here too, so the interactive app and the static report draw the same picture.
//! A force-directed layout would look more organic but is neither stable between runs nor cheap.

use crate::export::{ClaimReport, RunExport};
use crate::ledger::{LedgerDump, Node, NodeKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::truncate;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayoutConfig {
    pub node_w: f64,
    pub node_h: f64,
    pub claim_w: f64,
    pub claim_h: f64,
    /// Space between columns of one lane, and between rows.
    pub gap_x: f64,
    pub gap_y: f64,
    /// Space between lanes (where the edges run).
    pub lane_gap: f64,
    /// Rows before a lane wraps into another column.
    pub max_rows: usize,
    pub margin: f64,
}

impl Default for LayoutConfig {
    fn default() -> Self {
        LayoutConfig {
            node_w: 200.0,
            node_h: 46.0,
            claim_w: 240.0,
            claim_h: 58.0,
            gap_x: 24.0,
            gap_y: 14.0,
            lane_gap: 120.0,
            max_rows: 24,
            margin: 20.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lane {
    Claim,
    Evidence,
    Source,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaidNode {
    /// The ledger node id, or `source:<file>#p<page>` for a synthesised source node.
    pub id: String,
    /// The ledger node type (`claim`, `text_span`, …) or `source`.
    pub kind: String,
    pub lane: Lane,
    /// Top-left corner and size, in layout units (SVG user units).
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// Up to two short lines that fit the box.
    pub lines: Vec<String>,
    /// The full text, for a tooltip and the accessible name.
    pub title: String,
    pub claim_id: Option<String>,
    /// Verdict label for claim nodes (`Supported`, `InsufficientEvidence`, …).
    pub verdict: Option<String>,
    pub published: Option<bool>,
    pub hri: Option<f64>,
    /// For evidence and source nodes: the page they point at.
    pub source: Option<String>,
    pub page: Option<u32>,
    /// The outline as an SVG path (shape by kind).
    pub shape: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaidEdge {
    pub from: String,
    pub to: String,
    /// A ledger relation (`SUPPORTS`, …) or `ON_PAGE` (evidence → its source page).
    pub relation: String,
    pub score: Option<f64>,
    /// SVG path data.
    pub d: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphLayout {
    pub nodes: Vec<LaidNode>,
    pub edges: Vec<LaidEdge>,
    pub width: f64,
    pub height: f64,
}

impl GraphLayout {
    pub fn node(&self, id: &str) -> Option<&LaidNode> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

/// The layout of a run's ledger, with each claim's verdict and HRI from its report.
pub fn layout(run: &RunExport) -> GraphLayout {
    layout_ledger(&run.ledger, &run.claims, &LayoutConfig::default())
}

fn kind_label(n: &Node) -> &'static str {
    match n.kind {
        NodeKind::Claim { .. } => "claim",
        NodeKind::TextSpan { .. } => "text",
        NodeKind::TableCell { .. } => "table cell",
        NodeKind::DerivedMetric { .. } => "derived",
        NodeKind::ChartRegion { .. } => "chart",
        NodeKind::ConstraintCheck { passed: true, .. } => "check passed",
        NodeKind::ConstraintCheck { passed: false, .. } => "check failed",
    }
}

/// Characters that fit a box `w` wide at the app's 11px label font: ≈ 7 px per char, the width of
/// bold capitals and underscores (file names), so a label never runs past its box.
fn fit(w: f64) -> usize {
    ((w - 20.0) / 7.0).max(4.0) as usize
}

pub fn layout_ledger(ledger: &LedgerDump, claims: &[ClaimReport], cfg: &LayoutConfig) -> GraphLayout {
    let report: BTreeMap<&str, &ClaimReport> = claims.iter().map(|c| (c.claim_id.as_str(), c)).collect();
    let claim_nodes: Vec<&Node> = ledger.nodes.iter().filter(|n| matches!(n.kind, NodeKind::Claim { .. })).collect();
    let claim_rank: BTreeMap<&str, usize> = claim_nodes.iter().enumerate().map(|(i, n)| (n.node_id.as_str(), i)).collect();
    // Evidence grouped by claim (ledger order within a claim); stable sort keeps it deterministic.
    let mut evidence: Vec<&Node> = ledger.nodes.iter().filter(|n| !matches!(n.kind, NodeKind::Claim { .. })).collect();
    evidence.sort_by_key(|n| claim_rank.get(n.claim_id.as_str()).copied().unwrap_or(usize::MAX));
    // One source node per cited page, in order of first appearance (near the evidence citing it).
    let mut pages: Vec<(String, u32)> = vec![];
    for n in &evidence {
        if let Some((s, p)) = n.source_page() {
            if !pages.iter().any(|(s2, p2)| s2 == s && *p2 == p) {
                pages.push((s.to_string(), p));
            }
        }
    }

    let mut out = GraphLayout::default();
    let lanes: [(Lane, usize, f64, f64); 3] = [
        (Lane::Claim, claim_nodes.len(), cfg.claim_w, cfg.claim_h),
        (Lane::Evidence, evidence.len(), cfg.node_w, cfg.node_h),
        (Lane::Source, pages.len(), cfg.node_w, cfg.node_h),
    ];
    let rows = |n: usize| n.min(cfg.max_rows.max(1));
    let cols = |n: usize| n.div_ceil(cfg.max_rows.max(1));
    let lane_h = |n: usize, h: f64| if n == 0 { 0.0 } else { rows(n) as f64 * (h + cfg.gap_y) - cfg.gap_y };
    let height = lanes.iter().map(|(_, n, _, h)| lane_h(*n, *h)).fold(0.0, f64::max);
    // Cell positions per lane: column-major, each lane centred vertically.
    let mut x0 = cfg.margin;
    let mut cells: Vec<Vec<(f64, f64)>> = vec![];
    for (_, n, w, h) in lanes {
        let top = cfg.margin + (height - lane_h(n, h)) / 2.0;
        cells.push((0..n).map(|i| (x0 + (i / cfg.max_rows.max(1)) as f64 * (w + cfg.gap_x), top + (i % cfg.max_rows.max(1)) as f64 * (h + cfg.gap_y))).collect());
        if n > 0 {
            x0 += cols(n) as f64 * (w + cfg.gap_x) - cfg.gap_x + cfg.lane_gap;
        }
    }
    out.width = (x0 - cfg.lane_gap + cfg.margin).max(2.0 * cfg.margin);
    out.height = height + 2.0 * cfg.margin;

    for (i, n) in claim_nodes.iter().enumerate() {
        let (x, y) = cells[0][i];
        let r = report.get(n.node_id.as_str());
        let verdict = r.map(|r| r.label.as_str().to_string());
        let hri = r.and_then(|r| r.hri.as_ref().map(|h| h.value));
        let status = match (&verdict, hri) {
            (Some(v), Some(h)) => format!("{v} · HRI {h:.3}"),
            (Some(v), None) => v.clone(),
            _ => "no verdict".to_string(),
        };
        let text = n.content();
        out.nodes.push(LaidNode {
            id: n.node_id.clone(),
            kind: n.type_name().into(),
            lane: Lane::Claim,
            x,
            y,
            w: cfg.claim_w,
            h: cfg.claim_h,
            lines: vec![truncate(&format!("{} {}", n.node_id, text), fit(cfg.claim_w)), truncate(&status, fit(cfg.claim_w))],
            title: format!("{}: {text} — {status}", n.node_id),
            claim_id: Some(n.claim_id.clone()),
            verdict,
            published: r.map(|r| r.published),
            hri,
            source: None,
            page: None,
            shape: String::new(),
        });
    }
    for (i, n) in evidence.iter().enumerate() {
        let (x, y) = cells[1][i];
        let sp = n.source_page();
        let head = match sp {
            Some((_, p)) => format!("{} · p.{p}", kind_label(n)),
            None => kind_label(n).to_string(),
        };
        out.nodes.push(LaidNode {
            id: n.node_id.clone(),
            kind: n.type_name().into(),
            lane: Lane::Evidence,
            x,
            y,
            w: cfg.node_w,
            h: cfg.node_h,
            lines: vec![truncate(&head, fit(cfg.node_w)), truncate(&n.content(), fit(cfg.node_w))],
            title: format!("{} ({}): {}", n.node_id, kind_label(n), n.describe()),
            claim_id: Some(n.claim_id.clone()),
            verdict: None,
            published: None,
            hri: None,
            source: sp.map(|(s, _)| s.to_string()),
            page: sp.map(|(_, p)| p),
            shape: String::new(),
        });
    }
    for (i, (s, p)) in pages.iter().enumerate() {
        let (x, y) = cells[2][i];
        out.nodes.push(LaidNode {
            id: source_id(s, *p),
            kind: "source".into(),
            lane: Lane::Source,
            x,
            y,
            w: cfg.node_w,
            h: cfg.node_h,
            lines: vec![truncate(s, fit(cfg.node_w)), format!("page {p}")],
            title: format!("{s}, page {p}"),
            claim_id: None,
            verdict: None,
            published: None,
            hri: None,
            source: Some(s.clone()),
            page: Some(*p),
            shape: String::new(),
        });
    }
    for n in &mut out.nodes {
        n.shape = shape(&n.kind, n.x, n.y, n.w, n.h);
    }

    let index: BTreeMap<&str, usize> = out.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut edges = vec![];
    for e in &ledger.edges {
        if let (Some(&a), Some(&b)) = (index.get(e.source.as_str()), index.get(e.target.as_str())) {
            edges.push(LaidEdge { from: e.source.clone(), to: e.target.clone(), relation: e.relation.as_str().into(), score: e.score, d: path(&out.nodes[a], &out.nodes[b]) });
        }
    }
    for n in &evidence {
        if let Some((s, p)) = n.source_page() {
            let sid = source_id(s, p);
            if let (Some(&a), Some(&b)) = (index.get(n.node_id.as_str()), index.get(sid.as_str())) {
                edges.push(LaidEdge { from: n.node_id.clone(), to: sid, relation: "ON_PAGE".into(), score: None, d: path(&out.nodes[a], &out.nodes[b]) });
            }
        }
    }
    out.edges = edges;
    out
}

pub fn source_id(source: &str, page: u32) -> String {
    format!("source:{source}#p{page}")
}

/// Edge geometry: between lanes, a horizontal S-curve from the left node's right side to the right
/// node's left side; within a lane, a bow out to the right of both nodes.
fn path(a: &LaidNode, b: &LaidNode) -> String {
    let (ay, by) = (a.y + a.h / 2.0, b.y + b.h / 2.0);
    if a.lane == b.lane {
        let (ax, bx) = (a.x + a.w, b.x + b.w);
        let bow = ax.max(bx) + 30.0 + (ay - by).abs().min(200.0) * 0.15;
        return format!("M{ax:.1},{ay:.1} C{bow:.1},{ay:.1} {bow:.1},{by:.1} {bx:.1},{by:.1}");
    }
    let (l, r, ly, ry) = if a.x <= b.x { (a, b, ay, by) } else { (b, a, by, ay) };
    let (x1, x2) = (l.x + l.w, r.x);
    let mid = (x1 + x2) / 2.0;
    format!("M{x1:.1},{ly:.1} C{mid:.1},{ly:.1} {mid:.1},{ry:.1} {x2:.1},{ry:.1}")
}

/// Node outline by kind, so kinds differ by shape as well as colour (colour-blind safe).
fn shape(kind: &str, x: f64, y: f64, w: f64, h: f64) -> String {
    let (r, b) = (x + w, y + h);
    let rounded = |rad: f64| {
        format!(
            "M{:.1},{y:.1} H{:.1} A{rad},{rad} 0 0 1 {r:.1},{:.1} V{:.1} A{rad},{rad} 0 0 1 {:.1},{b:.1} H{:.1} A{rad},{rad} 0 0 1 {x:.1},{:.1} V{:.1} A{rad},{rad} 0 0 1 {:.1},{y:.1} Z",
            x + rad, r - rad, y + rad, b - rad, r - rad, x + rad, b - rad, y + rad, x + rad
        )
    };
    match kind {
        "claim" => rounded(10.0),
        "chart_region" => rounded(h / 2.0),
        // A hexagon: pointed ends.
        "table_cell" => format!("M{:.1},{y:.1} H{:.1} L{r:.1},{:.1} L{:.1},{b:.1} H{:.1} L{x:.1},{:.1} Z", x + 10.0, r - 10.0, y + h / 2.0, r - 10.0, x + 10.0, y + h / 2.0),
        // A parallelogram: computed.
        "derived_metric" => format!("M{:.1},{y:.1} H{r:.1} L{:.1},{b:.1} H{x:.1} Z", x + 12.0, r - 12.0),
        // An octagon: a check.
        "constraint_check" => {
            let c = 9.0;
            format!(
                "M{:.1},{y:.1} H{:.1} L{r:.1},{:.1} V{:.1} L{:.1},{b:.1} H{:.1} L{x:.1},{:.1} V{:.1} Z",
                x + c, r - c, y + c, b - c, r - c, x + c, b - c, y + c
            )
        }
        // A page with a folded corner.
        "source" => format!("M{x:.1},{y:.1} H{:.1} L{r:.1},{:.1} V{b:.1} H{x:.1} Z M{:.1},{y:.1} V{:.1} H{r:.1}", r - 12.0, y + 12.0, r - 12.0, y + 12.0),
        _ => rounded(2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::fixture;

    fn overlaps(a: &LaidNode, b: &LaidNode) -> bool {
        a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
    }

    #[test]
    fn three_hundred_nodes_do_not_overlap_and_stay_inside_the_canvas() {
        // 20 claims with 14 evidence nodes each = 300 ledger nodes, plus their source pages.
        let run = fixture::run(20, 15);
        assert_eq!(run.ledger.nodes.len(), 300);
        let g = layout(&run);
        assert!(g.nodes.len() > 300, "ledger nodes plus source pages: {}", g.nodes.len());
        for (i, a) in g.nodes.iter().enumerate() {
            assert!(a.x >= 0.0 && a.y >= 0.0 && a.x + a.w <= g.width && a.y + a.h <= g.height, "{} outside the canvas", a.id);
            for b in &g.nodes[i + 1..] {
                assert!(!overlaps(a, b), "{} overlaps {}", a.id, b.id);
            }
        }
        // Every ledger edge is drawn, plus one ON_PAGE edge per cited evidence node.
        let on_page = g.edges.iter().filter(|e| e.relation == "ON_PAGE").count();
        assert_eq!(g.edges.len() - on_page, run.ledger.edges.len());
        assert_eq!(on_page, run.ledger.nodes.iter().filter(|n| n.source_page().is_some()).count());
    }

    #[test]
    fn lanes_run_claims_then_evidence_then_sources_left_to_right() {
        let g = layout(&fixture::run(3, 4));
        let right = |l: Lane| g.nodes.iter().filter(|n| n.lane == l).map(|n| n.x + n.w).fold(f64::MIN, f64::max);
        let left = |l: Lane| g.nodes.iter().filter(|n| n.lane == l).map(|n| n.x).fold(f64::MAX, f64::min);
        assert!(right(Lane::Claim) < left(Lane::Evidence));
        assert!(right(Lane::Evidence) < left(Lane::Source));
        // Claim nodes carry their verdict and HRI where they have one.
        let c1 = g.node("claim-1").unwrap();
        assert_eq!(c1.verdict.as_deref(), Some("Supported"));
        assert!(c1.lines[1].contains("Supported · HRI 0.140"), "{:?}", c1.lines);
        let c2 = g.node("claim-2").unwrap();
        assert_eq!(c2.verdict.as_deref(), Some("InsufficientEvidence"));
        assert!(c2.hri.is_none());
    }

    #[test]
    fn the_same_run_gives_the_same_layout() {
        let run = fixture::run(5, 6);
        assert_eq!(layout(&run), layout(&run));
        assert_eq!(serde_json::to_string(&layout(&run)).unwrap(), serde_json::to_string(&layout(&run.clone())).unwrap());
    }

    #[test]
    fn an_empty_ledger_lays_out_as_an_empty_canvas() {
        let mut run = fixture::run(1, 1);
        run.ledger = Default::default();
        let g = layout(&run);
        assert!(g.nodes.is_empty() && g.edges.is_empty());
        assert!(g.width > 0.0 && g.height >= 0.0);
    }
}
