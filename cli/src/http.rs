//! The native `Transport`: blocking HTTP (ureq) to an OpenAI-compatible base URL. The CLI runs one
//! request at a time, so blocking inside the async fn is fine here.

use clair_core::llm::{HttpReply, Transport, TransportError};
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

impl Transport for NativeTransport {
    async fn post_json(&self, path: &str, body: String, timeout_ms: u64) -> Result<HttpReply, TransportError> {
        let agent = ureq::AgentBuilder::new().timeout(Duration::from_millis(timeout_ms)).build();
        let mut req = agent.post(&format!("{}{}", self.base_url, path)).set("Content-Type", "application/json");
        if let Some(k) = &self.api_key {
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
    async fn sleep_ms(&self, ms: u64) {
        std::thread::sleep(Duration::from_millis(ms));
    }
    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }
}
