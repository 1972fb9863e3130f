//! `clair extract` and `clair tables` (owned by the ingestion work).
pub fn extract(_args: &[String]) -> Result<(), String> {
    Err("extract: ingestion not wired yet".into())
}
pub fn tables(_args: &[String]) -> Result<(), String> {
    Err("tables: ingestion not wired yet".into())
}
