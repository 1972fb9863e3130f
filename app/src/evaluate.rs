//! The Evaluate view (issue 8 item 5): a dataset file (FinanceBench / BB-FinQA-X / generic JSONL)
//! run under chosen configurations over the documents in the library, with progress, the results
//! table (the paper's Tables 2–3 side by side) and the plots, all computed by `clair_core::eval`
//! exactly as `clair eval` computes them, RAGAS's four scores of Table 2 included. Results are kept in `localStorage` under the dataset's
//! fingerprint after every question, so a stopped or reloaded evaluation continues where it stopped.
//!
//! Retrieval scope: a row that names a document (`doc_name`) is answered from that PDF only, as the
//! CLI does with one corpus per document; the worker's ranking over the library is filtered to that
//! source (over-fetching 8 × k so the filtered list is still k long).
//!
//! Graph-RAG (Table 2): when a `graph_rag` row is to run, each document it needs is extracted first
//! as `clair eval` does (`graph_rag::extract`, one `graph_extraction` call per chunk not yet cached),
//! after the view has shown the estimate (`graph_rag::estimate`) and the user has confirmed it. The
//! worker hands over the file's chunks and stored answers (`GraphChunks`) and keeps the new answers
//! with the file in IndexedDB (`GraphApply`), so a second run or a reload extracts nothing; the row
//! then searches `WithGraph` over the entity graph built from them, on the CLI's code path.

use crate::platform::{download, now_ms, read_chosen_text, BrowserTransport, WorkerSearch};
use clair_core::config::{Modality, Settings};
use clair_core::corpus::Hit;
use clair_core::eval::dataset::{self, Item};
use clair_core::eval::outcome::{self, QuestionResult};
use clair_core::eval::{self as ev, report};
use clair_core::eval::ragas;
use clair_core::export::Totals;
use clair_core::llm::LlmClient;
use clair_core::protocol::{FromWorker, ToWorker};
use clair_core::retrieve::graph_rag::{self, EntityGraph, GraphCache, WithGraph};
use clair_core::retrieve::{ApiEmbedder, OfflineEmbedder, Search};
use std::collections::BTreeMap;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::Cell;
use std::rc::Rc;

/// The paper's retrieval cutoff for Hit@k / MRR (Appendix A.1).
const K: usize = 8;

#[derive(Clone, PartialEq)]
struct Dataset {
    name: String,
    key: String,
    items: Vec<Item>,
    errors: Vec<String>,
}

/// Search one document of the library (or all of it when the row names none).
struct DocSearch {
    inner: WorkerSearch,
    source: Option<String>,
}

impl Search for DocSearch {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        match &self.source {
            None => self.inner.search(query, k, modality).await,
            Some(src) => {
                let hits = self.inner.search(query, (k * 8).max(64), modality).await?;
                Ok(hits.into_iter().filter(|h| h.doc.source == *src).take(k).collect())
            }
        }
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        match &self.source {
            None => self.inner.search_hyde(query, passage, k, modality).await,
            Some(src) => {
                let hits = self.inner.search_hyde(query, passage, (k * 8).max(64), modality).await?;
                Ok(hits.into_iter().filter(|h| h.doc.source == *src).take(k).collect())
            }
        }
    }
}

fn storage_key(fingerprint: &str) -> String {
    format!("clair.eval.{fingerprint}")
}

fn load_results(key: &str) -> Vec<QuestionResult> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok()?)
        .and_then(|s| s.get_item(key).ok()?)
        .and_then(|j| serde_json::from_str(&j).ok())
        .unwrap_or_default()
}

fn save_results(key: &str, results: &[QuestionResult]) -> Result<(), String> {
    let s = web_sys::window().and_then(|w| w.local_storage().ok()?).ok_or("this browser offers no localStorage")?;
    let json = serde_json::to_string(results).map_err(|e| e.to_string())?;
    s.set_item(key, &json).map_err(|_| "the browser refused to store more results (storage full): download the report and clear old evaluations".to_string())
}

