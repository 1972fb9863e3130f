//! The mock over real HTTP (std TcpStream): role answers validated with clair-core's own types,
//! fault modes, CORS, request log, key check, CLI.

use clair_core::llm::roles::*;
use clair_core::llm::wire::{self, ChatRequest};
use clair_mock_server::{MockServer, Options};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

struct Resp {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Resp {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut raw = vec![];
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("header end");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut payload = raw[split + 4..].to_vec();
    let mut lines = head.lines();
    let status: u16 = lines.next().unwrap().split_whitespace().nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    if headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked")) {
        let mut out = vec![];
        let mut rest = &payload[..];
        loop {
            let nl = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let n = usize::from_str_radix(String::from_utf8_lossy(&rest[..nl]).trim(), 16).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&rest[nl + 2..nl + 2 + n]);
            rest = &rest[nl + 4 + n..];
        }
        payload = out;
    }
    Resp { status, headers, body: String::from_utf8_lossy(&payload).to_string() }
}

fn post(port: u16, path: &str, body: &str) -> Resp {
    request(port, "POST", path, &[("Content-Type", "application/json")], body.as_bytes())
}

fn get(port: u16, path: &str) -> Resp {
    request(port, "GET", path, &[], b"")
}

fn start() -> MockServer {
    MockServer::start(Options { port: 0, ..Options::default() }).expect("start mock")
}

fn chat_body(role: Role, user: &str) -> String {
    wire::chat_body(&ChatRequest { model: "gpt-4o", role, system: "You are an agent.", user, max_tokens: 500, temperature: 0.0, image_data_url: None })
}

/// Call a role and return its validated answer, as the core client would.
fn call<O: RoleOutput>(port: u16, user: &str) -> O {
    let r = post(port, "/v1/chat/completions", &chat_body(O::ROLE, user));
    assert_eq!(r.status, 200, "{}", r.body);
    let reply = wire::parse_chat_reply(&r.body).unwrap();
    assert_eq!(reply.finish_reason, "stop");
    assert_eq!(reply.model.as_deref(), Some("gpt-4o"));
    assert!(reply.usage.input_tokens > 0 && reply.usage.output_tokens > 0);
    // The client's own check: the contract derived from the type (bounds, enums), then the type.
    clair_core::llm::client::parse_output::<O>(&reply.content).unwrap_or_else(|e| panic!("{} answer {} breaks its contract: {e}", O::ROLE.name(), reply.content))
}

#[test]
fn an_answer_longer_than_max_tokens_is_cut_there_with_finish_reason_length() {
    let m = start();
    let user = "QUESTION: What was net revenue in fiscal 2022 and what was it in fiscal 2021?";
    let body = |max_tokens: u32| wire::chat_body(&ChatRequest { model: "gpt-4o", role: Role::Planner, system: "s", user, max_tokens, temperature: 0.0, image_data_url: None });
    let r = wire::parse_chat_reply(&post(m.port(), "/v1/chat/completions", &body(8)).body).unwrap();
    assert_eq!((r.finish_reason.as_str(), r.usage.output_tokens), ("length", 8));
    assert_eq!(r.content.chars().count(), 32);
    let r = wire::parse_chat_reply(&post(m.port(), "/v1/chat/completions", &body(500)).body).unwrap();
    assert_eq!(r.finish_reason, "stop", "the same answer fits a larger cap");
    assert!(serde_json::from_str::<PlannerOut>(&r.content).is_ok());
}

const EVIDENCE: &str = "[acme_2022_10k.pdf, p.41] Net revenue in fiscal 2022 was $5,200 million, up from $4,900 million in fiscal 2021.\n[acme_2022_10k.pdf, p.42] Revenue / FY2022 = 5,200 $ million";

#[test]
fn planner_answer_validates_against_role_schema() {
    let m = start();
    let p: PlannerOut = call(m.port(), "QUESTION: What was the GDP growth in India and Pakistan in 2024?\n\nWording preview (not exhaustive, do not cite):\n- [weo.pdf, p.1, table] World Output 3.3");
    assert_eq!(p.claims.len(), 2, "{p:?}");
    assert!(p.claims[0].text.contains("India") && p.claims[1].text.contains("Pakistan"), "{p:?}");
    let p: PlannerOut = call(m.port(), "QUESTION: Why did gross margin decline in FY2023?");
    assert_eq!(p.claims.len(), 1);
    assert_eq!(p.claims[0].claim_type, clair_core::config::ClaimType::CauseAttribution);
}

