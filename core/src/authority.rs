//! Asymmetric Evidence Authority (paper §3.5 Table 1, §3.8; spec §1.7, §6.3).
//!
//! Coverage and the authority argmax both read the weight table w(τ, m). Weights are compared in
//! integer basis points so that the one exact-threshold case (a CAUSE_ATTRIBUTION claim with prose:
//! 0.75 ≥ 0.75) is decided exactly (spec §1.7). Ties go to the first maximum in the order the
//! modalities first appear in the claim's support set (spec §1.7, "first appearance").

use crate::config::{AuthorityWeights, ClaimType, Modality};
use serde::{Deserialize, Serialize};

/// conf_m(c): the highest retrieval score per modality, keyed in first-appearance order.
pub fn modality_confidences(support: &[(Modality, f64)]) -> Vec<(Modality, f64)> {
    let mut out: Vec<(Modality, f64)> = vec![];
    for &(m, score) in support {
        match out.iter_mut().find(|(mm, _)| *mm == m) {
            Some((_, best)) => {
                if score > *best {
                    *best = score;
                }
            }
            None => out.push((m, score)),
        }
    }
    out
}

/// A threshold in [0, 1] as basis points.
pub fn to_bp(x: f64) -> u32 {
    (x * 10_000.0).round().max(0.0) as u32
}

/// Coverage A(c) in basis points (paper §3.5): the sum of w(τ, m) over the modalities present in the
/// claim's evidence that the table lists for τ.
pub fn coverage_bp(weights: &AuthorityWeights, t: ClaimType, present: &[Modality]) -> u32 {
    let mut seen: Vec<Modality> = vec![];
    let mut sum = 0;
    for &m in present {
        if seen.contains(&m) {
            continue;
        }
        seen.push(m);
        sum += weights.bp(t, m).unwrap_or(0);
    }
    sum
}

/// Escalate to debate when A(c) is below the fast-path threshold (paper §3.5).
pub fn escalates(coverage_bp: u32, threshold: f64) -> bool {
    coverage_bp < to_bp(threshold)
}

/// The judge's authority decision and its equal-weight counterfactual (paper §3.8; spec §1.7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthorityDecision {
    /// m*: argmax of w(τ, m)·conf_m over eligible modalities (present and listed for τ).
    pub winner: Option<Modality>,
    /// s(c) = w(τ, m*)·conf_m*; 0 when no modality is eligible.
    pub s: f64,
    /// The winner had every eligible modality weighed 1/|eligible|: the most confident one.
    pub uniform_winner: Option<Modality>,
}

impl AuthorityDecision {
    /// Whether the asymmetric weights changed the outcome (two nulls count as unchanged).
    pub fn changed_outcome(&self) -> bool {
        self.winner != self.uniform_winner
    }
}

pub fn decide(weights: &AuthorityWeights, t: ClaimType, conf: &[(Modality, f64)]) -> AuthorityDecision {
    let eligible: Vec<(Modality, f64, f64)> = conf
        .iter()
        .filter_map(|&(m, c)| weights.bp(t, m).map(|bp| (m, c, bp as f64 / 10_000.0)))
        .collect();
    let mut winner: Option<(Modality, f64)> = None;
    for &(m, c, w) in &eligible {
        let v = w * c;
        if winner.is_none_or(|(_, best)| v > best) {
            winner = Some((m, v));
        }
    }
    let mut uniform: Option<(Modality, f64)> = None;
    for &(m, c, _) in &eligible {
        if uniform.is_none_or(|(_, best)| c > best) {
            uniform = Some((m, c));
        }
    }
    AuthorityDecision { winner: winner.map(|w| w.0), s: winner.map(|w| w.1).unwrap_or(0.0), uniform_winner: uniform.map(|u| u.0) }
}

/// The weight used to order evidence for the judge's draft (spec §2.9 step 6): w(τ, m) in bp, 0 for
/// constraint checks and unlisted modalities.
pub fn order_weight_bp(weights: &AuthorityWeights, t: ClaimType, m: Option<Modality>) -> u32 {
    m.and_then(|m| weights.bp(t, m)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Modality::*;

    #[test]
    fn coverage_is_exact_at_the_threshold() {
        let w = AuthorityWeights::default();
        let a = coverage_bp(&w, ClaimType::CauseAttribution, &[Text]);
        assert_eq!(a, 7500);
        assert!(!escalates(a, 0.75));
        let n = coverage_bp(&w, ClaimType::FactNumeric, &[Table, Text, Chart]);
        assert_eq!(n, 7000);
        assert!(escalates(n, 0.75));
        assert_eq!(coverage_bp(&w, ClaimType::RatioIdentity, &[ToolDerived, Table, Text]), 10_000);
        assert_eq!(coverage_bp(&w, ClaimType::FactTrend, &[Chart, Table, Chart]), 9000);
    }

    #[test]
    fn aea_docket_records_uniform_counterfactual() {
        let w = AuthorityWeights::default();
        // FACT_TREND: prose scored higher, chart is authoritative (0.45 vs 0.10).
        let conf = modality_confidences(&[(Text, 0.9), (Text, 0.7), (Chart, 0.6)]);
        assert_eq!(conf, vec![(Text, 0.9), (Chart, 0.6)]);
        let d = decide(&w, ClaimType::FactTrend, &conf);
        assert_eq!(d.winner, Some(Chart));
        assert!((d.s - 0.27).abs() < 1e-12);
        assert_eq!(d.uniform_winner, Some(Text));
        assert!(d.changed_outcome());
        // Chart is not listed for causal claims: it is ineligible in both.
        let d = decide(&w, ClaimType::CauseAttribution, &[(Chart, 0.99), (Table, 0.5)]);
        assert_eq!((d.winner, d.uniform_winner), (Some(Table), Some(Table)));
        assert!(!d.changed_outcome());
        // Nothing eligible: null winners, s = 0, unchanged.
        let d = decide(&w, ClaimType::RatioIdentity, &[(Text, 0.9)]);
        assert_eq!((d.winner, d.s, d.changed_outcome()), (None, 0.0, false));
    }

    #[test]
    fn ties_go_to_the_first_modality_in_support_order() {
        let w = AuthorityWeights::default();
        let d = decide(&w, ClaimType::FactTrend, &[(Table, 0.5), (Chart, 0.5)]);
        assert_eq!(d.winner, Some(Table));
        let d = decide(&w, ClaimType::FactTrend, &[(Chart, 0.5), (Table, 0.5)]);
        assert_eq!(d.winner, Some(Chart));
    }
}
