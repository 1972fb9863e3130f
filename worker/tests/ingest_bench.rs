//! Ingestion speed in the browser (issue 3, issue 41): what the web worker does on `Ingest` —
//! `ingest::extract_with_progress` (parse, layout, tables, signals), `ingest::documents` (chunks and
//! corpus documents), then embedding with the offline embedder and the static table's semantic
//! part (`embed_documents_with_stats`), as `Library::ingest` calls them — on two 100+-page 10-Ks,
//! as wasm inside a dedicated worker in headless Chromium (where the app parses). Bar: ≥ 50 pages/s
//! for the whole of it; parse + chunk alone is printed beside it.
//!
//! The table is the one `scripts/static-embed.sh` distils (target/static-embed, compiled in here;
//! the app's worker fetches the same file, `worker/src/semantic.rs`).
//!
//! Run: `scripts/bench-browser.sh` (core at opt-level 3, `--include-ignored`). Ignored otherwise,
//! because the unoptimised test build is several times slower than what users get.
//!
//! Three passes over both files; the fastest pass decides, so a neighbour process stealing the CPU
//! for a moment does not decide the verdict. Every pass is printed, the first (cold) one included.

use clair_core::config::Settings;
use clair_core::ingest;
use clair_core::retrieve::embed::embedding_inputs;
use clair_core::retrieve::static_embed::StaticTable;
use clair_core::retrieve::{Embedder, OfflineEmbedder};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

#[wasm_bindgen]
extern "C" {
    // `performance` is a global of the worker scope too.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn perf_now() -> f64;
}

/// Two 10-Ks of median native speed (`scripts/bench_extract.sh`), not the fastest ones.
const FILINGS: &[(&str, &[u8])] = &[
    ("MICROSOFT_2016_10K.pdf", include_bytes!("../../../shared/corpus/financebench/pdfs/MICROSOFT_2016_10K.pdf")),
    ("KRAFTHEINZ_2019_10K.pdf", include_bytes!("../../../shared/corpus/financebench/pdfs/KRAFTHEINZ_2019_10K.pdf")),
];
const TABLE: &[u8] = include_bytes!("../../target/static-embed/minilm-l6-static.bin");
const PASSES: usize = 3;
const BAR_PAGES_PER_S: f64 = 50.0;

/// Hand the event loop back so the runner's WebDriver polls get through between long passes.
async fn yield_now() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        if let Ok(set_timeout) = js_sys::Reflect::get(&global, &"setTimeout".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
            let _ = set_timeout.call2(&global, &resolve, &JsValue::from(0));
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

#[wasm_bindgen_test]
#[ignore = "a measurement: run scripts/bench-browser.sh (optimised core)"]
async fn a_ten_k_is_parsed_chunked_and_embedded_in_a_worker_at_fifty_pages_a_second() {
    assert!(
        js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>().is_ok(),
        "runs in a dedicated worker, like the app's parser"
    );
    let settings = Settings::paper().ingest;
    let table = Arc::new(StaticTable::from_bytes(TABLE).expect("the static table scripts/static-embed.sh wrote"));
    let embedder = OfflineEmbedder::with_default_static(table);
    let mut passes: Vec<(f64, Vec<String>)> = vec![];
    let mut parse_ms: Vec<f64> = vec![];
    let mut pages = 0usize;
    for _ in 0..PASSES {
        let (mut total_ms, mut per_file, mut n_pages, mut parse_total) = (0.0, vec![], 0, 0.0);
        for (name, bytes) in FILINGS {
            let t = perf_now();
            let mut reported = 0;
            let ex = ingest::extract_with_progress(bytes, name, &settings, &mut |done, _| reported = done);
            let docs = ingest::documents(&ex, &settings);
            let parsed = perf_now() - t;
            let (vectors, _) = embedder.embed_documents_with_stats(&embedding_inputs(&docs));
            let ms = perf_now() - t;
            assert_eq!(vectors.len(), docs.len());
            assert!(vectors.iter().all(|v| v.len() == embedder.dims()), "{name}: vectors with the semantic part");
            parse_total += parsed;
            assert!(ex.pages.len() >= 100, "{name}: {} pages", ex.pages.len());
            assert_eq!(reported as usize, ex.pages.len(), "{name}: progress after every page");
            assert!(docs.len() >= ex.pages.len(), "{name}: {} documents for {} pages", docs.len(), ex.pages.len());
            per_file.push(format!("{name} {} pages, {} documents, {:.0} ms = {:.1} pages/s", ex.pages.len(), docs.len(), ms, ex.pages.len() as f64 * 1000.0 / ms));
            total_ms += ms;
            n_pages += ex.pages.len();
            yield_now().await;
        }
        pages = n_pages;
        passes.push((total_ms, per_file));
        parse_ms.push(parse_total);
    }
    for (i, (ms, files)) in passes.iter().enumerate() {
        console_log!("worker ingestion pass {}: {pages} pages in {ms:.0} ms = {:.1} pages/s ({})", i + 1, pages as f64 * 1000.0 / ms, files.join("; "));
    }
    let best_ms = passes.iter().map(|(ms, _)| *ms).fold(f64::INFINITY, f64::min);
    let rate = pages as f64 * 1000.0 / best_ms;
    let parse_rate = pages as f64 * 1000.0 / parse_ms.iter().copied().fold(f64::INFINITY, f64::min);
    console_log!("worker ingestion (parse + chunk + embedding with the semantic part) in a dedicated worker: {rate:.1} pages/s, best of {PASSES} passes over {pages} pages (bar {BAR_PAGES_PER_S}); parse + chunk alone {parse_rate:.1} pages/s");
    assert!(rate >= BAR_PAGES_PER_S, "{rate:.1} pages/s misses the {BAR_PAGES_PER_S} pages/s bar");
}
