//! Judge-Auditor (paper §3.8; spec §2.9): AEA argmax m*, s(c) and the Authority Docket entry with
//! its equal-weight counterfactual; an authority-ordered draft; the terminal entailment gate; HRI.
//!
//! A claim is published only when the terminal entailment call actually answered `entails` at or
//! above the bar (ARCHITECTURE invariant) — unless the "w/o terminal audit" ablation is on, in which
//! case the verdict says so (`Unaudited`).

use super::entailment::{self, Entailment};
use super::{evidence_block, ClaimTask, Ctx};
use crate::authority::{decide, modality_confidences, order_weight_bp};
use crate::calc::{is_year, numbers_in, ChangeKind};
use crate::config::{ClaimType, Modality};
use crate::ledger::graph::{NodeKind, Relation};
use crate::ledger::{DocketEntry, Ledger};
use crate::llm::roles::JudgeDraftOut;
use crate::llm::Transport;
use crate::prompts;
use crate::retrieve::Search;
use crate::risk::{hri, Hri};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum VerdictLabel {
    StronglySupported,
    Supported,
    InsufficientEvidence,
    /// Published without a terminal audit (the "w/o terminal audit" ablation, vanilla RAG).
    Unaudited,
}

impl VerdictLabel {
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictLabel::StronglySupported => "StronglySupported",
            VerdictLabel::Supported => "Supported",
            VerdictLabel::InsufficientEvidence => "InsufficientEvidence",
            VerdictLabel::Unaudited => "Unaudited",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub label: VerdictLabel,
    /// The claim's sentence goes into the answer.
    pub published: bool,
    /// The terminal entailment gate passed.
    pub audit_passed: bool,
    /// Why the claim ended as it did.
    pub reason: String,
    pub winning_modality: Option<Modality>,
    pub s: f64,
    /// γ of the terminal entailment call, when one was made.
    pub gamma: Option<f64>,
    pub hri: Option<Hri>,
    pub answer_fragment: String,
    /// Node ids of the evidence the published sentence actually used (spec §12), in authority order.
    pub citations: Vec<String>,
    /// The terminal entailment answer, when one was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entailment: Option<Entailment>,
}

impl Verdict {
    pub fn insufficient(reason: impl Into<String>, winner: Option<Modality>, s: f64) -> Verdict {
        Verdict {
            label: VerdictLabel::InsufficientEvidence,
            published: false,
            audit_passed: false,
            reason: reason.into(),
            winning_modality: winner,
            s,
            gamma: None,
            hri: None,
            answer_fragment: String::new(),
            citations: vec![],
            entailment: None,
        }
    }
}

/// What the debate left for the judge.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DebateState {
    pub custody_broken: bool,
    pub recommend_abstain: bool,
    /// Custody events with verdict `repaired`.
    pub repairs: u32,
    /// High-severity findings in the latest review (0 on the fast path).
    pub n_high: u32,
}

/// Support nodes ordered by the authority weight of their modality for τ, descending, stable
/// (spec §2.9 step 6).
pub fn authority_order(ledger: &Ledger, support: &[(String, f64)], claim: &ClaimTask, weights: &crate::config::AuthorityWeights) -> Vec<String> {
    let mut ids: Vec<(u32, String)> = support
        .iter()
        .map(|(id, _)| (order_weight_bp(weights, claim.claim_type, ledger.node(id).and_then(|n| n.modality())), id.clone()))
        .collect();
    ids.sort_by_key(|x| std::cmp::Reverse(x.0));
    ids.into_iter().map(|(_, id)| id).collect()
}

pub fn user_message(claim: &str, evidence: &str) -> String {
    format!("CLAIM: {claim}\n\nEVIDENCE:\n{evidence}")
}

const STOP: &[&str] = &["the", "and", "for", "with", "from", "that", "this", "was", "were", "are", "its", "their", "which", "than", "into", "over", "fiscal", "year"];

fn terms(s: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for t in s.to_lowercase().split(|c: char| !c.is_alphanumeric()) {
        if t.len() >= 4 && !STOP.contains(&t) && !t.chars().all(|c| c.is_ascii_digit()) && !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    }
    out
}

