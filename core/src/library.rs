//! The worker's state as a plain value: the corpus of ingested documents, the offline embedder, and
//! each page's extracted text. The web worker is a thin shell around `Library::handle`; the same
//! code is tested natively.
//!
//! Persistence (issue: corpus persists across reloads): every ingest and removal queues a
//! `StoreOp` (`take_store_ops`) that the worker applies to IndexedDB, and `restore` rebuilds the
//! library from the stored entries at startup. What is kept and how it is checked is `store.rs`.

use crate::config::IngestSettings;
use crate::ingest::vision::{self, PageVision, VisionCache};
use crate::ingest::Extracted;
use crate::protocol::{FromWorker, SourceInfo, ToWorker};
use crate::retrieve::embed::{embedding_inputs, Embedder, OfflineEmbedder};
use crate::store::{self, StoreOp, StoredFile};
use crate::retrieve::index::Corpus;
use std::collections::BTreeMap;

pub struct Library {
    pub corpus: Corpus,
    embedder: OfflineEmbedder,
    /// source → page texts (index 0 = page 1).
    pages: BTreeMap<String, Vec<String>>,
    infos: BTreeMap<String, SourceInfo>,
    /// source → the PDF's bytes, kept so the viewer can render any page.
    raw: BTreeMap<String, Vec<u8>>,
    /// source → content key (SHA-256) of its bytes: the store entry, and how a re-drop is recognised.
    keys: BTreeMap<String, String>,
    /// Store writes not yet handed to the shell, in order.
    store_ops: Vec<StoreOp>,
    /// Files parsed and embedded since this library was created (a re-drop answered from the
    /// library, or a restore, does not count).
    pub parsed: u32,
    /// The last document rendered, parsed once for next/previous page.
    rendering: Option<(String, hayro_syntax::Pdf)>,
    /// source → its extraction without blocks (`vision::for_vision`): what the vision path plans and
    /// merges with. Kept from ingest; after a restore made again from the stored PDF on first use.
    extracted: BTreeMap<String, Extracted>,
    /// source → the vision answers stored with the file.
    vision: BTreeMap<String, VisionCache>,
}

impl Default for Library {
    fn default() -> Self {
        Self::new()
    }
}

impl Library {
    pub fn new() -> Self {
        let embedder = OfflineEmbedder::default();
        let corpus = Corpus::new(embedder.name(), embedder.dims());
        Library {
            corpus,
            embedder,
            pages: BTreeMap::new(),
            infos: BTreeMap::new(),
            raw: BTreeMap::new(),
            keys: BTreeMap::new(),
            store_ops: vec![],
            parsed: 0,
            rendering: None,
            extracted: BTreeMap::new(),
            vision: BTreeMap::new(),
        }
    }

    /// The store writes queued since the last call, oldest first; the shell applies them in order.
    pub fn take_store_ops(&mut self) -> Vec<StoreOp> {
        std::mem::take(&mut self.store_ops)
    }

    /// Rebuild the library from the store's raw entries (key, bytes), as read at startup. Damaged,
    /// old-schema and superseded entries are queued for deletion; entries embedded by another
    /// embedder are embedded again from their stored documents (no re-parse) and written back.
    /// Returns the restored documents and, when something was dropped, a one-line notice.
    pub fn restore(&mut self, entries: Vec<(String, Vec<u8>)>) -> (Vec<SourceInfo>, Option<String>) {
        let plan = store::plan_restore(entries, &self.corpus.embedder);
        self.store_ops.extend(plan.discard.into_iter().map(|key| StoreOp::Delete { key }));
        let mut notice = plan.notice;
        for f in plan.keep {
            self.install(f, false, &mut notice);
        }
        for mut f in plan.reembed {
            (f.vectors, f.stats) = {
                let (v, st) = self.embedder.embed_documents_with_stats(&embedding_inputs(&f.docs));
                (v, Some(st))
            };
            f.embedder = self.corpus.embedder.clone();
            self.install(f, true, &mut notice);
        }
        (self.sources(), notice)
    }

