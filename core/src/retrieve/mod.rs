//! Retrieval (paper §3.4, spec §5): embed, index per modality, blend dense and lexical scores.
//!
//! - `lexical` — the reference's term rule and overlap score;
//! - `embed` — the `Embedder` trait, the offline financial-text embedder, the API embedder;
//! - `index` — `Corpus`: documents + per-modality vector slabs, exact scan, optional HNSW, persistence;
//! - `graph` — HNSW graphs built in another worker: the job, the blob, when to build;
//! - `hierarchical` — the Hierarchical RAG baseline: sections first, then passages within them;
//! - `graph_rag` — the Graph-RAG baseline: entity graph from indexing, neighbourhood + communities;
//! - `milvus` — a team library on a Milvus server (REST v1, sans-I/O) behind `Search`;
//! - `prior` — the structural prior: primary-statement pages, read from the pages themselves;
//! - `blend` — the 0.65 · 1/(1+d) + 0.35 · ℓ rerank over the 4k pool.

pub mod blend;
pub mod embed;
pub mod graph;
pub mod graph_rag;
pub mod hierarchical;
pub mod index;
pub mod lexical;
pub mod milvus;
pub mod prior;
pub mod static_embed;

pub use embed::{ApiEmbedder, Embedder, OfflineEmbedder};
pub use index::Corpus;

use crate::config::{Modality, RetrievalSettings};
use crate::corpus::Hit;

/// What the pipeline needs from an index: the top `k` documents for a query, optionally restricted
/// to one modality, each with its blended score. In the browser this is a message round-trip to the
/// worker; in the CLI a local index. `?Send` on purpose (browser futures are not `Send`).
#[allow(async_fn_in_trait)]
pub trait Search {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String>;

    /// HyDE (spec §8.6 HyDE bullet; `ablations.hyde`): the dense pool and the dense part of the
    /// blend come from `passage` (a hypothetical answer), the lexical part from `query`'s own
    /// terms — the passage may invent figures and words, and lexical overlap must not reward them.
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String>;

    /// The corpus's entity graph, when one was extracted at indexing (Graph-RAG baseline).
    fn entity_graph(&self) -> Option<&graph_rag::EntityGraph> {
        None
    }
}

/// A corpus searched in-process with the offline embedder (CLI, tests, the worker without a key).
pub struct LocalSearch<'a> {
    pub corpus: &'a Corpus,
    pub embedder: &'a OfflineEmbedder,
    pub settings: &'a RetrievalSettings,
}

impl LocalSearch<'_> {
    /// Synchronous form of `Search::search`.
    pub fn search_now(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search_split(query, query, k, modality)
    }

    /// Dense similarity to `dense_text`, lexical overlap with `query` (`Search::search_hyde`).
    pub fn search_split(&self, query: &str, dense_text: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        if self.corpus.embedder != self.embedder.name() {
            return Err(format!(
                "the corpus was embedded with `{}`, not `{}`: search it with the same embedder or ingest again",
                self.corpus.embedder,
                self.embedder.name()
            ));
        }
        let q = self.embedder.embed_query(dense_text, self.corpus.term_stats(self.embedder));
        Ok(self.corpus.search(&q, query, k, modality, self.settings))
    }
}

impl Search for LocalSearch<'_> {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search_now(query, k, modality)
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search_split(query, passage, k, modality)
    }
}

#[cfg(test)]
mod tests;