/// One question under one configuration, scored — the browser twin of `clair eval`'s `evaluate`.
/// The judges' settings: the endpoint and model under test unless the view names others (the paper
/// judged with a different model than its backbone, App. A.1; `clair eval --judge-model`).
fn judge_settings(base: &Settings, judge_url: &str, judge_model: &str) -> Settings {
    let mut s = base.clone();
    if !judge_url.trim().is_empty() {
        s.models.base_url = judge_url.trim().to_string();
    }
    if !judge_model.trim().is_empty() {
        s.models.chat_model = judge_model.trim().to_string();
    }
    s
}

/// The library file a row is answered from (None: the whole library).
fn source_of(item: &Item) -> Option<String> {
    item.doc.as_ref().map(|d| format!("{d}.pdf"))
}

/// One question under one configuration; `graph` is the entity graph of the row's document(s) for
/// the Graph-RAG row (`extract_graphs`), searched as `clair eval` searches it (`WithGraph`).
async fn evaluate(config: &str, item: &Item, base: &Settings, judge_s: &Settings, key: &str, stop: Rc<Cell<bool>>, graph: Option<&EntityGraph>) -> QuestionResult {
    let Some(s) = ev::named(base, config) else {
        return QuestionResult::failed(config, item, format!("unknown configuration `{config}`"), 0.0);
    };
    let search = DocSearch { inner: WorkerSearch { settings: s.retrieval.clone() }, source: source_of(item) };
    match graph.filter(|_| s.ablations.graph_rag) {
        Some(g) => evaluate_with(config, item, &s, judge_s, key, stop, &WithGraph { search, graph: g }).await,
        None => evaluate_with(config, item, &s, judge_s, key, stop, &search).await,
    }
}

async fn evaluate_with<S: Search>(config: &str, item: &Item, s: &Settings, judge_s: &Settings, key: &str, stop: Rc<Cell<bool>>, search: &S) -> QuestionResult {
    let s = s.clone();
    let transport = BrowserTransport { base_url: s.models.base_url.trim().to_string(), api_key: key.to_string(), cancel: stop.clone() };
    let client = LlmClient::new(&transport, &s);
    // The recorder keeps the HyDE passage the run searched with (`eval::contexts`).
    let search = ev::contexts::Recorder::new(search);
    let t0 = now_ms();
    let run = clair_core::pipeline::run(&item.question, &s, &client, &search, &mut |_| {}).await;
    let latency_ms = now_ms() - t0;
    let run = match run {
        Ok(r) => r,
        Err(e) => return QuestionResult::failed(config, item, e, latency_ms),
    };
    let judge_t = BrowserTransport { base_url: judge_s.models.base_url.trim().to_string(), api_key: key.to_string(), cancel: stop };
    let judge = LlmClient::new(&judge_t, judge_s);
    let mut r = outcome::score(config, item, &run, &judge).await;
    if let Some(f) = judge.fatal_error() {
        return QuestionResult::failed(config, item, format!("judge: {f}"), latency_ms);
    }
    r.latency_ms = latency_ms;
    // Spec §8.2: the retrieval snapshot is the top-k for the raw question by the row's own
    // retrieval (Hierarchical, Graph-RAG, HyDE with the run's passage), as `clair eval` takes it.
    let hits = search.contexts(&item.question, &s, K).await.unwrap_or_default();
    r.retrieved_pages = hits.iter().map(|h| h.doc.page).collect();
    // Table 2: RAGAS's four scores, answer relevancy embedded with the API embedding model when a
    // key is set (issue 38 item 7), else with the offline embedder.
    let contexts: Vec<String> = hits.iter().map(|h| h.doc.text.clone()).collect();
    let input = ragas::RagasInput { question: &item.question, answer: &run.answer.text, contexts: &contexts, reference: &item.answer };
    r.ragas = Some(if key.trim().is_empty() {
        ragas::score(&input, &judge, &OfflineEmbedder::default(), s.ragas.relevancy_questions).await
    } else {
        ragas::score(&input, &judge, &ApiEmbedder::new(&judge), s.ragas.relevancy_questions).await
    });
    r.eval_totals = Totals::of(&judge.records());
    r
}

