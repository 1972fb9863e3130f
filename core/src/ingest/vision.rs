//! The vision path of Phase I (paper §3.2, spec §4.1, §4.6): pages whose text layer is garbled or
//! that carry a chart or an image are read by a vision model from a rendered picture; the answer
//! (prose, tables, charts with series, readings and the chart's region) becomes corpus documents
//! next to the native ones.
//!
//! Everything here is a value or a pure function except [`run`], which drives the model calls
//! through `LlmClient` and takes the page images from the shell (`image_of`): the CLI renders with
//! `render.rs`, a browser worker would render the same way. Costs are explicit: [`estimate`] before,
//! the client's `CallRecord`s after, and a [`VisionCache`] keyed by file content, page and the
//! settings that shape the answer makes a second ingest of the same file free.

use super::chunk::{chunk_sentences, split_sentences};
use super::consensus::{consensus, duplicate_section_total, Consensus};
use super::{Extracted, Page};
use crate::config::{IngestSettings, Modality, Settings, VisionMode};
use crate::corpus::{BBox, ChartMeta, Doc, ExtractionConfidence, TableMeta};
use crate::llm::roles::{PageVisionOut, VisionChart, VisionTable};
use crate::llm::{LlmClient, Transport};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// ------------------------------------------------------------------ §4.1 per-page decision

/// What the decision needs to know about a page (measured by the reader).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageFacts {
    pub has_text: bool,
    /// Share of visible characters that are control, unmapped or private-use.
    pub garbled_share: f64,
    pub drawing_paths: usize,
    /// Largest share of the page one raster image covers.
    pub image_area_share: f64,
    pub has_images: bool,
}

/// The §4.1 verdict for one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Route {
    pub garbled: bool,
    pub chart: bool,
    pub image: bool,
    /// Non-empty and not garbled: prose stays native even on the vision path (§4.1 step 7).
    pub text_ok: bool,
    /// No text, no drawings, no images (§4.1 step 6): skipped.
    pub empty: bool,
}

impl Route {
    /// §4.1 step 5 negated: a non-empty page with unusable text, a chart or an image.
    pub fn needs_vision(&self) -> bool {
        !self.empty && (!self.text_ok || self.chart || self.image)
    }
}

/// §4.1 steps 2–6 with the thresholds from settings (garbled share > 15 %, ≥ 15 drawing paths, an
/// image covering ≥ 5 % of the page).
pub fn route_page(f: &PageFacts, s: &IngestSettings) -> Route {
    let garbled = f.garbled_share > s.garbled_share;
    Route {
        garbled,
        chart: f.drawing_paths >= s.chart_min_paths,
        image: f.image_area_share >= s.image_min_area_share,
        text_ok: f.has_text && !garbled,
        empty: !f.has_text && f.drawing_paths == 0 && !f.has_images,
    }
}

/// The region the page's drawings occupy: the union of non-rule path boxes, leaving out boxes that
/// cover most of the page (backgrounds, frames). None when nothing is drawn.
pub fn drawing_region(boxes: &[BBox], width: f32, height: f32) -> Option<BBox> {
    let area = (width * height).max(1.0);
    let mut out: Option<BBox> = None;
    for b in boxes {
        let (x0, y0, x1, y1) = (b[0].max(0.0), b[1].max(0.0), b[2].min(width), b[3].min(height));
        if x1 <= x0 || y1 <= y0 || (x1 - x0) * (y1 - y0) > 0.5 * area {
            continue;
        }
        out = Some(match out {
            None => [x0, y0, x1, y1],
            Some(u) => [u[0].min(x0), u[1].min(y0), u[2].max(x1), u[3].max(y1)],
        });
    }
    out
}

/// The pages (1-based) the mode sends to the vision model.
pub fn pages_to_send(ex: &Extracted, mode: VisionMode) -> Vec<u32> {
    ex.pages
        .iter()
        .filter(|p| match mode {
            VisionMode::Off => false,
            VisionMode::Flagged => p.signals.needs_vision,
            VisionMode::All => !p.text.trim().is_empty() || p.signals.drawing_paths > 0 || p.signals.image_area_share > 0.0,
        })
        .map(|p| p.page)
        .collect()
}

/// How many pages each signal flags (for the CLI's report and the measurements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SignalCounts {
    pub pages: usize,
    pub garbled: usize,
    pub chart: usize,
    pub image: usize,
    pub needs_vision: usize,
}

pub fn signal_counts(ex: &Extracted) -> SignalCounts {
    let n = |f: &dyn Fn(&Page) -> bool| ex.pages.iter().filter(|p| f(p)).count();
    SignalCounts {
        pages: ex.pages.len(),
        garbled: n(&|p| p.signals.garbled),
        chart: n(&|p| p.signals.chart),
        image: n(&|p| p.signals.image),
        needs_vision: n(&|p| p.signals.needs_vision),
    }
}

// ------------------------------------------------------------------ prompt and image

/// The user message of a vision call: the page's identity, its native text layer as a hint (the
/// mock server answers from it; a real model reads the image) and where its drawings are.
pub fn user_prompt(source: &str, p: &Page) -> String {
    let mut s = format!("SOURCE: {source}, page {}\n", p.page);
    if let Some(r) = p.signals.drawing_region {
        let (w, h) = (p.width.max(1.0), p.height.max(1.0));
        s.push_str(&format!("DRAWING REGION: {:.3} {:.3} {:.3} {:.3}\n", r[0] / w, r[1] / h, r[2] / w, r[3] / h));
    }
    s.push_str("\nNATIVE TEXT LAYER:\n");
    s.push_str(if p.signals.text_ok { p.text.trim() } else { "(none usable)" });
    s
}

