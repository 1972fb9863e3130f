//! `clair ingest` and `clair search` (owned by the retrieval work).
pub fn ingest(_args: &[String]) -> Result<(), String> {
    Err("ingest: retrieval not wired yet".into())
}
pub fn search(_args: &[String]) -> Result<(), String> {
    Err("search: retrieval not wired yet".into())
}
