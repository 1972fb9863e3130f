//! "Library on a server" (issue 42): a team library on a Milvus server searched beside the files
//! dropped in this browser. Core decides every request and reads every reply
//! (`clair_core::retrieve::milvus`); this file sends them with fetch (`FetchStore`), keeps the
//! setting, and draws its block in the Settings dialog.
//!
//! The server address and collection live in `localStorage` (`clair.library`; index.html reads the
//! address to let the page's CSP connect to it). The token is kept like the API key: in
//! `sessionStorage` unless the user opts in to remembering it; it is never part of `Settings`, so
//! never in a settings file or a run export. Milvus 2.3 answers browsers with
//! `Access-Control-Allow-Origin: *` and a preflight that allows `Authorization`.

use crate::state::use_app;
use crate::settings::CheckResult;
use clair_core::protocol::{FromWorker, LibraryStats, ToWorker};
use clair_core::retrieve::milvus::{FileEntry, Method, MilvusSearch, MilvusStore, Reply, Request, StoreError, StoreTransport, StoreUrl};
use clair_core::retrieve::OfflineEmbedder;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::{Deserialize, Serialize};

const CONFIG: &str = "clair.library";
const TOKEN: &str = "clair.library_token";
const REMEMBER: &str = "clair.remember_library_token";

/// The setting as typed: the server's `http(s)://HOST:PORT` and the collection. Empty server = off.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryConfig {
    pub server: String,
    pub collection: String,
}

impl LibraryConfig {
    pub fn enabled(&self) -> bool {
        !self.server.trim().is_empty()
    }
    pub fn url(&self) -> Result<StoreUrl, String> {
        StoreUrl::from_parts(&self.server, &self.collection)
    }
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The library setting's signals, part of `AppState`.
#[derive(Clone, Copy)]
pub struct LibraryState {
    pub config: RwSignal<LibraryConfig>,
    pub token: RwSignal<String>,
    pub remember: RwSignal<bool>,
    /// The last check: the number of files, or what went wrong.
    pub status: RwSignal<Option<Result<String, String>>>,
}

impl LibraryState {
    pub fn load() -> Self {
        let config = local().and_then(|s| s.get_item(CONFIG).ok()?).and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default();
        let remember = local().and_then(|s| s.get_item(REMEMBER).ok()?).is_some_and(|v| v == "1");
        let token = session().and_then(|s| s.get_item(TOKEN).ok()?).or_else(|| local().and_then(|s| s.get_item(TOKEN).ok()?)).unwrap_or_default();
        LibraryState { config: RwSignal::new(config), token: RwSignal::new(token), remember: RwSignal::new(remember), status: RwSignal::new(None) }
    }

    pub fn save(self) {
        if let Some(l) = local() {
            let _ = l.set_item(CONFIG, &serde_json::to_string(&self.config.get_untracked()).unwrap_or_default());
        }
        let (token, remember) = (self.token.get_untracked(), self.remember.get_untracked());
        if let Some(s) = session() {
            let _ = s.set_item(TOKEN, &token);
        }
        if let Some(l) = local() {
            if remember {
                let _ = l.set_item(TOKEN, &token);
                let _ = l.set_item(REMEMBER, "1");
            } else {
                let _ = l.remove_item(TOKEN);
                let _ = l.remove_item(REMEMBER);
            }
        }
    }

