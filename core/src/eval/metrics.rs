//! Aggregates over scored questions: pure functions, no I/O (paper Tables 3, 7, 8; spec §8.3, §8.5).
//!
//! Every rate is an `Option<f64>`: `None` means *undefined* (an empty denominator, a constant
//! series) and is written as `null` / `–`, never as NaN or a crash. The reference crashed or
//! produced NaN in exactly these cases (spec §12: no incorrect answer, constant HRI, empty docket).
//!
//! Definitions (and where they deliberately differ from the reference's scripts, spec §11–12):
//! - **exact correctness** = correct / all scored questions (paper Table 7 row 3).
//! - **coverage** = non-abstained / all scored questions.
//! - **selective accuracy** = correct / non-abstained.
//! - **faithfulness rate** = published claims the harness's faithfulness judge finds supported by
//!   the evidence they cite / published claims it judged (the paper's definition, Table 3; the same
//!   independent check in every configuration, never the pipeline's own gate). A judge call that
//!   failed leaves its claim unmeasured, out of both counts.
//! - **audit pass rate** = claims passing the pipeline's terminal audit / all claims; undefined for
//!   configurations without the audit (w/o terminal audit, vanilla RAG). The reference's number —
//!   audit-passed claims / all claims of non-abstained questions (spec §8.5) — is kept as
//!   `claim_pass_rate`, named as what it is.
//! - **failed runs** = runs in which model calls failed and decided every claim (or the run erred):
//!   no outcome, counted apart, never as abstained; claims of scored runs that a failure decided are
//!   counted in `failure_claims`.
//! - **debate utilization** = escalated claims / all claims (abstained questions included, §8.5).
//!   Undefined for vanilla RAG, which has no debate, and for w/o ARC, which routes escalated claims
//!   to audit without one (paper Table 3: –).
//! - **AEA impact** = Σ docket decisions changed by the asymmetric weights / Σ decisions.
//!   Undefined when there were no decisions or AEA was ablated.
//! - **HRI calibration**, reported three ways so the sign is never ambiguous (spec §11 item 16):
//!   Pearson(max HRI, correct), Pearson(max HRI, incorrect) and the AUROC of max HRI for detecting
//!   incorrect answers, over non-abstained questions that have an HRI. A well-calibrated HRI gives a
//!   negative first, a positive second and an AUROC above 0.5. Partial answers are neither correct
//!   nor incorrect here.
//! - **Hit@k / MRR / Recall@k** over questions with gold pages only (the reference scored a question
//!   without gold pages as a miss); pages of the top-k documents retrieved for the raw question.

