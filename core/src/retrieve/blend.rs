//! The blended rerank of spec §5 step 2–3: over a dense candidate pool (4k, best first),
//! score = dense_weight · 1/(1+d) + lexical_weight · ℓ, stable sort descending, top k —
//! optionally at most `max_hits_per_page` per page (`cap_per_group`), filled from the same pool.

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
    let mut scored = blend_all(pool, query_text, s);
    scored.truncate(k);
    scored
}

/// The whole pool, blended and sorted best first (ties keep search order).
pub fn blend_all<'t, C: Copy>(
    pool: impl IntoIterator<Item = (C, f32, &'t str)>,
    query_text: &str,
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
    scored
}

/// The first `k` of a ranked list taking at most `cap` items per group (`cap` 0 = no limit), in
/// rank order: a capped item's place goes to the next-best item of another group. When the list
/// runs out, the list is shorter than `k` rather than padded with capped items.
pub fn cap_per_group<C: Copy, G: PartialEq>(ranked: &[(C, f64)], k: usize, cap: usize, group: impl Fn(C) -> G) -> Vec<(C, f64)> {
    if cap == 0 {
        return ranked.iter().take(k).copied().collect();
    }
    let mut out: Vec<(C, f64)> = Vec::with_capacity(k);
    let mut groups: Vec<(G, usize)> = vec![];
    for &(c, score) in ranked {
        if out.len() == k {
            break;
        }
        let g = group(c);
        match groups.iter_mut().find(|(h, _)| *h == g) {
            Some((_, n)) if *n >= cap => continue,
            Some((_, n)) => *n += 1,
            None => groups.push((g, 1)),
        }
        out.push((c, score));
    }
    out
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

    #[test]
    fn page_cap_gives_capped_places_to_the_next_best_other_page() {
        // (doc, score) best first; pages by doc: 0,1,2 on page 7, 3 on page 9, 4 on page 7, 5 on page 2.
        let page = |d: usize| [7, 7, 7, 9, 7, 2][d];
        let ranked: Vec<(usize, f64)> = (0..6).map(|d| (d, 1.0 - d as f64 / 10.0)).collect();
        let ids = |v: Vec<(usize, f64)>| v.into_iter().map(|x| x.0).collect::<Vec<_>>();
        assert_eq!(ids(cap_per_group(&ranked, 4, 2, page)), [0, 1, 3, 5]);
        assert_eq!(ids(cap_per_group(&ranked, 4, 0, page)), [0, 1, 2, 3], "0 = the reference's plain top k");
        assert_eq!(ids(cap_per_group(&ranked, 9, 1, page)), [0, 3, 5], "never padded with capped items");
    }
}
