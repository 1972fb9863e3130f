//! `clair ask` (owned by the pipeline work).
pub fn ask(_args: &[String]) -> Result<(), String> {
    Err("ask: pipeline not wired yet".into())
}
