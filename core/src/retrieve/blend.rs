//! The blended rerank of spec §5 step 2–3: over a dense candidate pool (4k, best first),
//! score = dense_weight · 1/(1+d) + lexical_weight · ℓ, stable sort descending, top k.

use super::lexical::{lexical_score, terms};
use crate::config::RetrievalSettings;

/// `pool`: (candidate, squared L2 distance d, candidate text) in search order. Returns
/// (candidate, blended score) best first; ties keep search order (stable sort).
pub fn blend<'t, C: Copy>(
    pool: impl IntoIterator<Item = (C, f32, &'t str)>,
    query_text: &str,
    k: usize,
    s: &RetrievalSettings,
) -> Vec<(C, f64)> {
    let q = terms(query_text);
    let mut scored: Vec<(C, f64)> = pool
        .into_iter()
        .map(|(c, d, text)| {
            let v = 1.0 / (1.0 + d.max(0.0) as f64);
            let l = lexical_score(&q, text);
            (c, s.dense_weight * v + s.lexical_weight * l)
        })
        .collect();
    // `sort_by` is stable: equal scores keep the pool's (distance) order.
    scored.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    scored.truncate(k);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_is_065_dense_plus_035_lexical_and_ties_keep_search_order() {
        let s = RetrievalSettings::default();
        let pool = vec![(0, 1.0f32, "nothing shared"), (1, 1.0, "also nothing"), (2, 0.0, "capex rose")];
        let out = blend(pool, "capex", 3, &s);
        assert_eq!(out[0].0, 2);
        assert!((out[0].1 - (0.65 * 1.0 + 0.35 * 1.0)).abs() < 1e-12);
        // 0 and 1 tie at 0.65 · 1/2: search order kept.
        assert_eq!((out[1].0, out[2].0), (0, 1));
        assert!((out[1].1 - 0.325).abs() < 1e-12);
        assert_eq!(blend(vec![(0, 0.5f32, "x")], "q", 0, &s).len(), 0);
    }
}
