//! The page: the toolbar (settings, evaluate, import, export), the document library, the question
//! with its live progress, the answer with its claims and the claim panel, and on the right the
//! page viewer or, on demand, the ledger graph. Every panel reads the one `AppState` this
//! component provides (`state.rs`); logic stays in core.

use crate::answer::AnswerView;
use crate::claims::ClaimPanel;
use crate::documents::{add_dropped, DocumentsPanel};
use crate::evaluate::EvaluatePanel;
use crate::graph::LedgerGraph;
use crate::past::{runs_request, PastRuns};
use crate::platform::{download, now_ms, read_chosen_text, BrowserTransport, WorkerSearch};
use crate::settings::SettingsDialog;
use crate::state::{use_app, AppState, DocEntry, DocStatus, Pane};
use crate::store;
use crate::viewer::PageViewer;
use crate::worker;
use clair_core::export::RunExport;
use clair_core::llm::{CallEvent, LlmClient};
use clair_core::protocol::{FromWorker, ToWorker};
use clair_core::retrieve::milvus::WithLibrary;
use clair_core::view::settings_form;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// Pixels per point and points of context for the page crops the offline report embeds.
const CROP_SCALE: f32 = 1.5;
const CROP_MARGIN: f32 = 14.0;

#[component]
pub fn App() -> impl IntoView {
    let app = AppState::new();
    provide_context(app);
    reload_for_new_origin(app);
    listen_to_worker(app);
    accept_drops_anywhere(app);
    runs_request(app, ToWorker::ListRuns { id: worker::next_id() });
    // Opening a page (a citation, evidence, a graph node) shows the viewer pane.
    Effect::new(move |_| {
        if app.viewer.target.with(|t| t.is_some()) {
            app.pane.set(Pane::Page);
        }
    });
    let sources = Signal::derive(move || app.docs.with(|v| v.iter().filter(|d| matches!(d.status, DocStatus::Ready(_))).map(|d| d.name.clone()).collect::<Vec<_>>()));
    let pane = app.pane;
    view! {
        <Toolbar />
        <div id="drop-overlay" class="drop-overlay" hidden=move || !app.dragging.get() aria-hidden="true">
            <p>"Drop PDF files to add them to the library"</p>
        </div>
        <main class="layout">
            <div class="col left">
                <DocumentsPanel />
                <PastRuns />
            </div>
            <div class="col mid">
                <AskPanel />
                <div class="evaluate-wrap" hidden=move || !app.evaluate_open.get()>
                    <EvaluatePanel settings=app.settings api_key=app.api_key sources=sources />
                </div>
                <ClaimPanel run=app.run selected=app.selected viewer=app.viewer />
            </div>
            <div class="col right">
                <div class="pane-switch" role="group" aria-label="Right pane">
                    <button id="show-page" class="button" aria-pressed=move || (pane.get() == Pane::Page).to_string()
                        aria-controls="viewer" on:click=move |_| pane.set(Pane::Page)>"Page"</button>
                    <button id="show-graph" class="button" aria-pressed=move || (pane.get() == Pane::Graph).to_string()
                        aria-controls="ledger-graph" on:click=move |_| pane.set(Pane::Graph)>"Ledger graph"</button>
                </div>
                <div class="pane" hidden=move || pane.get() != Pane::Page><PageViewer viewer=app.viewer /></div>
                <div class="pane" hidden=move || pane.get() != Pane::Graph>
                    <LedgerGraph run=app.run selected=app.selected viewer=app.viewer />
                </div>
            </div>
        </main>
        <SettingsDialog settings=app.settings api_key=app.api_key remember=app.remember open=app.settings_open />
    }
}

/// The page's CSP names one API origin (index.html); closing the dialog with another base URL
/// reloads the page so the new origin is the one allowed (issue 6 item 8).
fn reload_for_new_origin(app: AppState) {
    Effect::new(move |was_open: Option<bool>| {
        let open = app.settings_open.get();
        if was_open == Some(true) && !open {
            let wanted = origin_of(&app.settings.get_untracked().models.base_url);
            // The library's server (issue 42) is the page's second allowed origin.
            let library = app.library.config.get_untracked();
            let library_origin = if library.enabled() { origin_of(&library.server) } else { None };
            let allowed_library = csp_global("__clairCspLibrary").filter(|o| !o.is_empty());
            let library_moved = library_origin != allowed_library && library_origin != wanted;
            if (wanted.is_some() && wanted != csp_origin()) || library_moved {
                store::save_key(&app.api_key.get_untracked(), app.remember.get_untracked());
                if let Some(w) = web_sys::window() {
                    let _ = w.location().reload();
                }
            }
        }
        open
    });
}

