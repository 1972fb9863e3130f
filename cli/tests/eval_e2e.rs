//! `clair eval` end to end, against the mock server binary and three real FinanceBench questions.
//!
//! The story a user would live through:
//! 1. evaluate two configurations on the first two questions, then get interrupted (`--limit 2`);
//! 2. run the full command: only the third question is run, the report covers all three;
//! 3. run it again: nothing is re-run — the mock sees no new chat call — and the report is rewritten.
//!
//! Needs `clair-mock-server` built (`cargo build -p clair-mock-server`, or `--release`) and the
//! shared corpus at ../../shared/corpus; the test fails with the command to run when either is missing.

mod common;

use common::{clair, scratch, start_mock, Mock, DOC, PDFS, QUESTIONS};
use serde_json::Value;
use std::path::Path;

fn chat_calls(mock: &Mock) -> usize {
    mock.requests("chat").len()
}

fn run_eval(mock: &Mock, dataset: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args: Vec<String> = vec!["eval".into(), dataset.display().to_string(), "--out".into(), out.display().to_string()];
    args.extend(["--config", "full", "--config", "no_cocv", "--base-url"].iter().map(|s| s.to_string()));
    args.push(format!("{}/v1", mock.url));
    args.extend(["--model", "gpt-4o-mini", "--pdfs", PDFS].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let o = clair(&args);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "clair eval failed\nstdout:\n{stdout}\nstderr:\n{}", String::from_utf8_lossy(&o.stderr));
    stdout
}

fn lines(p: &Path) -> usize {
    std::fs::read_to_string(p).unwrap().lines().filter(|l| !l.trim().is_empty()).count()
}

#[test]
fn eval_writes_every_table_and_plot_and_resumes_without_new_model_calls() {
    let all = std::fs::read_to_string(QUESTIONS).unwrap_or_else(|e| panic!("{QUESTIONS}: {e} (the shared corpus is needed)"));
    let tmp = scratch("eval-e2e");
    let picked: Vec<&str> = all.lines().filter(|l| l.contains(&format!("\"doc_name\": \"{DOC}\""))).take(3).collect();
    assert_eq!(picked.len(), 3, "three {DOC} questions in the dev set");
    let dataset = tmp.join("dev3.jsonl");
    std::fs::write(&dataset, picked.join("\n")).unwrap();
    let out = tmp.join("out");
    let mock = start_mock(&[]);

    // 1. Interrupted after two questions.
    run_eval(&mock, &dataset, &out, &["--limit", "2"]);
    assert_eq!(lines(&out.join("results.jsonl")), 4, "2 questions × 2 configurations");
    assert!(out.join("corpora").join(format!("{}.corpus", DOC.to_lowercase())).is_file(), "the document's corpus is cached");
    let after_two = chat_calls(&mock);
    assert!(after_two > 0);

    // 2. The full command runs only what is missing.
    let stdout = run_eval(&mock, &dataset, &out, &[]);
    assert_eq!(lines(&out.join("results.jsonl")), 6);
    let after_three = chat_calls(&mock);
    assert!(after_three > after_two, "the third question was run");
    assert!(stdout.contains("## Answer outcomes") && stdout.contains("| full |") && stdout.contains("| no_cocv |"), "outcome table printed:\n{stdout}");

    // Every table of the report, and every plot it links, exists.
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for section in [
        "## Answer outcomes (Table 7, row 1)",
        "## CLAIR-Fin metrics (Table 3)",
        "## Retrieval (Table 2 / Table 8)",
        "## HRI calibration (Table 7, row 5)",
        "## Cost and latency",
        "## full by query type",
        "## no_cocv by query type",
        "## Figures",
    ] {
        assert!(report.contains(section), "report.md lacks `{section}`:\n{report}");
    }
    for plot in ["plots/outcomes-by-config.svg", "plots/outcomes-full-by-type.svg", "plots/outcomes-no_cocv-by-type.svg", "plots/reliability-full.svg", "plots/reliability-no_cocv.svg"] {
        assert!(report.contains(&format!("]({plot})")), "report.md does not link {plot}");
        let svg = std::fs::read_to_string(out.join(plot)).unwrap_or_else(|_| panic!("{plot} missing"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{plot} is not an SVG");
    }
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["schema"], "clair-fin/eval@1");
    let configs = summary["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 2);
    for c in configs {
        let a = &c["aggregate"];
        assert_eq!(a["n"].as_u64().unwrap() + a["failed"].as_u64().unwrap(), 3);
        assert!(a["retrieval"]["n"].as_u64().unwrap() == 3, "every question has gold pages");
        assert!(a["cost"]["run_calls"].as_u64().unwrap() > 0);
    }
    assert_eq!(lines(&out.join("summary.csv")), 3, "header + 2 configurations");
    assert_eq!(lines(&out.join("results.csv")), 7, "header + 6 rows");
    for cfg in ["full", "no_cocv"] {
        let runs = std::fs::read_dir(out.join("runs").join(cfg)).unwrap().count();
        assert_eq!(runs, 3, "one run export per question under runs/{cfg}");
    }

    // 3. Resume with everything done: no chat call at all, same results, report rewritten.
    std::fs::remove_file(out.join("report.md")).unwrap();
    run_eval(&mock, &dataset, &out, &[]);
    assert_eq!(chat_calls(&mock), after_three, "a resumed evaluation makes no new chat calls");
    assert_eq!(lines(&out.join("results.jsonl")), 6);
    assert!(out.join("report.md").is_file());

    drop(mock);
}

fn role_calls(mock: &Mock, role: &str) -> usize {
    mock.requests("chat").iter().filter(|r| r["role"] == role).count()
}

/// `n` questions of the test document as a dataset file.
fn dataset_of(tmp: &Path, n: usize) -> std::path::PathBuf {
    let all = std::fs::read_to_string(QUESTIONS).unwrap_or_else(|e| panic!("{QUESTIONS}: {e} (the shared corpus is needed)"));
    let picked: Vec<&str> = all.lines().filter(|l| l.contains(&format!("\"doc_name\": \"{DOC}\""))).take(n).collect();
    assert_eq!(picked.len(), n);
    let p = tmp.join(format!("dev{n}.jsonl"));
    std::fs::write(&p, picked.join("\n")).unwrap();
    p
}

fn eval_args(dataset: &Path, out: &Path, mock: &Mock, extra: &[String]) -> Vec<String> {
    let mut args: Vec<String> = vec!["eval".into(), dataset.display().to_string(), "--out".into(), out.display().to_string()];
    args.extend(["--base-url".to_string(), format!("{}/v1", mock.url), "--model".into(), "gpt-4o-mini".into(), "--pdfs".into(), PDFS.into()]);
    args.extend(extra.iter().cloned());
    args
}

fn aggregate_of<'a>(summary: &'a Value, config: &str) -> &'a Value {
    &summary["configs"].as_array().unwrap().iter().find(|c| c["name"] == config).unwrap_or_else(|| panic!("no {config} in the summary"))["aggregate"]
}

