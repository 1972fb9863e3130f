//! The vision path in the browser (issue 7, spec §4.1, §4.6, §6.5): per file, the pages the mode
//! selects and which signal flagged each, the estimate before any call, a confirm, a Cancel, and the
//! tokens actually spent after. A thin shell over `clair_core::ingest::vision`: the worker renders
//! the pages (the page viewer's hayro path) and folds the answers into the file's documents and
//! store entry; the calls go through the app's transport with the user's key; the plan, the
//! estimate, the run with its consensus passes, the cache and the merge are core's.

use crate::platform::BrowserTransport;
use crate::worker;
use clair_core::config::{Settings, VisionMode};
use clair_core::ingest::vision::{self, VisionActual, VisionCache, VisionPlan};
use clair_core::ingest::Extracted;
use clair_core::llm::{CallEvent, LlmClient};
use clair_core::protocol::{FromWorker, SourceInfo, ToWorker};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// What the user sees for one file.
#[derive(Debug, Clone, PartialEq)]
pub enum VisionUi {
    Planning,
    /// The plan, waiting for "Read flagged pages" (nothing is sent before that).
    Confirm(VisionPlan),
    Running { page: u32, done: usize, total: usize, calls: usize },
    Done(VisionDone),
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct VisionDone {
    pub mode: VisionMode,
    pub pages_read: usize,
    pub cached_pages: usize,
    pub not_sent: usize,
    pub charts: usize,
    pub actual: VisionActual,
    pub render_ms: Vec<f64>,
    pub dpi: u32,
    pub stopped: bool,
    pub warnings: Vec<String>,
}

/// What a plan needs to run: the file's content key, its extraction (no blocks) and stored answers.
struct Prepared {
    content: String,
    extracted: Extracted,
    cache: VisionCache,
    plan: VisionPlan,
}

/// The vision path's part of `AppState`, per file name: what the user sees (`ui`), the plan
/// waiting for its confirm (`prepared`: the extraction and cache it needs, too large and not
/// `Clone` enough to keep in a signal) and the Cancel flag of a pass in progress (`cancels`, polled
/// by the pass's transport). Arena handles, so the state is `Copy` and reached from the spawned
/// pass after its component's event handler has returned.
#[derive(Clone, Copy)]
pub struct VisionState {
    pub ui: RwSignal<BTreeMap<String, VisionUi>>,
    prepared: StoredValue<HashMap<String, Prepared>, LocalStorage>,
    cancels: StoredValue<HashMap<String, Rc<Cell<bool>>>, LocalStorage>,
}

impl VisionState {
    pub fn new() -> Self {
        VisionState { ui: RwSignal::new(BTreeMap::new()), prepared: StoredValue::new_local(HashMap::new()), cancels: StoredValue::new_local(HashMap::new()) }
    }

