//! `clair ask` end to end against the mock server over a real 8-K: claims really overlap in time,
//! and every fault the mock can inject ends fail-closed (issue 5: runtime and fail-closed bars).
//!
//! The question splits into three claims (the mock's planner splits on "and"); the corpus is the
//! Johnson & Johnson 8-K, ingested once per test binary with the offline embedder.

mod common;

use common::{clair, start_mock, Mock, DOC, PDFS};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

const QUESTION: &str = "What was the gain from the separation of the Consumer Health business and what were the cash proceeds JnJ realised and which segment is treated as a discontinued operation?";

fn corpus() -> &'static PathBuf {
    static CORPUS: OnceLock<PathBuf> = OnceLock::new();
    CORPUS.get_or_init(|| {
        // Shared by every test of this file and never dropped (a static), so it lives under
        // target/ (cargo's folder for integration tests' files), not in the system's temp folder.
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ask-e2e");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("jj.corpus");
        let o = clair(&["ingest".into(), format!("{PDFS}/{DOC}.pdf"), "-o".into(), out.display().to_string()]);
        assert!(o.status.success(), "ingest failed: {}", String::from_utf8_lossy(&o.stderr));
        out
    })
}

/// Settings that keep failing runs short: one retry, 10 ms backoff, 400 ms request timeout.
fn settings_file(name: &str, toml: &str) -> PathBuf {
    let p = corpus().with_file_name(format!("{name}.toml"));
    std::fs::write(&p, toml).unwrap();
    p
}

struct Asked {
    run: Value,
    stderr: String,
    status: Option<i32>,
}

fn ask(mock: &Mock, config: Option<&PathBuf>) -> Asked {
    ask_with(mock, config, &[])
}