    pub fn token(self) -> Option<String> {
        Some(self.token.get_untracked()).filter(|t| !t.trim().is_empty())
    }
}

/// Core's requests over fetch.
pub struct FetchStore;

impl StoreTransport for FetchStore {
    async fn send(&self, req: Request) -> Result<Reply, String> {
        let mut b = match req.method {
            Method::Get => gloo_net::http::Request::get(&req.url),
            Method::Post => gloo_net::http::Request::post(&req.url),
        };
        for (k, v) in &req.headers {
            b = b.header(k, v);
        }
        let r = match req.body {
            Some(body) => b.body(body),
            None => b.build(),
        }
        .map_err(|e| e.to_string())?;
        let resp = r.send().await.map_err(|e| format!("{e}; is the server running, and does it answer this page's origin (CORS)?"))?;
        Ok(Reply { status: resp.status(), body: resp.text().await.unwrap_or_default() })
    }
}

/// A store error as the app's user can act on it (the CLI's wording names command-line flags).
pub fn message(e: &StoreError) -> String {
    let what = match e {
        StoreError::Unreachable { url, reason } => format!("the Milvus server at {url} is unreachable ({reason})"),
        StoreError::Auth { message } => format!("the Milvus server refused the token ({message}): check the token in Settings → Library on a server"),
        StoreError::MissingCollection { collection } => format!("the Milvus server has no collection `{collection}`: check the collection's name, or ingest files into it (clair ingest PDF --store …)"),
        StoreError::NoStatementFlags { collection, files } => format!(
            "collection `{collection}` holds {} file(s) written without statement-page flags ({}): whoever ingests the library reads them again (clair ingest PDF... --store …), or import settings (TOML) with retrieval.statement_prior = 0 to search it without the structural prior",
            files.len(),
            files.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    };
    format!("Library on a server: {what}")
}

/// Open the library for a run: its files, and a search with the offline embedder of the
/// collection's vector size (what `clair ingest --store` wrote).
pub async fn open<'t>(t: &'t FetchStore, url: StoreUrl, token: Option<String>, e: &'t OfflineEmbedder, s: &'t clair_core::config::RetrievalSettings) -> Result<MilvusSearch<'t, FetchStore>, String> {
    MilvusStore::new(t, url, token).open_search(e, s).await.map_err(|e| message(&e))
}

/// Open the library for a run, its queries weighted with ONE set of statistics on both sides:
/// the worker merges the library's with this browser's files the library does not hold
/// (`ToWorker::LibraryStats`), weights its own searches with them, and the library's search
/// takes the same (docs/scale.md, "Library and browser statistics").
pub async fn open_with_browser<'t>(
    t: &'t FetchStore,
    url: StoreUrl,
    token: Option<String>,
    e: &'t OfflineEmbedder,
    s: &'t clair_core::config::RetrievalSettings,
) -> Result<MilvusSearch<'t, FetchStore>, String> {
    let mut remote = open(t, url, token, e, s).await?;
    let library = LibraryStats { stats: remote.stats.clone(), sources: remote.files.iter().map(|f| f.source.clone()).collect() };
    match crate::worker::request(ToWorker::LibraryStats { id: crate::worker::next_id(), library: Some(library) }, None).await {
        FromWorker::QueryStats { stats: Some(merged), .. } => remote.stats = merged,
        FromWorker::Failed { error, .. } => return Err(error),
        other => return Err(format!("unexpected worker reply: {other:?}")),
    }
    Ok(remote)
}

/// After a run with the library (or before one without): the worker weights queries with this
/// browser's statistics alone again.
pub async fn browser_alone() {
    let _ = crate::worker::request(ToWorker::LibraryStats { id: crate::worker::next_id(), library: None }, None).await;
}

/// The embedder of the collection's size.
pub async fn embedder(t: &FetchStore, url: &StoreUrl, token: Option<String>) -> Result<OfflineEmbedder, String> {
    let dims = MilvusStore::new(t, url.clone(), token).dims(&url.collection).await.map_err(|e| message(&e))?;
    Ok(OfflineEmbedder::new(dims))
}

async fn check(url: StoreUrl, token: Option<String>) -> Result<Vec<FileEntry>, String> {
    let t = FetchStore;
    let store = MilvusStore::new(&t, url.clone(), token);
    store.dims(&url.collection).await.map_err(|e| message(&e))?;
    store.files().await.map_err(|e| message(&e))
}

