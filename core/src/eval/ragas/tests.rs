//! RAGAS scores: the formulas on hand-computed values, the answer cleaning of spec §8.3, and one
//! question scored end to end against a scripted judge (including the fail-closed paths).

use super::*;
use crate::config::Settings;
use crate::llm::{HttpReply, TransportError};
use futures::executor::block_on;
use serde_json::{json, Value};
use std::cell::RefCell;

#[test]
fn faithfulness_is_supported_statements_over_statements() {
    assert_eq!(faithfulness(4, &[1, 0, 1, 1]), Some(0.75));
    // A verdict the judge left out counts as unsupported: 1 of 3.
    assert_eq!(faithfulness(3, &[1]), Some(1.0 / 3.0));
    assert_eq!(faithfulness(0, &[]), None, "no statement: undefined, never 1.0");
}

#[test]
fn average_precision_rewards_relevant_contexts_ranked_first() {
    // v = 1,0,1: (1/1·1 + 2/3·1) / 2 = 0.8333…
    let ap = average_precision(&[1, 0, 1]).unwrap();
    assert!((ap - 5.0 / 6.0).abs() < 1e-12, "{ap}");
    // The same two relevant contexts ranked last: (1/2 + 2/3) / 2 = 0.58333…
    let late = average_precision(&[0, 1, 1]).unwrap();
    assert!((late - 7.0 / 12.0).abs() < 1e-12, "{late}");
    assert_eq!(average_precision(&[0, 0]), Some(0.0));
    assert_eq!(average_precision(&[1, 1, 1]), Some(1.0));
    assert_eq!(average_precision(&[]), None);
}

#[test]
fn context_recall_is_attributed_reference_statements_over_all() {
    assert_eq!(context_recall(&[1, 1, 0, 1, 0]), Some(0.6));
    assert_eq!(context_recall(&[]), None);
}

#[test]
fn answer_relevancy_is_mean_cosine_and_zero_only_when_every_generation_is_noncommittal() {
    let q = [1.0f32, 0.0];
    // cos = 1 and cos(60°) = 0.5: mean 0.75.
    let g = vec![vec![2.0f32, 0.0], vec![0.5f32, 0.75f32.sqrt()]];
    let r = answer_relevancy(&q, &g, &[false, true]).unwrap();
    assert!((r - 0.75).abs() < 1e-6, "{r}");
    assert_eq!(answer_relevancy(&q, &g, &[true, true]), Some(0.0));
    assert_eq!(answer_relevancy(&q, &[], &[]), None);
    // A question pointing away (cos = −0.6, as signed feature hashing can give unrelated texts)
    // counts as unrelated, 0, beside one at cos = 1: mean 0.5, never below 0.
    let g = vec![vec![1.0f32, 0.0], vec![-0.6f32, 0.8]];
    let r = answer_relevancy(&q, &g, &[false, false]).unwrap();
    assert!((r - 0.5).abs() < 1e-6, "{r}");
}

#[test]
fn cleaning_removes_citations_and_abstention_sentences_but_keeps_decimals() {
    let a = "Net sales were $32,765 million in 2018 [3M_2018_10K.pdf, p.60]. Growth was 3.5 percent [3M_2018_10K.pdf, p.25].\n\
             On \"capex\": there is insufficient grounded evidence to answer confidently, so the system is abstaining on this point.";
    assert_eq!(clean_answer(a), "Net sales were $32,765 million in 2018. Growth was 3.5 percent.");
    assert_eq!(clean_answer("See note [a] and [x.pdf, page 3]."), "See note [a] and [x.pdf, page 3].");
    let all = format!("{}\nOn \"x\": there is insufficient grounded evidence to answer confidently, so the system is abstaining on this point.", crate::agents::synthesizer::ALL_ABSTAINED);
    assert_eq!(clean_answer(&all), "");
}

#[test]
fn aggregate_means_skip_undefined_scores() {
    let a = RagasScores { faithfulness: Some(1.0), context_precision: Some(0.5), ..Default::default() };
    let b = RagasScores { faithfulness: Some(0.5), context_precision: None, ..Default::default() };
    let g = aggregate([a, b].iter());
    assert_eq!(g.n, 2);
    assert_eq!(g.faithfulness, Some(0.75));
    assert_eq!(g.context_precision, Some(0.5));
    assert_eq!(g.answer_relevancy, None);
}

/// A scripted judge: per role, the answer for a user message (None = HTTP 500, a failed call).
struct Judge {
    answer: Box<dyn Fn(&str, &str) -> Option<Value>>,
    log: RefCell<Vec<String>>,
}

