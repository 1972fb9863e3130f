//! Scale of a Milvus library (issue 42, docs/scale.md): insert throughput and query p50/p99
//! through core's client at N chunks, against the local exact scan at sizes a browser holds.
//! A measurement with checks (every query answers k hits from the library, the library holds
//! all N), so it cannot pass on a broken store. Needs a real server and time, so `#[ignore]`d:
//!
//!   scripts/milvus.sh serve
//!   CLAIR_MILVUS=milvus://127.0.0.1:19530 CLAIR_MILVUS_SCALE=100000 \
//!     cargo test --release -p clair-cli --test milvus_scale -- --ignored --nocapture
//!
//! `CLAIR_MILVUS_SCALE` may list sizes (`100000,500000,1000000`): the library grows to each in
//! turn and every stage is measured. `CLAIR_MILVUS_SCALE_COLLECTION=<name>` continues with a
//! collection an earlier run filled (its manifest says how many chunks it holds): a stage it
//! already reaches is measured without inserting. `CLAIR_MILVUS_PID` (the `milvus run standalone` process) adds
//! its resident memory, `CLAIR_MILVUS_DATA` (its data folder) the folder's size; inserting stops
//! early, and says so, when the disk holding that folder falls under `CLAIR_MILVUS_MIN_FREE_GB`
//! (6) free, and the stage reached is measured instead.
//!
//! Chunks are a real filing's documents repeated under distinct ids, each with a distinct vector
//! (its own plus noise in a few dimensions), as the issue allows.

use clair_core::config::{Modality, RetrievalSettings, Settings};
use clair_core::corpus::Doc;
use clair_core::retrieve::embed::{embedding_inputs, normalise, TermStats};
use clair_core::retrieve::milvus::{doc_row, page_flags, FileEntry, MilvusStore, Reply, Request, StoreTransport, StoreUrl};
use clair_core::retrieve::{Corpus, Embedder, LocalSearch, OfflineEmbedder, Search};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

const PDFS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/pdfs");

#[path = "../src/store_http.rs"]
mod store_http;

/// The CLI's transport, timed: how long requests wait on the server and how many bytes they
/// carry, so the insert figure splits into the client's share and the server's.
struct Http {
    agent: ureq::Agent,
    waited_ns: AtomicU64,
    sent_bytes: AtomicU64,
}

