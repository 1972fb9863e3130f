//! `clair-mock-server`: the project's OpenAI-compatible mock, used by every test (no real model is
//! reachable in CI). Real HTTP on loopback with CORS, deterministic per-role answers that use the
//! evidence in the prompt (`answers`), fault injection and a request log behind `/__admin/*`.
//! See README.md in this directory for the API.

pub mod answers;
pub mod text;

use clair_core::llm::roles::Role;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::Read;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Request bodies above this size get 413 (page images for the vision role stay well below).
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;
/// Default embedding dimension when the request does not ask for one.
pub const DEFAULT_DIMENSIONS: usize = 256;
pub const MODELS: &[&str] = &["gpt-4o", "gpt-4o-mini", "gpt-4.1-mini", "text-embedding-3-large", "text-embedding-3-small"];
/// Fixed `created` timestamp: answers are byte-for-byte deterministic.
const CREATED: u64 = 1_700_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultMode {
    #[serde(rename = "429")]
    RateLimit,
    #[serde(rename = "500")]
    ServerError,
    #[serde(rename = "slow")]
    Slow,
    #[serde(rename = "timeout")]
    Timeout,
    #[serde(rename = "malformed")]
    Malformed,
    #[serde(rename = "truncate")]
    Truncate,
    #[serde(rename = "schema")]
    Schema,
    #[serde(rename = "vision_disagree")]
    VisionDisagree,
}

impl FaultMode {
    pub fn name(self) -> &'static str {
        match self {
            FaultMode::RateLimit => "429",
            FaultMode::ServerError => "500",
            FaultMode::Slow => "slow",
            FaultMode::Timeout => "timeout",
            FaultMode::Malformed => "malformed",
            FaultMode::Truncate => "truncate",
            FaultMode::Schema => "schema",
            FaultMode::VisionDisagree => "vision_disagree",
        }
    }
    pub fn parse(s: &str) -> Option<FaultMode> {
        serde_json::from_value(Value::String(s.to_string())).ok()
    }
}

/// One queued fault. `role` restricts it to one chat role (the json_schema name) or to
/// `embeddings` / `models`; without a role it applies to every chat and embeddings request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    pub mode: FaultMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// How many requests it applies to; None = forever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Seconds, for 429 (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<f64>,
    /// For slow (default 3000) and timeout (default 60000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
}

impl Fault {
    /// `MODE[:ROLE[:COUNT]]` (ROLE empty or `*` = any).
    pub fn parse_cli(s: &str) -> Result<Fault, String> {
        let mut it = s.splitn(3, ':');
        let mode_s = it.next().unwrap_or("");
        let mode = FaultMode::parse(mode_s).ok_or_else(|| format!("unknown fault mode {mode_s:?} (429, 500, slow, timeout, malformed, truncate, schema, vision_disagree)"))?;
        let role = it.next().filter(|r| !r.is_empty() && *r != "*").map(str::to_string);
        if let Some(r) = &role {
            check_target(r)?;
        }
        let count = match it.next() {
            Some(c) if !c.is_empty() => Some(c.parse::<u64>().map_err(|_| format!("fault count {c:?} is not a number"))?),
            _ => None,
        };
        Ok(Fault { mode, role, count, retry_after: None, delay_ms: None })
    }
}

fn check_target(r: &str) -> Result<(), String> {
    if Role::from_name(r).is_some() || r == "embeddings" || r == "models" {
        Ok(())
    } else {
        let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
        Err(format!("unknown role {r:?}: expected one of {}, embeddings, models", names.join(", ")))
    }
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub host: String,
    pub port: u16,
    pub require_key: Option<String>,
    pub faults: Vec<Fault>,
    /// Worker threads (default 8).
    pub workers: usize,
    /// The embedding model's own output size, answered when a request names no `dimensions`
    /// (Ollama's nomic-embed-text gives 768, bge-m3 1,024); None = `DEFAULT_DIMENSIONS`.
    pub embedding_dimensions: Option<usize>,
}

struct State {
    faults: Mutex<Vec<Fault>>,
    log: Mutex<Vec<Value>>,
    require_key: Mutex<Option<String>>,
    startup_key: Option<String>,
    ids: AtomicU64,
    vision_calls: AtomicU64,
    embedding_dimensions: usize,
}

/// A running server. Dropping it stops accepting requests.
pub struct MockServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
}