/// The evidence a drafted sentence actually used (spec §12: the reference cited every support
/// node). A node is used when it states a non-year figure that the sentence states; when the
/// sentence has no such figure, the nodes sharing the most content words with it. A used derived
/// metric brings its input cells (DERIVED_FROM), which carry the page regions. Constraint checks are
/// never cited. Falls back to the most authoritative node so a published line is never uncited.
pub fn used_evidence(ledger: &Ledger, ordered: &[String], sentence: &str) -> Vec<String> {
    let figures: Vec<f64> = numbers_in(sentence).into_iter().filter(|v| !is_year(*v)).collect();
    let citable: Vec<&String> = ordered.iter().filter(|id| ledger.node(id).is_some_and(|n| n.modality().is_some())).collect();
    let mut used: Vec<String> = vec![];
    if !figures.is_empty() {
        for id in &citable {
            let content = ledger.node(id).map(|n| n.content()).unwrap_or_default();
            if numbers_in(&content).iter().any(|v| !is_year(*v) && figures.iter().any(|f| (f - v).abs() < 1e-9)) {
                used.push((*id).clone());
            }
        }
    }
    if used.is_empty() {
        let st = terms(sentence);
        let scored: Vec<(usize, &String)> = citable
            .iter()
            .map(|id| {
                let nt = terms(&ledger.node(id).map(|n| n.content()).unwrap_or_default());
                (st.iter().filter(|t| nt.contains(t)).count(), *id)
            })
            .collect();
        let best = scored.iter().map(|s| s.0).max().unwrap_or(0);
        if best > 0 {
            let bar = best.min(3).max(best.div_ceil(2));
            used = scored.iter().filter(|(n, _)| *n >= bar).map(|(_, id)| (*id).clone()).collect();
        }
    }
    if used.is_empty() {
        used.extend(citable.first().map(|id| (*id).clone()));
    }
    let mut out: Vec<String> = vec![];
    for id in used {
        let is_metric = matches!(ledger.node(&id).map(|n| &n.kind), Some(NodeKind::DerivedMetric { .. }));
        if !out.contains(&id) {
            out.push(id.clone());
        }
        if is_metric {
            for input in ledger.targets(&id, Relation::DerivedFrom) {
                if !out.contains(&input) {
                    out.push(input);
                }
            }
        }
    }
    out
}

/// The (modality, retrieval confidence) pairs AEA weighs for a claim (paper §3.8). For a
/// RATIO_IDENTITY claim a derived figure speaks as tool-derived evidence only when it is the ratio
/// computed from the cited numerator and denominator (§3.5, as the guardian's constraint and
/// coverage count it): a growth rate derived from the same cells is left out of the argmax and
/// s(c) — it stays in the support set, so it is still shown and may be cited.
fn authority_evidence(ledger: &Ledger, support: &[(String, f64)], claim_type: ClaimType) -> Vec<(Modality, f64)> {
    support
        .iter()
        .filter_map(|(id, score)| ledger.node(id).map(|n| (n, *score)))
        .filter(|(n, _)| claim_type != ClaimType::RatioIdentity || !matches!(&n.kind, NodeKind::DerivedMetric { kind, .. } if *kind != ChangeKind::Ratio))
        .filter_map(|(n, score)| n.modality().map(|m| (m, score)))
        .collect()
}

