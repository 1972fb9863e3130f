//! RAGAS's contexts for one run (Table 2; spec §8.2–8.3): the top-k passages the configuration's
//! own retrieval finds for the raw question.
//!
//! - Hierarchical RAG and Graph-RAG: their single-pass retrieval (`pipeline::single_pass_retrieval`).
//! - HyDE: the passages HyDE retrieved — the blended search with the hypothetical passage the run
//!   generated for the question (the planner's preview, or vanilla RAG's retrieval), at k. The
//!   passage is taken from the run's own search calls (`Recorder`), so the contexts cost no model
//!   call and are what the HyDE row actually searched with, not a plain search for the question.
//! - Every other row: the plain blended search for the question.
//!
//! `clair eval` and the Evaluate view both wrap their search in a `Recorder` for the run and take
//! the contexts from `Recorder::contexts`, so the two shells cannot differ here.

use crate::config::{Modality, Settings};
use crate::corpus::Hit;
use crate::retrieve::graph_rag::EntityGraph;
use crate::retrieve::Search;
use std::cell::RefCell;

/// A search that passes every call through and remembers the HyDE passages it was given, by query.
pub struct Recorder<'s, S: Search> {
    search: &'s S,
    hyde: RefCell<Vec<(String, String)>>,
}

impl<'s, S: Search> Recorder<'s, S> {
    pub fn new(search: &'s S) -> Self {
        Recorder { search, hyde: RefCell::new(vec![]) }
    }

    /// The HyDE passage the run searched with for `query`, if it did (the first one).
    pub fn hyde_passage(&self, query: &str) -> Option<String> {
        self.hyde.borrow().iter().find(|(q, _)| q == query).map(|(_, p)| p.clone())
    }

    /// The run's RAGAS contexts for `question` (see the module doc), after the run.
    pub async fn contexts(&self, question: &str, settings: &Settings, k: usize) -> Result<Vec<Hit>, String> {
        if let Some(hits) = crate::pipeline::single_pass_retrieval(question, settings, self.search, k).await? {
            return Ok(hits);
        }
        if settings.ablations.hyde {
            // A HyDE call that failed left the run on the plain search (`Ctx::retrieve`): so do we.
            if let Some(p) = self.hyde_passage(question) {
                return self.search.search_hyde(question, &p, k, None).await;
            }
        }
        self.search.search(question, k, None).await
    }
}

impl<S: Search> Search for Recorder<'_, S> {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search.search(query, k, modality).await
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.hyde.borrow_mut().push((query.to_string(), passage.to_string()));
        self.search.search_hyde(query, passage, k, modality).await
    }
    fn entity_graph(&self) -> Option<&EntityGraph> {
        self.search.entity_graph()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Doc;
    use crate::llm::{HttpReply, LlmClient, Transport, TransportError};
    use futures::executor::block_on;
    use serde_json::{json, Value};

    /// A model that writes a HyDE passage and fails every other call (the runs' outcome does not
    /// matter here, only what was searched).
    struct HydeOnly;
    const PASSAGE: &str = "Net sales grew to $32.8 billion in 2018 on organic growth.";
    impl Transport for HydeOnly {
        async fn post_json(&self, _: &str, body: String, _: u64) -> Result<HttpReply, TransportError> {
            let v: Value = serde_json::from_str(&body).unwrap_or_default();
            if v["response_format"]["json_schema"]["name"] == "hyde" {
                let content = json!({"passage": PASSAGE}).to_string();
                let body = json!({"model": "m", "choices": [{"message": {"content": content}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}});
                return Ok(HttpReply { status: 200, retry_after_s: None, body: body.to_string() });
            }
            Ok(HttpReply { status: 400, retry_after_s: None, body: r#"{"error":{"message":"scripted"}}"#.into() })
        }
        async fn sleep_ms(&self, _: u64) {}
    }

    /// An index whose HyDE search (with this test's passage) finds other pages than its plain search.
    struct Split;
    fn hits(pages: &[u32], k: usize) -> Vec<Hit> {
        pages.iter().take(k).map(|&p| Hit { doc: Doc::bare(&format!("d-p{p}"), "R.pdf", p, Modality::Text, &format!("page {p}")), score: 0.5 }).collect()
    }
    impl Search for Split {
        async fn search(&self, _: &str, k: usize, _: Option<Modality>) -> Result<Vec<Hit>, String> {
            Ok(hits(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], k))
        }
        async fn search_hyde(&self, _: &str, passage: &str, k: usize, _: Option<Modality>) -> Result<Vec<Hit>, String> {
            assert_eq!(passage, PASSAGE, "searched with the run's own passage");
            Ok(hits(&[40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51], k))
        }
    }

    fn contexts_of(config: &str) -> Vec<u32> {
        let s = crate::eval::named(&Settings::paper(), config).expect("a named configuration");
        let client = LlmClient::new(&HydeOnly, &s);
        let rec = Recorder::new(&Split);
        let q = "What were 3M's net sales in 2018?";
        let _ = block_on(crate::pipeline::run(q, &s, &client, &rec, &mut |_| {}));
        block_on(rec.contexts(q, &s, 8)).expect("contexts").iter().map(|h| h.doc.page).collect()
    }

    #[test]
    fn hyde_row_contexts_are_the_passages_its_hypothetical_passage_retrieved() {
        assert_eq!(contexts_of("hyde"), vec![40, 41, 42, 43, 44, 45, 46, 47], "HyDE's retrieval at k, not the plain search");
    }

    #[test]
    fn rows_without_hyde_take_the_plain_search_for_the_question() {
        for config in ["full", "vanilla_rag", "no_arc"] {
            assert_eq!(contexts_of(config), vec![1, 2, 3, 4, 5, 6, 7, 8], "{config}");
        }
    }

    #[test]
    fn a_failed_hyde_call_leaves_the_contexts_on_the_plain_search_as_it_left_the_run() {
        let s = crate::eval::named(&Settings::paper(), "hyde").unwrap();
        let rec = Recorder::new(&Split);
        // No search_hyde happened (the HyDE call failed): the run searched plainly, so do the contexts.
        let pages: Vec<u32> = block_on(rec.contexts("q", &s, 3)).unwrap().iter().map(|h| h.doc.page).collect();
        assert_eq!(pages, vec![1, 2, 3]);
    }
}
