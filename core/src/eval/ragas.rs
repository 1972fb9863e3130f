//! RAGAS's four scores (paper Table 2; Es et al. 2024), as the `ragas` package 0.4.3 defines them
//! (`ragas/metrics/_faithfulness.py`, `_answer_relevance.py`, `_context_precision.py`,
//! `_context_recall.py`), with our own judge roles and prompts in our words:
//!
//! - **faithfulness** = statements of the answer the retrieved contexts support / statements
//!   (`ragas_statements` splits the answer, `ragas_faithfulness` judges each against the contexts);
//! - **answer relevancy** = mean cosine similarity between the question and N questions generated
//!   from the answer (`ragas_answer_relevancy`, N = `ragas.relevancy_questions`), times 0 when every
//!   generation calls the answer noncommittal; embeddings are the run's embedder;
//! - **context precision** = Σₖ precision@k · vₖ / Σₖ vₖ over the retrieved contexts in rank order,
//!   vₖ ∈ {0,1} the `ragas_context_precision` verdict "was this context useful for the reference";
//! - **context recall** = statements of the gold answer attributable to the contexts / statements
//!   (`ragas_context_recall`).
//!
//! Inputs are the reference harness's (spec §8.2–8.3): the question, the answer cleaned of citation
//! markers and abstention sentences (`clean_answer`), the top-k documents the configuration's own
//! retrieval finds for the raw question (`eval::contexts`), and the gold answer. A judge call that fails leaves its score undefined (`None`,
//! written `–`), never 1.0; the failure is kept in `RagasScores::failures`.

use crate::llm::roles::{RagasAnswerRelevancyOut, RagasContextPrecisionOut, RagasContextRecallOut, RagasFaithfulnessOut, RagasStatementsOut};
use crate::llm::{LlmClient, Transport};
use crate::retrieve::embed::{ApiEmbedder, Embedder, OfflineEmbedder};
use serde::{Deserialize, Serialize};

/// One question's RAGAS scores (a field of `QuestionResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RagasScores {
    pub faithfulness: Option<f64>,
    pub answer_relevancy: Option<f64>,
    pub context_precision: Option<f64>,
    pub context_recall: Option<f64>,
    /// Statements the answer was split into (faithfulness's denominator).
    pub statements: usize,
    /// Retrieved contexts judged.
    pub contexts: usize,
    /// The embedder behind answer relevancy (`offline:…` or `api:<model>:<dims>`).
    pub embedder: String,
    /// Judge or embedding failures, one line each; the score they feed is `None`.
    pub failures: Vec<String>,
}

/// Means over the questions that have each score (the reference's column means, which skip NaN).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RagasAggregate {
    /// Questions with RAGAS scores at all.
    pub n: usize,
    pub faithfulness: Option<f64>,
    pub answer_relevancy: Option<f64>,
    pub context_precision: Option<f64>,
    pub context_recall: Option<f64>,
}

/// Mean of the defined values; undefined when there is none.
fn mean(vs: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = vs.flatten().filter(|x| x.is_finite()).collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

pub fn aggregate<'a>(scores: impl Iterator<Item = &'a RagasScores> + Clone) -> RagasAggregate {
    RagasAggregate {
        n: scores.clone().count(),
        faithfulness: mean(scores.clone().map(|s| s.faithfulness)),
        answer_relevancy: mean(scores.clone().map(|s| s.answer_relevancy)),
        context_precision: mean(scores.clone().map(|s| s.context_precision)),
        context_recall: mean(scores.map(|s| s.context_recall)),
    }
}

// ---- The formulas, pure. ----

/// Faithfulness: supported statements / statements judged. A verdict missing for a statement counts
/// as unsupported (ragas divides by the verdicts returned; we divide by the statements sent).
pub fn faithfulness(statements: usize, verdicts: &[u8]) -> Option<f64> {
    if statements == 0 {
        return None;
    }
    let supported = verdicts.iter().take(statements).filter(|v| **v == 1).count();
    Some(supported as f64 / statements as f64)
}

