//! The native `Transport`: HTTP (ureq) to an OpenAI-compatible base URL.
//!
//! ureq blocks, and the pipeline is driven by a single-threaded executor (`futures::executor`), so a
//! blocking call inside the async fn would serialise every claim. Each request (and each backoff
//! sleep) therefore runs on its own short-lived thread and is awaited through a oneshot channel: the
//! claims the pipeline runs concurrently (spec §0, `pipeline.claim_concurrency`) really overlap, with
//! no async runtime in the CLI.

use clair_core::llm::{HttpReply, Transport, TransportError};
use futures::channel::oneshot;
use std::time::{Duration, Instant};

pub struct NativeTransport {
    base_url: String,
    api_key: Option<String>,
    started: Instant,
}

impl NativeTransport {
    /// `base_url` like `https://api.openai.com/v1`; the key comes from the environment only.
    pub fn new(base_url: &str, api_key: Option<String>) -> Self {
        NativeTransport { base_url: base_url.trim_end_matches('/').to_string(), api_key, started: Instant::now() }
    }
}

/// Run `f` on a new thread and await its result without blocking the executor.
pub(crate) async fn off_thread<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> Option<R> {
    let (tx, rx) = oneshot::channel();
    std::thread::Builder::new()
        .name("clair-http".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .ok()?;
    rx.await.ok()
}

fn post_blocking(url: String, api_key: Option<String>, body: String, timeout_ms: u64) -> Result<HttpReply, TransportError> {
    let agent = ureq::AgentBuilder::new().timeout(Duration::from_millis(timeout_ms)).build();
    let mut req = agent.post(&url).set("Content-Type", "application/json");
    if let Some(k) = &api_key {
        req = req.set("Authorization", &format!("Bearer {k}"));
    }
    let reply = |r: ureq::Response| {
        let status = r.status();
        let retry_after_s = r.header("retry-after").and_then(|v| v.trim().parse::<f64>().ok());
        let body = r.into_string().unwrap_or_default();
        HttpReply { status, retry_after_s, body }
    };
    match req.send_string(&body) {
        Ok(r) => Ok(reply(r)),
        Err(ureq::Error::Status(_, r)) => Ok(reply(r)),
        Err(ureq::Error::Transport(t)) => {
            let msg = t.to_string();
            if msg.contains("timed out") || msg.contains("Timeout") {
                Err(TransportError::Timeout)
            } else {
                Err(TransportError::Network(msg))
            }
        }
    }
}

impl Transport for NativeTransport {
    async fn post_json(&self, path: &str, body: String, timeout_ms: u64) -> Result<HttpReply, TransportError> {
        let url = format!("{}{}", self.base_url, path);
        let key = self.api_key.clone();
        off_thread(move || post_blocking(url, key, body, timeout_ms))
            .await
            .unwrap_or_else(|| Err(TransportError::Network("could not start an HTTP thread".into())))
    }
    async fn sleep_ms(&self, ms: u64) {
        let _ = off_thread(move || std::thread::sleep(Duration::from_millis(ms))).await;
    }
    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }
}
