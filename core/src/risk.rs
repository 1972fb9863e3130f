//! Hallucination Risk Index (paper §3.8; spec §1.7, §6.4).
//!
//! HRI = w₁(1 − γ) + w₂(1 − min(s, 1)) + w₃·ρ_repair/ρ_repair^max + w₄·min(n_high / N, 1), clipped
//! to [0, 1] and rounded to 3 decimals; paper weights 0.40 / 0.25 / 0.20 / 0.15, N = 3. Only claims
//! that passed the audit get one. Each weighted term is kept so the UI can show what drove the risk.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hri {
    /// The index, rounded to 3 decimals.
    pub value: f64,
    /// w₁(1 − γ): how unsure the terminal entailment call was.
    pub entailment_term: f64,
    /// w₂(1 − min(s, 1)): how weak the authoritative evidence was.
    pub authority_term: f64,
    /// w₃·ρ_repair/ρ_repair^max: whether custody needed a repair.
    pub repair_term: f64,
    /// w₄·min(n_high/N, 1): high-severity attacks still standing at the audit.
    pub attack_term: f64,
    /// Inputs, for the record.
    pub gamma: f64,
    pub s: f64,
    pub repairs: u32,
    pub n_high: u32,
}

/// `max_repairs` is the configured repair budget; ρ_repair^max = max(it, 1) (spec §1.7).
pub fn hri(weights: [f64; 4], saturation: u32, gamma: f64, s: f64, repairs: u32, max_repairs: u32, n_high: u32) -> Hri {
    let g = gamma.clamp(0.0, 1.0);
    let entailment_term = weights[0] * (1.0 - g);
    let authority_term = weights[1] * (1.0 - s.clamp(0.0, 1.0));
    let repair_term = weights[2] * (repairs as f64 / max_repairs.max(1) as f64).min(1.0);
    let attack_term = weights[3] * (n_high as f64 / saturation.max(1) as f64).min(1.0);
    let raw = entailment_term + authority_term + repair_term + attack_term;
    let value = (raw.clamp(0.0, 1.0) * 1000.0).round() / 1000.0;
    Hri { value, entailment_term, authority_term, repair_term, attack_term, gamma, s, repairs, n_high }
}

#[cfg(test)]
mod tests {
    use super::*;
    const PAPER: [f64; 4] = [0.40, 0.25, 0.20, 0.15];

    #[test]
    fn hri_matches_paper_weights() {
        // γ = 1.0, s = 0.55·0.9 (a table cell at 0.9): 0.25·(1 − 0.495) = 0.12625 → 0.126.
        let h = hri(PAPER, 3, 1.0, 0.495, 0, 1, 0);
        assert_eq!(h.value, 0.126);
        // γ = 0.9, s = 0.44, one repair, no high attacks: 0.04 + 0.14 + 0.20 = 0.38.
        let h = hri(PAPER, 3, 0.9, 0.44, 1, 1, 0);
        assert_eq!(h.value, 0.38);
        assert!((h.entailment_term - 0.04).abs() < 1e-12 && (h.authority_term - 0.14).abs() < 1e-12);
        // One standing high attack adds 0.15/3; five saturate at 0.15.
        assert_eq!(hri(PAPER, 3, 1.0, 1.0, 0, 1, 1).value, 0.05);
        assert_eq!(hri(PAPER, 3, 1.0, 1.0, 0, 1, 5).value, 0.15);
        // Worst case is exactly 1; s above 1 is clipped.
        assert_eq!(hri(PAPER, 3, 0.0, 0.0, 1, 1, 3).value, 1.0);
        assert_eq!(hri(PAPER, 3, 1.0, 1.7, 0, 1, 0).value, 0.0);
        // A zero repair budget still divides by 1 (spec §1.7).
        assert_eq!(hri(PAPER, 3, 1.0, 1.0, 1, 0, 0).value, 0.2);
    }
}
