//! `clair eval DATASET --out DIR [--config NAME|SETTINGS.toml]... [--limit N] [--base-url URL] [--model NAME]
//!            [--judge-base-url URL] [--judge-model NAME] [--pdfs DIR] [--corpus CORPUS] [--k K]
//!            [--embedder static|offline|api [--dims N]] [--no-ragas] [--graph-estimate]
//!            [--store milvus://HOST:PORT/COLLECTION [--token T]]`
//!
//! Runs every question of DATASET (FinanceBench / BB-FinQA-X / generic JSONL, see
//! `clair_core::eval::dataset`) under each configuration, scores it (`eval::outcome::score`) and
//! writes the report (`eval::report::files`) into DIR. Configurations are named ablations (`full`,
//! `no_terminal_audit`, `no_arc`, `no_aea`, `no_cocv`, `vanilla_rag`, `hyde`, `hierarchical_rag`,
//! `graph_rag`, `fixed_rounds`, or `paper` for the nine rows of Table 2) or settings files; default `full`.
//!
//! Per-document corpora are built on the fly from `--pdfs DIR/<doc>.pdf` (default: `pdfs/` next to
//! the dataset) and cached in `DIR/corpora/`, embedded with the API embedding model
//! (`models.embedding_model`, the paper's text-embedding-3-large) when OPENAI_API_KEY is set, else
//! with the offline embedder — both parts when the static table is installed, `--embedder offline`
//! its lexical part alone, as `clair ingest` (`--embedder` chooses); the same embedder embeds RAGAS's answer
//! relevancy, and the report names it. Every answered question gets RAGAS's four scores
//! (`eval::ragas`; `--no-ragas` skips those judge calls). A `graph_rag` configuration extracts each
//! document's entity graph first (`graph_extraction`, one call per chunk, cached in
//! `DIR/corpora/<doc>.graph.json`, the cost printed before any call; `--graph-estimate` prints the
//! estimate and stops). Questions without a
//! document use `--corpus`. With `--store` every question searches the team library on a Milvus
//! server instead (issue 42: as `clair ask --store`, the offline embedder of the collection's size,
//! the dense pool from Milvus, blend and per-page cap here); no PDF is read then. Each scored question is appended to `DIR/results.jsonl` as soon as it is
//! done, and its run export written to `DIR/runs/<config>/<id>.json`; an interrupted evaluation
//! continues where it stopped (questions already in `results.jsonl` are skipped; failed runs are
//! retried). The outcome and Table 3 tables are printed at the end.
//!
//! The judges (correctness, faithfulness) run on `--judge-base-url` / `--judge-model` (environment
//! CLAIR_JUDGE_BASE_URL / CLAIR_JUDGE_MODEL, key CLAIR_JUDGE_API_KEY), by default the endpoint and
//! model under test: the paper judged with a different model than its backbone (App. A.1).
//! A run whose model calls failed is a failed run — printed with what failed, kept out of the
//! outcome counts and run again on resume — never an abstention.

use crate::http::NativeTransport;
use clair_core::config::Settings;
use clair_core::eval::dataset::{self, Item};
use clair_core::eval::outcome::{self, QuestionResult};
use clair_core::eval::{self as ev, report};
use clair_core::llm::LlmClient;
use clair_core::pipeline;
use clair_core::eval::ragas::{self, TextEmbedder};
use clair_core::export::Totals;
use clair_core::retrieve::embed::embedding_inputs;
use clair_core::retrieve::graph_rag::{self, EntityGraph, GraphCache, WithGraph};
use clair_core::retrieve::milvus::{MilvusSearch, StoreUrl};
use clair_core::retrieve::{ApiEmbedder, Corpus, Embedder, LocalSearch, OfflineEmbedder, Search};
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

