//! The lexical half of the blend (spec §5): a set of query terms, scored by overlap.
//!
//! Deliberately the reference's rule and nothing smarter — no stemming, no IDF — because the blended
//! score is the "retrieval confidence" every later phase thresholds on; changing its distribution
//! would move the paper's numbers. Smarter matching lives in the offline embedder instead.

use std::collections::BTreeSet;

/// The reference's hand-written stopword list (spec §5), 27 words.
pub const STOPWORDS: [&str; 27] = [
    "the", "a", "an", "of", "in", "on", "at", "to", "for", "and", "or", "is", "was", "were", "are", "what", "how", "which",
    "did", "does", "do", "by", "with", "as", "from", "that", "this",
];

/// Terms of a text: lowercase, maximal `[a-z0-9]+` runs, minus stopwords, minus tokens of length ≤ 2.
pub fn terms(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for_each_run(text, |t| {
        if t.len() > 2 && !STOPWORDS.contains(&t) {
            out.insert(t.to_string());
        }
    });
    out
}

/// ℓ = |Q ∩ D| / |Q| (0 when Q is empty).
pub fn lexical_score(q_terms: &BTreeSet<String>, doc_text: &str) -> f64 {
    if q_terms.is_empty() {
        return 0.0;
    }
    let d = terms(doc_text);
    let shared = q_terms.iter().filter(|t| d.contains(*t)).count();
    shared as f64 / q_terms.len() as f64
}

/// Calls `f` with each maximal run of ASCII letters/digits of the lowercased text. Non-ASCII
/// characters separate runs (the reference's regex is applied after `lower()`, and `[a-z0-9]` matches
/// no non-ASCII letter).
pub(crate) fn for_each_run(text: &str, mut f: impl FnMut(&str)) {
    let mut buf = String::new();
    for ch in text.chars() {
        let c = ch.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            buf.push(c);
        } else if !buf.is_empty() {
            f(&buf);
            buf.clear();
        }
    }
    if !buf.is_empty() {
        f(&buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_terms_drop_stopwords_and_short_tokens() {
        let t = terms("What was the FY2022 capex of 3M, in $ millions? 24 of 10.70 over a 12-month period");
        let v: Vec<&str> = t.iter().map(|s| s.as_str()).collect();
        assert_eq!(v, ["capex", "fy2022", "millions", "month", "over", "period"]);
    }

    #[test]
    fn lexical_score_is_share_of_query_terms_found() {
        let q = terms("capital expenditures 2022");
        assert!((lexical_score(&q, "Capital spending was higher in 2022") - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(lexical_score(&terms("the a of"), "anything"), 0.0);
    }
}
