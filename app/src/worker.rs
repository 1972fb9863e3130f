//! The bridge to the web worker: request/response over `postMessage`, matched by id.
//!
//! The worker is started once (module worker built by trunk, `worker_loader.js`). Requests carry a
//! fresh id; the reply with that id resolves the waiting future. `Progress` messages are routed to
//! the progress sink instead. If the worker dies (e.g. out of memory on a huge file) every waiting
//! request resolves with an error the user can read, and the next request restarts it.
//!
//! Requests wait in a queue until the worker says `Ready`: a message posted while the worker's
//! wasm is still compiling (a cold start takes seconds for a multi-megabyte worker) can arrive
//! before its `onmessage` exists and be lost, leaving a file "queued" forever.

use clair_core::protocol::{FromWorker, ToWorker};
use futures::channel::oneshot;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

type ProgressSink = Box<dyn Fn(FromWorker)>;

thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
    static PENDING: RefCell<HashMap<u64, oneshot::Sender<FromWorker>>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
    static SINK: RefCell<Option<ProgressSink>> = const { RefCell::new(None) };
    static READY: Cell<bool> = const { Cell::new(false) };
    /// Messages (parts, transfer list) waiting for `Ready`.
    static QUEUED: RefCell<Vec<(js_sys::Array, js_sys::Array)>> = const { RefCell::new(Vec::new()) };
}

fn post(w: &Worker, parts: &js_sys::Array, transfer: &js_sys::Array) -> Result<(), String> {
    w.post_message_with_transfer(parts, transfer).map_err(|e| format!("{e:?}"))
}

/// Where `Progress` and unsolicited messages go (set once by the UI).
pub fn set_progress_sink(f: impl Fn(FromWorker) + 'static) {
    SINK.with(|s| *s.borrow_mut() = Some(Box::new(f)));
}

fn fail_all(error: &str) {
    let pending: Vec<(u64, oneshot::Sender<FromWorker>)> = PENDING.with(|p| p.borrow_mut().drain().collect());
    for (id, tx) in pending {
        let _ = tx.send(FromWorker::Failed { id, error: error.to_string() });
    }
}

fn start() -> Result<Worker, String> {
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    let w = Worker::new_with_options("./worker_loader.js", &opts).map_err(|e| format!("could not start the worker: {e:?}"))?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        // Replies are a JSON string, or `[json, bytes]` when a page image's PNG rides along.
        let data = ev.data();
        let (text, bytes) = if data.is_array() {
            let parts: js_sys::Array = data.unchecked_into();
            (parts.get(0).as_string(), parts.get(1).dyn_into::<js_sys::Uint8Array>().ok())
        } else {
            (data.as_string(), None)
        };
        let Some(text) = text else { return };
        let mut msg: FromWorker = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                web_sys::console::error_1(&format!("unreadable worker reply: {e}").into());
                return;
            }
        };
        if let (FromWorker::PageImage { png, .. }, Some(b)) = (&mut msg, bytes) {
            *png = b.to_vec();
        }
        if matches!(msg, FromWorker::Ready) {
            READY.with(|r| r.set(true));
            let queued: Vec<_> = QUEUED.with(|q| q.borrow_mut().drain(..).collect());
            WORKER.with(|w| {
                if let Some(w) = w.borrow().as_ref() {
                    for (parts, transfer) in &queued {
                        if let Err(e) = post(w, parts, transfer) {
                            web_sys::console::error_1(&format!("could not reach the document worker: {e}").into());
                        }
                    }
                }
            });
        }
        let waiting = match (&msg, msg.id()) {
            (FromWorker::Progress { .. }, _) | (_, None) => None,
            (_, Some(id)) => PENDING.with(|p| p.borrow_mut().remove(&id)),
        };
        match waiting {
            Some(tx) => {
                let _ = tx.send(msg);
            }
            None => SINK.with(|s| {
                if let Some(f) = s.borrow().as_ref() {
                    f(msg)
                }
            }),
        }
    });
    w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
        let msg = format!("the document worker stopped: {} — reload the page; documents already indexed are kept", ev.message());
        web_sys::console::error_1(&msg.clone().into());
        WORKER.with(|w| *w.borrow_mut() = None);
        READY.with(|r| r.set(false));
        QUEUED.with(|q| q.borrow_mut().clear());
        fail_all(&msg);
    });
    w.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Ok(w)
}

/// Start the worker now (so it is warm when the first file arrives).
pub fn ensure_started() -> Result<(), String> {
    WORKER.with(|slot| {
        if slot.borrow().is_none() {
            *slot.borrow_mut() = Some(start()?);
        }
        Ok(())
    })
}

pub fn next_id() -> u64 {
    NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    })
}

/// Send a request (with optional file bytes, transferred not copied) and wait for its reply.
pub async fn request(msg: ToWorker, bytes: Option<js_sys::Uint8Array>) -> FromWorker {
    let id = msg.id();
    if let Err(error) = ensure_started() {
        return FromWorker::Failed { id, error };
    }
    let (tx, rx) = oneshot::channel();
    PENDING.with(|p| p.borrow_mut().insert(id, tx));
    let json = match serde_json::to_string(&msg) {
        Ok(j) => j,
        Err(e) => return FromWorker::Failed { id, error: format!("request not serialisable: {e}") },
    };
    let parts = js_sys::Array::of1(&JsValue::from_str(&json));
    let transfer = js_sys::Array::new();
    if let Some(b) = bytes {
        transfer.push(&b.buffer());
        parts.push(&b);
    }
    let sent = if READY.with(|r| r.get()) {
        WORKER.with(|w| match w.borrow().as_ref() {
            Some(w) => post(w, &parts, &transfer),
            None => Err("worker not running".into()),
        })
    } else {
        QUEUED.with(|q| q.borrow_mut().push((parts, transfer)));
        Ok(())
    };
    if let Err(error) = sent {
        PENDING.with(|p| p.borrow_mut().remove(&id));
        return FromWorker::Failed { id, error: format!("could not reach the document worker: {error}") };
    }
    rx.await.unwrap_or(FromWorker::Failed { id, error: "the document worker stopped before answering".into() })
}
