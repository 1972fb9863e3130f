//! The browser side of core's platform traits: `Transport` over fetch (gloo-net) and `Search` over
//! the worker. The API key lives only here, in memory, and is added as a header — never in a URL,
//! a body, the ledger or an export.

use crate::worker;
use clair_core::config::{Modality, RetrievalSettings};
use clair_core::corpus::Hit;
use clair_core::llm::{HttpReply, Transport, TransportError};
use clair_core::protocol::{FromWorker, ToWorker};
use clair_core::retrieve::Search;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// How often a call in flight looks at its Cancel flag.
const CANCEL_POLL_MS: u64 = 100;

pub struct BrowserTransport {
    pub base_url: String,
    pub api_key: String,
    pub cancel: Rc<Cell<bool>>,
}

pub async fn sleep_ms(ms: u64) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms.min(i32::MAX as u64) as i32);
        }
    });
    let _ = JsFuture::from(p).await;
}

pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

impl Transport for BrowserTransport {
    async fn post_json(&self, path: &str, body: String, timeout_ms: u64) -> Result<HttpReply, TransportError> {
        if self.cancel.get() {
            return Err(TransportError::Cancelled);
        }
        let url = format!("{}{}", self.base_url.trim_end_matches('/'), path);
        let controller = web_sys::AbortController::new().map_err(|e| TransportError::Network(format!("{e:?}")))?;
        let signal = controller.signal();
        let timed_out = Rc::new(Cell::new(false));
        let (c2, t2) = (controller.clone(), timed_out.clone());
        let on_timeout = Closure::once_into_js(move || {
            t2.set(true);
            c2.abort();
        });
        let timer = web_sys::window()
            .and_then(|w| w.set_timeout_with_callback_and_timeout_and_arguments_0(on_timeout.unchecked_ref(), timeout_ms.min(i32::MAX as u64) as i32).ok());
        let mut req = gloo_net::http::Request::post(&url).header("Content-Type", "application/json").abort_signal(Some(&signal));
        if !self.api_key.is_empty() {
            req = req.header("Authorization", &format!("Bearer {}", self.api_key));
        }
        let req = req.body(body).map_err(|e| TransportError::Network(e.to_string()))?;
        // Cancel aborts the call in flight too, not only the calls after it: a model answer can
        // take a minute, and Cancel / Stop / "Cancel vision" promise to stop within about a second.
        let send = req.send();
        let watch = async {
            while !self.cancel.get() {
                sleep_ms(CANCEL_POLL_MS).await;
            }
        };
        futures::pin_mut!(send, watch);
        let result = futures::future::select(send, watch).await;
        if let (Some(t), Some(w)) = (timer, web_sys::window()) {
            w.clear_timeout_with_handle(t);
        }
        let result = match result {
            futures::future::Either::Left((r, _)) => r,
            futures::future::Either::Right(_) => {
                controller.abort();
                return Err(TransportError::Cancelled);
            }
        };
        match result {
            Ok(resp) => {
                let status = resp.status();
                let retry_after_s = resp.headers().get("retry-after").and_then(|v| v.trim().parse::<f64>().ok());
                let body = resp.text().await.unwrap_or_default();
                Ok(HttpReply { status, retry_after_s, body })
            }
            Err(_) if self.cancel.get() => Err(TransportError::Cancelled),
            Err(_) if timed_out.get() => Err(TransportError::Timeout),
            Err(e) => Err(TransportError::Network(format!(
                "{e} (is the server running, is the base URL right, and does it allow cross-origin requests from this page?)"
            ))),
        }
    }
    async fn sleep_ms(&self, ms: u64) {
        sleep_ms(ms).await
    }
    fn now_ms(&self) -> f64 {
        now_ms()
    }
    fn cancelled(&self) -> bool {
        self.cancel.get()
    }
}

/// Search through the worker's index.
pub struct WorkerSearch {
    pub settings: RetrievalSettings,
}

impl WorkerSearch {
    async fn ask(&self, query: &str, dense: Option<&str>, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        let id = worker::next_id();
        let dense = dense.map(str::to_string);
        let msg = ToWorker::Search { id, query: query.to_string(), k, modality, settings: self.settings.clone(), exact: false, dense };
        match worker::request(msg, None).await {
            FromWorker::Hits { hits, .. } => Ok(hits),
            FromWorker::Failed { error, .. } => Err(error),
            other => Err(format!("unexpected worker reply: {other:?}")),
        }
    }
}

impl Search for WorkerSearch {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.ask(query, None, k, modality).await
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.ask(query, Some(passage), k, modality).await
    }
}

/// Save a string as a file via a temporary object URL.
pub fn download(name: &str, content: &str, mime: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = doc.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    // Revoke later: revoking at once can cancel the download before the browser has read the blob.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    }
}

/// The text of the file chosen in a file input (then cleared, so the same file can be chosen
/// again), handed to `then(name, text)`; a file that cannot be read gives `Err(message)`.
pub fn read_chosen_text(ev: &web_sys::Event, then: impl FnOnce(String, Result<String, String>) + 'static) {
    let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
    let Some(file) = input.files().and_then(|l| l.get(0)) else { return };
    input.set_value("");
    wasm_bindgen_futures::spawn_local(async move {
        let name = file.name();
        let text = JsFuture::from(file.text()).await.map(|t| t.as_string().unwrap_or_default()).map_err(|e| format!("could not read {name}: {e:?}"));
        then(name, text);
    });
}
