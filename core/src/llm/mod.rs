//! Talking to an OpenAI-compatible model, without owning a network stack.
//!
//! The shells provide a `Transport` (gloo-net in the browser, a native client in the CLI) that
//! POSTs a JSON body to `<base_url><path>` and adds the `Authorization` header — so the API key
//! stays in the shell and never enters core, the ledger or an export. Core owns everything else:
//! the request body, the structured-output contract per role (`roles`), response parsing, schema
//! validation, the retry policy and usage/cost accounting (`client`).

pub mod client;
pub mod roles;
pub mod schema;
mod slots;
pub mod wire;

pub use client::{CallEvent, CallRecord, LlmClient, Outcome};
pub use roles::{Role, RoleOutput};

/// What came back from one HTTP exchange.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpReply {
    pub status: u16,
    /// `Retry-After` in seconds, when the server sent one.
    pub retry_after_s: Option<f64>,
    pub body: String,
}

/// Why an HTTP exchange produced no reply at all.
#[derive(Debug, Clone, PartialEq)]
pub enum TransportError {
    /// Could not connect / DNS / CORS refused. The message is shown to the user.
    Network(String),
    Timeout,
    Cancelled,
}

/// The one thing a shell must provide to reach a model. `?Send` on purpose: in the browser futures
/// are not `Send`.
#[allow(async_fn_in_trait)]
pub trait Transport {
    /// POST `body` (JSON) to `path` relative to the configured base URL (e.g. `/chat/completions`).
    async fn post_json(&self, path: &str, body: String, timeout_ms: u64) -> Result<HttpReply, TransportError>;
    /// Wait (retry backoff). Core has no clock.
    async fn sleep_ms(&self, ms: u64);
    /// Milliseconds since some fixed point, for latency accounting (0 if unavailable).
    fn now_ms(&self) -> f64 {
        0.0
    }
    /// True once the user pressed cancel.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Token counts of one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}