use crate::eval::outcome::{Outcome, QuestionResult};
use crate::export::RunMode;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `num / den`, undefined when `den` is 0.
pub fn ratio(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

/// Pearson correlation; undefined for fewer than 2 pairs or when either series is constant.
pub fn pearson(xs: &[f64], ys: &[f64]) -> Option<f64> {
    let n = xs.len().min(ys.len());
    if n < 2 {
        return None;
    }
    let (xs, ys) = (&xs[..n], &ys[..n]);
    if xs.iter().all(|x| *x == xs[0]) || ys.iter().all(|y| *y == ys[0]) {
        return None;
    }
    let mx = xs.iter().sum::<f64>() / n as f64;
    let my = ys.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx <= 1e-24 || syy <= 1e-24 {
        return None;
    }
    let r = sxy / (sxx.sqrt() * syy.sqrt());
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// Area under the ROC curve of `scores` for detecting `positive` items: the probability that a
/// random positive scores above a random negative, ties counting one half. Undefined without at
/// least one positive and one negative.
pub fn auroc(scores: &[f64], positive: &[bool]) -> Option<f64> {
    let pos: Vec<f64> = scores.iter().zip(positive).filter(|(_, p)| **p).map(|(s, _)| *s).collect();
    let neg: Vec<f64> = scores.iter().zip(positive).filter(|(_, p)| !**p).map(|(s, _)| *s).collect();
    if pos.is_empty() || neg.is_empty() {
        return None;
    }
    let mut wins = 0.0;
    for p in &pos {
        for n in &neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    Some(wins / (pos.len() * neg.len()) as f64)
}

/// Retrieval of one question against its gold pages: (hit@k, reciprocal rank, recall@k).
/// `retrieved` is best first and may repeat a page (several documents from one page).
pub fn page_retrieval(retrieved: &[u32], gold: &[u32], k: usize) -> Option<(bool, f64, f64)> {
    if gold.is_empty() {
        return None;
    }
    let top = &retrieved[..retrieved.len().min(k)];
    let hit = top.iter().any(|p| gold.contains(p));
    let rr = top.iter().position(|p| gold.contains(p)).map(|i| 1.0 / (i + 1) as f64).unwrap_or(0.0);
    let found = gold.iter().filter(|g| top.contains(g)).count();
    Some((hit, rr, found as f64 / gold.len() as f64))
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OutcomeCounts {
    pub correct: usize,
    pub partial: usize,
    pub incorrect: usize,
    pub abstained: usize,
}

impl OutcomeCounts {
    pub fn get(&self, o: Outcome) -> usize {
        match o {
            Outcome::Correct => self.correct,
            Outcome::Partial => self.partial,
            Outcome::Incorrect => self.incorrect,
            Outcome::Abstained => self.abstained,
        }
    }
    pub fn total(&self) -> usize {
        self.correct + self.partial + self.incorrect + self.abstained
    }
}

/// One bin of the HRI reliability diagram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HriBin {
    pub lo: f64,
    pub hi: f64,
    pub n: usize,
    pub mean_hri: f64,
    pub incorrect_rate: f64,
    pub correct_rate: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HriCalibration {
    /// Non-abstained questions with a max HRI.
    pub n: usize,
    pub mean_max_hri: Option<f64>,
    /// Pearson(max HRI, 1[correct]); calibrated ⇒ negative (the paper's sign, Table 7 row 5).
    pub pearson_with_correct: Option<f64>,
    /// Pearson(max HRI, 1[incorrect]); calibrated ⇒ positive (the reference script's sign).
    pub pearson_with_incorrect: Option<f64>,
    /// AUROC of max HRI for detecting incorrect answers; calibrated ⇒ above 0.5.
    pub auroc_incorrect: Option<f64>,
    /// Ten equal-width bins over [0, 1]; empty bins omitted; each question in exactly one bin.
    pub bins: Vec<HriBin>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Retrieval {
    pub k: usize,
    /// Questions with gold pages (the denominator).
    pub n: usize,
    pub hit_at_k: Option<f64>,
    pub mrr: Option<f64>,
    pub recall_at_k: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub run_calls: u64,
    pub run_failed_calls: u64,
    pub run_input_tokens: u64,
    pub run_output_tokens: u64,
    pub run_cost_usd: f64,
    pub eval_calls: u64,
    pub eval_cost_usd: f64,
    /// Models without a price (their cost is unknown, not 0).
    pub unpriced_models: Vec<String>,
    pub latency_total_ms: f64,
    pub latency_mean_ms: Option<f64>,
    pub latency_p50_ms: Option<f64>,
    pub latency_p95_ms: Option<f64>,
    pub latency_max_ms: Option<f64>,
}

/// Everything reported for one set of questions under one configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Aggregate {
    /// Scored questions (failed runs excluded).
    pub n: usize,
    /// Runs that failed (no outcome).
    pub failed: usize,
    pub outcomes: OutcomeCounts,
    pub exact_correctness: Option<f64>,
    pub coverage: Option<f64>,
    pub selective_accuracy: Option<f64>,
    pub claims: usize,
    pub published_claims: usize,
    /// Published claims the faithfulness judge answered for.
    pub measured_claims: usize,
    /// Of those, the claims it found supported by their cited evidence.
    pub faithful_claims: usize,
    pub faithfulness_rate: Option<f64>,
    /// Claims that passed the pipeline's own terminal audit.
    pub audit_passed_claims: usize,
    /// audit_passed_claims / claims; undefined without a terminal audit.
    pub audit_pass_rate: Option<f64>,
    /// Claims of scored runs left unpublished by a model failure, not by the evidence.
    pub failure_claims: usize,
    /// Reference definition (spec §8.5): audit-passed / all claims of non-abstained questions.
    pub claim_pass_rate: Option<f64>,
    pub debated_claims: usize,
    pub debate_utilization: Option<f64>,
    pub docket_decisions: u64,
    pub docket_changed: u64,
    pub aea_impact: Option<f64>,
    pub hri: HriCalibration,
    pub retrieval: Retrieval,
    pub cost: Cost,
}

fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    // Nearest rank.
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// Aggregate scored questions. `k` is the retrieval cutoff (paper: 8).
pub fn aggregate(results: &[&QuestionResult], k: usize) -> Aggregate {
    let mut a = Aggregate::default();
    let scored: Vec<&QuestionResult> = results.iter().copied().filter(|r| r.outcome.is_some()).collect();
    a.n = scored.len();
    a.failed = results.len() - scored.len();
    for r in &scored {
        match r.outcome {
            Some(Outcome::Correct) => a.outcomes.correct += 1,
            Some(Outcome::Partial) => a.outcomes.partial += 1,
            Some(Outcome::Incorrect) => a.outcomes.incorrect += 1,
            Some(Outcome::Abstained) => a.outcomes.abstained += 1,
            None => {}
        }
    }
    let answered = a.n - a.outcomes.abstained;
    a.exact_correctness = ratio(a.outcomes.correct, a.n);
    a.coverage = ratio(answered, a.n);
    a.selective_accuracy = ratio(a.outcomes.correct, answered);

    // Claims.
    let (mut passed_in_answered, mut claims_in_answered) = (0, 0);
    for r in &scored {
        a.claims += r.claims.len();
        a.debated_claims += r.claims.iter().filter(|c| c.escalated).count();
        a.audit_passed_claims += r.claims.iter().filter(|c| c.audit_passed).count();
        a.failure_claims += r.claims.iter().filter(|c| c.decided_by_failure).count();
        for c in r.claims.iter().filter(|c| c.published) {
            a.published_claims += 1;
            if let Some(e) = c.faithful {
                a.measured_claims += 1;
                a.faithful_claims += e as usize;
            }
        }
        if r.outcome != Some(Outcome::Abstained) {
            claims_in_answered += r.claims.len();
            passed_in_answered += r.claims.iter().filter(|c| c.audit_passed).count();
        }
        a.docket_decisions += r.docket_decisions as u64;
        a.docket_changed += r.docket_changed as u64;
    }
    a.faithfulness_rate = ratio(a.faithful_claims, a.measured_claims);
    a.claim_pass_rate = ratio(passed_in_answered, claims_in_answered);
    let all = |f: &dyn Fn(&QuestionResult) -> bool| !scored.is_empty() && scored.iter().all(|r| f(r));
    let unaudited = all(&|r| r.mode == RunMode::VanillaRag || r.audit_ablated);
    a.audit_pass_rate = if unaudited { None } else { ratio(a.audit_passed_claims, a.claims) };
    let no_debate = all(&|r| r.mode == RunMode::VanillaRag || r.arc_ablated);
    a.debate_utilization = if no_debate { None } else { ratio(a.debated_claims, a.claims) };
    let aea_off = !scored.is_empty() && scored.iter().all(|r| r.aea_ablated || r.mode == RunMode::VanillaRag);
    a.aea_impact = if aea_off { None } else { ratio(a.docket_changed as usize, a.docket_decisions as usize) };

    a.hri = calibration(&scored);
    a.retrieval = retrieval(&scored, k);
    a.cost = cost(results);
    a
}

fn calibration(scored: &[&QuestionResult]) -> HriCalibration {
    let pts: Vec<(f64, Outcome)> = scored
        .iter()
        .filter(|r| r.outcome != Some(Outcome::Abstained))
        .filter_map(|r| Some((r.max_hri()?, r.outcome?)))
        .collect();
    let h: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let correct: Vec<f64> = pts.iter().map(|p| (p.1 == Outcome::Correct) as u8 as f64).collect();
    let incorrect: Vec<bool> = pts.iter().map(|p| p.1 == Outcome::Incorrect).collect();
    let incorrect_f: Vec<f64> = incorrect.iter().map(|b| *b as u8 as f64).collect();
    let mut bins = vec![];
    for b in 0..10 {
        let (lo, hi) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
        let inside: Vec<&(f64, Outcome)> = pts.iter().filter(|(x, _)| ((*x).clamp(0.0, 1.0) * 10.0).floor().min(9.0) as usize == b).collect();
        if inside.is_empty() {
            continue;
        }
        let n = inside.len();
        bins.push(HriBin {
            lo,
            hi,
            n,
            mean_hri: inside.iter().map(|p| p.0).sum::<f64>() / n as f64,
            incorrect_rate: inside.iter().filter(|p| p.1 == Outcome::Incorrect).count() as f64 / n as f64,
            correct_rate: inside.iter().filter(|p| p.1 == Outcome::Correct).count() as f64 / n as f64,
        });
    }
    HriCalibration {
        n: pts.len(),
        mean_max_hri: (!h.is_empty()).then(|| h.iter().sum::<f64>() / h.len() as f64),
        pearson_with_correct: pearson(&h, &correct),
        pearson_with_incorrect: pearson(&h, &incorrect_f),
        auroc_incorrect: auroc(&h, &incorrect),
        bins,
    }
}

fn retrieval(scored: &[&QuestionResult], k: usize) -> Retrieval {
    let per: Vec<(bool, f64, f64)> = scored.iter().filter_map(|r| page_retrieval(&r.retrieved_pages, &r.gold_pages, k)).collect();
    let n = per.len();
    let mean = |f: &dyn Fn(&(bool, f64, f64)) -> f64| (n > 0).then(|| per.iter().map(f).sum::<f64>() / n as f64);
    Retrieval { k, n, hit_at_k: mean(&|p| p.0 as u8 as f64), mrr: mean(&|p| p.1), recall_at_k: mean(&|p| p.2) }
}

fn cost(results: &[&QuestionResult]) -> Cost {
    let mut c = Cost::default();
    let mut lat: Vec<f64> = vec![];
    for r in results {
        c.run_calls += r.run_totals.calls as u64;
        c.run_failed_calls += r.run_totals.failed_calls as u64;
        c.run_input_tokens += r.run_totals.input_tokens;
        c.run_output_tokens += r.run_totals.output_tokens;
        c.run_cost_usd += r.run_totals.cost_usd;
        c.eval_calls += r.eval_totals.calls as u64;
        c.eval_cost_usd += r.eval_totals.cost_usd;
        for m in r.run_totals.unpriced_models.iter().chain(&r.eval_totals.unpriced_models) {
            if !c.unpriced_models.contains(m) {
                c.unpriced_models.push(m.clone());
            }
        }
        lat.push(r.latency_ms);
    }
    c.run_cost_usd = (c.run_cost_usd * 1e6).round() / 1e6;
    c.eval_cost_usd = (c.eval_cost_usd * 1e6).round() / 1e6;
    lat.sort_by(|a, b| a.total_cmp(b));
    c.latency_total_ms = lat.iter().sum();
    c.latency_mean_ms = (!lat.is_empty()).then(|| c.latency_total_ms / lat.len() as f64);
    c.latency_p50_ms = percentile(&lat, 0.5);
    c.latency_p95_ms = percentile(&lat, 0.95);
    c.latency_max_ms = lat.last().copied();
    c
}

/// A stratification dimension of the dataset (paper §6.5, Tables 10–11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    QueryType,
    Format,
    Difficulty,
}

impl Dimension {
    pub const ALL: [Dimension; 3] = [Dimension::QueryType, Dimension::Format, Dimension::Difficulty];
    pub fn title(self) -> &'static str {
        match self {
            Dimension::QueryType => "query type",
            Dimension::Format => "presentation format",
            Dimension::Difficulty => "difficulty",
        }
    }
    pub fn slug(self) -> &'static str {
        match self {
            Dimension::QueryType => "type",
            Dimension::Format => "format",
            Dimension::Difficulty => "difficulty",
        }
    }
    pub fn of(self, r: &QuestionResult) -> Option<&str> {
        match self {
            Dimension::QueryType => r.query_type.as_deref(),
            Dimension::Format => r.format.as_deref(),
            Dimension::Difficulty => r.difficulty.as_deref(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    pub dimension: Dimension,
    /// Group value → aggregate, sorted by value; questions without a value are `(none)`.
    pub groups: Vec<(String, Aggregate)>,
}

/// Breakdowns by every dimension that at least one question has.
pub fn breakdowns(results: &[&QuestionResult], k: usize) -> Vec<Breakdown> {
    let mut out = vec![];
    for d in Dimension::ALL {
        if results.iter().all(|r| d.of(r).is_none()) {
            continue;
        }
        let mut groups: BTreeMap<String, Vec<&QuestionResult>> = BTreeMap::new();
        for r in results.iter().copied() {
            groups.entry(d.of(r).unwrap_or("(none)").to_string()).or_default().push(r);
        }
        out.push(Breakdown { dimension: d, groups: groups.into_iter().map(|(g, rs)| (g, aggregate(&rs, k))).collect() });
    }
    out
}

#[cfg(test)]
mod tests;
