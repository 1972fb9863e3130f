//! Structured, validated, retried, accounted model calls — and the fail-closed rule.
//!
//! Every call returns an `Outcome`: either the model's answer after it parsed and validated against
//! the role's schema, or the role's conservative default together with the reason (issue "pipeline"
//! item 3; spec §12 lists the fail-open paths this replaces). Transient failures (429, 5xx, timeouts,
//! network) are retried with exponential backoff honouring `Retry-After`; content failures
//! (malformed JSON, schema violation, truncation) get one more try — after a truncation
//! (`finish_reason = length`) with a larger output cap and an instruction to be brief, since the same
//! request at temperature 0 would be cut off at the same place (issue 39 item 2). Requests wait for
//! one of `models.max_concurrent_requests` slots before they are sent, so a local server answering
//! one at a time does not time out the ones queued behind (issue 39 item 6). Authentication and not-found
//! errors are not retried: they are recorded as fatal so the run can stop with a message the user
//! can act on instead of abstaining on every claim.

use super::roles::{Role, RoleOutput};
use super::slots::Slots;
use super::wire::{self, ChatRequest};
use super::{HttpReply, Transport, TransportError, Usage};
use crate::config::Settings;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};

/// One model call as the ledger records it (never the key, never the prompt body).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    /// The role name (`planner`, `entailment`, …) or `embeddings`.
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    pub model: String,
    pub attempts: u32,
    pub usage: Usage,
    /// None when the model is unpriced (spec §6.5).
    pub cost_usd: Option<f64>,
    pub latency_ms: f64,
    /// Some(reason) when the conservative default was used instead of a model answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// The result of a structured call.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome<O> {
    pub value: O,
    /// Some(reason) when `value` is the conservative default.
    pub failure: Option<String>,
}

impl<O> Outcome<O> {
    pub fn succeeded(&self) -> bool {
        self.failure.is_none()
    }
}

enum Attempt {
    Ok(String, Usage, Option<String>),
    Transient(String, Option<f64>),
    /// Nothing answered at all (connection refused, DNS, CORS). Retried; if it persists the
    /// endpoint is unreachable and the run stops with this message instead of abstaining everywhere.
    Unreachable(String),
    Content(String, Usage),
    /// Cut off at the output-token cap (`finish_reason = length`).
    Truncated(Usage),
    Fatal(String),
}

/// Added to the system message of the retry after a truncated answer: a small model filling a JSON
/// string until the cap needs telling, and the retry also has a larger cap.
pub const BE_BRIEF: &str = "Your previous answer was cut off at the output limit. Answer again, briefly: keep every text field short and include only what the task asks for.";

/// A model call starting or ending, for shells that show calls live (issue 5 item 6: the progress
/// stream includes call started/finished). Phase events come from the pipeline; call events from the
/// client, because only the client knows when a request leaves and returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum CallEvent {
    Started { role: String, claim_id: Option<String>, model: String },
    /// The finished call's record (failure set when the conservative default was used).
    Finished { record: CallRecord },
}

type CallObserver<'a> = Box<dyn FnMut(&CallEvent) + 'a>;

pub struct LlmClient<'a, T: Transport> {
    transport: &'a T,
    settings: &'a Settings,
    records: RefCell<Vec<CallRecord>>,
    calls: Cell<u32>,
    fatal: RefCell<Option<String>>,
    observer: RefCell<Option<CallObserver<'a>>>,
    /// Per-claim call reservations under a tight cap: (claim id, reserved, used).
    reservations: RefCell<Vec<(String, u32, u32)>>,
    /// `models.max_concurrent_requests` slots shared by chat and embedding requests.
    slots: Slots,
}

impl<'a, T: Transport> LlmClient<'a, T> {
    pub fn new(transport: &'a T, settings: &'a Settings) -> Self {
        LlmClient {
            transport,
            settings,
            records: RefCell::new(vec![]),
            calls: Cell::new(0),
            fatal: RefCell::new(None),
            observer: RefCell::new(None),
            reservations: RefCell::new(vec![]),
            slots: Slots::new(settings.models.effective_max_concurrent_requests()),
        }
    }

    /// Call `f` whenever a model call starts or finishes (the shells render these live).
    pub fn observe(&self, f: impl FnMut(&CallEvent) + 'a) {
        *self.observer.borrow_mut() = Some(Box::new(f));
    }

    fn notify(&self, e: CallEvent) {
        if let Some(f) = self.observer.borrow_mut().as_mut() {
            f(&e);
        }
    }

    fn finish(&self, record: CallRecord) {
        self.records.borrow_mut().push(record.clone());
        self.notify(CallEvent::Finished { record });
    }

    pub fn transport(&self) -> &T {
        self.transport
    }

