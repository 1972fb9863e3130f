//! Metric functions on synthetic outcomes, with every expected value computed by hand in the comments.

use super::*;
use crate::agents::judge::VerdictLabel;
use crate::config::ClaimType;
use crate::eval::outcome::ClaimOutcome;
use crate::export::Totals;

fn close(a: Option<f64>, b: f64) -> bool {
    a.map(|a| (a - b).abs() < 1e-6).unwrap_or(false)
}

/// A claim: escalated?, published?, audit passed?, judged faithful?, HRI.
fn claim(esc: bool, published: bool, passed: bool, faithful: Option<bool>, hri: Option<f64>) -> ClaimOutcome {
    ClaimOutcome {
        claim_id: "c".into(),
        claim_type: ClaimType::FactNumeric,
        label: if passed { VerdictLabel::Supported } else { VerdictLabel::InsufficientEvidence },
        escalated: esc,
        published,
        audit_passed: passed,
        faithful,
        faithfulness_rationale: String::new(),
        decided_by_failure: false,
        hri,
    }
}

fn result(id: &str, outcome: Option<Outcome>, ty: &str, claims: Vec<ClaimOutcome>, docket: (u32, u32), retrieved: Vec<u32>, gold: Vec<u32>, latency: f64) -> QuestionResult {
    QuestionResult {
        config: "full".into(),
        item_id: id.into(),
        question: format!("{id}?"),
        gold_answer: "gold".into(),
        doc: None,
        query_type: Some(ty.into()),
        format: None,
        difficulty: None,
        gold_pages: gold,
        outcome,
        error: outcome.is_none().then(|| "run failed".to_string()),
        judge_rationale: String::new(),
        judge_failure: None,
        answer: String::new(),
        run_id: String::new(),
        mode: RunMode::ClairFin,
        aea_ablated: false,
        arc_ablated: false,
        audit_ablated: false,
        claims,
        docket_decisions: docket.0,
        docket_changed: docket.1,
        retrieved_pages: retrieved,
        cited_pages: vec![],
        run_totals: Totals { calls: 10, cost_usd: 0.01, input_tokens: 1000, output_tokens: 100, ..Default::default() },
        eval_totals: Totals { calls: 1, cost_usd: 0.001, ..Default::default() },
        latency_ms: latency,
        ragas: None,
    }
}

/// Five questions: one of each outcome and one failed run.
fn sample() -> Vec<QuestionResult> {
    let mut q1 = result(
        "q1",
        Some(Outcome::Correct),
        "A",
        vec![
            claim(true, true, true, Some(true), Some(0.2)),
            claim(false, true, true, Some(true), Some(0.1)),
            // Published without an audit and rejected by the faithfulness judge.
            claim(false, true, false, Some(false), None),
        ],
        (2, 1),
        vec![3],
        vec![3],
        100.0,
    );
    q1.format = Some("Text".into());
    let q2 = result("q2", Some(Outcome::Partial), "A", vec![claim(true, true, true, Some(true), Some(0.3)), claim(true, false, false, None, None)], (1, 0), vec![1, 4], vec![4], 200.0);
    let q3 = result("q3", Some(Outcome::Incorrect), "B", vec![claim(false, true, true, Some(true), Some(0.5))], (1, 1), vec![9], vec![4], 300.0);
    let q4 = result("q4", Some(Outcome::Abstained), "B", vec![claim(true, false, false, None, None)], (0, 0), vec![], vec![], 400.0);
    let q5 = result("q5", None, "B", vec![], (0, 0), vec![], vec![1], 50.0);
    vec![q1, q2, q3, q4, q5]
}

