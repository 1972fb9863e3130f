//! Browser storage for connection settings. The API key is kept in `sessionStorage` (gone when the
//! tab closes) unless the user opts in to "remember on this device" (`localStorage`). Nothing else
//! ever sees the key.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Connection {
    pub base_url: String,
    pub chat_model: String,
    pub remember_key: bool,
}

impl Default for Connection {
    fn default() -> Self {
        let m = clair_core::config::ModelSettings::default();
        Connection { base_url: m.base_url, chat_model: m.chat_model, remember_key: false }
    }
}

const CONN: &str = "clair.connection";
const KEY: &str = "clair.api_key";

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

pub fn load_connection() -> Connection {
    local()
        .and_then(|s| s.get_item(CONN).ok()?)
        .and_then(|j| serde_json::from_str(&j).ok())
        .unwrap_or_default()
}

pub fn save_connection(c: &Connection) {
    if let (Some(s), Ok(j)) = (local(), serde_json::to_string(c)) {
        let _ = s.set_item(CONN, &j);
    }
}

pub fn load_key() -> String {
    session()
        .and_then(|s| s.get_item(KEY).ok()?)
        .or_else(|| local().and_then(|s| s.get_item(KEY).ok()?))
        .unwrap_or_default()
}

pub fn save_key(key: &str, remember: bool) {
    if let Some(s) = session() {
        let _ = s.set_item(KEY, key);
    }
    if let Some(l) = local() {
        if remember {
            let _ = l.set_item(KEY, key);
        } else {
            let _ = l.remove_item(KEY);
        }
    }
}