    pub fn settings(&self) -> &Settings {
        self.settings
    }

    /// Share what is left of the call cap (`Settings::call_cap`) among claims, in claim order, before
    /// they run: each gets up to `per_claim` calls while the cap lasts, one call stays for the
    /// synthesizer. A claim's calls then count against its own share only, so which claims still
    /// get calls does not depend on how their calls interleave in time (issue 38 item 6).
    pub fn reserve_for_claims(&self, claim_ids: &[String], per_claim: u32) {
        let mut left = self.settings.call_cap().saturating_sub(self.calls.get()).saturating_sub(1);
        let mut r = self.reservations.borrow_mut();
        r.clear();
        for id in claim_ids {
            let n = per_claim.min(left);
            left -= n;
            r.push((id.clone(), n, 0));
        }
    }

    /// Count a call against the cap: the claim's reservation when it has one, else the whole cap.
    fn admit(&self, claim_id: Option<&str>) -> Result<(), String> {
        let cap = self.settings.call_cap();
        let exhausted = || format!("call budget of {cap} model calls per question exhausted (pipeline.max_llm_calls)");
        let mut r = self.reservations.borrow_mut();
        match claim_id.and_then(|id| r.iter_mut().find(|(c, _, _)| c.as_str() == id)) {
            Some((_, reserved, used)) => {
                if *used >= *reserved {
                    return Err(exhausted());
                }
                *used += 1;
            }
            None if self.calls.get() >= cap => return Err(exhausted()),
            None => {}
        }
        self.calls.set(self.calls.get() + 1);
        Ok(())
    }

    /// Every call made so far, in order.
    pub fn records(&self) -> Vec<CallRecord> {
        self.records.borrow().clone()
    }

    /// An error that makes further calls pointless (bad key, wrong URL or model), if one occurred.
    pub fn fatal_error(&self) -> Option<String> {
        self.fatal.borrow().clone()
    }

    pub fn calls_made(&self) -> u32 {
        self.calls.get()
    }

    /// A structured call for role `O::ROLE`.
    pub async fn call<O: RoleOutput>(&self, claim_id: Option<&str>, system: &str, user: &str) -> Outcome<O> {
        self.call_inner(claim_id, system, user, None, None).await
    }

    /// A structured call with a page image attached (vision role).
    pub async fn call_with_image<O: RoleOutput>(&self, claim_id: Option<&str>, system: &str, user: &str, image_data_url: &str) -> Outcome<O> {
        self.call_inner(claim_id, system, user, Some(image_data_url), None).await
    }

    /// As `call_with_image` on a named model (spec §4.1: garbled-text-only pages go to the chat
    /// model, pages with a chart or image to the vision model).
    pub async fn call_with_image_on<O: RoleOutput>(&self, model: &str, system: &str, user: &str, image_data_url: &str) -> Outcome<O> {
        self.call_inner(None, system, user, Some(image_data_url), Some(model)).await
    }

