//! One question, scored: the four-way outcome (Correct / Partial / Incorrect / Abstained), the
//! claim-level facts the aggregates need, retrieval pages, cost and latency (spec §8.4–8.5).
//!
//! An abstained answer is `Abstained` **without** a judge call (spec §8.5); every other answer is
//! graded by the `correctness_judge` role against the gold answer. A judge call that fails resolves
//! to the role's conservative default (`incorrect`) and the failure is kept in `judge_failure`.
//!
//! Faithfulness is measured per published claim (paper Table 3: "share of published claims passing
//! citation-entailment verification"). A claim audited by the pipeline carries its terminal
//! entailment; a claim published *without* one (w/o terminal audit, vanilla RAG) is checked here,
//! with the same entailment role and bar, against the evidence it cites. So the number means the
//! same thing in every configuration, and the ablations do not get a free pass.

use crate::agents::entailment;
use crate::agents::judge::VerdictLabel;
use crate::config::ClaimType;
use crate::eval::dataset::Item;
use crate::export::{RunExport, RunMode, Totals};
use crate::llm::roles::{CorrectnessLabel, CorrectnessOut, EntailmentLabel, EntailmentOut};
use crate::llm::{LlmClient, Transport};
use crate::prompts;
use serde::{Deserialize, Serialize};

/// The four-way answer outcome (paper Table 7 row 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Correct,
    Partial,
    Incorrect,
    Abstained,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [Outcome::Correct, Outcome::Partial, Outcome::Incorrect, Outcome::Abstained];
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Correct => "correct",
            Outcome::Partial => "partial",
            Outcome::Incorrect => "incorrect",
            Outcome::Abstained => "abstained",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Outcome::Correct => "Correct",
            Outcome::Partial => "Partial",
            Outcome::Incorrect => "Incorrect",
            Outcome::Abstained => "Abstained",
        }
    }
}

/// What the aggregates need to know about one claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimOutcome {
    pub claim_id: String,
    pub claim_type: ClaimType,
    pub label: VerdictLabel,
    /// Routed through the debate (A(c) below the fast-path bar).
    pub escalated: bool,
    pub published: bool,
    pub audit_passed: bool,
    /// Published claims only: did the sentence pass citation entailment (terminal audit, or the
    /// harness's own check when the run published it unaudited)? None when unpublished or when the
    /// harness's check could not be made.
    pub entailed: Option<bool>,
    /// True when `entailed` comes from the harness's own check, not the pipeline's audit.
    #[serde(default)]
    pub entailment_by_harness: bool,
    pub hri: Option<f64>,
}

/// One question under one configuration: a line of `results.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionResult {
    pub config: String,
    pub item_id: String,
    pub question: String,
    pub gold_answer: String,
    #[serde(default)]
    pub doc: Option<String>,
    #[serde(default)]
    pub query_type: Option<String>,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    /// One-based gold evidence pages.
    #[serde(default)]
    pub gold_pages: Vec<u32>,
    /// None when the run itself failed (see `error`); such questions are counted apart.
    pub outcome: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default)]
    pub judge_rationale: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_failure: Option<String>,
    #[serde(default)]
    pub answer: String,
    #[serde(default)]
    pub run_id: String,
    #[serde(default = "default_mode")]
    pub mode: RunMode,
    /// The configuration had the w/o-AEA ablation on (AEA impact is undefined then).
    #[serde(default)]
    pub aea_ablated: bool,
    #[serde(default)]
    pub claims: Vec<ClaimOutcome>,
    /// Authority Docket decisions and how many the asymmetric weights changed (spec §2.10).
    #[serde(default)]
    pub docket_decisions: u32,
    #[serde(default)]
    pub docket_changed: u32,
    /// Pages of the top-k documents retrieved for the raw question, best first (spec §8.2).
    #[serde(default)]
    pub retrieved_pages: Vec<u32>,
    /// Pages the published answer cites.
    #[serde(default)]
    pub cited_pages: Vec<u32>,
    /// Model calls of the run itself.
    #[serde(default)]
    pub run_totals: Totals,
    /// Model calls of the evaluation (correctness judge, harness entailment checks).
    #[serde(default)]
    pub eval_totals: Totals,
    /// Wall time of the run (pipeline only), measured by the shell.
    #[serde(default)]
    pub latency_ms: f64,
    /// RAGAS's four scores (paper Table 2; `eval::ragas`), when the shell scored them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ragas: Option<crate::eval::ragas::RagasScores>,
}

fn default_mode() -> RunMode {
    RunMode::ClairFin
}

impl QuestionResult {
    /// Max HRI over the question's audited, published claims (spec §8.5 `max_hri`).
    pub fn max_hri(&self) -> Option<f64> {
        self.claims.iter().filter(|c| c.published).filter_map(|c| c.hri).fold(None, |m, h| Some(m.map_or(h, |m: f64| m.max(h))))
    }

    /// A result for a question whose run failed (no outcome; counted apart, retried on resume).
    pub fn failed(config: &str, item: &Item, error: String, latency_ms: f64) -> QuestionResult {
        let mut r = blank(config, item);
        r.error = Some(error);
        r.latency_ms = latency_ms;
        r
    }
}

