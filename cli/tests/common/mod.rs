//! What the CLI end-to-end tests share: the mock server process and the shared corpus paths.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub const QUESTIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/questions.jsonl");
pub const PDFS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/pdfs");
/// A short 8-K with three questions: one small corpus to build.
pub const DOC: &str = "JOHNSON_JOHNSON_2023_8K_dated-2023-08-30";

/// The mock server process; killed (by its own handle) when the test ends, pass or fail.
pub struct Mock {
    child: Child,
    pub url: String,
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The mock server binary next to `clair` (cargo builds it with `cargo test -p clair-mock-server`)
/// or at `CLAIR_MOCK_SERVER`. A missing binary fails the test with the command that builds it.
fn mock_binary() -> PathBuf {
    if let Ok(p) = std::env::var("CLAIR_MOCK_SERVER") {
        return PathBuf::from(p);
    }
    let clair = PathBuf::from(env!("CARGO_BIN_EXE_clair"));
    let dir = clair.parent().expect("clair has a directory");
    let candidates = [dir.join("clair-mock-server"), dir.join("../release/clair-mock-server"), dir.join("../debug/clair-mock-server")];
    candidates
        .into_iter()
        .find(|p| p.is_file())
        .expect("clair-mock-server is not built: run `cargo build -p clair-mock-server` (or test it together with clair-cli)")
}

/// Start the mock on a free port with extra command-line flags (e.g. `--fault 500`).
pub fn start_mock(flags: &[&str]) -> Mock {
    let mut child = Command::new(mock_binary())
        .args(["--port", "0"])
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start clair-mock-server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("read the mock's banner");
    // "mock listening on http://127.0.0.1:PORT"
    let url = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(url.starts_with("http://"), "unexpected banner {line:?}");
    Mock { child, url }
}

impl Mock {
    /// Every non-admin request the mock saw on `path` (e.g. `chat`).
    pub fn requests(&self, path: &str) -> Vec<Value> {
        let body = ureq::get(&format!("{}/__admin/requests?path={path}", self.url)).call().expect("admin requests").into_string().unwrap();
        serde_json::from_str::<Value>(&body).unwrap().as_array().cloned().unwrap_or_default()
    }
    /// Clear faults and the request log.
    pub fn reset(&self) {
        ureq::post(&format!("{}/__admin/reset", self.url)).call().expect("reset the mock");
    }
    /// Queue faults through the admin API (the full JSON form, with delays and Retry-After).
    pub fn queue_faults(&self, faults: Value) {
        ureq::post(&format!("{}/__admin/faults", self.url)).set("Content-Type", "application/json").send_string(&faults.to_string()).expect("queue faults");
    }
}

/// A fresh scratch directory for one test, removed when the test is done with it (CI builds and
/// tests on the machine's one disk; hundreds of left-over folders add up).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn scratch(name: &str) -> Scratch {
    let tmp = std::env::temp_dir().join(format!("clair-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    Scratch(tmp)
}

/// Run `clair` with the model environment cleared (only flags configure the endpoint).
pub fn clair(args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_clair"))
        .args(args)
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("CLAIR_CHAT_MODEL")
        .output()
        .expect("run clair")
}
