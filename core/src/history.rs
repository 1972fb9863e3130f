//! Past runs (issue "app" item 7: "Past runs are listed and reopenable"): what the browser keeps of
//! every finished run and how the list is read back. Pure; the worker only moves the bytes in and out
//! of IndexedDB.
//!
//! Two entries per run: a small summary (`s:<stamp>`) that the list reads, and the lossless run
//! export (`r:<stamp>`) that is read only when the run is reopened — so listing a hundred runs never
//! parses a hundred ledgers. `<stamp>` is the save time, zero-padded, then the run id: keys sort
//! oldest first, and the same question asked twice is two runs. The newest `keep` runs are kept.

use crate::export::RunExport;
use serde::{Deserialize, Serialize};

/// How many runs the browser keeps by default (the oldest beyond this are dropped on save).
pub const KEEP: usize = 50;

/// One line of the past-runs list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// `<stamp>`: the suffix of both of the run's entries.
    pub key: String,
    pub run_id: String,
    pub question: String,
    /// Milliseconds since the Unix epoch.
    pub saved_at_ms: f64,
    /// `answered`, `partial`, `abstained` or `failed`.
    pub outcome: String,
    pub claims: usize,
    pub published: usize,
    pub cost_usd: f64,
    pub calls: u32,
    /// The documents the run cited.
    pub sources: Vec<String>,
}

fn stamp(saved_at_ms: f64, run_id: &str) -> String {
    format!("{:015}-{run_id}", saved_at_ms.max(0.0) as u64)
}

pub fn summary_key(stamp: &str) -> String {
    format!("s:{stamp}")
}

pub fn run_key(stamp: &str) -> String {
    format!("r:{stamp}")
}

/// The summary of `run`, saved at `saved_at_ms`.
pub fn summarize(run: &RunExport, saved_at_ms: f64) -> RunSummary {
    let mut sources: Vec<String> = run.claims.iter().flat_map(|c| c.citations.iter().map(|x| x.source.clone())).collect();
    sources.sort();
    sources.dedup();
    RunSummary {
        key: stamp(saved_at_ms, &run.run_id),
        run_id: run.run_id.clone(),
        question: run.question.clone(),
        saved_at_ms,
        outcome: run.outcome.as_str().into(),
        claims: run.claims.len(),
        published: run.claims.iter().filter(|c| c.published).count(),
        cost_usd: run.totals.cost_usd,
        calls: run.totals.calls,
        sources,
    }
}

/// The two entries to write for `run`: (key, bytes) of its summary and of its export.
pub fn entries(run: &RunExport, saved_at_ms: f64) -> (RunSummary, Vec<(String, Vec<u8>)>) {
    let s = summarize(run, saved_at_ms);
    let summary = serde_json::to_vec(&s).unwrap_or_default();
    let out = vec![(summary_key(&s.key), summary), (run_key(&s.key), run.to_json().into_bytes())];
    (s, out)
}

/// The list, newest first, from every stored entry (run exports are skipped unread). Entries that
/// do not parse are reported by key so the caller can delete them.
pub fn list(entries: &[(String, Vec<u8>)]) -> (Vec<RunSummary>, Vec<String>) {
    let mut runs = vec![];
    let mut damaged = vec![];
    for (k, bytes) in entries {
        if !k.starts_with("s:") {
            continue;
        }
        match serde_json::from_slice::<RunSummary>(bytes) {
            Ok(s) => runs.push(s),
            Err(_) => damaged.push(k.clone()),
        }
    }
    runs.sort_by(|a, b| b.key.cmp(&a.key));
    (runs, damaged)
}

/// Keys to delete so that only the newest `keep` runs remain (`runs` newest first, as `list` gives).
pub fn evict(runs: &[RunSummary], keep: usize) -> Vec<String> {
    runs.iter().skip(keep).flat_map(|r| [summary_key(&r.key), run_key(&r.key)]).collect()
}

/// Read a stored run export back (the same check as importing a file).
pub fn open(bytes: &[u8]) -> Result<RunExport, String> {
    RunExport::from_json(std::str::from_utf8(bytes).map_err(|_| "the stored run is not text".to_string())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::fixture;

    #[test]
    fn a_saved_run_lists_newest_first_and_reopens_identically() {
        let a = fixture::run(2, 3);
        let mut b = fixture::run(3, 2);
        b.question = "What changed in FY2024?".into();
        let (sa, ea) = entries(&a, 1_000.0);
        let (sb, eb) = entries(&b, 2_000.0);
        let all: Vec<(String, Vec<u8>)> = ea.into_iter().chain(eb).collect();
        let (runs, damaged) = list(&all);
        assert!(damaged.is_empty());
        assert_eq!(runs, vec![sb.clone(), sa.clone()], "newest first");
        assert_eq!(runs[0].question, "What changed in FY2024?");
        assert_eq!(runs[1].claims, 2);
        let stored = &all.iter().find(|(k, _)| *k == run_key(&sa.key)).unwrap().1;
        assert_eq!(open(stored).unwrap(), a, "the export reopens losslessly");
    }

    #[test]
    fn the_same_question_twice_is_two_runs() {
        let a = fixture::run(1, 2);
        let (s1, _) = entries(&a, 5.0);
        let (s2, _) = entries(&a, 6.0);
        assert_ne!(s1.key, s2.key);
    }

    #[test]
    fn only_the_newest_runs_are_kept_and_damage_is_reported() {
        let a = fixture::run(1, 2);
        let mut all = vec![];
        for t in 0..5 {
            all.extend(entries(&a, t as f64 * 1000.0).1);
        }
        all.push(("s:999-broken".into(), b"{not json".to_vec()));
        let (runs, damaged) = list(&all);
        assert_eq!(damaged, vec!["s:999-broken".to_string()]);
        let gone = evict(&runs, 3);
        assert_eq!(gone.len(), 4, "two runs × two entries");
        assert!(gone.iter().all(|k| k.contains(&runs[3].key) || k.contains(&runs[4].key)));
        assert!(open(b"{}").unwrap_err().contains("not a CLAIR-Fin run export"));
    }
}
