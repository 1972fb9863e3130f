//! The web worker: a thin shell around `clair_core::library::Library`.
//!
//! Every message from the app is a JS array `[json, bytes?]`: the JSON is a `ToWorker`, the optional
//! `Uint8Array` carries a PDF's bytes. Replies are JSON strings of `FromWorker`, except a page image,
//! which is `[json, png bytes]`. PDF parsing, indexing
//! and search all happen here, so the page never blocks. A bad file is an error message, never a
//! dead worker: core's parser returns warnings instead of panicking.
//!
//! At startup the static-embedding table for the offline embedder's semantic part is loaded
//! (`clair_worker::semantic`: Cache Storage, else one fetch; without it the library embeds with the
//! lexical part and the `Restored` notice says so), then the library is restored from IndexedDB (`clair_worker::idb`, decisions in
//! `clair_core::store`) and the restored documents are announced (`Restored`) before `Ready`; the app
//! queues its requests until `Ready`. After every message the library's queued store writes are
//! applied in order (one transaction each; IndexedDB runs read-write transactions on one store in
//! creation order) and the message's reply is posted once they have committed.
//!
//! HNSW in the background (issue 4): instant-distance's build cannot yield, so this worker never
//! runs it. It starts a second instance of itself as the *index builder* (same bundle, a nested
//! module worker named `BUILDER_NAME`; `main` picks the mode by the worker's name), ships it a
//! modality's vectors when `Library::graph_jobs` says so, and keeps answering searches exactly
//! until the graph comes back and `Library::graph_built` swaps it in. A builder that dies is
//! `Library::builder_lost` (exact until the documents change); one working on documents that
//! changed meanwhile is terminated and a new one started for the next job.

use clair_core::history::{self, RunSummary};
use clair_core::library::Library;
use clair_core::retrieve::static_embed::StaticTable;
use clair_core::retrieve::OfflineEmbedder;
use std::sync::Arc;
use clair_core::store::StoreOp;
use clair_core::store::DB_NAME;
use clair_worker::idb::{self, Db};
use clair_core::protocol::{FromWorker, ToWorker};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use clair_core::retrieve::graph::{self, BuildReport, GraphJob, JobHeader};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The nested worker's name: the same bundle started in builder mode.
const BUILDER_NAME: &str = "clair-index-builder";

