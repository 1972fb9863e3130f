//! The message protocol between the app (main thread) and the web worker. Data only, so both sides
//! and the native tests share one definition. Messages travel as JSON strings; PDF bytes travel
//! beside the JSON as a transferable `Uint8Array` (never copied into JSON).

use crate::config::{IngestSettings, Modality, RetrievalSettings};
use crate::corpus::{BBox, Hit};
use crate::ingest::vision::{PageVision, SignalCounts, VisionCache};
use crate::ingest::Extracted;
use crate::retrieve::graph::GraphState;
use crate::retrieve::graph_rag::GraphCache;
use crate::retrieve::embed::TermStats;
use crate::retrieve::index::SearchPath;
use serde::{Deserialize, Serialize};

/// App → worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToWorker {
    /// Parse, chunk and index a PDF whose bytes accompany the message.
    Ingest { id: u64, name: String, settings: IngestSettings },
    /// Top-k documents for a query. `exact` skips the HNSW graphs (to measure their recall); the
    /// settings' `hnsw_min_vectors` and `hnsw_debounce_ms` also steer the background builds.
    Search {
        id: u64,
        query: String,
        k: usize,
        modality: Option<Modality>,
        settings: RetrievalSettings,
        #[serde(default)]
        exact: bool,
        /// HyDE (spec §8.6): embed this passage for the dense part; `query` still gives the
        /// lexical terms. None = embed the query.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dense: Option<String>,
    },
    /// A library on a server is searched with this browser's files (issue 42): weight every
    /// query with ONE set of statistics, the library's plus this browser's files it does not hold
    /// (a file on both sides counts once, as its hits do). `None`: this browser's alone again.
    /// Answered `QueryStats` with the merged statistics, which the library side weights with too.
    LibraryStats { id: u64, library: Option<LibraryStats> },
    /// The index per modality: vectors, and whether a graph is building, built or loaded.
    Index { id: u64 },
    /// Drop a document from the corpus.
    Remove { id: u64, source: String },
    /// List what the corpus holds.
    List { id: u64 },
    /// The extracted text of one page (for the viewer).
    PageText { id: u64, source: String, page: u32 },
    /// The document's sections (outline titles and the page each starts on), for the viewer.
    Sections { id: u64, source: String },
    /// One page as a PNG at `scale` pixels per point (the viewer asks for ~1.5). `budget`: the
    /// user's ingestion settings, whose per-page work budget bounds drawing (`render::render_page`).
    RenderPage {
        id: u64,
        source: String,
        page: u32,
        scale: f32,
        #[serde(default)]
        budget: IngestSettings,
    },
    /// One cited region as a PNG (the offline report embeds these): `bbox` in points plus `margin`
    /// points around it, outlined; answered with a `PageImage` of the crop.
    RenderCrop {
        id: u64,
        source: String,
        page: u32,
        bbox: BBox,
        scale: f32,
        margin: f32,
        #[serde(default)]
        budget: IngestSettings,
    },
    /// Keep a finished run (its lossless export) in the past-runs store (`history`).
    SaveRun { id: u64, json: String, saved_at_ms: f64 },
    /// The past runs, newest first.
    ListRuns { id: u64 },
    /// One past run's export, by its `RunSummary::key`.
    OpenRun { id: u64, key: String },
    DeleteRun { id: u64, key: String },
    /// What the vision path needs to plan and run a file (spec §4.1): its extraction without
    /// positioned blocks, its content key and the vision answers stored with it. Answered `Vision`.
    VisionPages { id: u64, source: String, settings: IngestSettings },
    /// Fold vision answers into a file's documents (§4.6), embed them, and store them with the
    /// file's vision cache, so a reload or a re-drop pays nothing. `pages`: every page the run read
    /// (fresh or cached). Answered `Ingested` with the updated summary.
    VisionApply { id: u64, source: String, pages: Vec<PageVision>, cache: VisionCache, settings: IngestSettings },
    /// What Graph-RAG's extraction needs of a file (paper Table 2): its chunks and the
    /// `graph_extraction` answers stored with it. Answered `GraphChunks`.
    GraphChunks { id: u64, source: String },
    /// Store `graph_extraction` answers with the file (like its vision answers), so the entity
    /// graph is extracted once per file. Answered `Sources`.
    GraphApply { id: u64, source: String, cache: GraphCache },
}

impl ToWorker {
    pub fn id(&self) -> u64 {
        match self {
            ToWorker::Ingest { id, .. }
            | ToWorker::Search { id, .. }
            | ToWorker::LibraryStats { id, .. }
            | ToWorker::Index { id }
            | ToWorker::Remove { id, .. }
            | ToWorker::List { id }
            | ToWorker::PageText { id, .. }
            | ToWorker::Sections { id, .. }
            | ToWorker::RenderPage { id, .. }
            | ToWorker::RenderCrop { id, .. }
            | ToWorker::SaveRun { id, .. }
            | ToWorker::ListRuns { id }
            | ToWorker::OpenRun { id, .. }
            | ToWorker::DeleteRun { id, .. }
            | ToWorker::VisionPages { id, .. }
            | ToWorker::VisionApply { id, .. }
            | ToWorker::GraphChunks { id, .. }
            | ToWorker::GraphApply { id, .. } => *id,
        }
    }
}

