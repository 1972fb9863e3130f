//! `clair ask CORPUS QUESTION [--json] [--calls] [--config SETTINGS.toml] [--base-url URL] [--model NAME]`
//!
//! Runs the CLAIR-Fin pipeline natively against any OpenAI-compatible endpoint over a corpus written
//! by `clair ingest`. With `--json` prints the run export (`clair-fin/run@1`); otherwise the answer
//! text, with progress on stderr (`--calls` adds every model call as it starts and finishes). Environment: OPENAI_BASE_URL (default https://api.openai.com/v1),
//! OPENAI_API_KEY, CLAIR_CHAT_MODEL, CLAIR_VISION_MODEL, CLAIR_EMBEDDING_MODEL; flags override.
//!
//! Exit status: 0 for an answer, a partial answer or an abstention; 3 for a failed run (model calls
//! failed and decided every claim: the answer text says what failed, once — it is no abstention);
//! 1 for an error that stopped the run (bad key, wrong URL, unreadable corpus).

use crate::args::Args;
use crate::http::NativeTransport;
use clair_core::config::{Modality, RetrievalSettings, Settings};
use clair_core::corpus::Hit;
use clair_core::export::RunOutcome;
use clair_core::llm::{CallEvent, LlmClient, Transport};
use clair_core::pipeline::{self, ClaimPhase, ProgressEvent};
use clair_core::retrieve::{ApiEmbedder, Corpus, LocalSearch, Search};

const USAGE: &str = "usage: clair ask CORPUS QUESTION | --store milvus://HOST:PORT/COLLECTION [--token T] QUESTION [--json] [--calls] [--config SETTINGS.toml] [--base-url URL] [--model NAME]";

/// The model endpoint from the environment (OPENAI_BASE_URL, CLAIR_*_MODEL; blank values ignored).
/// Flags are applied after this by each command, so they override.
pub fn endpoint_from_env(s: &mut Settings) {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    if let Some(u) = env("OPENAI_BASE_URL") {
        s.models.base_url = u;
    }
    if let Some(m) = env("CLAIR_CHAT_MODEL") {
        s.models.chat_model = m;
    }
    if let Some(m) = env("CLAIR_VISION_MODEL") {
        s.models.vision_model = m;
    }
    if let Some(m) = env("CLAIR_EMBEDDING_MODEL") {
        s.models.embedding_model = m;
    }
}

fn settings(a: &Args) -> Result<Settings, String> {
    let mut s = match a.value("--config") {
        Some(p) => Settings::from_toml(&std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}"))?)?,
        None => Settings::paper(),
    };
    endpoint_from_env(&mut s);
    if let Some(u) = a.value("--base-url") {
        s.models.base_url = u.into();
    }
    if let Some(m) = a.value("--model") {
        s.models.chat_model = m.into();
    }
    s.validate()?;
    Ok(s)
}

/// Search an API-embedded corpus: embed the query with the same model, then the usual blend.
pub(crate) struct ApiSearch<'a, 'b, 'c, T: Transport> {
    pub(crate) corpus: &'a Corpus,
    pub(crate) embedder: ApiEmbedder<'b, 'c, T>,
    pub(crate) settings: &'a RetrievalSettings,
}

impl<T: Transport> Search for ApiSearch<'_, '_, '_, T> {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        let q = self.embedder.embed(query).await?;
        Ok(self.corpus.search(&q, query, k, modality, self.settings))
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        // Spec §8.6: the passage's embedding for the dense part, the question's terms for the lexical.
        let q = self.embedder.embed(passage).await?;
        Ok(self.corpus.search(&q, query, k, modality, self.settings))
    }
}

fn render(e: &ProgressEvent) -> Option<String> {
    Some(match e {
        ProgressEvent::Started { .. } => "planning…".into(),
        ProgressEvent::Planned { claims, .. } => {
            let mut s = format!("{} claim(s):", claims.len());
            for c in claims {
                s.push_str(&format!("\n  {} [{}] {}", c.claim_id, c.claim_type.as_str(), c.text));
            }
            s
        }
        ProgressEvent::Claim { claim_id, phase, totals } => {
            let what = match phase {
                ClaimPhase::Evidence => "gathering evidence".to_string(),
                ClaimPhase::Guardian { evidence, coverage_bp, escalated } => {
                    format!("{evidence} evidence item(s), coverage {:.2} → {}", *coverage_bp as f64 / 10_000.0, if *escalated { "debate" } else { "fast path" })
                }
                ClaimPhase::Affirmative { stage, .. } => format!("affirmative brief ({stage})"),
                ClaimPhase::Custody { stage, verdict } => format!("custody check ({stage}): {verdict:?}"),
                ClaimPhase::Adversarial { stage, high_findings, recommend_abstain, .. } => {
                    format!("adversarial review ({stage}): {high_findings} high finding(s){}", if *recommend_abstain { ", recommends abstaining" } else { "" })
                }
                ClaimPhase::Audit => "terminal audit".to_string(),
                ClaimPhase::Judged { label, reason, .. } => format!("{} — {reason}", label.as_str()),
            };
            format!("  {claim_id}: {what}   [{} calls, ${:.4}]", totals.calls, totals.cost_usd)
        }
        ProgressEvent::Synthesizing { .. } => "synthesizing…".into(),
        ProgressEvent::Finished { totals, .. } => format!(
            "done: {} calls, {} in / {} out tokens, ${:.4}{}",
            totals.calls,
            totals.input_tokens,
            totals.output_tokens,
            totals.cost_usd,
            if totals.unpriced_models.is_empty() { String::new() } else { format!(" (+ unpriced: {})", totals.unpriced_models.join(", ")) }
        ),
    })
}