fn post(scope: &DedicatedWorkerGlobalScope, msg: &FromWorker) {
    let json = serde_json::to_string(msg).unwrap_or_else(|e| format!(r#"{{"kind":"failed","id":0,"error":"reply not serialisable: {e}"}}"#));
    match msg {
        // A page image's PNG goes beside the JSON, transferred rather than copied: `[json, bytes]`.
        FromWorker::PageImage { png, .. } => {
            let bytes = js_sys::Uint8Array::from(png.as_slice());
            let parts = js_sys::Array::of2(&JsValue::from_str(&json), &bytes);
            let transfer = js_sys::Array::of1(&bytes.buffer());
            let _ = scope.post_message_with_transfer(&parts, &transfer);
        }
        _ => {
            let _ = scope.post_message(&JsValue::from_str(&json));
        }
    }
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Hand the library's queued writes to IndexedDB, then post `replies`: a document shown as ready
/// (or removed) is already saved (or deleted) when the user sees it, so a reload right after keeps it.
/// A failed write (quota, private mode) is a notice; the replies go out either way.
fn persist_then_reply(library: &RefCell<Library>, db: &Option<Db>, scope: &DedicatedWorkerGlobalScope, replies: Vec<FromWorker>) {
    let ops = library.borrow_mut().take_store_ops();
    let db = match db {
        Some(db) if !ops.is_empty() => db.clone(),
        _ => {
            replies.iter().for_each(|m| post(scope, m));
            return;
        }
    };
    let scope = scope.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = db.apply(&ops).await {
            post(&scope, &FromWorker::Notice { message: format!("{e}: this document will not be kept across reloads") });
        }
        replies.iter().for_each(|m| post(&scope, m));
    });
}

/// The past-runs store (`clair_core::history`): its own IndexedDB database, so a damaged run can
/// never cost the document library. Summaries are read once, on first use; a run's export only
/// when it is reopened.
const RUNS_DB: &str = "clair-fin-runs";

struct Runs {
    db: Option<Db>,
    notice: Option<String>,
    list: Option<Vec<RunSummary>>,
}

async fn runs_reply(runs: Rc<RefCell<Runs>>, msg: ToWorker) -> FromWorker {
    let id = msg.id();
    let db = {
        let r = runs.borrow();
        match &r.db {
            Some(db) => db.clone(),
            None => return FromWorker::Failed { id, error: r.notice.clone().unwrap_or_else(|| "past runs cannot be kept in this browser".into()) },
        }
    };
    if runs.borrow().list.is_none() {
        let entries = match db.load_range("s:", "s;").await {
            Ok(e) => e,
            Err(e) => return FromWorker::Failed { id, error: e },
        };
        let (list, damaged) = history::list(&entries);
        let ops: Vec<StoreOp> = damaged.into_iter().map(|key| StoreOp::Delete { key }).collect();
        let _ = db.apply(&ops).await;
        runs.borrow_mut().list = Some(list);
    }
    let current = || runs.borrow().list.clone().unwrap_or_default();
    match msg {
        ToWorker::ListRuns { .. } => FromWorker::Runs { id, runs: current() },
        ToWorker::SaveRun { json, saved_at_ms, .. } => {
            let run = match clair_core::export::RunExport::from_json(&json) {
                Ok(r) => r,
                Err(e) => return FromWorker::Failed { id, error: e },
            };
            let (summary, puts) = history::entries(&run, saved_at_ms);
            let mut list = current();
            list.insert(0, summary);
            let mut ops: Vec<StoreOp> = puts.into_iter().map(|(key, bytes)| StoreOp::Put { key, bytes }).collect();
            ops.extend(history::evict(&list, history::KEEP).into_iter().map(|key| StoreOp::Delete { key }));
            list.truncate(history::KEEP);
            if let Err(e) = db.apply(&ops).await {
                return FromWorker::Failed { id, error: format!("{e}: this run is not kept in Past runs (export it to keep it)") };
            }
            runs.borrow_mut().list = Some(list.clone());
            FromWorker::Runs { id, runs: list }
        }
        ToWorker::OpenRun { key, .. } => match db.get(&history::run_key(&key)).await {
            Ok(Some(bytes)) => match history::open(&bytes) {
                Ok(run) => FromWorker::Run { id, json: run.to_json() },
                Err(e) => FromWorker::Failed { id, error: format!("this past run cannot be read ({e}); delete it") },
            },
            Ok(None) => FromWorker::Failed { id, error: "this past run is no longer stored".into() },
            Err(e) => FromWorker::Failed { id, error: e },
        },
        ToWorker::DeleteRun { key, .. } => {
            let ops = vec![StoreOp::Delete { key: history::summary_key(&key) }, StoreOp::Delete { key: history::run_key(&key) }];
            if let Err(e) = db.apply(&ops).await {
                return FromWorker::Failed { id, error: e };
            }
            let mut list = current();
            list.retain(|r| r.key != key);
            runs.borrow_mut().list = Some(list.clone());
            FromWorker::Runs { id, runs: list }
        }
        _ => FromWorker::Failed { id, error: "not a past-runs request".into() },
    }
}

thread_local! {
    /// The id of the request being handled (0: none), for the panic report.
    static IN_FLIGHT: Cell<u64> = const { Cell::new(0) };
}

/// Issue 3 deliverable 5: a panic in wasm aborts the instance (no unwinding, `catch_unwind` cannot
/// help), so before it does, say so: `Crashed` with the request in flight and the panic's message.
/// The app then terminates this worker and starts a fresh one, which restores the library.
fn report_panics(scope: DedicatedWorkerGlobalScope) {
    std::panic::set_hook(Box::new(move |info| {
        let text = info.to_string();
        web_sys::console::error_1(&format!("document worker: {text}").into());
        let id = IN_FLIGHT.with(|c| c.get());
        post(&scope, &FromWorker::Crashed { id, error: clair_core::protocol::crash_message(&text) });
    }));
}

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if scope.name() == BUILDER_NAME {
        run_builder(scope);
    } else {
        report_panics(scope);
        wasm_bindgen_futures::spawn_local(start());
    }
}