#[test]
fn an_endpoint_failing_every_call_gives_failed_runs_that_are_retried_never_abstentions() {
    let tmp = scratch("eval-failed");
    let dataset = dataset_of(&tmp, 2);
    let out = tmp.join("out");
    // Short retries so the failing runs end quickly; the configuration is named after the file.
    let fast = tmp.join("fast.toml");
    std::fs::write(&fast, "[pipeline]\nmax_retries = 1\nretry_base_ms = 10\n").unwrap();
    let config = ["--config".to_string(), fast.display().to_string()];
    let mock = start_mock(&[]);
    mock.queue_faults(serde_json::json!({"mode": "500"}));
    let o = clair(&eval_args(&dataset, &out, &mock, &config));
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "two failed runs do not stop the evaluation:\n{stderr}");
    assert_eq!(stderr.matches("run failed: run failed: ").count(), 0, "{stderr}");
    assert_eq!(stderr.matches("run failed: the model endpoint failed: ").count(), 2, "each failed run says what failed:\n{stderr}");
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let a = aggregate_of(&summary, "fast");
    assert_eq!((a["n"].as_u64(), a["failed"].as_u64(), a["outcomes"]["abstained"].as_u64()), (Some(0), Some(2), Some(0)), "{a}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("| fast | 0 | 0 (–) | 0 (–) | 0 (–) | 0 (–) | 2 |"), "failed runs in their own column:\n{stdout}");
    // Each failed run's export says it failed and what failed.
    for f in std::fs::read_dir(out.join("runs").join("fast")).unwrap() {
        let run: Value = serde_json::from_str(&std::fs::read_to_string(f.unwrap().path()).unwrap()).unwrap();
        assert_eq!((run["outcome"].as_str(), run["answer"]["abstained"].as_bool()), (Some("failed"), Some(false)));
        assert!(run["failure"]["message"].as_str().unwrap().contains("returned HTTP 500 (server error)"), "{}", run["failure"]);
    }
    // The endpoint recovers: resuming runs the failed questions again, and they are scored.
    mock.reset();
    let o = clair(&eval_args(&dataset, &out, &mock, &config));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!mock.requests("chat").is_empty(), "the failed runs were run again");
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let a = aggregate_of(&summary, "fast");
    assert_eq!((a["n"].as_u64(), a["failed"].as_u64()), (Some(2), Some(0)), "{a}");
    drop(mock);
}

