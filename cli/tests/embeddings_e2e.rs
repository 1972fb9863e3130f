//! API embeddings from any provider (issue 39 item 4): with `models.embedding_dimensions` unset
//! the corpus takes the model's own size from its first answer (Ollama's nomic-embed-text 768,
//! bge-m3 1,024), the request carries no `dimensions` field (Ollama and llama.cpp reject it), and
//! an answer of another size into that corpus is an error that names the setting to change.

mod common;

use clair_core::retrieve::Corpus;
use common::{clair, scratch, start_mock, Mock, DOC, PDFS};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Settings naming a non-OpenAI embedding model and no dimension.
fn config(dir: &Path) -> PathBuf {
    let p = dir.join("nomic.toml");
    std::fs::write(&p, "[models]\nembedding_model = \"nomic-embed-text\"\n").unwrap();
    p
}

fn run(mock: &Mock, cfg: &Path, args: &[&str]) -> std::process::Output {
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    a.extend(["--base-url".into(), format!("{}/v1", mock.url), "--config".into(), cfg.display().to_string()]);
    clair(&a)
}

fn ingest(mock: &Mock, cfg: &Path, pdf: &str, out: &Path) -> std::process::Output {
    run(mock, cfg, &["ingest", &format!("{PDFS}/{pdf}.pdf"), "-o", &out.display().to_string(), "--embedder", "api"])
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_768_dimension_model_builds_a_corpus_and_searches_without_being_told_its_size() {
    let mock = start_mock(&["--embedding-dimensions", "768"]);
    let dir = scratch("embed-768");
    let (cfg, out) = (config(&dir), dir.join("jj.corpus"));
    let o = ingest(&mock, &cfg, DOC, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let corpus = Corpus::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!((corpus.dims, corpus.embedder.as_str()), (768, "api:nomic-embed-text:768"));
    assert!(corpus.len() > 0);

    let o = run(&mock, &cfg, &["search", &out.display().to_string(), "cash proceeds from the Kenvue separation", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(!v["hits"].as_array().unwrap().is_empty(), "{v}");

    // No request asked for a size: servers that reject `dimensions` are served.
    let bodies: Vec<Value> = mock.requests("embeddings").iter().map(|r| serde_json::from_str(r["body"].as_str().unwrap()).unwrap()).collect();
    assert!(bodies.len() >= 2, "ingest and search both embedded");
    assert!(bodies.iter().all(|b| b.get("dimensions").is_none() && b["model"] == "nomic-embed-text"), "{bodies:?}");
}

#[test]
fn an_answer_of_another_size_into_the_same_corpus_names_the_setting_to_change() {
    let dir = scratch("embed-mismatch");
    let (cfg, out) = (config(&dir), dir.join("mixed.corpus"));
    let first = start_mock(&["--embedding-dimensions", "768"]);
    let o = ingest(&first, &cfg, DOC, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let before = std::fs::read(&out).unwrap();

    // The same model name now answers 1,024 dimensions (another server, or the model swapped).
    let later = start_mock(&["--embedding-dimensions", "1024"]);
    let o = ingest(&later, &cfg, "AMCOR_2022_8K_dated-2022-07-01", &out);
    assert!(!o.status.success(), "a 1024-d answer was added to a 768-d corpus");
    let e = stderr(&o);
    assert!(e.contains("returned 1024 dimensions") && e.contains("768") && e.contains("models.embedding_dimensions"), "{e}");
    assert_eq!(std::fs::read(&out).unwrap(), before, "the corpus is left as it was");

    // A query embedded at the other size is the same error, not an empty result list.
    let o = run(&later, &cfg, &["search", &out.display().to_string(), "cash proceeds", "--json"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("returned 1024 dimensions") && e.contains("models.embedding_dimensions = 768"), "{e}");
}
