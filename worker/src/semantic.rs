//! The static-embedding table for the offline embedder's semantic part (issue 41 deliverable 3;
//! `clair_core::retrieve::static_embed`): fetched by the worker when it starts — after the page
//! is up, so never part of the page's first load — and kept in the browser's Cache Storage, so a
//! reload reads it from disk. Only I/O; parsing and use are core's.
//!
//! The file name carries the table's version (`TABLE_URL`): a new distillation gets a new name,
//! and an older cached copy is never read for it.

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use crate::idb::js_err;

/// Beside the worker's script in `dist/` (the build copies `target/static-embed/minilm-l6-static.bin`
/// there under this name: `scripts/static-table-dist.sh`, a trunk hook).
pub const TABLE_URL: &str = "./minilm-l6-static-v1.bin";
/// The Cache Storage cache holding the table.
pub const CACHE_NAME: &str = "clair-fin-models-v1";

/// `obj.name(args…)` as a future of its promise's value.
async fn call(obj: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, String> {
    let f: Function = Reflect::get(obj, &name.into()).map_err(|e| js_err(name, e))?.dyn_into().map_err(|_| format!("{name} is not a function"))?;
    let arr = js_sys::Array::new();
    for a in args {
        arr.push(a);
    }
    let p = f.apply(obj, &arr).map_err(|e| js_err(name, e))?;
    let p: Promise = p.dyn_into().map_err(|_| format!("{name} returned no promise"))?;
    JsFuture::from(p).await.map_err(|e| js_err(name, e))
}

async fn body(response: &JsValue) -> Result<Vec<u8>, String> {
    let buf = call(response, "arrayBuffer", &[]).await?;
    Ok(Uint8Array::new(&buf).to_vec())
}

/// The table's bytes: from Cache Storage when a copy is there, else fetched (and stored there for
/// next time). Cache Storage is missing outside a secure context; the fetch then goes to the
/// network (and the HTTP cache) each time. An error names what failed (missing file, HTTP status).
pub async fn load() -> Result<Vec<u8>, String> {
    let global = js_sys::global();
    let caches = Reflect::get(&global, &"caches".into()).ok().filter(|c| !c.is_undefined() && !c.is_null());
    let cache = match &caches {
        Some(c) => call(c, "open", &[&CACHE_NAME.into()]).await.ok(),
        None => None,
    };
    if let Some(cache) = &cache {
        if let Ok(hit) = call(cache, "match", &[&TABLE_URL.into()]).await {
            if !hit.is_undefined() && !hit.is_null() {
                if let Ok(bytes) = body(&hit).await {
                    return Ok(bytes);
                }
            }
        }
    }
    let response = call(&global, "fetch", &[&TABLE_URL.into()]).await.map_err(|e| format!("the semantic search table could not be fetched ({e})"))?;
    let ok = Reflect::get(&response, &"ok".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false);
    if !ok {
        let status = Reflect::get(&response, &"status".into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
        return Err(format!("the semantic search table {TABLE_URL} is not on this server (HTTP {status})"));
    }
    if let Some(cache) = &cache {
        // Stored before the body is read (a clone keeps its own body); a full disk only costs the
        // next start a download.
        if let Ok(copy) = Reflect::get(&response, &"clone".into()).and_then(|f| f.dyn_into::<Function>().map_err(JsValue::from)).and_then(|f| f.call0(&response)) {
            let _ = call(cache, "put", &[&TABLE_URL.into(), &copy]).await;
        }
    }
    body(&response).await
}