#[test]
fn pearson_matches_hand_computation_and_refuses_degenerate_series() {
    assert!(close(pearson(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), 1.0));
    assert!(close(pearson(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0));
    // x̄ = 0.25, ȳ = 0.5: Sxy = 0.2, Sxx = 0.05, Syy = 1 → 0.2/√0.05 = 0.894427.
    assert!(close(pearson(&[0.1, 0.2, 0.3, 0.4], &[0.0, 0.0, 1.0, 1.0]), 0.894427191));
    assert_eq!(pearson(&[0.2, 0.2, 0.2], &[0.0, 1.0, 0.0]), None, "constant HRI");
    assert_eq!(pearson(&[0.1, 0.2, 0.3], &[0.0, 0.0, 0.0]), None, "no incorrect answer");
    assert_eq!(pearson(&[0.1], &[1.0]), None);
    assert_eq!(pearson(&[], &[]), None);
}

#[test]
fn auroc_counts_pairs_and_half_ties() {
    // Positives 0.35, 0.8 vs negatives 0.1, 0.4: 0.35 beats 0.1 only, 0.8 beats both → 3/4.
    assert!(close(auroc(&[0.1, 0.4, 0.35, 0.8], &[false, false, true, true]), 0.75));
    assert!(close(auroc(&[0.5, 0.5], &[true, false]), 0.5));
    assert_eq!(auroc(&[0.1, 0.2], &[false, false]), None);
    assert_eq!(auroc(&[0.1, 0.2], &[true, true]), None);
    assert_eq!(auroc(&[], &[]), None);
}

#[test]
fn page_retrieval_uses_document_ranks_within_k() {
    // Top 3 = [5, 7, 7]: hit; first gold at rank 2 → RR 0.5; gold {2, 7}: only 7 found → recall 0.5.
    assert_eq!(page_retrieval(&[5, 7, 7, 9, 2], &[2, 7], 3), Some((true, 0.5, 0.5)));
    assert_eq!(page_retrieval(&[5, 7, 7, 9, 2], &[2, 7], 5), Some((true, 0.5, 1.0)));
    assert_eq!(page_retrieval(&[5], &[2], 8), Some((false, 0.0, 0.0)));
    assert_eq!(page_retrieval(&[], &[2], 8), Some((false, 0.0, 0.0)));
    assert_eq!(page_retrieval(&[1, 2], &[], 8), None, "no gold pages: not scored (not a miss)");
}

#[test]
fn aggregate_of_one_question_per_outcome_matches_hand_counts() {
    let s = sample();
    let refs: Vec<&QuestionResult> = s.iter().collect();
    let a = aggregate(&refs, 8);
    assert_eq!((a.n, a.failed), (4, 1));
    assert_eq!(a.outcomes, OutcomeCounts { correct: 1, partial: 1, incorrect: 1, abstained: 1 });
    assert!(close(a.exact_correctness, 0.25));
    assert!(close(a.coverage, 0.75));
    assert!(close(a.selective_accuracy, 1.0 / 3.0));
    // Claims 3 + 2 + 1 + 1 = 7, escalated 1 + 2 + 0 + 1 = 4.
    assert_eq!((a.claims, a.debated_claims), (7, 4));
    assert!(close(a.debate_utilization, 4.0 / 7.0));
    // Published 3 + 1 + 1 = 5, all judged, 4 faithful.
    assert_eq!((a.published_claims, a.measured_claims, a.faithful_claims), (5, 5, 4));
    assert!(close(a.faithfulness_rate, 0.8));
    // The pipeline's own audit: passed 2 + 1 + 1 + 0 of all 7 claims.
    assert_eq!(a.audit_passed_claims, 4);
    assert!(close(a.audit_pass_rate, 4.0 / 7.0));
    // Reference rate: audit-passed 2 + 1 + 1 over the 6 claims of answered questions.
    assert!(close(a.claim_pass_rate, 4.0 / 6.0));
    // Docket 2/1 + 1/0 + 1/1 → 2 of 4.
    assert!(close(a.aea_impact, 0.5));
    // HRI points (0.2 correct), (0.3 partial), (0.5 incorrect); h̄ = 1/3, Sxx = 0.046667.
    // vs correct [1,0,0]: Sxy = −0.133333, Syy = 2/3 → −0.755929.
    // vs incorrect [0,0,1]: Sxy = 0.166667 → 0.944911. AUROC: 0.5 beats 0.2 and 0.3 → 1.
    assert_eq!(a.hri.n, 3);
    assert!(close(a.hri.pearson_with_correct, -0.755928946));
    assert!(close(a.hri.pearson_with_incorrect, 0.944911183));
    assert!(close(a.hri.auroc_incorrect, 1.0));
    assert!(close(a.hri.mean_max_hri, 1.0 / 3.0));
    let bins: Vec<(f64, usize, f64)> = a.hri.bins.iter().map(|b| (b.lo, b.n, b.incorrect_rate)).collect();
    assert_eq!(bins, vec![(0.2, 1, 0.0), (0.3, 1, 0.0), (0.5, 1, 1.0)]);
    // Retrieval over q1–q3 (q4 has no gold pages; q5 failed): hits 1,1,0; RR 1, 0.5, 0; recall 1,1,0.
    assert_eq!(a.retrieval.n, 3);
    assert!(close(a.retrieval.hit_at_k, 2.0 / 3.0));
    assert!(close(a.retrieval.mrr, 0.5));
    assert!(close(a.retrieval.recall_at_k, 2.0 / 3.0));
    // Cost and latency count every attempted question, the failed one included.
    assert_eq!(a.cost.run_calls, 50);
    assert!((a.cost.run_cost_usd - 0.05).abs() < 1e-9 && (a.cost.eval_cost_usd - 0.005).abs() < 1e-9);
    assert_eq!(a.cost.latency_total_ms, 1050.0);
    assert!(close(a.cost.latency_mean_ms, 210.0));
    // Nearest rank over [50, 100, 200, 300, 400]: p50 → 3rd, p95 → 5th.
    assert!(close(a.cost.latency_p50_ms, 200.0) && close(a.cost.latency_p95_ms, 400.0));
}

#[test]
fn no_incorrect_answer_leaves_incorrectness_calibration_undefined() {
    let s: Vec<QuestionResult> = [0.1, 0.2, 0.3]
        .iter()
        .enumerate()
        .map(|(i, h)| result(&format!("q{i}"), Some(Outcome::Correct), "A", vec![claim(false, true, true, Some(true), Some(*h))], (1, 0), vec![], vec![], 1.0))
        .collect();
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!(a.hri.n, 3);
    assert_eq!(a.hri.pearson_with_incorrect, None);
    assert_eq!(a.hri.pearson_with_correct, None, "every answer correct: the indicator is constant");
    assert_eq!(a.hri.auroc_incorrect, None);
    assert!(close(a.exact_correctness, 1.0));
    assert!(close(a.aea_impact, 0.0), "decisions made, none changed: 0, not undefined");
}

#[test]
fn constant_hri_leaves_correlations_undefined_but_not_auroc() {
    let outcomes = [Outcome::Correct, Outcome::Incorrect, Outcome::Partial];
    let s: Vec<QuestionResult> = outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| result(&format!("q{i}"), Some(*o), "A", vec![claim(false, true, true, Some(true), Some(0.2))], (0, 0), vec![], vec![], 1.0))
        .collect();
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!(a.hri.pearson_with_correct, None);
    assert_eq!(a.hri.pearson_with_incorrect, None);
    // One positive tied with two negatives: AUROC 0.5 (uninformative, and defined).
    assert!(close(a.hri.auroc_incorrect, 0.5));
    assert_eq!(a.aea_impact, None, "empty docket: undefined");
    assert_eq!(a.hri.bins.len(), 1);
}

