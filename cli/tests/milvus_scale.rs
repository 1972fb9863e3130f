//! Scale of a Milvus library (issue 42, docs/scale.md): insert throughput and query p50/p99
//! through core's client at N chunks, against the local exact scan at sizes a browser holds.
//! A measurement with checks (every query answers k hits from the library, the library holds
//! all N), so it cannot pass on a broken store. Needs a real server and time, so `#[ignore]`d:
//!
//!   scripts/milvus.sh serve
//!   CLAIR_MILVUS=milvus://127.0.0.1:19530 CLAIR_MILVUS_SCALE=100000 \
//!     cargo test --release -p clair-cli --test milvus_scale -- --ignored --nocapture
//!
//! Chunks are a real filing's documents repeated under distinct ids, each with a distinct vector
//! (its own plus noise in a few dimensions), as the issue allows.

use clair_core::config::{Modality, Settings};
use clair_core::corpus::Doc;
use clair_core::retrieve::embed::{embedding_inputs, normalise, TermStats};
use clair_core::retrieve::milvus::{FileEntry, MilvusStore, Reply, Request, StoreTransport, StoreUrl};
use clair_core::retrieve::{Corpus, Embedder, LocalSearch, OfflineEmbedder, Search};
use std::time::Instant;

const PDFS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/pdfs");

#[path = "../src/store_http.rs"]
mod store_http;

struct Http(ureq::Agent);

impl StoreTransport for Http {
    async fn send(&self, req: Request) -> Result<Reply, String> {
        store_http::send_blocking(&self.0, req)
    }
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// xorshift: distinct, reproducible noise without a dependency.
fn noise(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn questions() -> Vec<String> {
    let qs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/questions.jsonl")).unwrap();
    qs.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).filter_map(|v| v["question"].as_str().map(str::to_string)).take(200).collect()
}

#[test]
#[ignore = "a measurement against a real Milvus: see the module comment"]
fn insert_throughput_and_query_latency_at_scale() {
    let base = std::env::var("CLAIR_MILVUS").expect("CLAIR_MILVUS=milvus://HOST:PORT (scripts/milvus.sh serve)");
    let n: usize = std::env::var("CLAIR_MILVUS_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let s = Settings::paper();
    let e = OfflineEmbedder::default();
    let bytes = std::fs::read(format!("{PDFS}/3M_2022_10K.pdf")).unwrap();
    let ex = clair_core::ingest::extract_on_threads(bytes, "3M_2022_10K.pdf", &s.ingest, 2);
    let docs = clair_core::ingest::documents(&ex, &s.ingest);
    let (vectors, stats) = e.embed_documents_with_stats(&embedding_inputs(&docs));
    let per_file = docs.len();

    // CLAIR_MILVUS_SCALE_COLLECTION: measure the queries on a collection an earlier run filled.
    let reuse = std::env::var("CLAIR_MILVUS_SCALE_COLLECTION").ok();
    let name = reuse.clone().unwrap_or_else(|| format!("scale_{n}_{}", std::process::id()));
    let url = StoreUrl::parse(&format!("{}/{name}", base.trim_end_matches('/'))).unwrap();
    let http = Http(ureq::AgentBuilder::new().build());
    let store = MilvusStore::new(&http, url.clone(), None);
    futures::executor::block_on(store.ensure_collections(e.dims())).unwrap();

    // N chunks as copies of the filing, each copy a "file" of its own (as many filings would be).
    let t0 = Instant::now();
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut stored = 0;
    let mut copy = 0;
    if reuse.is_some() {
        stored = n;
        copy = n.div_ceil(per_file);
    }
    while stored < n {
        let take = per_file.min(n - stored);
        let source = format!("copy{copy:05}_3M_2022_10K.pdf");
        let ds: Vec<Doc> = docs[..take]
            .iter()
            .map(|d| {
                let mut d = d.clone();
                d.id = format!("copy{copy:05}_{}", d.id);
                d.source = source.clone();
                d
            })
            .collect();
        let vs: Vec<Vec<f32>> = vectors[..take]
            .iter()
            .map(|v| {
                let mut v = v.clone();
                for _ in 0..8 {
                    let r = noise(&mut seed);
                    let j = (r % v.len() as u64) as usize;
                    v[j] += ((r >> 32) as f32 / u32::MAX as f32 - 0.5) * 0.1;
                }
                normalise(&mut v);
                v
            })
            .collect();
        let file = FileEntry { hash: format!("h{copy}"), source, embedder: e.name(), docs: take };
        futures::executor::block_on(store.put_file(&file, &ds, &vs, &stats)).unwrap();
        stored += take;
        copy += 1;
    }
    let insert_s = t0.elapsed().as_secs_f64();
    if reuse.is_none() {
        eprintln!("inserted {n} chunks ({copy} files of ≤ {per_file}) in {insert_s:.1} s: {:.0} chunks/s", n as f64 / insert_s);
    }

    // Wait until every file is visible, then open the library for search.
    let t1 = Instant::now();
    loop {
        let files = futures::executor::block_on(store.files()).unwrap();
        if files.len() == copy {
            break;
        }
        assert!(t1.elapsed().as_secs() < 600, "only {} of {copy} files visible after 600 s", files.len());
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    eprintln!("visible after {:.1} s more", t1.elapsed().as_secs_f64());
    let t2 = Instant::now();
    let search = futures::executor::block_on(MilvusStore::new(&http, url, None).open_search(&e, &s.retrieval)).unwrap();
    eprintln!("open (manifest of {copy} files, merged IDF): {:.2} s", t2.elapsed().as_secs_f64());
    let mut merged = TermStats::default();
    for _ in 0..copy {
        merged.merge(&stats);
    }
    assert_eq!(search.stats.docs, merged.docs, "the library's statistics cover every file");

    let qs = questions();
    let k = s.retrieval.k_narrative;
    for (label, m) in [("all modalities", None), ("tables", Some(Modality::Table))] {
        let mut lat = vec![];
        for q in &qs {
            let t = Instant::now();
            let hits = futures::executor::block_on(search.search(q, k, m)).unwrap();
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(!hits.is_empty() && hits.len() <= k, "{q}");
            assert!(m.is_none_or(|m| hits.iter().all(|h| h.doc.modality == m)));
        }
        eprintln!("milvus {label}: {} queries, k {k}, pool {}: p50 {:.2} ms, p99 {:.2} ms", qs.len(), k * s.retrieval.pool_factor, pct(&mut lat, 0.5), pct(&mut lat, 0.99));
    }

    // The local exact scan (native; the browser's figures are docs/retrieval-bench.md) at sizes a
    // browser holds.
    for size in [4_000usize, 20_000] {
        let mut c = Corpus::new(e.name(), e.dims());
        let mut ds = vec![];
        let mut vs = vec![];
        for i in 0..size {
            let mut d = docs[i % per_file].clone();
            d.id = format!("r{i}_{}", d.id);
            ds.push(d);
            vs.push(vectors[i % per_file].clone());
        }
        c.add(ds, vs).unwrap();
        let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s.retrieval };
        let mut lat = vec![];
        for q in &qs {
            let t = Instant::now();
            let hits = ls.search_now(q, k, None).unwrap();
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(!hits.is_empty());
        }
        eprintln!("local exact scan at {size}: p50 {:.2} ms, p99 {:.2} ms", pct(&mut lat, 0.5), pct(&mut lat, 0.99));
    }
}
