//! The Settings dialog: connection (base URL, key, chat / vision / embedding models, "test
//! connection") and every pipeline setting and ablation with the paper's default beside it, plus
//! TOML import/export. The fields come from `clair_core::view::settings_form`, so this file only
//! draws them; a value is accepted only when the whole `Settings` still validates.

use crate::platform::{download, read_chosen_text, BrowserTransport};
use crate::store;
use clair_core::config::Settings;
use clair_core::llm::LlmClient;
use clair_core::view::settings_form::{self, Field, FieldKind};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use std::cell::Cell;
use std::rc::Rc;

/// Fields of the `models` section drawn in the connection block, with their accessible names.
const CONNECTION: &[(&str, &str, &str)] = &[
    ("models.base_url", "base-url", "Base URL (any OpenAI-compatible API: OpenAI, Azure OpenAI, OpenRouter, Ollama, vLLM, LM Studio)"),
    ("models.chat_model", "chat-model", "Chat model"),
    ("models.vision_model", "vision-model", "Vision model"),
    ("models.embedding_model", "embedding-model", "Embedding model"),
    ("models.embedding_dimensions", "embedding-dimensions", "Embedding dimensions (empty = the model's own)"),
    ("models.max_concurrent_requests", "max-concurrent-requests", "Requests in flight at once (0 = automatic: 1 for a server on this machine, else 8)"),
];

fn section_title(s: &str) -> &'static str {
    match s {
        "ablations" => "Ablations and baselines (paper §6)",
        "pipeline" => "Pipeline: coverage, debate, custody, audit, risk (paper §3.5–3.8)",
        "retrieval" => "Retrieval (paper §3.4)",
        "ingest" => "Ingestion and vision (paper §3.2)",
        "weights" => "Evidence authority weights per claim type (AEA, paper §3.5)",
        "budgets" => "Output-token caps and temperatures per role",
        "pricing" => "Pricing (USD per 1M tokens; a model without an entry is unpriced)",
        _ => "Settings",
    }
}

/// Store settings that validated; keep the dialog's error line in sync.
fn apply(settings: RwSignal<Settings>, error: RwSignal<Option<String>>, next: Result<Settings, String>) {
    match next {
        Ok(s) => {
            store::save_settings(&s);
            settings.set(s);
            error.set(None);
        }
        Err(e) => error.set(Some(e)),
    }
}

