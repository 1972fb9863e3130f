//! A panic in the app. In wasm a panic aborts the instance: nothing reactive runs after it, so the
//! page would sit there dead with "unreachable" in the console. The hook logs the panic with its
//! message (`console_error_panic_hook`) and puts a plain-HTML notice over the page with a Reload
//! link. The library lives in the worker's IndexedDB store, so a reload restores every document;
//! finished runs are in Past runs.
//!
//! The notice is written with `insertAdjacentHTML` and the Reload action is a link to this page,
//! so it needs neither Leptos nor a working `createElement` nor any script after the abort (the
//! page's CSP forbids inline handlers anyway).

use clair_core::view::escape;

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

fn show(message: &str) {
    let Some(window) = web_sys::window() else { return };
    let Some(doc) = window.document() else { return };
    if doc.get_element_by_id("crash").is_some() {
        return;
    }
    let Some(body) = doc.body() else { return };
    let loc = window.location();
    let here = format!("{}{}", loc.pathname().unwrap_or_default(), loc.search().unwrap_or_default());
    let html = format!(
        r#"<div id="crash" class="crash" role="alertdialog" aria-modal="true" aria-labelledby="crash-title" aria-describedby="crash-text">
<div class="crash-box">
<h2 id="crash-title">CLAIR-Fin stopped</h2>
<p id="crash-text">The page hit an internal error and cannot go on. Your documents are kept in this browser and come back when you reload; finished runs are under Past runs.</p>
<details><summary>Error details</summary><pre id="crash-message">{}</pre></details>
<a id="crash-reload" class="button primary" href="{}">Reload</a>
</div>
</div>"#,
        escape(message),
        escape(if here.is_empty() { "./" } else { &here }),
    );
    let _ = body.insert_adjacent_html("beforeend", &html);
    if let Some(link) = doc.get_element_by_id("crash-reload") {
        use wasm_bindgen::JsCast;
        if let Ok(link) = link.dyn_into::<web_sys::HtmlElement>() {
            let _ = link.focus();
        }
    }
}
