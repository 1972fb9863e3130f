//! The worker's state as a plain value: the corpus of ingested documents, the offline embedder, and
//! each page's extracted text. The web worker is a thin shell around `Library::handle`; the same
//! code is tested natively.
//!
//! Persistence (issue: corpus persists across reloads): every ingest and removal queues a
//! `StoreOp` (`take_store_ops`) that the worker applies to IndexedDB, and `restore` rebuilds the
//! library from the stored entries at startup. What is kept and how it is checked is `store.rs`.
//!
//! HNSW in the background (issue 4): after each message the shell asks `graph_jobs` which
//! modalities need a graph (`retrieve::graph::Schedule`: threshold, debounce, one build per corpus
//! generation), ships them to a builder worker, and hands the answers to `graph_built` (or
//! `builder_lost`). Until a graph is swapped in, and whenever a build fails, that modality is
//! searched exactly. A built graph is queued for the store as `graph:<modality>` and read back by
//! `restore`, so a reload does not build it again; any change to the documents drops the graphs
//! and their stored copies.

use crate::config::{IngestSettings, Modality, RetrievalSettings};
use crate::ingest::vision::{self, PageVision, VisionCache};
use crate::ingest::Extracted;
use crate::protocol::{FromWorker, SlabIndex, SourceInfo, ToWorker};
use crate::retrieve::graph::{BuildReport, GraphError, GraphJob, GraphState, Schedule};
use crate::retrieve::embed::{embedding_inputs, Embedder, OfflineEmbedder, TermStats};
use crate::retrieve::graph_rag::{self, GraphCache};
use crate::store::{self, StoreOp, StoredFile};
use crate::retrieve::index::Corpus;
use std::collections::{BTreeMap, BTreeSet};

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
    /// source → the `ingest::READER_VERSION` its documents were read with.
    readers: BTreeMap<String, u32>,
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
    /// source → Graph-RAG's extraction answers stored with the file (`retrieve::graph_rag`).
    graph_rag: BTreeMap<String, GraphCache>,
    /// Which graphs to build, and how far each got, for the current corpus generation.
    graphs: Schedule,
    /// Modalities whose graph is in the store (`store::graph_key`).
    stored_graphs: BTreeSet<Modality>,
    /// The settings of the last search: the app's threshold and debounce for building graphs.
    retrieval: RetrievalSettings,
    /// A library on a server searched with this browser's files (`ToWorker::LibraryStats`): its
    /// statistics and files; queries are then weighted with `query_stats`.
    library: Option<(TermStats, BTreeSet<String>)>,
    /// The library's statistics plus this browser's files it does not hold, for the corpus
    /// generation it was merged at.
    query_stats: Option<(u64, TermStats)>,
}

/// What the shell should do for the background index after a message.
#[derive(Debug, Default)]
pub struct GraphWork {
    /// Send these to the builder worker.
    pub jobs: Vec<GraphJob>,
    /// The documents changed while a build was running: its result will be stale, so stop the
    /// builder rather than let it finish.
    pub cancel_running: bool,
    /// Ask again after this many milliseconds (a build waits for the corpus to be quiet).
    pub wake_in_ms: Option<f64>,
}

impl Default for Library {
    fn default() -> Self {
        Self::new()
    }
}

impl Library {
    /// A library embedding with the offline embedder's lexical part alone.
    pub fn new() -> Self {
        Self::with_embedder(OfflineEmbedder::default())
    }

    /// A library embedding with `embedder` (the worker gives it the static table's semantic part
    /// when the table could be loaded, `retrieve::static_embed`). Restored files embedded by
    /// another embedder are embedded again from their stored documents (`restore`).
    pub fn with_embedder(embedder: OfflineEmbedder) -> Self {
        let corpus = Corpus::new(embedder.name(), embedder.dims());
        Library {
            corpus,
            embedder,
            pages: BTreeMap::new(),
            infos: BTreeMap::new(),
            raw: BTreeMap::new(),
            keys: BTreeMap::new(),
            readers: BTreeMap::new(),
            store_ops: vec![],
            parsed: 0,
            rendering: None,
            extracted: BTreeMap::new(),
            vision: BTreeMap::new(),
            graph_rag: BTreeMap::new(),
            graphs: Schedule::default(),
            stored_graphs: BTreeSet::new(),
            retrieval: RetrievalSettings::default(),
            library: None,
            query_stats: None,
        }
    }

    /// Merge the library's statistics with this browser's files it does not hold, once per corpus
    /// generation (a file dropped or removed changes the browser's part).
    fn refresh_query_stats(&mut self) {
        let Some((stats, sources)) = &self.library else {
            self.query_stats = None;
            return;
        };
        let generation = self.corpus.generation();
        if self.query_stats.as_ref().is_some_and(|(g, _)| *g == generation) {
            return;
        }
        let mut merged = stats.clone();
        merged.merge(&self.corpus.term_stats_excluding(&self.embedder, sources));
        self.query_stats = Some((generation, merged));
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
        let (graphs, entries): (Vec<_>, Vec<_>) = entries.into_iter().partition(|(k, _)| k.starts_with(store::GRAPH_PREFIX));
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
        // Graphs last, over the restored slabs: one built for other documents, or damaged, is
        // deleted and built again in the background (a cache, so no notice).
        self.graphs.adopt(self.corpus.generation());
        for (key, blob) in graphs {
            match store::graph_modality(&key).map(|m| (m, self.corpus.install_graph(m, &blob))) {
                Some((m, Ok(()))) => {
                    self.graphs.set(m, GraphState::Loaded);
                    self.stored_graphs.insert(m);
                }
                _ => self.store_ops.push(StoreOp::Delete { key }),
            }
        }
        (self.sources(), notice)
    }