/// Builder mode: `[JobHeader json, Float32Array vectors]` in, `[BuildReport json, Uint8Array
/// graph blob]` out, one job at a time. Nothing else: no store, no library. It says `"ready"` once
/// it listens: a message posted while its wasm still loads would be lost.
fn run_builder(scope: DedicatedWorkerGlobalScope) {
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let parts: js_sys::Array = ev.data().unchecked_into();
        let header: Result<JobHeader, String> = serde_json::from_str(&parts.get(0).as_string().unwrap_or_default()).map_err(|e| format!("unreadable job: {e}"));
        let Ok(job) = header else { return };
        let vectors = parts.get(1).dyn_into::<js_sys::Float32Array>().map(|a| a.to_vec()).unwrap_or_default();
        let t0 = now_ms();
        let (blob, error) = match graph::build(&job, vectors) {
            Ok(b) => (b, None),
            Err(e) => (vec![], Some(e)),
        };
        let report = BuildReport { job, build_ms: now_ms() - t0, error };
        let json = serde_json::to_string(&report).unwrap_or_default();
        let bytes = js_sys::Uint8Array::from(blob.as_slice());
        drop(blob);
        let _ = reply_scope.post_message_with_transfer(&js_sys::Array::of2(&JsValue::from_str(&json), &bytes), &js_sys::Array::of1(&bytes.buffer()));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(BUILDER_READY));
}

const BUILDER_READY: &str = "ready";

/// The search worker's state: the library, its store, and the builder worker when one runs.
struct Shell {
    scope: DedicatedWorkerGlobalScope,
    library: RefCell<Library>,
    db: Option<Db>,
    builder: RefCell<Option<Worker>>,
    /// Jobs (message parts, transfer list) waiting for the builder's `"ready"`; `None` once ready.
    builder_queue: RefCell<Option<Vec<(js_sys::Array, js_sys::Array)>>>,
    /// A wake-up is pending (setTimeout), so `tick` does not stack them.
    wake_pending: Cell<bool>,
}

/// After every message, a builder answer and a wake-up: start the graph builds that are due,
/// stop a builder whose work went stale, save what the library queued, and ask to be woken for
/// builds still waiting on the debounce.
fn tick(shell: &Rc<Shell>) {
    let work = shell.library.borrow_mut().graph_jobs(now_ms());
    if work.cancel_running {
        stop_builder(shell);
    }
    for job in work.jobs {
        if let Err(e) = send_job(shell, &job) {
            shell.library.borrow_mut().builder_lost(&e);
        }
    }
    persist_then_reply(&shell.library, &shell.db, &shell.scope, vec![]);
    if let (Some(ms), false) = (work.wake_in_ms, shell.wake_pending.get()) {
        shell.wake_pending.set(true);
        let s = shell.clone();
        let wake = Closure::once_into_js(move || {
            s.wake_pending.set(false);
            tick(&s);
        });
        let _ = shell.scope.set_timeout_with_callback_and_timeout_and_arguments_0(wake.unchecked_ref(), ms.ceil() as i32 + 1);
    }
}

fn stop_builder(shell: &Shell) {
    if let Some(w) = shell.builder.borrow_mut().take() {
        w.terminate();
    }
    *shell.builder_queue.borrow_mut() = Some(vec![]);
}

fn send_job(shell: &Rc<Shell>, job: &GraphJob) -> Result<(), String> {
    if shell.builder.borrow().is_none() {
        *shell.builder_queue.borrow_mut() = Some(vec![]);
        *shell.builder.borrow_mut() = Some(start_builder(shell)?);
    }
    let json = serde_json::to_string(&job.header()).map_err(|e| e.to_string())?;
    let vectors = js_sys::Float32Array::from(job.vectors.as_slice());
    let parts = js_sys::Array::of2(&JsValue::from_str(&json), &vectors);
    let transfer = js_sys::Array::of1(&vectors.buffer());
    if let Some(queue) = shell.builder_queue.borrow_mut().as_mut() {
        queue.push((parts, transfer));
        return Ok(());
    }
    let b = shell.builder.borrow();
    let w = b.as_ref().ok_or("no index builder")?;
    w.post_message_with_transfer(&parts, &transfer).map_err(|e| format!("could not reach the index builder: {e:?}"))
}

