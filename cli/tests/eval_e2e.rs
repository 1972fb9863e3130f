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
    let _ = std::fs::remove_dir_all(&tmp);
}
