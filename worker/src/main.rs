//! The web worker: a thin shell around `clair_core::library::Library`.
//!
//! Every message from the app is a JS array `[json, bytes?]`: the JSON is a `ToWorker`, the optional
//! `Uint8Array` carries a PDF's bytes. Replies are JSON strings of `FromWorker`, except a page image,
//! which is `[json, png bytes]`. PDF parsing, indexing
//! and search all happen here, so the page never blocks. A bad file is an error message, never a
//! dead worker: core's parser returns warnings instead of panicking.
//!
//! At startup the library is restored from IndexedDB (`clair_worker::idb`, decisions in
//! `clair_core::store`) and the restored documents are announced (`Restored`) before `Ready`; the app
//! queues its requests until `Ready`. After every message the library's queued store writes are
//! applied in order (one transaction each; IndexedDB runs read-write transactions on one store in
//! creation order) and the message's reply is posted once they have committed.

use clair_core::history::{self, RunSummary};
use clair_core::library::Library;
use clair_core::store::StoreOp;
use clair_core::store::DB_NAME;
use clair_worker::idb::{self, Db};
use clair_core::protocol::{FromWorker, ToWorker};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

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

fn main() {
    wasm_bindgen_futures::spawn_local(start());
}

async fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let library = Rc::new(RefCell::new(Library::new()));
    let (db, entries, mut notice) = idb::open_or_reset(DB_NAME).await;
    let (sources, restore_notice) = library.borrow_mut().restore(entries);
    notice = notice.or(restore_notice);
    persist_then_reply(&library, &db, &scope, vec![]);
    let (runs_db, _, runs_notice) = idb::open_or_reset_empty(RUNS_DB).await;
    let runs = Rc::new(RefCell::new(Runs { db: runs_db, notice: runs_notice, list: None }));
    let reply_scope = scope.clone();
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
        library.borrow_mut().handle(msg, bytes.as_deref(), &now_ms, &mut emit);
        persist_then_reply(&library, &db, &reply_scope, replies);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &FromWorker::Restored { sources, notice });
    post(&scope, &FromWorker::Ready);
}
