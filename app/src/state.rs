//! The app's state in one place: every signal the panels share, provided once by `App` through
//! context (`use_app`) instead of passed down as props. Signals are arena handles, so `AppState`
//! is `Copy` and a panel reads or writes exactly the signals it needs.

use crate::library::LibraryState;
use crate::store;
use crate::viewer::Viewer;
use crate::vision;
use clair_core::config::Settings;
use clair_core::export::RunExport;
use clair_core::history::RunSummary;
use clair_core::protocol::SourceInfo;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
pub enum DocStatus {
    Queued,
    Parsing { done: u32, total: u32 },
    Ready(SourceInfo),
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct DocEntry {
    /// Request id of the ingest, used to route progress; the key of the document list.
    pub id: u64,
    pub name: String,
    pub status: DocStatus,
    /// "restored" (from the browser's store at startup) or "already in library" (a re-drop).
    pub note: Option<&'static str>,
}

/// What a file's row says after the user stopped reading it.
pub const STOPPED: &str = "stopped: you stopped reading this file (nothing of it was kept); drop it again to read it";

/// Which view the right-hand pane shows: the cited page, or the ledger graph on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Page,
    Graph,
}

#[derive(Clone, Copy)]
pub struct AppState {
    pub docs: RwSignal<Vec<DocEntry>>,
    pub settings: RwSignal<Settings>,
    pub remember: RwSignal<bool>,
    pub api_key: RwSignal<String>,
    pub question: RwSignal<String>,
    pub running: RwSignal<bool>,
    pub progress: RwSignal<Vec<String>>,
    pub run: RwSignal<Option<RunExport>>,
    pub error: RwSignal<Option<String>>,
    /// Model calls in flight (claim, role), from the client's call events.
    pub in_flight: RwSignal<Vec<(String, String)>>,
    pub viewer: Viewer,
    pub selected: RwSignal<Option<String>>,
    /// The file name a shown run was imported from.
    pub imported: RwSignal<Option<String>>,
    /// A file is being dragged over the window.
    pub dragging: RwSignal<bool>,
    /// What the last drop could not add (files that are not PDFs).
    pub drop_notice: RwSignal<Option<String>>,
    pub settings_open: RwSignal<bool>,
    pub export_open: RwSignal<bool>,
    pub evaluate_open: RwSignal<bool>,
    pub pane: RwSignal<Pane>,
    /// One line about the saved library (damaged entries dropped, store cleared, a failed write).
    pub store_notice: RwSignal<Option<String>>,
    /// Whether the documents' search matches meaning as well as words (the worker's static table
    /// loaded); None until the worker has started.
    pub semantic_search: RwSignal<Option<bool>>,
    /// Per file: the vision plan, its progress or its result (issue 7).
    pub vision: vision::VisionState,
    /// Past runs kept by the worker in IndexedDB.
    pub past: RwSignal<Vec<RunSummary>>,
    /// Set by Cancel; polled by the model transport of the run in progress.
    pub cancel: StoredValue<Rc<Cell<bool>>, LocalStorage>,
    /// Set by Evaluate's Stop; polled between questions and by the transport of the question in
    /// progress (its call in flight is aborted).
    pub eval_stop: StoredValue<Rc<Cell<bool>>, LocalStorage>,
    /// "Library on a server" (issue 42): address, collection, token.
    pub library: LibraryState,
}

impl AppState {
    pub fn new() -> Self {
        let (saved, settings_notice) = store::load_settings();
        let settings = RwSignal::new(saved);
        AppState {
            docs: RwSignal::new(vec![]),
            settings,
            remember: RwSignal::new(store::load_remember()),
            api_key: RwSignal::new(store::load_key()),
            question: RwSignal::new(String::new()),
            running: RwSignal::new(false),
            progress: RwSignal::new(vec![]),
            run: RwSignal::new(None),
            error: RwSignal::new(settings_notice),
            in_flight: RwSignal::new(vec![]),
            viewer: Viewer::new(settings),
            selected: RwSignal::new(None),
            imported: RwSignal::new(None),
            dragging: RwSignal::new(false),
            drop_notice: RwSignal::new(None),
            // Closed at start: importing a run or adding PDFs needs no key; asking without one opens it.
            settings_open: RwSignal::new(false),
            export_open: RwSignal::new(false),
            evaluate_open: RwSignal::new(false),
            pane: RwSignal::new(Pane::Page),
            store_notice: RwSignal::new(None),
            semantic_search: RwSignal::new(None),
            vision: vision::VisionState::new(),
            past: RwSignal::new(vec![]),
            cancel: StoredValue::new_local(Rc::new(Cell::new(false))),
            eval_stop: StoredValue::new_local(Rc::new(Cell::new(false))),
            library: LibraryState::load(),
        }
    }

    /// Show a recorded run (imported or reopened) exactly as it was: answer, claims, graph.
    pub fn show_run(self, r: RunExport, imported_from: Option<String>) {
        self.error.set(None);
        self.progress.set(vec![]);
        self.viewer.target.set(None);
        self.selected.set(r.claims.first().map(|c| c.claim_id.clone()));
        self.question.set(r.question.clone());
        self.imported.set(imported_from);
        self.run.set(Some(r));
    }

    /// Update the document with ingest id `id`.
    pub fn update_doc(self, id: u64, f: impl FnOnce(&mut DocEntry)) {
        self.docs.update(|v| {
            if let Some(d) = v.iter_mut().find(|d| d.id == id) {
                f(d)
            }
        });
    }
}

/// The state `App` provided.
pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
