//! IndexedDB as futures: open (creating the object store), read every entry, apply `StoreOp`s,
//! delete the database. Only I/O; what the bytes mean is `clair_core::store`. Works in a worker
//! and on a page alike (`indexedDB` is looked up on the global object).

use clair_core::store::{StoreOp, DB_NAME, DB_VERSION, OBJECT_STORE};
use js_sys::{Array, Function, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbFactory, IdbOpenDbRequest, IdbRequest, IdbTransaction, IdbTransactionMode};

/// A JS error as text, prefixed with what failed (also `semantic`'s).
pub(crate) fn js_err(what: &str, e: JsValue) -> String {
    let detail = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| js_sys::Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    format!("{what}: {detail}")
}

fn factory() -> Result<IdbFactory, String> {
    let f = js_sys::Reflect::get(&js_sys::global(), &"indexedDB".into()).map_err(|e| js_err("no IndexedDB", e))?;
    if f.is_undefined() || f.is_null() {
        return Err("this browser offers no IndexedDB (private mode?)".into());
    }
    f.dyn_into::<IdbFactory>().map_err(|_| "indexedDB is not an IDBFactory".to_string())
}

/// An `IDBRequest` as a future: its result on success, its error (prefixed with `what`) otherwise.
pub async fn request(req: &IdbRequest, what: &str) -> Result<JsValue, String> {
    let req2 = req.clone();
    let p = Promise::new(&mut |resolve: Function, reject: Function| {
        let r = req2.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = req2.clone();
        let bad = Closure::once_into_js(move |_: web_sys::Event| {
            let e: JsValue = r.error().ok().flatten().map(JsValue::from).unwrap_or_else(|| "request failed".into());
            let _ = reject.call1(&JsValue::NULL, &e);
        });
        req2.set_onsuccess(Some(ok.unchecked_ref()));
        req2.set_onerror(Some(bad.unchecked_ref()));
    });
    JsFuture::from(p).await.map_err(|e| js_err(what, e))
}

/// Resolve when the transaction commits; reject when it errors or aborts (e.g. quota exceeded).
async fn committed(tx: &IdbTransaction, what: &str) -> Result<(), String> {
    let tx2 = tx.clone();
    let p = Promise::new(&mut |resolve: Function, reject: Function| {
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let t = tx2.clone();
        let reject2 = reject.clone();
        let t2 = tx2.clone();
        let bad = Closure::once_into_js(move |_: web_sys::Event| {
            let e: JsValue = t.error().map(JsValue::from).unwrap_or_else(|| "transaction failed".into());
            let _ = reject.call1(&JsValue::NULL, &e);
        });
        let aborted = Closure::once_into_js(move |_: web_sys::Event| {
            let e: JsValue = t2.error().map(JsValue::from).unwrap_or_else(|| "transaction aborted".into());
            let _ = reject2.call1(&JsValue::NULL, &e);
        });
        tx2.set_oncomplete(Some(ok.unchecked_ref()));
        tx2.set_onerror(Some(bad.unchecked_ref()));
        tx2.set_onabort(Some(aborted.unchecked_ref()));
    });
    JsFuture::from(p).await.map(|_| ()).map_err(|e| js_err(what, e))
}

/// The library's database.
#[derive(Clone)]
pub struct Db(IdbDatabase);

impl Db {
    /// Open (creating the object store on first use). A database that exists but lacks the object
    /// store is an error here; `open_or_reset` deletes and recreates it.
    pub async fn open() -> Result<Db, String> {
        Self::open_named(DB_NAME).await
    }

    pub async fn open_named(name: &str) -> Result<Db, String> {
        let req: IdbOpenDbRequest = factory()?.open_with_u32(name, DB_VERSION).map_err(|e| js_err("could not open the library store", e))?;
        let r = req.clone();
        let upgrade = Closure::once_into_js(move |_: web_sys::Event| {
            if let Ok(db) = r.result().and_then(|d| d.dyn_into::<IdbDatabase>()) {
                if !db.object_store_names().contains(OBJECT_STORE) {
                    let _ = db.create_object_store(OBJECT_STORE);
                }
            }
        });
        req.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
        let db: IdbDatabase = request(&req, "could not open the library store")
            .await?
            .dyn_into()
            .map_err(|_| "the library store did not open as a database".to_string())?;
        if !db.object_store_names().contains(OBJECT_STORE) {
            db.close();
            return Err(format!("the library store has no '{OBJECT_STORE}' object store"));
        }
        Ok(Db(db))
    }

    /// Every entry as (key, bytes). A value that is not bytes comes back empty, which
    /// `clair_core::store::decode` reports as damaged.
    pub async fn load_all(&self) -> Result<Vec<(String, Vec<u8>)>, String> {
        let tx = self.0.transaction_with_str_and_mode(OBJECT_STORE, IdbTransactionMode::Readonly).map_err(|e| js_err("could not read the library store", e))?;
        let os = tx.object_store(OBJECT_STORE).map_err(|e| js_err("could not read the library store", e))?;
        let keys_req = os.get_all_keys().map_err(|e| js_err("could not read the library store", e))?;
        let vals_req = os.get_all().map_err(|e| js_err("could not read the library store", e))?;
        let keys: Array = request(&keys_req, "could not read the library store").await?.unchecked_into();
        let vals: Array = request(&vals_req, "could not read the library store").await?.unchecked_into();
        let mut out = Vec::with_capacity(keys.length() as usize);
        for i in 0..keys.length() {
            out.push((keys.get(i).as_string().unwrap_or_default(), bytes_of(vals.get(i))));
        }
        Ok(out)
    }