#[test]
fn every_role_answer_validates_against_its_schema() {
    let m = start();
    let port = m.port();
    let _: PlannerOut = call(port, "QUESTION: What was net revenue in fiscal 2022?");
    let _: NarrativeOut = call(port, "CLAIM: Net revenue in fiscal 2022\n\n[SPAN 0]\nNet revenue in fiscal 2022 was $5,200 million.");
    let _: TabularOut = call(port, "CLAIM: Net revenue in FY2022\n\n[TABLE 0] (page 41, caption: none)\n| Item | FY2022 | FY2021 |\n| --- | --- | --- |\n| Net revenue | 5,200 | 4,900 |");
    let _: VisualOut = call(port, "CLAIM: Revenue trend\n\n[CHART 0] (page 3, type: bar, caption: Revenue by year)\nA bar chart (year vs revenue). Revenue rose from 2020 to 2022.");
    let _: AffirmativeOut = call(port, &format!("CLAIM: Net revenue in fiscal 2022\n\nEVIDENCE:\n{EVIDENCE}"));
    let _: AdversarialOut = call(port, &format!("CLAIM: Net revenue in fiscal 2022\n\nEVIDENCE:\n{EVIDENCE}\n\nAFFIRMATIVE BRIEF:\nNet revenue was $5,200 million [acme_2022_10k.pdf, p.41]."));
    let _: EntailmentOut = call(port, &format!("PREMISE:\n{EVIDENCE}\n\nHYPOTHESIS:\nNet revenue in fiscal 2022 was $5,200 million."));
    let _: JudgeDraftOut = call(port, &format!("CLAIM: Net revenue in fiscal 2022\n\nEVIDENCE:\n{EVIDENCE}"));
    let _: SynthesizerOut = call(port, "QUESTION: q?\n\nAUDITED STATEMENTS:\n- Revenue was 5 [a.pdf, p.1]");
    let _: PageVisionOut = call(port, "Extract this page.\nRevenue 5,200 4,900\nCosts 3,100 2,800");
    let _: CorrectnessOut = call(port, "QUESTION: q?\n\nGOLD ANSWER:\n$5,200 million\n\nSYSTEM ANSWER:\nIt was $5,200 million [a.pdf, p.1].");
    let _: HydeOut = call(port, "QUESTION: What was net revenue in fiscal 2022?");
    // Empty prompts still produce schema-valid answers.
    let _: JudgeDraftOut = call(port, "CLAIM: x\n\nEVIDENCE:\nNo evidence was retrieved.");
    let _: AdversarialOut = call(port, "");
    let _: EntailmentOut = call(port, "");
    let _: PlannerOut = call(port, "");
}

#[test]
fn tabular_agent_picks_cell_named_in_claim() {
    let m = start();
    let user = "CLAIM: What was Net revenue in FY2022?\n\n\
        [TABLE 0] (page 41, caption: Consolidated statement of income (in millions))\n\
        **Consolidated statement of income (in millions)**\n| Item | FY2022 | FY2021 |\n| --- | --- | --- |\n| Net revenue | 5,200 | 4,900 |\n| Total operating expenses | 3,100 | 2,950 |\n\n\
        [TABLE 1] (page 42, caption: none)\nSegment table — Cloud revenue: FY2022=1,100, FY2021=900";
    let t: TabularOut = call(m.port(), user);
    assert_eq!(t.cells.len(), 1, "{t:?}");
    let c = &t.cells[0];
    assert_eq!((c.table_index, c.row_label.as_str(), c.col_label.as_str(), c.value.as_str()), (0, "Net revenue", "FY2022", "5,200"));
    assert_eq!(c.unit.as_deref(), Some("millions"));
    // Row docs, and both periods for a comparison claim.
    let t: TabularOut = call(m.port(), "CLAIM: Change in Cloud revenue from FY2021 to FY2022\n\n[TABLE 0] (page 42, caption: none)\nSegment table — Cloud revenue: FY2022=1,100, FY2021=900");
    let cols: Vec<&str> = t.cells.iter().map(|c| c.col_label.as_str()).collect();
    assert_eq!(cols, vec!["FY2022", "FY2021"]);
    // Nothing about the claim → empty, not a near miss.
    let t: TabularOut = call(m.port(), "CLAIM: Dividends per share in FY2022\n\n[TABLE 0] (page 42, caption: none)\nSegment table — Cloud revenue: FY2022=1,100");
    assert!(t.cells.is_empty(), "{t:?}");
}

