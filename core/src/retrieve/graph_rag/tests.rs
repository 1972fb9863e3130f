//! Graph-RAG: the graph built from scripted extraction answers, its communities and summaries, the
//! query-time ranking, and the indexing step (cache, estimate) on a real filing.

// The real-filing test and its scripted extractor need the `pdf` feature; without it their imports
// and the extractor are unused.
#![cfg_attr(not(feature = "pdf"), allow(unused_imports, dead_code))]

use super::*;
use crate::llm::roles::Relation;
use crate::llm::{HttpReply, TransportError};
use crate::retrieve::{Corpus, Embedder, LocalSearch, OfflineEmbedder};
use futures::executor::block_on;
use serde_json::{json, Value};
use std::cell::Cell;

fn doc(id: &str, page: u32, text: &str) -> Doc {
    Doc::bare(id, "r.pdf", page, Modality::Text, text)
}

fn rel(a: &str, p: &str, b: &str) -> Relation {
    Relation { subject: a.into(), predicate: p.into(), object: b.into() }
}

/// Two topics that share no relation: a separation (Kenvue) and a debt offering.
fn small() -> (Vec<Doc>, GraphCache) {
    let docs = vec![
        doc("r-p1-text-c0", 1, "Johnson & Johnson completed the separation of Kenvue, its Consumer Health business."),
        doc("r-p2-text-c0", 2, "Kenvue will be reported as a discontinued operation."),
        doc("r-p3-text-c0", 3, "The company issued senior notes due 2033 under its shelf registration."),
        doc("r-p4-text-c0", 4, "Unrelated page with no extraction."),
    ];
    let mut cache = GraphCache::default();
    cache.insert(&docs[0], GraphExtractionOut { entities: vec!["Johnson & Johnson".into(), "Kenvue".into(), "Consumer Health".into()], relations: vec![rel("Johnson & Johnson", "separated", "Kenvue"), rel("Kenvue", "is", "Consumer Health")] });
    cache.insert(&docs[1], GraphExtractionOut { entities: vec!["Kenvue".into(), "discontinued operation".into()], relations: vec![rel("Kenvue", "reported as", "discontinued operation")] });
    cache.insert(&docs[2], GraphExtractionOut { entities: vec!["senior notes".into(), "shelf registration".into()], relations: vec![rel("senior notes", "issued under", "shelf registration")] });
    (docs, cache)
}

#[test]
fn label_propagation_separates_unrelated_topics_and_summaries_quote_their_relations() {
    let (docs, cache) = small();
    let g = EntityGraph::build(&docs, &cache);
    assert_eq!(g.docs.len(), 3, "the chunk without an answer is not in the graph");
    assert_eq!(g.communities.len(), 2, "{:?}", g.communities.iter().map(|c| &c.entities).collect::<Vec<_>>());
    let k = &g.communities[g.community_of["kenvue"]];
    assert_eq!(k.entities, vec!["consumer health", "discontinued operation", "johnson & johnson", "kenvue"]);
    assert!(k.doc.text.contains("johnson & johnson — separated — kenvue") && k.doc.text.contains("kenvue — reported as — discontinued operation"), "{}", k.doc.text);
    assert_ne!(g.community_of["kenvue"], g.community_of["senior notes"]);
    assert!(k.doc.id.ends_with("-community-0") || k.doc.id.ends_with("-community-1"));
}

#[test]
fn question_entities_are_whole_words_and_the_neighbourhood_follows_relations() {
    let (docs, cache) = small();
    let g = EntityGraph::build(&docs, &cache);
    assert_eq!(g.entities_in("When was Kenvue separated?"), vec!["kenvue"]);
    assert!(g.entities_in("What about Kenvues?").is_empty(), "no partial words");
    let near = g.neighbourhood(&["kenvue".into()], 1);
    assert_eq!(near.into_iter().collect::<Vec<_>>(), vec!["consumer health", "discontinued operation", "johnson & johnson"]);
}

#[test]
fn ranking_lifts_the_neighbourhood_chunks_and_adds_the_community_summary() {
    let (docs, cache) = small();
    let g = EntityGraph::build(&docs, &cache);
    // Dense search finds the notes page and p1; the question names Kenvue and the discontinued operation.
    let pool = vec![Hit { doc: docs[0].clone(), score: 0.3 }, Hit { doc: docs[2].clone(), score: 0.2 }];
    let s = RetrievalSettings { graph_communities: 1, ..Default::default() };
    let hits = rank(&g, "Is Kenvue a discontinued operation?", pool, 3, &s);
    let ids: Vec<&str> = hits.iter().map(|h| h.doc.id.as_str()).collect();
    // Graph scores: p1 = kenvue 1 + neighbours ½ + ½ = 2, p2 = 1 + 1 = 2, p3 = 0 (max 2).
    // Final: p1 = 0.7·0.3 + 0.3·1 = 0.51; p2 (found by the graph only) = 0.3; p3 = 0.7·0.2 = 0.14.
    assert_eq!(&ids[..2], &["r-p1-text-c0", "r-p2-text-c0"], "{hits:?}");
    assert!((hits[0].score - 0.51).abs() < 1e-12 && (hits[1].score - 0.3).abs() < 1e-12);
    assert!(ids[2].contains("-community-"), "the last place is the community summary: {ids:?}");
    assert!(!ids.contains(&"r-p3-text-c0"), "the unrelated topic drops out of k");
}