    /// A file left the library: its row and any plan waiting for a confirm go with it.
    pub fn forget(self, name: &str) {
        self.ui.update(|m| {
            m.remove(name);
        });
        self.prepared.update_value(|p| {
            p.remove(name);
        });
    }
}

fn set(state: VisionState, name: &str, ui: VisionUi) {
    state.ui.update(|m| {
        m.insert(name.to_string(), ui);
    });
}

/// The mode a file is planned with: the setting, or the paper's flagged pages when the user asks
/// for one file while the setting is off.
pub fn mode_for(s: &Settings) -> VisionMode {
    if s.ingest.vision_mode == VisionMode::Off {
        VisionMode::Flagged
    } else {
        s.ingest.vision_mode
    }
}

/// Ask the worker for the file's pages and compute core's plan and estimate. No model call.
pub fn plan_file(name: String, settings: Settings, state: VisionState) {
    set(state, &name, VisionUi::Planning);
    spawn_local(async move {
        let msg = ToWorker::VisionPages { id: worker::next_id(), source: name.clone(), settings: settings.ingest.clone() };
        match worker::request(msg, None).await {
            FromWorker::Vision { content, extracted, cache, .. } => {
                let plan = vision::plan(&extracted, mode_for(&settings), &content, &cache, &settings);
                state.prepared.update_value(|p| {
                    p.insert(name.clone(), Prepared { content, extracted, cache, plan: plan.clone() });
                });
                set(state, &name, VisionUi::Confirm(plan));
            }
            FromWorker::Failed { error, .. } => set(state, &name, VisionUi::Failed(error)),
            other => set(state, &name, VisionUi::Failed(format!("unexpected worker reply: {other:?}"))),
        }
    });
}

/// Run the confirmed plan: render each page in the worker, call the vision model through core,
/// then have the worker fold the answers into the file (and store them). `on_info` gets the file's
/// updated summary.
pub fn run_file(name: String, settings: Settings, api_key: String, state: VisionState, on_info: impl Fn(SourceInfo) + 'static) {
    let Some(Prepared { content, extracted, mut cache, plan }) = state.prepared.try_update_value(|p| p.remove(&name)).flatten() else {
        set(state, &name, VisionUi::Failed("plan this file again: its pages are no longer prepared".into()));
        return;
    };
    let cancel = Rc::new(Cell::new(false));
    state.cancels.update_value(|c| {
        c.insert(name.clone(), cancel.clone());
    });
    let pages = plan.page_numbers();
    let total = pages.len();
    set(state, &name, VisionUi::Running { page: 0, done: 0, total, calls: 0 });
    spawn_local(async move {
        let sv = vision::run_settings(&settings, &plan.estimate);
        let transport = BrowserTransport { base_url: sv.models.base_url.trim().to_string(), api_key, cancel };
        let client = LlmClient::new(&transport, &sv);
        let progress = Rc::new(Cell::new((0u32, 0usize, 0usize))); // (page, pages started, calls finished)
        let (p2, n2) = (progress.clone(), name.clone());
        client.observe(move |e| {
            if let CallEvent::Finished { .. } = e {
                let (page, done, calls) = p2.get();
                p2.set((page, done, calls + 1));
                set(state, &n2, VisionUi::Running { page, done, total, calls: calls + 1 });
            }
        });
        let render_ms = Rc::new(RefCell::new(Vec::<f64>::new()));
        let scale = sv.ingest.render_dpi as f32 / 72.0;
        let (r2, n3, p3) = (render_ms.clone(), name.clone(), progress.clone());
        let budget = sv.ingest.clone();
        let image_of = move |page: u32| {
            let (r, source, p, budget) = (r2.clone(), n3.clone(), p3.clone(), budget.clone());
            async move {
                let (_, done, calls) = p.get();
                p.set((page, done + 1, calls));
                set(state, &source, VisionUi::Running { page, done: done + 1, total, calls });
                match worker::request(ToWorker::RenderPage { id: worker::next_id(), source, page, scale, budget }, None).await {
                    FromWorker::PageImage { png, render_ms, .. } => {
                        r.borrow_mut().push(render_ms);
                        Ok(vision::png_data_url(&png))
                    }
                    FromWorker::Failed { error, .. } => Err(error),
                    other => Err(format!("unexpected worker reply: {other:?}")),
                }
            }
        };
        let run = vision::run(&client, &extracted, &pages, &content, &mut cache, image_of).await;
        state.cancels.update_value(|c| {
            c.remove(&name);
        });
        let mut warnings = run.warnings.clone();
        if let Some(f) = client.fatal_error() {
            warnings.insert(0, format!("the vision run stopped: {f}"));
        }
        let fresh = run.pages.len() - run.cached_pages;
        if fresh > 0 {
            let msg = ToWorker::VisionApply { id: worker::next_id(), source: name.clone(), pages: run.pages.clone(), cache, settings: settings.ingest.clone() };
            match worker::request(msg, None).await {
                FromWorker::Ingested { info, .. } => on_info(info),
                FromWorker::Failed { error, .. } => warnings.push(error),
                other => warnings.push(format!("unexpected worker reply: {other:?}")),
            }
        }
        let done = VisionDone {
            mode: plan.mode,
            pages_read: run.pages.len(),
            cached_pages: run.cached_pages,
            not_sent: total.saturating_sub(run.pages.len()),
            charts: run.pages.iter().map(|p| p.charts.len()).sum(),
            actual: vision::actual(&client.records()),
            render_ms: render_ms.borrow().clone(),
            dpi: sv.ingest.render_dpi,
            stopped: run.stopped,
            warnings,
        };
        set(state, &name, VisionUi::Done(done));
    });
}

/// The user's Cancel: no further page is sent; the call in flight is aborted.
pub fn cancel_file(state: VisionState, name: &str) {
    state.cancels.with_value(|c| {
        if let Some(flag) = c.get(name) {
            flag.set(true);
        }
    });
}

fn money(c: Option<f64>, model: &str) -> String {
    c.map(|c| format!("${c:.4}")).unwrap_or_else(|| format!("unpriced ({model} has no price entry)"))
}

fn mode_words(m: VisionMode) -> &'static str {
    match m {
        VisionMode::All => "every page",
        _ => "flagged pages",
    }
}

