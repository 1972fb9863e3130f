//! The worker's platform glue that its tests also use: IndexedDB I/O for the library store, and
//! the static-embedding table's fetch and cache (`semantic`).
//! Decisions (keys, encoding, validation, what to restore) live in `clair_core::store`.

pub mod idb;
pub mod semantic;
