//! `clair search` tells where in the filing each hit sits: its section (outline title or Item
//! heading, issue 3 deliverable 1) in the JSON and in the line a person reads.
mod common;

use common::{clair, scratch, PDFS};
use serde_json::Value;

#[test]
fn search_hits_name_their_section() {
    let dir = scratch("search-sections");
    let corpus = dir.join("amcor.corpus");
    let pdf = format!("{PDFS}/AMCOR_2022_8K_dated-2022-07-01.pdf");
    let o = clair(&["ingest".into(), pdf, "-o".into(), corpus.display().to_string()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let query = "supplemental indenture guaranteed senior notes exhibits";
    let o = clair(&["search".into(), corpus.display().to_string(), query.into(), "--k".into(), "8".into(), "--json".into()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let hits = v["hits"].as_array().unwrap();
    assert!(hits.iter().any(|h| h["page"].as_u64() >= Some(2)), "{v}");
    for h in hits {
        // The cover page comes before the 8-K's first Item heading; every later page is under Item 9.01.
        let expected = if h["page"].as_u64() == Some(1) { Value::Null } else { Value::from("Item 9.01. Financial Statements and Exhibits") };
        assert_eq!(h["section"], expected, "{h}");
    }

    let o = clair(&["search".into(), corpus.display().to_string(), query.into(), "--k".into(), "3".into()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.lines().any(|l| l.contains(" (Item 9.01. Financial Statements and Exhibits)  ")), "{text}");
}