#[test]
fn entailment_rejects_number_missing_from_premise() {
    let m = start();
    let e: EntailmentOut = call(m.port(), &format!("PREMISE:\n{EVIDENCE}\n\nHYPOTHESIS:\nNet revenue in fiscal 2022 was $5,900 million [acme_2022_10k.pdf, p.41]."));
    assert_ne!(e.label, EntailmentLabel::Entails, "{e:?}");
    let e: EntailmentOut = call(m.port(), &format!("PREMISE:\n{EVIDENCE}\n\nHYPOTHESIS:\nNet revenue in fiscal 2022 was $5,200 million [acme_2022_10k.pdf, p.41]."));
    assert_eq!((e.label, e.confidence), (EntailmentLabel::Entails, 1.0), "{e:?}");
    let e: EntailmentOut = call(m.port(), "PREMISE:\nNo evidence.\n\nHYPOTHESIS:\nRevenue was 5.");
    assert_eq!(e.label, EntailmentLabel::Neutral);
}

#[test]
fn debate_roles_use_the_evidence() {
    let m = start();
    let port = m.port();
    let claim = "CLAIM: Net revenue in fiscal 2022";
    let a: AffirmativeOut = call(port, &format!("{claim}\n\nEVIDENCE:\n{EVIDENCE}"));
    assert!(a.brief.contains("[acme_2022_10k.pdf, p.41]") && a.brief.contains("5,200"), "{a:?}");
    // The brief is entailed by its own evidence (custody passes).
    let e: EntailmentOut = call(port, &format!("PREMISE:\n{EVIDENCE}\n\nHYPOTHESIS:\n{}", a.brief));
    assert_eq!(e.label, EntailmentLabel::Entails, "{e:?}");
    let adv: AdversarialOut = call(port, &format!("{claim}\n\nEVIDENCE:\n{EVIDENCE}\n\nAFFIRMATIVE BRIEF:\n{}", a.brief));
    assert!(adv.attacks.is_empty() && !adv.recommend_abstain, "{adv:?}");
    let adv: AdversarialOut = call(port, &format!("{claim}\n\nEVIDENCE:\n{EVIDENCE}\n\nAFFIRMATIVE BRIEF:\nNet revenue was $6,300 million."));
    let cats: Vec<(AttackCategory, Severity)> = adv.attacks.iter().map(|a| (a.category, a.severity)).collect();
    assert!(cats.contains(&(AttackCategory::Numeric, Severity::High)) && cats.contains(&(AttackCategory::CitationGap, Severity::Medium)), "{adv:?}");
    let adv: AdversarialOut = call(port, &format!("{claim}\n\nEVIDENCE:\nNo evidence was retrieved.\n\nAFFIRMATIVE BRIEF:\nx"));
    assert!(adv.recommend_abstain);
    let j: JudgeDraftOut = call(port, &format!("{claim}\n\nEVIDENCE:\n{EVIDENCE}"));
    assert!(!j.insufficient && j.sentence.contains("5,200") && !j.sentence.contains('['), "{j:?}");
    let j: JudgeDraftOut = call(port, &format!("{claim}\n\nEVIDENCE:\n"));
    assert!(j.insufficient);
    let s: SynthesizerOut = call(port, "QUESTION: q?\n\nAUDITED STATEMENTS:\n- Revenue was 5 [a.pdf, p.1]\n- Costs were 3 [b.pdf, p.2]");
    assert!(s.answer.contains("[a.pdf, p.1]") && s.answer.contains("[b.pdf, p.2]"));
    let c: CorrectnessOut = call(port, "QUESTION: q?\n\nGOLD ANSWER:\n$5,200 million and 6%\n\nSYSTEM ANSWER:\nRevenue was $5.2 billion [a.pdf, p.1].");
    assert_eq!(c.label, CorrectnessLabel::Partial, "{c:?}");
    let n: NarrativeOut = call(port, "CLAIM: Net revenue in fiscal 2022\n\n[SPAN 0]\nNet revenue in fiscal 2022 was $5,200 million.\n\n[SPAN 1]\nAccording to analysts, demand may soften.");
    assert_eq!(n.tags[0].value.as_deref(), Some("5200"));
    assert_eq!(n.tags[1].hedge_type, HedgeType::Attribution);
    let v: VisualOut = call(port, "CLAIM: Revenue trend\n\n[CHART 0] (page 3, type: bar, caption: Revenue by year)\nRevenue rose from 2020 to 2022.\n\n[CHART 1] (page 4, type: pie, caption: Headcount by region)\nEurope 40%.");
    assert_eq!(v.findings.iter().map(|f| f.relevant).collect::<Vec<_>>(), vec![true, false]);
}

