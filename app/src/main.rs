//! CLAIR-Fin in the browser: the Leptos shell. All reasoning lives in `clair-core`; this crate owns
//! the DOM, the key, the worker connection and the fetch-based model transport.

mod claims;
mod evaluate;
mod graph;
mod platform;
mod progress;
mod settings;
mod store;
mod ui;
mod viewer;
mod vision;
mod worker;

fn main() {
    leptos::mount::mount_to_body(ui::App);
}