fn start_builder(shell: &Rc<Shell>) -> Result<Worker, String> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    opts.set_name(BUILDER_NAME);
    // trunk's loader shim, next to this worker's own script.
    let w = Worker::new_with_options("./worker_loader.js", &opts).map_err(|e| format!("could not start the index builder: {e:?}"))?;
    let s = shell.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let data = ev.data();
        if data.as_string().as_deref() == Some(BUILDER_READY) {
            let queued = s.builder_queue.borrow_mut().take().unwrap_or_default();
            if let Some(w) = s.builder.borrow().as_ref() {
                for (parts, transfer) in &queued {
                    let _ = w.post_message_with_transfer(parts, transfer);
                }
            }
            return;
        }
        if !data.is_array() {
            return;
        }
        let parts: js_sys::Array = data.unchecked_into();
        let Ok(report) = serde_json::from_str::<BuildReport>(&parts.get(0).as_string().unwrap_or_default()) else {
            s.library.borrow_mut().builder_lost("the index builder sent an unreadable answer");
            return;
        };
        let blob = parts.get(1).dyn_into::<js_sys::Uint8Array>().ok().map(|a| a.to_vec());
        s.library.borrow_mut().graph_built(report, blob.as_deref());
        tick(&s);
    });
    w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let s = shell.clone();
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
        ev.prevent_default();
        stop_builder(&s);
        s.library.borrow_mut().builder_lost(&format!("the index builder stopped: {}", ev.message()));
        tick(&s);
    });
    w.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Ok(w)
}

/// The library's embedder: the offline one with its semantic part when the static table loads
/// (from Cache Storage, or fetched once), its lexical part alone — and a notice saying so — when
/// it does not. Restored files embedded the other way are embedded again (`Library::restore`).
async fn library_with_semantic_part() -> (Library, Option<String>) {
    let table = clair_worker::semantic::load().await.and_then(|bytes| StaticTable::from_bytes(&bytes));
    match table {
        Ok(t) => (Library::with_embedder(OfflineEmbedder::with_default_static(Arc::new(t))), None),
        Err(e) => {
            web_sys::console::warn_1(&format!("document worker: {e}").into());
            (Library::new(), Some(format!("{e}: search matches words only, not their meaning")))
        }
    }
}

async fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let (mut library, semantic_notice) = library_with_semantic_part().await;
    let semantic = semantic_notice.is_none();
    let (db, entries, mut notice) = idb::open_or_reset(DB_NAME).await;
    // Both when both happened: the store's notice and why search matches words only.
    notice = match (notice, semantic_notice) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    let (sources, restore_notice) = library.restore(entries);
    notice = notice.or(restore_notice);
    let shell = Rc::new(Shell { scope: scope.clone(), library: RefCell::new(library), db, builder: RefCell::new(None), builder_queue: RefCell::new(None), wake_pending: Cell::new(false) });
    persist_then_reply(&shell.library, &shell.db, &scope, vec![]);
    let (runs_db, _, runs_notice) = idb::open_or_reset_empty(RUNS_DB).await;
    let runs = Rc::new(RefCell::new(Runs { db: runs_db, notice: runs_notice, list: None }));
    let reply_scope = scope.clone();
    let sh = shell.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let data = ev.data();
        let parts: js_sys::Array = if data.is_array() { data.unchecked_into() } else { js_sys::Array::of1(&data) };
        let json = parts.get(0).as_string().unwrap_or_default();
        let bytes = parts.get(1).dyn_into::<js_sys::Uint8Array>().ok().map(|a| a.to_vec());
        let msg: ToWorker = match serde_json::from_str(&json) {
            Ok(m) => m,
            Err(e) => {
                post(&reply_scope, &FromWorker::Failed { id: 0, error: format!("worker got an unreadable request: {e}") });
                return;
            }
        };
        if matches!(msg, ToWorker::SaveRun { .. } | ToWorker::ListRuns { .. } | ToWorker::OpenRun { .. } | ToWorker::DeleteRun { .. }) {
            let (runs, scope) = (runs.clone(), reply_scope.clone());
            wasm_bindgen_futures::spawn_local(async move { post(&scope, &runs_reply(runs, msg).await) });
            return;
        }
        // Progress goes out at once; the answer waits for its store writes.
        let mut replies = vec![];
        let mut emit = |m: FromWorker| match m {
            FromWorker::Progress { .. } => post(&reply_scope, &m),
            other => replies.push(other),
        };
        // The outermost request is the one a panic is reported against (a handler that re-enters
        // this one, which can only be a bug, is not what the user asked for).
        let outer = IN_FLIGHT.with(|c| c.replace(msg.id()));
        if outer != 0 {
            IN_FLIGHT.with(|c| c.set(outer));
        }
        sh.library.borrow_mut().handle(msg, bytes.as_deref(), &now_ms, &mut emit);
        IN_FLIGHT.with(|c| c.set(outer));
        persist_then_reply(&sh.library, &sh.db, &reply_scope, replies);
        tick(&sh);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &FromWorker::Restored { sources, notice, semantic });
    post(&scope, &FromWorker::Ready);
    tick(&shell);
}
