//! Evaluation harness (issue 8; spec §8): reproduce the paper's Tables 2–3 and Table 7 on
//! BB-FinQA-X, FinanceBench or any question/answer JSONL, for several configurations side by side.
//!
//! - `dataset` — the three row layouts, read into one `Item` (parsing never panics);
//! - `outcome` — one question scored: four-way outcome, claim facts, pages, cost (`QuestionResult`);
//! - `metrics` — pure aggregates with explicit "undefined" (`None`) instead of NaN or a crash;
//! - `report`  — Markdown / JSON / CSV, configurations side by side;
//! - `plot`    — the SVG figures, as strings;
//! - `ragas`   — RAGAS's four scores of Table 2 (judge roles, formulas, the run's embedder);
//! - `contexts` — the contexts RAGAS judges: what each row's own retrieval found (HyDE's included).
//!
//! What is deliberately absent: running the pipeline, building corpora, files and clocks. The shell
//! (`clair eval`) runs each question, measures wall time, appends each `QuestionResult` to a JSONL
//! (which makes runs resumable) and writes the files `report::files` returns.

pub mod contexts;
pub mod dataset;
pub mod metrics;
pub mod outcome;
pub mod plot;
pub mod ragas;
pub mod report;

use crate::config::Settings;

/// Named configurations: the paper's rows (Tables 2–3) plus the two variants the paper discusses.
/// Order = the paper's table order.
pub const NAMED: &[(&str, &str)] = &[
    ("full", "CLAIR-Fin, all mechanisms"),
    ("no_terminal_audit", "w/o Term. Audit: the judge's draft is published without the entailment gate"),
    ("no_arc", "w/o ARC: escalated claims go to audit after one draft (no adversarial call, no rebuttal, no veto)"),
    ("no_aea", "w/o AEA: uniform weights where the judge decides between modalities (coverage and escalation unchanged)"),
    ("no_cocv", "w/o CoCV: no custody check between affirmative and adversarial"),
    ("vanilla_rag", "Vanilla RAG: single-pass retrieve-then-answer, no ledger checks"),
    ("hyde", "HyDE RAG: dense search on a hypothetical passage, full pipeline"),
    ("hierarchical_rag", "Hierarchical RAG: single-pass like vanilla RAG; sections ranked first, then passages within the best"),
    ("graph_rag", "Graph-RAG: single-pass like vanilla RAG; question entities' graph neighbourhood plus community summaries"),
    ("fixed_rounds", "Fixed-round debate: always ρmax rebuttals (paper Limitations)"),
];

/// The nine rows of the paper's Table 2, in its order (`--config paper`); Table 3 is its first five.
pub const PAPER_TABLES: &[&str] = &["full", "no_terminal_audit", "no_arc", "no_aea", "no_cocv", "vanilla_rag", "hyde", "hierarchical_rag", "graph_rag"];

/// Apply a named configuration to `base` (its models, thresholds and weights are kept).
pub fn named(base: &Settings, name: &str) -> Option<Settings> {
    let mut s = base.clone();
    let a = &mut s.ablations;
    match name {
        "full" => {}
        "no_terminal_audit" => a.no_terminal_audit = true,
        "no_arc" => a.no_arc = true,
        "no_aea" => a.no_aea = true,
        "no_cocv" => a.no_cocv = true,
        "vanilla_rag" => a.vanilla_rag = true,
        "hyde" => a.hyde = true,
        "fixed_rounds" => a.fixed_rounds = true,
        "hierarchical_rag" => a.hierarchical_rag = true,
        "graph_rag" => a.graph_rag = true,
        _ => return None,
    }
    Some(s)
}

/// The (question, configuration) pairs still to run, question-major like the CLI, skipping what
/// `results` already scored — what makes an interrupted evaluation resumable in any shell. A failed
/// run (no outcome) is run again.
pub fn pending<'a>(items: &'a [dataset::Item], configs: &'a [String], results: &[outcome::QuestionResult]) -> Vec<(&'a dataset::Item, &'a str)> {
    let done: std::collections::BTreeSet<(&str, &str)> =
        results.iter().filter(|r| r.outcome.is_some()).map(|r| (r.config.as_str(), r.item_id.as_str())).collect();
    items
        .iter()
        .flat_map(|i| configs.iter().map(move |c| (i, c.as_str())))
        .filter(|(i, c)| !done.contains(&(*c, i.id.as_str())))
        .collect()
}

/// A short, stable fingerprint of a dataset file (FNV-1a, 64 bit, hex): the key under which a shell
/// keeps that dataset's results, so choosing the same file again resumes it.
pub fn fingerprint(text: &str) -> String {
    crate::hash::fnv64_hex(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_skips_what_was_scored_retries_failed_runs_and_keeps_question_order() {
        let parsed = dataset::parse("{\"question\": \"Q1?\", \"answer\": \"a\"}\n{\"question\": \"Q2?\", \"answer\": \"b\"}");
        let configs = vec!["full".to_string(), "no_cocv".to_string()];
        let all = pending(&parsed.items, &configs, &[]);
        assert_eq!(all.iter().map(|(i, c)| (i.question.as_str(), *c)).collect::<Vec<_>>(), vec![("Q1?", "full"), ("Q1?", "no_cocv"), ("Q2?", "full"), ("Q2?", "no_cocv")]);
        let failed = outcome::QuestionResult::failed("no_cocv", &parsed.items[0], "x".into(), 0.0);
        assert_eq!(pending(&parsed.items, &configs, std::slice::from_ref(&failed)).len(), 4, "a failed run is run again");
        let mut done = failed;
        done.outcome = Some(outcome::Outcome::Abstained);
        done.error = None;
        let left = pending(&parsed.items, &configs, &[done]);
        assert_eq!(left.len(), 3);
        assert!(!left.iter().any(|(i, c)| i.id == parsed.items[0].id && *c == "no_cocv"));
    }

    #[test]
    fn fingerprint_is_stable_and_tells_files_apart() {
        assert_eq!(fingerprint("abc"), fingerprint("abc"));
        assert_ne!(fingerprint("abc"), fingerprint("abd"));
        assert_eq!(fingerprint("").len(), 16);
    }

    #[test]
    fn every_named_configuration_changes_exactly_one_switch() {
        let base = Settings::paper();
        for (name, _) in NAMED {
            let s = named(&base, name).unwrap();
            let flags = serde_json::to_value(&s.ablations).unwrap();
            let on = flags.as_object().unwrap().values().filter(|v| v.as_bool() == Some(true)).count();
            assert_eq!(on, (*name != "full") as usize, "{name}");
        }
        assert!(named(&base, "no_such").is_none());
        assert!(PAPER_TABLES.iter().all(|p| NAMED.iter().any(|(n, _)| n == p)));
        assert_eq!(PAPER_TABLES.len(), 9, "Table 2 has nine rows");
        for single in ["vanilla_rag", "hierarchical_rag", "graph_rag"] {
            assert!(named(&base, single).unwrap().ablations.single_pass(), "{single} is single-pass");
        }
        assert!(!named(&base, "hyde").unwrap().ablations.single_pass());
    }
}