/// A library's query statistics (`MilvusSearch::stats`) and the files they cover.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibraryStats {
    pub stats: TermStats,
    pub sources: Vec<String>,
}

/// Summary of one ingested document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceInfo {
    pub source: String,
    pub pages: u32,
    pub documents: usize,
    pub tables: usize,
    pub vision_pages: usize,
    /// Pages each §4.1 signal flags (shown per file).
    #[serde(default)]
    pub signals: SignalCounts,
    /// Pages whose vision answers are folded into the documents.
    #[serde(default)]
    pub vision_read: usize,
    pub warnings: Vec<String>,
    /// Milliseconds the worker spent parsing and indexing.
    pub ingest_ms: f64,
}

/// A section of a document: an outline title and the first page it covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub title: String,
    pub page: u32,
}

/// One modality's part of the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlabIndex {
    pub modality: Modality,
    pub vectors: usize,
    pub graph: GraphState,
}

/// Worker → app.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FromWorker {
    Ready,
    Progress { id: u64, name: String, done: u32, total: u32 },
    /// `already`: the same file (same name, same bytes) was in the library, so it was answered
    /// from there without parsing or embedding it again.
    Ingested {
        id: u64,
        info: SourceInfo,
        #[serde(default)]
        already: bool,
    },
    /// Sent once at startup, before `Ready`: the documents restored from the browser's store, and a
    /// one-line notice when part or all of the store was unreadable and had to be cleared, and
    /// whether the search matches meaning as well as words (`semantic`: the static table loaded,
    /// `retrieve::static_embed`; without it the notice says why).
    Restored {
        sources: Vec<SourceInfo>,
        notice: Option<String>,
        #[serde(default)]
        semantic: bool,
    },
    /// Something the user should know that answers no request (e.g. the store could not be written).
    Notice { message: String },
    /// `index`: whether the exact scan or an HNSW graph produced the candidate pool.
    Hits {
        id: u64,
        hits: Vec<Hit>,
        #[serde(default)]
        index: SearchPath,
    },
    /// `embedder`: the name of the embedder the library's vectors are in (`offline-v3-1024`, or
    /// `offline-v3-1024+static-…-128` with the semantic part).
    Index { id: u64, generation: u64, slabs: Vec<SlabIndex>, embedder: String },
    /// The reply to `LibraryStats`: the statistics every query is now weighted with (`None`:
    /// this browser's own).
    QueryStats { id: u64, stats: Option<TermStats> },
    Sources { id: u64, sources: Vec<SourceInfo> },
    PageText { id: u64, source: String, page: u32, text: String },
    /// The reply to `Sections`: in page order; empty when the PDF has no outline.
    Sections { id: u64, source: String, sections: Vec<Section> },
    /// A rendered page. The PNG travels beside the JSON as a transferable `Uint8Array` (like PDF
    /// bytes in the other direction), so `png` is skipped by serde and filled in by the receiver.
    PageImage {
        id: u64,
        source: String,
        page: u32,
        /// Pages in the document, for next/previous.
        pages: u32,
        width_px: u32,
        height_px: u32,
        /// Points, rotation applied: the space citation bboxes are in (origin top-left).
        page_size: (f32, f32),
        /// Milliseconds the worker spent drawing and encoding the page.
        #[serde(default)]
        render_ms: f64,
        /// The page's printed number (`/PageLabels`, else the number printed on it), when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        #[serde(skip)]
        png: Vec<u8>,
    },
    /// The reply to `VisionPages`: `extracted` has text, signals, sizes and native tables per page
    /// (no blocks); `content` is the file's store key (SHA-256), the vision cache's file identity.
    Vision { id: u64, source: String, content: String, extracted: Extracted, cache: VisionCache },
    /// The reply to `GraphChunks`: the file's chunks that go through `graph_extraction` and the
    /// answers already stored with it.
    GraphChunks { id: u64, source: String, docs: Vec<crate::corpus::Doc>, cache: GraphCache },
    /// The past runs, newest first (the reply to SaveRun, ListRuns and DeleteRun).
    Runs { id: u64, runs: Vec<crate::history::RunSummary> },
    /// A past run's export (JSON, `clair-fin/run@1`).
    Run { id: u64, json: String },
    /// A request failed; `error` is a message for the user.
    Failed { id: u64, error: String },
    /// The worker panicked (issue 3 deliverable 5): posted by its panic hook just before the wasm
    /// instance aborts. `id` is the request it was handling (0: none). The app terminates that
    /// worker, fails the request with `error`, and starts a fresh one, which restores the library
    /// from the browser's store, so every document indexed before the crash is kept.
    Crashed { id: u64, error: String },
}

