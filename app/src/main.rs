//! CLAIR-Fin in the browser: the Leptos shell. All reasoning lives in `clair-core`; this crate owns
//! the DOM, the key, the worker connection and the fetch-based model transport.

mod answer;
mod claims;
mod crash;
mod documents;
mod evaluate;
mod graph;
mod library;
mod past;
mod platform;
mod progress;
mod settings;
mod state;
mod store;
mod ui;
mod viewer;
mod vision;
mod worker;

fn main() {
    crash::install();
    leptos::mount::mount_to_body(ui::App);
}