/// Cosine similarity; 0 for a zero vector.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let na: f64 = a.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// Answer relevancy: mean cosine(question, generated question) × (0 if every generation was
/// noncommittal). Undefined when no question was generated (ragas: all generated questions empty).
/// A cosine below 0 counts as 0, an unrelated question: the offline embedder hashes features with
/// a sign, so unrelated texts can score slightly below 0, where a neural embedder's stay above it,
/// and the score stays in [0, 1] as RAGAS reports it.
pub fn answer_relevancy(question: &[f32], generated: &[Vec<f32>], noncommittal: &[bool]) -> Option<f64> {
    if generated.is_empty() {
        return None;
    }
    let m = generated.iter().map(|g| cosine(question, g).max(0.0)).sum::<f64>() / generated.len() as f64;
    let all_noncommittal = !noncommittal.is_empty() && noncommittal.iter().all(|n| *n);
    Some(if all_noncommittal { 0.0 } else { m })
}

/// Average precision of relevance verdicts in rank order: Σₖ (Σ_{j≤k} vⱼ / k) · vₖ / Σₖ vₖ; 0 when no
/// context is relevant (ragas adds 1e-10 to the denominator, which gives the same 0), undefined
/// without contexts.
pub fn average_precision(verdicts: &[u8]) -> Option<f64> {
    if verdicts.is_empty() {
        return None;
    }
    let relevant = verdicts.iter().filter(|v| **v == 1).count();
    if relevant == 0 {
        return Some(0.0);
    }
    let mut hits = 0usize;
    let mut num = 0.0;
    for (i, v) in verdicts.iter().enumerate() {
        if *v == 1 {
            hits += 1;
            num += hits as f64 / (i + 1) as f64;
        }
    }
    Some(num / relevant as f64)
}

/// Context recall: attributed statements of the reference / its statements; undefined for none.
pub fn context_recall(attributed: &[u8]) -> Option<f64> {
    if attributed.is_empty() {
        return None;
    }
    Some(attributed.iter().filter(|a| **a == 1).count() as f64 / attributed.len() as f64)
}

/// The answer as RAGAS sees it (spec §8.3): citation markers `[<file>.pdf, p.<n>]` removed, every
/// sentence that abstains (contains "insufficient" and later "evidence", or the all-abstained line)
/// removed, whitespace collapsed. The reference did this because answer relevancy hard-zeroes an
/// answer whose generated questions are all noncommittal.
pub fn clean_answer(answer: &str) -> String {
    let mut s = String::with_capacity(answer.len());
    let mut rest = answer;
    while let Some(open) = rest.find('[') {
        let after = &rest[open..];
        match after.find(']') {
            Some(close) if is_citation(&after[1..close]) => {
                let next = &after[close + 1..];
                // "… in 2018 [x.pdf, p.60]." → "… in 2018." (no space left before the full stop).
                if next.starts_with(['.', ',', ';', ':', '!', '?']) {
                    s.push_str(rest[..open].trim_end());
                } else {
                    s.push_str(&rest[..open]);
                }
                rest = next;
            }
            _ => {
                s.push_str(&rest[..open + 1]);
                rest = &rest[open + 1..];
            }
        }
    }
    s.push_str(rest);
    let kept: Vec<String> = split_sentences(&s)
        .into_iter()
        .filter(|sentence| {
            let low = sentence.to_lowercase();
            let abstains = low.find("insufficient").is_some_and(|i| low[i..].contains("evidence"));
            !abstains && !sentence.contains(crate::agents::synthesizer::ALL_ABSTAINED.trim_end_matches('.'))
        })
        .collect();
    kept.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `<something>.pdf, p.<digits>`.
fn is_citation(inner: &str) -> bool {
    let Some((file, page)) = inner.rsplit_once(", p.") else { return false };
    file.to_lowercase().ends_with(".pdf") && !page.is_empty() && page.chars().all(|c| c.is_ascii_digit())
}

/// Sentences end at `.`, `!` or `?` followed by whitespace, or at a line break; a decimal point
/// ("3.5") does not end one.
fn split_sentences(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == '\n' {
            out.push(std::mem::take(&mut cur));
            continue;
        }
        cur.push(*c);
        if matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace()) {
            out.push(std::mem::take(&mut cur));
        }
    }
    out.push(cur);
    out.into_iter().map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()
}