/// Progress messages from the worker update the matching document row. At startup the worker
/// announces the documents it restored from the browser's store.
fn listen_to_worker(app: AppState) {
    worker::set_progress_sink(move |msg| match msg {
        FromWorker::Progress { id, done, total, .. } => app.update_doc(id, |d| d.status = DocStatus::Parsing { done, total }),
        FromWorker::Restored { sources, notice, semantic } => {
            app.semantic_search.set(Some(semantic));
            app.docs.update(|v| {
                for info in sources {
                    if !v.iter().any(|d| d.name == info.source) {
                        v.push(DocEntry { id: worker::next_id(), name: info.source.clone(), status: DocStatus::Ready(info), note: Some("restored") });
                    }
                }
            });
            if notice.is_some() {
                app.store_notice.set(notice);
            }
        }
        FromWorker::Notice { message } => app.store_notice.set(Some(message)),
        _ => {}
    });
    if let Err(e) = worker::ensure_started() {
        app.error.set(Some(e));
    }
}

/// The whole window takes dropped files, shows a drop target while a file is dragged over it, and
/// never lets the browser open a dropped file in place of the app. Registered once; removed when
/// the app is unmounted.
fn accept_drops_anywhere(app: AppState) {
    let carries_files = |ev: &web_sys::DragEvent| {
        ev.data_transfer().is_some_and(|dt| dt.types().iter().any(|t| t.as_string().as_deref() == Some("Files")))
    };
    let over = window_event_listener(leptos::ev::dragover, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if carries_files(&ev) {
            if let Some(dt) = ev.data_transfer() {
                dt.set_drop_effect("copy");
            }
            app.dragging.set(true);
        }
    });
    // Leaving the window (no element to go to) hides the target.
    let leave = window_event_listener(leptos::ev::dragleave, move |ev: web_sys::DragEvent| {
        if ev.related_target().is_none() {
            app.dragging.set(false);
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        app.dragging.set(false);
        let Some(list) = ev.data_transfer().and_then(|dt| dt.files()) else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if !files.is_empty() {
            add_dropped(app, files);
        }
    });
    on_cleanup(move || {
        over.remove();
        leave.remove();
        drop.remove();
    });
}

#[component]
fn Toolbar() -> impl IntoView {
    let app = use_app();
    let AppState { settings, settings_open, evaluate_open, export_open, run, error, .. } = app;
    let import_input: NodeRef<leptos::html::Input> = NodeRef::new();
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
            Ok(r) => app.show_run(r, Some(name)),
            Err(e) => error.set(Some(e)),
        });
    };
    // Escape closes the export menu and returns focus to its button.
    let menu_keys = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" && export_open.get_untracked() {
            export_open.set(false);
            if let Some(b) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("export")).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = b.focus();
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
                <button id="import" class="button" on:click=move |_| if let Some(el) = import_input.get_untracked() { el.click() }>"Import"</button>
                <input id="import-file" node_ref=import_input type="file" accept="application/json,.json" hidden tabindex="-1" aria-label="Import a run (JSON)" on:change=on_import />
                <div class="menu" on:keydown=menu_keys>
                    <button id="export" class="button" aria-haspopup="true" aria-expanded=move || export_open.get().to_string() aria-controls="export-menu"
                        disabled=move || run.with(|r| r.is_none())
                        on:click=move |_| export_open.update(|o| *o = !*o)>"Export"</button>
                    <div id="export-menu" class="menu-items" role="group" aria-label="Export formats" hidden=move || !export_open.get()>
                        <button id="export-json" class="button" on:click=move |_| export("json")>"Run (JSON, lossless)"</button>
                        <button id="export-csv" class="button" on:click=move |_| export("csv")>"Claims (CSV)"</button>
                        <button id="export-graphml" class="button" on:click=move |_| export("graphml")>"Ledger graph (GraphML)"</button>
                        <button id="export-html" class="button" on:click=move |_| export("html")>"Report (HTML, offline)"</button>
                    </div>
                </div>
            </nav>
        </header>
    }
}