#[component]
pub fn SettingsDialog(settings: RwSignal<Settings>, api_key: RwSignal<String>, remember: RwSignal<bool>, open: RwSignal<bool>) -> impl IntoView {
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let status: RwSignal<Option<Result<String, String>>> = RwSignal::new(None);
    let testing = RwSignal::new(false);

    let set = move |path: String, raw: String| apply(settings, error, settings_form::set_field(&settings.get_untracked(), &path, &raw));

    let test_connection = move || {
        store::save_key(&api_key.get_untracked(), remember.get_untracked());
        let mut s = settings.get_untracked();
        // One attempt, short timeout: the user is waiting on a button.
        s.pipeline.max_retries = 0;
        s.pipeline.request_timeout_ms = s.pipeline.request_timeout_ms.min(20_000);
        testing.set(true);
        status.set(None);
        spawn_local(async move {
            let t = BrowserTransport { base_url: s.models.base_url.trim().to_string(), api_key: api_key.get_untracked(), cancel: Rc::new(Cell::new(false)) };
            let client = LlmClient::new(&t, &s);
            status.set(Some(client.test_connection().await));
            testing.set(false);
        });
    };

    let settings_file: NodeRef<leptos::html::Input> = NodeRef::new();
    let on_import = move |ev: web_sys::Event| {
        read_chosen_text(&ev, move |name, text| {
            apply(settings, error, text.and_then(|t| Settings::from_toml(&t).map_err(|e| format!("{name}: {e}"))));
        });
    };

    // The fields' structure is fixed; only values change. Drawing the inputs once and binding each
    // value reactively keeps focus where the user is typing.
    let all = Memo::new(move |_| settings_form::fields(&settings.get()));
    let structure = settings_form::fields(&settings.get_untracked());

    let connection = CONNECTION
        .iter()
        .filter(|(path, _, _)| structure.iter().any(|f| f.path == *path))
        .map(|(path, id, label)| {
            let path = path.to_string();
            let (p1, p2) = (path.clone(), path.clone());
            view! {
                <label>{*label}
                    <input id=*id type="text" spellcheck="false" prop:value=move || value_of(all, &p1)
                        on:input=move |ev| set(path.clone(), event_target_value(&ev)) />
                    <span class="default">{move || default_hint(all, &p2)}</span>
                </label>
            }
        })
        .collect_view();

    let sections = settings_form::by_section(&structure)
        .into_iter()
        .filter(|(s, _)| *s != "models")
        .map(|(section, fs)| {
            let rows = fs.into_iter().map(|f| field_row(f, all, set)).collect_view();
            view! {
                <fieldset class="settings-section" data-section=section>
                    <legend>{section_title(section)}</legend>
                    {rows}
                </fieldset>
            }
        })
        .collect_view();

    // The dialog pattern (WAI-ARIA APG): opening moves focus into the dialog, Tab stays inside it,
    // Escape closes it, and closing gives focus back to what had it (the Settings button).
    let dialog: NodeRef<leptos::html::Div> = NodeRef::new();
    let opener: StoredValue<Option<web_sys::HtmlElement>, LocalStorage> = StoredValue::new_local(None);
    Effect::new(move |was_open: Option<bool>| {
        let is_open = open.get();
        if is_open && was_open != Some(true) {
            let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
            opener.set_value(active.and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok()));
            request_animation_frame(move || {
                if let Some(first) = dialog.get_untracked().and_then(|d| focusable(&d).into_iter().next()) {
                    let _ = first.focus();
                }
            });
        } else if !is_open && was_open == Some(true) {
            if let Some(el) = opener.get_value() {
                let _ = el.focus();
            }
        }
        is_open
    });
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            open.set(false);
        } else if ev.key() == "Tab" {
            let Some(d) = dialog.get_untracked() else { return };
            let items = focusable(&d);
            let (Some(first), Some(last)) = (items.first(), items.last()) else { return };
            let active = web_sys::window().and_then(|w| w.document()).and_then(|doc| doc.active_element());
            let at = |el: &web_sys::HtmlElement| active.as_ref().is_some_and(|a| a == el.unchecked_ref::<web_sys::Element>());
            if ev.shift_key() && at(first) {
                ev.prevent_default();
                let _ = last.focus();
            } else if !ev.shift_key() && at(last) {
                ev.prevent_default();
                let _ = first.focus();
            }
        }
    };

    view! {
        <div class="modal-backdrop" hidden=move || !open.get() on:click=move |ev: web_sys::MouseEvent| {
            // A click on the backdrop itself (not inside the dialog) closes it.
            if ev.target() == ev.current_target() { open.set(false) }
        }>
            <div id="settings-dialog" class="dialog" role="dialog" aria-modal="true" aria-labelledby="settings-title" node_ref=dialog
                on:keydown=on_keydown>
                <header class="dialog-head">
                    <h2 id="settings-title">"Settings"</h2>
                    <button id="settings-close" class="button primary" on:click=move |_| open.set(false)>"Done"</button>
                </header>
                <section id="connection" class="connection" aria-label="Model connection">
                    <h3>"Model connection"</h3>
                    {connection}
                    <label>"API key"
                        <input id="api-key" type="password" autocomplete="off" prop:value=move || api_key.get()
                            on:input=move |ev| api_key.set(event_target_value(&ev))
                            on:change=move |_| store::save_key(&api_key.get_untracked(), remember.get_untracked()) />
                    </label>
                    <label class="inline">
                        <input id="remember-key" type="checkbox" prop:checked=move || remember.get()
                            on:change=move |ev| {
                                remember.set(event_target_checked(&ev));
                                store::save_key(&api_key.get_untracked(), remember.get_untracked());
                            } />
                        "Remember the key on this device (otherwise it is forgotten when the tab closes)"
                    </label>
                    <p class="muted">"The key is sent only to the base URL above, as a header. It is never written to an export, a settings file or a log. The page's Content-Security-Policy lets it talk to that origin only: changing the base URL reloads the page."</p>
                    <div class="actions">
                        <button id="test-connection" class="button" disabled=move || testing.get() on:click=move |_| test_connection()>
                            {move || if testing.get() { "Testing…" } else { "Test connection" }}
                        </button>
                    </div>
                    <CheckResult id="connection-status" result=status />
                </section>
                <crate::library::LibrarySettings />
                {move || error.get().map(|e| view! { <p id="settings-error" class="error" role="alert">{e}</p> })}
                <div class="actions settings-file">
                    <button id="settings-export" class="button" on:click=move |_| download("clair-settings.toml", &settings.get_untracked().to_toml(), "application/toml")>"Export settings (TOML)"</button>
                    <button id="settings-import-button" class="button" type="button"
                        on:click=move |_| if let Some(el) = settings_file.get_untracked() { el.click() }>"Import settings (TOML)"</button>
                    <input id="settings-import" node_ref=settings_file type="file" accept=".toml,application/toml,text/plain" hidden tabindex="-1" aria-label="Import settings (TOML)" on:change=on_import />
                    <button id="settings-reset" class="button" on:click=move |_| {
                        let mut s = Settings::paper();
                        // Keep where the model lives; reset the method.
                        s.models = settings.get_untracked().models;
                        apply(settings, error, Ok(s));
                    }>"Reset the method to the paper's defaults"</button>
                    <span class="muted" id="settings-changes">{move || {
                        let c = settings_form::changes(&settings.get());
                        if c.is_empty() { "All settings are the paper's.".to_string() } else { format!("{} setting(s) differ from the paper.", c.len()) }
                    }}</span>
                </div>
                {sections}
            </div>
        </div>
    }
}

