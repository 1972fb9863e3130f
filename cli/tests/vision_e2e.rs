//! The vision path end to end (paper §3.2, spec §4.1–4.2, §4.6): `clair ingest --vision flagged`
//! renders a real chart page, sends it to the mock's `page_vision` role, and a FACT_TREND question
//! asked with `clair ask` then cites the chart document with the chart's region on the page. A
//! second ingest of the same file is answered from the cache; disagreeing table passes end
//! low-confidence.
//!
//! The page: Best Buy's FY2019 10-K, page 25, the five-year cumulative total return graph (a raster
//! image over 26 % of the page, 73 drawing paths; both signals fire).

mod common;

use clair_core::corpus::ExtractionConfidence;
use clair_core::retrieve::Corpus;
use common::{clair, scratch, start_mock, Mock, PDFS};
use serde_json::Value;
use std::path::Path;

const PDF: &str = "BESTBUY_2019_10K";
const CHART_PAGE: &str = "25";
/// The chart image on page 25, points, origin top-left (from `clair extract --json`).
const CHART_BOX: [f64; 4] = [75.888, 89.496, 536.112, 369.072];

fn ingest(mock: &Mock, out: &Path, pages: &str) -> String {
    let o = clair(&[
        "ingest".into(),
        format!("{PDFS}/{PDF}.pdf"),
        "-o".into(),
        out.display().to_string(),
        "--vision".into(),
        "flagged".into(),
        "--vision-pages".into(),
        pages.into(),
        "--base-url".into(),
        format!("{}/v1", mock.url),
        "--model".into(),
        "gpt-4o".into(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "ingest failed:\n{stderr}");
    stderr
}

fn vision_requests(mock: &Mock) -> Vec<Value> {
    mock.requests("chat").into_iter().filter(|r| r["role"] == "page_vision").collect()
}

#[test]
fn a_trend_question_cites_the_chart_read_by_the_vision_path_and_a_second_ingest_is_free() {
    let mock = start_mock(&[]);
    let dir = scratch("vision-e2e");
    let corpus = dir.join("bb.corpus");

    let stderr = ingest(&mock, &corpus, CHART_PAGE);
    // Signals are reported per document, the estimate before the calls, actual tokens after.
    assert!(stderr.contains("107 pages; signals: garbled 0, chart"), "{stderr}");
    assert!(stderr.contains("vision flagged → 1 page(s), 0 cached; estimate 1 call(s) (up to 3"), "{stderr}");
    assert!(stderr.contains("vision actual 1 call(s)") && stderr.contains("1 chart(s)"), "{stderr}");
    let sent = vision_requests(&mock);
    assert_eq!(sent.len(), 1, "one call: the page has native tables, so no consensus passes");
    let body = sent[0]["body"].to_string();
    assert!(body.contains("data:image/png;base64,iVBOR"), "the rendered page travels as a PNG data URL");
    assert!(body.contains("COMPARISON OF 5 YEAR CUMULATIVE TOTAL RETURN"), "the native text layer is in the prompt");

    // The chart document: vision id, chart modality, the chart's region as its box.
    let c = Corpus::from_bytes(&std::fs::read(&corpus).unwrap()).unwrap();
    let chart = c.docs.iter().find(|d| d.id == format!("{PDF}-p25-chart-cv0")).expect("a chart document for page 25");
    let b = chart.bboxes[0];
    for k in 0..4 {
        assert!((b[k] as f64 - CHART_BOX[k]).abs() < 1.0, "chart box {b:?} is not the chart image {CHART_BOX:?}");
    }
    let meta = chart.chart.as_ref().unwrap();
    assert_eq!(meta.series, vec!["Best Buy Co., Inc.", "S&P 500", "S&P Retailing Group"]);
    assert!(meta.value_readings.contains(&("Best Buy Co., Inc.".into(), "2019".into(), "290.98".into())));

    // Ask a FACT_TREND question: the published claim cites the chart with the chart's box.
    let o = clair(&[
        "ask".into(),
        corpus.display().to_string(),
        "What was the trend in Best Buy's cumulative total return compared with the S&P 500 from 2014 to 2019?".into(),
        "--json".into(),
        "--base-url".into(),
        format!("{}/v1", mock.url),
        "--model".into(),
        "gpt-4o-mini".into(),
    ]);
    assert!(o.status.success(), "ask failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let run: Value = serde_json::from_slice(&o.stdout).unwrap();
    let claim = &run["claims"][0];
    assert_eq!(claim["claim_type"], "FACT_TREND");
    assert_eq!(claim["published"], true, "{claim}");
    let chart_nodes: Vec<String> = claim["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["node"]["locator"]["doc_id"] == format!("{PDF}-p25-chart-cv0"))
        .map(|e| e["node"]["node_id"].as_str().unwrap().to_string())
        .collect();
    assert!(!chart_nodes.is_empty(), "the chart document is evidence: {}", claim["evidence"]);
    let cited = run["answer"]["lines"][0]["citations"].as_array().unwrap().iter().find(|c| chart_nodes.iter().any(|n| c["node_id"] == n.as_str())).cloned();
    let cited = cited.unwrap_or_else(|| panic!("the answer cites the chart: {}", run["answer"]));
    let bb: Vec<f64> = cited["bboxes"][0].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    for k in 0..4 {
        assert!((bb[k] - CHART_BOX[k]).abs() < 1.0, "cited box {bb:?} is not the chart {CHART_BOX:?}");
    }

    // The same file again: answered from CORPUS.vision.json, no model call.
    mock.reset();
    let again = ingest(&mock, &corpus, CHART_PAGE);
    assert!(again.contains("1 page(s), 1 cached; estimate 0 call(s)"), "{again}");
    assert!(again.contains("vision actual 0 call(s), 0 input + 0 output tokens"), "{again}");
    assert!(vision_requests(&mock).is_empty(), "the cache makes the second ingest free");
    let c2 = Corpus::from_bytes(&std::fs::read(&corpus).unwrap()).unwrap();
    assert!(c2.docs.iter().any(|d| d.id == chart.id), "cached pages still yield their documents");
}

#[test]
fn disagreeing_table_passes_end_low_confidence_and_stay_out_of_tabular_evidence() {
    // Every page_vision answer carries a differently valued table, so no two passes agree.
    let mock = start_mock(&["--fault", "vision_disagree:page_vision"]);
    let dir = scratch("vision-disagree");
    let corpus = dir.join("bb.corpus");
    // Page 21 has drawings but no text layer and no native table: the vision path reads it.
    let stderr = ingest(&mock, &corpus, "21");
    assert_eq!(vision_requests(&mock).len(), 3, "pass 1 plus two consensus passes (max_table_passes = 3)");
    assert!(stderr.contains("1 page(s) with low-confidence tables"), "{stderr}");
    let c = Corpus::from_bytes(&std::fs::read(&corpus).unwrap()).unwrap();
    let tables: Vec<_> = c.docs.iter().filter(|d| d.page == 21 && d.id.contains("-table-cvt0")).collect();
    assert!(!tables.is_empty(), "the low-confidence table is kept for provenance");
    assert!(tables.iter().all(|d| d.confidence == ExtractionConfidence::Low));
    // The first pass is the one kept (§4.2).
    let whole = tables.iter().find(|d| d.id.ends_with("-table-cvt0")).unwrap();
    assert_eq!(whole.table.as_ref().unwrap().rows[0], vec!["Row 1".to_string(), "100".to_string()]);

    // Tabular search (what the Tabular Evidence agent runs) never returns it; untyped search does.
    let search = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = vec!["search".into(), corpus.display().to_string(), "Mock table vision_disagree Row 1 Row 2 Row 3".into(), "--json".into(), "--k".into(), "50".into()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = clair(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        v["hits"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap().to_string()).collect()
    };
    assert!(search(&["--modality", "table"]).iter().all(|id| !id.contains("-p21-table-cv")), "low-confidence vision tables are excluded from tabular evidence");
    assert!(search(&[]).iter().any(|id| id.contains("-p21-table-cv")), "but kept in the corpus for provenance");
}