/// The per-file vision controls under a document row: plan, confirm, progress with Cancel, result.
pub fn vision_row(name: String, ui: VisionUi, settings: RwSignal<Settings>, api_key: RwSignal<String>, state: VisionState, on_info: impl Fn(SourceInfo) + Copy + 'static) -> AnyView {
    let vision_model = settings.with_untracked(|s| s.models.vision_model.clone());
    let n_run = name.clone();
    let n_skip = name.clone();
    let n_cancel = name.clone();
    match ui {
        VisionUi::Planning => view! { <div class="vision" role="status" aria-live="polite"><p class="vision-status">"Vision: planning…"</p></div> }.into_any(),
        VisionUi::Confirm(plan) => {
            let e = &plan.estimate;
            let c = &plan.counts;
            let counts = format!("{} of {} pages flagged (chart {}, image {}, garbled {})", c.needs_vision, c.pages, c.chart, c.image, c.garbled);
            let body = if plan.pages.is_empty() {
                format!("Vision ({}): {counts}; nothing to send.", mode_words(plan.mode))
            } else if plan.all_cached() {
                format!("Vision ({}): {counts}; all {} page(s) were read before (cached) — no call needed, cost $0.", mode_words(plan.mode), e.pages)
            } else {
                format!(
                    "Vision ({}): {counts}. {} page(s) to send, {} cached. Estimate: {} call(s) (up to {} with table consensus), ~{} input + ~{} output tokens, {} (up to {}).",
                    mode_words(plan.mode),
                    e.calls,
                    e.cached_pages,
                    e.calls,
                    e.max_calls,
                    e.input_tokens,
                    e.output_tokens,
                    money(e.cost_usd, &vision_model),
                    money(e.max_cost_usd, &vision_model)
                )
            };
            let needs_run = !plan.all_cached() && !plan.pages.is_empty();
            let label = if plan.mode == VisionMode::All { "Read every page" } else { "Read flagged pages" };
            const SHOWN: usize = 40;
            let more = plan.pages.len().saturating_sub(SHOWN);
            let pages = plan
                .pages
                .iter()
                .take(SHOWN)
                .map(|p| {
                    let flags = if p.flags.is_empty() { "every page".to_string() } else { p.flags.join(", ") };
                    let cached = if p.cached { " (cached)" } else { "" };
                    view! { <li data-page={p.page}>{format!("p.{}: {flags}{cached}", p.page)}</li> }
                })
                .collect_view();
            view! {
                <div class="vision" role="status" aria-live="polite">
                    <p class="vision-plan">{body}</p>
                    <details class="vision-flags"><summary>"Pages and signals"</summary>
                        <ul class="vision-pages">{pages}</ul>
                        {(more > 0).then(|| view! { <p class="muted">{format!("… and {more} more")}</p> })}
                    </details>
                    {needs_run.then(|| view! {
                        <div class="actions">
                            <button class="button primary vision-run" on:click=move |_| {
                                let s = settings.get_untracked();
                                run_file(n_run.clone(), s, api_key.get_untracked(), state, on_info);
                            }>{label}</button>
                            <button class="button vision-skip" on:click=move |_| state.forget(&n_skip)>"Not now"</button>
                        </div>
                    })}
                </div>
            }
            .into_any()
        }
        VisionUi::Running { page, done, total, calls } => view! {
            <div class="vision" role="status" aria-live="polite">
                <p class="vision-status">{if page == 0 { format!("Vision: starting ({total} page(s))…") } else { format!("Vision: page {page} ({done} of {total}) · {calls} call(s) finished") }}</p>
                <progress max=total value=done></progress>
                <button class="button vision-cancel" on:click=move |_| cancel_file(state, &n_cancel)>"Cancel vision"</button>
            </div>
        }
        .into_any(),
        VisionUi::Done(d) => {
            let a = &d.actual;
            let render = if d.render_ms.is_empty() {
                String::new()
            } else {
                let mean = d.render_ms.iter().sum::<f64>() / d.render_ms.len() as f64;
                format!(" Rendered {} page(s) at {} dpi, {:.0} ms/page.", d.render_ms.len(), d.dpi, mean)
            };
            let mean_ms = if d.render_ms.is_empty() { 0.0 } else { d.render_ms.iter().sum::<f64>() / d.render_ms.len() as f64 };
            let stopped = if d.stopped { format!(" Cancelled: {} page(s) not sent.", d.not_sent) } else { String::new() };
            let text = format!(
                "Vision ({}) read {} page(s) ({} from cache), {} chart(s). Actual: {} call(s), {} input + {} output tokens, {}.{render}{stopped}",
                mode_words(d.mode),
                d.pages_read,
                d.cached_pages,
                d.charts,
                a.calls,
                a.input_tokens,
                a.output_tokens,
                money(a.cost_usd, &vision_model)
            );
            let warnings = d.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view();
            let has_warnings = !d.warnings.is_empty();
            let calls = a.calls.to_string();
            let mean = format!("{mean_ms:.1}");
            let list = d.render_ms.iter().map(|m| format!("{m:.1}")).collect::<Vec<_>>().join(",");
            view! {
                <div class="vision" role="status" aria-live="polite">
                    <p class="vision-done" data-calls=calls data-render-ms=mean data-render-list=list>{text}</p>
                    {has_warnings.then(|| view! { <ul class="vision-warnings">{warnings}</ul> })}
                </div>
            }
            .into_any()
        }
        VisionUi::Failed(e) => view! { <div class="vision"><p class="vision-error doc-error" role="alert">{format!("Vision: {e}")}</p></div> }.into_any(),
    }
}