/// `data:image/png;base64,…` for `call_with_image`.
pub fn png_data_url(png: &[u8]) -> String {
    format!("data:image/png;base64,{}", crate::llm::wire::base64(png))
}

// ------------------------------------------------------------------ cost control

/// What a vision run will cost, before it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisionEstimate {
    pub pages: usize,
    /// Pages answered from the cache (no call).
    pub cached_pages: usize,
    /// One call per page sent; consensus may add up to `max_table_passes − 1` more per page.
    pub calls: usize,
    pub max_calls: usize,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// None when the vision model is unpriced (spec §6.5): unpriced stays unpriced, never 0.
    pub cost_usd: Option<f64>,
    pub max_cost_usd: Option<f64>,
}

/// Tokens and cost of sending `pages` (minus cached ones): image tokens plus prompt text at ≈ 4
/// characters per token in, `vision_output_tokens` out, priced with the vision model's entry.
pub fn estimate(ex: &Extracted, pages: &[u32], cached: &[u32], s: &Settings) -> VisionEstimate {
    let system = crate::prompts::PAGE_VISION.chars().count() as u64;
    let (mut input, mut sent) = (0u64, 0usize);
    let (mut cost, mut max_cost) = (Some(0.0), Some(0.0));
    let extra = s.ingest.max_table_passes.max(1) as u64 - 1;
    let out = s.ingest.vision_output_tokens;
    for p in ex.pages.iter().filter(|p| pages.contains(&p.page) && !cached.contains(&p.page)) {
        sent += 1;
        let i = s.ingest.vision_image_tokens + (system + user_prompt(&ex.source, p).chars().count() as u64).div_ceil(4);
        input += i;
        let first = s.price(first_pass_model(p, &s.models.vision_model, &s.models.chat_model), i, out);
        // Unpriced stays unpriced: one unpriced call makes the total None.
        let more = s.price(&s.models.vision_model, i * extra, out * extra);
        cost = cost.zip(first).map(|(a, b)| a + b);
        max_cost = max_cost.zip(first).zip(more).map(|((a, b), c)| a + b + c);
    }
    VisionEstimate {
        pages: pages.len(),
        cached_pages: pages.len() - sent,
        calls: sent,
        max_calls: sent * (extra as usize + 1),
        input_tokens: input,
        output_tokens: sent as u64 * out,
        cost_usd: cost,
        max_cost_usd: max_cost,
    }
}

/// The §4.1 signals that sent a page to vision, in words ("chart", "image", "garbled", "no usable
/// text"); empty for a page sent only because the mode is `all`.
pub fn page_flags(p: &Page) -> Vec<&'static str> {
    [(p.signals.garbled, "garbled"), (p.signals.chart, "chart"), (p.signals.image, "image"), (!p.signals.text_ok, "no usable text")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
}

/// One page of a [`VisionPlan`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PagePlan {
    pub page: u32,
    pub flags: Vec<String>,
    /// Already read under the same file, page and settings: no call.
    pub cached: bool,
}

/// What the user confirms before a vision run (spec §6.5 cost control): the pages the mode selects,
/// which signal flagged each, which are answered from the cache, and the estimate for the rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisionPlan {
    pub source: String,
    pub mode: VisionMode,
    pub counts: SignalCounts,
    pub pages: Vec<PagePlan>,
    pub estimate: VisionEstimate,
}

impl VisionPlan {
    /// The page numbers to run (cached ones included: they cost nothing and yield their documents).
    pub fn page_numbers(&self) -> Vec<u32> {
        self.pages.iter().map(|p| p.page).collect()
    }
    /// Nothing left to pay for.
    pub fn all_cached(&self) -> bool {
        self.estimate.calls == 0
    }
}

/// The plan for one file: `content` identifies its bytes (the store's SHA-256 in the browser, the
/// CLI's `content_hash`), `cache` holds earlier answers.
pub fn plan(ex: &Extracted, mode: VisionMode, content: &str, cache: &VisionCache, s: &Settings) -> VisionPlan {
    let pages = pages_to_send(ex, mode);
    let cached: Vec<u32> = pages.iter().copied().filter(|p| cache.entries.contains_key(&cache_key(content, *p, s))).collect();
    let estimate = estimate(ex, &pages, &cached, s);
    let plans = ex
        .pages
        .iter()
        .filter(|p| pages.contains(&p.page))
        .map(|p| PagePlan { page: p.page, flags: page_flags(p).into_iter().map(String::from).collect(), cached: cached.contains(&p.page) })
        .collect();
    VisionPlan { source: ex.source.clone(), mode, counts: signal_counts(ex), pages: plans, estimate }
}

/// The settings a vision run uses: the per-question call budget does not apply to ingestion, the
/// estimate's worst case does (every page with all consensus passes).
pub fn run_settings(s: &Settings, e: &VisionEstimate) -> Settings {
    let mut sv = s.clone();
    sv.pipeline.max_llm_calls = (e.max_calls as u32).max(1);
    sv
}

