//! The page: corpus (drop zone), connection settings, question, live progress, the cited answer and
//! a page viewer that citations open. Logic stays in core; this file wires signals to it.

use crate::platform::{now_ms, BrowserTransport, WorkerSearch};
use crate::store;
use crate::worker;
use clair_core::config::Settings;
use clair_core::export::RunExport;
use clair_core::llm::LlmClient;
use clair_core::protocol::{FromWorker, SourceInfo, ToWorker};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

#[derive(Debug, Clone, PartialEq)]
enum DocStatus {
    Queued,
    Parsing { done: u32, total: u32 },
    Ready(SourceInfo),
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
struct DocEntry {
    /// Request id of the ingest, used to route progress.
    id: u64,
    name: String,
    status: DocStatus,
}

#[derive(Debug, Clone, PartialEq)]
struct PageView {
    source: String,
    page: u32,
    text: String,
    /// Text of the cited evidence, highlighted where it occurs in the page.
    highlight: Option<String>,
}

thread_local! {
    static CANCEL: Rc<Cell<bool>> = Rc::new(Cell::new(false));
}

#[component]
pub fn App() -> impl IntoView {
    let docs: RwSignal<Vec<DocEntry>> = RwSignal::new(vec![]);
    let conn = RwSignal::new(store::load_connection());
    let api_key = RwSignal::new(store::load_key());
    let question = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    let progress: RwSignal<Vec<String>> = RwSignal::new(vec![]);
    let run: RwSignal<Option<RunExport>> = RwSignal::new(None);
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let viewer: RwSignal<Option<PageView>> = RwSignal::new(None);
    let dragging = RwSignal::new(false);

    // Progress messages from the worker update the matching document row.
    worker::set_progress_sink(move |msg| {
        if let FromWorker::Progress { id, done, total, .. } = msg {
            docs.update(|v| {
                if let Some(d) = v.iter_mut().find(|d| d.id == id) {
                    d.status = DocStatus::Parsing { done, total };
                }
            });
        }
    });
    if let Err(e) = worker::ensure_started() {
        error.set(Some(e));
    }

    let ingest_files = move |files: Vec<web_sys::File>| {
        let mut queue = vec![];
        for f in files {
            let id = worker::next_id();
            let name = f.name();
            docs.update(|v| {
                v.retain(|d| d.name != name);
                v.push(DocEntry { id, name: name.clone(), status: DocStatus::Queued });
            });
            queue.push((id, f));
        }
        spawn_local(async move {
            for (id, f) in queue {
                let name = f.name();
                let set = |s: DocStatus| docs.update(|v| {
                    if let Some(d) = v.iter_mut().find(|d| d.id == id) {
                        d.status = s;
                    }
                });
                let buf = match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
                    Ok(b) => b,
                    Err(e) => {
                        set(DocStatus::Failed(format!("could not read {name}: {e:?}")));
                        continue;
                    }
                };
                let bytes = js_sys::Uint8Array::new(&buf);
                let msg = ToWorker::Ingest { id, name: name.clone(), settings: Settings::paper().ingest };
                match worker::request(msg, Some(bytes)).await {
                    FromWorker::Ingested { info, .. } => set(DocStatus::Ready(info)),
                    FromWorker::Failed { error, .. } => set(DocStatus::Failed(error)),
                    other => set(DocStatus::Failed(format!("unexpected worker reply: {other:?}"))),
                }
            }
        });
    };

    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let Some(list) = ev.data_transfer().and_then(|dt| dt.files()) else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        ingest_files(files);
    };
    let on_pick = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(list) = input.files() else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        ingest_files(files);
        input.set_value("");
    };

    let remove_doc = move |name: String| {
        docs.update(|v| v.retain(|d| d.name != name));
        spawn_local(async move {
            let _ = worker::request(ToWorker::Remove { id: worker::next_id(), source: name }, None).await;
        });
    };

    let ask = move || {
        let q = question.get_untracked().trim().to_string();
        if q.is_empty() {
            error.set(Some("Type a question first.".into()));
            return;
        }
        if !docs.get_untracked().iter().any(|d| matches!(d.status, DocStatus::Ready(_))) {
            error.set(Some("Add a PDF first: drop it on the page or use “Choose PDFs”.".into()));
            return;
        }
        let c = conn.get_untracked();
        let key = api_key.get_untracked();
        store::save_connection(&c);
        store::save_key(&key, c.remember_key);
        error.set(None);
        run.set(None);
        progress.set(vec![]);
        running.set(true);
        let cancel = CANCEL.with(|c| c.clone());
        cancel.set(false);
        spawn_local(async move {
            let mut settings = Settings::paper();
            settings.models.base_url = c.base_url.trim().to_string();
            settings.models.chat_model = c.chat_model.trim().to_string();
            let transport = BrowserTransport { base_url: settings.models.base_url.clone(), api_key: key, cancel };
            let client = LlmClient::new(&transport, &settings);
            let search = WorkerSearch { settings: settings.retrieval.clone() };
            let mut on_progress = |ev: clair_core::pipeline::ProgressEvent| {
                progress.update(|p| p.push(crate::progress::describe(&ev)));
            };
            let t0 = now_ms();
            let result = clair_core::pipeline::run(&q, &settings, &client, &search, &mut on_progress).await;
            match result {
                Ok(r) => {
                    progress.update(|p| p.push(format!("done in {:.1} s", (now_ms() - t0) / 1000.0)));
                    run.set(Some(r));
                }
                Err(e) => error.set(Some(e)),
            }
            running.set(false);
        });
    };

    let open_citation = move |source: String, page: u32, highlight: Option<String>| {
        spawn_local(async move {
            let msg = ToWorker::PageText { id: worker::next_id(), source: source.clone(), page };
            match worker::request(msg, None).await {
                FromWorker::PageText { text, .. } => {
                    viewer.set(Some(PageView { source, page, text, highlight }));
                    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("viewer")) {
                        el.scroll_into_view();
                    }
                }
                FromWorker::Failed { error: e, .. } => error.set(Some(e)),
                _ => {}
            }
        });
    };

    let export_json = move || {
        if let Some(r) = run.get_untracked() {
            match serde_json::to_string_pretty(&r) {
                Ok(j) => download("clair-run.json", &j, "application/json"),
                Err(e) => error.set(Some(format!("export failed: {e}"))),
            }
        }
    };

    view! {
        <header class="top">
            <h1>"CLAIR-Fin"</h1>
            <p class="tagline">"Answers about financial reports, every claim checked against the document — or an honest abstention."</p>
        </header>
        <main class="layout">
            <section class="panel corpus">
                <h2>"Documents"</h2>
                <div
                    id="drop-zone"
                    class="drop-zone"
                    class:dragging=move || dragging.get()
                    on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); dragging.set(true); }
                    on:dragleave=move |_| dragging.set(false)
                    on:drop=on_drop
                >
                    <p>"Drop PDF files here"</p>
                    <label class="button">
                        "Choose PDFs"
                        <input id="file-input" type="file" accept="application/pdf,.pdf" multiple on:change=on_pick />
                    </label>
                </div>
                <ul id="doc-list" class="doc-list">
                    {move || docs.get().into_iter().map(|d| {
                        let name = d.name.clone();
                        let status = match &d.status {
                            DocStatus::Queued => view! { <span class="status">"queued"</span> }.into_any(),
                            DocStatus::Parsing { done, total } => view! {
                                <span class="status">{format!("reading page {done} of {total}")}</span>
                                <progress max=*total value=*done></progress>
                            }.into_any(),
                            DocStatus::Ready(info) => view! {
                                <span class="status ready">{format!(
                                    "{} pages · {} passages · {} tables{}",
                                    info.pages, info.documents, info.tables,
                                    if info.vision_pages > 0 { format!(" · {} pages flagged for vision", info.vision_pages) } else { String::new() }
                                )}</span>
                            }.into_any(),
                            DocStatus::Failed(e) => view! { <span class="status doc-error" role="alert">{e.clone()}</span> }.into_any(),
                        };
                        let n2 = name.clone();
                        let n3 = name.clone();
                        view! {
                            <li class="doc" data-name=n3>
                                <span class="doc-name">{name}</span>
                                {status}
                                <button class="link remove" title="Remove this document" on:click=move |_| remove_doc(n2.clone())>"remove"</button>
                            </li>
                        }
                    }).collect_view()}
                </ul>

                <details class="connection" open=api_key.get_untracked().is_empty()>
                    <summary>"Model connection"</summary>
                    <label>"Base URL (any OpenAI-compatible API)"
                        <input id="base-url" type="url" prop:value=move || conn.get().base_url
                            on:input=move |ev| conn.update(|c| c.base_url = event_target_value(&ev)) />
                    </label>
                    <label>"API key"
                        <input id="api-key" type="password" autocomplete="off" prop:value=move || api_key.get()
                            on:input=move |ev| api_key.set(event_target_value(&ev)) />
                    </label>
                    <label>"Chat model"
                        <input id="chat-model" type="text" prop:value=move || conn.get().chat_model
                            on:input=move |ev| conn.update(|c| c.chat_model = event_target_value(&ev)) />
                    </label>
                    <label class="inline">
                        <input id="remember-key" type="checkbox" prop:checked=move || conn.get().remember_key
                            on:change=move |ev| conn.update(|c| c.remember_key = event_target_checked(&ev)) />
                        "Remember the key on this device (otherwise it is forgotten when the tab closes)"
                    </label>
                </details>
            </section>

            <section class="panel ask">
                <h2>"Ask"</h2>
                <textarea id="question" rows="3" placeholder="e.g. What was 3M's FY2018 capital expenditure?"
                    prop:value=move || question.get()
                    on:input=move |ev| question.set(event_target_value(&ev))
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) { ask() }
                    }
                ></textarea>
                <div class="actions">
                    <button id="ask" class="button primary" disabled=move || running.get() on:click=move |_| ask()>"Ask"</button>
                    <button id="cancel" class="button" disabled=move || !running.get()
                        on:click=move |_| CANCEL.with(|c| c.set(true))>"Cancel"</button>
                </div>
                {move || error.get().map(|e| view! { <div id="error" class="error" role="alert">{e}</div> })}
                <ol id="progress" class="progress">
                    {move || progress.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                </ol>
                {move || run.get().map(|r| {
                    let cls = if r.answer.abstained { "answer abstained" } else if r.answer.partial { "answer partial" } else { "answer" };
                    let badge = if r.answer.abstained { "Abstained: the documents did not support an answer" }
                        else if r.answer.partial { "Partial answer: some claims could not be verified" }
                        else { "Every published claim passed the entailment audit" };
                    view! {
                        <section id="answer" class=cls>
                            <p class="badge">{badge}</p>
                            <p class="answer-text">{r.answer.text.clone()}</p>
                            <ul class="answer-lines">
                                {r.answer.lines.iter().map(|l| {
                                    let cites = l.citations.iter().map(|c| {
                                        let (s, p, h) = (c.source.clone(), c.page, cited_text(&r, &c.node_id));
                                        let label = format!("[{}, p.{}]", c.source, c.page);
                                        view! { <button class="citation" on:click=move |_| open_citation(s.clone(), p, h.clone())>{label}</button> }
                                    }).collect_view();
                                    view! { <li class="answer-line"><span>{l.text.clone()}</span>" "{cites}</li> }
                                }).collect_view()}
                            </ul>
                            <button id="export-json" class="button" on:click=move |_| export_json()>"Export run (JSON)"</button>
                        </section>
                    }
                })}
            </section>

            <section id="viewer" class="panel viewer">
                <h2>"Source"</h2>
                {move || match viewer.get() {
                    None => view! { <p class="hint">"Click a citation to see the cited page."</p> }.into_any(),
                    Some(v) => view! {
                        <h3 id="viewer-page">{format!("{}, page {}", v.source, v.page)}</h3>
                        <pre class="page-text">{highlighted(&v.text, v.highlight.as_deref())}</pre>
                    }.into_any(),
                }}
            </section>
        </main>
    }
}

