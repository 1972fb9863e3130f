//! One question, scored: the four-way outcome (Correct / Partial / Incorrect / Abstained), the
//! claim-level facts the aggregates need, retrieval pages, cost and latency (spec §8.4–8.5).
//!
//! An abstained answer is `Abstained` **without** a judge call (spec §8.5); every other answer is
//! graded by the `correctness_judge` role against the gold answer. A judge call that fails resolves
//! to the role's conservative default (`incorrect`) and the failure is kept in `judge_failure`.
//!
//! Faithfulness is measured per published claim (paper Table 3: "share of published claims passing
//! citation-entailment verification") by the harness's own judge, the `faithfulness_judge` role:
//! every published claim of every configuration — audited or not — is checked against the evidence
//! its answer line cites, with the same prompt, so the number means the same thing everywhere and
//! never counts the pipeline's own gate as its check. The judge runs on the evaluation's endpoint
//! and model, which may differ from the system under test (the paper judged with GPT-4.1 mini, a
//! different model than the GPT-4o backbone, App. A.1). The pipeline's own audit pass rate is kept
//! apart (`ClaimOutcome::audit_passed`).
//!
//! A run that ended `Failed` (model calls failed and decided every claim, issue 38 item 5) is no
//! outcome at all: it is recorded as a failed run, counted apart and run again on resume.

use crate::agents::judge::VerdictLabel;
use crate::config::ClaimType;
use crate::eval::dataset::Item;
use crate::export::{RunExport, RunMode, RunOutcome, Totals};
use crate::llm::roles::{CorrectnessLabel, CorrectnessOut, FaithfulnessLabel, FaithfulnessOut};
use crate::llm::{LlmClient, Transport};
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
    /// The pipeline's own terminal audit passed (its column, apart from faithfulness).
    pub audit_passed: bool,
    /// Published claims only: the faithfulness judge found the claim supported by the evidence it
    /// cites. None when unpublished, or when the judge's call failed (unmeasured, not unfaithful).
    #[serde(default)]
    pub faithful: Option<bool>,
    /// The judge's reason, or why the claim could not be judged.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub faithfulness_rationale: String,
    /// The claim went unpublished because a model call failed, not on the evidence.
    #[serde(default)]
    pub decided_by_failure: bool,
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
    /// The configuration had the w/o-ARC ablation on (debate utilization is undefined then).
    #[serde(default)]
    pub arc_ablated: bool,
    /// The configuration had no terminal audit (w/o terminal audit; audit pass rate undefined).
    #[serde(default)]
    pub audit_ablated: bool,
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
    /// Model calls of the evaluation (correctness judge, faithfulness judge).
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
        arc_ablated: false,
        audit_ablated: false,
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

/// System prompt of the faithfulness judge (paper Table 3, Faith. Rate). Evaluation only.
pub const FAITHFULNESS_JUDGE: &str = "\
You check one published claim of a financial answer against the evidence it cites, nothing else.
- supported: every figure, period, entity and causal statement in the claim is stated in, or follows
  directly from, the cited evidence (units and scale may differ: 1.2 billion = 1,200 million).
- not_supported: the claim states something the cited evidence does not give, gives differently, or
  only suggests (a rough chart reading stated as an exact figure counts as not supported).