/// What a run actually spent, from the client's call records (shown after the run).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct VisionActual {
    pub calls: usize,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// None when a call was unpriced: unpriced stays unpriced (spec §6.5).
    pub cost_usd: Option<f64>,
}

pub fn actual(records: &[crate::llm::CallRecord]) -> VisionActual {
    VisionActual {
        calls: records.len(),
        input_tokens: records.iter().map(|r| r.usage.input_tokens).sum(),
        output_tokens: records.iter().map(|r| r.usage.output_tokens).sum(),
        cost_usd: records.iter().map(|r| r.cost_usd).sum::<Option<f64>>().map(|c| c + 0.0),
    }
}

/// A document the vision path made (`…-chart-cv0`, `…-table-cvt0r2`, `…-text-cv1`): its id's last
/// `-c` segment starts with `v`, which native ids (`-c3`, `-ct0r2`) never do.
pub fn is_vision_doc(id: &str) -> bool {
    id.rsplit_once("-c").is_some_and(|(_, n)| n.starts_with('v'))
}

/// The part of an extraction the vision path needs (text, signals, sizes, native tables), without
/// the positioned blocks: what the worker keeps per file and sends to the app.
pub fn for_vision(ex: &Extracted) -> Extracted {
    let mut out = Extracted { source: ex.source.clone(), encrypted: ex.encrypted, title: ex.title.clone(), ..Default::default() };
    out.pages = ex.pages.iter().map(|p| Page { blocks: vec![], ..p.clone() }).collect();
    out
}

/// One page as the vision path read it: what the cache stores and the documents are built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageVision {
    pub page: u32,
    pub prose: String,
    /// The tables consensus kept (empty when native tables exist on the page: they are preferred).
    pub tables: Vec<VisionTable>,
    pub charts: Vec<VisionChart>,
    /// Page-level table confidence after consensus (§4.2) and the section-total check (§4.3).
    pub table_confidence: ExtractionConfidence,
    /// Vision calls this page took.
    pub passes: u32,
}

/// Vision answers from earlier runs, keyed by [`cache_key`]. Serialized next to the corpus.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VisionCache {
    pub entries: BTreeMap<String, PageVision>,
}

impl VisionCache {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{\"entries\":{}}".into())
    }
    pub fn from_json(s: &str) -> Result<VisionCache, String> {
        serde_json::from_str(s).map_err(|e| format!("the vision cache is not readable ({e}); delete it to start afresh"))
    }
}

/// FNV-1a 64 plus length: a stable fingerprint of a file (the cache must survive Rust upgrades,
/// which `DefaultHasher` does not promise).
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{}-{}", crate::hash::fnv64_hex(bytes), bytes.len())
}

/// File content + page + everything that shapes the answer (model, DPI, consensus settings, prompt).
pub fn cache_key(content: &str, page: u32, s: &Settings) -> String {
    let shape = format!(
        "{}|{}|{}|{}|{}",
        s.models.vision_model, s.ingest.render_dpi, s.ingest.table_agreement_share, s.ingest.max_table_passes, crate::prompts::PAGE_VISION
    );
    format!("{content}:p{page}:{}", content_hash(shape.as_bytes()))
}

// ------------------------------------------------------------------ the run

/// The outcome of a vision run: pages read (fresh or cached) and what went wrong, in words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VisionRun {
    pub pages: Vec<PageVision>,
    pub cached_pages: usize,
    pub warnings: Vec<String>,
    /// Cancelled, or a fatal error: some pages were not sent (cached ones are still returned).
    pub stopped: bool,
}

