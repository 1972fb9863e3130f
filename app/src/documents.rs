//! The document library: "Add PDFs" (a real button that opens the file chooser), the vision mode,
//! one row per file with its reading progress, warnings, vision plan and actions. Files dropped
//! anywhere on the window arrive here too (`App`'s window listeners call `ingest_files`).

use crate::state::{use_app, AppState, DocEntry, DocStatus, STOPPED};
use crate::store;
use crate::viewer::Target;
use crate::vision;
use crate::worker;
use clair_core::protocol::{FromWorker, ToWorker};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// Whether a chosen or dropped file is meant as a PDF (by type or name); the worker still checks
/// the bytes, so a misnamed file fails on its row.
pub fn looks_like_pdf(f: &web_sys::File) -> bool {
    f.type_() == "application/pdf" || f.name().to_lowercase().ends_with(".pdf")
}

/// Queue `files` for reading, in order, one at a time.
pub fn ingest_files(app: AppState, files: Vec<web_sys::File>) {
    let docs = app.docs;
    // A file waiting in the page's queue (not yet sent to the worker, not stopped or removed).
    let is_queued = move |id: u64| docs.with_untracked(|v| v.iter().any(|d| d.id == id && d.status == DocStatus::Queued));
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
            let set_noted = |s: DocStatus, note: Option<&'static str>| app.update_doc(id, |d| {
                d.status = s;
                d.note = note;
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
            let msg = ToWorker::Ingest { id, name: name.clone(), settings: app.settings.get_untracked().ingest };
            match worker::request(msg, Some(bytes)).await {
                FromWorker::Ingested { info, already, .. } => {
                    set_noted(DocStatus::Ready(info), already.then_some("already in library"));
                    if !already {
                        app.viewer.document_replaced(&name);
                    }
                    // Spec §6.5: with vision on, the plan and estimate come first; nothing is sent before the user confirms.
                    let s = app.settings.get_untracked();
                    if s.ingest.vision_mode != clair_core::config::VisionMode::Off {
                        vision::plan_file(name.clone(), s, app.vision);
                    }
                }
                FromWorker::Failed { error, .. } => set(DocStatus::Failed(error)),
                other => set(DocStatus::Failed(format!("unexpected worker reply: {other:?}"))),
            }
        }
    });
}

/// Add what was dropped: the PDFs are read, anything else is named in the drop notice.
pub fn add_dropped(app: AppState, files: Vec<web_sys::File>) {
    let (pdfs, others): (Vec<_>, Vec<_>) = files.into_iter().partition(looks_like_pdf);
    app.drop_notice.set((!others.is_empty()).then(|| {
        let names: Vec<String> = others.iter().map(|f| f.name()).collect();
        format!("Not added: {} {} not a PDF. Only PDF files can be read.", names.join(", "), if names.len() == 1 { "is" } else { "are" })
    }));
    if !pdfs.is_empty() {
        ingest_files(app, pdfs);
    }
}

/// "stop" on a file waiting or being read: one the worker has is stopped there (worker::cancel);
/// one still waiting here is skipped by `ingest_files`.
fn stop_doc(app: AppState, id: u64) {
    let waiting_here = app.docs.with_untracked(|v| v.iter().any(|d| d.id == id && d.status == DocStatus::Queued));
    if worker::cancel(id, STOPPED) || waiting_here {
        app.update_doc(id, |d| d.status = DocStatus::Failed(STOPPED.into()));
    }
}

fn remove_doc(app: AppState, name: String) {
    let reading: Vec<u64> = app.docs.with_untracked(|v| {
        v.iter().filter(|d| d.name == name && matches!(d.status, DocStatus::Queued | DocStatus::Parsing { .. })).map(|d| d.id).collect()
    });
    for id in reading {
        worker::cancel(id, STOPPED);
    }
    app.docs.update(|v| v.retain(|d| d.name != name));
    app.vision.forget(&name);
    spawn_local(async move {
        let _ = worker::request(ToWorker::Remove { id: worker::next_id(), source: name }, None).await;
    });
}