/// One library file's Graph-RAG inputs: its chunks and the extraction answers stored with it.
#[derive(Clone)]
struct GraphInput {
    docs: Vec<clair_core::corpus::Doc>,
    cache: GraphCache,
}

/// The files the Graph-RAG rows need (a row without a document searches the whole library).
fn graph_sources(todo: &[(Item, String)], library: &[String]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for (item, _) in todo.iter().filter(|(_, c)| c == "graph_rag") {
        match source_of(item) {
            Some(s) => out.push(s),
            None => out.extend(library.iter().cloned()),
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Ask the worker for each file's chunks and stored answers.
async fn graph_inputs(sources: &[String]) -> Result<BTreeMap<String, GraphInput>, String> {
    let mut out = BTreeMap::new();
    for source in sources {
        match crate::worker::request(ToWorker::GraphChunks { id: crate::worker::next_id(), source: source.clone() }, None).await {
            FromWorker::GraphChunks { docs, cache, .. } => {
                out.insert(source.clone(), GraphInput { docs, cache });
            }
            FromWorker::Failed { error, .. } => return Err(format!("Graph-RAG: {error}")),
            other => return Err(format!("Graph-RAG: unexpected worker reply: {other:?}")),
        }
    }
    Ok(out)
}

/// The cost of extracting what is not cached yet, summed over the files, in `clair eval
/// --graph-estimate`'s words; None when everything is cached (nothing to confirm).
fn graph_estimate(inputs: &BTreeMap<String, GraphInput>, s: &Settings) -> Option<String> {
    let es: Vec<graph_rag::Estimate> = inputs.values().map(|g| graph_rag::estimate(&g.docs, &g.cache, s)).collect();
    let calls: usize = es.iter().map(|e| e.calls).sum();
    if calls == 0 {
        return None;
    }
    let cost = es.iter().try_fold(0.0, |a, e| e.max_cost_usd.map(|c| a + c)).map(|c| format!("${c:.4}")).unwrap_or_else(|| "unpriced model".into());
    Some(format!(
        "Graph-RAG extracts the entity graph of {} file(s) first: {} chunk(s), {} cached, {} call(s) to make with {}: ≈ {} input tokens, ≤ {} output tokens, ≤ {cost}. The answers are kept with each file, so this is paid once.",
        inputs.len(),
        es.iter().map(|e| e.chunks).sum::<usize>(),
        es.iter().map(|e| e.cached).sum::<usize>(),
        calls,
        s.models.chat_model,
        es.iter().map(|e| e.input_tokens).sum::<u64>(),
        es.iter().map(|e| e.max_output_tokens).sum::<u64>(),
    ))
}

/// Extract what is not cached (one `graph_extraction` call per chunk, through core), have the
/// worker store the answers with each file, and build the entity graph each row searches: one per
/// file, and one over the whole library for rows that name no document.
async fn extract_graphs(mut inputs: BTreeMap<String, GraphInput>, s: &Settings, key: &str, stop: Rc<Cell<bool>>, status: RwSignal<String>) -> Result<BTreeMap<Option<String>, EntityGraph>, String> {
    let transport = BrowserTransport { base_url: s.models.base_url.trim().to_string(), api_key: key.to_string(), cancel: stop };
    for (source, g) in inputs.iter_mut() {
        let todo = graph_rag::estimate(&g.docs, &g.cache, s).calls;
        if todo == 0 {
            continue;
        }
        status.set(format!("Graph-RAG: extracting entities from {source} ({todo} call(s))…"));
        let (failures, _spent) = graph_rag::extract(&g.docs, &mut g.cache, &transport, s).await;
        if failures.len() == todo {
            return Err(format!("Graph-RAG: entity extraction for {source}: every call failed (first: {})", failures[0]));
        }
        if let FromWorker::Failed { error, .. } = crate::worker::request(ToWorker::GraphApply { id: crate::worker::next_id(), source: source.clone(), cache: g.cache.clone() }, None).await {
            return Err(format!("Graph-RAG: {error}"));
        }
    }
    let mut graphs = BTreeMap::new();
    let (mut all_docs, mut all_cache) = (vec![], GraphCache::default());
    for (source, g) in &inputs {
        graphs.insert(Some(source.clone()), EntityGraph::build(&g.docs, &g.cache));
        all_docs.extend(g.docs.iter().cloned());
        all_cache.entries.extend(g.cache.entries.clone());
    }
    graphs.insert(None, EntityGraph::build(&all_docs, &all_cache));
    Ok(graphs)
}

#[component]
pub fn EvaluatePanel(settings: RwSignal<Settings>, api_key: RwSignal<String>, sources: Signal<Vec<String>>) -> impl IntoView {
    let dataset: RwSignal<Option<Dataset>> = RwSignal::new(None);
    let chosen: RwSignal<Vec<String>> = RwSignal::new(vec!["full".to_string()]);
    let results: RwSignal<Vec<QuestionResult>> = RwSignal::new(vec![]);
    let running = RwSignal::new(false);
    let status: RwSignal<String> = RwSignal::new(String::new());
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let judge_url: RwSignal<String> = RwSignal::new(String::new());
    let judge_model: RwSignal<String> = RwSignal::new(String::new());
    // Graph-RAG's extraction estimate, waiting for the user's go-ahead.
    let graph_confirm: RwSignal<Option<String>> = RwSignal::new(None);
    let stop_flag = crate::state::use_app().eval_stop;

    let on_dataset = move |ev: web_sys::Event| {
        read_chosen_text(&ev, move |name, text| {
            let text = match text {
                Ok(t) => t,
                Err(e) => {
                    error.set(Some(e));
                    return;
                }
            };
            let parsed = dataset::parse(&text);
            if parsed.items.is_empty() {
                error.set(Some(format!("{name}: no usable question (a row needs `question` and `answer`). {}", parsed.errors.join(" "))));
                return;
            }
            let key = storage_key(&ev::fingerprint(&text));
            let kept = load_results(&key);
            status.set(if kept.is_empty() { String::new() } else { format!("{} result(s) from an earlier run of this file were restored.", kept.len()) });
            results.set(kept);
            error.set(None);
            dataset.set(Some(Dataset { name, key, items: parsed.items, errors: parsed.errors }));
        });
    };

    // `confirmed`: the user accepted Graph-RAG's extraction estimate.
    let run = move |confirmed: bool| {
        graph_confirm.set(None);
        let Some(ds) = dataset.get_untracked() else { return };
        let configs = chosen.get_untracked();
        if configs.is_empty() {
            error.set(Some("Choose at least one configuration.".into()));
            return;
        }
        let base = settings.get_untracked();
        let judge_s = judge_settings(&base, &judge_url.get_untracked(), &judge_model.get_untracked());
        let key = api_key.get_untracked();
        let stop = stop_flag.get_value();
        stop.set(false);
        running.set(true);
        error.set(None);
        spawn_local(async move {
            let have = sources.get_untracked();
            let done = results.get_untracked();
            let todo: Vec<(Item, String)> = ev::pending(&ds.items, &configs, &done).into_iter().map(|(i, c)| (i.clone(), c.to_string())).collect();
            let (runnable, missing): (Vec<_>, Vec<_>) = todo.into_iter().partition(|(i, _)| i.doc.as_ref().is_none_or(|d| have.contains(&format!("{d}.pdf"))));
            let mut absent: Vec<String> = missing.iter().filter_map(|(i, _)| i.doc.clone().map(|d| format!("{d}.pdf"))).collect();
            absent.sort();
            absent.dedup();
            // Graph-RAG rows: the entity graph of each file they need, extracted only after the
            // user has seen what it costs (as `clair eval` prints it before any call).
            let mut graphs: BTreeMap<Option<String>, EntityGraph> = BTreeMap::new();
            let wanted = graph_sources(&runnable, &have);
            if !wanted.is_empty() {
                let gs = ev::named(&base, "graph_rag").unwrap_or_else(|| base.clone());
                let prepared = match graph_inputs(&wanted).await {
                    Ok(p) => p,
                    Err(e) => {
                        error.set(Some(e));
                        running.set(false);
                        return;
                    }
                };
                if let Some(estimate) = graph_estimate(&prepared, &gs).filter(|_| !confirmed) {
                    graph_confirm.set(Some(estimate));
                    status.set(String::new());
                    running.set(false);
                    return;
                }
                match extract_graphs(prepared, &gs, &key, stop.clone(), status).await {
                    Ok(g) => graphs = g,
                    Err(e) => {
                        error.set(Some(e));
                        running.set(false);
                        return;
                    }
                }
            }
            let total = runnable.len();
            for (n, (item, config)) in runnable.into_iter().enumerate() {
                if stop.get() {
                    break;
                }
                status.set(format!("Running {} of {total}: {config} · {}", n + 1, item.id));
                let graph = graphs.get(&source_of(&item));
                let r = evaluate(&config, &item, &base, &judge_s, &key, stop.clone(), graph).await;
                if stop.get() && r.error.as_deref().is_some_and(|e| e.contains("cancelled")) {
                    break; // a cancelled question is not a result; it runs again on resume
                }
                // A retried failed run replaces its failure.
                results.update(|v| {
                    v.retain(|x| !(x.config == r.config && x.item_id == r.item_id));
                    v.push(r)
                });
                if let Err(e) = save_results(&ds.key, &results.get_untracked()) {
                    error.set(Some(e));
                    break;
                }
            }
            let left = ev::pending(&ds.items, &configs, &results.get_untracked()).len();
            let mut msg = if left == 0 {
                "Evaluation complete.".to_string()
            } else if left == missing.len() {
                format!("Evaluation complete for the documents in the library; {left} question run(s) need other PDFs.")
            } else {
                format!("Stopped: {left} question run(s) left; Run continues from here.")
            };
            if !absent.is_empty() {
                msg.push_str(&format!(" Add these PDFs to the library to run their questions: {}.", absent.join(", ")));
            }
            status.set(msg);
            running.set(false);
        });
    };

    // The report over the chosen configurations, recomputed as results arrive.
    let summary = Memo::new(move |_| {
        let ds = dataset.get()?;
        let names: Vec<(String, String)> = chosen
            .get()
            .into_iter()
            .map(|n| {
                let d = ev::NAMED.iter().find(|(k, _)| *k == n).map(|(_, d)| d.to_string()).unwrap_or_default();
                (n, d)
            })
            .collect();
        let ids: std::collections::BTreeSet<String> = ds.items.iter().map(|i| i.id.clone()).collect();
        let mine: Vec<QuestionResult> = results.get().into_iter().filter(|r| ids.contains(&r.item_id) && names.iter().any(|(n, _)| *n == r.config)).collect();
        if mine.is_empty() {
            return None;
        }
        let s = report::summarize(&ds.name, K, &names, &mine);
        let files = report::files(&s, &mine);
        Some((s, files))
    });

    let download_file = move |name: &'static str, mime: &'static str| {
        if let Some((_, files)) = summary.get_untracked() {
            if let Some((_, content)) = files.iter().find(|(f, _)| f == name) {
                download(&format!("clair-eval-{name}"), content, mime);
            }
        }
    };

    view! {
        <section id="evaluate" class="panel evaluate" aria-label="Evaluate">
            <h2>"Evaluate"</h2>
            <p class="muted">"Run a question set with gold answers (FinanceBench, BB-FinQA-X or generic JSONL) under the paper's configurations, over the PDFs in the library. Each question is scored Correct / Partial / Incorrect by the correctness judge, or Abstained; every published claim is checked for faithfulness against the evidence it cites by the same judge model. A run whose model calls failed is a failed run, not an abstention: it is counted apart and run again by Run."</p>
            <label class="button">"Choose a dataset (JSONL)"
                <input id="eval-dataset" type="file" accept=".jsonl,.json,application/json" hidden aria-label="Evaluation dataset (JSONL)" on:change=on_dataset />
            </label>
            {move || dataset.get().map(|d| view! {
                <p id="eval-dataset-info">{format!("{}: {} question(s){}", d.name, d.items.len(),
                    if d.errors.is_empty() { String::new() } else { format!(", {} row(s) skipped: {}", d.errors.len(), d.errors.join("; ")) })}</p>
            })}
            <fieldset class="eval-configs">
                <legend>"Configurations"</legend>
                {ev::NAMED.iter().map(|(name, desc)| {
                    let name = name.to_string();
                    let (n1, n2) = (name.clone(), name.clone());
                    view! {
                        <label class="inline" title=*desc>
                            <input type="checkbox" id=format!("eval-config-{name}")
                                prop:checked=move || chosen.with(|c| c.contains(&n1))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    chosen.update(|c| {
                                        c.retain(|x| *x != n2);
                                        if on { c.push(n2.clone()) }
                                        // Table order = the paper's.
                                        c.sort_by_key(|x| ev::NAMED.iter().position(|(k, _)| k == x));
                                    });
                                } />
                            {name.clone()}
                        </label>
                    }
                }).collect_view()}
            </fieldset>
            <fieldset class="eval-judge">
                <legend>"Judges (correctness and faithfulness)"</legend>
                <label class="inline">"Judge model "
                    <input id="eval-judge-model" type="text" placeholder="same as the model under test" prop:value=move || judge_model.get()
                        on:input=move |ev| judge_model.set(event_target_value(&ev)) />
                </label>
                <label class="inline">"Judge base URL "
                    <input id="eval-judge-url" type="url" placeholder="same endpoint" prop:value=move || judge_url.get()
                        on:input=move |ev| judge_url.set(event_target_value(&ev)) />
                </label>
            </fieldset>
            <div class="actions">
                <button id="eval-run" class="button primary" disabled=move || running.get() || dataset.with(|d| d.is_none()) on:click=move |_| run(false)>"Run evaluation"</button>
                <button id="eval-stop" class="button" disabled=move || !running.get() on:click=move |_| stop_flag.with_value(|s| s.set(true))>"Stop"</button>
            </div>
            {move || graph_confirm.get().map(|estimate| view! {
                <div id="eval-graph-estimate" class="notice" role="alert">
                    <p>{estimate}</p>
                    <button id="eval-graph-extract" class="button primary" on:click=move |_| run(true)>"Extract and run"</button>
                    " "
                    <button id="eval-graph-cancel" class="button" on:click=move |_| graph_confirm.set(None)>"Cancel"</button>
                </div>
            })}
            <p id="eval-status" class="muted" aria-live="polite">{move || status.get()}</p>
            {move || error.get().map(|e| view! { <p id="eval-error" class="error" role="alert">{e}</p> })}
            {move || summary.get().map(|(s, files)| {
                let rows = s.configs.iter().map(|c| {
                    let a = &c.aggregate;
                    let o = &a.outcomes;
                    view! {
                        <tr data-config=c.name.clone()>
                            <th scope="row" title=c.description.clone()>{c.name.clone()}</th>
                            <td>{a.n}</td><td>{a.failed}</td>
                            <td>{o.correct}</td><td>{o.partial}</td><td>{o.incorrect}</td><td>{o.abstained}</td>
                            <td>{report::f3(a.exact_correctness)}</td><td>{report::f3(a.coverage)}</td>
                            <td>{report::f3(a.faithfulness_rate)}</td><td>{report::f3(a.debate_utilization)}</td>
                            <td>{report::f3(a.aea_impact)}</td><td>{report::f3(a.hri.auroc_incorrect)}</td>
                            <td>{report::f3(a.retrieval.hit_at_k)}</td><td>{report::f3(a.retrieval.mrr)}</td>
                            <td class="ragas">{report::f3(c.ragas.faithfulness)}</td><td class="ragas">{report::f3(c.ragas.answer_relevancy)}</td>
                            <td class="ragas">{report::f3(c.ragas.context_precision)}</td><td class="ragas">{report::f3(c.ragas.context_recall)}</td>
                            <td>{format!("${:.4}", a.cost.run_cost_usd + a.cost.eval_cost_usd)}</td>
                        </tr>
                    }
                }).collect_view();
                let (t3_header, t3_rows) = report::table3(&s);
                let t3_head = t3_header.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view();
                let t3_body = t3_rows.into_iter().map(|r| {
                    let name = r[0].clone();
                    let cells = r.into_iter().skip(1).map(|c| view! { <td>{c}</td> }).collect_view();
                    view! { <tr data-config=name.clone()><th scope="row">{name.clone()}</th>{cells}</tr> }
                }).collect_view();
                let plots = files.into_iter().filter(|(f, _)| f.ends_with(".svg")).map(|(f, svg)| {
                    // Core's SVG: every label passes through `view::escape`, no script, no link.
                    view! { <figure class="eval-plot" data-file=f inner_html=svg></figure> }
                }).collect_view();
                view! {
                    <div class="eval-results">
                        <table id="eval-results" class="eval-table">
                            <caption>{format!("{} · {} question(s) · Hit@{} over gold evidence pages · RAGAS embedder: {}", s.dataset, s.questions, s.k, if s.embedder.is_empty() { "–" } else { s.embedder.as_str() })}</caption>
                            <thead><tr>
                                <th scope="col">"Configuration"</th><th scope="col">"n"</th><th scope="col">"Failed"</th>
                                <th scope="col">"Correct"</th><th scope="col">"Partial"</th><th scope="col">"Incorrect"</th><th scope="col">"Abstained"</th>
                                <th scope="col">"Exact correctness"</th><th scope="col">"Coverage"</th><th scope="col">"Faithfulness"</th>
                                <th scope="col">"Debate utilization"</th><th scope="col">"AEA impact"</th><th scope="col">"HRI AUROC"</th>
                                <th scope="col">{format!("Hit@{}", s.k)}</th><th scope="col">"MRR"</th>
                                <th scope="col" title="RAGAS faithfulness (Table 2)">"RAGAS Faith."</th><th scope="col" title="RAGAS answer relevancy">"Ans. Rel."</th>
                                <th scope="col" title="RAGAS context precision">"Ctx. Prec."</th><th scope="col" title="RAGAS context recall">"Ctx. Recall"</th>
                                <th scope="col">"Cost"</th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                        // The report's Table 3, drawn from the same function (report::table3).
                        <table id="eval-table3" class="eval-table">
                            <caption>"CLAIR-Fin metrics (the paper's Table 3)"</caption>
                            <thead><tr>{t3_head}</tr></thead>
                            <tbody>{t3_body}</tbody>
                        </table>
                        <p class="muted eval-legend">{report::TABLE3_LEGEND}</p>
                        <div class="actions">
                            <button id="eval-report" class="button" on:click=move |_| download_file("report.md", "text/markdown")>"Report (Markdown)"</button>
                            <button id="eval-csv" class="button" on:click=move |_| download_file("results.csv", "text/csv")>"Results (CSV)"</button>
                            <button id="eval-json" class="button" on:click=move |_| download_file("summary.json", "application/json")>"Summary (JSON)"</button>
                        </div>
                        <div id="eval-plots" class="eval-plots">{plots}</div>
                    </div>
                }
            })}
        </section>
    }
}
