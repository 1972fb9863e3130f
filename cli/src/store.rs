//! `--store milvus://HOST:PORT/COLLECTION [--token T]`: the team library on a Milvus server
//! (issue 42) for `clair ingest`, `clair search` and `clair ask`. Core decides every request and
//! reads every reply (`clair_core::retrieve::milvus`); this file sends them with ureq and runs the
//! ingest: files in parallel over the cores, each skipped when its content hash is already in the
//! library (`--replace` reads it again), resumable because a file only counts once its manifest
//! is written, after its documents.

use crate::args::Args;
use clair_core::config::{RetrievalSettings, Settings};
use clair_core::corpus::Doc;
use clair_core::retrieve::embed::embedding_inputs;
use clair_core::retrieve::milvus::{FileEntry, MilvusSearch, MilvusStore, Reply, Request, StoreTransport, StoreUrl};
use clair_core::retrieve::{Embedder, OfflineEmbedder};
use clair_core::store::content_key;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The store named on the command line, and its token (`--token`, else `CLAIR_MILVUS_TOKEN`).
pub fn from_args(a: &Args) -> Result<Option<(StoreUrl, Option<String>)>, String> {
    let Some(u) = a.value("--store") else {
        if a.has("--token") {
            return Err("--token needs --store milvus://HOST:PORT/COLLECTION".into());
        }
        return Ok(None);
    };
    let token = a.value("--token").map(str::to_string).or_else(|| std::env::var("CLAIR_MILVUS_TOKEN").ok()).filter(|t| !t.trim().is_empty());
    Ok(Some((StoreUrl::parse(u)?, token)))
}

/// Blocking HTTP for core's requests; in async code each request runs on its own thread
/// (`crate::http::off_thread`) so concurrent claims overlap, as with the model transport.
pub struct MilvusHttp {
    agent: ureq::Agent,
}

impl MilvusHttp {
    pub fn new() -> MilvusHttp {
        MilvusHttp { agent: ureq::AgentBuilder::new().timeout_connect(Duration::from_secs(5)).timeout(Duration::from_secs(120)).build() }
    }
}

impl StoreTransport for MilvusHttp {
    async fn send(&self, req: Request) -> Result<Reply, String> {
        let agent = self.agent.clone();
        crate::http::off_thread(move || crate::store_http::send_blocking(&agent, req)).await.unwrap_or_else(|| Err("could not start an HTTP thread".into()))
    }
}

/// The library opened for searching with the offline embedder of the collection's size.
pub fn open_search<'t>(t: &'t MilvusHttp, url: StoreUrl, token: Option<String>, e: &'t OfflineEmbedder, s: &'t RetrievalSettings) -> Result<MilvusSearch<'t, MilvusHttp>, String> {
    Ok(futures::executor::block_on(MilvusStore::new(t, url, token).open_search(e, s))?)
}

/// The offline embedder matching the collection's vector size (the CLI ingests offline vectors).
pub fn embedder_for(t: &MilvusHttp, url: &StoreUrl, token: &Option<String>) -> Result<OfflineEmbedder, String> {
    let store = MilvusStore::new(t, url.clone(), token.clone());
    Ok(OfflineEmbedder::new(futures::executor::block_on(store.dims(&url.collection))?))
}

fn file_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| path.to_string())
}

