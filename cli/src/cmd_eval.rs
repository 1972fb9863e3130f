//! `clair eval DATASET --out DIR [--config NAME|SETTINGS.toml]... [--limit N] [--base-url URL] [--model NAME]
//!            [--judge-base-url URL] [--judge-model NAME] [--pdfs DIR] [--corpus CORPUS] [--k K]`
//!
//! Runs every question of DATASET (FinanceBench / BB-FinQA-X / generic JSONL, see
//! `clair_core::eval::dataset`) under each configuration, scores it (`eval::outcome::score`) and
//! writes the report (`eval::report::files`) into DIR. Configurations are named ablations (`full`,
//! `no_terminal_audit`, `no_arc`, `no_aea`, `no_cocv`, `vanilla_rag`, `hyde`, `fixed_rounds`, or
//! `paper` for all rows of Tables 2–3) or settings files; default `full`.
//!
//! Per-document corpora are built on the fly with the offline embedder from `--pdfs DIR/<doc>.pdf`
//! (default: `pdfs/` next to the dataset) and cached in `DIR/corpora/`. Questions without a
//! document use `--corpus`. Each scored question is appended to `DIR/results.jsonl` as soon as it is
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
use clair_core::retrieve::embed::embedding_inputs;
use clair_core::retrieve::{Corpus, Embedder, LocalSearch, OfflineEmbedder};
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

const USAGE: &str = "usage: clair eval DATASET --out DIR [--config NAME|SETTINGS.toml]... [--limit N] [--base-url URL] [--model NAME] [--judge-base-url URL] [--judge-model NAME] [--pdfs DIR] [--corpus CORPUS] [--k K]
  NAME: full, no_terminal_audit, no_arc, no_aea, no_cocv, vanilla_rag, hyde, fixed_rounds, or `paper` (Tables 2–3 rows)";

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
}

