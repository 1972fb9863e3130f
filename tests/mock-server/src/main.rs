//! `clair-mock-server [--port N] [--host 127.0.0.1] [--require-key K] [--fault MODE[:ROLE[:COUNT]]]...
//!   [--embedding-dimensions N]`
//!
//! Prints exactly one line to stdout, `mock listening on http://127.0.0.1:PORT`, then serves until
//! killed. Port 0 (the default) picks a free port.

use clair_mock_server::{Fault, MockServer, Options};
use std::io::Write;

const USAGE: &str = "usage: clair-mock-server [--port N] [--host 127.0.0.1] [--require-key KEY] [--fault MODE[:ROLE[:COUNT]]]... [--embedding-dimensions N]
  N: the embedding size answered when a request names no `dimensions` (default 256)
  MODE: 429 | 500 | slow | timeout | malformed | truncate | schema | vision_disagree
  ROLE: a json_schema name (planner, entailment, ...), embeddings, models, or empty/* for any
  Admin API at /__admin (faults, reset, key, requests): see tests/mock-server/README.md";

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options { host: "127.0.0.1".into(), ..Options::default() };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--port" => o.port = value()?.parse().map_err(|_| "--port must be a number 0-65535".to_string())?,
            "--host" => o.host = value()?,
            "--require-key" => o.require_key = Some(value()?),
            "--fault" => o.faults.push(Fault::parse_cli(&value()?)?),
            "--embedding-dimensions" => {
                o.embedding_dimensions = Some(value()?.parse().map_err(|_| "--embedding-dimensions must be a number".to_string())?)
            }
            "--workers" => o.workers = value()?.parse().map_err(|_| "--workers must be a number".to_string())?,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 1;
    }
    Ok(o)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match parse(&args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("clair-mock-server: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let server = match MockServer::start(opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("clair-mock-server: {e}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "mock listening on {}", server.url());
    let _ = out.flush();
    drop(out);
    server.wait();
}