    fn install(&mut self, f: StoredFile, write_back: bool, notice: &mut Option<String>) {
        let name = f.info.source.clone();
        if write_back {
            match store::encode(&f) {
                Ok(bytes) => self.store_ops.push(StoreOp::Put { key: f.key.clone(), bytes }),
                Err(e) => *notice = Some(e),
            }
        }
        if let Err(e) = self.corpus.add(f.docs, f.vectors) {
            self.store_ops.push(StoreOp::Delete { key: f.key });
            *notice = Some(format!("{name} could not be restored ({e}) and was removed from the library: drop it again."));
            return;
        }
        if let Some(st) = f.stats {
            self.corpus.set_source_stats(&name, st);
        }
        self.pages.insert(name.clone(), f.pages);
        self.infos.insert(name.clone(), f.info);
        self.raw.insert(name.clone(), f.pdf);
        self.vision.insert(name.clone(), f.vision);
        self.keys.insert(name, f.key);
    }

    /// The summary of `name` if exactly these bytes are already in the library.
    fn already_has(&self, name: &str, key: &str) -> Option<SourceInfo> {
        (self.keys.get(name).map(String::as_str) == Some(key)).then(|| self.infos.get(name).cloned()).flatten()
    }

    /// Parse, chunk, embed and index one PDF. A file that yields no text is an error the user can act on.
    pub fn ingest(
        &mut self,
        bytes: &[u8],
        name: &str,
        settings: &IngestSettings,
        now_ms: &dyn Fn() -> f64,
        progress: &mut dyn FnMut(u32, u32),
    ) -> Result<SourceInfo, String> {
        self.ingest_keyed(bytes, store::content_key(bytes), name, settings, now_ms, progress)
    }

    fn ingest_keyed(
        &mut self,
        bytes: &[u8],
        key: String,
        name: &str,
        settings: &IngestSettings,
        now_ms: &dyn Fn() -> f64,
        progress: &mut dyn FnMut(u32, u32),
    ) -> Result<SourceInfo, String> {
        let t0 = now_ms();
        if !bytes.starts_with(b"%PDF") && !bytes.windows(5).take(1024).any(|w| w == b"%PDF-") {
            return Err(format!("{name} is not a PDF file (it does not start with %PDF)"));
        }
        let ex = crate::ingest::extract_with_progress(bytes, name, settings, progress);
        if ex.encrypted && ex.pages.iter().all(|p| p.text.trim().is_empty()) {
            return Err(format!("{name} is encrypted and no text could be read: save an unprotected copy and drop it again"));
        }
        if ex.pages.is_empty() {
            let why = ex.warnings.first().cloned().unwrap_or_else(|| "no pages could be read".into());
            return Err(format!("{name} could not be read: {why}"));
        }
        let docs = crate::ingest::documents(&ex, settings);
        if docs.is_empty() {
            return Err(format!(
                "{name} has {} page(s) but no extractable text (a scanned document?): it needs the vision path, which is not enabled",
                ex.pages.len()
            ));
        }
        // Spec §5: each document is embedded with its page heading; IDF weighting within the file.
        let inputs = crate::retrieve::embed::embedding_inputs(&docs);
        let (vectors, stats) = self.embedder.embed_documents_with_stats(&inputs);
        let n_docs = docs.len();
        self.corpus.remove_source(name);
        let kept = (docs.clone(), vectors.clone());
        self.corpus.add(docs, vectors).map_err(|e| format!("{name} could not be indexed: {e}"))?;
        self.corpus.set_source_stats(name, stats.clone());
        self.parsed += 1;
        let info = SourceInfo {
            source: name.to_string(),
            pages: ex.pages.len() as u32,
            documents: n_docs,
            tables: ex.pages.iter().map(|p| p.tables.len()).sum(),
            vision_pages: ex.pages.iter().filter(|p| p.signals.needs_vision).count(),
            signals: vision::signal_counts(&ex),
            vision_read: 0,
            warnings: ex.warnings.clone(),
            ingest_ms: now_ms() - t0,
        };
        let pages: Vec<String> = ex.pages.iter().map(|p| p.text.clone()).collect();
        let entry = StoredFile {
            key: key.clone(),
            embedder: self.corpus.embedder.clone(),
            info: info.clone(),
            pages: pages.clone(),
            docs: kept.0,
            vectors: kept.1,
            stats: Some(stats),
            vision: VisionCache::default(),
            pdf: bytes.to_vec(),
        };
        // Put before delete: a crash in between leaves two entries for one name, which restore resolves.
        if let Ok(b) = store::encode(&entry) {
            self.store_ops.push(StoreOp::Put { key: key.clone(), bytes: b });
        }
        if let Some(old) = self.keys.insert(name.to_string(), key).filter(|old| *old != entry.key) {
            self.store_ops.push(StoreOp::Delete { key: old });
        }
        self.pages.insert(name.to_string(), pages);
        self.infos.insert(name.to_string(), info.clone());
        self.raw.insert(name.to_string(), entry.pdf);
        self.extracted.insert(name.to_string(), vision::for_vision(&ex));
        self.vision.insert(name.to_string(), VisionCache::default());
        if self.rendering.as_ref().is_some_and(|(s, _)| s == name) {
            self.rendering = None;
        }
        Ok(info)
    }