impl StoreTransport for Http {
    async fn send(&self, req: Request) -> Result<Reply, String> {
        let agent = self.agent.clone();
        self.sent_bytes.fetch_add(req.body.as_ref().map_or(0, |b| b.len() as u64), Ordering::Relaxed);
        let t = Instant::now();
        // Off the calling thread, as the CLI's transport: concurrent requests overlap.
        let (tx, rx) = futures::channel::oneshot::channel();
        std::thread::spawn(move || tx.send(store_http::send_blocking(&agent, req)));
        let reply = rx.await.unwrap_or_else(|_| Err("HTTP thread ended without a reply".into()));
        self.waited_ns.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        reply
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
    let stages: Vec<usize> = std::env::var("CLAIR_MILVUS_SCALE")
        .unwrap_or_else(|_| "100000".into())
        .split(',')
        .map(|v| v.trim().parse().expect("CLAIR_MILVUS_SCALE: sizes separated by commas"))
        .collect();
    // Relative to the workspace root, where the command is typed (cargo runs tests in cli/); a
    // folder that cannot be measured fails here rather than leave the disk guard silently off.
    let data_dir = std::env::var("CLAIR_MILVUS_DATA").ok().map(|d| {
        let d = if std::path::Path::new(&d).is_relative() { format!("{}/../{d}", env!("CARGO_MANIFEST_DIR")) } else { d };
        assert!(free_gb(&d).is_some(), "CLAIR_MILVUS_DATA={d}: no such folder");
        d
    });
    let min_free: f64 = std::env::var("CLAIR_MILVUS_MIN_FREE_GB").ok().and_then(|v| v.parse().ok()).unwrap_or(6.0);
    let s = Settings::paper();
    let e = OfflineEmbedder::default();
    let bytes = std::fs::read(format!("{PDFS}/3M_2022_10K.pdf")).unwrap();
    let ex = clair_core::ingest::extract_on_threads(bytes, "3M_2022_10K.pdf", &s.ingest, 2);
    let docs = clair_core::ingest::documents(&ex, &s.ingest);
    let (vectors, stats) = e.embed_documents_with_stats(&embedding_inputs(&docs));
    let per_file = docs.len();

    // CLAIR_MILVUS_SCALE_COLLECTION: measure the queries on a collection an earlier run filled.
    let reuse = std::env::var("CLAIR_MILVUS_SCALE_COLLECTION").ok();
    let last = *stages.iter().max().unwrap();
    let name = reuse.clone().unwrap_or_else(|| format!("scale_{last}_{}", std::process::id()));
    let url = StoreUrl::parse(&format!("{}/{name}", base.trim_end_matches('/'))).unwrap();
    let http = Http { agent: ureq::AgentBuilder::new().build(), waited_ns: AtomicU64::new(0), sent_bytes: AtomicU64::new(0) };
    let store = MilvusStore::new(&http, url.clone(), None);
    futures::executor::block_on(store.ensure_collections(e.dims())).unwrap();
    let qs = questions();
    let k = s.retrieval.k_narrative;

    // N chunks as copies of the filing, each copy a "file" of its own (as many filings would be).
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut stored = 0;
    let mut copy = 0;
    let mut disk_full = false;
    if reuse.is_some() {
        // Grow (or measure) the library as an earlier run left it: its files say how far it got.
        let files = futures::executor::block_on(store.files()).unwrap();
        stored = files.iter().map(|f| f.docs).sum();
        copy = files.len();
        // Copies added now get noise of their own, not the first copies' again.
        seed ^= (copy as u64 + 1).wrapping_mul(0x2545f4914f6cdd1d);
        eprintln!("resuming {name}: {stored} chunks in {copy} files");
    }
    for &n in &stages {
        let t0 = Instant::now();
        let (from, waited0, sent0) = (stored, http.waited_ns.load(Ordering::Relaxed), http.sent_bytes.load(Ordering::Relaxed));
        while stored < n {
            if let Some(free) = data_dir.as_deref().and_then(free_gb) {
                if free < min_free {
                    eprintln!("STOPPED at {stored} chunks: {free:.1} GB free on the data folder's disk, under {min_free} GB");
                    disk_full = true;
                    break;
                }
            }
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
            let file = FileEntry { hash: format!("h{copy}"), source, embedder: e.name(), docs: take, ..Default::default() };
            futures::executor::block_on(store.put_file(&file, &ds, &vs, &stats)).unwrap();
            stored += take;
            copy += 1;
        }
        let insert_s = t0.elapsed().as_secs_f64();
        eprintln!("== {stored} chunks ({copy} files of ≤ {per_file})");
        if stored > from {
            eprintln!("inserted {} chunks in {insert_s:.1} s: {:.0} chunks/s", stored - from, (stored - from) as f64 / insert_s);
            // Where the time went: building the request bodies on the client (one file's, timed
            // here, times the files), against the requests' time on the wire and in the server.
            let t = Instant::now();
            let flags = page_flags(&docs);
            let rows: Vec<String> = docs.iter().zip(&vectors).zip(&flags).map(|((d, v), f)| doc_row(d, v, "h", f).0).collect();
            let encode_s = t.elapsed().as_secs_f64() * (stored - from) as f64 / per_file as f64;
            let row_bytes = rows.iter().map(String::len).sum::<usize>() / rows.len();
            eprintln!(
                "  client encoding ≈ {encode_s:.1} s ({row_bytes} bytes a row), requests {:.1} s, {:.0} MB sent",
                (http.waited_ns.load(Ordering::Relaxed) - waited0) as f64 / 1e9,
                (http.sent_bytes.load(Ordering::Relaxed) - sent0) as f64 / 1e6
            );
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
        let search = futures::executor::block_on(MilvusStore::new(&http, url.clone(), None).open_search(&e, &s.retrieval)).unwrap();
        eprintln!("open (manifest of {copy} files, merged IDF): {:.2} s", t2.elapsed().as_secs_f64());
        let mut merged = TermStats::default();
        for _ in 0..copy {
            merged.merge(&stats);
        }
        assert_eq!(search.stats.docs, merged.docs, "the library's statistics cover every file");

        // The structural prior's share (docs/scale.md): the same queries with it off, which
        // saves the statement-page search and the read of the joined rows.
        let no_prior = RetrievalSettings { statement_prior: 0.0, ..s.retrieval.clone() };
        let plain = futures::executor::block_on(MilvusStore::new(&http, url.clone(), None).open_search(&e, &no_prior)).unwrap();
        for (label, m, search) in [
            ("all modalities", None, &search),
            ("tables", Some(Modality::Table), &search),
            ("all modalities, prior off", None, &plain),
            ("tables, prior off", Some(Modality::Table), &plain),
        ] {
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
        if let Some(rss) = std::env::var("CLAIR_MILVUS_PID").ok().and_then(|p| rss_gb(&p)) {
            eprintln!("server RSS {rss:.2} GB");
        }
        if let Some(d) = data_dir.as_deref().and_then(dir_gb) {
            eprintln!("data folder {d:.2} GB");
        }
        if disk_full {
            break;
        }
    }

    // The local exact scan (native; the browser's figures are docs/retrieval-bench.md) at sizes a
    // browser holds, and at 10⁵.
    for size in [20_000usize, 100_000] {
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

/// Free space on the disk holding `dir`, in GB (`df`).
fn free_gb(dir: &str) -> Option<f64> {
    let o = std::process::Command::new("df").args(["-B1", "--output=avail", dir]).output().ok()?;
    String::from_utf8_lossy(&o.stdout).lines().nth(1)?.trim().parse::<f64>().ok().map(|b| b / 1e9)
}

/// A folder's size on disk, in GB (`du`).
fn dir_gb(dir: &str) -> Option<f64> {
    let o = std::process::Command::new("du").args(["-sB1", dir]).output().ok()?;
    String::from_utf8_lossy(&o.stdout).split_whitespace().next()?.parse::<f64>().ok().map(|b| b / 1e9)
}

/// A process's resident memory, in GB.
fn rss_gb(pid: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0 / 1e9)
}
