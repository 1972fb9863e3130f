//! The page: corpus (drop zone), connection settings, question, live progress, the cited answer
//! with its claims, the claim panel, the page viewer and the ledger graph, plus export and import of
//! whole runs. Logic stays in core; this file wires signals to it.

use crate::platform::{download, now_ms, read_chosen_text, BrowserTransport, WorkerSearch};
use crate::settings::SettingsDialog;
use crate::evaluate::EvaluatePanel;
use crate::store;
use crate::vision;
use crate::worker;
use crate::claims::ClaimPanel;
use crate::graph::LedgerGraph;
use crate::viewer::{PageViewer, Target, Viewer};
use clair_core::view::settings_form;
use clair_core::export::{RunExport, RunOutcome};
use clair_core::history::RunSummary;
use clair_core::llm::{CallEvent, LlmClient};
use clair_core::protocol::{FromWorker, SourceInfo, ToWorker};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// Pixels per point and points of context for the page crops the offline report embeds.
const CROP_SCALE: f32 = 1.5;
const CROP_MARGIN: f32 = 14.0;

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
    /// "restored" (from the browser's store at startup) or "already in library" (a re-drop).
    note: Option<&'static str>,
}

/// What a file's row says after the user stopped reading it.
const STOPPED: &str = "stopped: you stopped reading this file (nothing of it was kept); drop it again to read it";

thread_local! {
    static CANCEL: Rc<Cell<bool>> = Rc::new(Cell::new(false));
}