#[component]
fn AskPanel() -> impl IntoView {
    let app = use_app();
    let AppState { question, running, progress, error, in_flight, imported, settings, api_key, cancel, .. } = app;
    let ask = move || ask(app);
    view! {
        <section class="panel ask" aria-labelledby="ask-title">
            <h2 id="ask-title">"Ask"</h2>
            <textarea id="question" rows="2" aria-label="Question" placeholder="e.g. What was 3M's FY2018 capital expenditure?"
                prop:value=move || question.get()
                on:input=move |ev| question.set(event_target_value(&ev))
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) { ask() }
                }
            ></textarea>
            <div class="actions">
                <button id="ask" class="button primary" disabled=move || running.get() on:click=move |_| ask()>"Ask"</button>
                <button id="cancel" class="button" disabled=move || !running.get()
                    on:click=move |_| cancel.with_value(|c| c.set(true))>"Cancel"</button>
                <p id="connection-summary" class="muted">{move || {
                    let m = settings.with(|s| s.models.clone());
                    let key = if api_key.with(|k| k.trim().is_empty()) { "no key" } else { "key set" };
                    let changed = settings.with(settings_form::changes).len();
                    let method = if changed == 0 { "paper settings".to_string() } else { format!("{changed} setting(s) changed") };
                    format!("{} at {} · {key} · {method}", m.chat_model, origin_of(&m.base_url).unwrap_or(m.base_url))
                }}</p>
            </div>
            {move || error.get().map(|e| view! { <div id="error" class="error" role="alert">{e}</div> })}
            {move || {
                let v = in_flight.get();
                (!v.is_empty()).then(|| view! {
                    <p id="in-flight" class="muted">{format!("In flight: {}", v.iter().map(|(c, r)| format!("{c} {r}")).collect::<Vec<_>>().join(", "))}</p>
                })
            }}
            // Run progress, announced politely as each step is added.
            <ol id="progress" class="progress" aria-live="polite" aria-label="Run progress"
                // A Tab stop once it has lines: it scrolls, and a keyboard user must be able to scroll it.
                tabindex=move || (!progress.with(Vec::is_empty)).then_some("0")>
                {move || progress.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ol>
            {move || imported.get().map(|name| view! {
                <p class="note" id="imported">{format!("Imported from {name}: the recorded run, shown without the key or the PDFs (pages show the cited text only until you add the PDFs).")}</p>
            })}
            <AnswerView />
        </section>
    }
}

fn ask(app: AppState) {
    let AppState { question, docs, settings, api_key, remember, error, run, selected, imported, progress, running, in_flight, settings_open, cancel, .. } = app;
    let q = question.get_untracked().trim().to_string();
    if q.is_empty() {
        error.set(Some("Type a question first.".into()));
        return;
    }
    let local_sources: Vec<String> = docs.with_untracked(|v| v.iter().filter(|d| matches!(d.status, DocStatus::Ready(_))).map(|d| d.name.clone()).collect());
    let library = app.library.config.get_untracked();
    if local_sources.is_empty() && !library.enabled() {
        error.set(Some("Add a PDF first: drop it on the page or use “Add PDFs” (or set a library on a server in Settings).".into()));
        return;
    }
    let library_url = match library.enabled().then(|| library.url()).transpose() {
        Ok(u) => u,
        Err(e) => {
            error.set(Some(format!("Library on a server: {e}")));
            settings_open.set(true);
            return;
        }
    };
    let library_token = app.library.token();
    let viewer_library = app.viewer.library;
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
    let cancel = cancel.get_value();
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
        let result = match library_url {
            None => {
                crate::library::browser_alone().await;
                clair_core::pipeline::run(&q, &settings, &client, &search, &mut on_progress).await
            }
            // Issue 42: the library's files on the server and this browser's files, searched as one.
            Some(url) => {
                let t = crate::library::FetchStore;
                match crate::library::embedder(&t, &url, library_token.clone()).await {
                    Err(e) => Err(e),
                    Ok(e) => match crate::library::open_with_browser(&t, url, library_token, &e, &settings.retrieval).await {
                        Err(e) => Err(e),
                        Ok(remote) => {
                            viewer_library.set(remote.files.iter().map(|f| f.source.clone()).collect());
                            progress.update(|p| p.push(format!("library on the server: {} file(s); this browser: {}", remote.files.len(), local_sources.len())));
                            let local = (!local_sources.is_empty()).then_some(&search);
                            let both = WithLibrary { local, library: &remote, local_sources, settings: &settings.retrieval };
                            let r = clair_core::pipeline::run(&q, &settings, &client, &both, &mut on_progress).await;
                            crate::library::browser_alone().await;
                            r
                        }
                    },
                }
            }
        };
        match result {
            Ok(r) => {
                progress.update(|p| p.push(format!("done in {:.1} s", (now_ms() - t0) / 1000.0)));
                selected.set(r.claims.first().map(|c| c.claim_id.clone()));
                runs_request(app, ToWorker::SaveRun { id: worker::next_id(), json: r.to_json(), saved_at_ms: js_sys::Date::now() });
                run.set(Some(r));
            }
            Err(e) => error.set(Some(e)),
        }
        running.set(false);
        in_flight.set(vec![]);
    });
}

/// The origin (`https://api.openai.com`) of a base URL, if it parses.
fn origin_of(base_url: &str) -> Option<String> {
    web_sys::Url::new(base_url.trim()).ok().map(|u| u.origin()).filter(|o| o != "null")
}

/// The API origin the page's Content-Security-Policy was built with (set by index.html).
fn csp_origin() -> Option<String> {
    csp_global("__clairCspOrigin")
}

fn csp_global(name: &str) -> Option<String> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &wasm_bindgen::JsValue::from_str(name)).ok()?.as_string()
}
