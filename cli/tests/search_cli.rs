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

/// Issue 41: without an API key `clair ingest` embeds with the semantic part when the static table
/// is installed (scripts/static-embed.sh, beside the binary's target folder), and `clair search`
/// reads the same table back; with no table anywhere it says so and embeds with the lexical part.
#[test]
fn ingest_embeds_with_the_semantic_part_when_the_table_is_installed_and_says_so_when_not() {
    let dir = scratch("search-semantic");
    let pdf = format!("{PDFS}/AMCOR_2022_8K_dated-2022-07-01.pdf");
    let table = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/static-embed/minilm-l6-static.bin");
    assert!(table.is_file(), "{} is missing: run scripts/static-embed.sh", table.display());
    let corpus = dir.join("semantic.corpus");
    let o = clair(&["ingest".into(), pdf.clone(), "-o".into(), corpus.display().to_string()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let c = clair_core::retrieve::Corpus::from_bytes(&std::fs::read(&corpus).unwrap()).unwrap();
    assert!(c.embedder.starts_with("offline-v3-1024+static-") && c.dims == 1024 + 128, "{} {}", c.embedder, c.dims);
    let query = "When do the notes mature, and who guarantees them?";
    let hits = |extra: &[&str]| {
        let mut args: Vec<String> = vec!["search".into(), corpus.display().to_string(), query.into(), "--json".into()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = clair(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<Value>(&o.stdout).unwrap()["hits"].clone()
    };
    let (default, words_only) = (hits(&[]), hits(&["--static-weight", "0"]));
    assert!(!default.as_array().unwrap().is_empty());
    assert_ne!(default, words_only, "the semantic part weighs in at the default weight");

    // No table where one is looked for: a copy of the binary in a folder of its own, run elsewhere.
    let lone = dir.join("bin/release");
    std::fs::create_dir_all(&lone).unwrap();
    let exe = lone.join("clair");
    std::fs::copy(env!("CARGO_BIN_EXE_clair"), &exe).unwrap();
    let plain = dir.join("plain.corpus");
    let o = std::process::Command::new(&exe)
        .args(["ingest", &pdf, "-o", &plain.display().to_string()])
        .current_dir(&dir)
        .env_remove("CLAIR_STATIC_TABLE")
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("static embedding table is not installed"), "{}", String::from_utf8_lossy(&o.stderr));
    let c = clair_core::retrieve::Corpus::from_bytes(&std::fs::read(&plain).unwrap()).unwrap();
    assert_eq!((c.embedder.as_str(), c.dims), ("offline-v3-1024", 1024));
}