#[component]
pub fn DocumentsPanel() -> impl IntoView {
    let app = use_app();
    let AppState { docs, settings, store_notice, drop_notice, dragging, semantic_search, .. } = app;
    let input: NodeRef<leptos::html::Input> = NodeRef::new();
    let on_pick = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(list) = input.files() else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        ingest_files(app, files);
        input.set_value("");
    };
    // For screen readers: one polite summary of the library instead of every page counter.
    let summary = move || {
        docs.with(|v| {
            let reading = v.iter().filter(|d| matches!(d.status, DocStatus::Queued | DocStatus::Parsing { .. })).count();
            let ready = v.iter().filter(|d| matches!(d.status, DocStatus::Ready(_))).count();
            let failed = v.iter().filter(|d| matches!(d.status, DocStatus::Failed(_))).count();
            let mut s = format!("{ready} document(s) ready");
            if reading > 0 {
                s.push_str(&format!(", {reading} being read"));
            }
            if failed > 0 {
                s.push_str(&format!(", {failed} could not be read"));
            }
            s
        })
    };
    view! {
        <section class="panel corpus" aria-labelledby="documents-title">
            <h2 id="documents-title">"Documents"</h2>
            <div id="drop-zone" class="drop-zone" class:dragging=move || dragging.get()>
                <p>"Drop PDF files anywhere on the page, or"</p>
                <button id="add-pdfs" class="button primary" type="button"
                    on:click=move |_| if let Some(el) = input.get_untracked() { el.click() }>"Add PDFs"</button>
                <input id="file-input" node_ref=input type="file" accept="application/pdf,.pdf" multiple hidden tabindex="-1"
                    aria-label="Add PDFs" on:change=on_pick />
            </div>
            {move || drop_notice.get().map(|n| view! { <p id="drop-notice" class="error" role="alert">{n}</p> })}
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
            // Which search the documents get (issue 41): the offline embedder's two parts, or its
            // lexical part alone when the static table did not load (the notice above says why).
            {move || semantic_search.get().map(|semantic| {
                let (text, title) = if semantic {
                    ("Search: words and meaning", "Passages are found by their words and by a small semantic model that runs in this browser (a static-embedding table distilled from all-MiniLM-L6-v2).")
                } else {
                    ("Search: words only", "The semantic table did not load, so passages are found by their words alone; a question worded differently from the filing may miss them.")
                };
                view! { <p id="search-mode" class="search-mode" class:words-only=!semantic title=title>{text}</p> }
            })}
            <p id="ingest-status" class="sr-only" role="status" aria-live="polite">{summary}</p>
            <ul id="doc-list" class="doc-list">
                // Keyed by ingest id: a progress message redraws its own row's status only.
                <For each=move || docs.get() key=|d| d.id children=move |d| view! { <DocRow id=d.id name=d.name /> } />
            </ul>
        </section>
    }
}

#[component]
fn DocRow(id: u64, name: String) -> impl IntoView {
    let app = use_app();
    let AppState { docs, settings, api_key, vision: vision_state, viewer, .. } = app;
    let entry = Memo::new(move |_| docs.with(|v| v.iter().find(|d| d.id == id).map(|d| (d.status.clone(), d.note))));
    let on_vision_info = move |info: clair_core::protocol::SourceInfo| docs.update(|v| {
        if let Some(d) = v.iter_mut().find(|d| d.name == info.source) {
            d.status = DocStatus::Ready(info);
        }
    });
    let status = move || {
        let Some((status, _)) = entry.get() else { return ().into_any() };
        match status {
            DocStatus::Queued => view! { <span class="status">"queued"</span> }.into_any(),
            DocStatus::Parsing { done, total } => view! {
                <span class="status">{format!("reading page {done} of {total}")}</span>
                <progress max=total value=done aria-label="Reading progress"></progress>
            }
            .into_any(),
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
                // What reading could not do (a page cut by the work budget, a font without
                // Unicode, a damaged stream): issue 3 deliverable 5.
                {(!info.warnings.is_empty()).then(|| view! {
                    <details class="doc-warnings">
                        <summary>{format!("{} warning(s)", info.warnings.len())}</summary>
                        <ul>{info.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}</ul>
                    </details>
                })}
            }
            .into_any(),
            DocStatus::Failed(e) => view! { <span class="status doc-error" role="alert">{e}</span> }.into_any(),
        }
    };
    let ready = move || entry.with(|e| matches!(e, Some((DocStatus::Ready(_), _))));
    let reading = move || entry.with(|e| matches!(e, Some((DocStatus::Queued | DocStatus::Parsing { .. }, _))));
    let (n1, n2, n3, n4, n5, n6) = (name.clone(), name.clone(), name.clone(), name.clone(), name.clone(), name.clone());
    view! {
        <li class="doc" data-name=name.clone()>
            <span class="doc-name">{name.clone()}</span>
            {status}
            {move || entry.get().and_then(|(_, n)| n).map(|n| view! { <span class="status doc-note">{format!("· {n}")}</span> })}
            {move || (ready() && vision_state.ui.with(|m| !m.contains_key(&n1))).then(|| {
                let n = n1.clone();
                view! { <button class="link vision-plan-button" aria-label=format!("Vision for {n}")
                    on:click=move |_| vision::plan_file(n.clone(), settings.get_untracked(), vision_state)>"vision…"</button> }
            })}
            {move || ready().then(|| {
                let n = n2.clone();
                view! { <button class="link view-doc" aria-label=format!("View {n}") title="Show the first page in the viewer"
                    on:click=move |_| viewer.open(Target::page(n.clone(), 1))>"view"</button> }
            })}
            {move || reading().then(|| view! {
                <button class="link stop-doc" aria-label=format!("Stop reading {n3}") title="Stop reading this file; nothing of it is kept"
                    on:click=move |_| stop_doc(app, id)>"stop"</button>
            })}
            <button class="link remove" aria-label=format!("Remove {n4}") title="Remove this document" on:click=move |_| remove_doc(app, n6.clone())>"remove"</button>
            {move || vision_state.ui.with(|m| m.get(&n5).cloned()).map(|ui| vision::vision_row(n5.clone(), ui, settings, api_key, vision_state, on_vision_info))}
        </li>
    }
}