/// The dialog's controls a user can Tab to, in document order.
/// The outcome of a "Test connection"/"Check the library" button: a polite status when it
/// worked, an alert when it did not.
#[component]
pub fn CheckResult(id: &'static str, result: RwSignal<Option<Result<String, String>>>) -> impl IntoView {
    move || {
        result.get().map(|r| match r {
            Ok(m) => view! { <p id=id class="ok" role="status">{m}</p> }.into_any(),
            Err(e) => view! { <p id=id class="error" role="alert">{e}</p> }.into_any(),
        })
    }
}

fn focusable(root: &web_sys::HtmlDivElement) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = root.query_selector_all("button:not([disabled]), input:not([disabled]):not([hidden]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex=\"0\"]") else { return vec![] };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        // Hidden ones (a collapsed section) have no layout box.
        .filter(|e| e.offset_parent().is_some())
        .collect()
}

fn value_of(all: Memo<Vec<Field>>, path: &str) -> String {
    all.with(|v| v.iter().find(|f| f.path == path).map(|f| f.value.clone()).unwrap_or_default())
}

/// "paper: 0.75" when the field differs from the paper, else nothing.
fn default_hint(all: Memo<Vec<Field>>, path: &str) -> String {
    all.with(|v| {
        v.iter()
            .find(|f| f.path == path && !f.is_default())
            .map(|f| format!("paper: {}", if f.default.is_empty() { "not set" } else { &f.default }))
            .unwrap_or_default()
    })
}

/// One setting: its name, an input of the right kind, the paper default when it differs, the help.
fn field_row(f: &Field, all: Memo<Vec<Field>>, set: impl Fn(String, String) + Copy + 'static) -> AnyView {
    let path = f.path.clone();
    let name = f.path.split_once('.').map(|(_, n)| n.to_string()).unwrap_or_else(|| f.path.clone());
    let id = format!("setting-{}", f.path.replace('.', "-"));
    let help = f.help.clone().unwrap_or_default();
    let (p_val, p_set, p_hint, p_cls) = (path.clone(), path.clone(), path.clone(), path.clone());
    let input = match f.kind {
        FieldKind::Bool => view! { <input id=id.clone() type="checkbox" prop:checked=move || value_of(all, &p_val) == "true"
                on:change=move |ev| set(p_set.clone(), event_target_checked(&ev).to_string()) /> }
        .into_any(),
        FieldKind::Integer | FieldKind::Number | FieldKind::OptionalInteger => {
            let step = if f.kind == FieldKind::Number { "any" } else { "1" };
            view! { <input id=id.clone() type="number" step=step prop:value=move || value_of(all, &p_val)
                on:change=move |ev| set(p_set.clone(), event_target_value(&ev)) /> }
            .into_any()
        }
        FieldKind::Text | FieldKind::Json => view! { <input id=id.clone() type="text" spellcheck="false" prop:value=move || value_of(all, &p_val)
                on:change=move |ev| set(p_set.clone(), event_target_value(&ev)) /> }
        .into_any(),
    };
    view! {
        <div class="setting" class:changed=move || !default_hint(all, &p_cls).is_empty() data-path=path>
            <label for=id>{name}</label>
            {input}
            <span class="default">{move || default_hint(all, &p_hint)}</span>
            <span class="help">{help}</span>
        </div>
    }
    .into_any()
}
