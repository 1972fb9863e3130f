//! The Financial Claim Ledger (paper §3.3, §3.5; spec §1.4): a typed directed multigraph of claims
//! and the evidence that supports or contradicts them, plus the custody log (§3.7) and the Authority
//! Docket (§3.8). It is the one shared artifact of a run and serializes at every step
//! (`LedgerDump`), so any run can be exported, re-imported and diffed.
//!
//! Node ids are deterministic — `claim-<n>` and `c<n>-<kind>-<k>` with per-claim counters — so two
//! runs over the same model responses produce identical ledgers even when claims are processed
//! concurrently (each claim builds its own fragment; fragments are merged in claim order).

pub mod custody;
pub mod docket;
pub mod graph;

pub use custody::{CustodyEvent, CustodyVerdict};
pub use docket::{DocketEntry, DocketSummary};
pub use graph::{EdgeDump, Ledger, LedgerDump, LedgerNote, Node, NodeKind, Relation};