/// `clair ingest PDF... --store URL [--token T] [--replace] [--dims N]`.
pub fn ingest(a: &Args, s: &Settings, url: StoreUrl, token: Option<String>) -> Result<(), String> {
    if a.value("--vision").is_some_and(|v| v != "off") || a.has("--pdftotext") || a.value("-o").is_some() || a.value("--out").is_some() {
        return Err("--store takes the native reader and the offline embedder only (no -o, --vision or --pdftotext)".into());
    }
    if a.value("--embedder").is_some_and(|e| e != "offline") {
        return Err("--store stores offline-embedder vectors: the browser and every CLI search them without a key".into());
    }
    let dims: Option<usize> = a.value("--dims").map(|d| d.parse().map_err(|_| format!("--dims {d} is not a number"))).transpose()?;
    let e = dims.map(OfflineEmbedder::new).unwrap_or_default();
    let t = MilvusHttp::new();
    let store = MilvusStore::new(&t, url.clone(), token.clone());
    let label = format!("milvus://{}/{}", url.base.split("://").nth(1).unwrap_or(&url.base), url.collection);
    futures::executor::block_on(store.ensure_collections(e.dims()))?;
    let files = futures::executor::block_on(store.files())?;
    let present: BTreeSet<String> = files.iter().map(|f| f.hash.clone()).collect();
    // A file stored before rows carried statement-page flags is read again, not skipped: a search
    // with the structural prior refuses a library holding one (`StoreError::NoStatementFlags`).
    let unflagged: BTreeSet<String> = files.iter().filter(|f| !f.flagged()).map(|f| f.hash.clone()).collect();

    // Hash every file first: what is there already is skipped before any reading.
    let mut queue: Vec<(String, Vec<u8>, String)> = vec![];
    let mut seen = BTreeSet::new();
    for pdf in &a.positional {
        let bytes = std::fs::read(pdf).map_err(|e| format!("cannot read {pdf}: {e}"))?;
        let hash = content_key(&bytes);
        if !seen.insert(hash.clone()) {
            continue;
        }
        if unflagged.contains(&hash) && !a.has("--replace") {
            eprintln!("{pdf}: in {label} without statement-page flags; reading it again");
        } else if present.contains(&hash) && !a.has("--replace") {
            eprintln!("{pdf}: already in {label} (same content); skipped (--replace reads it again)");
            continue;
        }
        queue.push((pdf.clone(), bytes, hash));
    }
    let total = queue.len();
    if total == 0 {
        eprintln!("{label}: nothing to ingest; {} files in the library", present.len());
        return Ok(());
    }
    // Files in parallel, one reading thread each, as many as there are cores (CLAIR_THREADS).
    let workers = crate::reading_threads().min(total).max(1);
    let queue = Mutex::new(queue.into_iter().enumerate().collect::<Vec<_>>());
    let done = AtomicUsize::new(0);
    let errors: Mutex<Vec<String>> = Mutex::new(vec![]);
    let stored: Mutex<Vec<String>> = Mutex::new(vec![]);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let Some((_, (pdf, bytes, hash))) = queue.lock().map(|mut q| q.pop()).unwrap_or(None) else { return };
                let t0 = Instant::now();
                match ingest_one(&store, &e, s, &pdf, bytes, &hash) {
                    Ok((n, cut)) => {
                        let i = done.fetch_add(1, Ordering::SeqCst) + 1;
                        let cut = if cut > 0 { format!(", {cut} cut to fit a row") } else { String::new() };
                        eprintln!("[{i}/{total}] {pdf}: {n} documents stored in {:.1} s{cut}", t0.elapsed().as_secs_f64());
                        if let Ok(mut s) = stored.lock() {
                            s.push(hash);
                        }
                    }
                    Err(err) => {
                        let i = done.fetch_add(1, Ordering::SeqCst) + 1;
                        eprintln!("[{i}/{total}] {pdf}: FAILED: {err}");
                        if let Ok(mut v) = errors.lock() {
                            v.push(format!("{pdf}: {err}"));
                        }
                    }
                }
            });
        }
    });
    let stored = stored.into_inner().unwrap_or_default();
    // Milvus makes writes visible to searches after a short delay: return once they are, so the
    // next command finds what this one stored.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let have: BTreeSet<String> = futures::executor::block_on(store.files())?.into_iter().map(|f| f.hash).collect();
        if stored.iter().all(|h| have.contains(h)) {
            eprintln!("{label}: {} files in the library; {} stored in {:.1} s", have.len(), stored.len(), started.elapsed().as_secs_f64());
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("{label}: the stored files did not become visible within 60 s"));
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    let errors = errors.into_inner().unwrap_or_default();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{} of {total} files failed (run again to resume):\n  {}", errors.len(), errors.join("\n  ")))
    }
}

/// Read, embed and store one file, replacing whatever an earlier or interrupted ingest left of it.
fn ingest_one(store: &MilvusStore<'_, MilvusHttp>, e: &OfflineEmbedder, s: &Settings, pdf: &str, bytes: Vec<u8>, hash: &str) -> Result<(usize, usize), String> {
    let source = file_name(pdf);
    let ex = clair_core::ingest::extract_on_threads(bytes, &source, &s.ingest, 1);
    let docs: Vec<Doc> = clair_core::ingest::documents(&ex, &s.ingest);
    let (vectors, stats) = e.embed_documents_with_stats(&embedding_inputs(&docs));
    let file = FileEntry { hash: hash.to_string(), source: source.clone(), embedder: e.name(), docs: docs.len(), ..Default::default() };
    futures::executor::block_on(async {
        store.remove_file(hash, &source).await?;
        store.put_file(&file, &docs, &vectors, &stats).await
    })
    .map(|cut| (docs.len(), cut))
    .map_err(|e| e.to_string())
}