/// The terminal audit for one claim. Appends the docket entry to `ledger` (before anything after
/// the argmax can fail, spec §2.9 step 4).
pub async fn audit<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, ledger: &mut Ledger, claim: &ClaimTask, debate: &DebateState) -> Verdict {
    let s = ctx.settings;
    if debate.custody_broken {
        return Verdict::insufficient("chain of custody broken: the brief was not grounded after the repair", None, 0.0);
    }
    let support = ledger.support(&claim.claim_id);
    let evidence = authority_evidence(ledger, &support, claim.claim_type);
    if evidence.is_empty() {
        return Verdict::insufficient("no evidence was found for this claim", None, 0.0);
    }
    // AEA decides here (m*, s(c), the evidence order, the docket); the w/o-AEA ablation makes these
    // weights uniform and nothing else (paper App. A.1 "uniform weighting"; docs/eval.md).
    let weights = s.authority_weights();
    let conf = modality_confidences(&evidence);
    let d = decide(&weights, claim.claim_type, &conf);
    ledger.docket.push(DocketEntry {
        claim_id: claim.claim_id.clone(),
        claim_type: claim.claim_type,
        modality_confidences: conf.clone(),
        asymmetric_winner: d.winner,
        s: d.s,
        uniform_winner: d.uniform_winner,
        asymmetry_changed_outcome: d.changed_outcome(),
    });
    if d.winner.is_none() {
        // Spec §12: the reference let such claims pass with s = 0 and no winner.
        return Verdict::insufficient("no evidence of a modality that is authoritative for this claim type", None, 0.0);
    }
    if debate.recommend_abstain {
        return Verdict::insufficient("the adversarial counsel recommended abstaining", d.winner, d.s);
    }
    let ordered = authority_order(ledger, &support, claim, &weights);
    let lines: Vec<String> = ordered.iter().filter_map(|id| ledger.node(id).map(|n| n.describe())).collect();
    let block = evidence_block(&lines);
    let draft = ctx.client.call::<JudgeDraftOut>(Some(&claim.claim_id), prompts::JUDGE_DRAFT, &user_message(&claim.text, &block)).await;
    if let Some(f) = &draft.failure {
        return Verdict::insufficient(format!("the judge's draft call failed: {f}"), d.winner, d.s);
    }
    let sentence = draft.value.sentence.trim().to_string();
    if draft.value.insufficient || sentence.is_empty() || sentence.starts_with("INSUFFICIENT EVIDENCE") {
        return Verdict::insufficient("the judge found the evidence insufficient", d.winner, d.s);
    }
    let citations = used_evidence(ledger, &ordered, &sentence);
    let p = &s.pipeline;
    if s.ablations.no_terminal_audit {
        return Verdict {
            label: VerdictLabel::Unaudited,
            published: true,
            audit_passed: false,
            reason: "published without terminal audit (ablation)".into(),
            winning_modality: d.winner,
            s: d.s,
            gamma: None,
            hri: None,
            answer_fragment: sentence,
            citations,
            entailment: None,
        };
    }
    let e = entailment::check(ctx, &claim.claim_id, &block, &sentence).await;
    if !e.passes(p.entailment_threshold) {
        let why = match &e.failure {
            Some(f) => format!("terminal entailment call failed: {f}"),
            None => format!("terminal entailment returned {} at confidence {} (bar: entails at ≥ {})", crate::agents::affirmative::enum_name(&e.label), e.confidence, p.entailment_threshold),
        };
        let mut v = Verdict::insufficient(why, d.winner, d.s);
        v.gamma = Some(e.confidence);
        v.entailment = Some(e);
        return v;
    }
    let risk = hri(p.hri_weights, p.hri_attack_saturation, e.confidence, d.s, debate.repairs, p.max_repair_attempts, debate.n_high);
    let label = if d.s >= p.strong_support_threshold { VerdictLabel::StronglySupported } else { VerdictLabel::Supported };
    Verdict {
        label,
        published: true,
        audit_passed: true,
        reason: "terminal entailment passed".into(),
        winning_modality: d.winner,
        s: d.s,
        gamma: Some(e.confidence),
        hri: Some(risk),
        answer_fragment: sentence,
        citations,
        entailment: Some(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::graph::Node;

    fn derived(ledger: &mut Ledger, id: &str, kind: ChangeKind) -> String {
        let metric = NodeKind::DerivedMetric {
            metric: "Net sales".into(),
            kind,
            earlier_period: "2017".into(),
            later_period: "2018".into(),
            formula: "x".into(),
            value: 0.035,
            rendered: "3.5%".into(),
            source: "3M_2018_10K.pdf".into(),
            page: 60,
        };
        ledger.add_node(Node { node_id: id.into(), claim_id: "claim-1".into(), kind: metric })
    }

    #[test]
    fn a_growth_rate_does_not_speak_for_a_ratio_claim_at_the_audit_but_a_computed_ratio_does() {
        let mut l = Ledger::new();
        let growth = derived(&mut l, "claim-1-metric-1", ChangeKind::Relative);
        let ratio = derived(&mut l, "claim-1-metric-2", ChangeKind::Ratio);
        let support = vec![(growth.clone(), 0.9), (ratio.clone(), 0.8)];
        let of = |t| authority_evidence(&l, &support, t);
        assert_eq!(of(ClaimType::RatioIdentity), vec![(Modality::ToolDerived, 0.8)], "only the computed ratio");
        assert_eq!(of(ClaimType::FactTrend), vec![(Modality::ToolDerived, 0.9), (Modality::ToolDerived, 0.8)], "a trend claim weighs both");
        let only_growth = vec![(growth, 0.9)];
        assert!(authority_evidence(&l, &only_growth, ClaimType::RatioIdentity).is_empty(), "a growth rate alone leaves a ratio claim without tool-derived evidence");
    }
}