#[test]
fn empty_and_all_abstained_sets_do_not_crash() {
    let a = aggregate(&[], 8);
    assert_eq!(a.n, 0);
    assert_eq!((a.exact_correctness, a.coverage, a.faithfulness_rate, a.debate_utilization, a.aea_impact), (None, None, None, None, None));
    assert_eq!(a.retrieval.hit_at_k, None);
    assert_eq!(a.cost.latency_mean_ms, None);

    let s: Vec<QuestionResult> = (0..2).map(|i| result(&format!("q{i}"), Some(Outcome::Abstained), "A", vec![claim(true, false, false, None, None)], (0, 0), vec![1], vec![1], 1.0)).collect();
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert!(close(a.coverage, 0.0));
    assert_eq!(a.selective_accuracy, None);
    assert_eq!(a.faithfulness_rate, None, "nothing published");
    assert_eq!(a.claim_pass_rate, None, "no answered question");
    assert!(close(a.debate_utilization, 1.0));
    assert_eq!(a.hri.n, 0);
    assert!(close(a.retrieval.hit_at_k, 1.0));
}

#[test]
fn vanilla_and_aea_ablation_mark_their_mechanism_metrics_undefined() {
    let mut s = sample();
    for r in &mut s {
        r.mode = RunMode::VanillaRag;
    }
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!(a.debate_utilization, None);
    assert_eq!(a.aea_impact, None);
    let mut s = sample();
    for r in &mut s {
        r.aea_ablated = true;
    }
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!(a.aea_impact, None);
    assert!(a.debate_utilization.is_some());
}