impl MockServer {
    pub fn start(opts: Options) -> Result<MockServer, String> {
        let host = if opts.host.is_empty() { "127.0.0.1".to_string() } else { opts.host.clone() };
        let ip: std::net::IpAddr = host.parse().map_err(|_| format!("--host {host:?} is not an IP address"))?;
        if !ip.is_loopback() {
            return Err(format!("refusing to bind {host}: the mock server only listens on loopback"));
        }
        let server = tiny_http::Server::http(SocketAddr::new(ip, opts.port)).map_err(|e| format!("could not bind {host}:{}: {e}", opts.port))?;
        let addr = server.server_addr().to_ip().ok_or("server has no IP address")?;
        let server = Arc::new(server);
        let state = Arc::new(State {
            faults: Mutex::new(opts.faults.clone()),
            log: Mutex::new(vec![]),
            require_key: Mutex::new(opts.require_key.clone()),
            startup_key: opts.require_key.clone(),
            embedding_dimensions: opts.embedding_dimensions.filter(|&d| d > 0).unwrap_or(DEFAULT_DIMENSIONS),
            ids: AtomicU64::new(0),
            vision_calls: AtomicU64::new(0),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let n = if opts.workers == 0 { 8 } else { opts.workers };
        let workers = (0..n)
            .map(|_| {
                let (server, state, stop) = (server.clone(), state.clone(), stop.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        match server.recv_timeout(Duration::from_millis(200)) {
                            Ok(Some(rq)) => {
                                // A bug in a role must cost one request (tiny_http answers 500 when the
                                // request is dropped unanswered), never a worker thread.
                                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&state, rq)));
                            }
                            Ok(None) => {}
                            Err(_) => std::thread::sleep(Duration::from_millis(10)),
                        }
                    }
                })
            })
            .collect();
        Ok(MockServer { addr, stop, workers })
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }
    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
    /// `http://127.0.0.1:PORT/v1` — what to use as OPENAI_BASE_URL.
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.url())
    }
    /// Block until the server stops (never, for the binary).
    pub fn wait(mut self) {
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

// ---------------------------------------------------------------- plumbing

struct Reply {
    status: u16,
    body: String,
    headers: Vec<(String, String)>,
    delay_ms: u64,
}

impl Reply {
    fn json(status: u16, v: &Value) -> Reply {
        Reply { status, body: v.to_string(), headers: vec![("Content-Type".into(), "application/json".into())], delay_ms: 0 }
    }
    fn error(status: u16, message: &str, kind: &str, code: Option<&str>) -> Reply {
        Reply::json(status, &json!({"error": {"message": message, "type": kind, "param": null, "code": code}}))
    }
}

fn cors_headers() -> Vec<(&'static str, &'static str)> {
    vec![
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
        ("Access-Control-Allow-Headers", "authorization, content-type"),
        ("Access-Control-Expose-Headers", "retry-after, x-request-id"),
        ("Access-Control-Max-Age", "600"),
    ]
}

fn send(rq: tiny_http::Request, reply: Reply, id: u64) {
    let mut resp = tiny_http::Response::from_string(reply.body).with_status_code(reply.status);
    let mut add = |k: &str, v: &str| {
        if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            resp.add_header(h);
        }
    };
    for (k, v) in cors_headers() {
        add(k, v);
    }
    add("x-request-id", &format!("mock-{id}"));
    for (k, v) in &reply.headers {
        add(k, v);
    }
    let _ = rq.respond(resp);
}