    async fn call_inner<O: RoleOutput>(&self, claim_id: Option<&str>, system: &str, user: &str, image: Option<&str>, model: Option<&str>) -> Outcome<O> {
        let role = O::ROLE;
        let s = self.settings;
        let model = model.unwrap_or(match role {
            Role::PageVision => s.models.vision_model.as_str(),
            _ => s.models.chat_model.as_str(),
        });
        let mut record = CallRecord {
            role: role.name().to_string(),
            claim_id: claim_id.map(str::to_string),
            model: model.to_string(),
            attempts: 0,
            usage: Usage::default(),
            cost_usd: Some(0.0),
            latency_ms: 0.0,
            failure: None,
        };
        let fail = |mut record: CallRecord, reason: String| -> Outcome<O> {
            record.failure = Some(reason.clone());
            self.finish(record);
            Outcome { value: O::conservative_default(), failure: Some(reason) }
        };
        if let Some(f) = self.fatal_error() {
            return fail(record, format!("not called: {f}"));
        }
        if self.transport.cancelled() {
            return fail(record, "cancelled by the user".into());
        }
        if let Err(why) = self.admit(claim_id) {
            return fail(record, why);
        }

        let budget = budget_for(s, role);
        let body_with = |max_tokens: u32, system: &str| {
            wire::chat_body(&ChatRequest { model, role, system, user, max_tokens, temperature: budget.temperature, image_data_url: image })
        };
        let mut body = body_with(budget.max_tokens, system);
        let mut transient_left = s.pipeline.max_retries;
        let mut content_left = 1u32;
        let mut cap = budget.max_tokens;
        let mut last_reason;
        // Started once the first request is really sent: a call waiting for a slot is not yet in flight.
        let mut started = None;
        loop {
            record.attempts += 1;
            let attempt = {
                let _slot = self.slots.acquire().await;
                // While this call waited for its slot, another may have met a fatal error (a
                // rejected key) or the user cancelled: then it is not sent at all.
                let blocked = self.fatal_error().map(|f| format!("not called: {f}")).or_else(|| self.transport.cancelled().then(|| "cancelled by the user".to_string()));
                if let Some(why) = blocked {
                    record.attempts -= 1;
                    last_reason = why;
                    break;
                }
                if started.is_none() {
                    started = Some(self.transport.now_ms());
                    self.notify(CallEvent::Started { role: record.role.clone(), claim_id: record.claim_id.clone(), model: record.model.clone() });
                }
                self.attempt(&body, s.pipeline.request_timeout_ms).await
            };
            match attempt {
                Attempt::Ok(content, usage, reported_model) => {
                    self.account(&mut record, usage, reported_model.as_deref());
                    match parse_output::<O>(&content) {
                        Ok(v) => {
                            record.latency_ms = self.transport.now_ms() - started.unwrap_or(0.0);
                            self.finish(record);
                            return Outcome { value: v, failure: None };
                        }
                        Err(e) => {
                            last_reason = format!("{} answer did not match its schema: {e}", role.name());
                            if content_left == 0 {
                                break;
                            }
                            content_left -= 1;
                        }
                    }
                }
                Attempt::Truncated(usage) => {
                    self.account(&mut record, usage, None);
                    let name = role.name();
                    if content_left == 0 {
                        last_reason = if cap > budget.max_tokens {
                            format!(
                                "the {name} answer was cut off at the output-token cap twice ({} then {cap} tokens, finish_reason = length): raise budgets.{name}.max_tokens or pipeline.length_retry_factor",
                                budget.max_tokens
                            )
                        } else {
                            format!("the {name} answer was cut off at the output-token cap of {cap} tokens (finish_reason = length): raise budgets.{name}.max_tokens")
                        };
                        break;
                    }
                    content_left -= 1;
                    // Spec §12 / issue 39: the identical request at temperature 0 is cut off again.
                    // Retry once with room to finish and an explicit request for brevity.
                    cap = ((budget.max_tokens as f64) * s.pipeline.length_retry_factor).ceil().min(u32::MAX as f64) as u32;
                    body = body_with(cap, &format!("{system}\n\n{BE_BRIEF}"));
                }
                Attempt::Content(reason, usage) => {
                    self.account(&mut record, usage, None);
                    last_reason = reason;
                    if content_left == 0 {
                        break;
                    }
                    content_left -= 1;
                }
                Attempt::Unreachable(reason) => {
                    last_reason = reason;
                    if transient_left == 0 {
                        *self.fatal.borrow_mut() = Some(last_reason.clone());
                        break;
                    }
                    if self.transport.cancelled() {
                        break;
                    }
                    let n = s.pipeline.max_retries - transient_left;
                    transient_left -= 1;
                    self.transport.sleep_ms(s.pipeline.retry_base_ms.saturating_mul(1u64 << n.min(10))).await;
                }
                Attempt::Transient(reason, retry_after) => {
                    last_reason = reason;
                    if transient_left == 0 || self.transport.cancelled() {
                        break;
                    }
                    let n = s.pipeline.max_retries - transient_left;
                    transient_left -= 1;
                    let backoff = s.pipeline.retry_base_ms.saturating_mul(1u64 << n.min(10));
                    let wait = retry_after.map(|r| (r * 1000.0).ceil() as u64).unwrap_or(backoff).min(120_000);
                    self.transport.sleep_ms(wait).await;
                }
                Attempt::Fatal(reason) => {
                    *self.fatal.borrow_mut() = Some(reason.clone());
                    last_reason = reason;
                    break;
                }
            }
        }
        record.latency_ms = started.map_or(0.0, |t| self.transport.now_ms() - t);
        fail(record, last_reason)
    }

    /// The Settings dialog's "Test connection": one small structured call (an entailment of a
    /// sentence by itself) with the configured URL, key and chat model. It proves what a run needs —
    /// the key is accepted, the model exists and answers in `json_schema` mode — for a few tokens.
    /// Ok carries a line for the user; Err the same actionable message a run would give.
    pub async fn test_connection(&self) -> Result<String, String> {
        let premise = "Revenue was $10 million in 2024.";
        let user = format!("PREMISE:\n{premise}\n\nHYPOTHESIS:\n{premise}");
        let started = self.transport.now_ms();
        let o: Outcome<crate::llm::roles::EntailmentOut> = self.call(None, "Answer with the entailment label as JSON.", &user).await;
        let ms = self.transport.now_ms() - started;
        match o.failure {
            None => Ok(format!(
                "Connected: {} at {} answered a structured call in {:.0} ms.",
                self.settings.models.chat_model, self.settings.models.base_url, ms
            )),
            Some(reason) => Err(format!("Connection failed: {reason}")),
        }
    }