struct Extractor {
    calls: Cell<usize>,
}

impl Transport for Extractor {
    async fn post_json(&self, _path: &str, body: String, _timeout_ms: u64) -> Result<HttpReply, TransportError> {
        self.calls.set(self.calls.get() + 1);
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["response_format"]["json_schema"]["name"], "graph_extraction");
        let chunk = v["messages"][1]["content"].as_str().unwrap_or("").to_lowercase();
        // Scripted: the names this filing is about, as found in the chunk; related in order found.
        let known = ["johnson & johnson", "kenvue", "consumer health", "exchange offer", "discontinued operation"];
        let found: Vec<&str> = known.iter().copied().filter(|n| chunk.contains(n)).collect();
        let relations: Vec<Value> = found.windows(2).map(|w| json!({"subject": w[0], "predicate": "mentioned with", "object": w[1]})).collect();
        let content = json!({"entities": found, "relations": relations});
        Ok(HttpReply {
            status: 200,
            retry_after_s: None,
            body: json!({"model": "gpt-4o", "choices": [{"message": {"content": content.to_string()}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 50, "completion_tokens": 10}}).to_string(),
        })
    }
    async fn sleep_ms(&self, _ms: u64) {}
}

// Reads a PDF: only with the `pdf` feature (the app links core without it).
#[cfg(feature = "pdf")]
#[test]
fn graph_rag_on_a_real_filing_extracts_once_caches_and_answers_from_the_neighbourhood() {
    let path = format!("{}/../../shared/corpus/financebench/pdfs/JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e} (the shared corpus is needed)"));
    let settings = Settings::paper();
    let ex = crate::ingest::extract(&bytes, "JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf", &settings.ingest);
    let docs = crate::ingest::documents(&ex, &settings.ingest);
    let mut cache = GraphCache::default();

    let before = estimate(&docs, &cache, &settings);
    assert!(before.calls > 0 && before.calls == before.chunks && before.cached == 0);
    assert!(before.input_tokens > 0 && before.max_cost_usd.is_some_and(|c| c > 0.0), "{before:?}");

    let t = Extractor { calls: Cell::new(0) };
    let (failures, spent) = block_on(extract(&docs, &mut cache, &t, &settings));
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(t.calls.get(), before.calls, "one call per chunk, more than a run's call budget");
    assert!(before.calls > settings.pipeline.max_llm_calls as usize);
    assert_eq!(spent.calls as usize, before.calls);
    // A second build of the same file asks nothing, and the cache survives JSON.
    let cache = GraphCache::from_json(&cache.to_json()).unwrap();
    assert_eq!(estimate(&docs, &cache, &settings).calls, 0);
    block_on(extract(&docs, &mut cache.clone(), &t, &settings));
    assert_eq!(t.calls.get(), before.calls);

    let g = EntityGraph::build(&docs, &cache);
    assert!(g.mentions.contains_key("kenvue") && !g.communities.is_empty());
    let e = OfflineEmbedder::default();
    let vectors = e.embed_documents(&crate::retrieve::embed::embedding_inputs(&docs));
    let mut c = Corpus::new(e.name(), e.dims());
    c.add(docs, vectors).unwrap();
    let search = WithGraph { search: LocalSearch { corpus: &c, embedder: &e, settings: &settings.retrieval }, graph: &g };
    let q = "What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?";
    let hits = block_on(retrieve(&search, q, 8, &settings.retrieval)).unwrap();
    assert_eq!(hits.len(), 8);
    assert!(hits.iter().any(|h| h.doc.id.contains("-community-")), "a community summary is among the hits");
    assert!(hits[0].doc.text.to_lowercase().contains("kenvue"), "the best passage names the question's entity: {}", hits[0].doc.text);

    // Without the graph the baseline says what is missing instead of silently searching flat.
    let flat = LocalSearch { corpus: &c, embedder: &e, settings: &settings.retrieval };
    assert!(block_on(retrieve(&flat, q, 8, &settings.retrieval)).unwrap_err().contains("entity graph"));
}
