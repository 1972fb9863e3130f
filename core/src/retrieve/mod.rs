//! Retrieval (paper §3.4, spec §5): embed, index per modality, blend dense and lexical scores.

use crate::config::Modality;
use crate::corpus::Hit;

/// What the pipeline needs from an index: the top `k` documents for a query, optionally restricted
/// to one modality, each with its blended score. In the browser this is a message round-trip to the
/// worker; in the CLI a local index. `?Send` on purpose (browser futures are not `Send`).
#[allow(async_fn_in_trait)]
pub trait Search {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String>;
}
