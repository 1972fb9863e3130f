//! The vision phase of `clair ingest` (spec §4.1, core `ingest::vision`): renders the pages the
//! mode selects with core's hayro renderer, sends them through the native transport, and keeps a
//! cache of answers in `CORPUS.vision.json` so a second ingest of the same file costs nothing.
//!
//! On stderr: per document how many pages each signal flags, the estimate before any call, render
//! time, and the tokens and cost actually spent (from the client's call records) after.

use crate::http::NativeTransport;
use clair_core::config::{Settings, VisionMode};
use clair_core::corpus::Doc;
use clair_core::ingest::vision::{self, VisionCache};
use clair_core::ingest::Extracted;
use clair_core::llm::LlmClient;
use std::time::Instant;

/// The cache file next to the corpus.
pub fn cache_path(corpus: &str) -> String {
    format!("{corpus}.vision.json")
}

pub fn load_cache(path: &str) -> Result<VisionCache, String> {
    match std::fs::read_to_string(path) {
        Ok(s) => VisionCache::from_json(&s).map_err(|e| format!("{path}: {e}")),
        Err(_) => Ok(VisionCache::default()),
    }
}

pub fn save_cache(path: &str, cache: &VisionCache) -> Result<(), String> {
    std::fs::write(path, cache.to_json()).map_err(|e| format!("cannot write the vision cache {path}: {e}"))
}

/// `--vision-pages 3,7` restricts the phase to those pages (cost control and tests).
pub fn parse_pages(v: Option<&str>) -> Result<Option<Vec<u32>>, String> {
    v.map(|list| {
        list.split(',')
            .map(|p| p.trim().parse::<u32>().map_err(|_| format!("--vision-pages: `{p}` is not a page number (use e.g. 3,7)")))
            .collect()
    })
    .transpose()
}

/// Per-document signal counts, one line.
pub fn report_signals(pdf: &str, ex: &Extracted) {
    let c = vision::signal_counts(ex);
    eprintln!(
        "{pdf}: {} pages; signals: garbled {}, chart {}, image {}; {} flagged for vision",
        c.pages, c.garbled, c.chart, c.image, c.needs_vision
    );
}

/// Run the vision phase for one document and return the native documents with the vision ones
/// folded in. `estimate_only` prints the estimate and makes no call.
pub fn phase(pdf: &str, bytes: &[u8], ex: &Extracted, native: Vec<Doc>, s: &Settings, cache: &mut VisionCache, only: Option<&[u32]>, estimate_only: bool) -> Result<Vec<Doc>, String> {
    let mode = s.ingest.vision_mode;
    if mode == VisionMode::Off {
        return Ok(native);
    }
    let mut pages = vision::pages_to_send(ex, mode);
    if let Some(only) = only {
        pages.retain(|p| only.contains(p));
    }
    let content = vision::content_hash(bytes);
    let cached: Vec<u32> = pages.iter().copied().filter(|p| cache.entries.contains_key(&vision::cache_key(&content, *p, s))).collect();
    let e = vision::estimate(ex, &pages, &cached, s);
    let money = |c: Option<f64>| c.map(|c| format!("${c:.4}")).unwrap_or_else(|| format!("unpriced ({} has no price entry)", s.models.vision_model));
    eprintln!(
        "{pdf}: vision {} → {} page(s), {} cached; estimate {} call(s) (up to {} with table consensus), ~{} input + ~{} output tokens, {} (up to {})",
        mode.as_str(),
        e.pages,
        e.cached_pages,
        e.calls,
        e.max_calls,
        e.input_tokens,
        e.output_tokens,
        money(e.cost_usd),
        money(e.max_cost_usd)
    );
    if estimate_only || pages.is_empty() {
        return Ok(native);
    }

    let sv = vision::run_settings(s, &e);
    let t = NativeTransport::new(&sv.models.base_url, std::env::var("OPENAI_API_KEY").ok());
    let client = LlmClient::new(&t, &sv);
    let scale = s.ingest.render_dpi as f32 / 72.0;
    let mut render_ms = vec![];
    let mut image_of = |page: u32| -> Result<String, String> {
        let t0 = Instant::now();
        let r = clair_core::render::render_page(bytes, page, scale, &s.ingest)?;
        render_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        Ok(vision::png_data_url(&r.png))
    };
    let run = futures::executor::block_on(vision::run(&client, ex, &pages, &content, cache, |p| std::future::ready(image_of(p))));
    for w in &run.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(f) = client.fatal_error() {
        return Err(format!("{pdf}: the vision phase stopped: {f}"));
    }
    for v in &run.pages {
        let Some(p) = ex.pages.iter().find(|p| p.page == v.page) else { continue };
        let fired = vision::page_flags(p);
        let tables = match (v.tables.len(), p.tables.len()) {
            (0, 0) => "no tables".to_string(),
            (0, native) => format!("{native} native table(s) kept"),
            (n, _) => format!("{n} table(s), {} confidence", if v.table_confidence == clair_core::corpus::ExtractionConfidence::Low { "low" } else { "high" }),
        };
        eprintln!("  p{}: [{}] {} call(s), {}, {} chart(s)", v.page, if fired.is_empty() { "all pages".to_string() } else { fired.join(", ") }, v.passes, tables, v.charts.len());
    }
    let a = vision::actual(&client.records());
    let low = run.pages.iter().filter(|p| p.table_confidence == clair_core::corpus::ExtractionConfidence::Low).count();
    let charts: usize = run.pages.iter().map(|p| p.charts.len()).sum();
    if !render_ms.is_empty() {
        let total: f64 = render_ms.iter().sum();
        eprintln!("{pdf}: rendered {} page(s) at {} dpi in {:.0} ms ({:.0} ms/page)", render_ms.len(), s.ingest.render_dpi, total, total / render_ms.len() as f64);
    }
    eprintln!(
        "{pdf}: vision actual {} call(s), {} input + {} output tokens, {}; {} page(s) read ({} from cache), {} chart(s), {} page(s) with low-confidence tables",
        a.calls,
        a.input_tokens,
        a.output_tokens,
        money(a.cost_usd),
        run.pages.len(),
        run.cached_pages,
        charts,
        low
    );
    Ok(vision::merge(native, ex, &run.pages, &s.ingest))
}