    /// After every message (and on the wake-up it asks for): which graphs to build now. A change
    /// to the documents since the last call drops the stored graphs and restarts the debounce.
    pub fn graph_jobs(&mut self, now_ms: f64) -> GraphWork {
        let running = !self.graphs.building().is_empty();
        let mut work = GraphWork::default();
        if self.graphs.observe(self.corpus.generation(), now_ms) {
            work.cancel_running = running;
            for m in std::mem::take(&mut self.stored_graphs) {
                self.store_ops.push(StoreOp::Delete { key: store::graph_key(m) });
            }
        }
        let slabs = self.corpus.slabs();
        let (min, debounce) = (self.retrieval.hnsw_min_vectors, self.retrieval.hnsw_debounce_ms as f64);
        work.jobs = self.graphs.due(&slabs, min, debounce, now_ms).into_iter().filter_map(|m| self.corpus.graph_job(m)).collect();
        work.wake_in_ms = self.graphs.wait_ms(&slabs, min, debounce, now_ms);
        work
    }

    /// The builder's answer. A graph for the current documents is swapped in (queries of that
    /// modality use it from the next search) and queued for the store; a stale one is dropped; a
    /// failure leaves the modality on the exact scan until the documents change. Returns the state.
    pub fn graph_built(&mut self, report: BuildReport, blob: Option<&[u8]>) -> GraphState {
        let m = report.job.modality;
        if report.job.generation != self.corpus.generation() || self.graphs.generation() != report.job.generation {
            return self.graphs.state(m);
        }
        let state = match (report.error, blob) {
            (Some(error), _) => GraphState::Failed { error },
            (None, None) => GraphState::Failed { error: "the builder sent no graph".into() },
            (None, Some(blob)) => match self.corpus.install_graph(m, blob) {
                Ok(()) => {
                    self.store_ops.push(StoreOp::Put { key: store::graph_key(m), bytes: blob.to_vec() });
                    self.stored_graphs.insert(m);
                    GraphState::Built { build_ms: report.build_ms }
                }
                Err(e @ (GraphError::Stale | GraphError::Damaged(_))) => GraphState::Failed { error: e.to_string() },
            },
        };
        self.graphs.set(m, state.clone());
        state
    }

    /// The builder worker died (or was stopped): what it was building is served exactly until the
    /// documents change.
    pub fn builder_lost(&mut self, why: &str) {
        for m in self.graphs.building() {
            self.graphs.set(m, GraphState::Failed { error: why.to_string() });
        }
    }

    /// Per modality: vectors and graph state.
    pub fn index_status(&self) -> Vec<SlabIndex> {
        self.corpus.slabs().into_iter().map(|(modality, vectors, _)| SlabIndex { modality, vectors, graph: self.graphs.state(modality) }).collect()
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
        self.graph_rag.insert(name.clone(), f.graph_rag);
        self.readers.insert(name.clone(), f.reader);
        self.keys.insert(name, f.key);
    }

    /// The summary of `name` if exactly these bytes are already in the library, read by this
    /// version of the reader.
    fn already_has(&self, name: &str, key: &str) -> Option<SourceInfo> {
        let current = self.readers.get(name) == Some(&crate::ingest::READER_VERSION);
        (current && self.keys.get(name).map(String::as_str) == Some(key)).then(|| self.infos.get(name).cloned()).flatten()
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
            graph_rag: GraphCache::default(),
            reader: crate::ingest::READER_VERSION,
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
        self.readers.insert(name.to_string(), crate::ingest::READER_VERSION);
        self.raw.insert(name.to_string(), entry.pdf);
        self.extracted.insert(name.to_string(), vision::for_vision(&ex));
        self.vision.insert(name.to_string(), VisionCache::default());
        // A new reading has new chunks: earlier extraction answers are keyed by chunk text, but
        // the file's entry starts without them (as it starts without vision answers).
        self.graph_rag.insert(name.to_string(), GraphCache::default());
        if self.rendering.as_ref().is_some_and(|(s, _)| s == name) {
            self.rendering = None;
        }
        Ok(info)
    }

    pub fn sources(&self) -> Vec<SourceInfo> {
        self.infos.values().cloned().collect()
    }

    /// The document's sections in page order, each title with the first page it covers: the outline
    /// titles ingestion attached to the pages (`ingest::structure`, issue 3 deliverable 1), read
    /// back from the stored documents so a restored library has them too. A title met again after
    /// another starts a new entry; a PDF without an outline has none.
    pub fn sections(&self, source: &str) -> Vec<crate::protocol::Section> {
        let mut by_page: BTreeMap<u32, &str> = BTreeMap::new();
        for d in self.corpus.docs.iter().filter(|d| d.source == source) {
            if let Some(title) = d.section.as_deref().filter(|t| !t.trim().is_empty()) {
                by_page.entry(d.page).or_insert(title);
            }
        }
        let mut out: Vec<crate::protocol::Section> = vec![];
        for (page, title) in by_page {
            if out.last().is_none_or(|s| s.title != title) {
                out.push(crate::protocol::Section { title: title.to_string(), page });
            }
        }
        out
    }