fn render_call(e: &CallEvent) -> String {
    match e {
        CallEvent::Started { role, claim_id, model } => format!("    → {} {role} ({model})", claim_id.as_deref().unwrap_or("run")),
        CallEvent::Finished { record: r } => format!(
            "    ← {} {} {:.0} ms, {} attempt(s){}",
            r.claim_id.as_deref().unwrap_or("run"),
            r.role,
            r.latency_ms,
            r.attempts,
            r.failure.as_deref().map(|f| format!(" — failed: {f}")).unwrap_or_default()
        ),
    }
}

pub fn ask(raw: &[String]) -> Result<(), String> {
    let a = Args::parse(raw)?;
    let store = crate::store::from_args(&a)?;
    let (path, question) = match (&store, &a.positional[..]) {
        (None, [path, question]) => (path.as_str(), question),
        (Some(_), [question]) => ("", question),
        _ => return Err(USAGE.into()),
    };
    let json = a.has("--json");
    let s = settings(&a)?;
    if let Some((url, token)) = store {
        let key = std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.trim().is_empty());
        let t = NativeTransport::new(&s.models.base_url, key);
        let client = LlmClient::new(&t, &s);
        if a.has("--calls") {
            client.observe(|e| eprintln!("{}", render_call(e)));
        }
        let http = crate::store::MilvusHttp::new();
        let e = crate::store::embedder_for(&http, &url, &token)?;
        let search = crate::store::open_search(&http, url, token, &e, &s.retrieval)?;
        let mut on_progress = |e: ProgressEvent| {
            if let Some(line) = render(&e) {
                eprintln!("{line}");
            }
        };
        let run = futures::executor::block_on(pipeline::run(question, &s, &client, &search, &mut on_progress))?;
        return finish(run, json);
    }
    let corpus = Corpus::from_bytes(&std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?).map_err(|e| format!("{path}: {e}"))?;
    let key = std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.trim().is_empty());
    let t = NativeTransport::new(&s.models.base_url, key);
    let client = LlmClient::new(&t, &s);
    // Calls as they leave and return (`--calls`): with claims running concurrently this shows
    // what is in flight.
    if a.has("--calls") {
        client.observe(|e| eprintln!("{}", render_call(e)));
    }
    let mut on_progress = |e: ProgressEvent| {
        if let Some(line) = render(&e) {
            eprintln!("{line}");
        }
    };
    let wall = std::time::Instant::now();
    let run = if corpus.embedder.starts_with("api:") {
        let search = ApiSearch { corpus: &corpus, embedder: ApiEmbedder::for_corpus(&client, corpus.dims), settings: &s.retrieval };
        futures::executor::block_on(pipeline::run(question, &s, &client, &search, &mut on_progress))?
    } else {
        let e = crate::cmd_index::offline_for(&a, &corpus, &s)?;
        let search = LocalSearch { corpus: &corpus, embedder: &e, settings: &s.retrieval };
        futures::executor::block_on(pipeline::run(question, &s, &client, &search, &mut on_progress))?
    };
    // Wall time against the summed call latencies: with claims running concurrently the wall time
    // approaches the critical path (issue 5, runtime bar).
    let summed: f64 = run.calls.iter().map(|c| c.latency_ms).sum();
    eprintln!(
        "wall {:.2} s; model calls {:.2} s summed over {} call(s); claim concurrency {}",
        wall.elapsed().as_secs_f64(),
        summed / 1000.0,
        run.calls.len(),
        s.pipeline.claim_concurrency
    );
    finish(run, json)
}

/// Print the answer (or the export) and exit 3 for a failed run.
fn finish(run: clair_core::export::RunExport, json: bool) -> Result<(), String> {
    if json {
        println!("{}", run.to_json());
    } else {
        println!("{}", run.answer.text);
    }
    if run.outcome == RunOutcome::Failed {
        // The answer (text or export) names the failure; stderr says only that the run failed.
        eprintln!("clair: the run failed: no claim could be checked (exit status 3)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        std::process::exit(3);
    }
    Ok(())
}
