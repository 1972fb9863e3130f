//! The agents of CLAIR-Fin (paper §3.3–3.9; spec §2), one file each. An agent is an async function
//! from values (+ the model client and the search index) to values; none of them touches the ledger
//! except the Ledger Guardian, and none decides routing — `pipeline` does, like Figure 2.
//!
//! Every model call goes through `LlmClient::call`, which validates the answer against the role's
//! schema and falls back to the role's conservative default; agents turn those failures into ledger
//! notes so they are visible, never silent.

pub mod adversarial;
pub mod affirmative;
pub mod custody;
pub mod entailment;
pub mod guardian;
pub mod judge;
pub mod narrative;
pub mod planner;
pub mod synthesizer;
pub mod tabular;
pub mod visual;

use crate::calc::Derived;
use crate::config::{ClaimType, Modality, Settings};
use crate::corpus::Hit;
use crate::ledger::graph::Locator;
use crate::llm::roles::{HedgeType, HydeOut};
use crate::llm::{LlmClient, Transport};
use crate::prompts;
use crate::retrieve::Search;
use serde::{Deserialize, Serialize};

/// One claim to verify (spec §1.2). Ids are `claim-<n>`, 1-based in plan order (deterministic).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimTask {
    pub claim_id: String,
    pub text: String,
    pub claim_type: ClaimType,
    /// True for the planner's fallback claim (the question itself). It always goes to debate:
    /// the paper (§3.3) warns that its CAUSE_ATTRIBUTION typing would otherwise fast-path it.
    pub fallback: bool,
}

/// An evidence item before it enters the ledger (spec §1.3).
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceItem {
    pub modality: Modality,
    pub source: String,
    pub page: u32,
    pub content: String,
    /// The retrieval score of the document the item came from (spec §1.3).
    pub confidence: f64,
    pub row_label: Option<String>,
    pub col_label: Option<String>,
    pub value: Option<String>,
    pub unit: Option<String>,
    pub hedge_type: Option<HedgeType>,
    pub locator: Locator,
    /// A table cell's footnotes (`ingest::notes::pointed_at`), as printed.
    pub notes: Vec<String>,
    /// For `tool_derived` items: the computation, whose `inputs` index this agent's item list.
    pub derived: Option<Derived>,
}

impl EvidenceItem {
    pub(crate) fn from_hit(hit: &Hit, modality: Modality, content: String) -> EvidenceItem {
        EvidenceItem {
            modality,
            source: hit.doc.source.clone(),
            page: hit.doc.page,
            content,
            confidence: hit.score,
            row_label: None,
            col_label: None,
            value: None,
            unit: None,
            hedge_type: None,
            locator: Locator {
                doc_id: hit.doc.id.clone(),
                bboxes: hit.doc.bboxes.clone(),
                page_size: hit.doc.page_size,
                table_parts: hit.doc.table.as_ref().map(|t| t.parts.clone()).unwrap_or_default(),
                section: hit.doc.section.clone(),
                page_label: hit.doc.page_label.clone(),
            },
            notes: vec![],
            derived: None,
        }
    }

    fn from_derived(d: Derived) -> EvidenceItem {
        EvidenceItem {
            modality: Modality::ToolDerived,
            source: d.source.clone(),
            page: d.page,
            content: d.sentence(),
            confidence: d.confidence,
            row_label: Some(d.metric.clone()),
            col_label: Some(format!("{}->{}", d.earlier_period, d.later_period)),
            value: Some(d.rendered.clone()),
            unit: None,
            hedge_type: None,
            locator: Locator::default(),
            notes: vec![],
            derived: Some(d),
        }
    }
}

/// What one evidence agent produced for a claim.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentEvidence {
    pub items: Vec<EvidenceItem>,
    /// Why the model's answer was replaced by the conservative default, if it was.
    pub failure: Option<String>,
    /// Items the post-filters dropped, with the reason (written to the ledger as notes).
    pub dropped: Vec<String>,
}

/// Everything an agent needs from the run.
pub struct Ctx<'a, 'c, T: Transport, S: Search> {
    pub question: &'a str,
    pub settings: &'a Settings,
    pub client: &'a LlmClient<'c, T>,
    pub search: &'a S,
}

impl<T: Transport, S: Search> Ctx<'_, '_, T, S> {
    /// Search, optionally HyDE-style (spec §8.6): with a hypothetical passage the dense part of the
    /// blend uses the passage and the lexical part the query alone (`Search::search_hyde`).
    pub async fn retrieve(&self, query: &str, k: usize, modality: Option<Modality>, hyde: Option<&str>) -> Result<Vec<Hit>, String> {
        match hyde {
            Some(p) if !p.trim().is_empty() => self.search.search_hyde(query, p, k, modality).await,
            _ => self.search.search(query, k, modality).await,
        }
    }

