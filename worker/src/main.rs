//! The web worker: a thin shell around `clair_core::library::Library`.
//!
//! Every message from the app is a JS array `[json, bytes?]`: the JSON is a `ToWorker`, the optional
//! `Uint8Array` carries a PDF's bytes. Replies are JSON strings of `FromWorker`, except a page image,
//! which is `[json, png bytes]`. PDF parsing, indexing
//! and search all happen here, so the page never blocks. A bad file is an error message, never a
//! dead worker: core's parser returns warnings instead of panicking.

use clair_core::library::Library;
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

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let library = Rc::new(RefCell::new(Library::new()));
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
        let mut emit = |m: FromWorker| post(&reply_scope, &m);
        library.borrow_mut().handle(msg, bytes.as_deref(), &now_ms, &mut emit);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &FromWorker::Ready);
}