fn handle(state: &Arc<State>, mut rq: tiny_http::Request) {
    let id = state.ids.fetch_add(1, Ordering::Relaxed) + 1;
    let method = rq.method().as_str().to_uppercase();
    let url = rq.url().to_string();
    let headers: Vec<(String, String)> = rq.headers().iter().map(|h| (h.field.as_str().as_str().to_lowercase(), h.value.as_str().to_string())).collect();
    let mut raw = vec![];
    let too_big = match rq.as_reader().take(MAX_BODY_BYTES as u64 + 1).read_to_end(&mut raw) {
        Ok(n) => n > MAX_BODY_BYTES,
        Err(_) => false,
    };
    let body = String::from_utf8_lossy(&raw).into_owned();
    let (path, query) = match url.split_once('?') {
        Some((p, q)) => (p.to_string(), q.to_string()),
        None => (url.clone(), String::new()),
    };
    let admin = path.starts_with("/__admin");
    let (reply, role, fault) = if too_big {
        (Reply::error(413, &format!("request body exceeds {MAX_BODY_BYTES} bytes"), "invalid_request_error", None), None, None)
    } else if method == "OPTIONS" {
        (Reply { status: 204, body: String::new(), headers: vec![], delay_ms: 0 }, None, None)
    } else if admin {
        (admin_route(state, &method, &path, &query, &body), None, None)
    } else {
        api_route(state, &method, &path, &headers, &body)
    };
    if !admin {
        let hmap: serde_json::Map<String, Value> = {
            let mut m = serde_json::Map::new();
            for (k, v) in &headers {
                let merged = match m.get(k).and_then(Value::as_str) {
                    Some(prev) => format!("{prev}, {v}"),
                    None => v.clone(),
                };
                m.insert(k.clone(), Value::String(merged));
            }
            m
        };
        let entry = json!({
            "id": id, "method": method, "path": url, "headers": hmap, "body": body,
            "role": role, "status": reply.status, "fault": fault.map(FaultMode::name),
        });
        if let Ok(mut log) = state.log.lock() {
            log.push(entry);
        }
    }
    if reply.delay_ms > 0 {
        // Off the pool: a slow answer must not block other requests.
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(reply.delay_ms));
            send(rq, reply, id);
        });
    } else {
        send(rq, reply, id);
    }
}

// ---------------------------------------------------------------- admin

fn admin_route(state: &Arc<State>, method: &str, path: &str, query: &str, body: &str) -> Reply {
    let path = path.trim_end_matches('/');
    match (method, path) {
        ("POST", "/__admin/faults") => {
            let v: Value = match serde_json::from_str(body) {
                Ok(v) => v,
                Err(e) => return Reply::error(400, &format!("fault body is not JSON: {e}"), "invalid_request_error", None),
            };
            let list = match &v {
                Value::Array(a) => a.clone(),
                Value::Object(o) if o.contains_key("faults") => o["faults"].as_array().cloned().unwrap_or_default(),
                _ => vec![v.clone()],
            };
            let mut parsed = vec![];
            for f in list {
                match serde_json::from_value::<Fault>(f) {
                    Ok(f) => {
                        if let Some(r) = &f.role {
                            if let Err(e) = check_target(r) {
                                return Reply::error(400, &e, "invalid_request_error", None);
                            }
                        }
                        parsed.push(f)
                    }
                    Err(e) => {
                        return Reply::error(
                            400,
                            &format!("bad fault: {e}. Expected {{\"mode\": \"429|500|slow|timeout|malformed|truncate|schema|vision_disagree\", \"role\"?: string, \"count\"?: int, \"retry_after\"?: seconds, \"delay_ms\"?: int}}"),
                            "invalid_request_error",
                            None,
                        )
                    }
                }
            }
            let mut q = state.faults.lock().unwrap_or_else(|e| e.into_inner());
            q.extend(parsed);
            Reply::json(200, &json!({"faults": *q}))
        }
        ("GET", "/__admin/faults") => Reply::json(200, &json!({"faults": *state.faults.lock().unwrap_or_else(|e| e.into_inner())})),
        ("DELETE", "/__admin/faults") => {
            state.faults.lock().unwrap_or_else(|e| e.into_inner()).clear();
            Reply::json(200, &json!({"faults": []}))
        }
        ("POST", "/__admin/reset") => {
            state.faults.lock().unwrap_or_else(|e| e.into_inner()).clear();
            state.log.lock().unwrap_or_else(|e| e.into_inner()).clear();
            *state.require_key.lock().unwrap_or_else(|e| e.into_inner()) = state.startup_key.clone();
            state.vision_calls.store(0, Ordering::Relaxed);
            Reply::json(200, &json!({"reset": true}))
        }
        ("POST", "/__admin/key") => match serde_json::from_str::<Value>(body) {
            Ok(v) => {
                let key = v.get("key").and_then(Value::as_str).map(str::to_string);
                *state.require_key.lock().unwrap_or_else(|e| e.into_inner()) = key.clone();
                Reply::json(200, &json!({"require_key": key.is_some()}))
            }
            Err(e) => Reply::error(400, &format!("key body is not JSON: {e}"), "invalid_request_error", None),
        },
        ("GET", "/__admin/requests") => {
            let filters: Vec<(String, String)> = query
                .split('&')
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), percent_decode(v)))
                .collect();
            let log = state.log.lock().unwrap_or_else(|e| e.into_inner());
            let out: Vec<&Value> = log
                .iter()
                .filter(|e| {
                    filters.iter().all(|(k, v)| match k.as_str() {
                        "role" => e["role"].as_str() == Some(v.as_str()),
                        "path" => e["path"].as_str().map(|p| p.contains(v.as_str())).unwrap_or(false),
                        "method" => e["method"].as_str().map(|m| m.eq_ignore_ascii_case(v)).unwrap_or(false),
                        _ => true,
                    })
                })
                .collect();
            Reply::json(200, &json!(out))
        }
        _ => Reply::error(404, &format!("no admin route {method} {path}: use POST /__admin/faults, GET /__admin/faults, POST /__admin/reset, POST /__admin/key, GET /__admin/requests"), "invalid_request_error", None),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