/// The text of a cited ledger node as it should appear on the page (a passage, or a cell's value).
fn cited_text(run: &RunExport, node_id: &str) -> Option<String> {
    use clair_core::ledger::graph::NodeKind;
    let node = run.ledger.nodes.iter().find(|n| n.node_id == node_id)?;
    match &node.kind {
        NodeKind::TextSpan { text, .. } => Some(text.clone()),
        NodeKind::TableCell { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The page text with the cited passage marked. Text is inserted as text nodes, never as HTML, so
/// a PDF containing markup stays inert.
fn highlighted(text: &str, needle: Option<&str>) -> impl IntoView {
    let needle = needle.map(str::trim).filter(|n| n.len() >= 3);
    let pos = needle.and_then(|n| {
        let probe: String = n.chars().take(60).collect();
        text.find(probe.as_str()).map(|i| (i, (i + n.len()).min(text.len())))
    });
    match pos {
        Some((a, mut b)) => {
            while !text.is_char_boundary(b) {
                b -= 1;
            }
            view! { {text[..a].to_string()}<mark id="cited">{text[a..b].to_string()}</mark>{text[b..].to_string()} }.into_any()
        }
        None => view! { {text.to_string()} }.into_any(),
    }
}

/// Save a string as a file via a temporary object URL.
fn download(name: &str, content: &str, mime: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(content));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = doc.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}