#[component]
pub fn App() -> impl IntoView {
    let docs: RwSignal<Vec<DocEntry>> = RwSignal::new(vec![]);
    let (saved, settings_notice) = store::load_settings();
    let settings = RwSignal::new(saved);
    let remember = RwSignal::new(store::load_remember());
    let api_key = RwSignal::new(store::load_key());
    let question = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    let progress: RwSignal<Vec<String>> = RwSignal::new(vec![]);
    let run: RwSignal<Option<RunExport>> = RwSignal::new(None);
    let error: RwSignal<Option<String>> = RwSignal::new(settings_notice);
    // Model calls in flight (claim, role), from the client's call events.
    let in_flight: RwSignal<Vec<(String, String)>> = RwSignal::new(vec![]);
    let viewer = Viewer::new(settings);
    let selected: RwSignal<Option<String>> = RwSignal::new(None);
    let imported: RwSignal<Option<String>> = RwSignal::new(None);
    let dragging = RwSignal::new(false);
    // Closed at start: importing a run or adding PDFs needs no key; asking without one opens it.
    let settings_open = RwSignal::new(false);
    // The page's CSP names one API origin (index.html); closing the dialog with another base URL
    // reloads the page so the new origin is the one allowed (issue 6 item 8).
    Effect::new(move |was_open: Option<bool>| {
        let open = settings_open.get();
        if was_open == Some(true) && !open {
            let wanted = origin_of(&settings.get_untracked().models.base_url);
            if wanted.is_some() && wanted != csp_origin() {
                store::save_key(&api_key.get_untracked(), remember.get_untracked());
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            }
        }
        open
    });
    let export_open = RwSignal::new(false);
    let evaluate_open = RwSignal::new(false);
    // File names of the documents ready in the library (the Evaluate view matches `doc_name`s).
    let sources = Signal::derive(move || docs.with(|v| v.iter().filter(|d| matches!(d.status, DocStatus::Ready(_))).map(|d| d.name.clone()).collect::<Vec<_>>()));
    // One line about the saved library (damaged entries dropped, store cleared, a write that failed).
    let store_notice: RwSignal<Option<String>> = RwSignal::new(None);
    // Per file: the vision plan, its progress or its result (issue 7).
    let vision_state: vision::VisionState = RwSignal::new(Default::default());
    let on_vision_info = move |info: SourceInfo| docs.update(|v| {
        if let Some(d) = v.iter_mut().find(|d| d.name == info.source) {
            d.status = DocStatus::Ready(info);
        }
    });

    // Progress messages from the worker update the matching document row.
    // At startup the worker announces the documents it restored from the browser's store.
    worker::set_progress_sink(move |msg| match msg {
        FromWorker::Progress { id, done, total, .. } => docs.update(|v| {
            if let Some(d) = v.iter_mut().find(|d| d.id == id) {
                d.status = DocStatus::Parsing { done, total };
            }
        }),
        FromWorker::Restored { sources, notice } => {
            docs.update(|v| {
                for info in sources {
                    if !v.iter().any(|d| d.name == info.source) {
                        v.push(DocEntry { id: worker::next_id(), name: info.source.clone(), status: DocStatus::Ready(info), note: Some("restored") });
                    }
                }
            });
            if notice.is_some() {
                store_notice.set(notice);
            }
        }
        FromWorker::Notice { message } => store_notice.set(Some(message)),
        _ => {}
    });
    if let Err(e) = worker::ensure_started() {
        error.set(Some(e));
    }

    // A file waiting in the page's queue below (not yet sent to the worker, not stopped or removed).
    let is_queued = move |id: u64| docs.with_untracked(|v| v.iter().any(|d| d.id == id && d.status == DocStatus::Queued));

    let ingest_files = move |files: Vec<web_sys::File>| {
        let mut queue = vec![];
        for f in files {
            let id = worker::next_id();
            let name = f.name();
            docs.update(|v| {
                v.retain(|d| d.name != name);
                v.push(DocEntry { id, name: name.clone(), status: DocStatus::Queued, note: None });
            });
            queue.push((id, f));
        }
        spawn_local(async move {
            for (id, f) in queue {
                let name = f.name();
                let set_noted = |s: DocStatus, note: Option<&'static str>| docs.update(|v| {
                    if let Some(d) = v.iter_mut().find(|d| d.id == id) {
                        d.status = s;
                        d.note = note;
                    }
                });
                let set = |s: DocStatus| set_noted(s, None);
                // A row stopped or removed while it waited here is not read.
                if !is_queued(id) {
                    continue;
                }
                let buf = match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
                    Ok(b) => b,
                    Err(e) => {
                        set(DocStatus::Failed(format!("could not read {name}: {e:?}")));
                        continue;
                    }
                };
                if !is_queued(id) {
                    continue;
                }
                let bytes = js_sys::Uint8Array::new(&buf);
                let msg = ToWorker::Ingest { id, name: name.clone(), settings: settings.get_untracked().ingest };
                match worker::request(msg, Some(bytes)).await {
                    FromWorker::Ingested { info, already, .. } => {
                        set_noted(DocStatus::Ready(info), already.then_some("already in library"));
                        if !already {
                            viewer.document_replaced(&name);
                        }
                        // Spec §6.5: with vision on, the plan and estimate come first; nothing is sent before the user confirms.
                        let s = settings.get_untracked();
                        if s.ingest.vision_mode != clair_core::config::VisionMode::Off {
                            vision::plan_file(name.clone(), s, vision_state);
                        }
                    }
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

    // Show a recorded run (imported or reopened) exactly as it was: answer, claims, graph.
    let show_run = move |r: RunExport, imported_from: Option<String>| {
        error.set(None);
        progress.set(vec![]);
        viewer.target.set(None);
        selected.set(r.claims.first().map(|c| c.claim_id.clone()));
        question.set(r.question.clone());
        imported.set(imported_from);
        run.set(Some(r));
    };

    // Past runs (kept by the worker in IndexedDB): listed at start, added after every finished run.
    let past: RwSignal<Vec<RunSummary>> = RwSignal::new(vec![]);
    let runs_request = move |msg: ToWorker| {
        spawn_local(async move {
            match worker::request(msg, None).await {
                FromWorker::Runs { runs, .. } => past.set(runs),
                FromWorker::Failed { error: e, .. } => error.set(Some(format!("Past runs: {e}"))),
                _ => {}
            }
        });
    };
    runs_request(ToWorker::ListRuns { id: worker::next_id() });
    let open_past = move |key: String| {
        spawn_local(async move {
            match worker::request(ToWorker::OpenRun { id: worker::next_id(), key }, None).await {
                FromWorker::Run { json, .. } => match RunExport::from_json(&json) {
                    Ok(r) => show_run(r, None),
                    Err(e) => error.set(Some(e)),
                },
                FromWorker::Failed { error: e, .. } => error.set(Some(e)),
                other => error.set(Some(format!("unexpected worker reply: {other:?}"))),
            }
        });
    };

    // "stop" on a file waiting or being read: one the worker has is stopped there (worker::cancel);
    // one still waiting here is skipped by the loop above.
    let stop_doc = move |id: u64| {
        let waiting_here = is_queued(id);
        if worker::cancel(id, STOPPED) || waiting_here {
            docs.update(|v| {
                if let Some(d) = v.iter_mut().find(|d| d.id == id) {
                    d.status = DocStatus::Failed(STOPPED.into());
                }
            });
        }
    };

    let remove_doc = move |name: String| {
        let reading: Vec<u64> = docs.with_untracked(|v| {
            v.iter().filter(|d| d.name == name && matches!(d.status, DocStatus::Queued | DocStatus::Parsing { .. })).map(|d| d.id).collect()
        });
        for id in reading {
            worker::cancel(id, STOPPED);
        }
        docs.update(|v| v.retain(|d| d.name != name));
        vision_state.update(|m| { m.remove(&name); });
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
            error.set(Some("Add a PDF first: drop it on the page or use “Add PDFs”.".into()));
            return;
        }
        let settings = settings.get_untracked();
        let key = api_key.get_untracked();
        if key.trim().is_empty() && settings.models.base_url.contains("api.openai.com") {
            error.set(Some("Add your API key in Settings first (a local server such as Ollama or LM Studio needs only its base URL).".into()));
            settings_open.set(true);
            return;
        }
        store::save_key(&key, remember.get_untracked());
        error.set(None);
        run.set(None);
        selected.set(None);
        imported.set(None);
        progress.set(vec![]);
        running.set(true);
        let cancel = CANCEL.with(|c| c.clone());
        cancel.set(false);
        in_flight.set(vec![]);
        spawn_local(async move {
            let transport = BrowserTransport { base_url: settings.models.base_url.trim().to_string(), api_key: key, cancel };
            let client = LlmClient::new(&transport, &settings);
            client.observe(move |e| in_flight.update(|v| match e {
                CallEvent::Started { role, claim_id, .. } => v.push((claim_id.clone().unwrap_or_else(|| "run".into()), role.clone())),
                CallEvent::Finished { record } => {
                    let key = (record.claim_id.clone().unwrap_or_else(|| "run".into()), record.role.clone());
                    if let Some(k) = v.iter().position(|x| *x == key) {
                        v.remove(k);
                    }
                }
            }));
            let search = WorkerSearch { settings: settings.retrieval.clone() };
            let mut on_progress = |ev: clair_core::pipeline::ProgressEvent| {
                progress.update(|p| p.push(crate::progress::describe(&ev)));
            };
            let t0 = now_ms();
            let result = clair_core::pipeline::run(&q, &settings, &client, &search, &mut on_progress).await;
            match result {
                Ok(r) => {
                    progress.update(|p| p.push(format!("done in {:.1} s", (now_ms() - t0) / 1000.0)));
                    selected.set(r.claims.first().map(|c| c.claim_id.clone()));
                    runs_request(ToWorker::SaveRun { id: worker::next_id(), json: r.to_json(), saved_at_ms: js_sys::Date::now() });
                    run.set(Some(r));
                }
                Err(e) => error.set(Some(e)),
            }
            running.set(false);
            in_flight.set(vec![]);
        });
    };

    let open_citation = move |c: clair_core::export::Citation, highlight: Option<String>| {
        viewer.open(Target { source: c.source, page: c.page, boxes: c.bboxes, page_size: c.page_size, highlight, parts: c.table_parts });
    };

    // Export: the lossless JSON (never the key: `Settings` has no key field), the claims as CSV,
    // the ledger as GraphML (for Gephi, yEd, networkx) and the offline HTML report generated by core.
    let export = move |what: &'static str| {
        export_open.set(false);
        let Some(r) = run.get_untracked() else { return };
        let stem = r.run_id.clone();
        match what {
            "json" => download(&format!("clair-{stem}.json"), &r.to_json(), "application/json"),
            "csv" => download(&format!("clair-{stem}-claims.csv"), &clair_core::export::claims_csv(&r), "text/csv"),
            "graphml" => download(&format!("clair-{stem}-ledger.graphml"), &clair_core::export::to_graphml(&r), "application/graphml+xml"),
            _ => spawn_local(async move {
                // The cited regions, rendered by the worker from the PDFs in the library; a region
                // whose PDF is not loaded (an imported run) is simply left out.
                use clair_core::view::report::{crop_requests, html_report_with_crops, Crop};
                let mut crops = vec![];
                for (source, page, bbox) in crop_requests(&r) {
                    let budget = settings.get_untracked().ingest;
                    let msg = ToWorker::RenderCrop { id: worker::next_id(), source: source.clone(), page, bbox, scale: CROP_SCALE, margin: CROP_MARGIN, budget };
                    if let FromWorker::PageImage { png, .. } = worker::request(msg, None).await {
                        crops.push(Crop { source, page, bbox, png });
                    }
                }
                download(&format!("clair-{stem}-report.html"), &html_report_with_crops(&r, &crops), "text/html");
            }),
        }
    };
    // Import: a JSON run export shows the same answer, claims and graph, without key or PDFs.
    let on_import = move |ev: web_sys::Event| {
        read_chosen_text(&ev, move |name, text| match text.and_then(|t| RunExport::from_json(&t).map_err(|e| format!("{name}: {e}"))) {
            Ok(r) => show_run(r, Some(name)),
            Err(e) => error.set(Some(e)),
        });
    };
    let pick_import = move || {
        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("import-file")) {
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                el.click();
            }
        }
    };

    view! {
        <header class="top">
            <div class="brand">
                <h1>"CLAIR-Fin"</h1>
                <p class="tagline">"Answers about financial reports, every claim checked against the document — or an honest abstention."</p>
            </div>
            <nav class="toolbar" aria-label="Run">
                <button id="settings" class="button" aria-haspopup="dialog" aria-expanded=move || settings_open.get().to_string() aria-controls="settings-dialog"
                    title=move || settings_form::changes(&settings.get()).join("\n")
                    on:click=move |_| settings_open.set(true)>"Settings"</button>
                <button id="evaluate-toggle" class="button" aria-expanded=move || evaluate_open.get().to_string() aria-controls="evaluate"
                    on:click=move |_| evaluate_open.update(|o| *o = !*o)>"Evaluate"</button>
                <button id="import" class="button" on:click=move |_| pick_import()>"Import"</button>
                <input id="import-file" type="file" accept="application/json,.json" hidden aria-label="Import a run (JSON)" on:change=on_import />
                <div class="menu">
                    <button id="export" class="button" aria-haspopup="true" aria-expanded=move || export_open.get().to_string()
                        disabled=move || run.with(|r| r.is_none())
                        on:click=move |_| export_open.update(|o| *o = !*o)>"Export"</button>
                    <div class="menu-items" role="menu" hidden=move || !export_open.get()>
                        <button id="export-json" role="menuitem" class="button" on:click=move |_| export("json")>"Run (JSON, lossless)"</button>
                        <button id="export-csv" role="menuitem" class="button" on:click=move |_| export("csv")>"Claims (CSV)"</button>
                        <button id="export-graphml" role="menuitem" class="button" on:click=move |_| export("graphml")>"Ledger graph (GraphML)"</button>
                        <button id="export-html" role="menuitem" class="button" on:click=move |_| export("html")>"Report (HTML, offline)"</button>
                    </div>
                </div>
            </nav>
        </header>
        <main class="layout">
            <div class="col left">
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
                        "Add PDFs"
                        <input id="file-input" type="file" accept="application/pdf,.pdf" multiple aria-label="Add PDFs" on:change=on_pick />
                    </label>
                </div>
                <label class="vision-mode">"Vision "
                    <select id="vision-mode" aria-label="Vision: which pages the vision model reads"
                        on:change=move |ev| {
                            let m = clair_core::config::VisionMode::parse(&event_target_value(&ev)).unwrap_or_default();
                            settings.update(|s| s.ingest.vision_mode = m);
                            store::save_settings(&settings.get_untracked());
                        }>
                        {move || {
                            let cur = settings.with(|s| s.ingest.vision_mode);
                            [("off", "off"), ("flagged", "flagged pages only"), ("all", "every page")].into_iter().map(|(v, label)| {
                                view! { <option value=v selected={cur.as_str() == v}>{label}</option> }
                            }).collect_view()
                        }}
                    </select>
                </label>
                {move || store_notice.get().map(|n| view! { <p id="store-notice" class="store-notice" role="status">{n}</p> })}
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
                                    "{} pages · {} passages · {} tables{}{}",
                                    info.pages, info.documents, info.tables,
                                    if info.vision_pages > 0 {
                                        let c = &info.signals;
                                        let by = if c.needs_vision > 0 { format!(" (chart {}, image {}, garbled {})", c.chart, c.image, c.garbled) } else { String::new() };
                                        format!(" · {} pages flagged for vision{by}", info.vision_pages)
                                    } else { String::new() },
                                    if info.vision_read > 0 { format!(" · {} read by vision", info.vision_read) } else { String::new() }
                                )}</span>
                                // What reading could not do (a page cut by the work budget, a font
                                // without Unicode, a damaged stream): issue 3 deliverable 5.
                                {(!info.warnings.is_empty()).then(|| view! {
                                    <details class="doc-warnings">
                                        <summary>{format!("{} warning(s)", info.warnings.len())}</summary>
                                        <ul>{info.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}</ul>
                                    </details>
                                })}
                            }.into_any(),
                            DocStatus::Failed(e) => view! { <span class="status doc-error" role="alert">{e.clone()}</span> }.into_any(),
                        };
                        let note = d.note.map(|n| view! { <span class="status doc-note">{format!("· {n}")}</span> });
                        let n2 = name.clone();
                        let n3 = name.clone();
                        let (n4, n5, n6) = (name.clone(), name.clone(), name.clone());
                        let ready = matches!(d.status, DocStatus::Ready(_));
                        let reading = matches!(d.status, DocStatus::Queued | DocStatus::Parsing { .. });
                        let doc_id = d.id;
                        view! {
                            <li class="doc" data-name=n3>
                                <span class="doc-name">{name.clone()}</span>
                                {status}
                                {note}
                                {move || (ready && vision_state.with(|m| !m.contains_key(&n4))).then(|| {
                                    let n = n4.clone();
                                    view! { <button class="link vision-plan-button" aria-label=format!("Vision for {n}")
                                        on:click=move |_| vision::plan_file(n.clone(), settings.get_untracked(), vision_state)>"vision…"</button> }
                                })}
                                {ready.then(|| view! {
                                    <button class="link view-doc" aria-label=format!("View {n6}") title="Show the first page in the viewer"
                                        on:click=move |_| viewer.open(Target::page(n6.clone(), 1))>"view"</button>
                                })}
                                {reading.then(|| view! {
                                    <button class="link stop-doc" aria-label=format!("Stop reading {name}") title="Stop reading this file; nothing of it is kept"
                                        on:click=move |_| stop_doc(doc_id)>"stop"</button>
                                })}
                                <button class="link remove" title="Remove this document" on:click=move |_| remove_doc(n2.clone())>"remove"</button>
                                {move || vision_state.with(|m| m.get(&n5).cloned()).map(|ui| vision::vision_row(n5.clone(), ui, settings, api_key, vision_state, on_vision_info))}
                            </li>
                        }
                    }).collect_view()}
                </ul>

            </section>
            <section class="panel past-runs" aria-label="Past runs">
                <h2>"Past runs"</h2>
                {move || past.with(|v| v.is_empty()).then(|| view! { <p class="muted">"Finished runs are kept here, in this browser."</p> })}
                <ul id="past-runs" class="past-list">
                    {move || past.get().into_iter().map(|r| {
                        let (k1, k2) = (r.key.clone(), r.key.clone());
                        let when = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(r.saved_at_ms)).to_locale_string("en-GB", &wasm_bindgen::JsValue::UNDEFINED);
                        let meta = format!("{} · {} of {} claim(s) published · {}", r.outcome, r.published, r.claims, String::from(when));
                        view! {
                            <li class="past-run" data-key=r.key.clone()>
                                <button class="link open-run" title="Reopen this run" on:click=move |_| open_past(k1.clone())>{r.question.clone()}</button>
                                <span class=format!("status past-{}", r.outcome)>{meta}</span>
                                <button class="link remove delete-run" aria-label="Delete this run"
                                    on:click=move |_| runs_request(ToWorker::DeleteRun { id: worker::next_id(), key: k2.clone() })>"delete"</button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </section>
            </div>

            <div class="col mid">
            <section class="panel ask">
                <h2>"Ask"</h2>
                <textarea id="question" rows="3" aria-label="Question" placeholder="e.g. What was 3M's FY2018 capital expenditure?"
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
                <p id="connection-summary" class="muted">{move || {
                    let m = settings.with(|s| s.models.clone());
                    let key = if api_key.with(|k| k.trim().is_empty()) { "no key" } else { "key set" };
                    let changed = settings.with(settings_form::changes).len();
                    let method = if changed == 0 { "paper settings".to_string() } else { format!("{changed} setting(s) changed") };
                    format!("{} at {} · {key} · {method}", m.chat_model, origin_of(&m.base_url).unwrap_or(m.base_url))
                }}</p>
                {move || error.get().map(|e| view! { <div id="error" class="error" role="alert">{e}</div> })}
                {move || {
                    let v = in_flight.get();
                    (!v.is_empty()).then(|| view! {
                        <p id="in-flight" class="muted" aria-live="polite">{format!("In flight: {}", v.iter().map(|(c, r)| format!("{c} {r}")).collect::<Vec<_>>().join(", "))}</p>
                    })
                }}
                <ol id="progress" class="progress">
                    {move || progress.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                </ol>
                {move || imported.get().map(|name| view! {
                    <p class="note" id="imported">{format!("Imported from {name}: the recorded run, shown without the key or the PDFs (pages show the cited text only until you add the PDFs).")}</p>
                })}
                {move || run.get().map(|r| {
                    // A failed run (model calls failed) is not an abstention: its own banner and class.
                    let (outcome, badge) = r.banner();
                    let cls = match outcome {
                        RunOutcome::Answered => "answer",
                        RunOutcome::Partial => "answer partial",
                        RunOutcome::Abstained => "answer abstained",
                        RunOutcome::Failed => "answer failed",
                    };
                    // The lines follow with their citations; the paragraph holds only what is not a
                    // line, so no sentence is shown twice.
                    let lead = r.answer_lead();
                    let t = &r.totals;
                    let cost = format!("{} model calls · {} tokens · ${:.4}{}", t.calls, t.input_tokens + t.output_tokens, t.cost_usd,
                        if t.unpriced_models.is_empty() { "" } else { " + unpriced" });
                    let claims = r.claims.iter().map(|c| {
                        let id = c.claim_id.clone();
                        let id2 = id.clone();
                        let label = c.label.as_str();
                        let hri = c.hri.as_ref().map(|h| format!(" · HRI {:.3}", h.value)).unwrap_or_default();
                        view! {
                            <li>
                                <button class="claim-link" data-claim=id.clone() aria-pressed=move || (selected.get().as_deref() == Some(id.as_str())).to_string()
                                    on:click=move |_| {
                                        selected.set(Some(id2.clone()));
                                        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("claim-details")) {
                                            el.scroll_into_view();
                                        }
                                    }>
                                    <span class=format!("verdict v-{label}")>{label}</span>
                                    <span class="claim-meta">{format!("{} · {}{hri}", c.claim_id, c.claim_type.as_str())}</span>
                                    <span class="claim-text">{c.text.clone()}</span>
                                </button>
                            </li>
                        }
                    }).collect_view();
                    view! {
                        <section id="answer" class=cls aria-label="Answer">
                            <p class="badge">{badge}</p>
                            <p class="answer-text" hidden=lead.is_empty()>{lead.clone()}</p>
                            <ul class="answer-lines">
                                {r.answer.lines.iter().map(|l| {
                                    let cites = l.citations.iter().map(|c| {
                                        let (c2, h) = (c.clone(), cited_text(&r, &c.node_id));
                                        let label = format!("[{}, p.{}]", c.source, c.page);
                                        // Hovering says where in the report: section and printed page.
                                        let place = run_node(&r, &c.node_id).and_then(|n| n.place());
                                        view! { <button class="citation" title=place on:click=move |_| open_citation(c2.clone(), h.clone())>{label}</button> }
                                    }).collect_view();
                                    view! { <li class="answer-line"><span>{l.text.clone()}</span>" "{cites}</li> }
                                }).collect_view()}
                            </ul>
                            <h3 class="claims-heading">{format!("Claims ({})", r.claims.len())}</h3>
                            <ol class="claims">{claims}</ol>
                            <p class="muted totals">{cost}</p>
                        </section>
                    }
                })}
            </section>
            <div class="evaluate-wrap" hidden=move || !evaluate_open.get()>
                <EvaluatePanel settings=settings api_key=api_key sources=sources />
            </div>
            <ClaimPanel run=run selected=selected viewer=viewer />
            </div>

            <div class="col right">
                <PageViewer viewer=viewer />
            </div>
        </main>
        // Outside the grid: the sticky page viewer must not slide over the graph.
        <div class="below">
            <LedgerGraph run=run selected=selected viewer=viewer />
        </div>
        <SettingsDialog settings=settings api_key=api_key remember=remember open=settings_open />
    }
}

/// A node of the run's ledger by id.
fn run_node<'a>(run: &'a RunExport, node_id: &str) -> Option<&'a clair_core::ledger::graph::Node> {
    run.ledger.nodes.iter().find(|n| n.node_id == node_id)
}

/// The text of a cited ledger node as it should appear on the page (a passage, or a cell's value).
fn cited_text(run: &RunExport, node_id: &str) -> Option<String> {
    use clair_core::ledger::graph::NodeKind;
    let node = run_node(run, node_id)?;
    match &node.kind {
        NodeKind::TextSpan { text, .. } => Some(text.clone()),
        NodeKind::TableCell { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The origin (`https://api.openai.com`) of a base URL, if it parses.
fn origin_of(base_url: &str) -> Option<String> {
    web_sys::Url::new(base_url.trim()).ok().map(|u| u.origin()).filter(|o| o != "null")
}

/// The API origin the page's Content-Security-Policy was built with (set by index.html).
fn csp_origin() -> Option<String> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &wasm_bindgen::JsValue::from_str("__clairCspOrigin")).ok()?.as_string()
}