// ---------------------------------------------------------------- API

fn take_fault(state: &State, target: &str) -> Option<Fault> {
    let mut q = state.faults.lock().unwrap_or_else(|e| e.into_inner());
    let pos = q.iter().position(|f| {
        let role_ok = match &f.role {
            Some(r) => r == target,
            None => target != "models",
        };
        role_ok && (f.mode != FaultMode::VisionDisagree || target == "page_vision")
    })?;
    let f = q[pos].clone();
    match q[pos].count {
        Some(c) if c <= 1 => {
            q.remove(pos);
        }
        Some(c) => q[pos].count = Some(c - 1),
        None => {}
    }
    Some(f)
}

fn mask(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 8 {
        "***".into()
    } else {
        format!("{}***{}", chars[..3].iter().collect::<String>(), chars[chars.len() - 4..].iter().collect::<String>())
    }
}

fn check_auth(state: &State, headers: &[(String, String)]) -> Option<Reply> {
    let want = state.require_key.lock().unwrap_or_else(|e| e.into_inner()).clone()?;
    let got = headers.iter().find(|(k, _)| k == "authorization").map(|(_, v)| v.trim().to_string());
    let bearer = got.as_deref().and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer "))).map(str::trim);
    match bearer {
        Some(k) if k == want => None,
        Some(k) => Some(Reply::error(
            401,
            &format!("Incorrect API key provided: {}. Check the API key in Settings (or OPENAI_API_KEY): this server expects a different key.", mask(k)),
            "invalid_request_error",
            Some("invalid_api_key"),
        )),
        None => Some(Reply::error(
            401,
            "You didn't provide an API key. Enter your API key in Settings (or set OPENAI_API_KEY); it is sent as an Authorization header using Bearer auth (Authorization: Bearer YOUR_KEY).",
            "invalid_request_error",
            Some("invalid_api_key"),
        )),
    }
}

fn api_route(state: &Arc<State>, method: &str, path: &str, headers: &[(String, String)], body: &str) -> (Reply, Option<String>, Option<FaultMode>) {
    let p = path.trim_end_matches('/');
    let p = p.strip_prefix("/v1").unwrap_or(p);
    if p.is_empty() {
        let v = json!({"service": "clair-mock-server", "endpoints": ["POST /v1/chat/completions", "POST /v1/embeddings", "GET /v1/models"], "admin": "/__admin"});
        return (Reply::json(200, &v), None, None);
    }
    let known = p == "/chat/completions" || p == "/embeddings" || p == "/models" || p.starts_with("/models/");
    if !known {
        return (Reply::error(404, &format!("Unknown endpoint {method} {path}: the mock serves POST /v1/chat/completions, POST /v1/embeddings and GET /v1/models."), "invalid_request_error", Some("unknown_url")), None, None);
    }
    if let Some(r) = check_auth(state, headers) {
        return (r, None, None);
    }
    match (method, p) {
        ("POST", "/chat/completions") => chat(state, body),
        ("POST", "/embeddings") => embeddings(state, body),
        ("GET", "/models") => {
            let fault = take_fault(state, "models");
            let data: Vec<Value> = MODELS.iter().map(|m| json!({"id": m, "object": "model", "created": CREATED, "owned_by": "clair-mock"})).collect();
            let good = json!({"object": "list", "data": data});
            (apply_plain_fault(good, fault.as_ref()), Some("models".into()), fault.map(|f| f.mode))
        }
        ("GET", m) if m.starts_with("/models/") => {
            let id = &m["/models/".len()..];
            (Reply::json(200, &json!({"id": id, "object": "model", "created": CREATED, "owned_by": "clair-mock"})), Some("models".into()), None)
        }
        _ => (Reply::error(405, &format!("method {method} is not allowed on {path}"), "invalid_request_error", None), None, None),
    }
}