    pub fn sources(&self) -> Vec<SourceInfo> {
        self.infos.values().cloned().collect()
    }

    pub fn page_text(&self, source: &str, page: u32) -> Option<&str> {
        self.pages.get(source)?.get(page.checked_sub(1)? as usize).map(String::as_str)
    }

    /// A page as PNG at `scale` pixels per point.
    pub fn render_page(&mut self, source: &str, page: u32, scale: f32) -> Result<crate::render::RenderedPage, String> {
        let pdf = self.renderable(source)?;
        crate::render::render_pdf_page(pdf, page, scale).map_err(|e| format!("{source}: {e}"))
    }

    /// One cited region of a loaded document as a PNG crop (see `render::render_pdf_crop`).
    pub fn render_crop(&mut self, source: &str, page: u32, bbox: crate::corpus::BBox, scale: f32, margin: f32) -> Result<crate::render::RenderedPage, String> {
        let pdf = self.renderable(source)?;
        crate::render::render_pdf_crop(pdf, page, bbox, scale, margin).map_err(|e| format!("{source}: {e}"))
    }

    /// The parsed document to render from, kept between renders of the same file.
    fn renderable(&mut self, source: &str) -> Result<&hayro_syntax::Pdf, String> {
        if !self.rendering.as_ref().is_some_and(|(s, _)| s == source) {
            let bytes = self.raw.get(source).ok_or_else(|| format!("{source} is not loaded: add the PDF to see its pages"))?;
            let pdf = hayro_syntax::Pdf::new(bytes.clone()).map_err(|e| format!("{source} could not be opened for rendering ({e:?})"))?;
            self.rendering = Some((source.to_string(), pdf));
        }
        self.rendering.as_ref().map(|(_, pdf)| pdf).ok_or_else(|| "no document".to_string())
    }

    /// The file's extraction for the vision path, made again from the stored PDF when the library
    /// was restored (restores never parse; only a vision plan needs the page signals back).
    fn extracted_for(&mut self, source: &str, settings: &IngestSettings) -> Result<&Extracted, String> {
        if !self.extracted.contains_key(source) {
            let bytes = self.raw.get(source).ok_or_else(|| format!("{source} is not loaded: add the PDF first"))?;
            let ex = crate::ingest::extract(bytes, source, settings);
            self.extracted.insert(source.to_string(), vision::for_vision(&ex));
        }
        self.extracted.get(source).ok_or_else(|| format!("{source} is not loaded"))
    }

    /// Fold a vision run's pages into `source`'s documents (native documents kept, earlier vision
    /// documents replaced), embed the file again and store it with its vision cache (§4.6).
    pub fn apply_vision(&mut self, source: &str, pages: &[PageVision], cache: VisionCache, settings: &IngestSettings) -> Result<SourceInfo, String> {
        let ex = self.extracted_for(source, settings)?.clone();
        let key = self.keys.get(source).cloned().ok_or_else(|| format!("{source} is not loaded"))?;
        let native: Vec<crate::corpus::Doc> = self.corpus.docs.iter().filter(|d| d.source == source && !vision::is_vision_doc(&d.id)).cloned().collect();
        let docs = vision::merge(native, &ex, pages, settings);
        let (vectors, stats) = self.embedder.embed_documents_with_stats(&embedding_inputs(&docs));
        self.corpus.remove_source(source);
        self.corpus.add(docs.clone(), vectors.clone()).map_err(|e| format!("{source} could not be indexed: {e}"))?;
        self.corpus.set_source_stats(source, stats.clone());
        let info = self.infos.get_mut(source).ok_or_else(|| format!("{source} is not loaded"))?;
        info.documents = docs.len();
        info.vision_read = pages.len();
        let info = info.clone();
        // Only this file's answers are stored with it (keys start with its content key).
        let prefix = format!("{key}:");
        let mine = VisionCache { entries: cache.entries.into_iter().filter(|(k, _)| k.starts_with(&prefix)).collect() };
        let entry = StoredFile {
            key: key.clone(),
            embedder: self.corpus.embedder.clone(),
            info: info.clone(),
            pages: self.pages.get(source).cloned().unwrap_or_default(),
            docs,
            vectors,
            stats: Some(stats),
            vision: mine.clone(),
            pdf: self.raw.get(source).cloned().unwrap_or_default(),
        };
        match store::encode(&entry) {
            Ok(bytes) => self.store_ops.push(StoreOp::Put { key, bytes }),
            Err(e) => return Err(e),
        }
        self.vision.insert(source.to_string(), mine);
        Ok(info)
    }

