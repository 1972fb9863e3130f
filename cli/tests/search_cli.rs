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
        // The cover page comes before the 8-K's first Item heading; then its items, signatures and exhibits.
        let expected = match h["page"].as_u64().unwrap() {
            1 => Value::Null,
            2 => Value::from("Item 9.01. Financial Statements and Exhibits"),
            3 => Value::from("Signatures"),
            4..=6 => Value::from("Exhibit 4.6"),
            _ => Value::from("Exhibit 4.7"),
        };
        assert_eq!(h["section"], expected, "{h}");
    }

    // The readable line names the same section, after the modality.
    let o = clair(&["search".into(), corpus.display().to_string(), query.into(), "--k".into(), "8".into()]);
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), hits.len(), "{text}");
    for (line, h) in lines.iter().zip(hits) {
        match h["section"].as_str() {
            Some(s) => assert!(line.contains(&format!("] ({s})  ")), "{line} / {h}"),
            None => assert!(line.contains("]  "), "{line}"),
        }
    }
}