/// Error replies shared by every endpoint; None when the fault changes the content instead.
fn transport_fault(f: &Fault) -> Option<Reply> {
    match f.mode {
        FaultMode::RateLimit => {
            let ra = f.retry_after.unwrap_or(1.0).max(0.0);
            let mut r = Reply::error(429, &format!("Rate limit reached (mock fault). Please try again in {ra}s."), "requests", Some("rate_limit_exceeded"));
            r.headers.push(("Retry-After".into(), format!("{ra}")));
            Some(r)
        }
        FaultMode::ServerError => Some(Reply::error(500, "The server had an error while processing your request (mock fault 500).", "server_error", None)),
        FaultMode::Timeout => {
            let mut r = Reply::error(504, "The mock server timed out (mock fault timeout).", "server_error", Some("timeout"));
            r.delay_ms = f.delay_ms.unwrap_or(60_000);
            Some(r)
        }
        _ => None,
    }
}

fn apply_plain_fault(good: Value, fault: Option<&Fault>) -> Reply {
    let Some(f) = fault else { return Reply::json(200, &good) };
    if let Some(r) = transport_fault(f) {
        return r;
    }
    let mut r = match f.mode {
        FaultMode::Malformed => Reply::json(200, &Value::Null).with_body("this is not JSON {".into()),
        FaultMode::Truncate => {
            let s = good.to_string();
            let cut = cut_half(&s);
            Reply::json(200, &Value::Null).with_body(cut)
        }
        FaultMode::Schema => Reply::json(200, &json!({"object": "list", "data": "not a list", "unexpected_field": true})),
        _ => Reply::json(200, &good),
    };
    if f.mode == FaultMode::Slow {
        r.delay_ms = f.delay_ms.unwrap_or(3000);
    }
    r
}

impl Reply {
    fn with_body(mut self, b: String) -> Reply {
        self.body = b;
        self
    }
}

fn cut_half(s: &str) -> String {
    let mut k = s.len() / 2;
    while k > 0 && !s.is_char_boundary(k) {
        k -= 1;
    }
    s[..k].to_string()
}

fn content_text(c: &Value) -> String {
    match c {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| if p.get("type").and_then(Value::as_str) == Some("text") { p.get("text").and_then(Value::as_str) } else { None })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn chat(state: &Arc<State>, body: &str) -> (Reply, Option<String>, Option<FaultMode>) {
    let bad = |m: String| (Reply::error(400, &m, "invalid_request_error", None), None, None);
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => return bad(format!("We could not parse the JSON body of your request: {e}")),
    };
    let Some(messages) = v.get("messages").and_then(Value::as_array) else {
        return bad("'messages' is a required property (an array of {role, content}).".into());
    };
    let model = v.get("model").and_then(Value::as_str).unwrap_or("gpt-4o").to_string();
    let rf = v.get("response_format");
    let name = rf.and_then(|r| r.get("json_schema")).and_then(|j| j.get("name")).and_then(Value::as_str);
    let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
    let Some(name) = name else {
        return bad(format!(
            "the mock answers only structured-output calls: set response_format to {{\"type\": \"json_schema\", \"json_schema\": {{\"name\": <role>, \"schema\": ...}}}} with role one of {}",
            names.join(", ")
        ));
    };
    if rf.and_then(|r| r.get("type")).and_then(Value::as_str) != Some("json_schema") {
        return bad("response_format.type must be \"json_schema\"".into());
    }
    let Some(role) = Role::from_name(name) else {
        return bad(format!("unknown agent role {name:?} in response_format.json_schema.name; expected one of {}", names.join(", ")));
    };
    let prompt_chars: usize = messages.iter().map(|m| m.get("content").map(content_text).unwrap_or_default().chars().count()).sum();
    let user = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .and_then(|m| m.get("content"))
        .map(content_text)
        .unwrap_or_default();
    let fault = take_fault(state, role.name());
    let role_name = Some(role.name().to_string());
    let mode = fault.as_ref().map(|f| f.mode);
    if let Some(r) = fault.as_ref().and_then(transport_fault) {
        return (r, role_name, mode);
    }
    let variant = (mode == Some(FaultMode::VisionDisagree)).then(|| state.vision_calls.fetch_add(1, Ordering::Relaxed));
    let good = answers::answer(role, &user, variant);
    let mut finish = "stop";
    let content = match mode {
        Some(FaultMode::Malformed) => "Sure! Here is the answer you asked for: {not valid json".to_string(),
        Some(FaultMode::Truncate) => {
            finish = "length";
            cut_half(&good.to_string())
        }
        Some(FaultMode::Schema) => answers::schema_violation(&good).to_string(),
        _ => good.to_string(),
    };
    let completion_tokens = match (mode, v.get("max_tokens").and_then(Value::as_u64)) {
        (Some(FaultMode::Truncate), Some(m)) => m,
        _ => text::approx_tokens(content.chars().count()),
    };
    let prompt_tokens = text::approx_tokens(prompt_chars);
    let id = state.ids.load(Ordering::Relaxed);
    let out = json!({
        "id": format!("chatcmpl-mock-{id}"),
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "system_fingerprint": "fp_clair_mock",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": null},
            "logprobs": null,
            "finish_reason": finish
        }],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens}
    });
    let mut r = Reply::json(200, &out);
    if mode == Some(FaultMode::Slow) {
        r.delay_ms = fault.and_then(|f| f.delay_ms).unwrap_or(3000);
    }
    (r, role_name, mode)
}

