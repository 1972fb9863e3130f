//! Chain-of-Custody log (paper §3.7; spec §1.4, §2.7): one event per custody check.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CustodyVerdict {
    /// The brief was entailed by the evidence at or above the bar.
    Valid,
    /// It was not, and the one repair was spent: the affirmative revises.
    Repaired,
    /// It was not, and no repair was left: the claim ends InsufficientEvidence.
    Broken,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustodyEvent {
    pub claim_id: String,
    /// Which brief was checked: `initial`, `repair` or `rebuttal <n>`.
    pub stage: String,
    pub verdict: CustodyVerdict,
    /// γ of the entailment call (0 when no call was made).
    pub confidence: f64,
    /// The entailment rationale, "empty draft", or the reason the call failed.
    pub detail: String,
}