fn ask_with(mock: &Mock, config: Option<&PathBuf>, extra: &[&str]) -> Asked {
    let mut args: Vec<String> = vec!["ask".into(), corpus().display().to_string(), QUESTION.into(), "--json".into()];
    args.extend(["--base-url".into(), format!("{}/v1", mock.url), "--model".into(), "gpt-4o-mini".into()]);
    if let Some(c) = config {
        args.extend(["--config".into(), c.display().to_string()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let o = clair(&args);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    // 0: answered, partial or abstained; 3: a failed run (its export is still printed).
    assert!(matches!(o.status.code(), Some(0) | Some(3)), "clair ask failed:\n{stderr}");
    let run = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not a run export ({e}):\n{}", String::from_utf8_lossy(&o.stdout)));
    Asked { run, stderr, status: o.status.code() }
}

/// (wall seconds, summed call seconds) from the CLI's closing line.
fn timing(stderr: &str) -> (f64, f64) {
    let line = stderr.lines().find(|l| l.starts_with("wall ")).unwrap_or_else(|| panic!("no timing line:\n{stderr}"));
    let nums: Vec<f64> = line.split_whitespace().filter_map(|w| w.parse::<f64>().ok()).collect();
    (nums[0], nums[1])
}

fn published(run: &Value) -> usize {
    run["claims"].as_array().unwrap().iter().filter(|c| c["published"] == true).count()
}

#[test]
fn claims_run_concurrently_so_wall_time_approaches_the_critical_path() {
    let mock = start_mock(&[]);
    // Every call answers after 200 ms.
    mock.queue_faults(json!({"mode": "slow", "delay_ms": 200}));
    // The mock serves requests in parallel; on localhost the automatic request limit would be 1.
    let one = settings_file("concurrency-1", "[models]\nmax_concurrent_requests = 8\n[pipeline]\nclaim_concurrency = 1\n");
    let four = settings_file("concurrency-4", "[models]\nmax_concurrent_requests = 8\n[pipeline]\nclaim_concurrency = 4\n");
    let seq = ask(&mock, Some(&one));
    let par = ask_with(&mock, Some(&four), &["--calls"]);
    assert_eq!(seq.run["claims"].as_array().unwrap().len(), 3, "the question is planned as three claims");
    assert_eq!(seq.run["answer"], par.run["answer"], "concurrency changes the timing, never the answer");
    let (wall1, sum1) = timing(&seq.stderr);
    let (wall4, sum4) = timing(&par.stderr);
    let calls = par.run["calls"].as_array().unwrap().len();
    eprintln!("200 ms per call, {calls} calls: concurrency 1 → wall {wall1:.2} s (calls sum {sum1:.2} s); concurrency 4 → wall {wall4:.2} s (calls sum {sum4:.2} s)");
    // Critical path: planner, one claim's chain, synthesizer — far below the sum of the calls.
    assert!(wall4 < 0.6 * sum4, "claims did not overlap: wall {wall4} s vs {sum4} s of calls");
    assert!(wall4 < 0.7 * wall1, "concurrency 4 ({wall4} s) is not faster than 1 ({wall1} s)");
    // `--calls` shows the overlap: at some moment calls of three different claims are in flight.
    let mut in_flight: Vec<String> = vec![];
    let mut most_claims = 0;
    for l in par.stderr.lines().map(str::trim) {
        if let Some(rest) = l.strip_prefix("→ ") {
            in_flight.push(rest.split(' ').next().unwrap().to_string());
        } else if let Some(rest) = l.strip_prefix("← ") {
            let claim = rest.split(' ').next().unwrap();
            if let Some(k) = in_flight.iter().position(|c| c == claim) {
                in_flight.remove(k);
            }
        }
        let mut claims: Vec<&String> = in_flight.iter().filter(|c| c.starts_with("claim-")).collect();
        claims.dedup();
        claims.sort();
        claims.dedup();
        most_claims = most_claims.max(claims.len());
    }
    assert_eq!(most_claims, 3, "calls of all three claims overlap:\n{}", par.stderr);
}

#[test]
fn every_fault_mode_ends_fail_closed_as_a_failed_run_with_the_failure_on_record() {
    let fast = settings_file("fail-fast", "[pipeline]\nmax_retries = 1\nretry_base_ms = 10\nrequest_timeout_ms = 400\n");
    let faults = [
        json!({"mode": "500"}),
        json!({"mode": "malformed"}),
        json!({"mode": "truncate"}),
        json!({"mode": "schema"}),
        json!({"mode": "timeout"}),
        // One role failing is enough to stop publication where that role gates it.
        json!({"mode": "500", "role": "entailment"}),
        json!({"mode": "schema", "role": "adversarial"}),
        json!({"mode": "malformed", "role": "affirmative"}),
        json!({"mode": "timeout", "role": "judge_draft"}),
    ];
    let mock = start_mock(&[]);
    for fault in faults {
        mock.reset();
        mock.queue_faults(fault.clone());
        let Asked { run, status, .. } = ask(&mock, Some(&fast));
        let answer = &run["answer"];
        assert_eq!(published(&run), 0, "{fault}: a claim was published");
        // The model failed, not the documents: a failed run, never an abstention (issue 38 item 5).
        assert_eq!((run["outcome"].as_str(), answer["abstained"].as_bool(), status), (Some("failed"), Some(false), Some(3)), "{fault}: {answer}");
        let message = run["failure"]["message"].as_str().unwrap_or_else(|| panic!("{fault}: no failure message: {}", run["failure"]));
        assert!(message.starts_with("the model endpoint failed: "), "{fault}: {message}");
        let text = answer["text"].as_str().unwrap();
        assert_eq!(text.matches(message).count(), 1, "{fault}: the answer names the failure once: {text}");
        // No figure from a document: the only digits are the failure's counts and status code.
        let rest = text.replace(message, "");
        assert!(!rest.chars().any(|c| c.is_ascii_digit()), "{fault}: a failed answer must carry no figures: {text}");
        let failed: Vec<&Value> = run["calls"].as_array().unwrap().iter().filter(|c| c.get("failure").is_some()).collect();
        assert!(!failed.is_empty() && run["totals"]["failed_calls"].as_u64() == Some(failed.len() as u64), "{fault}: failures not recorded");
        for c in &failed {
            assert_eq!(c["attempts"], 2, "{fault}: one retry before the conservative default: {c}");
            if let Some(role) = fault.get("role") {
                assert_eq!(&c["role"], role, "{fault}: only the faulty role fails");
            }
        }
        if fault["mode"] == "timeout" {
            let why = failed[0]["failure"].as_str().unwrap();
            assert!(why.contains("400 ms"), "{fault}: the timeout names the setting's value: {why}");
        }
    }
}

#[test]
fn a_rate_limit_is_retried_and_leaves_the_answer_unchanged() {
    let mock = start_mock(&[]);
    let baseline = ask(&mock, None).run;
    assert!(published(&baseline) > 0, "the baseline answers: {}", baseline["answer"]);
    mock.queue_faults(json!({"mode": "429", "role": "planner", "count": 2, "retry_after": 0.2}));
    let run = ask(&mock, None).run;
    assert_eq!(run["answer"], baseline["answer"]);
    assert_eq!(run["totals"]["failed_calls"], 0);
    let planner = &run["calls"][0];
    assert_eq!((planner["role"].as_str(), planner["attempts"].as_u64()), (Some("planner"), Some(3)), "two 429s, then the answer: {planner}");
    assert!(planner["latency_ms"].as_f64().unwrap() >= 400.0, "Retry-After (0.2 s) honoured twice: {planner}");
}

#[test]
fn a_cut_off_rephrase_falls_back_to_the_audited_lines() {
    let mock = start_mock(&[]);
    mock.queue_faults(json!({"mode": "truncate", "role": "synthesizer"}));
    let run = ask(&mock, None).run;
    assert_eq!(run["rephrase"]["status"], "rejected", "{}", run["rephrase"]);
    assert!(published(&run) > 0 && run["answer"]["abstained"] == false);
    // Every figure in the answer comes from an audited claim line.
    let audited: String = run["claims"].as_array().unwrap().iter().filter(|c| c["published"] == true).map(|c| c["answer_fragment"].as_str().unwrap().to_string()).collect::<Vec<_>>().join(" ");
    let text = run["answer"]["text"].as_str().unwrap();
    // Citations ("[FILE.pdf, p.4]") name files, whose names carry years; the figures are outside them.
    let prose: String = text.split('[').map(|part| part.split_once(']').map(|(_, rest)| rest).unwrap_or(part)).collect();
    assert!(prose.chars().any(|c| c.is_ascii_digit()), "the audited lines carry figures: {text}");
    for num in prose.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).filter(|w| w.chars().any(|c| c.is_ascii_digit())) {
        let num = num.trim_matches(|c| c == '.' || c == ',');
        assert!(audited.contains(num), "{num} is in the answer but in no audited line:\n{text}");
    }
}

#[test]
fn an_endpoint_answering_500_to_every_call_says_so_once_and_exits_3() {
    let fast = settings_file("fail-fast-500", "[pipeline]\nmax_retries = 1\nretry_base_ms = 10\n");
    let mock = start_mock(&[]);
    mock.queue_faults(json!({"mode": "500"}));
    // As a user would run it: the answer text on stdout.
    let mut args: Vec<String> = vec!["ask".into(), corpus().display().to_string(), QUESTION.into()];
    args.extend(["--base-url".into(), format!("{}/v1", mock.url), "--model".into(), "gpt-4o-mini".into(), "--config".into(), fast.display().to_string()]);
    let o = clair(&args);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(3), "a failed run exits 3:\n{stderr}");
    assert!(stdout.starts_with("No answer: the model endpoint failed: "), "{stdout}");
    assert!(stdout.lines().next().unwrap().contains("calls returned HTTP 500 (server error)"), "{stdout}");
    assert!(!stdout.to_lowercase().contains("abstain") && !stdout.contains("insufficient"), "not an abstention: {stdout}");
    let mut seen = std::collections::BTreeSet::new();
    for l in stdout.lines().chain(stderr.lines().filter(|l| l.starts_with("clair:"))) {
        assert!(seen.insert(l.trim().to_string()), "printed twice: {l}\n{stdout}\n{stderr}");
    }
    assert_eq!(stdout.matches("HTTP 500").count(), 1, "{stdout}");
}

#[test]
fn an_answer_cut_off_at_its_cap_is_retried_larger_and_a_second_cut_fails_closed_naming_the_setting() {
    let mock = start_mock(&[]);
    // The mock cuts answers at max_tokens like a real server: 12 tokens cannot hold three claims.
    let room = settings_file("length-room", "[budgets.planner]\nmax_tokens = 12\ntemperature = 0.0\n[pipeline]\nlength_retry_factor = 16.0\n");
    let a = ask(&mock, Some(&room));
    let planner_call = |r: &Value| r["calls"].as_array().unwrap().iter().find(|c| c["role"] == "planner").cloned().expect("a planner call");
    let planner = planner_call(&a.run);
    assert_eq!(planner["attempts"].as_u64(), Some(2), "{planner}");
    assert!(planner.get("failure").is_none(), "the retry with 16 × 12 tokens fits: {planner}");
    assert_eq!(a.run["claims"].as_array().unwrap().len(), 3);
    let tight = settings_file("length-tight", "[budgets.planner]\nmax_tokens = 12\ntemperature = 0.0\n[pipeline]\nlength_retry_factor = 1.5\n");
    let b = ask(&mock, Some(&tight));
    let planner = planner_call(&b.run);
    let why = planner["failure"].as_str().unwrap_or_else(|| panic!("second cut-off must fail: {planner}"));
    assert!(why.contains("budgets.planner.max_tokens") && why.contains("12 then 18"), "{why}");
    // Fail closed: the planner's conservative default is the question as one fallback claim.
    assert_eq!(b.run["claims"].as_array().unwrap().len(), 1);
}