fn blank(config: &str, item: &Item) -> QuestionResult {
    QuestionResult {
        config: config.to_string(),
        item_id: item.id.clone(),
        question: item.question.clone(),
        gold_answer: item.answer.clone(),
        doc: item.doc.clone(),
        query_type: item.query_type.clone(),
        format: item.format.clone(),
        difficulty: item.difficulty.clone(),
        gold_pages: item.evidence_pages.clone(),
        outcome: None,
        error: None,
        judge_rationale: String::new(),
        judge_failure: None,
        answer: String::new(),
        run_id: String::new(),
        mode: RunMode::ClairFin,
        aea_ablated: false,
        claims: vec![],
        docket_decisions: 0,
        docket_changed: 0,
        retrieved_pages: vec![],
        cited_pages: vec![],
        run_totals: Totals::default(),
        eval_totals: Totals::default(),
        latency_ms: 0.0,
        ragas: None,
    }
}

/// System prompt of the correctness judge (spec §8.4, in our words). Evaluation only: never used to
/// decide what the pipeline publishes.
pub const CORRECTNESS_JUDGE: &str = "\
You grade a system's answer to a financial question against a gold answer. Grade substance, not style.
- correct: every material fact of the gold answer is present and accurate; extra correct context is fine.
- partial: some but not all material facts are present, and nothing stated contradicts the gold answer.
- incorrect: the answer contradicts the gold answer, is off-topic, or fabricates a figure.
Numbers must match to the precision the gold answer gives (units and scale may differ: 1.2 billion = 1,200 million).
A multi-part gold answer with only some parts right is partial. If the gold answer says a figure is not
available and the system also says so or declines that part, that part matches.
Return JSON: {\"label\": \"correct\" | \"partial\" | \"incorrect\", \"rationale\": one sentence}.";

/// The judge's user message (sections the mock server and the prompt both rely on).
pub fn judge_message(question: &str, gold: &str, answer: &str) -> String {
    format!("QUESTION:\n{question}\n\nGOLD ANSWER:\n{gold}\n\nSYSTEM ANSWER:\n{answer}")
}

/// Score one run: outcome (judge call unless abstained), claim facts (harness entailment calls for
/// published claims the run did not audit), docket counts, cited pages, run cost. `judge` should be
/// a fresh client (its records become `eval_totals`). Retrieved pages and latency come from the shell.
pub async fn score<T: Transport>(config: &str, item: &Item, run: &RunExport, judge: &LlmClient<'_, T>) -> QuestionResult {
    let mut r = blank(config, item);
    r.answer = run.answer.text.clone();
    r.run_id = run.run_id.clone();
    r.mode = run.mode;
    r.aea_ablated = run.settings.ablations.no_aea;
    r.run_totals = run.totals.clone();
    r.docket_decisions = run.docket_summary.decisions;
    r.docket_changed = run.docket_summary.changed_outcome;
    let mut pages: Vec<u32> = run.answer.lines.iter().filter(|l| l.published).flat_map(|l| l.citations.iter().map(|c| c.page)).collect();
    pages.sort_unstable();
    pages.dedup();
    r.cited_pages = pages;

    // §8.5: abstained without a judge call.
    if run.answer.abstained {
        r.outcome = Some(Outcome::Abstained);
        r.judge_rationale = "abstained: no claim was published (no judge call)".into();
    } else {
        let o = judge.call::<CorrectnessOut>(None, CORRECTNESS_JUDGE, &judge_message(&item.question, &item.answer, &run.answer.text)).await;
        r.outcome = Some(match o.value.label {
            CorrectnessLabel::Correct => Outcome::Correct,
            CorrectnessLabel::Partial => Outcome::Partial,
            CorrectnessLabel::Incorrect => Outcome::Incorrect,
        });
        r.judge_rationale = o.value.rationale;
        r.judge_failure = o.failure;
    }

    let bar = run.settings.pipeline.entailment_threshold;
    for c in &run.claims {
        let (entailed, by_harness) = if !c.published {
            (None, false)
        } else if let Some(e) = &c.terminal_entailment {
            (Some(c.audit_passed && e.passes(bar)), false)
        } else {
            (harness_entailment(run, &c.claim_id, &c.answer_fragment, bar, judge).await, true)
        };
        r.claims.push(ClaimOutcome {
            claim_id: c.claim_id.clone(),
            claim_type: c.claim_type,
            label: c.label,
            escalated: c.escalated,
            published: c.published,
            audit_passed: c.audit_passed,
            entailed,
            entailment_by_harness: by_harness,
            hri: c.hri.as_ref().map(|h| h.value),
        });
    }
    r.eval_totals = Totals::of(&judge.records());
    r
}

/// Entailment of a published sentence against the evidence its answer line cites. A sentence that
/// cites nothing cannot pass; a failed call leaves the claim unmeasured (None).
async fn harness_entailment<T: Transport>(run: &RunExport, claim_id: &str, sentence: &str, bar: f64, client: &LlmClient<'_, T>) -> Option<bool> {
    let line = run.answer.lines.iter().find(|l| l.claim_id == claim_id && l.published);
    let premise: Vec<String> = line
        .into_iter()
        .flat_map(|l| l.citations.iter())
        .filter_map(|c| run.ledger.nodes.iter().find(|n| n.node_id == c.node_id))
        .map(|n| n.describe())
        .collect();
    let hypothesis = if sentence.trim().is_empty() { line.map(|l| l.text.as_str()).unwrap_or("") } else { sentence };
    if premise.is_empty() || hypothesis.trim().is_empty() {
        return Some(false);
    }
    let o = client.call::<EntailmentOut>(Some(claim_id), prompts::ENTAILMENT, &entailment::user_message(&premise.join("\n"), hypothesis)).await;
    if o.failure.is_some() {
        return None;
    }
    Some(o.value.label == EntailmentLabel::Entails && o.value.confidence >= bar)
}