/// Read `pages` of `ex` with the vision model. `image_of(page)` resolves to the page's PNG data URL.
/// A page whose image cannot be made or whose call fails keeps its native documents and costs a
/// warning (fail-closed: nothing is invented). Fresh answers go into `cache`.
///
/// `image_of` is asynchronous because a browser renders in its worker; the CLI renders in place and
/// returns a ready future. The run stops before the next page once the transport is cancelled (the
/// user's Cancel) or the client has met a fatal error (bad key, wrong URL): pages already read are
/// kept and cached, the rest are not sent.
pub async fn run<T, F, Fut>(client: &LlmClient<'_, T>, ex: &Extracted, pages: &[u32], content: &str, cache: &mut VisionCache, mut image_of: F) -> VisionRun
where
    T: Transport,
    F: FnMut(u32) -> Fut,
    Fut: std::future::Future<Output = Result<String, String>>,
{
    let s = client.settings();
    let mut out = VisionRun::default();
    for p in ex.pages.iter().filter(|p| pages.contains(&p.page)) {
        let key = cache_key(content, p.page, s);
        if let Some(hit) = cache.entries.get(&key) {
            out.pages.push(hit.clone());
            out.cached_pages += 1;
            continue;
        }
        if client.transport().cancelled() || client.fatal_error().is_some() {
            out.stopped = true;
            continue;
        }
        let image = match image_of(p.page).await {
            Ok(i) => i,
            Err(e) => {
                out.warnings.push(format!("{} page {}: not sent to the vision model: {e}", ex.source, p.page));
                continue;
            }
        };
        match read_page(client, &ex.source, p, &image, &s.ingest).await {
            Ok(v) => {
                cache.entries.insert(key, v.clone());
                out.pages.push(v);
            }
            Err(e) => out.warnings.push(format!("{} page {}: vision call failed ({e}); the page keeps its native documents", ex.source, p.page)),
        }
    }
    out
}

/// §4.1 step 7: the vision model when a chart or image is on the page, the (cheaper) chat model for
/// a page sent only because its text layer is garbled or missing.
pub fn first_pass_model<'m>(p: &Page, vision_model: &'m str, chat_model: &'m str) -> &'m str {
    if p.signals.chart || p.signals.image {
        vision_model
    } else {
        chat_model
    }
}

/// One page: the extraction call, then consensus passes over its tables (§4.2) unless native table
/// detection already found tables there (preferred, §4.1 step 7).
async fn read_page<T: Transport>(client: &LlmClient<'_, T>, source: &str, p: &Page, image: &str, s: &IngestSettings) -> Result<PageVision, String> {
    let user = user_prompt(source, p);
    let models = &client.settings().models;
    let prompt = crate::prompts::PAGE_VISION;
    let first = client.call_with_image_on::<PageVisionOut>(first_pass_model(p, &models.vision_model, &models.chat_model), prompt, &user, image).await;
    if let Some(f) = first.failure {
        return Err(f);
    }
    let first = first.value;
    let mut passes: Vec<Vec<VisionTable>> = vec![first.tables.clone()];
    let mut calls = 1u32;
    let (tables, mut confidence) = if !p.tables.is_empty() {
        (vec![], ExtractionConfidence::High)
    } else {
        loop {
            match consensus(&passes, s.table_agreement_share, s.max_table_passes) {
                Consensus::Settled { keep, confidence } => break (passes.swap_remove(keep), confidence),
                Consensus::AnotherPass => {
                    // §4.2: consensus passes always use the vision model.
                    let o = client.call_with_image_on::<PageVisionOut>(&models.vision_model, prompt, &user, image).await;
                    calls += 1;
                    if o.failure.is_some() {
                        // A failed consensus pass cannot confirm pass 1: keep it, low (§3.2).
                        break (passes.swap_remove(0), ExtractionConfidence::Low);
                    }
                    passes.push(o.value.tables);
                }
            }
        }
    };
    if confidence == ExtractionConfidence::High && tables.iter().any(duplicate_section_total) {
        confidence = ExtractionConfidence::Low;
    }
    Ok(PageVision {
        page: p.page,
        prose: first.prose_text,
        tables,
        charts: first.charts,
        table_confidence: confidence,
        passes: calls,
    })
}

// ------------------------------------------------------------------ documents (§4.6)

/// Native documents with the vision pages folded in: on a page whose text layer is unusable the
/// vision prose replaces the native prose; vision tables are added only where native detection
/// found none; charts are always added. Vision ids carry a `v` (`…-chart-cv0`, `…-table-cvt0r2`), so
/// they never collide with native ids.
pub fn merge(native: Vec<Doc>, ex: &Extracted, vision: &[PageVision], s: &IngestSettings) -> Vec<Doc> {
    let replaced: Vec<u32> = vision
        .iter()
        .filter(|v| !v.prose.trim().is_empty() && ex.pages.iter().any(|p| p.page == v.page && !p.signals.text_ok))
        .map(|v| v.page)
        .collect();
    let mut out: Vec<Doc> = native.into_iter().filter(|d| !(d.modality == Modality::Text && replaced.contains(&d.page))).collect();
    for v in vision {
        if let Some(p) = ex.pages.iter().find(|p| p.page == v.page) {
            out.extend(page_documents(&ex.source, p, v, s));
        }
    }
    out
}

/// The vision documents of one page.
pub fn page_documents(source: &str, p: &Page, v: &PageVision, s: &IngestSettings) -> Vec<Doc> {
    let whole_page: BBox = [0.0, 0.0, p.width, p.height];
    let base = |modality: Modality, n: String, text: String, bboxes: Vec<BBox>| super::docs::page_doc(source, p, modality, &n, text, bboxes, ExtractionConfidence::High);
    let mut out = vec![];
    if !p.signals.text_ok && !v.prose.trim().is_empty() {
        let sents = split_sentences(&v.prose);
        for (n, c) in chunk_sentences(&sents, s.chunk_target_chars, s.chunk_overlap_sentences).into_iter().enumerate() {
            out.push(base(Modality::Text, format!("v{n}"), c, vec![whole_page]));
        }
    }
    for (t, table) in v.tables.iter().enumerate() {
        let caption = table.caption.clone().unwrap_or_default();
        let n_cols = table.columns.len();
        let rows: Vec<Vec<String>> = table.rows.iter().map(|r| (0..n_cols).map(|k| r.get(k).cloned().unwrap_or_default()).collect()).collect();
        let meta = |rows: Vec<Vec<String>>, row_label: Option<String>| TableMeta { caption: caption.clone(), columns: table.columns.clone(), rows, row_label, table_index: t, parts: vec![], notes: vec![] };
        let mut d = base(Modality::Table, format!("vt{t}"), super::docs::markdown(&caption, &table.columns, &rows), vec![whole_page]);
        d.confidence = v.table_confidence;
        d.table = Some(meta(rows.clone(), None));
        out.push(d);
        if rows.len() <= 1 {
            continue;
        }
        for (r, row) in rows.iter().enumerate() {
            let label = row.first().map(|x| x.trim()).unwrap_or("");
            if label.is_empty() {
                continue;
            }
            let pairs: Vec<String> = table.columns.iter().zip(row).skip(1).filter(|(_, v)| !v.trim().is_empty()).map(|(c, v)| format!("{c}={v}")).collect();
            let mut text = if caption.is_empty() { String::new() } else { format!("{caption} — ") };
            text.push_str(label);
            if !pairs.is_empty() {
                text.push_str(": ");
                text.push_str(&pairs.join(", "));
            }
            let mut d = base(Modality::Table, format!("vt{t}r{r}"), text, vec![whole_page]);
            d.confidence = v.table_confidence;
            d.table = Some(meta(vec![row.clone()], Some(label.to_string())));
            out.push(d);
        }
    }
    for (g, chart) in v.charts.iter().enumerate() {
        let region = chart_region(chart, p).unwrap_or(whole_page);
        let mut d = base(Modality::Chart, format!("v{g}"), chart_text(chart), vec![region]);
        d.chart = Some(ChartMeta {
            caption: chart.caption.clone().unwrap_or_default(),
            chart_type: chart.chart_type.clone(),
            series: chart.series.clone(),
            value_readings: chart.value_readings.iter().map(|r| (r.series.clone(), r.period.clone(), strip_hedge(&r.approx_value).to_string())).collect(),
        });
        out.push(d);
    }
    out
}

/// The chart's box in page points: the model's region when it is a sane fraction box, else where the
/// page's drawings are.
fn chart_region(c: &VisionChart, p: &Page) -> Option<BBox> {
    let from_model = c.region.as_deref().and_then(|r| match r {
        [x0, y0, x1, y1] if (0.0..=1.0).contains(x0) && (0.0..=1.0).contains(y1) && x0 < x1 && y0 < y1 && *y0 >= 0.0 && *x1 <= 1.0 => {
            Some([x0 * p.width, y0 * p.height, x1 * p.width, y1 * p.height])
        }
        _ => None,
    });
    from_model.or(p.signals.drawing_region)
}

fn strip_hedge(v: &str) -> &str {
    let t = v.trim();
    for h in ["approximately", "approx.", "around", "about", "~"] {
        if t.len() >= h.len() && t[..h.len()].eq_ignore_ascii_case(h) {
            return t[h.len()..].trim_start();
        }
    }
    t
}

/// §4.6 chart text: caption; "A <type> chart (<axes>)."; series; trend; readings grouped by series
/// in first-seen order as "<period>: approximately <value>".
pub fn chart_text(c: &VisionChart) -> String {
    let mut parts: Vec<String> = vec![];
    if let Some(cap) = c.caption.as_deref().filter(|s| !s.trim().is_empty()) {
        parts.push(cap.trim().to_string());
    }
    parts.push(format!("A {} chart ({}).", c.chart_type, c.axis_labels));
    if !c.series.is_empty() {
        parts.push(format!("Series: {}.", c.series.join(", ")));
    }
    if !c.trend_description.trim().is_empty() {
        parts.push(c.trend_description.trim().to_string());
    }
    let mut order: Vec<&str> = vec![];
    for r in &c.value_readings {
        if !order.contains(&r.series.as_str()) {
            order.push(&r.series);
        }
    }
    if !order.is_empty() {
        let groups: Vec<String> = order
            .iter()
            .map(|s| {
                let vals: Vec<String> = c.value_readings.iter().filter(|r| r.series == *s).map(|r| format!("{}: approximately {}", r.period, strip_hedge(&r.approx_value))).collect();
                format!("{s} — {}", vals.join(", "))
            })
            .collect();
        parts.push(format!("Readings: {}.", groups.join("; ")));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::roles::ValueReading;

    fn facts(has_text: bool, garbled: f64, paths: usize, image: f64) -> PageFacts {
        PageFacts { has_text, garbled_share: garbled, drawing_paths: paths, image_area_share: image, has_images: image > 0.0 }
    }

    #[test]
    fn clean_text_page_without_drawings_stays_native() {
        let r = route_page(&facts(true, 0.0, 3, 0.0), &IngestSettings::default());
        assert!(!r.needs_vision() && r.text_ok);
    }

    #[test]
    fn each_signal_alone_sends_a_page_to_vision_at_the_paper_thresholds() {
        let s = IngestSettings::default();
        let garbled = route_page(&facts(true, 0.16, 0, 0.0), &s);
        assert!(garbled.garbled && !garbled.text_ok && garbled.needs_vision());
        assert!(!route_page(&facts(true, 0.15, 0, 0.0), &s).needs_vision(), "15 % is not more than 15 %");
        let chart = route_page(&facts(true, 0.0, 15, 0.0), &s);
        assert!(chart.chart && chart.text_ok && chart.needs_vision());
        assert!(!route_page(&facts(true, 0.0, 14, 0.0), &s).needs_vision());
        let image = route_page(&facts(true, 0.0, 0, 0.05), &s);
        assert!(image.image && image.needs_vision());
        assert!(!route_page(&facts(true, 0.0, 0, 0.049), &s).needs_vision());
        let scan = route_page(&facts(false, 0.0, 0, 0.01), &s);
        assert!(!scan.text_ok && scan.needs_vision(), "a page with an image and no text layer is read by vision");
    }

    #[test]
    fn an_empty_page_is_skipped_not_sent() {
        assert!(!route_page(&facts(false, 0.0, 0, 0.0), &IngestSettings::default()).needs_vision());
    }

    #[test]
    fn thresholds_come_from_settings() {
        let s = IngestSettings { chart_min_paths: 100, ..Default::default() };
        assert!(!route_page(&facts(true, 0.0, 99, 0.0), &s).needs_vision());
    }

    #[test]
    fn drawing_region_ignores_page_backgrounds() {
        let r = drawing_region(&[[0.0, 0.0, 612.0, 792.0], [100.0, 300.0, 200.0, 400.0], [150.0, 350.0, 500.0, 420.0]], 612.0, 792.0);
        assert_eq!(r, Some([100.0, 300.0, 500.0, 420.0]));
        assert_eq!(drawing_region(&[], 612.0, 792.0), None);
    }

    #[test]
    fn data_url_is_standard_base64() {
        assert_eq!(png_data_url(b"Man"), "data:image/png;base64,TWFu");
        assert_eq!(png_data_url(b"Ma"), "data:image/png;base64,TWE=");
        assert_eq!(png_data_url(b"M"), "data:image/png;base64,TQ==");
    }

    fn chart() -> VisionChart {
        VisionChart {
            caption: Some("Comparison of cumulative total return".into()),
            chart_type: "line".into(),
            axis_labels: "year vs index value".into(),
            series: vec!["Company".into(), "S&P 500".into()],
            trend_description: "The company's return rose until 2021, then fell.".into(),
            value_readings: vec![
                ValueReading { series: "Company".into(), period: "2019".into(), approx_value: "approximately 120".into() },
                ValueReading { series: "S&P 500".into(), period: "2019".into(), approx_value: "131".into() },
                ValueReading { series: "Company".into(), period: "2020".into(), approx_value: "~140".into() },
            ],
            region: Some(vec![0.1, 0.5, 0.9, 0.8]),
        }
    }

    fn page() -> Page {
        Page { page: 7, width: 600.0, height: 800.0, text: "Performance graph".into(), signals: super::super::PageSignals { text_ok: true, chart: true, needs_vision: true, ..Default::default() }, ..Default::default() }
    }

    #[test]
    fn chart_document_cites_the_chart_region_with_readings_grouped_by_series() {
        let v = PageVision { page: 7, prose: "ignored: text layer is fine".into(), tables: vec![], charts: vec![chart()], table_confidence: ExtractionConfidence::High, passes: 1 };
        let docs = page_documents("ACME_2022_10K.pdf", &page(), &v, &IngestSettings::default());
        assert_eq!(docs.len(), 1, "native prose is kept, so only the chart is added");
        let d = &docs[0];
        assert_eq!(d.id, "ACME_2022_10K-p7-chart-cv0");
        assert_eq!(d.modality, Modality::Chart);
        assert_eq!(d.bboxes, vec![[60.0, 400.0, 540.0, 640.0]]);
        assert!(d.text.contains("Company — 2019: approximately 120, 2020: approximately 140; S&P 500 — 2019: approximately 131"), "{}", d.text);
        assert_eq!(d.chart.as_ref().unwrap().value_readings[0].2, "120");
    }

    #[test]
    fn low_confidence_vision_tables_are_kept_and_flagged() {
        let t = VisionTable { caption: None, columns: vec!["Item".into(), "2023".into()], rows: vec![vec!["Net sales".into(), "14,694".into()], vec!["Net income".into(), "1,058".into()]] };
        let v = PageVision { page: 7, prose: String::new(), tables: vec![t], charts: vec![], table_confidence: ExtractionConfidence::Low, passes: 3 };
        let docs = page_documents("ACME_2022_10K.pdf", &page(), &v, &IngestSettings::default());
        assert_eq!(docs.len(), 3, "whole table + two rows");
        assert!(docs.iter().all(|d| d.confidence == ExtractionConfidence::Low));
        assert_eq!(docs[1].id, "ACME_2022_10K-p7-table-cvt0r0");
    }

    /// A transport that replays canned chat answers, one per call.
    struct Canned(std::cell::RefCell<std::collections::VecDeque<String>>);
    impl Transport for Canned {
        async fn post_json(&self, _p: &str, _b: String, _t: u64) -> Result<crate::llm::HttpReply, crate::llm::TransportError> {
            let content = self.0.borrow_mut().pop_front().unwrap_or_else(|| "not json".into());
            let body = serde_json::json!({"model": "gpt-4o", "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1500, "completion_tokens": 400}});
            Ok(crate::llm::HttpReply { status: 200, retry_after_s: None, body: body.to_string() })
        }
        async fn sleep_ms(&self, _ms: u64) {}
    }

    fn answer(value: &str) -> String {
        serde_json::json!({"prose_text": "", "charts": [], "tables": [{"caption": null, "columns": ["Item", "2023"], "rows": [["Net sales", value], ["Net income", "1,058"]]}]}).to_string()
    }

    fn table_page() -> Extracted {
        let mut p = page();
        p.signals.text_ok = false;
        Extracted { source: "scan.pdf".into(), pages: vec![p], ..Default::default() }
    }

    #[test]
    fn third_pass_that_confirms_the_first_settles_high_and_the_cache_makes_a_rerun_free() {
        let s = Settings::paper();
        let t = Canned(std::cell::RefCell::new([answer("14,694"), answer("41,694"), answer("14,694")].map(String::from).into()));
        let client = LlmClient::new(&t, &s);
        let ex = table_page();
        let mut cache = VisionCache::default();
        let image = |_: u32| Ok::<_, String>(png_data_url(b"png"));
        let r = futures::executor::block_on(run(&client, &ex, &[7], "hash", &mut cache, |p| std::future::ready(image(p))));
        assert_eq!(client.records().len(), 3, "1≠2, so a third pass; 1≈3");
        assert_eq!(r.pages[0].table_confidence, ExtractionConfidence::High);
        assert_eq!(r.pages[0].tables[0].rows[0][1], "14,694");
        assert_eq!(r.pages[0].passes, 3);
        assert_eq!(cache.entries.len(), 1);

        let again = LlmClient::new(&t, &s);
        let r2 = futures::executor::block_on(run(&again, &ex, &[7], "hash", &mut cache, |p| std::future::ready(image(p))));
        assert_eq!((again.records().len(), r2.cached_pages), (0, 1));
        assert_eq!(r2.pages, r.pages);
    }

    #[test]
    fn a_failed_vision_call_leaves_the_page_native_with_a_warning() {
        let s = Settings::paper();
        let t = Canned(std::cell::RefCell::new(Default::default()));
        let client = LlmClient::new(&t, &s);
        let ex = table_page();
        let mut cache = VisionCache::default();
        let image = |_: u32| Ok::<_, String>(png_data_url(b"png"));
        let r = futures::executor::block_on(run(&client, &ex, &[7], "hash", &mut cache, |p| std::future::ready(image(p))));
        assert!(r.pages.is_empty() && cache.entries.is_empty(), "nothing invented, nothing cached");
        assert!(r.warnings[0].contains("keeps its native documents"), "{:?}", r.warnings);
        let no_image = |_: u32| Err::<String, _>("page 7 could not be drawn".to_string());
        let r = futures::executor::block_on(run(&client, &ex, &[7], "hash", &mut cache, |p| std::future::ready(no_image(p))));
        assert!(r.warnings[0].contains("could not be drawn"));
    }

    #[test]
    fn garbled_only_pages_go_to_the_chat_model_and_chart_pages_to_the_vision_model() {
        let mut p = page();
        assert_eq!(first_pass_model(&p, "gpt-4o", "gpt-4o-mini"), "gpt-4o");
        p.signals = super::super::PageSignals { garbled: true, needs_vision: true, ..Default::default() };
        assert_eq!(first_pass_model(&p, "gpt-4o", "gpt-4o-mini"), "gpt-4o-mini");
    }

    /// Best Buy FY2019 10-K: page 25 is the five-year total-return graph (a raster image).
    #[cfg(feature = "pdf")]
    #[test]
    fn performance_graph_page_is_flagged_and_its_region_is_the_graph() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/financebench/pdfs/BESTBUY_2019_10K.pdf");
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("corpus not available; skipping");
            return;
        };
        let ex = crate::ingest::extract(&bytes, "BESTBUY_2019_10K.pdf", &IngestSettings::default());
        let graph = &ex.pages[24].signals;
        assert!(graph.chart && graph.image && graph.text_ok && graph.needs_vision, "{graph:?}");
        let r = graph.drawing_region.expect("a region");
        assert!((r[0] - 75.9).abs() < 1.0 && (r[1] - 89.5).abs() < 1.0 && (r[2] - 536.1).abs() < 1.0 && (r[3] - 369.1).abs() < 1.0, "{r:?}");
        assert!(!ex.pages[15].signals.needs_vision, "a prose page (16, risk factors) stays native");
        let c = signal_counts(&ex);
        assert_eq!((c.pages, c.garbled, c.image), (107, 0, 1));
        assert_eq!(pages_to_send(&ex, VisionMode::Flagged).len(), c.needs_vision);
        assert!(pages_to_send(&ex, VisionMode::Off).is_empty());
    }

    #[test]
    fn the_plan_names_each_pages_signals_and_a_cached_page_costs_nothing() {
        let s = Settings::paper();
        let mut ex = table_page();
        let mut prose = page();
        prose.page = 8;
        prose.signals = super::super::PageSignals { text_ok: true, ..Default::default() };
        ex.pages.push(prose);
        let p = plan(&ex, VisionMode::Flagged, "sha", &VisionCache::default(), &s);
        assert_eq!(p.page_numbers(), vec![7], "the prose page is not flagged");
        assert_eq!(p.pages[0].flags, vec!["chart", "no usable text"]);
        assert_eq!((p.estimate.calls, p.all_cached()), (1, false));
        assert_eq!(plan(&ex, VisionMode::All, "sha", &VisionCache::default(), &s).page_numbers(), vec![7, 8]);

        let v = PageVision { page: 7, prose: String::new(), tables: vec![], charts: vec![chart()], table_confidence: ExtractionConfidence::High, passes: 1 };
        let cache = VisionCache { entries: [(cache_key("sha", 7, &s), v)].into_iter().collect() };
        let again = plan(&ex, VisionMode::Flagged, "sha", &cache, &s);
        assert!(again.pages[0].cached && again.all_cached());
        assert_eq!(again.estimate.cost_usd, Some(0.0));
        assert!(!plan(&ex, VisionMode::Flagged, "other file", &cache, &s).all_cached(), "the cache is per file");
    }

    #[test]
    fn vision_ids_are_told_apart_from_native_ids() {
        for native in ["ACME_10K-p3-text-c0", "ACME_10K-p3-table-ct0r2", "ACME_10K-p3-table-ct1", "my-cv-file-p1-text-c4"] {
            assert!(!is_vision_doc(native), "{native}");
        }
        for vision in ["ACME_10K-p3-chart-cv0", "ACME_10K-p3-table-cvt0r2", "ACME_10K-p3-text-cv1"] {
            assert!(is_vision_doc(vision), "{vision}");
        }
    }

    #[test]
    fn actual_spend_sums_the_calls_and_an_unpriced_call_leaves_it_unpriced() {
        let rec = |cost: Option<f64>| crate::llm::CallRecord {
            role: "page_vision".into(),
            claim_id: None,
            model: "gpt-4o".into(),
            attempts: 1,
            usage: crate::llm::Usage { input_tokens: 1500, output_tokens: 400 },
            cost_usd: cost,
            latency_ms: 10.0,
            failure: None,
        };
        let a = actual(&[rec(Some(0.01)), rec(Some(0.02))]);
        assert_eq!((a.calls, a.input_tokens, a.output_tokens), (2, 3000, 800));
        assert!((a.cost_usd.unwrap() - 0.03).abs() < 1e-9);
        assert_eq!(actual(&[rec(Some(0.01)), rec(None)]).cost_usd, None);
        assert_eq!(actual(&[]), VisionActual { cost_usd: Some(0.0), ..Default::default() });
    }

    /// Canned answers; cancelled once `cancel_after` calls have been answered (the user's Cancel).
    struct Cancelling(std::cell::Cell<u32>, u32);
    impl Transport for Cancelling {
        async fn post_json(&self, _p: &str, _b: String, _t: u64) -> Result<crate::llm::HttpReply, crate::llm::TransportError> {
            self.0.set(self.0.get() + 1);
            let content = serde_json::json!({"prose_text": "", "charts": [], "tables": []}).to_string();
            let body = serde_json::json!({"model": "gpt-4o", "choices": [{"message": {"content": content}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
            Ok(crate::llm::HttpReply { status: 200, retry_after_s: None, body: body.to_string() })
        }
        async fn sleep_ms(&self, _ms: u64) {}
        fn cancelled(&self) -> bool {
            self.0.get() >= self.1
        }
    }

    #[test]
    fn cancel_stops_before_the_next_page_and_keeps_what_was_read() {
        let s = Settings::paper();
        let mut ex = table_page();
        for n in [8, 9] {
            let mut p = page();
            p.page = n;
            ex.pages.push(p);
        }
        ex.pages.iter_mut().for_each(|p| p.tables = vec![]);
        let t = Cancelling(std::cell::Cell::new(0), 1);
        let client = LlmClient::new(&t, &s);
        let mut cache = VisionCache::default();
        let mut rendered = vec![];
        let r = futures::executor::block_on(run(&client, &ex, &[7, 8, 9], "sha", &mut cache, |p| {
            rendered.push(p);
            std::future::ready(Ok(png_data_url(b"png")))
        }));
        assert!(r.stopped);
        assert_eq!(r.pages.iter().map(|p| p.page).collect::<Vec<_>>(), vec![7]);
        assert_eq!((t.0.get(), rendered), (1, vec![7]), "pages 8 and 9 are neither rendered nor sent");
        assert_eq!(cache.entries.len(), 1, "the page read before Cancel is cached");
    }

    #[test]
    fn vision_mode_is_a_setting_off_by_default() {
        assert_eq!(Settings::paper().ingest.vision_mode, VisionMode::Off);
        let s = Settings::from_toml("[ingest]\nvision_mode = \"flagged\"\nchart_min_paths = 40\n").unwrap();
        assert_eq!((s.ingest.vision_mode, s.ingest.chart_min_paths), (VisionMode::Flagged, 40));
        assert!(Settings::from_toml("[ingest]\nvision_mode = \"sometimes\"\n").is_err());
    }

    #[test]
    fn cache_key_changes_with_page_file_and_model() {
        let s = Settings::paper();
        let a = cache_key(&content_hash(b"pdf one"), 3, &s);
        assert_ne!(a, cache_key(&content_hash(b"pdf two"), 3, &s));
        assert_ne!(a, cache_key(&content_hash(b"pdf one"), 4, &s));
        let mut m = s.clone();
        m.models.vision_model = "gpt-4o-mini".into();
        assert_ne!(a, cache_key(&content_hash(b"pdf one"), 3, &m));
        assert_eq!(a, cache_key(&content_hash(b"pdf one"), 3, &s));
    }

    #[test]
    fn estimate_prices_priced_models_and_leaves_unpriced_ones_unpriced() {
        let ex = Extracted { source: "a.pdf".into(), pages: vec![page()], ..Default::default() };
        let s = Settings::paper();
        let e = estimate(&ex, &[7], &[], &s);
        assert_eq!((e.pages, e.calls, e.max_calls), (1, 1, 3));
        assert!(e.input_tokens > s.ingest.vision_image_tokens);
        assert!(e.cost_usd.unwrap() > 0.0);
        let mut u = s.clone();
        u.models.vision_model = "local-llava".into();
        assert_eq!(estimate(&ex, &[7], &[], &u).cost_usd, None);
        assert_eq!(estimate(&ex, &[7], &[7], &s).calls, 0, "a cached page costs nothing");
    }
}
