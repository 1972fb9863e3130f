//! The bridge to the web worker: request/response over `postMessage`, matched by id.
//!
//! The worker is started once (module worker built by trunk, `worker_loader.js`). Requests carry a
//! fresh id; the reply with that id resolves the waiting future. `Progress` messages are routed to
//! the progress sink instead.
//!
//! A worker that dies is replaced at once (issue 3 deliverable 5). In wasm a panic aborts the
//! instance, so the worker's panic hook posts `Crashed` (the request in flight and the panic's
//! message) first; an abort without a panic (out of memory) arrives as the worker's `error` event.
//! Either way the dead worker is terminated, the request it was handling fails with a message
//! naming the cause, requests already posted to it fail with "try again", requests still queued
//! for `Ready` are kept for the new one, and a fresh worker starts, restoring the library from
//! IndexedDB — so every document indexed before the crash is kept. Each worker carries a
//! generation number, so a late event from a terminated one is ignored. Three crashes in a row
//! with no reply in between (a library that cannot even be restored) stop the restarts.
//!
//! The user can stop a file being read (`cancel`). The worker reads on one thread with no memory
//! shared with the page, so it cannot be told to stop mid-file: it is terminated and a new one
//! started as after a crash, except that nothing else is lost — every request the old worker had
//! not answered is posted again to the new one (request bytes are copied, not transferred, so
//! they are still here to post), and a stop does not count towards the crash limit.
//!
//! Requests wait in a queue until the worker says `Ready`: a message posted while the worker's
//! wasm is still compiling (a cold start takes seconds for a multi-megabyte worker) can arrive
//! before its `onmessage` exists and be lost, leaving a file "queued" forever.

use clair_core::protocol::{FromWorker, ToWorker};
use futures::channel::oneshot;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

type ProgressSink = Box<dyn Fn(FromWorker)>;

// The bridge's state lives in thread-locals, not in `AppState`: it is read and written by the
// worker's `onmessage` and `onerror` closures (`start`), which the browser calls from its event
// loop outside any reactive owner, and by `request`, which core's pipeline reaches through
// `platform::WorkerSearch` from a spawned task. None of these callers can reach a context, and a
// worker restarted after a crash must find the same pending requests whatever component is mounted.
thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
    static PENDING: RefCell<HashMap<u64, oneshot::Sender<FromWorker>>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
    static SINK: RefCell<Option<ProgressSink>> = const { RefCell::new(None) };
    static READY: Cell<bool> = const { Cell::new(false) };
    /// Messages (request id, parts) waiting for `Ready`.
    static QUEUED: RefCell<Vec<(u64, js_sys::Array)>> = const { RefCell::new(Vec::new()) };
    /// Messages posted to the running worker and not answered yet, by request id (so in the order
    /// they were sent): what a stopped worker's successor is given again.
    static POSTED: RefCell<BTreeMap<u64, js_sys::Array>> = const { RefCell::new(BTreeMap::new()) };
    /// The running worker's generation: events from an older (terminated) one are ignored.
    static GENERATION: Cell<u64> = const { Cell::new(0) };
    /// Crashes since the last ordinary reply; restarts stop at `MAX_CRASHES_IN_A_ROW`.
    static CRASHES: Cell<u32> = const { Cell::new(0) };
}

const MAX_CRASHES_IN_A_ROW: u32 = 3;