// ---- The judge prompts (ragas 0.4.3's instructions, in our words; evaluation only). ----

pub const STATEMENTS: &str = "\
Given a question and an answer, break every sentence of the answer down into one or more fully
understandable statements. Each statement stands on its own: no pronouns, the subject named.
Keep figures, units and periods exactly as written. Return JSON: {\"statements\": [string, ...]}.";

pub const FAITHFULNESS: &str = "\
Judge the faithfulness of each statement to the given context. For every statement return verdict 1
if it can be directly inferred from the context and 0 if it cannot, with a one-sentence reason. Keep the
statements in the order given. Return JSON: {\"verdicts\": [{\"statement\", \"reason\", \"verdict\": 0|1}, ...]}.";

pub const ANSWER_RELEVANCY: &str = "\
Write the question that the given answer answers, and say whether the answer is noncommittal:
noncommittal 1 if it is evasive, vague or ambiguous (\"I don't know\", \"I'm not sure\"), 0 if it commits
to an answer. Return JSON: {\"question\": string, \"noncommittal\": 0|1}.";

pub const CONTEXT_PRECISION: &str = "\
Given a question, a reference answer and one context, verify whether the context was useful in arriving
at the reference answer. Verdict 1 if useful, 0 if not, with a one-sentence reason.
Return JSON: {\"reason\": string, \"verdict\": 0|1}.";

pub const CONTEXT_RECALL: &str = "\
Given a context and a reference answer, take each sentence of the reference answer and classify whether
it can be attributed to the context (1) or not (0), with a one-sentence reason.
Return JSON: {\"classifications\": [{\"statement\", \"reason\", \"attributed\": 0|1}, ...]}.";

pub fn statements_message(question: &str, answer: &str) -> String {
    format!("QUESTION: {question}\n\nANSWER:\n{answer}")
}
pub fn faithfulness_message(contexts: &[String], statements: &[String]) -> String {
    let list: Vec<String> = statements.iter().map(|s| format!("- {s}")).collect();
    format!("CONTEXT:\n{}\n\nSTATEMENTS:\n{}", contexts.join("\n"), list.join("\n"))
}
pub fn relevancy_message(answer: &str) -> String {
    format!("ANSWER:\n{answer}")
}
pub fn precision_message(question: &str, context: &str, reference: &str) -> String {
    format!("QUESTION: {question}\n\nCONTEXT:\n{context}\n\nREFERENCE:\n{reference}")
}
pub fn recall_message(question: &str, contexts: &[String], reference: &str) -> String {
    format!("QUESTION: {question}\n\nCONTEXT:\n{}\n\nREFERENCE:\n{reference}", contexts.join("\n"))
}

// ---- The run's embedder (issue 38 item 7). ----

/// Embeds texts for answer relevancy: the offline embedder, or the API model the run is configured
/// with (the paper used text-embedding-3-large).
#[allow(async_fn_in_trait)]
pub trait TextEmbedder: Embedder {
    async fn embed_texts(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String>;
}

impl TextEmbedder for OfflineEmbedder {
    async fn embed_texts(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        Ok(self.embed_batch(texts))
    }
}

impl<T: Transport> TextEmbedder for ApiEmbedder<'_, '_, T> {
    async fn embed_texts(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        self.embed_batch(texts).await
    }
}

/// What one question's RAGAS scoring needs.
pub struct RagasInput<'a> {
    pub question: &'a str,
    /// The published answer as the run wrote it (cleaned here).
    pub answer: &'a str,
    /// Texts of the top-k documents retrieved for the raw question, best first.
    pub contexts: &'a [String],
    pub reference: &'a str,
}

/// Score one question. `relevancy_questions` is ragas's `strictness` (3). An answer that is empty
/// once cleaned (an abstention) has no faithfulness or relevancy (no call is made); context
/// precision and recall depend on retrieval only and are still scored.
pub async fn score<T: Transport, E: TextEmbedder>(input: &RagasInput<'_>, client: &LlmClient<'_, T>, embedder: &E, relevancy_questions: usize) -> RagasScores {
    let mut out = RagasScores { contexts: input.contexts.len(), embedder: embedder.name(), ..Default::default() };
    let answer = clean_answer(input.answer);
    let fail = |out: &mut RagasScores, what: &str, f: String| out.failures.push(format!("{what}: {f}"));

    if !answer.is_empty() {
        // Faithfulness: statements, then one verdict per statement against all contexts.
        let st = client.call::<RagasStatementsOut>(None, STATEMENTS, &statements_message(input.question, &answer)).await;
        if let Some(f) = st.failure {
            fail(&mut out, "ragas_statements", f);
        } else {
            let statements: Vec<String> = st.value.statements.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            out.statements = statements.len();
            if !statements.is_empty() && !input.contexts.is_empty() {
                let v = client.call::<RagasFaithfulnessOut>(None, FAITHFULNESS, &faithfulness_message(input.contexts, &statements)).await;
                match v.failure {
                    Some(f) => fail(&mut out, "ragas_faithfulness", f),
                    None => out.faithfulness = faithfulness(statements.len(), &v.value.verdicts.iter().map(|x| x.verdict).collect::<Vec<_>>()),
                }
            } else if !statements.is_empty() {
                // No context supports anything.
                out.faithfulness = faithfulness(statements.len(), &[]);
            }
        }

        // Answer relevancy: N generated questions, embedded with the run's embedder.
        let mut generated = vec![];
        let mut noncommittal = vec![];
        for _ in 0..relevancy_questions.max(1) {
            let g = client.call::<RagasAnswerRelevancyOut>(None, ANSWER_RELEVANCY, &relevancy_message(&answer)).await;
            match g.failure {
                Some(f) => fail(&mut out, "ragas_answer_relevancy", f),
                None => {
                    noncommittal.push(g.value.noncommittal == 1);
                    generated.push(g.value.question);
                }
            }
        }
        // ragas: all generated questions empty → undefined; a failed generation is left out.
        if generated.iter().any(|q| !q.trim().is_empty()) {
            let mut texts = vec![input.question.to_string()];
            texts.extend(generated.iter().cloned());
            match embedder.embed_texts(&texts).await {
                Ok(v) if v.len() == texts.len() => out.answer_relevancy = answer_relevancy(&v[0], &v[1..], &noncommittal),
                Ok(v) => fail(&mut out, "embeddings", format!("{} vectors for {} texts", v.len(), texts.len())),
                Err(e) => fail(&mut out, "embeddings", e),
            }
        }
    }

    // Context precision: one verdict per context, in rank order; any failed verdict leaves the
    // average precision undefined (a missing verdict would shift every later rank).
    if !input.contexts.is_empty() {
        let mut verdicts = vec![];
        for c in input.contexts {
            let v = client.call::<RagasContextPrecisionOut>(None, CONTEXT_PRECISION, &precision_message(input.question, c, input.reference)).await;
            match v.failure {
                Some(f) => {
                    fail(&mut out, "ragas_context_precision", f);
                    verdicts.clear();
                    break;
                }
                None => verdicts.push(v.value.verdict),
            }
        }
        out.context_precision = average_precision(&verdicts);
    }

    // Context recall: the reference's statements attributed to the contexts.
    if !input.reference.trim().is_empty() {
        let r = client.call::<RagasContextRecallOut>(None, CONTEXT_RECALL, &recall_message(input.question, input.contexts, input.reference)).await;
        match r.failure {
            Some(f) => fail(&mut out, "ragas_context_recall", f),
            None => out.context_recall = context_recall(&r.value.classifications.iter().map(|c| c.attributed).collect::<Vec<_>>()),
        }
    }
    out
}

#[cfg(test)]
mod tests;