const USAGE: &str = "usage: clair eval DATASET --out DIR [--config NAME|SETTINGS.toml]... [--limit N] [--base-url URL] [--model NAME]
                  [--judge-base-url URL] [--judge-model NAME] [--pdfs DIR] [--corpus CORPUS] [--k K]
                  [--embedder static|offline|api [--dims N]] [--no-ragas] [--graph-estimate]
                  [--store milvus://HOST:PORT/COLLECTION [--token T]]
  NAME: full, no_terminal_audit, no_arc, no_aea, no_cocv, vanilla_rag, hyde, hierarchical_rag, graph_rag, fixed_rounds,
        or `paper` (the nine rows of Table 2)";

/// Consecutive failed runs after which the evaluation stops (an unreachable endpoint, a bad key):
/// what was scored is kept and the next invocation resumes.
const MAX_CONSECUTIVE_FAILURES: usize = 3;

struct Opts {
    dataset: String,
    out: PathBuf,
    configs: Vec<String>,
    limit: Option<usize>,
    base_url: Option<String>,
    model: Option<String>,
    judge_base_url: Option<String>,
    judge_model: Option<String>,
    pdfs: Option<PathBuf>,
    corpus: Option<PathBuf>,
    k: usize,
    /// `api` or `offline`; None = api when a key is set.
    embedder: Option<String>,
    /// `dimensions` for the API embedding model.
    dims: Option<u32>,
    ragas: bool,
    graph_estimate: bool,
    /// `--store URL`: the team library on a Milvus server, searched instead of per-document corpora.
    store: Option<String>,
    token: Option<String>,
}

fn parse(raw: &[String]) -> Result<Opts, String> {
    let mut o = Opts { dataset: String::new(), out: PathBuf::new(), configs: vec![], limit: None, base_url: None, model: None, judge_base_url: None, judge_model: None, pdfs: None, corpus: None, k: 8, embedder: None, dims: None, ragas: true, graph_estimate: false, store: None, token: None };
    let (mut dataset, mut out) = (None, None);
    let mut it = raw.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{a} needs a value\n{USAGE}"));
        match a.as_str() {
            "--out" | "-o" => out = Some(value()?),
            "--config" => o.configs.push(value()?),
            "--limit" => o.limit = Some(value()?.parse().map_err(|_| "--limit needs a number".to_string())?),
            "--k" => o.k = value()?.parse().ok().filter(|k| *k > 0).ok_or("--k needs a positive number")?,
            "--base-url" => o.base_url = Some(value()?),
            "--model" => o.model = Some(value()?),
            "--judge-base-url" => o.judge_base_url = Some(value()?),
            "--judge-model" => o.judge_model = Some(value()?),
            "--pdfs" => o.pdfs = Some(value()?.into()),
            "--corpus" => o.corpus = Some(value()?.into()),
            "--embedder" => o.embedder = Some(value()?).filter(|e| e == "api" || e == "offline" || e == "static").ok_or("--embedder is `static`, `offline` or `api`")?.into(),
            "--dims" => o.dims = Some(value()?.parse().ok().filter(|d| *d > 0).ok_or("--dims needs a positive number")?),
            "--no-ragas" => o.ragas = false,
            "--graph-estimate" => o.graph_estimate = true,
            "--store" => o.store = Some(value()?),
            "--token" => o.token = Some(value()?),
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            s if dataset.is_none() => dataset = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}`\n{USAGE}")),
        }
    }
    o.dataset = dataset.ok_or(USAGE)?;
    o.out = out.ok_or_else(|| format!("eval needs --out DIR\n{USAGE}"))?.into();
    if o.token.is_some() && o.store.is_none() {
        return Err("--token needs --store milvus://HOST:PORT/COLLECTION".into());
    }
    if o.store.is_some() && (o.corpus.is_some() || o.embedder.as_deref() == Some("api")) {
        return Err("--store searches the library with its own offline vectors: no --corpus or --embedder api with it".into());
    }
    Ok(o)
}

/// Model endpoint from the environment, then flags (as `clair ask`).
fn with_endpoint(mut s: Settings, o: &Opts) -> Result<Settings, String> {
    crate::cmd_ask::endpoint_from_env(&mut s);
    if let Some(u) = &o.base_url {
        s.models.base_url = u.clone();
    }
    if let Some(m) = &o.model {
        s.models.chat_model = m.clone();
    }
    if let Some(d) = o.dims {
        s.models.embedding_dimensions = Some(d);
    }
    s.validate()?;
    Ok(s)
}

/// The judges' settings: the endpoint under test unless the judge's own is given (flags, then
/// CLAIR_JUDGE_BASE_URL / CLAIR_JUDGE_MODEL).
fn judge_settings(base: &Settings, o: &Opts) -> Result<Settings, String> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let mut s = base.clone();
    if let Some(u) = o.judge_base_url.clone().or_else(|| env("CLAIR_JUDGE_BASE_URL")) {
        s.models.base_url = u;
    }
    if let Some(m) = o.judge_model.clone().or_else(|| env("CLAIR_JUDGE_MODEL")) {
        s.models.chat_model = m;
    }
    s.validate()?;
    Ok(s)
}

/// `(name, description, settings)` per configuration, in the order given.
fn configurations(o: &Opts, base: &Settings) -> Result<Vec<(String, String, Settings)>, String> {
    let mut names: Vec<String> = vec![];
    let given = if o.configs.is_empty() { vec!["full".to_string()] } else { o.configs.clone() };
    for c in given {
        if c == "paper" {
            names.extend(ev::PAPER_TABLES.iter().map(|s| s.to_string()));
        } else {
            names.push(c);
        }
    }
    let mut out: Vec<(String, String, Settings)> = vec![];
    for c in names {
        let (name, desc, s) = if let Some(s) = ev::named(base, &c) {
            let desc = ev::NAMED.iter().find(|(n, _)| *n == c).map(|(_, d)| d.to_string()).unwrap_or_default();
            (c.clone(), desc, s)
        } else if Path::new(&c).is_file() {
            let text = std::fs::read_to_string(&c).map_err(|e| format!("cannot read {c}: {e}"))?;
            let s = with_endpoint(Settings::from_toml(&text).map_err(|e| format!("{c}: {e}"))?, o)?;
            let stem = Path::new(&c).file_stem().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| c.clone());
            (stem, format!("settings file {c}"), s)
        } else {
            let known: Vec<&str> = ev::NAMED.iter().map(|(n, _)| *n).collect();
            return Err(format!("--config {c}: not a settings file and not a named configuration ({}, paper)", known.join(", ")));
        };
        if out.iter().any(|(n, _, _)| *n == name) {
            return Err(format!("configuration `{name}` is given twice (rename one settings file)"));
        }
        out.push((name, desc, s));
    }
    Ok(out)
}

/// Results already in `results.jsonl`. A torn last line (the process was killed mid-write) is
/// ignored; failed runs are not kept, so they are retried.
fn load_results(path: &Path) -> Vec<QuestionResult> {
    let Ok(text) = std::fs::read_to_string(path) else { return vec![] };
    let mut out = vec![];
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<QuestionResult>(line) {
            Ok(r) if r.error.is_none() => out.push(r),
            Ok(_) => {}
            Err(e) => eprintln!("{}: line {} unreadable ({e}); that question will be run again", path.display(), i + 1),
        }
    }
    out
}

fn append(path: &Path, r: &QuestionResult) -> Result<(), String> {
    let line = serde_json::to_string(r).map_err(|e| format!("cannot serialise a result: {e}"))?;
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    // One write per line (plus newline), flushed, so a kill leaves at most a torn last line.
    f.write_all(format!("{line}\n").as_bytes()).and_then(|_| f.flush()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Does a cached corpus hold this evaluation's vectors? The API model's size is learnt from its
/// first answer when `models.embedding_dimensions` is unset, so any size of that model matches then.
fn same_embedder(c: &Corpus, s: &Settings, kind: EvalEmbedder) -> bool {
    if kind == EvalEmbedder::Api {
        c.embedder.starts_with(&format!("api:{}:", s.models.embedding_model)) && s.models.embedding_dimensions.is_none_or(|d| c.dims == d as usize)
    } else {
        offline_new(kind, s).is_ok_and(|e| c.embedder == e.name())
    }
}

/// Which embedder an evaluation's corpora get (`--embedder`, as `clair ingest`'s): the API's,
/// the offline one's lexical part alone (`offline`), or both parts when the static table is
/// installed (`static`, the default without a key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EvalEmbedder {
    Api,
    Lexical,
    Offline,
}

/// The offline embedder of a new evaluation corpus.
fn offline_new(kind: EvalEmbedder, s: &Settings) -> Result<OfflineEmbedder, String> {
    match kind {
        EvalEmbedder::Lexical => Ok(OfflineEmbedder::default()),
        _ => crate::cmd_index::default_offline(&crate::args::Args::parse(&[])?, s),
    }
}

/// The offline embedder a stored corpus was embedded with (`cmd_index::offline_for`).
fn offline_of(c: &Corpus, s: &Settings) -> Result<OfflineEmbedder, String> {
    crate::cmd_index::offline_for(&crate::args::Args::parse(&[])?, c, s)
}

/// Compute a corpus's query statistics now, with its own embedder, so the first configuration's
/// latency is not charged for them (an API corpus's are the lexical part's, as its searches use).
fn warm_stats(c: &Corpus, s: &Settings) {
    c.term_stats(&offline_of(c, s).unwrap_or_else(|_| OfflineEmbedder::new(c.dims)));
}

/// The corpus of one PDF, embedded with this evaluation's embedder, cached in `DIR/corpora/<doc>.corpus`.
fn corpus_for(doc: &str, pdfs: &Path, cache: &Path, s: &Settings, kind: EvalEmbedder, key: &Option<String>) -> Result<Corpus, String> {
    let file = cache.join(format!("{}.corpus", report::slug(doc)));
    if let Ok(b) = std::fs::read(&file) {
        match Corpus::from_bytes(&b) {
            Ok(c) if same_embedder(&c, s, kind) => return Ok(c),
            Ok(_) => eprintln!("{}: other embedder, rebuilding", file.display()),
            Err(err) => eprintln!("{}: {err}; rebuilding", file.display()),
        }
    }
    let pdf = pdfs.join(format!("{doc}.pdf"));
    let bytes = std::fs::read(&pdf).map_err(|err| format!("cannot read {} for document `{doc}`: {err} (set --pdfs DIR)", pdf.display()))?;
    let t = Instant::now();
    let ex = clair_core::ingest::extract_on_threads(bytes, &format!("{doc}.pdf"), &s.ingest, crate::reading_threads());
    let docs = clair_core::ingest::documents(&ex, &s.ingest);
    let inputs = embedding_inputs(&docs);
    let c = if kind == EvalEmbedder::Api {
        let tr = NativeTransport::new(&s.models.base_url, key.clone());
        let client = LlmClient::new(&tr, s);
        let e = ApiEmbedder::new(&client);
        let vectors = futures::executor::block_on(e.embed_batch(&inputs)).map_err(|err| format!("embedding {doc}: {err}"))?;
        let mut c = Corpus::new(e.name(), e.dims());
        c.add(docs, vectors)?;
        c
    } else {
        let e = offline_new(kind, s)?;
        let vectors = e.embed_documents(&inputs);
        let mut c = Corpus::new(e.name(), e.dims());
        c.add(docs, vectors)?;
        c
    };
    warm_stats(&c, s);
    let n = c.len();
    std::fs::write(&file, c.to_bytes()).map_err(|err| format!("cannot write {}: {err}", file.display()))?;
    eprintln!("indexed {doc}: {n} documents ({}) in {:.1} s", c.embedder, t.elapsed().as_secs_f64());
    Ok(c)
}

/// The entity graph of one corpus for the Graph-RAG row (`graph_extraction` per chunk, answers
/// cached in `graph_cache`). The estimate is printed before any call; `estimate_only` stops there.
fn graph_for(label: &str, corpus: &Corpus, graph_cache: &Path, s: &Settings, key: &Option<String>, estimate_only: bool) -> Result<Option<EntityGraph>, String> {
    let mut cache = match std::fs::read_to_string(graph_cache) {
        Ok(t) => GraphCache::from_json(&t).map_err(|e| format!("{}: {e}", graph_cache.display()))?,
        Err(_) => GraphCache::default(),
    };
    let docs = &corpus.docs;
    let e = graph_rag::estimate(docs, &cache, s);
    eprintln!(
        "graph extraction for {label}: {} chunk(s), {} cached, {} call(s) to make with {}: ≈ {} input tokens, ≤ {} output tokens, ≤ {}",
        e.chunks,
        e.cached,
        e.calls,
        s.models.chat_model,
        e.input_tokens,
        e.max_output_tokens,
        e.max_cost_usd.map(|c| format!("${c:.4}")).unwrap_or_else(|| "unpriced model".into())
    );
    if estimate_only {
        return Ok(None);
    }
    if e.calls > 0 {
        let t = NativeTransport::new(&s.models.base_url, key.clone());
        let (failures, spent) = futures::executor::block_on(graph_rag::extract(docs, &mut cache, &t, s));
        std::fs::write(graph_cache, cache.to_json()).map_err(|err| format!("cannot write {}: {err}", graph_cache.display()))?;
        eprintln!("graph extraction for {label}: {} call(s), {} failed, ${:.4}", spent.calls, failures.len(), spent.cost_usd);
        for f in failures.iter().take(3) {
            eprintln!("  {f}");
        }
        if !failures.is_empty() && failures.len() == e.calls {
            return Err(format!("graph extraction for {label}: every call failed (first: {})", failures[0]));
        }
    }
    Ok(Some(EntityGraph::build(docs, &cache)))
}

/// Run one question under one configuration and score it (correctness, faithfulness and RAGAS by the
/// judge's endpoint and model), with the search and RAGAS embedder that match the corpus's embedder.
#[allow(clippy::too_many_arguments)]
fn evaluate(name: &str, item: &Item, s: &Settings, judge_s: &Settings, corpus: &Corpus, graph: Option<&EntityGraph>, k: usize, keys: &(Option<String>, Option<String>), with_ragas: bool) -> (QuestionResult, Option<String>) {
    let (key, judge_key) = keys;
    let t = NativeTransport::new(&s.models.base_url, key.clone());
    let client = LlmClient::new(&t, s);
    let jt = NativeTransport::new(&judge_s.models.base_url, judge_key.clone());
    let judge = LlmClient::new(&jt, judge_s);
    if corpus.embedder.starts_with("api:") {
        let search = crate::cmd_ask::ApiSearch { corpus, embedder: ApiEmbedder::for_corpus(&client, corpus.dims), settings: &s.retrieval };
        // Answer relevancy embeds with the run's embedding model at the run's endpoint (item 7).
        let e = ApiEmbedder::for_corpus(&client, corpus.dims);
        match graph {
            Some(g) => evaluate_with(name, item, s, &client, &judge, &WithGraph { search, graph: g }, &e, k, with_ragas),
            None => evaluate_with(name, item, s, &client, &judge, &search, &e, k, with_ragas),
        }
    } else {
        // The corpus's own offline embedder (with the semantic part when it was embedded with one);
        // should the table have gone since, the search says the corpus is from another embedder.
        let e = offline_of(corpus, s).unwrap_or_else(|_| OfflineEmbedder::new(corpus.dims));
        let search = LocalSearch { corpus, embedder: &e, settings: &s.retrieval };
        match graph {
            Some(g) => evaluate_with(name, item, s, &client, &judge, &WithGraph { search, graph: g }, &e, k, with_ragas),
            None => evaluate_with(name, item, s, &client, &judge, &search, &e, k, with_ragas),
        }
    }
}

/// One question under one configuration over a `--store` library: the same run and scoring as
/// over a local corpus (`evaluate_with`), the offline embedder for RAGAS's answer relevancy.
#[allow(clippy::too_many_arguments)]
fn evaluate_on(name: &str, item: &Item, s: &Settings, judge_s: &Settings, search: &MilvusSearch<'_, crate::store::MilvusHttp>, e: &OfflineEmbedder, k: usize, keys: &(Option<String>, Option<String>), with_ragas: bool) -> (QuestionResult, Option<String>) {
    let (key, judge_key) = keys;
    let t = NativeTransport::new(&s.models.base_url, key.clone());
    let client = LlmClient::new(&t, s);
    let jt = NativeTransport::new(&judge_s.models.base_url, judge_key.clone());
    let judge = LlmClient::new(&jt, judge_s);
    evaluate_with(name, item, s, &client, &judge, search, e, k, with_ragas)
}

#[allow(clippy::too_many_arguments)]
fn evaluate_with<S: Search, E: TextEmbedder>(
    name: &str,
    item: &Item,
    s: &Settings,
    client: &LlmClient<'_, NativeTransport>,
    judge: &LlmClient<'_, NativeTransport>,
    search: &S,
    embedder: &E,
    k: usize,
    with_ragas: bool,
) -> (QuestionResult, Option<String>) {
    let started = Instant::now();
    // The recorder keeps the HyDE passage the run searched with: RAGAS's contexts are what each
    // row's own retrieval found (`eval::contexts`).
    let search = clair_core::eval::contexts::Recorder::new(search);
    let run = futures::executor::block_on(pipeline::run(&item.question, s, client, &search, &mut |_e: pipeline::ProgressEvent| {}));
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let run = match run {
        Ok(r) => r,
        Err(err) => return (QuestionResult::failed(name, item, err, latency_ms), None),
    };
    let mut r = futures::executor::block_on(outcome::score(name, item, &run, judge));
    if let Some(f) = judge.fatal_error() {
        return (QuestionResult::failed(name, item, format!("judge: {f}"), latency_ms), Some(run.to_json()));
    }
    r.latency_ms = latency_ms;
    // §8.2: the retrieval snapshot is the top-k for the raw question by the row's own retrieval
    // (Hierarchical, Graph-RAG, HyDE with the run's passage; else the plain search).
    let hits = futures::executor::block_on(search.contexts(&item.question, s, k)).unwrap_or_default();
    r.retrieved_pages = hits.iter().map(|h| h.doc.page).collect();
    if with_ragas {
        let contexts: Vec<String> = hits.iter().map(|h| h.doc.text.clone()).collect();
        let input = ragas::RagasInput { question: &item.question, answer: &run.answer.text, contexts: &contexts, reference: &item.answer };
        r.ragas = Some(futures::executor::block_on(ragas::score(&input, judge, embedder, s.ragas.relevancy_questions)));
        r.eval_totals = Totals::of(&judge.records());
    }
    (r, Some(run.to_json()))
}

/// Write one question's run export and result line, print its progress line, and count failed
/// runs in a row; `true` when the evaluation stops (`MAX_CONSECUTIVE_FAILURES`).
#[allow(clippy::too_many_arguments)]
fn record(
    o: &Opts,
    results_path: &Path,
    name: &str,
    item: &Item,
    r: QuestionResult,
    export: Option<String>,
    ran: usize,
    todo: usize,
    failures: &mut usize,
    results: &mut Vec<QuestionResult>,
    stopped: &mut Option<String>,
) -> Result<bool, String> {
    if let Some(json) = export {
        let f = o.out.join("runs").join(report::slug(name)).join(format!("{}.json", report::slug(&item.id)));
        std::fs::write(&f, json).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
    }
    append(results_path, &r)?;
    let mut stop = false;
    match (&r.outcome, &r.error) {
        (Some(out), _) => {
            *failures = 0;
            eprintln!(
                "[{ran}/{todo}] {name} {}: {} ({} calls, ${:.4}, {:.1} s)",
                item.id,
                out.as_str(),
                r.run_totals.calls + r.eval_totals.calls,
                r.run_totals.cost_usd + r.eval_totals.cost_usd,
                r.latency_ms / 1000.0
            );
        }
        (None, e) => {
            *failures += 1;
            eprintln!("[{ran}/{todo}] {name} {}: run failed: {}", item.id, e.as_deref().unwrap_or("unknown error"));
            if *failures >= MAX_CONSECUTIVE_FAILURES {
                *stopped = Some(format!(
                    "{MAX_CONSECUTIVE_FAILURES} runs failed in a row (last: {}); stopped. Fix the cause and run the same command again: failed runs are run again.",
                    e.as_deref().unwrap_or("unknown error")
                ));
                stop = true;
            }
        }
    }
    results.push(r);
    Ok(stop)
}

pub fn eval(raw: &[String]) -> Result<(), String> {
    let o = parse(raw)?;
    let text = std::fs::read_to_string(&o.dataset).map_err(|e| format!("cannot read {}: {e}", o.dataset))?;
    let parsed = dataset::parse(&text);
    for e in &parsed.errors {
        eprintln!("{}: {e}", o.dataset);
    }
    let mut items = parsed.items;
    if items.is_empty() {
        return Err(format!("{}: no usable question (see the messages above; a row needs `question` and `answer`)", o.dataset));
    }
    if let Some(n) = o.limit {
        items.truncate(n);
    }
    let base = with_endpoint(Settings::paper(), &o)?;
    let judge_s = judge_settings(&base, &o)?;
    let configs = configurations(&o, &base)?;
    let key = std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.trim().is_empty());
    // Item 7: the API embedding model when a key is there (or asked for), the offline one otherwise.
    let kind = match o.embedder.as_deref() {
        Some("api") => EvalEmbedder::Api,
        Some("offline") => EvalEmbedder::Lexical,
        Some(_) => EvalEmbedder::Offline,
        None if key.is_some() => EvalEmbedder::Api,
        None => EvalEmbedder::Offline,
    };
    let wants_graph = configs.iter().any(|(_, _, s)| s.ablations.graph_rag);
    let pdfs = o.pdfs.clone().unwrap_or_else(|| Path::new(&o.dataset).parent().unwrap_or(Path::new(".")).join("pdfs"));
    let corpora_dir = o.out.join("corpora");
    for d in [&o.out, &corpora_dir] {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    for (name, _, _) in &configs {
        let d = o.out.join("runs").join(report::slug(name));
        std::fs::create_dir_all(&d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let results_path = o.out.join("results.jsonl");
    let mut results = load_results(&results_path);
    let done: BTreeSet<(String, String)> = results.iter().map(|r| (r.config.clone(), r.item_id.clone())).collect();
    let judge_key = std::env::var("CLAIR_JUDGE_API_KEY").ok().filter(|k| !k.trim().is_empty()).or_else(|| key.clone());
    let keys = (key.clone(), judge_key);
    let shared = match &o.corpus {
        Some(p) => Some(Corpus::from_bytes(&std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };

    let shared_graph = match (&shared, &o.corpus) {
        (Some(c), Some(p)) if wants_graph => graph_for(&p.display().to_string(), c, &PathBuf::from(format!("{}.graph.json", p.display())), &base, &key, o.graph_estimate)?,
        _ => None,
    };
    if o.graph_estimate {
        let docs: BTreeSet<&str> = items.iter().filter_map(|i| i.doc.as_deref()).collect();
        for doc in docs {
            let c = corpus_for(doc, &pdfs, &corpora_dir, &base, kind, &key)?;
            graph_for(doc, &c, &corpora_dir.join(format!("{}.graph.json", report::slug(doc))), &base, &key, true)?;
        }
        return Ok(());
    }

    // `--store`: one library for every question, opened once per configuration (each has its own
    // retrieval settings: k, pool factor, blend weights).
    let http = crate::store::MilvusHttp::new();
    let library = match &o.store {
        Some(u) => {
            if let Some((n, _, _)) = configs.iter().find(|(_, _, s)| s.ablations.graph_rag) {
                return Err(format!("--config {n}: Graph-RAG extracts an entity graph from per-document corpora, not from a --store library"));
            }
            let url = StoreUrl::parse(u)?;
            let token = o.token.clone().or_else(|| std::env::var("CLAIR_MILVUS_TOKEN").ok()).filter(|t| !t.trim().is_empty());
            let e = crate::store::embedder_for(&http, &url, &token)?;
            Some((url, token, e))
        }
        None => None,
    };
    let mut store_searches = vec![];
    if let Some((url, token, e)) = &library {
        for (_, _, s) in &configs {
            store_searches.push(crate::store::open_search(&http, url.clone(), token.clone(), e, &s.retrieval)?);
        }
        eprintln!("library {}: {} file(s)", o.store.as_deref().unwrap_or(""), store_searches.first().map_or(0, |s| s.files.len()));
    }

    let started = Instant::now();
    let todo = items.iter().flat_map(|i| configs.iter().map(move |c| (i, c))).filter(|(i, (n, _, _))| !done.contains(&(n.clone(), i.id.clone()))).count();
    eprintln!("{} question(s) × {} configuration(s): {} to run, {} already in {}", items.len(), configs.len(), todo, done.len(), results_path.display());
    let (mut failures, mut ran) = (0usize, 0usize);
    let mut corpus_cache: HashMap<String, Result<(Corpus, Option<EntityGraph>), String>> = HashMap::new();
    let mut stopped: Option<String> = None;
    'items: for item in &items {
        let pending: Vec<(usize, &(String, String, Settings))> = configs.iter().enumerate().filter(|(_, (n, _, _))| !done.contains(&(n.clone(), item.id.clone()))).collect();
        if pending.is_empty() {
            continue;
        }
        if let Some((_, _, e)) = &library {
            for (ci, (name, _, s)) in pending {
                ran += 1;
                let (r, export) = evaluate_on(name, item, s, &judge_s, &store_searches[ci], e, o.k, &keys, o.ragas);
                if record(&o, &results_path, name, item, r, export, ran, todo, &mut failures, &mut results, &mut stopped)? {
                    break 'items;
                }
            }
            continue;
        }
        // One corpus in memory at a time (items of one document are usually adjacent).
        let corpus: Result<(&Corpus, Option<&EntityGraph>), String> = match (&item.doc, &shared) {
            (Some(doc), _) => {
                if !corpus_cache.contains_key(doc) {
                    corpus_cache.clear();
                    let c = corpus_for(doc, &pdfs, &corpora_dir, &base, kind, &key).and_then(|c| {
                        // Warm the lazily built term statistics now, so the first configuration's
                        // latency is not charged for them (side-by-side latencies stay comparable).
                        warm_stats(&c, &base);
                        let g = if wants_graph { graph_for(doc, &c, &corpora_dir.join(format!("{}.graph.json", report::slug(doc))), &base, &key, false)? } else { None };
                        Ok((c, g))
                    });
                    corpus_cache.insert(doc.clone(), c);
                }
                corpus_cache[doc].as_ref().map(|(c, g)| (c, g.as_ref())).map_err(|e| e.clone())
            }
            (None, Some(c)) => {
                warm_stats(c, &base);
                Ok((c, shared_graph.as_ref()))
            }
            (None, None) => Err(format!("question `{}` names no document: give the row a `doc` or pass --corpus", item.id)),
        };
        for (_, (name, _, s)) in pending {
            ran += 1;
            let (r, export) = match corpus {
                Ok((c, g)) => evaluate(name, item, s, &judge_s, c, if s.ablations.graph_rag { g } else { None }, o.k, &keys, o.ragas),
                Err(ref e) => (QuestionResult::failed(name, item, e.clone(), 0.0), None),
            };
            if record(&o, &results_path, name, item, r, export, ran, todo, &mut failures, &mut results, &mut stopped)? {
                break 'items;
            }
        }
    }

    // Report over this invocation's questions and configurations only.
    let ids: BTreeSet<&str> = items.iter().map(|i| i.id.as_str()).collect();
    let names: Vec<(String, String)> = configs.iter().map(|(n, d, _)| (n.clone(), d.clone())).collect();
    let mut mine: Vec<QuestionResult> = results.into_iter().filter(|r| ids.contains(r.item_id.as_str()) && names.iter().any(|(n, _)| *n == r.config)).collect();
    // Keep the latest line per (config, question): a retried failure supersedes the failure.
    let mut seen = BTreeSet::new();
    mine.reverse();
    mine.retain(|r| seen.insert((r.config.clone(), r.item_id.clone())));
    mine.reverse();
    let order: HashMap<&str, usize> = items.iter().enumerate().map(|(i, it)| (it.id.as_str(), i)).collect();
    mine.sort_by_key(|r| (names.iter().position(|(n, _)| *n == r.config), order.get(r.item_id.as_str()).copied()));
    let dataset_name = Path::new(&o.dataset).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| o.dataset.clone());
    let summary = report::summarize(&dataset_name, o.k, &names, &mine);
    std::fs::create_dir_all(o.out.join("plots")).map_err(|e| format!("cannot create {}: {e}", o.out.join("plots").display()))?;
    for (file, contents) in report::files(&summary, &mine) {
        let p = o.out.join(&file);
        std::fs::write(&p, contents).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    // The outcome, Table 2 (RAGAS) and Table 3 sections of the report, on stdout.
    let md = report::markdown(&summary, &[]);
    let end = md.find("## Retrieval").unwrap_or(md.len());
    println!("{}", md[..end].trim_end());
    eprintln!("{ran} run(s) in {:.1} s; report in {}", started.elapsed().as_secs_f64(), o.out.join("report.md").display());
    match stopped {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// `clair ragas SAMPLES.jsonl [--base-url URL] [--model NAME] [--embedder offline|api [--dims N]]`:
/// RAGAS's four scores for given samples, one JSON line each on stdout — any RAG system's outputs,
/// and the Rust half of `scripts/ragas_crosscheck.py`. A sample is
/// `{"question", "answer", "contexts": [..], "reference"}`; the output line adds `"cleaned_answer"`
/// (what the judge saw) and `"scores"` (`eval::ragas::RagasScores`).
pub fn ragas_samples(raw: &[String]) -> Result<(), String> {
    const USAGE: &str = "usage: clair ragas SAMPLES.jsonl [--base-url URL] [--model NAME] [--embedder offline|api [--dims N]]";
    let (mut path, mut base_url, mut model, mut embedder, mut dims) = (None, None, None, None, None);
    let mut it = raw.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{a} needs a value\n{USAGE}"));
        match a.as_str() {
            "--base-url" => base_url = Some(value()?),
            "--model" => model = Some(value()?),
            "--embedder" => embedder = Some(value()?),
            "--dims" => dims = Some(value()?.parse::<u32>().map_err(|_| "--dims needs a number".to_string())?),
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            s => path = Some(s.to_string()),
        }
    }
    let path = path.ok_or(USAGE)?;
    let mut s = Settings::paper();
    crate::cmd_ask::endpoint_from_env(&mut s);
    if let Some(u) = base_url {
        s.models.base_url = u;
    }
    if let Some(m) = model {
        s.models.chat_model = m;
    }
    if dims.is_some() {
        s.models.embedding_dimensions = dims;
    }
    s.validate()?;
    let key = std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.trim().is_empty());
    let api = match embedder.as_deref() {
        Some("api") => true,
        Some("offline") => false,
        Some(other) => return Err(format!("unknown embedder `{other}` (offline or api)")),
        None => key.is_some(),
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let t = NativeTransport::new(&s.models.base_url, key);
    let judge = LlmClient::new(&t, &s);
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let field = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
        let contexts: Vec<String> = v.get("contexts").and_then(|c| c.as_array()).map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default();
        let (question, answer, reference) = (field("question"), field("answer"), field("reference"));
        let input = ragas::RagasInput { question: &question, answer: &answer, contexts: &contexts, reference: &reference };
        let scores = if api {
            futures::executor::block_on(ragas::score(&input, &judge, &ApiEmbedder::new(&judge), s.ragas.relevancy_questions))
        } else {
            futures::executor::block_on(ragas::score(&input, &judge, &OfflineEmbedder::default(), s.ragas.relevancy_questions))
        };
        let out = serde_json::json!({"question": question, "cleaned_answer": ragas::clean_answer(&answer), "scores": scores});
        println!("{out}");
    }
    Ok(())
}