    pub fn page_text(&self, source: &str, page: u32) -> Option<&str> {
        self.pages.get(source)?.get(page.checked_sub(1)? as usize).map(String::as_str)
    }

    /// A page as PNG at `scale` pixels per point.
    /// A page's printed number, from any of its documents (ingest's `furniture` / `/PageLabels`).
    fn page_label(&self, source: &str, page: u32) -> Option<String> {
        self.corpus.docs.iter().find(|d| d.source == source && d.page == page && d.page_label.is_some()).and_then(|d| d.page_label.clone())
    }

    pub fn render_page(&mut self, source: &str, page: u32, scale: f32, budget: &crate::config::IngestSettings) -> Result<crate::render::RenderedPage, String> {
        let pdf = self.renderable(source)?;
        crate::render::render_pdf_page(pdf, page, scale, budget).map_err(|e| format!("{source}: {e}"))
    }

    /// One cited region of a loaded document as a PNG crop (see `render::render_pdf_crop`).
    pub fn render_crop(&mut self, source: &str, page: u32, bbox: crate::corpus::BBox, scale: f32, margin: f32, budget: &crate::config::IngestSettings) -> Result<crate::render::RenderedPage, String> {
        let pdf = self.renderable(source)?;
        crate::render::render_pdf_crop(pdf, page, bbox, scale, margin, budget).map_err(|e| format!("{source}: {e}"))
    }

    /// The parsed document to render from, kept between renders of the same file.
    fn renderable(&mut self, source: &str) -> Result<&hayro_syntax::Pdf, String> {
        if self.rendering.as_ref().is_none_or(|(s, _)| s != source) {
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
            graph_rag: self.graph_rag.get(source).cloned().unwrap_or_default(),
            reader: self.readers.get(source).copied().unwrap_or_default(),
            pdf: self.raw.get(source).cloned().unwrap_or_default(),
        };
        match store::encode(&entry) {
            Ok(bytes) => self.store_ops.push(StoreOp::Put { key, bytes }),
            Err(e) => return Err(e),
        }
        self.vision.insert(source.to_string(), mine);
        Ok(info)
    }

    /// What Graph-RAG's extraction needs of `source` (paper Table 2; `retrieve::graph_rag`): its
    /// chunks (`graph_rag::chunks`) and the answers stored with the file. The page runs the model.
    pub fn graph_chunks(&self, source: &str) -> Result<(Vec<crate::corpus::Doc>, GraphCache), String> {
        if !self.infos.contains_key(source) {
            return Err(format!("{source} is not loaded: add the PDF first"));
        }
        let docs: Vec<crate::corpus::Doc> = self.corpus.docs.iter().filter(|d| d.source == source).cloned().collect();
        let chunks = graph_rag::chunks(&docs).into_iter().cloned().collect();
        Ok((chunks, self.graph_rag.get(source).cloned().unwrap_or_default()))
    }