impl FromWorker {
    pub fn id(&self) -> Option<u64> {
        match self {
            FromWorker::Ready | FromWorker::Restored { .. } | FromWorker::Notice { .. } => None,
            FromWorker::Progress { id, .. }
            | FromWorker::Ingested { id, .. }
            | FromWorker::Hits { id, .. }
            | FromWorker::Index { id, .. }
            | FromWorker::QueryStats { id, .. }
            | FromWorker::Sources { id, .. }
            | FromWorker::PageText { id, .. }
            | FromWorker::Sections { id, .. }
            | FromWorker::PageImage { id, .. }
            | FromWorker::Vision { id, .. }
            | FromWorker::GraphChunks { id, .. }
            | FromWorker::Runs { id, .. }
            | FromWorker::Run { id, .. }
            | FromWorker::Failed { id, .. }
            | FromWorker::Crashed { id, .. } => Some(*id),
        }
    }
}

/// What the user reads when the worker panics (issue 3 deliverable 5): the panic's message and where
/// it happened, shortened to the crate and file (`pdf-0.10.0/src/object/types.rs:12`) rather than
/// a registry path, and what became of their documents.
pub fn crash_message(panic_text: &str) -> String {
    let text = panic_text.trim();
    // std's form: "panicked at <path>:<line>:<col>:\n<message>" (the message may be empty).
    let (place, message) = match text.strip_prefix("panicked at ") {
        Some(rest) => match rest.split_once(":\n") {
            Some((place, message)) => (Some(place), message.trim()),
            None => (Some(rest.trim_end_matches(':')), ""),
        },
        None => (None, text),
    };
    let mut message: String = message.lines().next().unwrap_or("").chars().take(200).collect();
    if message.is_empty() {
        message = "no message".into();
    }
    let place = place.map(|p| {
        // Keep "<crate>-<version>/src/…" of a registry path, or the path inside this workspace.
        let short = p
            .rsplit_once("/registry/src/")
            .map(|(_, r)| r.split_once('/').map_or(r, |(_, r)| r))
            .or_else(|| p.strip_prefix("/rustc/").and_then(|r| r.split_once("/library/")).map(|(_, r)| r))
            .unwrap_or(p);
        let mut parts = short.rsplitn(3, ':');
        let (_col, line, file) = (parts.next(), parts.next(), parts.next());
        match (file, line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            _ => short.to_string(),
        }
    });
    let cause = match place {
        Some(p) => format!("{message}, at {p}"),
        None => message,
    };
    format!("the document worker crashed on this request ({cause}); it was restarted and documents already indexed are kept")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_reads_as_message_and_short_place() {
        let m = crash_message(
            "panicked at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pdf-0.10.0/src/object/types.rs:71:9:\nindex out of bounds: the len is 0 but the index is 0",
        );
        assert_eq!(
            m,
            "the document worker crashed on this request (index out of bounds: the len is 0 but the index is 0, \
             at pdf-0.10.0/src/object/types.rs:71); it was restarted and documents already indexed are kept"
        );
        let std = crash_message("panicked at /rustc/59807616e1fa/library/alloc/src/raw_vec/mod.rs:28:5:\ncapacity overflow");
        assert!(std.contains("(capacity overflow, at alloc/src/raw_vec/mod.rs:28)"), "{std}");
        let plain = crash_message("out of memory");
        assert!(plain.contains("(out of memory)"), "{plain}");
        assert!(crash_message("panicked at core/src/x.rs:1:2:\n").contains("(no message, at core/src/x.rs:1)"));
    }
    #[test]
    fn messages_round_trip_as_tagged_json() {
        let m = ToWorker::Search { id: 7, query: "net sales".into(), k: 8, modality: Some(Modality::Table), settings: Default::default(), exact: false, dense: None };
        let s = serde_json::to_string(&m).unwrap();
        assert!(s.contains(r#""kind":"search""#));
        assert_eq!(serde_json::from_str::<ToWorker>(&s).unwrap(), m);
        // An app that does not know `exact` still searches (the graphs, when there are any).
        let old = s.replace(r#","exact":false"#, "");
        assert_eq!(serde_json::from_str::<ToWorker>(&old).unwrap(), m);
    }

    #[test]
    fn page_image_json_leaves_the_png_bytes_out() {
        let m = FromWorker::PageImage {
            id: 3, source: "a.pdf".into(), page: 2, pages: 9, width_px: 918, height_px: 1188,
            page_size: (612.0, 792.0), render_ms: 12.5, label: Some("19".into()), png: vec![0x89, b'P', b'N', b'G'],
        };
        let s = serde_json::to_string(&m).unwrap();
        assert!(!s.contains("png"), "{s}");
        match serde_json::from_str::<FromWorker>(&s).unwrap() {
            FromWorker::PageImage { png, width_px, page_size, label, .. } => {
                assert!(png.is_empty());
                assert_eq!((width_px, page_size, label.as_deref()), (918, (612.0, 792.0), Some("19")));
            }
            other => panic!("{other:?}"),
        }
    }
}