    /// Apply writes in order, in one transaction; resolves when they are committed.
    pub async fn apply(&self, ops: &[StoreOp]) -> Result<(), String> {
        if ops.is_empty() {
            return Ok(());
        }
        const WHAT: &str = "could not save to the library store";
        let tx = self.0.transaction_with_str_and_mode(OBJECT_STORE, IdbTransactionMode::Readwrite).map_err(|e| js_err(WHAT, e))?;
        let os = tx.object_store(OBJECT_STORE).map_err(|e| js_err(WHAT, e))?;
        for op in ops {
            match op {
                StoreOp::Put { key, bytes } => os.put_with_key(&Uint8Array::from(bytes.as_slice()), &JsValue::from_str(key)),
                StoreOp::Delete { key } => os.delete(&JsValue::from_str(key)),
            }
            .map_err(|e| js_err(WHAT, e))?;
        }
        committed(&tx, WHAT).await
    }

    /// The entries whose keys lie in `[lo, hi)` (e.g. every `s:` summary without the run exports).
    pub async fn load_range(&self, lo: &str, hi: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
        const WHAT: &str = "could not read the store";
        let range = web_sys::IdbKeyRange::bound_with_lower_open_and_upper_open(&JsValue::from_str(lo), &JsValue::from_str(hi), false, true).map_err(|e| js_err(WHAT, e))?;
        let tx = self.0.transaction_with_str_and_mode(OBJECT_STORE, IdbTransactionMode::Readonly).map_err(|e| js_err(WHAT, e))?;
        let os = tx.object_store(OBJECT_STORE).map_err(|e| js_err(WHAT, e))?;
        let keys: Array = request(&os.get_all_keys_with_key(&range).map_err(|e| js_err(WHAT, e))?, WHAT).await?.unchecked_into();
        let vals: Array = request(&os.get_all_with_key(&range).map_err(|e| js_err(WHAT, e))?, WHAT).await?.unchecked_into();
        Ok((0..keys.length()).map(|i| (keys.get(i).as_string().unwrap_or_default(), bytes_of(vals.get(i)))).collect())
    }

    /// One entry's bytes, or None when the key is absent.
    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        const WHAT: &str = "could not read the store";
        let tx = self.0.transaction_with_str_and_mode(OBJECT_STORE, IdbTransactionMode::Readonly).map_err(|e| js_err(WHAT, e))?;
        let os = tx.object_store(OBJECT_STORE).map_err(|e| js_err(WHAT, e))?;
        let v = request(&os.get(&JsValue::from_str(key)).map_err(|e| js_err(WHAT, e))?, WHAT).await?;
        Ok(if v.is_undefined() { None } else { Some(bytes_of(v)) })
    }

    /// Write raw bytes under a key (tests use it to plant damaged entries).
    pub async fn put_raw(&self, key: &str, bytes: &[u8]) -> Result<(), String> {
        self.apply(&[StoreOp::Put { key: key.into(), bytes: bytes.to_vec() }]).await
    }

    pub fn close(&self) {
        self.0.close();
    }
}

/// A stored value as bytes; anything else comes back empty (decoders report it as damaged).
fn bytes_of(v: JsValue) -> Vec<u8> {
    if v.is_instance_of::<Uint8Array>() {
        v.unchecked_into::<Uint8Array>().to_vec()
    } else if v.is_instance_of::<js_sys::ArrayBuffer>() {
        Uint8Array::new(&v).to_vec()
    } else {
        vec![]
    }
}

/// Delete a whole database (resolves also when it did not exist).
pub async fn delete_database(name: &str) -> Result<(), String> {
    let req = factory()?.delete_database(name).map_err(|e| js_err("could not clear the library store", e))?;
    request(&req, "could not clear the library store").await.map(|_| ())
}

/// Open a store without reading it (its owner reads what it needs, when it needs it); a store that
/// cannot be opened is deleted and recreated with a notice, like `open_or_reset`.
pub async fn open_or_reset_empty(name: &str) -> (Option<Db>, Vec<(String, Vec<u8>)>, Option<String>) {
    match Db::open_named(name).await {
        Ok(db) => (Some(db), vec![], None),
        Err(_) => open_or_reset(name).await,
    }
}

/// Open the store and read it; if it cannot be opened or read (missing object store, a broken
/// database), delete it, start empty and say so. `None` when IndexedDB is unusable altogether
/// (the library then lives in memory only, with the notice explaining why).
pub async fn open_or_reset(name: &str) -> (Option<Db>, Vec<(String, Vec<u8>)>, Option<String>) {
    let first = match Db::open_named(name).await {
        Ok(db) => match db.load_all().await {
            Ok(entries) => return (Some(db), entries, None),
            Err(e) => {
                db.close();
                e
            }
        },
        Err(e) => e,
    };
    let notice = clair_core::store::cleared_notice(&first);
    if let Err(e) = delete_database(name).await {
        return (None, vec![], Some(format!("{notice} ({e}; documents will not be kept across reloads)")));
    }
    match Db::open_named(name).await {
        Ok(db) => (Some(db), vec![], Some(notice)),
        Err(e) => (None, vec![], Some(format!("The library cannot be saved in this browser ({e}); documents will not be kept across reloads."))),
    }
}