#[test]
fn faithfulness_is_the_judges_verdict_not_the_audit_and_a_failed_judge_call_is_unmeasured() {
    // Every claim passed the pipeline's audit; the judge rejects half of the judged ones.
    let claims = vec![
        claim(true, true, true, Some(true), Some(0.1)),
        claim(true, true, true, Some(false), Some(0.1)),
        claim(false, true, true, Some(true), Some(0.1)),
        claim(false, true, true, Some(false), Some(0.1)),
        // The judge's call failed: neither faithful nor unfaithful.
        claim(false, true, true, None, Some(0.1)),
    ];
    let s = vec![result("q1", Some(Outcome::Correct), "A", claims, (0, 0), vec![], vec![], 1.0)];
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert!(close(a.audit_pass_rate, 1.0));
    assert_eq!((a.faithful_claims, a.measured_claims, a.published_claims), (2, 4, 5));
    assert!(close(a.faithfulness_rate, 0.5));
}

#[test]
fn without_arc_debate_utilization_and_without_audit_the_audit_pass_rate_are_undefined() {
    let mut s = sample();
    for r in &mut s {
        r.arc_ablated = true;
    }
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!(a.debate_utilization, None, "paper Table 3: – for w/o ARC");
    assert!(a.aea_impact.is_some() && a.audit_pass_rate.is_some());
    let mut s = sample();
    for r in &mut s {
        r.audit_ablated = true;
    }
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!(a.audit_pass_rate, None);
    assert!(a.faithfulness_rate.is_some(), "faithfulness is measured without the audit too");
}

#[test]
fn failed_runs_are_counted_apart_and_claims_a_failure_decided_are_counted() {
    let mut s = sample();
    let mut q6 = result("q6", Some(Outcome::Partial), "B", vec![claim(true, true, true, Some(true), None), claim(true, false, false, None, None)], (0, 0), vec![], vec![], 1.0);
    q6.claims[1].decided_by_failure = true;
    s.push(q6);
    let a = aggregate(&s.iter().collect::<Vec<_>>(), 8);
    assert_eq!((a.n, a.failed, a.outcomes.abstained), (5, 1, 1), "the failed run is no abstention");
    assert_eq!(a.failure_claims, 1);
}

#[test]
fn breakdowns_group_by_present_dimensions_only() {
    let s = sample();
    let b = breakdowns(&s.iter().collect::<Vec<_>>(), 8);
    let dims: Vec<Dimension> = b.iter().map(|x| x.dimension).collect();
    assert_eq!(dims, vec![Dimension::QueryType, Dimension::Format]);
    let ty = &b[0].groups;
    assert_eq!(ty.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(), vec!["A", "B"]);
    assert!(close(ty[0].1.exact_correctness, 0.5));
    assert_eq!((ty[1].1.n, ty[1].1.failed), (2, 1));
    assert!(close(ty[1].1.coverage, 0.5));
    let fmt = &b[1].groups;
    assert_eq!(fmt.iter().map(|g| (g.0.as_str(), g.1.n)).collect::<Vec<_>>(), vec![("(none)", 3), ("Text", 1)]);
}