fn eval_cmd(mock: &Mock, dataset: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec!["eval".into(), dataset.display().to_string(), "--out".into(), out.display().to_string(), "--base-url".into(), format!("{}/v1", mock.url)];
    args.extend(["--model", "gpt-4o-mini", "--pdfs", PDFS].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// The rows of a Markdown table under `heading`, as cells (header and rule excluded).
fn table_rows(report: &str, heading: &str) -> Vec<Vec<String>> {
    let at = report.find(heading).unwrap_or_else(|| panic!("no `{heading}` in the report:\n{report}"));
    report[at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn paper_config_writes_the_nine_rows_of_table_2_with_every_ragas_column_and_caches_the_graph() {
    let tmp = scratch("eval-paper");
    let dataset = dataset_of(&tmp, 2);
    let out = tmp.join("out");
    let mock = start_mock(&[]);

    // The estimate alone makes no model call.
    let o = clair(&eval_cmd(&mock, &dataset, &out, &["--config", "paper", "--graph-estimate"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("graph extraction for"), "the estimate is printed");
    assert_eq!(chat_calls(&mock), 0, "--graph-estimate calls no model");

    let o = clair(&eval_cmd(&mock, &dataset, &out, &["--config", "paper"]));
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "clair eval failed\nstdout:\n{stdout}\nstderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("## RAGAS (Table 2)"), "Table 2 is printed:\n{stdout}");

    let names = ["full", "no_terminal_audit", "no_arc", "no_aea", "no_cocv", "vanilla_rag", "hyde", "hierarchical_rag", "graph_rag"];
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let t2 = table_rows(&report, "## RAGAS (Table 2)");
    assert_eq!(t2.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), names, "nine rows in the paper's order");
    for r in &t2 {
        assert_eq!(r[1], "2", "both questions scored: {r:?}");
        assert!(r[2..6].iter().all(|c| c != "–" && c.parse::<f64>().is_ok_and(|v| (0.0..=1.0).contains(&v))), "every RAGAS column is a score: {r:?}");
    }
    let t3 = table_rows(&report, "## CLAIR-Fin metrics (Table 3)");
    assert_eq!(t3.len(), 9);
    for r in &t3 {
        // Faith. Rate, Exact Corr., Cov.: defined for every row.
        assert!(r[1..4].iter().all(|c| c != "–"), "{r:?}");
    }
    let aea = |name: &str| t3.iter().find(|r| r[0] == name).unwrap()[5].clone();
    assert_eq!(aea("no_aea"), "–", "AEA impact is undefined without AEA (the paper's dash)");

    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert!(summary["embedder"].as_str().unwrap().starts_with("offline"), "no key: the offline embedder, named: {}", summary["embedder"]);
    assert!(report.contains(&format!("embedder: {}", summary["embedder"].as_str().unwrap())));
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("ragas_faithfulness,ragas_answer_relevancy,ragas_context_precision,ragas_context_recall"));

    // The baselines are single-pass: one answer call per question, no planner.
    let runs = |cfg: &str| -> Vec<Value> {
        std::fs::read_dir(out.join("runs").join(cfg)).unwrap().map(|f| serde_json::from_str(&std::fs::read_to_string(f.unwrap().path()).unwrap()).unwrap()).collect()
    };
    for cfg in ["hierarchical_rag", "graph_rag"] {
        for r in runs(cfg) {
            let roles: Vec<&str> = r["calls"].as_array().unwrap().iter().map(|c| c["role"].as_str().unwrap()).collect();
            assert_eq!(roles, vec!["judge_draft"], "{cfg} makes the vanilla answer call only");
        }
    }

    // Graph-RAG's extraction is cached per file: resuming (or a second evaluation) asks nothing again.
    let extracted = role_calls(&mock, "graph_extraction");
    assert!(extracted > 0);
    assert!(out.join("corpora").join(format!("{}.graph.json", DOC.to_lowercase())).is_file());
    std::fs::remove_file(out.join("results.jsonl")).unwrap();
    let o = clair(&eval_cmd(&mock, &dataset, &out, &["--config", "graph_rag", "--limit", "1"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(role_calls(&mock, "graph_extraction"), extracted, "the graph cache is reused");

    drop(mock);
}

#[test]
fn a_judge_rejecting_half_of_the_claims_gives_half_in_every_configuration_and_runs_apart() {
    let tmp = scratch("eval-judge");
    let dataset = dataset_of(&tmp, 3);
    let out = tmp.join("out");
    let system = start_mock(&[]);
    let judge = start_mock(&[]);
    let roles = |m: &Mock| m.requests("chat").iter().map(|r| r["role"].as_str().unwrap_or("").to_string()).collect::<Vec<_>>();
    // One invocation per configuration (same output directory, so it resumes), the judge's
    // counter restarted for each: its every-second rejection then falls on that configuration's
    // claims alone.
    for c in ["full", "no_arc", "no_aea", "no_cocv", "no_terminal_audit", "vanilla_rag"] {
        ureq::post(&format!("{}/__admin/judge", judge.url)).set("Content-Type", "application/json").send_string(r#"{"reject_every": 2}"#).expect("script the judge");
        let extra: Vec<String> = ["--config", c, "--judge-base-url", &format!("{}/v1", judge.url), "--judge-model", "gpt-4.1-mini"].iter().map(|s| s.to_string()).collect();
        let o = clair(&eval_args(&dataset, &out, &system, &extra));
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
        let a = aggregate_of(&summary, c);
        let (faithful, judged, published) = (a["faithful_claims"].as_f64().unwrap(), a["measured_claims"].as_f64().unwrap(), a["published_claims"].as_f64().unwrap());
        assert!(published >= 2.0, "{c}: too few published claims to measure ({published})");
        assert_eq!(judged, published, "{c}: every published claim is judged, audited or not");
        // Every second judge call rejects: half of the claims, give or take one.
        assert!((faithful - judged / 2.0).abs() <= 0.5, "{c}: {faithful} of {judged} judged faithful");
        let rate = a["faithfulness_rate"].as_f64().unwrap();
        assert!((rate - 0.5).abs() <= 0.5 / judged + 1e-9, "{c}: faithfulness {rate}");
        match c {
            // The pipeline's own audit is its own column.
            "full" => assert!(a["audit_pass_rate"].as_f64().unwrap() > 0.0 && a["debate_utilization"].as_f64().is_some(), "{a}"),
            "no_terminal_audit" => assert!(a["audit_pass_rate"].is_null(), "{a}"),
            "no_arc" => {
                // No adversarial call in any run; debate utilization undefined (–), as in the paper.
                for f in std::fs::read_dir(out.join("runs").join("no_arc")).unwrap() {
                    let run: Value = serde_json::from_str(&std::fs::read_to_string(f.unwrap().path()).unwrap()).unwrap();
                    assert!(run["calls"].as_array().unwrap().iter().all(|c| c["role"] != "adversarial"), "w/o ARC made an adversarial call");
                }
                assert!(a["debate_utilization"].is_null(), "{a}");
                let row = stdout.lines().find(|l| l.starts_with("| no_arc |") && l.contains('/')).unwrap_or_else(|| panic!("no Table 3 row:\n{stdout}"));
                assert_eq!(row.split('|').map(str::trim).nth(5), Some("–"), "Deb. Util. of w/o ARC is –: {row}");
            }
            _ => {}
        }
    }
    // The judges (correctness, faithfulness and RAGAS's) ran on their own endpoint and model; the
    // system under test saw no judge call.
    let sys_roles = roles(&system);
    assert!(!sys_roles.iter().any(|r| r.ends_with("_judge") || r.starts_with("ragas_")), "{sys_roles:?}");
    let judge_reqs = judge.requests("chat");
    assert!(!judge_reqs.is_empty());
    for r in &judge_reqs {
        let role = r["role"].as_str().unwrap_or("");
        assert!(matches!(role, "faithfulness_judge" | "correctness_judge") || role.starts_with("ragas_"), "{role}");
        let body: Value = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
        assert_eq!(body["model"], "gpt-4.1-mini");
    }
    drop((system, judge));
}

#[test]
fn eval_with_the_api_embedder_embeds_through_the_endpoint_and_names_it() {
    let tmp = scratch("eval-api-embedder");
    let dataset = dataset_of(&tmp, 1);
    let out = tmp.join("out");
    let mock = start_mock(&[]);
    let o = clair(&eval_cmd(&mock, &dataset, &out, &["--config", "vanilla_rag", "--embedder", "api", "--dims", "64"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["embedder"], "api:text-embedding-3-large:64");
    let emb = mock.requests("embeddings");
    assert!(!emb.is_empty(), "corpus, queries and answer relevancy are embedded by the endpoint");
    for r in &emb {
        let body: Value = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
        assert_eq!(body["model"], "text-embedding-3-large");
        assert_eq!(body["dimensions"], 64);
    }
    let r: Value = serde_json::from_str(std::fs::read_to_string(out.join("results.jsonl")).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(r["ragas"]["embedder"], "api:text-embedding-3-large:64");
    drop(mock);
}
