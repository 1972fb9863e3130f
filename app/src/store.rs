//! Browser storage for the settings and the key. Settings (every pipeline setting, never the key)
//! live in `localStorage` as the same TOML the dialog exports. The API key is kept in
//! `sessionStorage` (gone when the tab closes) unless the user opts in to "remember on this device"
//! (`localStorage`). Nothing else ever sees the key.

use clair_core::config::Settings;

const SETTINGS: &str = "clair.settings";
/// Written by earlier versions (base URL and chat model only); read once to migrate.
const LEGACY_CONN: &str = "clair.connection";
const REMEMBER: &str = "clair.remember_key";
const KEY: &str = "clair.api_key";

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The saved settings, or the paper's with a notice when what was saved no longer reads.
pub fn load_settings() -> (Settings, Option<String>) {
    let Some(ls) = local() else { return (Settings::paper(), None) };
    if let Some(toml) = ls.get_item(SETTINGS).ok().flatten() {
        return match Settings::from_toml(&toml) {
            Ok(s) => (s, None),
            Err(e) => (Settings::paper(), Some(format!("Saved settings could not be read and were reset to the paper's defaults ({e})."))),
        };
    }
    let mut s = Settings::paper();
    if let Some(v) = ls.get_item(LEGACY_CONN).ok().flatten().and_then(|j| serde_json::from_str::<serde_json::Value>(&j).ok()) {
        if let Some(u) = v.get("base_url").and_then(|x| x.as_str()) {
            s.models.base_url = u.to_string();
        }
        if let Some(m) = v.get("chat_model").and_then(|x| x.as_str()) {
            s.models.chat_model = m.to_string();
        }
    }
    (s, None)
}

pub fn save_settings(s: &Settings) {
    if let Some(ls) = local() {
        let _ = ls.set_item(SETTINGS, &s.to_toml());
        let _ = ls.remove_item(LEGACY_CONN);
    }
}

pub fn load_remember() -> bool {
    local().and_then(|s| s.get_item(REMEMBER).ok()?).is_some_and(|v| v == "1")
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
            let _ = l.set_item(REMEMBER, "1");
        } else {
            let _ = l.remove_item(KEY);
            let _ = l.remove_item(REMEMBER);
        }
    }
}