    /// Handle one message. `bytes` accompanies `Ingest`.
    pub fn handle(
        &mut self,
        msg: ToWorker,
        bytes: Option<&[u8]>,
        now_ms: &dyn Fn() -> f64,
        emit: &mut dyn FnMut(FromWorker),
    ) {
        match msg {
            ToWorker::Ingest { id, name, settings } => {
                let Some(bytes) = bytes else {
                    emit(FromWorker::Failed { id, error: format!("{name}: no file contents arrived") });
                    return;
                };
                let key = store::content_key(bytes);
                if let Some(info) = self.already_has(&name, &key) {
                    emit(FromWorker::Ingested { id, info, already: true });
                    return;
                }
                let n2 = name.clone();
                let mut report = |done: u32, total: u32| emit(FromWorker::Progress { id, name: n2.clone(), done, total });
                let r = self.ingest_keyed(bytes, key, &name, &settings, now_ms, &mut report);
                emit(match r {
                    Ok(info) => FromWorker::Ingested { id, info, already: false },
                    Err(error) => FromWorker::Failed { id, error },
                });
            }
            ToWorker::Search { id, query, k, modality, settings } => {
                let q = self.embedder.embed_query(&query, self.corpus.term_stats(&self.embedder));
                let hits = self.corpus.search(&q, &query, k, modality, &settings);
                emit(FromWorker::Hits { id, hits });
            }
            ToWorker::Remove { id, source } => {
                self.corpus.remove_source(&source);
                self.pages.remove(&source);
                self.infos.remove(&source);
                self.raw.remove(&source);
                self.extracted.remove(&source);
                self.vision.remove(&source);
                if let Some(key) = self.keys.remove(&source) {
                    self.store_ops.push(StoreOp::Delete { key });
                }
                if self.rendering.as_ref().is_some_and(|(s, _)| *s == source) {
                    self.rendering = None;
                }
                emit(FromWorker::Sources { id, sources: self.sources() });
            }
            ToWorker::List { id } => emit(FromWorker::Sources { id, sources: self.sources() }),
            ToWorker::PageText { id, source, page } => match self.page_text(&source, page) {
                Some(t) => emit(FromWorker::PageText { id, source, page, text: t.to_string() }),
                None if !self.pages.contains_key(&source) => {
                    emit(FromWorker::Failed { id, error: format!("{source} is not loaded: add the PDF to see its text") })
                }
                None => emit(FromWorker::Failed { id, error: format!("{source} has no page {page}") }),
            },
            ToWorker::RenderPage { id, source, page, scale } => {
                let t0 = now_ms();
                let r = self.render_page(&source, page, scale);
                emit(image_reply(id, source, page, r, now_ms() - t0));
            }
            ToWorker::RenderCrop { id, source, page, bbox, scale, margin } => {
                let t0 = now_ms();
                let r = self.render_crop(&source, page, bbox, scale, margin);
                emit(image_reply(id, source, page, r, now_ms() - t0));
            }
            ToWorker::VisionPages { id, source, settings } => {
                let content = self.keys.get(&source).cloned().unwrap_or_default();
                match self.extracted_for(&source, &settings).cloned() {
                    Ok(extracted) => {
                        let cache = self.vision.get(&source).cloned().unwrap_or_default();
                        emit(FromWorker::Vision { id, source, content, extracted, cache })
                    }
                    Err(error) => emit(FromWorker::Failed { id, error }),
                }
            }
            ToWorker::VisionApply { id, source, pages, cache, settings } => emit(match self.apply_vision(&source, &pages, cache, &settings) {
                Ok(info) => FromWorker::Ingested { id, info, already: false },
                Err(error) => FromWorker::Failed { id, error },
            }),
            // Past runs are not the library's: the worker shell serves them from their own store.
            ToWorker::SaveRun { id, .. } | ToWorker::ListRuns { id } | ToWorker::OpenRun { id, .. } | ToWorker::DeleteRun { id, .. } => {
                emit(FromWorker::Failed { id, error: "past runs are kept by the worker, not the document library".into() })
            }
        }
    }
}