/// Whether the page's Content-Security-Policy (built by index.html) lets it connect to `origin`.
fn allowed_by_csp(origin: &str) -> bool {
    let Some(w) = web_sys::window() else { return false };
    ["__clairCspOrigin", "__clairCspLibrary"]
        .iter()
        .any(|k| js_sys::Reflect::get(&w, &wasm_bindgen::JsValue::from_str(k)).ok().and_then(|v| v.as_string()).is_some_and(|v| v == origin))
}

/// The block in the Settings dialog.
#[component]
pub fn LibrarySettings() -> impl IntoView {
    let app = use_app();
    let lib = app.library;
    let checking = RwSignal::new(false);
    let set_server = move |v: String| {
        lib.config.update(|c| c.server = v);
        lib.status.set(None);
        lib.save();
    };
    let set_collection = move |v: String| {
        lib.config.update(|c| c.collection = v);
        lib.status.set(None);
        lib.save();
    };
    let test = move || {
        lib.save();
        let cfg = lib.config.get_untracked();
        let url = match cfg.url() {
            Ok(u) => u,
            Err(e) => {
                lib.status.set(Some(Err(format!("Library on a server: {e}"))));
                return;
            }
        };
        // The page's CSP allows the server only once the page has reloaded with it (index.html).
        let origin = web_sys::Url::new(cfg.server.trim()).ok().map(|u| u.origin());
        if !origin.as_deref().is_some_and(allowed_by_csp) {
            lib.status.set(Some(Err(format!(
                "Press Done: the page reloads so that it may connect to {}, then check again.",
                origin.unwrap_or_else(|| cfg.server.clone())
            ))));
            return;
        }
        checking.set(true);
        let token = lib.token();
        spawn_local(async move {
            let r = check(url, token).await.map(|files| {
                app.viewer.library.set(files.iter().map(|f| f.source.clone()).collect());
                format!("{} file(s) in the library: {}", files.len(), files.iter().map(|f| f.source.as_str()).collect::<Vec<_>>().join(", "))
            });
            lib.status.set(Some(r));
            checking.set(false);
        });
    };
    view! {
        <section id="library" class="connection" aria-label="Library on a server">
            <h3>"Library on a server"</h3>
            <p class="muted">"A team library on a Milvus server (filings ingested once with clair ingest --store). Questions then search its files and the PDFs added in this browser together. Leave the address empty to search this browser's files only."</p>
            <label>"Server (http://HOST:PORT)"
                <input id="library-server" type="text" spellcheck="false" placeholder="http://127.0.0.1:19530"
                    prop:value=move || lib.config.with(|c| c.server.clone()) on:change=move |ev| set_server(event_target_value(&ev)) />
            </label>
            <label>"Collection"
                <input id="library-collection" type="text" spellcheck="false" placeholder="filings"
                    prop:value=move || lib.config.with(|c| c.collection.clone()) on:change=move |ev| set_collection(event_target_value(&ev)) />
            </label>
            <label>"Token (optional; a read-only user is enough)"
                <input id="library-token" type="password" autocomplete="off" prop:value=move || lib.token.get()
                    on:input=move |ev| lib.token.set(event_target_value(&ev)) on:change=move |_| lib.save() />
            </label>
            <label class="inline">
                <input id="library-remember" type="checkbox" prop:checked=move || lib.remember.get()
                    on:change=move |ev| { lib.remember.set(event_target_checked(&ev)); lib.save(); } />
                "Remember the token on this device (otherwise it is forgotten when the tab closes)"
            </label>
            <p class="muted">"The token is sent only to this server, as a header, and never written to an export or a settings file. Changing the server reloads the page so its Content-Security-Policy allows it."</p>
            <div class="actions">
                <button id="library-test" class="button" disabled=move || checking.get() on:click=move |_| test()>
                    {move || if checking.get() { "Checking…" } else { "Check the library" }}
                </button>
            </div>
            <CheckResult id="library-status" result=lib.status />
        </section>
    }
}