#[test]
fn rate_limit_fault_sends_retry_after_then_recovers() {
    let m = start();
    let port = m.port();
    let r = post(port, "/__admin/faults", r#"{"mode": "429", "role": "entailment", "count": 2, "retry_after": 1}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let body = chat_body(Role::Entailment, &format!("PREMISE:\n{EVIDENCE}\n\nHYPOTHESIS:\nx"));
    // Other roles are unaffected.
    assert_eq!(post(port, "/v1/chat/completions", &chat_body(Role::Hyde, "QUESTION: q")).status, 200);
    for _ in 0..2 {
        let r = post(port, "/v1/chat/completions", &body);
        assert_eq!(r.status, 429);
        assert_eq!(r.header("Retry-After"), Some("1"));
        assert_eq!(r.json()["error"]["code"], "rate_limit_exceeded");
        assert!(wire::api_error_message(&r.body).is_some());
    }
    let r = post(port, "/v1/chat/completions", &body);
    assert_eq!(r.status, 200);
    let log = get(port, "/__admin/requests?role=entailment").json();
    let statuses: Vec<u64> = log.as_array().unwrap().iter().map(|e| e["status"].as_u64().unwrap()).collect();
    assert_eq!(statuses, vec![429, 429, 200]);
}

#[test]
fn content_faults_break_the_answer_the_way_the_client_sees_it() {
    let m = start();
    let port = m.port();
    let body = chat_body(Role::Hyde, "QUESTION: What was revenue?");
    post(port, "/__admin/faults", r#"[{"mode": "malformed", "count": 1}, {"mode": "truncate", "count": 1}, {"mode": "schema", "count": 1}, {"mode": "500", "count": 1}]"#);
    let r = wire::parse_chat_reply(&post(port, "/v1/chat/completions", &body).body).unwrap();
    assert!(serde_json::from_str::<Value>(&r.content).is_err(), "malformed: {}", r.content);
    let r = wire::parse_chat_reply(&post(port, "/v1/chat/completions", &body).body).unwrap();
    assert_eq!(r.finish_reason, "length");
    assert!(serde_json::from_str::<Value>(&r.content).is_err(), "truncated: {}", r.content);
    let r = wire::parse_chat_reply(&post(port, "/v1/chat/completions", &body).body).unwrap();
    assert!(serde_json::from_str::<Value>(&r.content).is_ok());
    assert!(serde_json::from_str::<HydeOut>(&r.content).is_err(), "schema: {}", r.content);
    let r = post(port, "/v1/chat/completions", &body);
    assert_eq!(r.status, 500);
    assert!(wire::api_error_message(&r.body).is_some());
    // Queue empty again: normal answer.
    let _: HydeOut = call(port, "QUESTION: What was revenue?");
    assert_eq!(get(port, "/__admin/faults").json()["faults"], json!([]));
}

#[test]
fn slow_fault_does_not_block_other_requests() {
    let m = start();
    let port = m.port();
    post(port, "/__admin/faults", r#"{"mode": "slow", "role": "planner", "delay_ms": 1500}"#);
    let t0 = Instant::now();
    let slow = std::thread::spawn(move || {
        let r = post(port, "/v1/chat/completions", &chat_body(Role::Planner, "QUESTION: q?"));
        (r.status, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(100));
    let r = post(port, "/v1/chat/completions", &chat_body(Role::Hyde, "QUESTION: q?"));
    let fast_done = Instant::now();
    assert_eq!(r.status, 200);
    let (status, slow_done) = slow.join().unwrap();
    assert_eq!(status, 200);
    assert!(slow_done.duration_since(t0) >= Duration::from_millis(1400));
    assert!(fast_done < slow_done, "the fast call waited for the slow one");
}

#[test]
fn timeout_fault_holds_the_reply() {
    let m = start();
    let port = m.port();
    post(port, "/__admin/faults", r#"{"mode": "timeout", "count": 1, "delay_ms": 700}"#);
    let t0 = Instant::now();
    let r = post(port, "/v1/chat/completions", &chat_body(Role::Hyde, "QUESTION: q?"));
    assert!(t0.elapsed() >= Duration::from_millis(650));
    assert_eq!(r.status, 504);
}

#[test]
fn vision_disagree_returns_different_tables_on_consecutive_calls() {
    let m = start();
    let port = m.port();
    let a: PageVisionOut = call(port, "Extract this page.\nRevenue 5,200 4,900\nCosts 3,100 2,800");
    let b: PageVisionOut = call(port, "Extract this page.\nRevenue 5,200 4,900\nCosts 3,100 2,800");
    assert_eq!(a, b);
    assert_eq!(a.tables[0].rows[0], vec!["Revenue", "5,200", "4,900"]);
    post(port, "/__admin/faults", r#"{"mode": "vision_disagree", "count": 3}"#);
    // Only page_vision consumes it.
    let _: HydeOut = call(port, "QUESTION: q");
    let t: Vec<PageVisionOut> = (0..3).map(|_| call(port, "Extract this page.")).collect();
    assert!(!t[0].tables.is_empty());
    assert_ne!(t[0].tables, t[1].tables);
    assert_ne!(t[1].tables, t[2].tables);
    assert_ne!(t[0].tables, t[2].tables);
    let after: PageVisionOut = call(port, "Extract this page.");
    assert!(after.tables.is_empty());
}

#[test]
fn embeddings_are_deterministic_unit_vectors_with_usage() {
    let m = start();
    let port = m.port();
    let body = wire::embeddings_body("text-embedding-3-large", &["Net revenue 2022".into(), "net revenues 2022".into(), "headcount".into()], Some(64));
    let r = post(port, "/v1/embeddings", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    let (v, usage) = wire::parse_embeddings(&r.body, 3).unwrap();
    assert!(usage.input_tokens > 0);
    assert!(v.iter().all(|x| x.len() == 64));
    for x in &v {
        let n: f32 = x.iter().map(|a| a * a).sum();
        assert!((n - 1.0).abs() < 1e-4);
    }
    assert_eq!(v[0], v[1], "same tokens after normalisation give the same vector");
    assert_ne!(v[0], v[2]);
    assert_eq!(post(port, "/v1/embeddings", &body).body, r.body);
    let d = post(port, "/v1/embeddings", r#"{"model": "m", "input": "x"}"#).json();
    assert_eq!(d["data"][0]["embedding"].as_array().unwrap().len(), 256);
    let models = get(port, "/v1/models").json();
    assert!(models["data"].as_array().unwrap().iter().any(|m| m["id"] == "text-embedding-3-large"));
}

#[test]
fn preflight_allows_cross_origin_calls() {
    let m = start();
    let port = m.port();
    let r = request(
        port,
        "OPTIONS",
        "/v1/chat/completions",
        &[("Origin", "http://127.0.0.1:8080"), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization, content-type")],
        b"",
    );
    assert!(r.status == 204 || r.status == 200, "{}", r.status);
    assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"));
    let allow = r.header("Access-Control-Allow-Headers").unwrap().to_lowercase();
    assert!(allow.contains("authorization") && allow.contains("content-type"));
    assert!(r.header("Access-Control-Allow-Methods").unwrap().contains("POST"));
    let r = request(port, "POST", "/v1/chat/completions", &[("Origin", "http://127.0.0.1:8080"), ("Content-Type", "application/json")], chat_body(Role::Hyde, "QUESTION: q").as_bytes());
    assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"));
    assert!(r.header("Access-Control-Expose-Headers").unwrap().contains("retry-after"));
}

#[test]
fn request_log_records_bodies_for_assertions() {
    let m = start();
    let port = m.port();
    let key = "sk-test-SECRET-123456";
    let auth = format!("Bearer {key}");
    for role in [Role::Planner, Role::Hyde, Role::Hyde] {
        let r = request(port, "POST", "/v1/chat/completions", &[("Authorization", &auth), ("Content-Type", "application/json")], chat_body(role, "QUESTION: What was revenue?").as_bytes());
        assert_eq!(r.status, 200);
    }
    let log = get(port, "/__admin/requests").json();
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 3);
    for e in log {
        assert_eq!(e["method"], "POST");
        assert_eq!(e["path"], "/v1/chat/completions");
        assert!(e["body"].as_str().unwrap().contains("QUESTION: What was revenue?"));
        assert!(!e["body"].as_str().unwrap().contains(key), "the key must never be in a body");
        assert_eq!(e["headers"]["authorization"], auth.as_str());
    }
    assert_eq!(get(port, "/__admin/requests?role=hyde").json().as_array().unwrap().len(), 2);
    assert_eq!(post(port, "/__admin/reset", "").status, 200);
    assert_eq!(get(port, "/__admin/requests").json(), json!([]));
}

#[test]
fn bad_input_gets_400_not_a_crash() {
    let m = start();
    let port = m.port();
    for body in [&b"{not json"[..], b"\xff\xfe\x00garbage", br#"{"messages": []}"#, br#"{"messages": [], "response_format": {"type": "json_schema", "json_schema": {"name": "astrologer"}}}"#] {
        let r = request(port, "POST", "/v1/chat/completions", &[("Content-Type", "application/json")], body);
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(wire::api_error_message(&r.body).is_some());
    }
    assert_eq!(post(port, "/v1/embeddings", r#"{"input": 5}"#).status, 400);
    assert_eq!(post(port, "/__admin/faults", r#"{"mode": "explode"}"#).status, 400);
    assert_eq!(post(port, "/__admin/faults", r#"{"mode": "500", "role": "astrologer"}"#).status, 400);
    assert_eq!(get(port, "/v1/nothing").status, 404);
    let _: HydeOut = call(port, "QUESTION: still alive?");
}

fn spawn_bin(args: &[&str]) -> (std::process::Child, u16) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_clair-mock-server"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn mock binary");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line
        .trim()
        .strip_prefix("mock listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .unwrap();
    (child, port)
}

#[test]
fn wrong_key_gets_401_with_actionable_message() {
    let (mut child, port) = spawn_bin(&["--port", "0", "--require-key", "sk-right-key-0001"]);
    let body = chat_body(Role::Hyde, "QUESTION: q");
    let r = request(port, "POST", "/v1/chat/completions", &[("Authorization", "Bearer sk-wrong-key-9999")], body.as_bytes());
    assert_eq!(r.status, 401);
    let v = r.json();
    assert_eq!(v["error"]["type"], "invalid_request_error");
    assert_eq!(v["error"]["code"], "invalid_api_key");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("API key") && msg.contains("Settings"), "{msg}");
    assert!(!msg.contains("sk-wrong-key-9999"), "the key is masked: {msg}");
    assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"), "errors must be readable cross-origin");
    assert_eq!(request(port, "POST", "/v1/chat/completions", &[], body.as_bytes()).status, 401);
    let ok = request(port, "POST", "/v1/chat/completions", &[("Authorization", "Bearer sk-right-key-0001")], body.as_bytes());
    assert_eq!(ok.status, 200);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn startup_fault_flag_applies_like_the_admin_api() {
    let (mut child, port) = spawn_bin(&["--fault", "500:hyde:1"]);
    let body = chat_body(Role::Hyde, "QUESTION: q");
    assert_eq!(post(port, "/v1/chat/completions", &body).status, 500);
    assert_eq!(post(port, "/v1/chat/completions", &body).status, 200);
    let _ = child.kill();
    let _ = child.wait();
}