    fn account(&self, record: &mut CallRecord, usage: Usage, reported_model: Option<&str>) {
        record.usage.input_tokens += usage.input_tokens;
        record.usage.output_tokens += usage.output_tokens;
        let m = reported_model.unwrap_or(&record.model).to_string();
        record.cost_usd = self.settings.price(&m, record.usage.input_tokens, record.usage.output_tokens);
    }

    async fn attempt(&self, body: &str, timeout_ms: u64) -> Attempt {
        match self.transport.post_json("/chat/completions", body.to_string(), timeout_ms).await {
            Err(TransportError::Timeout) => Attempt::Transient(format!("the model did not answer within {} (pipeline.request_timeout_ms)", human_ms(timeout_ms)), None),
            Err(TransportError::Cancelled) => Attempt::Fatal("cancelled by the user".into()),
            Err(TransportError::Network(e)) => Attempt::Unreachable(format!("could not reach {}: {e}", self.settings.models.base_url)),
            Ok(reply) => classify(reply, &self.settings.models.base_url),
        }
    }

    /// Embed `inputs` with the configured embedding model, in batches within the API's limits.
    pub async fn embed(&self, inputs: &[String]) -> Result<Vec<Vec<f32>>, String> {
        // OpenAI: ≤ 2048 inputs and ≤ 300k tokens per request; 128 inputs of ≤ 8k chars stays well inside.
        const BATCH: usize = 128;
        const MAX_CHARS: usize = 8_000 * 4;
        let s = self.settings;
        let mut out = Vec::with_capacity(inputs.len());
        for batch in inputs.chunks(BATCH) {
            let clipped: Vec<String> = batch.iter().map(|t| clip_chars(t, MAX_CHARS)).collect();
            // `dimensions` only when configured: 0 or unset = the model's own size, and some servers
            // (Ollama, llama.cpp) reject the field.
            let body = wire::embeddings_body(&s.models.embedding_model, &clipped, s.models.embedding_dimensions.filter(|&d| d > 0));
            let mut tries = 0;
            let mut started = None;
            loop {
                tries += 1;
                let r = {
                    let _slot = self.slots.acquire().await;
                    started.get_or_insert_with(|| self.transport.now_ms());
                    self.transport.post_json("/embeddings", body.clone(), s.pipeline.request_timeout_ms).await
                };
                let retry = match r {
                    Ok(reply) if reply.status == 200 => {
                        let (vecs, usage) = wire::parse_embeddings(&reply.body, clipped.len())?;
                        let usage = if usage.input_tokens == 0 {
                            // Spec §6.5: embedding tokens are estimated locally when not reported.
                            Usage { input_tokens: clipped.iter().map(|t| t.len() as u64 / 4 + 1).sum(), output_tokens: 0 }
                        } else {
                            usage
                        };
                        self.finish(CallRecord {
                            role: "embeddings".into(),
                            claim_id: None,
                            model: s.models.embedding_model.clone(),
                            attempts: tries,
                            usage,
                            cost_usd: s.price(&s.models.embedding_model, usage.input_tokens, 0),
                            latency_ms: started.map_or(0.0, |t| self.transport.now_ms() - t),
                            failure: None,
                        });
                        out.extend(vecs);
                        None
                    }
                    Ok(reply) => match classify(reply, &s.models.base_url) {
                        Attempt::Transient(reason, ra) => Some((reason, ra)),
                        Attempt::Fatal(reason) | Attempt::Content(reason, _) | Attempt::Unreachable(reason) => return Err(reason),
                        Attempt::Truncated(_) => return Err("the embeddings reply was cut off".into()),
                        // `classify` only answers Ok for status 200, handled in the arm above.
                        Attempt::Ok(..) => return Err("unexpected reply to an embeddings call".into()),
                    },
                    Err(TransportError::Cancelled) => return Err("cancelled by the user".into()),
                    Err(TransportError::Timeout) => Some(("the embeddings call timed out".into(), None)),
                    Err(TransportError::Network(e)) => Some((format!("could not reach {}: {e}", s.models.base_url), None)),
                };
                match retry {
                    None => break,
                    Some((reason, ra)) => {
                        if tries > s.pipeline.max_retries {
                            return Err(reason);
                        }
                        let wait = ra.map(|r| (r * 1000.0).ceil() as u64).unwrap_or(s.pipeline.retry_base_ms << (tries - 1).min(10));
                        self.transport.sleep_ms(wait.min(120_000)).await;
                    }
                }
            }
        }
        Ok(out)
    }
}

