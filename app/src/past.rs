//! Past runs, kept by the worker in IndexedDB: listed at start, added after every finished run,
//! reopened exactly as recorded.

use crate::state::{use_app, AppState};
use crate::worker;
use clair_core::export::RunExport;
use clair_core::history::RunSummary;
use clair_core::protocol::{FromWorker, ToWorker};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Send a request whose reply is the list of runs, and show that list.
pub fn runs_request(app: AppState, msg: ToWorker) {
    spawn_local(async move {
        match worker::request(msg, None).await {
            FromWorker::Runs { runs, .. } => app.past.set(runs),
            FromWorker::Failed { error: e, .. } => app.error.set(Some(format!("Past runs: {e}"))),
            _ => {}
        }
    });
}

fn open_past(app: AppState, key: String) {
    spawn_local(async move {
        match worker::request(ToWorker::OpenRun { id: worker::next_id(), key }, None).await {
            FromWorker::Run { json, .. } => match RunExport::from_json(&json) {
                Ok(r) => app.show_run(r, None),
                Err(e) => app.error.set(Some(e)),
            },
            FromWorker::Failed { error: e, .. } => app.error.set(Some(e)),
            other => app.error.set(Some(format!("unexpected worker reply: {other:?}"))),
        }
    });
}

#[component]
pub fn PastRuns() -> impl IntoView {
    let app = use_app();
    let past = app.past;
    view! {
        <section class="panel past-runs" aria-labelledby="past-runs-title">
            <h2 id="past-runs-title">"Past runs"</h2>
            {move || past.with(|v| v.is_empty()).then(|| view! { <p class="muted">"Finished runs are kept here, in this browser."</p> })}
            <ul id="past-runs" class="past-list">
                <For each=move || past.get() key=|r| r.key.clone() children=move |r| past_row(app, r) />
            </ul>
        </section>
    }
}

fn past_row(app: AppState, r: RunSummary) -> impl IntoView {
    let (k1, k2) = (r.key.clone(), r.key.clone());
    let when = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(r.saved_at_ms)).to_locale_string("en-GB", &wasm_bindgen::JsValue::UNDEFINED);
    let meta = format!("{} · {} of {} claim(s) published · {}", r.outcome, r.published, r.claims, String::from(when));
    view! {
        <li class="past-run" data-key=r.key.clone()>
            <button class="link open-run" title="Reopen this run" on:click=move |_| open_past(app, k1.clone())>{r.question.clone()}</button>
            <span class=format!("status past-{}", r.outcome)>{meta}</span>
            <button class="link remove delete-run" aria-label=format!("Delete the run “{}”", r.question)
                on:click=move |_| runs_request(app, ToWorker::DeleteRun { id: worker::next_id(), key: k2.clone() })>"delete"</button>
        </li>
    }
}