/// The reply to a render request: the image, or the reason there is none.
fn image_reply(id: u64, source: String, page: u32, r: Result<crate::render::RenderedPage, String>, render_ms: f64) -> FromWorker {
    match r {
        Ok(r) => FromWorker::PageImage { id, source, page, pages: r.pages, width_px: r.width_px, height_px: r.height_px, page_size: r.page_size, render_ms, png: r.png },
        Err(error) => FromWorker::Failed { id, error },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ingested_pdf_renders_any_page_until_it_is_removed() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/financebench/pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf");
        let Ok(bytes) = std::fs::read(path) else { return };
        let mut lib = Library::new();
        let mut out = vec![];
        let name = "amcor.pdf".to_string();
        lib.handle(ToWorker::Ingest { id: 1, name: name.clone(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.last(), Some(FromWorker::Ingested { .. })), "{:?}", out.last());
        lib.handle(ToWorker::RenderPage { id: 2, source: name.clone(), page: 1, scale: 1.0 }, None, &|| 0.0, &mut |m| out.push(m));
        match out.last() {
            Some(FromWorker::PageImage { id: 2, width_px, height_px, page_size, png, pages, .. }) => {
                assert_eq!((*width_px, *height_px), (page_size.0 as u32, page_size.1 as u32));
                assert!(png.starts_with(b"\x89PNG") && *pages >= 1);
            }
            other => panic!("{other:?}"),
        }
        // A cited region comes back as a crop of the region plus its margin.
        let crop = ToWorker::RenderCrop { id: 5, source: name.clone(), page: 1, bbox: [100.0, 100.0, 300.0, 160.0], scale: 2.0, margin: 10.0 };
        lib.handle(crop, None, &|| 0.0, &mut |m| out.push(m));
        match out.last() {
            Some(FromWorker::PageImage { id: 5, width_px, height_px, png, .. }) => {
                assert_eq!((*width_px, *height_px), (440, 160), "(200 + 2·10) × 2 by (60 + 2·10) × 2");
                assert!(png.starts_with(b"\x89PNG"));
            }
            other => panic!("{other:?}"),
        }
        lib.handle(ToWorker::Remove { id: 3, source: name.clone() }, None, &|| 0.0, &mut |m| out.push(m));
        lib.handle(ToWorker::RenderPage { id: 4, source: name, page: 1, scale: 1.0 }, None, &|| 0.0, &mut |m| out.push(m));
        match out.last() {
            Some(FromWorker::Failed { id: 4, error }) => assert!(error.contains("not loaded"), "{error}"),
            other => panic!("{other:?}"),
        }
    }

    fn amcor() -> Option<Vec<u8>> {
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/financebench/pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf")).ok()
    }

    /// Apply queued store writes to a map standing in for IndexedDB.
    fn apply(db: &mut BTreeMap<String, Vec<u8>>, lib: &mut Library) {
        for op in lib.take_store_ops() {
            match op {
                StoreOp::Put { key, bytes } => db.insert(key, bytes),
                StoreOp::Delete { key } => db.remove(&key),
            };
        }
    }

    #[test]
    fn a_reloaded_library_answers_from_the_store_without_parsing_again() {
        let Some(bytes) = amcor() else { return };
        let name = "amcor.pdf".to_string();
        let mut db = BTreeMap::new();
        let mut lib = Library::new();
        let mut out = vec![];
        lib.handle(ToWorker::Ingest { id: 1, name: name.clone(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        apply(&mut db, &mut lib);
        assert_eq!(db.len(), 1);
        assert_eq!(db.keys().next(), Some(&store::content_key(&bytes)));

        // Reload: a new library from the store.
        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        apply(&mut db, &mut lib);
        assert_eq!((sources.len(), notice, db.len(), lib.parsed), (1, None, 1, 0));
        let mut out = vec![];
        let q = ToWorker::Search { id: 2, query: "supplemental indenture guarantee".into(), k: 3, modality: None, settings: Default::default() };
        lib.handle(q, None, &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(&out[0], FromWorker::Hits { hits, .. } if !hits.is_empty() && hits[0].doc.source == name));
        lib.handle(ToWorker::RenderPage { id: 3, source: name.clone(), page: 1, scale: 0.5 }, None, &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.last(), Some(FromWorker::PageImage { .. })), "{:?}", out.last());

        // The same file dropped again is answered from the library.
        lib.handle(ToWorker::Ingest { id: 4, name: name.clone(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.last(), Some(FromWorker::Ingested { already: true, .. })), "{:?}", out.last());
        assert_eq!(lib.parsed, 0);
        assert!(lib.take_store_ops().is_empty());

        // Removing it removes the entry.
        lib.handle(ToWorker::Remove { id: 5, source: name }, None, &|| 0.0, &mut |m| out.push(m));
        apply(&mut db, &mut lib);
        assert!(db.is_empty());
    }

    /// The browser's vision path as the worker sees it: the app asks for the pages, runs the model
    /// (here: a canned chart answer), and hands the answers back; the chart joins the file's
    /// documents with its region, is stored, and after a reload the plan finds every page cached.
    #[test]
    fn vision_answers_join_the_file_are_stored_and_a_reload_finds_them_cached() {
        use crate::config::{Modality, Settings, VisionMode};
        use crate::ingest::vision::{cache_key, plan, PageVision, VisionCache};
        use crate::llm::roles::{ValueReading, VisionChart};
        let Some(bytes) = amcor() else { return };
        let name = "amcor.pdf".to_string();
        let s = Settings::paper();
        let mut db = BTreeMap::new();
        let mut lib = Library::new();
        let mut out = vec![];
        lib.handle(ToWorker::Ingest { id: 1, name: name.clone(), settings: s.ingest.clone() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        apply(&mut db, &mut lib);
        let Some(FromWorker::Ingested { info, .. }) = out.pop() else { panic!("not ingested") };
        assert_eq!((info.signals.needs_vision, info.vision_pages, info.vision_read), (1, 1, 0), "{:?}", info.signals);

        let pages = |lib: &mut Library| {
            let mut out = vec![];
            lib.handle(ToWorker::VisionPages { id: 2, source: "amcor.pdf".into(), settings: Settings::paper().ingest }, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::Vision { content, extracted, cache, .. }) => (content, extracted, cache),
                other => panic!("{other:?}"),
            }
        };
        let (content, ex, cache) = pages(&mut lib);
        assert_eq!(content, store::content_key(&bytes));
        assert!(ex.pages.iter().all(|p| p.blocks.is_empty()) && ex.pages.len() == info.pages as usize);
        let p = plan(&ex, VisionMode::Flagged, &content, &cache, &s);
        assert_eq!((p.pages.len(), p.estimate.calls), (1, 1));
        let page = p.pages[0].page;
        let chart = VisionChart {
            caption: Some("Net sales".into()),
            chart_type: "bar".into(),
            axis_labels: "year vs USD millions".into(),
            series: vec!["Net sales".into()],
            trend_description: "Net sales rose every year.".into(),
            value_readings: vec![ValueReading { series: "Net sales".into(), period: "2021".into(), approx_value: "12,861".into() }],
            region: Some(vec![0.1, 0.2, 0.9, 0.6]),
        };
        let v = PageVision { page, prose: String::new(), tables: vec![], charts: vec![chart], table_confidence: Default::default(), passes: 1 };
        let mut fresh = VisionCache::default();
        fresh.entries.insert(cache_key(&content, page, &s), v.clone());
        fresh.entries.insert(cache_key("another file", page, &s), v.clone());
        let docs_before = info.documents;
        for round in 0..2 {
            lib.handle(ToWorker::VisionApply { id: 3, source: name.clone(), pages: vec![v.clone()], cache: fresh.clone(), settings: s.ingest.clone() }, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::Ingested { info, .. }) => assert_eq!((info.documents, info.vision_read), (docs_before + 1, 1), "round {round}: one chart, not one per apply"),
                other => panic!("{other:?}"),
            }
        }
        apply(&mut db, &mut lib);
        let search = |lib: &mut Library| {
            let mut out = vec![];
            let q = ToWorker::Search { id: 4, query: "net sales trend".into(), k: 3, modality: Some(Modality::Chart), settings: Default::default() };
            lib.handle(q, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::Hits { hits, .. }) => hits,
                other => panic!("{other:?}"),
            }
        };
        let hits = search(&mut lib);
        assert_eq!(hits.len(), 1);
        assert!(hits[0].doc.id.ends_with("-chart-cv0") && hits[0].doc.page == page);
        let (w, h) = (ex.pages[page as usize - 1].width, ex.pages[page as usize - 1].height);
        assert_eq!(hits[0].doc.bboxes, vec![[0.1 * w, 0.2 * h, 0.9 * w, 0.6 * h]], "the chart cites its region");

        // Reload: the chart is back without parsing, and the plan needs no call.
        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        assert_eq!((sources[0].vision_read, notice, lib.parsed), (1, None, 0));
        assert_eq!(search(&mut lib).len(), 1);
        let (content2, ex2, cache2) = pages(&mut lib);
        assert_eq!(cache2.entries.len(), 1, "only this file's answers are stored with it");
        let again = plan(&ex2, VisionMode::Flagged, &content2, &cache2, &s);
        assert!(again.all_cached(), "{again:?}");
    }

    #[test]
    fn a_damaged_entry_is_dropped_with_a_notice_and_the_rest_restores() {
        let Some(bytes) = amcor() else { return };
        let mut db = BTreeMap::new();
        let mut lib = Library::new();
        lib.handle(ToWorker::Ingest { id: 1, name: "a.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        apply(&mut db, &mut lib);
        db.insert("bad".into(), b"{not json".to_vec());
        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        apply(&mut db, &mut lib);
        assert_eq!(sources.len(), 1);
        assert!(notice.is_some_and(|n| n.contains("could not be read")));
        assert!(!db.contains_key("bad") && db.len() == 1);
    }

    #[test]
    fn an_entry_from_another_embedder_is_embedded_again_not_mixed_in() {
        let Some(bytes) = amcor() else { return };
        let mut lib = Library::new();
        lib.handle(ToWorker::Ingest { id: 1, name: "a.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        let Some(StoreOp::Put { key, bytes: entry }) = lib.take_store_ops().pop() else { panic!("no put") };
        // The same file as another embedder would have stored it: foreign vectors, no IDF share.
        let mut f = store::decode(&key, &entry).unwrap();
        f.embedder = "api-text-embedding-3-small-1024".into();
        f.vectors = f.vectors.iter().map(|v| v.iter().rev().copied().collect()).collect();
        f.stats = None;
        let stale = store::encode(&f).unwrap();

        let mut lib = Library::new();
        let (sources, notice) = lib.restore(vec![(key.clone(), stale)]);
        assert_eq!((sources.len(), notice, lib.parsed), (1, None, 0));
        match lib.take_store_ops().as_slice() {
            [StoreOp::Put { key: k, bytes }] => {
                let back = store::decode(k, bytes).unwrap();
                assert_eq!((k, back.embedder.as_str()), (&key, lib.corpus.embedder.as_str()));
                assert!(back.stats.is_some());
            }
            other => panic!("expected one write-back, got {other:?}"),
        }
        // It answers like a library that parsed the file just now.
        let mut fresh = Library::new();
        fresh.handle(ToWorker::Ingest { id: 1, name: "a.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        let top = |lib: &mut Library| {
            let mut out = vec![];
            let q = ToWorker::Search { id: 2, query: "supplemental indenture guarantee".into(), k: 3, modality: None, settings: Default::default() };
            lib.handle(q, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::Hits { hits, .. }) => hits.into_iter().map(|h| h.doc.id).collect::<Vec<_>>(),
                other => panic!("{other:?}"),
            }
        };
        let restored = top(&mut lib);
        assert!(!restored.is_empty());
        assert_eq!(restored, top(&mut fresh));
    }
}