fn clip_chars(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

fn budget_for(s: &Settings, role: Role) -> crate::config::CallBudget {
    let b = &s.budgets;
    match role {
        Role::Planner => b.planner,
        Role::NarrativeEvidence => b.narrative_evidence,
        Role::TabularEvidence => b.tabular_evidence,
        Role::VisualEvidence => b.visual_evidence,
        Role::Affirmative => b.affirmative,
        Role::Adversarial => b.adversarial,
        Role::Entailment => b.entailment,
        Role::JudgeDraft => b.judge_draft,
        Role::Synthesizer => b.synthesizer,
        Role::PageVision => b.page_vision,
        Role::CorrectnessJudge => b.correctness_judge,
        Role::Hyde => b.hyde,
        Role::FaithfulnessJudge => b.faithfulness_judge,
        Role::RagasStatements => b.ragas_statements,
        Role::RagasFaithfulness => b.ragas_faithfulness,
        Role::RagasAnswerRelevancy => b.ragas_answer_relevancy,
        Role::RagasContextPrecision => b.ragas_context_precision,
        Role::RagasContextRecall => b.ragas_context_recall,
        Role::GraphExtraction => b.graph_extraction,
    }
}

/// Turn an HTTP reply into an attempt result with a message a user can act on.
fn classify(reply: HttpReply, base_url: &str) -> Attempt {
    let api_msg = wire::api_error_message(&reply.body).unwrap_or_else(|| snippet(&reply.body));
    match reply.status {
        200 => match wire::parse_chat_reply(&reply.body) {
            Err(e) => Attempt::Content(format!("unreadable reply: {e}"), Usage::default()),
            Ok(r) if r.finish_reason == "length" => Attempt::Truncated(r.usage),
            Ok(r) => Attempt::Ok(r.content, r.usage, r.model),
        },
        401 | 403 => Attempt::Fatal(format!(
            "the API at {base_url} rejected the key (HTTP {}): check the API key in Settings. Server said: {api_msg}",
            reply.status
        )),
        404 => Attempt::Fatal(format!(
            "HTTP 404 from {base_url}: check the base URL and the model name in Settings. Server said: {api_msg}"
        )),
        400 => Attempt::Fatal(format!("the API refused the request (HTTP 400): {api_msg}")),
        429 => Attempt::Transient(format!("rate limited by the API (HTTP 429): {api_msg}"), reply.retry_after_s),
        s if s >= 500 => Attempt::Transient(format!("the API failed (HTTP {s}): {api_msg}"), reply.retry_after_s),
        s => Attempt::Transient(format!("unexpected HTTP {s}: {api_msg}"), reply.retry_after_s),
    }
}

fn snippet(s: &str) -> String {
    let t: String = s.chars().take(200).collect();
    t.trim().to_string()
}

/// Parse and validate a model answer against the role's contract.
pub fn parse_output<O: RoleOutput>(content: &str) -> Result<O, String> {
    let trimmed = content.trim();
    // Some OpenAI-compatible servers wrap JSON in a markdown fence despite json_schema mode.
    let trimmed = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .map(|t| t.trim_end().trim_end_matches("```").trim())
        .unwrap_or(trimmed);
    // Issue 39 item 3: the answer is checked against the contract derived from `O` (types, enums,
    // bounds, no unknown fields) before it becomes `O`, then against what a schema cannot say.
    let raw: serde_json::Value = serde_json::from_str(trimmed).map_err(|e| e.to_string())?;
    super::schema::check(&raw, &O::contract())?;
    let v: O = serde_json::from_value(raw).map_err(|e| e.to_string())?;
    v.validate()?;
    Ok(v)
}

/// `400 ms`, `2.5 s`, `60 s`: a timeout a user can recognise in their settings.
fn human_ms(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::roles::{EntailmentLabel, EntailmentOut};
    use futures::executor::block_on;
    use std::collections::VecDeque;

    /// A transport that replays canned replies and records sleeps.
    struct Canned {
        replies: RefCell<VecDeque<Result<HttpReply, TransportError>>>,
        sleeps: RefCell<Vec<u64>>,
        bodies: RefCell<Vec<String>>,
    }
    impl Canned {
        fn new(r: Vec<Result<HttpReply, TransportError>>) -> Self {
            Canned { replies: RefCell::new(r.into()), sleeps: RefCell::new(vec![]), bodies: RefCell::new(vec![]) }
        }
    }
    impl Transport for Canned {
        async fn post_json(&self, _path: &str, body: String, _t: u64) -> Result<HttpReply, TransportError> {
            self.bodies.borrow_mut().push(body);
            self.replies.borrow_mut().pop_front().unwrap_or(Err(TransportError::Network("no more replies".into())))
        }
        async fn sleep_ms(&self, ms: u64) {
            self.sleeps.borrow_mut().push(ms);
        }
    }
    fn ok(content: &str) -> Result<HttpReply, TransportError> {
        let body = serde_json::json!({"model": "gpt-4o-2024-08-06", "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 100}});
        Ok(HttpReply { status: 200, retry_after_s: None, body: body.to_string() })
    }
    fn status(s: u16, ra: Option<f64>) -> Result<HttpReply, TransportError> {
        Ok(HttpReply { status: s, retry_after_s: ra, body: r#"{"error":{"message":"nope"}}"#.into() })
    }
    const ENTAILS: &str = r#"{"label":"entails","confidence":0.9,"rationale":"ok"}"#;

    #[test]
    fn rate_limit_waits_for_retry_after_then_succeeds() {
        let s = Settings::paper();
        let t = Canned::new(vec![status(429, Some(2.0)), ok(ENTAILS)]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "PREMISE:\na\n\nHYPOTHESIS:\nb"));
        assert!(o.succeeded());
        assert_eq!(o.value.label, EntailmentLabel::Entails);
        assert_eq!(*t.sleeps.borrow(), vec![2000]);
        let rec = &c.records()[0];
        assert_eq!(rec.attempts, 2);
        assert!((rec.cost_usd.unwrap() - (1000.0 * 2.5 + 100.0 * 10.0) / 1e6).abs() < 1e-12);
    }

    #[test]
    fn persistent_server_errors_fall_back_to_neutral_entailment() {
        let s = Settings::paper();
        let t = Canned::new(vec![status(500, None), status(500, None), status(502, None), status(503, None)]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert!(!o.succeeded());
        assert_eq!(o.value.label, EntailmentLabel::Neutral);
        assert_eq!(o.value.confidence, 0.0);
        assert_eq!(t.sleeps.borrow().len(), 3, "three retries with backoff");
        assert!(c.records()[0].failure.as_ref().unwrap().contains("HTTP 503"));
    }

    #[test]
    fn truncated_and_schema_violating_answers_use_the_conservative_default() {
        let s = Settings::paper();
        let trunc = Ok(HttpReply {
            status: 200,
            retry_after_s: None,
            body: r#"{"choices":[{"message":{"content":"{\"label\":\"ent"},"finish_reason":"length"}]}"#.into(),
        });
        let t = Canned::new(vec![trunc, ok(r#"{"label":"entails","confidence":7,"rationale":"x"}"#)]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert_eq!(o.value.label, EntailmentLabel::Neutral);
        assert!(o.failure.unwrap().contains("schema"));
    }

    #[test]
    fn rejected_key_stops_every_later_call_without_sending_it() {
        let s = Settings::paper();
        let t = Canned::new(vec![status(401, None), ok(ENTAILS)]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert!(o.failure.unwrap().contains("check the API key"));
        let o2: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert!(!o2.succeeded());
        assert_eq!(t.bodies.borrow().len(), 1, "no request after a fatal error");
        assert!(c.fatal_error().is_some());
    }

    #[test]
    fn unreachable_server_is_fatal_after_retries() {
        let s = Settings::paper();
        let down = || Err(TransportError::Network("connection refused".into()));
        let t = Canned::new(vec![down(), down(), down(), down()]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert!(!o.succeeded());
        assert!(c.fatal_error().unwrap().contains("could not reach"));
        assert_eq!(t.bodies.borrow().len(), 4);
    }

    #[test]
    fn observers_see_every_call_start_and_finish_with_its_record() {
        let s = Settings::paper();
        let t = Canned::new(vec![status(429, Some(0.5)), ok(ENTAILS), status(500, None), status(500, None), status(500, None), status(500, None)]);
        let seen = RefCell::new(vec![]);
        let c = LlmClient::new(&t, &s);
        c.observe(|e| seen.borrow_mut().push(e.clone()));
        let _: Outcome<EntailmentOut> = block_on(c.call(Some("claim-1"), "sys", "x"));
        let _: Outcome<EntailmentOut> = block_on(c.call(Some("claim-2"), "sys", "x"));
        let seen = seen.borrow();
        assert_eq!(seen.len(), 4, "{seen:?}");
        assert!(matches!(&seen[0], CallEvent::Started { role, claim_id: Some(id), .. } if role == "entailment" && id == "claim-1"));
        match &seen[1] {
            CallEvent::Finished { record } => assert_eq!((record.attempts, record.failure.is_none()), (2, true)),
            e => panic!("expected the first call to finish, got {e:?}"),
        }
        assert!(matches!(&seen[2], CallEvent::Started { claim_id: Some(id), .. } if id == "claim-2"));
        match &seen[3] {
            CallEvent::Finished { record } => assert!(record.failure.as_deref().unwrap_or("").contains("HTTP 500")),
            e => panic!("expected the second call to finish failed, got {e:?}"),
        }
        assert_eq!(c.records().len(), 2);
    }

    #[test]
    fn timeouts_name_the_setting_in_units_a_user_reads() {
        assert_eq!(human_ms(400), "400 ms");
        assert_eq!(human_ms(60_000), "60 s");
        assert_eq!(human_ms(2_500), "2.5 s");
    }

    #[test]
    fn test_connection_reports_success_or_the_actionable_failure() {
        let s = Settings::paper();
        let t = Canned::new(vec![ok(ENTAILS)]);
        let ok_line = block_on(LlmClient::new(&t, &s).test_connection()).unwrap();
        assert!(ok_line.contains("gpt-4o") && ok_line.contains("api.openai.com"), "{ok_line}");
        assert!(t.bodies.borrow()[0].contains("json_schema"), "the probe uses structured output like a run");
        let t = Canned::new(vec![status(401, None)]);
        let e = block_on(LlmClient::new(&t, &s).test_connection()).unwrap_err();
        assert!(e.contains("check the API key"), "{e}");
    }

    fn cut_off(content: &str) -> Result<HttpReply, TransportError> {
        let body = serde_json::json!({"choices": [{"message": {"content": content}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 300}});
        Ok(HttpReply { status: 200, retry_after_s: None, body: body.to_string() })
    }
    fn sent(t: &Canned, i: usize) -> (u64, String) {
        let v: serde_json::Value = serde_json::from_str(&t.bodies.borrow()[i]).unwrap();
        (v["max_tokens"].as_u64().unwrap(), v["messages"][0]["content"].as_str().unwrap().to_string())
    }

    #[test]
    fn cut_off_answer_is_retried_once_with_a_larger_cap_and_an_instruction_to_be_brief() {
        let s = Settings::paper();
        let t = Canned::new(vec![cut_off(r#"{"label":"entails","confidence":0.9,"rationale":"because because because"#), ok(ENTAILS)]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert!(o.succeeded(), "{:?}", o.failure);
        let (cap0, sys0) = sent(&t, 0);
        let (cap1, sys1) = sent(&t, 1);
        assert_eq!(cap0, s.budgets.entailment.max_tokens as u64);
        assert_eq!(cap1, (s.budgets.entailment.max_tokens as f64 * s.pipeline.length_retry_factor) as u64, "the retry has room to finish");
        assert!(!sys0.contains(BE_BRIEF) && sys1.starts_with("sys") && sys1.contains(BE_BRIEF), "{sys1}");
        assert_eq!(c.records()[0].usage.output_tokens, 400, "the cut-off answer's tokens are paid for too");
    }

    #[test]
    fn second_cut_off_answer_takes_the_conservative_default_and_names_the_cap_setting() {
        let mut s = Settings::paper();
        s.pipeline.length_retry_factor = 3.0;
        let t = Canned::new(vec![cut_off("{\"label\":\"ent"), cut_off("{\"label\":\"ent"), ok(ENTAILS)]);
        let c = LlmClient::new(&t, &s);
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert_eq!((o.value.label, o.value.confidence), (EntailmentLabel::Neutral, 0.0));
        let why = o.failure.unwrap();
        assert!(why.contains("budgets.entailment.max_tokens") && why.contains("300 then 900"), "{why}");
        assert_eq!(t.bodies.borrow().len(), 2, "one retry, not a third request");
        assert_eq!(sent(&t, 1).0, 900);
    }

    /// Yield to the executor once (a network round-trip), so concurrent calls interleave.
    async fn yield_once() {
        let mut done = false;
        std::future::poll_fn(|cx| {
            if done {
                std::task::Poll::Ready(())
            } else {
                done = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
    }

    /// A model server that decodes one request at a time, on a virtual clock: a request sent at
    /// `t` is answered at max(t, when the server is free) + `service_ms`, and the client gives up
    /// `timeout_ms` after sending it. Records the most requests in flight at once.
    struct SerialServer {
        clock: Cell<u64>,
        busy_until: Cell<u64>,
        service_ms: u64,
        in_flight: Cell<usize>,
        most_in_flight: Cell<usize>,
        timeouts: Cell<usize>,
    }
    impl SerialServer {
        fn new(service_ms: u64) -> Self {
            SerialServer { clock: Cell::new(0), busy_until: Cell::new(0), service_ms, in_flight: Cell::new(0), most_in_flight: Cell::new(0), timeouts: Cell::new(0) }
        }
    }
    impl Transport for SerialServer {
        async fn post_json(&self, path: &str, _body: String, timeout_ms: u64) -> Result<HttpReply, TransportError> {
            let sent_at = self.clock.get();
            self.in_flight.set(self.in_flight.get() + 1);
            self.most_in_flight.set(self.most_in_flight.get().max(self.in_flight.get()));
            let done_at = sent_at.max(self.busy_until.get()) + self.service_ms;
            self.busy_until.set(done_at);
            // Let every other ready caller send its request before this one returns.
            yield_once().await;
            yield_once().await;
            self.in_flight.set(self.in_flight.get() - 1);
            if done_at - sent_at > timeout_ms {
                self.clock.set(self.clock.get().max(sent_at + timeout_ms));
                self.timeouts.set(self.timeouts.get() + 1);
                return Err(TransportError::Timeout);
            }
            self.clock.set(self.clock.get().max(done_at));
            if path == "/embeddings" {
                return Ok(HttpReply { status: 200, retry_after_s: None, body: r#"{"data":[{"index":0,"embedding":[1.0]}]}"#.into() });
            }
            ok(ENTAILS)
        }
        async fn sleep_ms(&self, ms: u64) {
            self.clock.set(self.clock.get() + ms);
        }
        fn now_ms(&self) -> f64 {
            self.clock.get() as f64
        }
    }

    fn four_at_once(t: &SerialServer, s: &Settings) -> Vec<Outcome<EntailmentOut>> {
        let c = LlmClient::new(t, s);
        block_on(futures::future::join_all((0..4).map(|i| {
            let id = format!("claim-{i}");
            let c = &c;
            async move { c.call::<EntailmentOut>(Some(&id), "sys", "x").await }
        })))
    }

    #[test]
    fn a_server_answering_one_at_a_time_does_not_time_out_the_requests_queued_behind_the_slot() {
        let mut s = Settings::paper();
        s.models.base_url = "http://127.0.0.1:8080/v1".into();
        s.pipeline.request_timeout_ms = 100;
        s.pipeline.max_retries = 0;
        // Automatic limit for a local server: one request in flight; each waits for its slot, and
        // its 100 ms start when it is sent, so 4 × 40 ms of serial decoding all succeed.
        let t = SerialServer::new(40);
        let outs = four_at_once(&t, &s);
        assert!(outs.iter().all(|o| o.succeeded()), "{:?}", outs.iter().map(|o| &o.failure).collect::<Vec<_>>());
        assert_eq!((t.most_in_flight.get(), t.timeouts.get()), (1, 0));
        // Without the limit the same four requests queue inside the server and the last ones time out.
        s.models.max_concurrent_requests = 4;
        let t = SerialServer::new(40);
        let outs = four_at_once(&t, &s);
        assert_eq!(t.most_in_flight.get(), 4);
        assert!(t.timeouts.get() >= 1 && outs.iter().any(|o| !o.succeeded()), "the serial server times out queued requests");
    }

    #[test]
    fn calls_queued_behind_a_rejected_key_are_not_sent() {
        let mut s = Settings::paper();
        s.models.max_concurrent_requests = 1;
        /// Answers after a round-trip, so the other calls are already waiting for the slot.
        struct Slow(Canned);
        impl Transport for Slow {
            async fn post_json(&self, path: &str, body: String, t: u64) -> Result<HttpReply, TransportError> {
                yield_once().await;
                self.0.post_json(path, body, t).await
            }
            async fn sleep_ms(&self, _ms: u64) {}
        }
        let t = Slow(Canned::new(vec![status(401, None), ok(ENTAILS), ok(ENTAILS)]));
        let c = LlmClient::new(&t, &s);
        let outs = block_on(futures::future::join_all((0..3).map(|_| c.call::<EntailmentOut>(None, "sys", "x"))));
        assert!(outs.iter().all(|o| !o.succeeded()));
        assert_eq!(t.0.bodies.borrow().len(), 1, "only the first request left");
        assert!(outs[2].failure.as_deref().unwrap().contains("not called"), "{:?}", outs[2].failure);
    }

    #[test]
    fn embeddings_share_the_request_slots_with_chat_calls() {
        let mut s = Settings::paper();
        s.models.max_concurrent_requests = 1;
        let t = SerialServer::new(10);
        let c = LlmClient::new(&t, &s);
        let chat = async { c.call::<EntailmentOut>(None, "sys", "x").await.succeeded() };
        let emb = async { c.embed(&["a".to_string()]).await.is_ok() };
        let (a, b) = block_on(futures::future::join(chat, emb));
        assert!(a && b);
        assert_eq!(t.most_in_flight.get(), 1);
    }

    #[test]
    fn call_budget_is_enforced() {
        let mut s = Settings::paper();
        s.pipeline.max_llm_calls = 1;
        let t = Canned::new(vec![ok(ENTAILS), ok(ENTAILS)]);
        let c = LlmClient::new(&t, &s);
        let _: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        let o: Outcome<EntailmentOut> = block_on(c.call(None, "sys", "x"));
        assert!(o.failure.unwrap().contains("budget"));
    }
}
