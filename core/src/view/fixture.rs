//! A synthetic run for the view tests: `claims` claims with `per_claim − 1` evidence nodes each
//! (so `claims × per_claim` ledger nodes), cycling through every node kind and relation. Odd
//! claims are published with an HRI; even claims end InsufficientEvidence. One passage carries
//! markup, to prove it is escaped wherever it is shown.

use crate::agents::adversarial::Review;
use crate::agents::entailment::Entailment;
use crate::agents::judge::VerdictLabel;
use crate::agents::synthesizer::Rephrase;
use crate::calc::ChangeKind;
use crate::config::{ClaimType, Modality, Settings};
use crate::export::*;
use crate::ledger::graph::Locator;
use crate::ledger::{CustodyEvent, CustodyVerdict, DocketEntry, EdgeDump, LedgerDump, Node, NodeKind, Relation};
use crate::llm::roles::{Attack, AttackCategory, EntailmentLabel, Severity};
use crate::llm::CallRecord;

pub const MARKUP: &str = "<script>alert('pwned')</script><img src=x onerror=alert(1)>";

pub fn run(claims: usize, per_claim: usize) -> RunExport {
    let mut nodes = vec![];
    let mut edges = vec![];
    let mut reports = vec![];
    let mut lines = vec![];
    let mut docket = vec![];
    let mut custody = vec![];
    for c in 1..=claims {
        let cid = format!("claim-{c}");
        let text = format!("Net sales in FY{} were ${}.{} billion", 2000 + c, c, c);
        nodes.push(Node {
            node_id: cid.clone(),
            claim_id: cid.clone(),
            kind: NodeKind::Claim { question: "q".into(), claim_type: ClaimType::FactNumeric, text: text.clone() },
        });
        let mut evidence = vec![];
        for k in 1..per_claim {
            let id = format!("c{c}-e-{k}");
            let source = format!("REPORT_{}.pdf", c % 3);
            let page = (c * 7 + k) as u32 % 40 + 1;
            let locator = Locator { doc_id: format!("d{c}-{k}"), bboxes: vec![[72.0, 100.0 + k as f32, 300.0, 120.0 + k as f32]], page_size: (612.0, 792.0), table_parts: vec![], ..Default::default() };
            let kind = match k % 5 {
                1 => NodeKind::TextSpan {
                    source: source.clone(),
                    page,
                    text: if c == 1 && k == 1 { format!("Net sales rose {MARKUP}") } else { format!("Net sales were ${c}.{c} billion in fiscal {}", 2000 + c) },
                    hedge_type: None,
                    figure: None,
                    locator,
                },
                2 => NodeKind::TableCell { source: source.clone(), page, row_label: "Net sales".into(), col_label: format!("{}", 2000 + c), value: format!("{c},{c}00"), unit: Some("$m".into()), locator, notes: vec![] },
                3 => NodeKind::ChartRegion { source: source.clone(), page, description: "Bar chart of net sales by year".into(), locator },
                4 => NodeKind::DerivedMetric {
                    metric: "net sales".into(),
                    kind: ChangeKind::Relative,
                    earlier_period: "FY2017".into(),
                    later_period: "FY2018".into(),
                    formula: "(2 − 1) / 1".into(),
                    value: 1.0,
                    rendered: "100%".into(),
                    source: source.clone(),
                    page,
                },
                _ => NodeKind::ConstraintCheck { name: "units".into(), passed: k % 2 == 0, severity: "high".into(), detail: "units agree".into() },
            };
            let node = Node { node_id: id.clone(), claim_id: cid.clone(), kind };
            let relation = match k % 5 {
                0 if k % 2 == 1 => Relation::ViolatesConstraint,
                _ => Relation::Supports,
            };
            edges.push(EdgeDump { source: id.clone(), target: cid.clone(), relation, score: Some(0.5 + k as f64 / 100.0) });
            if k > 1 && k % 4 == 0 {
                edges.push(EdgeDump { source: id.clone(), target: format!("c{c}-e-{}", k - 1), relation: Relation::DerivedFrom, score: None });
            }
            if k == 3 {
                edges.push(EdgeDump { source: format!("c{c}-e-2"), target: format!("c{c}-e-1"), relation: Relation::SameAs, score: None });
            }
            evidence.push(EvidenceRef { modality: node.modality(), node: node.clone(), score: 0.5 + k as f64 / 100.0 });
            nodes.push(node);
        }
        let published = c % 2 == 1;
        let citations: Vec<Citation> = evidence
            .iter()
            .filter_map(|e| {
                let (s, p) = e.node.source_page()?;
                let l = e.node.locator().cloned().unwrap_or_default();
                Some(Citation { source: s.into(), page: p, node_id: e.node.node_id.clone(), bboxes: l.bboxes, page_size: l.page_size, table_parts: l.table_parts })
            })
            .take(1)
            .collect();
        let ev = CustodyEvent { claim_id: cid.clone(), stage: "initial".into(), verdict: CustodyVerdict::Valid, confidence: 0.9, detail: "entailed".into() };
        custody.push(ev.clone());
        let d = DocketEntry {
            claim_id: cid.clone(),
            claim_type: ClaimType::FactNumeric,
            modality_confidences: vec![(Modality::Table, 0.8), (Modality::Text, 0.6)],
            asymmetric_winner: Some(Modality::Table),
            s: 0.8,
            uniform_winner: Some(Modality::Table),
            asymmetry_changed_outcome: false,
        };
        docket.push(d.clone());
        reports.push(ClaimReport {
            claim_id: cid.clone(),
            text: text.clone(),
            claim_type: ClaimType::FactNumeric,
            fallback: false,
            label: if published { VerdictLabel::Supported } else { VerdictLabel::InsufficientEvidence },
            published,
            audit_passed: published,
            reason: if published { "entailed by the table".into() } else { "no evidence above the bar".into() },
            winning_modality: Some(Modality::Table),
            s: 0.8,
            coverage_bp: 8_000,
            escalated: true,
            escalation_reason: "numeric claim".into(),
            hri: published.then(|| crate::risk::hri([0.4, 0.25, 0.2, 0.15], 3, 0.9, 0.8, 0, 1, 1)),
            answer_fragment: text.clone(),
            evidence,
            debate: DebateTranscript {
                briefs: vec![BriefRecord { stage: "initial".into(), text: format!("The table shows {text}."), failure: None }],
                reviews: vec![Review {
                    stage: "initial".into(),
                    attacks: vec![Attack { category: AttackCategory::FyTemporal, detail: "fiscal year not stated".into(), severity: Severity::High }],
                    recommend_abstain: false,
                    failure: None,
                }],
                rebuttal_rounds: 1,
                repairs: 0,
            },
            custody: vec![ev],
            docket: Some(d),
            citations: citations.clone(),
            terminal_entailment: Some(Entailment { label: EntailmentLabel::Entails, confidence: 0.9, rationale: "stated in the table".into(), failure: None }),
            calls: vec![CallRecord {
                role: "entailment".into(),
                claim_id: Some(cid.clone()),
                model: "gpt-4o-mini".into(),
                attempts: 1,
                usage: crate::llm::Usage { input_tokens: 1200, output_tokens: 80 },
                cost_usd: Some(0.00023),
                latency_ms: 412.0,
                failure: None,
            }],
            failure: None,
        });
        lines.push(AnswerLine { claim_id: cid, published, text: if published { text } else { "Could not verify a figure".into() }, citations: if published { citations } else { vec![] } });
    }
    let calls: Vec<CallRecord> = reports.iter().flat_map(|r| r.calls.clone()).collect();
    let settings = Settings::paper();
    RunExport {
        schema_version: SCHEMA.into(),
        run_id: run_id("What were net sales?", &settings),
        question: "What were net sales?".into(),
        mode: RunMode::ClairFin,
        settings,
        answer: Answer {
            text: lines.iter().filter(|l| l.published).map(|l| l.text.clone()).collect::<Vec<_>>().join(". "),
            abstained: false,
            partial: claims > 1,
            lines,
        },
        rephrase: Rephrase::Skipped { reason: "test".into() },
        claims: reports,
        ledger: LedgerDump { nodes, edges, custody_log: custody, authority_docket: docket.clone(), notes: vec![] },
        docket_summary: crate::ledger::docket::summarize(&docket),
        totals: Totals::of(&calls),
        calls,
        outcome: if claims > 1 { crate::export::RunOutcome::Partial } else { crate::export::RunOutcome::Answered },
        failure: None,
    }
}
