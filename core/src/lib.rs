//! CLAIR-Fin core: every phase of the method as plain functions over values.
//!
//! This crate knows nothing of the DOM, web workers, HTTP clients, threads or clocks. Everything it
//! needs from the platform comes in as a value or through a trait (`llm::Transport`,
//! `retrieve::Search`), so the same code runs natively (CLI, tests) and in the browser (app, worker).
//! See ARCHITECTURE.md for the code map and invariants.

pub mod config;
pub mod corpus;
pub mod eval;
pub mod history;
pub mod ingest;
#[cfg(feature = "pdf")]
pub mod library;
pub mod llm;
pub mod protocol;
#[cfg(feature = "pdf")]
pub mod render;
pub mod retrieve;
// The library's persistent form in the browser (issue: corpus persists across reloads).
pub mod store;
// CLAIR-Fin method (issue 5): agents, ledger, deterministic tools, orchestration, export.
pub mod agents;
pub mod authority;
pub mod calc;
pub mod export;
pub mod hash;
pub mod ledger;
pub mod pipeline;
pub mod prompts;
pub mod risk;
// What the app and the offline report show (issue 6): graph layout, HTML report.
pub mod view;