/// Post a request to the running worker. The file bytes in `parts` are copied by the structured
/// clone, not transferred: they stay usable here until the reply, for `cancel`.
fn post(w: &Worker, id: u64, parts: &js_sys::Array) -> Result<(), String> {
    w.post_message(parts).map_err(|e| format!("{e:?}"))?;
    POSTED.with(|p| p.borrow_mut().insert(id, parts.clone()));
    Ok(())
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

/// Terminate the running worker. Requests it had and `QUEUED` are left to the caller.
fn terminate_running() {
    if let Some(w) = WORKER.with(|w| w.borrow_mut().take()) {
        w.terminate();
    }
    READY.with(|r| r.set(false));
}

/// Start the next worker; if even that fails, every waiting request fails with the reason.
fn start_again() {
    if let Err(e) = ensure_started() {
        QUEUED.with(|q| q.borrow_mut().clear());
        fail_all(&e);
    }
}

/// The worker of generation `generation` died while handling `in_flight` (0: unknown): see the
/// module doc. `cause` is what the user reads for that request.
fn crashed(generation: u64, in_flight: u64, cause: &str) {
    if GENERATION.with(|g| g.get()) != generation {
        return;
    }
    web_sys::console::error_1(&format!("document worker stopped: {cause}").into());
    terminate_running();
    POSTED.with(|p| p.borrow_mut().clear());
    let crashes = CRASHES.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    // Requests not yet posted wait for the new worker; those the dead one had are lost.
    let queued: Vec<u64> = QUEUED.with(|q| q.borrow().iter().map(|(id, _)| *id).collect());
    let lost: Vec<(u64, oneshot::Sender<FromWorker>)> = PENDING.with(|p| {
        let mut p = p.borrow_mut();
        let ids: Vec<u64> = p.keys().copied().filter(|id| !queued.contains(id)).collect();
        ids.into_iter().filter_map(|id| p.remove(&id).map(|tx| (id, tx))).collect()
    });
    let restart = crashes < MAX_CRASHES_IN_A_ROW;
    for (id, tx) in lost {
        let error = if id == in_flight || (in_flight == 0 && restart) {
            cause.to_string()
        } else {
            "the document worker was restarted while this was waiting; try again".to_string()
        };
        let _ = tx.send(FromWorker::Failed { id, error });
    }
    if !restart {
        QUEUED.with(|q| q.borrow_mut().clear());
        fail_all(&format!("the document worker stopped {crashes} times in a row ({cause}); reload the page"));
        return;
    }
    start_again();
}

fn start() -> Result<Worker, String> {
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    let opts = WorkerOptions::new();
    opts.set_type(WorkerType::Module);
    let w = Worker::new_with_options("./worker_loader.js", &opts).map_err(|e| format!("could not start the worker: {e:?}"))?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if GENERATION.with(|g| g.get()) != generation {
            return;
        }
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
        if let FromWorker::Crashed { id, error } = &msg {
            crashed(generation, *id, error);
            return;
        }
        if msg.id().is_some() {
            CRASHES.with(|c| c.set(0));
        }
        if let (FromWorker::PageImage { png, .. }, Some(b)) = (&mut msg, bytes) {
            *png = b.to_vec();
        }
        if matches!(msg, FromWorker::Ready) {
            READY.with(|r| r.set(true));
            let queued: Vec<_> = QUEUED.with(|q| q.borrow_mut().drain(..).collect());
            WORKER.with(|w| {
                if let Some(w) = w.borrow().as_ref() {
                    for (id, parts) in &queued {
                        if let Err(e) = post(w, *id, parts) {
                            web_sys::console::error_1(&format!("could not reach the document worker: {e}").into());
                        }
                    }
                }
            });
        }
        let waiting = match (&msg, msg.id()) {
            (FromWorker::Progress { .. }, _) | (_, None) => None,
            (_, Some(id)) => {
                POSTED.with(|p| p.borrow_mut().remove(&id));
                PENDING.with(|p| p.borrow_mut().remove(&id))
            }
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
        ev.prevent_default();
        let cause = format!(
            "the document worker stopped ({}); it was restarted and documents already indexed are kept",
            ev.message()
        );
        crashed(generation, 0, &cause);
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

/// Stop request `id` (see the module doc); it fails with `why`. Returns false when there is
/// nothing to stop: the request was answered already, or was never sent.
pub fn cancel(id: u64, why: &str) -> bool {
    let Some(tx) = PENDING.with(|p| p.borrow_mut().remove(&id)) else { return false };
    let was_queued = QUEUED.with(|q| {
        let mut q = q.borrow_mut();
        let before = q.len();
        q.retain(|(i, _)| *i != id);
        q.len() != before
    });
    if !was_queued {
        // The running worker has it: replace the worker, and give the new one, first and in
        // their order, the other requests the old one had. A late event of the old one is
        // ignored (generation).
        POSTED.with(|p| p.borrow_mut().remove(&id));
        terminate_running();
        let again: Vec<(u64, js_sys::Array)> = POSTED.with(|p| std::mem::take(&mut *p.borrow_mut()).into_iter().collect());
        QUEUED.with(|q| {
            let mut q = q.borrow_mut();
            let waiting = std::mem::take(&mut *q);
            q.extend(again);
            q.extend(waiting);
        });
        start_again();
    }
    let _ = tx.send(FromWorker::Failed { id, error: why.to_string() });
    true
}

/// Send a request (with optional file bytes, copied to the worker) and wait for its reply.
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
    if let Some(b) = bytes {
        parts.push(&b);
    }
    let sent = if READY.with(|r| r.get()) {
        WORKER.with(|w| match w.borrow().as_ref() {
            Some(w) => post(w, id, &parts),
            None => Err("worker not running".into()),
        })
    } else {
        QUEUED.with(|q| q.borrow_mut().push((id, parts)));
        Ok(())
    };
    if let Err(error) = sent {
        PENDING.with(|p| p.borrow_mut().remove(&id));
        return FromWorker::Failed { id, error: format!("could not reach the document worker: {error}") };
    }
    rx.await.unwrap_or(FromWorker::Failed { id, error: "the document worker stopped before answering".into() })
}