fn parse(raw: &[String]) -> Result<Opts, String> {
    let mut o = Opts { dataset: String::new(), out: PathBuf::new(), configs: vec![], limit: None, base_url: None, model: None, judge_base_url: None, judge_model: None, pdfs: None, corpus: None, k: 8 };
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
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{USAGE}")),
            s if dataset.is_none() => dataset = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}`\n{USAGE}")),
        }
    }
    o.dataset = dataset.ok_or(USAGE)?;
    o.out = out.ok_or_else(|| format!("eval needs --out DIR\n{USAGE}"))?.into();
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

/// The offline-embedded corpus of one PDF, cached in `DIR/corpora/<doc>.corpus`.
fn corpus_for(doc: &str, pdfs: &Path, cache: &Path, s: &Settings) -> Result<Corpus, String> {
    let file = cache.join(format!("{}.corpus", report::slug(doc)));
    let e = OfflineEmbedder::default();
    if let Ok(b) = std::fs::read(&file) {
        match Corpus::from_bytes(&b) {
            Ok(c) if c.embedder == e.name() => return Ok(c),
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
    let vectors = e.embed_documents(&inputs);
    let mut c = Corpus::new(e.name(), e.dims());
    let n = docs.len();
    c.add(docs, vectors)?;
    std::fs::write(&file, c.to_bytes()).map_err(|err| format!("cannot write {}: {err}", file.display()))?;
    eprintln!("indexed {doc}: {n} documents in {:.1} s", t.elapsed().as_secs_f64());
    Ok(c)
}

/// Run one question under one configuration and score it.
fn evaluate(name: &str, item: &Item, s: &Settings, judge_s: &Settings, corpus: &Corpus, k: usize, keys: &(Option<String>, Option<String>)) -> (QuestionResult, Option<String>) {
    let (key, judge_key) = keys;
    let e = OfflineEmbedder::new(corpus.dims);
    let search = LocalSearch { corpus, embedder: &e, settings: &s.retrieval };
    let t = NativeTransport::new(&s.models.base_url, key.clone());
    let client = LlmClient::new(&t, s);
    let started = Instant::now();
    let run = futures::executor::block_on(pipeline::run(&item.question, s, &client, &search, &mut |_e: pipeline::ProgressEvent| {}));
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let run = match run {
        Ok(r) => r,
        Err(err) => return (QuestionResult::failed(name, item, err, latency_ms), None),
    };
    let jt = NativeTransport::new(&judge_s.models.base_url, judge_key.clone());
    let judge = LlmClient::new(&jt, judge_s);
    let mut r = futures::executor::block_on(outcome::score(name, item, &run, &judge));
    if let Some(f) = judge.fatal_error() {
        return (QuestionResult::failed(name, item, format!("judge: {f}"), latency_ms), Some(run.to_json()));
    }
    r.latency_ms = latency_ms;
    // §8.2: the retrieval snapshot is the top-k for the raw question, independent of the run.
    r.retrieved_pages = search.search_now(&item.question, k, None).map(|hits| hits.iter().map(|h| h.doc.page).collect()).unwrap_or_default();
    (r, Some(run.to_json()))
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
    let key = std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.trim().is_empty());
    let judge_key = std::env::var("CLAIR_JUDGE_API_KEY").ok().filter(|k| !k.trim().is_empty()).or_else(|| key.clone());
    let keys = (key, judge_key);
    let shared = match &o.corpus {
        Some(p) => Some(Corpus::from_bytes(&std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };

    let started = Instant::now();
    let todo = items.iter().flat_map(|i| configs.iter().map(move |c| (i, c))).filter(|(i, (n, _, _))| !done.contains(&(n.clone(), i.id.clone()))).count();
    eprintln!("{} question(s) × {} configuration(s): {} to run, {} already in {}", items.len(), configs.len(), todo, done.len(), results_path.display());
    let (mut failures, mut ran) = (0usize, 0usize);
    let mut corpus_cache: HashMap<String, Result<Corpus, String>> = HashMap::new();
    let mut stopped: Option<String> = None;
    'items: for item in &items {
        let pending: Vec<&(String, String, Settings)> = configs.iter().filter(|(n, _, _)| !done.contains(&(n.clone(), item.id.clone()))).collect();
        if pending.is_empty() {
            continue;
        }
        // One corpus in memory at a time (items of one document are usually adjacent).
        let corpus: Result<&Corpus, String> = match (&item.doc, &shared) {
            (Some(doc), _) => {
                if !corpus_cache.contains_key(doc) {
                    corpus_cache.clear();
                    let c = corpus_for(doc, &pdfs, &corpora_dir, &base);
                    // Warm the lazily built term statistics now, so the first configuration's
                    // latency is not charged for them (side-by-side latencies stay comparable).
                    if let Ok(c) = &c {
                        c.term_stats(&OfflineEmbedder::new(c.dims));
                    }
                    corpus_cache.insert(doc.clone(), c);
                }
                corpus_cache[doc].as_ref().map_err(|e| e.clone())
            }
            (None, Some(c)) => {
                c.term_stats(&OfflineEmbedder::new(c.dims));
                Ok(c)
            }
            (None, None) => Err(format!("question `{}` names no document: give the row a `doc` or pass --corpus", item.id)),
        };
        for (name, _, s) in pending {
            ran += 1;
            let (r, export) = match corpus {
                Ok(c) => evaluate(name, item, s, &judge_s, c, o.k, &keys),
                Err(ref e) => (QuestionResult::failed(name, item, e.clone(), 0.0), None),
            };
            if let Some(json) = export {
                let f = o.out.join("runs").join(report::slug(name)).join(format!("{}.json", report::slug(&item.id)));
                std::fs::write(&f, json).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
            }
            append(&results_path, &r)?;
            match (&r.outcome, &r.error) {
                (Some(out), _) => {
                    failures = 0;
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
                    failures += 1;
                    eprintln!("[{ran}/{todo}] {name} {}: run failed: {}", item.id, e.as_deref().unwrap_or("unknown error"));
                    if failures >= MAX_CONSECUTIVE_FAILURES {
                        stopped = Some(format!(
                            "{MAX_CONSECUTIVE_FAILURES} runs failed in a row (last: {}); stopped. Fix the cause and run the same command again: failed runs are run again.",
                            e.as_deref().unwrap_or("unknown error")
                        ));
                        results.push(r);
                        break 'items;
                    }
                }
            }
            results.push(r);
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
    // The outcome and Table 3 sections of the report, on stdout.
    let md = report::markdown(&summary, &[]);
    let end = md.find("## Retrieval").unwrap_or(md.len());
    println!("{}", md[..end].trim_end());
    eprintln!("{ran} run(s) in {:.1} s; report in {}", started.elapsed().as_secs_f64(), o.out.join("report.md").display());
    match stopped {
        Some(why) => Err(why),
        None => Ok(()),
    }
}