Do not use outside knowledge. Return JSON: {\"label\": \"supported\" | \"not_supported\", \"rationale\": one sentence}.";

/// The faithfulness judge's user message.
pub fn faithfulness_message(evidence: &str, claim: &str) -> String {
    format!("CITED EVIDENCE:\n{evidence}\n\nPUBLISHED CLAIM:\n{claim}")
}

/// Score one run: outcome (correctness judge unless abstained), every published claim judged for
/// faithfulness against the evidence it cites (the same check in every configuration), docket
/// counts, cited pages, run cost. `judge` is a fresh client on the evaluation's endpoint and model
/// (its records become `eval_totals`). A failed run becomes a failed result (no outcome).
/// Retrieved pages and latency come from the shell.
pub async fn score<T: Transport>(config: &str, item: &Item, run: &RunExport, judge: &LlmClient<'_, T>) -> QuestionResult {
    let mut r = blank(config, item);
    r.answer = run.answer.text.clone();
    r.run_id = run.run_id.clone();
    r.mode = run.mode;
    r.aea_ablated = run.settings.ablations.no_aea;
    r.arc_ablated = run.settings.ablations.no_arc;
    r.audit_ablated = run.settings.ablations.no_terminal_audit;
    r.run_totals = run.totals.clone();
    r.docket_decisions = run.docket_summary.decisions;
    r.docket_changed = run.docket_summary.changed_outcome;
    let mut pages: Vec<u32> = run.answer.lines.iter().filter(|l| l.published).flat_map(|l| l.citations.iter().map(|c| c.page)).collect();
    pages.sort_unstable();
    pages.dedup();
    r.cited_pages = pages;

    if run.outcome == RunOutcome::Failed {
        let why = run.failure.as_ref().map(|f| f.message.clone()).unwrap_or_else(|| "model calls failed".into());
        r.error = Some(why);
        r.judge_rationale = "failed run: no judge call".into();
        return r;
    }
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

    for c in &run.claims {
        let (faithful, why) = if c.published { judge_faithfulness(run, &c.claim_id, &c.answer_fragment, judge).await } else { (None, String::new()) };
        r.claims.push(ClaimOutcome {
            claim_id: c.claim_id.clone(),
            claim_type: c.claim_type,
            label: c.label,
            escalated: c.escalated,
            published: c.published,
            audit_passed: c.audit_passed,
            faithful,
            faithfulness_rationale: why,
            decided_by_failure: c.failure.is_some(),
            hri: c.hri.as_ref().map(|h| h.value),
        });
    }
    r.eval_totals = Totals::of(&judge.records());
    r
}

/// The faithfulness judge on one published claim: its sentence against the ledger nodes its answer
/// line cites. A claim that cites nothing is not supported (no call); a failed call leaves the
/// claim unmeasured (None) with the reason.
async fn judge_faithfulness<T: Transport>(run: &RunExport, claim_id: &str, sentence: &str, judge: &LlmClient<'_, T>) -> (Option<bool>, String) {
    let line = run.answer.lines.iter().find(|l| l.claim_id == claim_id && l.published);
    let evidence: Vec<String> = line
        .into_iter()
        .flat_map(|l| l.citations.iter())
        .filter_map(|c| run.ledger.nodes.iter().find(|n| n.node_id == c.node_id))
        .map(|n| n.describe())
        .collect();
    let claim = if sentence.trim().is_empty() { line.map(|l| l.text.as_str()).unwrap_or("") } else { sentence };
    if evidence.is_empty() {
        return (Some(false), "the claim cites no evidence".into());
    }
    if claim.trim().is_empty() {
        return (Some(false), "the published claim is empty".into());
    }
    let o = judge.call::<FaithfulnessOut>(Some(claim_id), FAITHFULNESS_JUDGE, &faithfulness_message(&evidence.join("\n"), claim)).await;
    match o.failure {
        Some(f) => (None, format!("faithfulness judge failed: {f}")),
        None => (Some(o.value.label == FaithfulnessLabel::Supported), o.value.rationale),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;
    use crate::llm::{HttpReply, TransportError};
    use futures::executor::block_on;
    use std::cell::RefCell;

    /// A judge endpoint: correctness always `correct`; faithfulness by a scripted list of verdicts
    /// (`true` = supported), in call order; every request's role and user message is kept.
    struct Judge {
        verdicts: RefCell<Vec<bool>>,
        seen: RefCell<Vec<(String, String)>>,
    }

    impl Transport for Judge {
        async fn post_json(&self, _path: &str, body: String, _t: u64) -> Result<HttpReply, TransportError> {
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            let role = v["response_format"]["json_schema"]["name"].as_str().unwrap().to_string();
            self.seen.borrow_mut().push((role.clone(), v["messages"][1]["content"].as_str().unwrap_or("").to_string()));
            let content = match role.as_str() {
                "faithfulness_judge" => {
                    let ok = if self.verdicts.borrow().is_empty() { true } else { self.verdicts.borrow_mut().remove(0) };
                    serde_json::json!({"label": if ok { "supported" } else { "not_supported" }, "rationale": "scripted"})
                }
                _ => serde_json::json!({"label": "correct", "rationale": "scripted"}),
            };
            let body = serde_json::json!({"choices": [{"message": {"content": content.to_string()}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
            Ok(HttpReply { status: 200, retry_after_s: None, body: body.to_string() })
        }
        async fn sleep_ms(&self, _ms: u64) {}
    }

    fn item() -> Item {
        crate::eval::dataset::parse(r#"{"question": "What were net sales?", "answer": "$1.1 billion"}"#).items.remove(0)
    }

    #[test]
    fn the_harness_judges_every_published_claim_even_those_the_audit_passed() {
        // Four claims: claims 1 and 3 published, both passed the pipeline's own audit.
        let run = crate::view::fixture::run(4, 3);
        let published: Vec<&str> = run.claims.iter().filter(|c| c.published).map(|c| c.claim_id.as_str()).collect();
        assert_eq!(published.len(), 2);
        assert!(run.claims.iter().filter(|c| c.published).all(|c| c.audit_passed));
        let t = Judge { verdicts: RefCell::new(vec![true, false]), seen: RefCell::new(vec![]) };
        let s = Settings::paper();
        let judge = LlmClient::new(&t, &s);
        let r = block_on(score("full", &item(), &run, &judge));
        let faithful: Vec<Option<bool>> = r.claims.iter().filter(|c| c.published).map(|c| c.faithful).collect();
        assert_eq!(faithful, vec![Some(true), Some(false)], "the judge's verdict, not the audit's");
        assert!(r.claims.iter().filter(|c| !c.published).all(|c| c.faithful.is_none()));
        // One faithfulness call per published claim, with the evidence its line cites.
        let seen = t.seen.borrow();
        let calls: Vec<&(String, String)> = seen.iter().filter(|(role, _)| role == "faithfulness_judge").collect();
        assert_eq!(calls.len(), 2);
        assert!(calls[0].1.starts_with("CITED EVIDENCE:\n") && calls[0].1.contains("\n\nPUBLISHED CLAIM:\n"), "{}", calls[0].1);
        assert_eq!(r.eval_totals.calls, 3, "correctness + two faithfulness verdicts");
    }

    #[test]
    fn a_failed_run_is_a_failed_result_with_its_message_not_an_abstention() {
        let mut run = crate::view::fixture::run(1, 2);
        run.outcome = RunOutcome::Failed;
        run.answer.abstained = false;
        run.failure = Some(crate::export::RunFailure {
            message: "the model endpoint failed: 5 of 5 calls returned HTTP 500 (server error)".into(),
            failed_calls: 5,
            calls: 5,
            claims: vec!["claim-1".into()],
        });
        let t = Judge { verdicts: RefCell::new(vec![]), seen: RefCell::new(vec![]) };
        let s = Settings::paper();
        let r = block_on(score("full", &item(), &run, &LlmClient::new(&t, &s)));
        assert_eq!(r.outcome, None);
        assert_eq!(r.error.as_deref(), Some("the model endpoint failed: 5 of 5 calls returned HTTP 500 (server error)"));
        assert!(t.seen.borrow().is_empty(), "no judge call for a failed run");
    }
}