    /// The HyDE passage for a query, when that ablation is on (one call per claim / preview).
    pub async fn hyde_passage(&self, claim_id: Option<&str>, query: &str) -> Option<String> {
        if !self.settings.ablations.hyde {
            return None;
        }
        let o = self.client.call::<HydeOut>(claim_id, prompts::HYDE, &format!("QUESTION: {query}")).await;
        Some(o.value.passage)
    }
}

/// Evidence lines joined by newlines, or a fixed placeholder when there is none (spec §1.4).
pub fn evidence_block(lines: &[String]) -> String {
    if lines.is_empty() {
        NO_EVIDENCE.to_string()
    } else {
        lines.join("\n")
    }
}

pub const NO_EVIDENCE: &str = "(no evidence found)";

/// Treat the string "null" and blanks as no value (spec §12: the model returned "null" as a unit).
pub(crate) fn clean_opt(s: &Option<String>) -> Option<String> {
    s.as_deref().map(str::trim).filter(|t| !t.is_empty() && !t.eq_ignore_ascii_case("null") && !t.eq_ignore_ascii_case("none")).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Doc;

    /// A transport no test here reaches (retrieval makes no model call).
    struct NoModel;
    impl Transport for NoModel {
        async fn post_json(&self, _: &str, _: String, _: u64) -> Result<crate::llm::HttpReply, crate::llm::TransportError> {
            Err(crate::llm::TransportError::Network("no model in this test".into()))
        }
        async fn sleep_ms(&self, _: u64) {}
    }

    /// Records what each search was asked: (lexical query, dense text).
    #[derive(Default)]
    struct Recorder(std::cell::RefCell<Vec<(String, String)>>);
    impl Search for Recorder {
        async fn search(&self, query: &str, _: usize, _: Option<Modality>) -> Result<Vec<Hit>, String> {
            self.0.borrow_mut().push((query.into(), query.into()));
            Ok(vec![])
        }
        async fn search_hyde(&self, query: &str, passage: &str, _: usize, _: Option<Modality>) -> Result<Vec<Hit>, String> {
            self.0.borrow_mut().push((query.into(), passage.into()));
            Ok(vec![])
        }
    }

    #[test]
    fn hyde_retrieval_keeps_the_question_for_lexical_terms_and_the_passage_for_dense_search() {
        let (settings, t, search) = (Settings::paper(), NoModel, Recorder::default());
        let client = LlmClient::new(&t, &settings);
        let ctx = Ctx { question: "q", settings: &settings, client: &client, search: &search };
        let q = "What was 3M's FY2018 capex?";
        let passage = "3M spent $1,577 million on purchases of property, plant and equipment in 2018.";
        futures::executor::block_on(ctx.retrieve(q, 6, Some(Modality::Table), Some(passage))).unwrap();
        futures::executor::block_on(ctx.retrieve(q, 6, Some(Modality::Table), None)).unwrap();
        futures::executor::block_on(ctx.retrieve(q, 6, Some(Modality::Table), Some("  "))).unwrap();
        let asked = search.0.borrow().clone();
        assert_eq!(asked, vec![(q.to_string(), passage.to_string()), (q.to_string(), q.to_string()), (q.to_string(), q.to_string())]);
    }

    #[test]
    fn evidence_from_a_passage_keeps_its_section_and_printed_page() {
        let doc = Doc {
            id: "f-p36-text-c1".into(),
            source: "f.pdf".into(),
            page: 36,
            page_label: Some("34".into()),
            section: Some("Part II — Item 7. Management’s Discussion and Analysis".into()),
            section_from_headings: true,
            modality: Modality::Text,
            text: "Net sales rose 4%.".into(),
            bboxes: vec![[72.0, 90.0, 540.0, 120.0]],
            page_size: (612.0, 792.0),
            confidence: Default::default(),
            table: None,
            chart: None,
        };
        let item = EvidenceItem::from_hit(&Hit { doc, score: 0.8 }, Modality::Text, "Net sales rose 4%.".into());
        assert_eq!(item.locator.section.as_deref(), Some("Part II — Item 7. Management’s Discussion and Analysis"));
        assert_eq!(item.locator.place(36).as_deref(), Some("Part II — Item 7. Management’s Discussion and Analysis · printed p. 34"));
    }
}