/// FNV-1a, 64 bit.
fn fnv(s: &str, seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A deterministic unit vector from hashed tokens (and token bigrams) of `text`.
pub fn embed(text: &str, dim: usize) -> Vec<f32> {
    let mut v = vec![0f32; dim];
    let toks: Vec<String> = text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(text::norm_word).collect();
    let mut add = |f: &str, w: f32| {
        let h = fnv(f, 0);
        let i = (h % dim as u64) as usize;
        v[i] += if h >> 63 == 0 { w } else { -w };
    };
    for t in &toks {
        add(t, 1.0);
    }
    for pair in toks.windows(2) {
        add(&format!("{} {}", pair[0], pair[1]), 0.5);
    }
    let n = v.iter().map(|x| (*x as f64) * (*x as f64)).sum::<f64>().sqrt();
    if n == 0.0 {
        v[(fnv(text, 1) % dim as u64) as usize] = 1.0;
    } else {
        for x in &mut v {
            *x = (*x as f64 / n) as f32;
        }
    }
    v
}

fn b64(bytes: &[u8]) -> String {
    clair_core::llm::wire::base64(bytes)
}

fn embeddings(state: &Arc<State>, body: &str) -> (Reply, Option<String>, Option<FaultMode>) {
    let bad = |m: String| (Reply::error(400, &m, "invalid_request_error", None), Some("embeddings".to_string()), None);
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => return bad(format!("We could not parse the JSON body of your request: {e}")),
    };
    let tok_str = |a: &Vec<Value>| a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    let inputs: Vec<String> = match v.get("input") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect(),
        Some(Value::Array(a)) if a.iter().all(Value::is_number) => vec![tok_str(a)],
        Some(Value::Array(a)) if a.iter().all(Value::is_array) => a.iter().map(|x| tok_str(x.as_array().unwrap_or(&vec![]))).collect(),
        _ => return bad("'input' must be a string or an array of strings.".into()),
    };
    if inputs.is_empty() {
        return bad("'input' must not be empty.".into());
    }
    let dim = match v.get("dimensions") {
        None | Some(Value::Null) => state.embedding_dimensions,
        Some(d) => match d.as_u64() {
            Some(d) if (1..=8192).contains(&d) => d as usize,
            _ => return bad("'dimensions' must be an integer between 1 and 8192.".into()),
        },
    };
    let model = v.get("model").and_then(Value::as_str).unwrap_or("text-embedding-3-large").to_string();
    let base64 = v.get("encoding_format").and_then(Value::as_str) == Some("base64");
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let e = embed(t, dim);
            let emb = if base64 {
                json!(b64(&e.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()))
            } else {
                json!(e)
            };
            json!({"object": "embedding", "index": i, "embedding": emb})
        })
        .collect();
    let tokens: u64 = inputs.iter().map(|t| text::approx_tokens(t.chars().count())).sum();
    let good = json!({"object": "list", "data": data, "model": model, "usage": {"prompt_tokens": tokens, "total_tokens": tokens}});
    let fault = take_fault(state, "embeddings");
    let reply = match fault.as_ref().map(|f| f.mode) {
        Some(FaultMode::Schema) => Reply::json(200, &json!({"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": "not a vector"}], "model": model, "unexpected_field": true})),
        _ => apply_plain_fault(good, fault.as_ref()),
    };
    (reply, Some("embeddings".into()), fault.map(|f| f.mode))
}