impl Transport for Judge {
    async fn post_json(&self, path: &str, body: String, _timeout_ms: u64) -> Result<HttpReply, TransportError> {
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(path, "/chat/completions");
        let role = v["response_format"]["json_schema"]["name"].as_str().unwrap().to_string();
        let user = v["messages"][1]["content"].as_str().unwrap_or("").to_string();
        self.log.borrow_mut().push(role.clone());
        match (self.answer)(&role, &user) {
            Some(content) => Ok(HttpReply {
                status: 200,
                retry_after_s: None,
                body: json!({"model": "gpt-4o", "choices": [{"message": {"content": content.to_string()}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}).to_string(),
            }),
            // A server error: retried, then the call fails (not the whole endpoint).
            None => Ok(HttpReply { status: 500, retry_after_s: None, body: r#"{"error":{"message":"scripted failure"}}"#.into() }),
        }
    }
    async fn sleep_ms(&self, _ms: u64) {}
}

const Q: &str = "What were 3M's net sales in 2018?";

fn contexts() -> Vec<String> {
    vec!["Net sales in 2018 were $32,765 million.".into(), "The company has 93,000 employees.".into(), "Sales rose 3.5 percent in 2018.".into()]
}

fn happy(role: &str, user: &str) -> Option<Value> {
    Some(match role {
        "ragas_statements" => json!({"statements": ["3M's net sales were $32,765 million in 2018.", "3M's net sales grew 9 percent in 2018."]}),
        "ragas_faithfulness" => json!({"verdicts": [
            {"statement": "s1", "reason": "stated", "verdict": 1},
            {"statement": "s2", "reason": "the context says 3.5 percent", "verdict": 0}]}),
        "ragas_answer_relevancy" => json!({"question": Q, "noncommittal": 0}),
        // Relevant: the contexts that mention net sales or sales growth.
        "ragas_context_precision" => json!({"reason": "r", "verdict": if user.contains("employees") { 0 } else { 1 }}),
        "ragas_context_recall" => json!({"classifications": [{"statement": "g1", "reason": "r", "attributed": 1}, {"statement": "g2", "reason": "r", "attributed": 0}]}),
        other => panic!("unexpected role {other}"),
    })
}

fn run(judge: &Judge, answer: &str) -> RagasScores {
    let s = Settings::paper();
    let client = LlmClient::new(judge, &s);
    let ctx = contexts();
    let input = RagasInput { question: Q, answer, contexts: &ctx, reference: "Net sales were $32.8 billion. They were a record." };
    block_on(score(&input, &client, &OfflineEmbedder::default(), 3))
}

#[test]
fn one_question_scored_against_a_scripted_judge_gives_the_hand_computed_values() {
    let judge = Judge { answer: Box::new(happy), log: RefCell::new(vec![]) };
    let r = run(&judge, "3M's net sales were $32,765 million in 2018 [3M_2018_10K.pdf, p.60], up 9 percent.");
    assert_eq!(r.statements, 2);
    assert_eq!(r.faithfulness, Some(0.5));
    // The generated question is the question itself: cosine 1 with the offline embedder.
    let rel = r.answer_relevancy.unwrap();
    assert!((rel - 1.0).abs() < 1e-6, "{rel}");
    // Verdicts 1,0,1 → 5/6.
    assert!((r.context_precision.unwrap() - 5.0 / 6.0).abs() < 1e-12);
    assert_eq!(r.context_recall, Some(0.5));
    assert!(r.embedder.starts_with("offline"), "{}", r.embedder);
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    let log = judge.log.borrow();
    assert_eq!(log.iter().filter(|r| *r == "ragas_answer_relevancy").count(), 3, "strictness 3");
    assert_eq!(log.iter().filter(|r| *r == "ragas_context_precision").count(), 3, "one verdict per context");
}

#[test]
fn a_failed_judge_call_leaves_its_score_undefined_never_perfect() {
    let judge = Judge {
        answer: Box::new(|role: &str, user: &str| if role == "ragas_faithfulness" || role == "ragas_context_precision" || role == "ragas_context_recall" { None } else { happy(role, user) }),
        log: RefCell::new(vec![]),
    };
    let r = run(&judge, "Net sales were $32,765 million.");
    assert_eq!(r.faithfulness, None);
    assert_eq!(r.context_precision, None);
    assert_eq!(r.context_recall, None);
    assert!(r.answer_relevancy.is_some());
    assert!(r.failures.iter().any(|f| f.starts_with("ragas_faithfulness")) && r.failures.iter().any(|f| f.starts_with("ragas_context_recall")), "{:?}", r.failures);
}

#[test]
fn an_abstained_answer_makes_no_answer_calls_but_still_scores_retrieval() {
    let judge = Judge { answer: Box::new(happy), log: RefCell::new(vec![]) };
    let r = run(&judge, crate::agents::synthesizer::ALL_ABSTAINED);
    assert_eq!((r.faithfulness, r.answer_relevancy), (None, None));
    assert!(r.context_precision.is_some() && r.context_recall.is_some());
    assert!(!judge.log.borrow().iter().any(|r| r == "ragas_statements" || r == "ragas_answer_relevancy"));
}

#[test]
fn noncommittal_generations_zero_the_relevancy() {
    let judge = Judge {
        answer: Box::new(|role: &str, user: &str| if role == "ragas_answer_relevancy" { Some(json!({"question": Q, "noncommittal": 1})) } else { happy(role, user) }),
        log: RefCell::new(vec![]),
    };
    assert_eq!(run(&judge, "I am not sure about net sales.").answer_relevancy, Some(0.0));
}