    /// Keep Graph-RAG's extraction answers for `source` with the file (its store entry is written
    /// again with them), so a second run and a reload extract nothing. Only answers for the file's
    /// current chunks are kept.
    pub fn apply_graph(&mut self, source: &str, cache: GraphCache) -> Result<usize, String> {
        let key = self.keys.get(source).cloned().ok_or_else(|| format!("{source} is not loaded"))?;
        let (chunks, _) = self.graph_chunks(source)?;
        let mut mine = GraphCache::default();
        for d in &chunks {
            if let Some(x) = cache.get(d) {
                mine.insert(d, x.clone());
            }
        }
        let (docs, vectors): (Vec<crate::corpus::Doc>, Vec<Vec<f32>>) =
            self.corpus.docs.iter().enumerate().filter(|(_, d)| d.source == source).map(|(i, d)| (d.clone(), self.corpus.vector(i).to_vec())).unzip();
        let entry = StoredFile {
            key: key.clone(),
            embedder: self.corpus.embedder.clone(),
            info: self.infos.get(source).cloned().ok_or_else(|| format!("{source} is not loaded"))?,
            pages: self.pages.get(source).cloned().unwrap_or_default(),
            docs,
            vectors,
            stats: self.corpus.source_stats(source),
            vision: self.vision.get(source).cloned().unwrap_or_default(),
            graph_rag: mine.clone(),
            reader: self.readers.get(source).copied().unwrap_or_default(),
            pdf: self.raw.get(source).cloned().unwrap_or_default(),
        };
        self.store_ops.push(StoreOp::Put { key, bytes: store::encode(&entry)? });
        let n = mine.entries.len();
        self.graph_rag.insert(source.to_string(), mine);
        Ok(n)
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
            ToWorker::Search { id, query, k, modality, settings, exact, dense } => {
                // HyDE (spec §8.6): the passage is embedded, the query's terms score lexically.
                let dense_text = dense.as_deref().unwrap_or(&query);
                // The semantic part's weight is a query-time setting (`retrieval.static_weight`).
                self.embedder.set_static_weight(settings.static_weight as f32);
                // Issue 42: with a library, the one set of statistics both sides weight with.
                self.refresh_query_stats();
                let stats = match &self.query_stats {
                    Some((_, merged)) => merged,
                    None => self.corpus.term_stats(&self.embedder),
                };
                let q = self.embedder.embed_query(dense_text, stats);
                let (hits, index) = self.corpus.search_traced(&q, &query, k, modality, &settings, !exact);
                self.retrieval = settings;
                emit(FromWorker::Hits { id, hits, index });
            }
            ToWorker::LibraryStats { id, library } => {
                self.library = library.map(|l| (l.stats, l.sources.into_iter().collect()));
                self.query_stats = None;
                self.refresh_query_stats();
                emit(FromWorker::QueryStats { id, stats: self.query_stats.as_ref().map(|(_, s)| s.clone()) });
            }
            ToWorker::Index { id } => emit(FromWorker::Index { id, generation: self.corpus.generation(), slabs: self.index_status(), embedder: self.corpus.embedder.clone() }),
            ToWorker::Remove { id, source } => {
                self.corpus.remove_source(&source);
                self.pages.remove(&source);
                self.infos.remove(&source);
                self.raw.remove(&source);
                self.extracted.remove(&source);
                self.vision.remove(&source);
                self.graph_rag.remove(&source);
                self.readers.remove(&source);
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
            ToWorker::Sections { id, source } => {
                if self.pages.contains_key(&source) {
                    let sections = self.sections(&source);
                    emit(FromWorker::Sections { id, source, sections });
                } else {
                    emit(FromWorker::Failed { id, error: format!("{source} is not loaded: add the PDF to see its sections") });
                }
            }
            ToWorker::RenderPage { id, source, page, scale, budget } => {
                let t0 = now_ms();
                let r = self.render_page(&source, page, scale, &budget);
                let label = self.page_label(&source, page);
                emit(image_reply(id, source, page, r, now_ms() - t0, label));
            }
            ToWorker::RenderCrop { id, source, page, bbox, scale, margin, budget } => {
                let t0 = now_ms();
                let r = self.render_crop(&source, page, bbox, scale, margin, &budget);
                let label = self.page_label(&source, page);
                emit(image_reply(id, source, page, r, now_ms() - t0, label));
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
            ToWorker::GraphChunks { id, source } => emit(match self.graph_chunks(&source) {
                Ok((docs, cache)) => FromWorker::GraphChunks { id, source, docs, cache },
                Err(error) => FromWorker::Failed { id, error },
            }),
            ToWorker::GraphApply { id, source, cache } => emit(match self.apply_graph(&source, cache) {
                Ok(_) => FromWorker::Sources { id, sources: self.sources() },
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
fn image_reply(id: u64, source: String, page: u32, r: Result<crate::render::RenderedPage, String>, render_ms: f64, label: Option<String>) -> FromWorker {
    match r {
        Ok(r) => FromWorker::PageImage { id, source, page, pages: r.pages, width_px: r.width_px, height_px: r.height_px, page_size: r.page_size, render_ms, label, png: r.png },
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
        lib.handle(ToWorker::RenderPage { id: 2, source: name.clone(), page: 1, scale: 1.0, budget: Default::default() }, None, &|| 0.0, &mut |m| out.push(m));
        match out.last() {
            Some(FromWorker::PageImage { id: 2, width_px, height_px, page_size, png, pages, .. }) => {
                assert_eq!((*width_px, *height_px), (page_size.0 as u32, page_size.1 as u32));
                assert!(png.starts_with(b"\x89PNG") && *pages >= 1);
            }
            other => panic!("{other:?}"),
        }
        // A cited region comes back as a crop of the region plus its margin.
        let crop = ToWorker::RenderCrop { id: 5, source: name.clone(), page: 1, bbox: [100.0, 100.0, 300.0, 160.0], scale: 2.0, margin: 10.0, budget: Default::default() };
        lib.handle(crop, None, &|| 0.0, &mut |m| out.push(m));
        match out.last() {
            Some(FromWorker::PageImage { id: 5, width_px, height_px, png, .. }) => {
                assert_eq!((*width_px, *height_px), (440, 160), "(200 + 2·10) × 2 by (60 + 2·10) × 2");
                assert!(png.starts_with(b"\x89PNG"));
            }
            other => panic!("{other:?}"),
        }
        lib.handle(ToWorker::Remove { id: 3, source: name.clone() }, None, &|| 0.0, &mut |m| out.push(m));
        lib.handle(ToWorker::RenderPage { id: 4, source: name, page: 1, scale: 1.0, budget: Default::default() }, None, &|| 0.0, &mut |m| out.push(m));
        match out.last() {
            Some(FromWorker::Failed { id: 4, error }) => assert!(error.contains("not loaded"), "{error}"),
            other => panic!("{other:?}"),
        }
    }

    /// The viewer's section list: outline titles with the page each starts on, in page order, the
    /// same after the library is restored from the store; a PDF without an outline has none.
    #[test]
    fn sections_come_from_the_outline_or_the_filings_items_and_survive_a_reload() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/financebench/pdfs");
        let Ok(bytes) = std::fs::read(dir.join("AMCOR_2023Q4_EARNINGS.pdf")) else { return };
        let name = "AMCOR_2023Q4_EARNINGS.pdf".to_string();
        let (mut db, mut lib, mut out) = (BTreeMap::new(), Library::new(), vec![]);
        lib.handle(ToWorker::Ingest { id: 1, name: name.clone(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        apply(&mut db, &mut lib);
        lib.handle(ToWorker::Sections { id: 2, source: name.clone() }, None, &|| 0.0, &mut |m| out.push(m));
        let Some(FromWorker::Sections { id: 2, sections, .. }) = out.last().cloned() else { panic!("{:?}", out.last()) };
        assert!(sections.len() >= 2, "{sections:?}");
        assert_eq!((sections[0].title.as_str(), sections[0].page), ("Highlights", 1));
        assert_eq!((sections[1].title.as_str(), sections[1].page), ("Financial Results", 2));
        assert!(sections.windows(2).all(|w| w[0].page <= w[1].page && w[0].title != w[1].title), "{sections:?}");

        let mut again = Library::new();
        again.restore(db.into_iter().collect());
        let mut out2 = vec![];
        again.handle(ToWorker::Sections { id: 3, source: name }, None, &|| 0.0, &mut |m| out2.push(m));
        assert!(matches!(out2.last(), Some(FromWorker::Sections { sections: s, .. }) if *s == sections), "{:?}", out2.last());

        // No outline: a filing's Item headings stand in (ingest/sections.rs); a release with
        // neither has no sections. An unknown file is an error the user can act on.
        let Some(filing) = amcor() else { return };
        again.handle(ToWorker::Ingest { id: 4, name: "amcor.pdf".into(), settings: Default::default() }, Some(&filing), &|| 0.0, &mut |m| out2.push(m));
        again.handle(ToWorker::Sections { id: 5, source: "amcor.pdf".into() }, None, &|| 0.0, &mut |m| out2.push(m));
        let Some(FromWorker::Sections { sections: items, .. }) = out2.last().cloned() else { panic!("{:?}", out2.last()) };
        assert_eq!(
            items.iter().map(|s| (s.title.as_str(), s.page)).collect::<Vec<_>>(),
            [("Item 9.01. Financial Statements and Exhibits", 2), ("Signatures", 3), ("Exhibit 4.6", 4), ("Exhibit 4.7", 7)]
        );
        let Ok(release) = std::fs::read(dir.join("JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf")) else { return };
        again.handle(ToWorker::Ingest { id: 7, name: "jnj.pdf".into(), settings: Default::default() }, Some(&release), &|| 0.0, &mut |m| out2.push(m));
        again.handle(ToWorker::Sections { id: 8, source: "jnj.pdf".into() }, None, &|| 0.0, &mut |m| out2.push(m));
        assert!(matches!(out2.last(), Some(FromWorker::Sections { sections: s, .. }) if s.is_empty()), "{:?}", out2.last());
        again.handle(ToWorker::Sections { id: 6, source: "nope.pdf".into() }, None, &|| 0.0, &mut |m| out2.push(m));
        assert!(matches!(out2.last(), Some(FromWorker::Failed { error, .. }) if error.contains("not loaded")), "{:?}", out2.last());
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
    fn hyde_search_in_the_worker_embeds_the_passage_and_scores_the_question_lexically() {
        let Some(bytes) = amcor() else { return };
        let mut lib = Library::new();
        lib.handle(ToWorker::Ingest { id: 1, name: "amcor.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        let (q, passage) = ("Which notes does the supplemental indenture guarantee?", "Amcor plc fully and unconditionally guarantees the senior notes issued by Amcor Finance.");
        let ask = |lib: &mut Library, query: &str, dense: Option<&str>| -> Vec<crate::corpus::Hit> {
            let mut out = vec![];
            let m = ToWorker::Search { id: 2, query: query.into(), k: 5, modality: None, settings: Default::default(), exact: true, dense: dense.map(str::to_string) };
            lib.handle(m, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::Hits { hits, .. }) => hits,
                other => panic!("{other:?}"),
            }
        };
        let hyde = ask(&mut lib, q, Some(passage));
        // The same as the core search with the passage's vector and the question's text.
        let v = lib.embedder.embed_query(passage, lib.corpus.term_stats(&lib.embedder));
        let expected = lib.corpus.search_traced(&v, q, 5, None, &Default::default(), false).0;
        let ids = |h: &[crate::corpus::Hit]| h.iter().map(|h| (h.doc.id.clone(), h.score)).collect::<Vec<_>>();
        assert!(!hyde.is_empty());
        assert_eq!(ids(&hyde), ids(&expected));
        // Without a passage the query is embedded; appending the passage to it would change both parts.
        assert_ne!(ids(&hyde), ids(&ask(&mut lib, &format!("{q}\n{passage}"), None)));
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
        let q = ToWorker::Search { id: 2, query: "supplemental indenture guarantee".into(), k: 3, modality: None, settings: Default::default(), exact: false, dense: None };
        lib.handle(q, None, &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(&out[0], FromWorker::Hits { hits, .. } if !hits.is_empty() && hits[0].doc.source == name));
        lib.handle(ToWorker::RenderPage { id: 3, source: name.clone(), page: 1, scale: 0.5, budget: Default::default() }, None, &|| 0.0, &mut |m| out.push(m));
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

    #[test]
    fn a_file_stored_by_an_earlier_reader_is_read_again_when_dropped_again() {
        let Some(bytes) = amcor() else { return };
        let name = "amcor.pdf".to_string();
        let (mut db, mut lib, mut out) = (BTreeMap::new(), Library::new(), vec![]);
        lib.handle(ToWorker::Ingest { id: 1, name: name.clone(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        apply(&mut db, &mut lib);
        // As an earlier version stored it: no reader version, and none of this reader's sections.
        let key = store::content_key(&bytes);
        let mut old = store::decode(&key, &db[&key]).unwrap();
        old.reader = 0;
        old.docs.iter_mut().for_each(|d| (d.section, d.section_from_headings) = (None, false));
        db.insert(key.clone(), store::encode(&old).unwrap());

        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        assert_eq!((sources.len(), notice), (1, None), "the older entry is still restored");
        lib.handle(ToWorker::Ingest { id: 2, name: name.clone(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.last(), Some(FromWorker::Ingested { already: false, .. })), "{:?}", out.last());
        assert_eq!(lib.parsed, 1, "read again");
        apply(&mut db, &mut lib);
        assert_eq!(db.len(), 1, "the entry is replaced, not doubled");
        let again = store::decode(&key, &db[&key]).unwrap();
        assert_eq!(again.reader, crate::ingest::READER_VERSION);
        assert!(again.docs.iter().any(|d| d.section.as_deref() == Some("Signatures")), "with this reader's sections");
        // Now current: a further drop is answered from the library.
        lib.handle(ToWorker::Ingest { id: 3, name, settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.last(), Some(FromWorker::Ingested { already: true, .. })), "{:?}", out.last());
    }

    /// The browser's vision path as the worker sees it: the app asks for the pages, runs the model
    /// (here: a canned chart answer), and hands the answers back; the chart joins the file's
    /// documents with its region, is stored, and after a reload the plan finds every page cached.
    /// The browser's Graph-RAG path as the worker sees it: the page asks for a file's chunks, runs
    /// `graph_extraction` through core, and hands the answers back to be kept with the file.
    #[test]
    fn graph_extraction_answers_are_stored_with_the_file_and_a_reload_needs_no_call() {
        use crate::config::Settings;
        use crate::llm::roles::GraphExtractionOut;
        let Some(bytes) = amcor() else { return };
        let name = "amcor.pdf".to_string();
        let s = Settings::paper();
        let (mut db, mut lib, mut out) = (BTreeMap::new(), Library::new(), vec![]);
        lib.handle(ToWorker::Ingest { id: 1, name: name.clone(), settings: s.ingest.clone() }, Some(&bytes), &|| 0.0, &mut |m| out.push(m));
        apply(&mut db, &mut lib);
        let chunks = |lib: &mut Library| {
            let mut out = vec![];
            lib.handle(ToWorker::GraphChunks { id: 2, source: name.clone() }, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::GraphChunks { docs, cache, .. }) => (docs, cache),
                other => panic!("{other:?}"),
            }
        };
        let (docs, cache) = chunks(&mut lib);
        assert!(!docs.is_empty() && docs.iter().all(|d| d.source == name));
        let first = graph_rag::estimate(&docs, &cache, &s);
        assert_eq!((first.cached, first.calls), (0, docs.len()), "nothing cached before the first run");

        // Every chunk answered, plus an answer for a chunk of another file, which is not kept.
        let mut fresh = GraphCache::default();
        for d in &docs {
            fresh.insert(d, GraphExtractionOut { entities: vec!["Amcor".into(), "net sales".into()], relations: vec![] });
        }
        let stranger = crate::corpus::Doc::bare("other-p1-text-c0", "other.pdf", 1, crate::config::Modality::Text, "another file's chunk");
        // Chunks with the same text share an answer (the cache is keyed by text).
        let distinct = fresh.entries.len();
        fresh.insert(&stranger, GraphExtractionOut { entities: vec!["Other".into()], relations: vec![] });
        lib.handle(ToWorker::GraphApply { id: 3, source: name.clone(), cache: fresh }, None, &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.pop(), Some(FromWorker::Sources { .. })));
        apply(&mut db, &mut lib);
        assert_eq!(graph_rag::estimate(&docs, &chunks(&mut lib).1, &s).calls, 0, "a second run makes no call");

        // Reload: restored from the store without parsing, the answers are still there.
        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        assert_eq!((sources.len(), notice, lib.parsed), (1, None, 0));
        let (docs2, cache2) = chunks(&mut lib);
        assert_eq!(cache2.entries.len(), distinct, "only this file's answers are stored with it");
        assert_eq!(graph_rag::estimate(&docs2, &cache2, &s).calls, 0, "after a reload too");
        assert!(!graph_rag::EntityGraph::build(&docs2, &cache2).mentions.is_empty());

        // An unknown file is a message, not a panic.
        lib.handle(ToWorker::GraphChunks { id: 4, source: "missing.pdf".into() }, None, &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.pop(), Some(FromWorker::Failed { .. })));
    }

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
            let q = ToWorker::Search { id: 4, query: "net sales trend".into(), k: 3, modality: Some(Modality::Chart), settings: Default::default(), exact: false, dense: None };
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
    fn a_library_with_the_semantic_part_embeds_in_its_own_space_and_embeds_lexical_entries_again() {
        use crate::retrieve::static_embed::{tests::table_bytes, StaticTable};
        let Some(bytes) = amcor() else { return };
        let rows = [("notes", vec![1.0, 0.0]), ("guarantee", vec![0.0, 1.0]), ("indenture", vec![0.7, 0.7]), ("amcor", vec![0.2, 0.9])];
        let table = std::sync::Arc::new(StaticTable::from_bytes(&table_bytes(&rows)).unwrap());
        // A file stored by a library without the table (the table failed to load last time).
        let mut db = BTreeMap::new();
        let mut plain = Library::new();
        plain.handle(ToWorker::Ingest { id: 1, name: "amcor.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        apply(&mut db, &mut plain);
        let key = db.keys().next().cloned().unwrap();

        let mut lib = Library::with_embedder(OfflineEmbedder::default().with_static(table, 0.1));
        assert!(lib.corpus.embedder.contains("+static-") && lib.corpus.embedder != plain.corpus.embedder, "{}", lib.corpus.embedder);
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        apply(&mut db, &mut lib);
        // Embedded again from its stored documents, not parsed again, and written back in the new space.
        assert_eq!((sources.len(), notice, lib.parsed), (1, None, 0));
        let back = store::decode(&key, &db[&key]).unwrap();
        assert_eq!(back.embedder, lib.corpus.embedder);
        assert!(back.vectors.iter().all(|v| v.len() == lib.corpus.dims) && lib.corpus.dims == plain.corpus.dims + 2);

        // The index names its embedder, so the app (and a test) can tell which search it gets.
        let mut out = vec![];
        lib.handle(ToWorker::Index { id: 2 }, None, &|| 0.0, &mut |m| out.push(m));
        assert!(matches!(out.last(), Some(FromWorker::Index { embedder, .. }) if *embedder == lib.corpus.embedder), "{:?}", out.last());

        // The semantic part's weight is the search's setting: all lexical and all semantic rank apart.
        let mut ask = |w: f64| {
            let settings = RetrievalSettings { static_weight: w, ..Default::default() };
            let mut out = vec![];
            lib.handle(ToWorker::Search { id: 3, query: "Which notes does the supplemental indenture guarantee?".into(), k: 5, modality: None, settings, exact: true, dense: None }, None, &|| 0.0, &mut |m| out.push(m));
            match out.pop() {
                Some(FromWorker::Hits { hits, .. }) => hits.iter().map(|h| (h.doc.id.clone(), (h.score * 1e6).round() as i64)).collect::<Vec<_>>(),
                other => panic!("{other:?}"),
            }
        };
        let (lexical, semantic) = (ask(0.0), ask(1.0));
        assert!(!lexical.is_empty() && !semantic.is_empty());
        assert_ne!(lexical, semantic);
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
            let q = ToWorker::Search { id: 2, query: "supplemental indenture guarantee".into(), k: 3, modality: None, settings: Default::default(), exact: false, dense: None };
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

    // HNSW in the background (issue 4). The builder worker's part is `graph::build`, called here
    // directly; the message passing around it is the worker shell's (tests/e2e/hnsw.test.mjs).

    use crate::retrieve::graph;
    use crate::retrieve::index::SearchPath;

    /// A threshold a single 8-K passes, and a one-second debounce.
    fn low() -> RetrievalSettings {
        RetrievalSettings { hnsw_min_vectors: 10, hnsw_debounce_ms: 1000, ..Default::default() }
    }

    fn search(lib: &mut Library, query: &str, exact: bool) -> (Vec<String>, SearchPath) {
        let mut out = vec![];
        let q = ToWorker::Search { id: 9, query: query.into(), k: 8, modality: None, settings: low(), exact, dense: None };
        lib.handle(q, None, &|| 0.0, &mut |m| out.push(m));
        match out.pop() {
            Some(FromWorker::Hits { hits, index, .. }) => (hits.into_iter().map(|h| h.doc.id).collect(), index),
            other => panic!("{other:?}"),
        }
    }

    fn state(lib: &Library, m: Modality) -> GraphState {
        lib.index_status().into_iter().find(|s| s.modality == m).map(|s| s.graph).unwrap_or(GraphState::Exact)
    }

    /// What the builder worker does with a job.
    fn run_builder(job: &GraphJob) -> (BuildReport, Vec<u8>) {
        let blob = graph::build(&job.header(), job.vectors.clone()).expect("builds");
        (BuildReport { job: job.header(), build_ms: 1.0, error: None }, blob)
    }

    const Q: &str = "supplemental indenture guarantee of the notes";

    #[test]
    fn a_background_graph_is_swapped_in_saved_and_loaded_after_a_reload_without_a_rebuild() {
        let Some(bytes) = amcor() else { return };
        let mut db = BTreeMap::new();
        let mut lib = Library::new();
        lib.handle(ToWorker::Ingest { id: 1, name: "a.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        let (exact, path) = search(&mut lib, Q, false);
        assert_eq!(path, SearchPath::Exact, "no graph yet");
        let text = lib.corpus.slabs().iter().find(|s| s.0 == Modality::Text).map(|s| s.1).unwrap();
        assert!(text >= 10, "the 8-K has {text} text vectors");

        // Inside the debounce nothing is built; the shell is told when to ask again.
        let w = lib.graph_jobs(0.0);
        assert!(w.jobs.is_empty() && !w.cancel_running);
        assert_eq!(w.wake_in_ms, Some(1000.0));
        let w = lib.graph_jobs(1000.0);
        let job = w.jobs.iter().find(|j| j.modality == Modality::Text).expect("a text job").clone();
        assert_eq!(job.vectors.len(), text * lib.corpus.dims);
        assert!(lib.graph_jobs(5000.0).jobs.is_empty(), "one build per modality and generation");

        // While it builds, searches are answered exactly.
        assert_eq!(state(&lib, Modality::Text), GraphState::Building);
        assert_eq!(search(&mut lib, Q, false), (exact.clone(), SearchPath::Exact));

        for job in &w.jobs {
            let (report, blob) = run_builder(job);
            assert!(matches!(lib.graph_built(report, Some(&blob)), GraphState::Built { .. }));
        }
        assert!(matches!(state(&lib, Modality::Text), GraphState::Built { .. }));
        let (approx, path) = search(&mut lib, Q, false);
        assert_eq!(path, SearchPath::Hnsw);
        assert_eq!(approx, exact, "the same pool and blend: the same answer on a small corpus");
        assert_eq!(search(&mut lib, Q, true), (exact.clone(), SearchPath::Exact), "exact on request");
        apply(&mut db, &mut lib);
        assert!(db.contains_key("graph:text"), "saved: {:?}", db.keys().collect::<Vec<_>>());

        // Reload: the graph is read back, not built again.
        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        assert_eq!((sources.len(), notice), (1, None));
        assert_eq!(state(&lib, Modality::Text), GraphState::Loaded);
        assert_eq!(search(&mut lib, Q, false), (exact.clone(), SearchPath::Hnsw));
        let w = lib.graph_jobs(0.0);
        assert!(w.jobs.iter().all(|j| j.modality != Modality::Text), "no rebuild of the loaded graph");
        assert!(lib.take_store_ops().iter().all(|op| !matches!(op, StoreOp::Delete { key } if key == "graph:text")));

        // Removing the document removes its graph from the store too.
        lib.handle(ToWorker::Remove { id: 5, source: "a.pdf".into() }, None, &|| 0.0, &mut |_| {});
        lib.graph_jobs(10.0);
        apply(&mut db, &mut lib);
        assert!(db.is_empty(), "{:?}", db.keys().collect::<Vec<_>>());
    }

    #[test]
    fn a_build_for_documents_that_changed_meanwhile_is_discarded_and_the_builder_stopped() {
        let Some(bytes) = amcor() else { return };
        let mut lib = Library::new();
        lib.handle(ToWorker::Ingest { id: 1, name: "a.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        search(&mut lib, Q, false);
        lib.graph_jobs(0.0);
        let w = lib.graph_jobs(1000.0);
        assert!(!w.jobs.is_empty());
        // A second file arrives while the graph builds: the running build is stale.
        lib.handle(ToWorker::Ingest { id: 2, name: "b.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        let after = lib.graph_jobs(1500.0);
        assert!(after.cancel_running && after.jobs.is_empty(), "stop the builder, debounce again");
        for job in &w.jobs {
            let (report, blob) = run_builder(job);
            lib.graph_built(report, Some(&blob));
        }
        assert_eq!(search(&mut lib, Q, false).1, SearchPath::Exact, "the stale graph was not installed");
        assert_eq!(state(&lib, Modality::Text), GraphState::Exact);
        let again = lib.graph_jobs(2500.0);
        assert!(again.jobs.iter().any(|j| j.modality == Modality::Text && j.generation == lib.corpus.generation()));
    }

    #[test]
    fn a_dead_builder_leaves_exact_search_and_a_damaged_stored_graph_is_dropped_and_rebuilt() {
        let Some(bytes) = amcor() else { return };
        let mut db = BTreeMap::new();
        let mut lib = Library::new();
        lib.handle(ToWorker::Ingest { id: 1, name: "a.pdf".into(), settings: Default::default() }, Some(&bytes), &|| 0.0, &mut |_| {});
        let (exact, _) = search(&mut lib, Q, false);
        lib.graph_jobs(0.0);
        let w = lib.graph_jobs(1000.0);
        lib.builder_lost("the index builder stopped: out of memory");
        assert!(matches!(state(&lib, Modality::Text), GraphState::Failed { error } if error.contains("out of memory")));
        assert_eq!(search(&mut lib, Q, false), (exact.clone(), SearchPath::Exact));
        assert!(lib.graph_jobs(9000.0).jobs.is_empty(), "not retried in a loop for the same documents");

        // A builder error reported as such is the same.
        let mut report = run_builder(&w.jobs[0]).0;
        report.error = Some("a vector holds a non-finite number".into());
        assert!(matches!(lib.graph_built(report, None), GraphState::Failed { .. }));

        // A stored graph that no longer reads is deleted at restore and built again.
        apply(&mut db, &mut lib);
        let (report, mut blob) = run_builder(&w.jobs[0]);
        let mid = blob.len() / 2;
        blob[mid] ^= 0xff;
        db.insert(store::graph_key(report.job.modality), blob);
        let mut lib = Library::new();
        let (sources, notice) = lib.restore(db.clone().into_iter().collect());
        assert_eq!((sources.len(), notice), (1, None), "a cache: no notice");
        assert!(lib.take_store_ops().contains(&StoreOp::Delete { key: store::graph_key(report.job.modality) }));
        assert_eq!(search(&mut lib, Q, false), (exact, SearchPath::Exact));
        assert!(!lib.graph_jobs(0.0).jobs.is_empty(), "built again (restore needs no debounce)");
    }
}
