//! The Authority Docket (paper §3.8; spec §1.4, §2.10): every AEA determination with its
//! equal-weight counterfactual, so the effect of the asymmetric prior can be audited.

use crate::config::{ClaimType, Modality};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocketEntry {
    pub claim_id: String,
    pub claim_type: ClaimType,
    /// conf_m(c) in first-appearance order.
    pub modality_confidences: Vec<(Modality, f64)>,
    pub asymmetric_winner: Option<Modality>,
    /// s(c) of the asymmetric winner.
    pub s: f64,
    pub uniform_winner: Option<Modality>,
    pub asymmetry_changed_outcome: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeCount {
    pub decisions: u32,
    pub changed_outcome: u32,
}

/// Per-run summary (spec §2.10). Unlike the reference, `modalities_favored_by_asymmetry` is always
/// present (empty when there were no decisions), so readers never crash on an empty docket (§12).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocketSummary {
    pub decisions: u32,
    pub changed_outcome: u32,
    pub changed_outcome_rate: f64,
    pub by_claim_type: BTreeMap<ClaimType, TypeCount>,
    pub modalities_favored_by_asymmetry: BTreeMap<Modality, u32>,
}

pub fn summarize(entries: &[DocketEntry]) -> DocketSummary {
    let mut s = DocketSummary::default();
    for e in entries {
        s.decisions += 1;
        let t = s.by_claim_type.entry(e.claim_type).or_default();
        t.decisions += 1;
        if e.asymmetry_changed_outcome {
            s.changed_outcome += 1;
            t.changed_outcome += 1;
            if let Some(m) = e.asymmetric_winner {
                *s.modalities_favored_by_asymmetry.entry(m).or_default() += 1;
            }
        }
    }
    if s.decisions > 0 {
        s.changed_outcome_rate = (s.changed_outcome as f64 / s.decisions as f64 * 1000.0).round() / 1000.0;
    }
    s
}
