//! The Hierarchical RAG baseline of paper Table 2: rank the document's sections first, then the
//! passages within the best sections.
//!
//! A section is what the reader already finds (`Doc::section`: the outline entry, the filing's Item
//! heading, or the report's heading by type size); a document with none is cut into windows of
//! `hierarchical_window_pages` pages, as the reference's offline summaries were (spec §8.6). The
//! reference summarised each window with the model and searched the summaries; here a section is
//! ranked by its own passages in the usual blended candidate pool — the mean of its best
//! `hierarchical_section_evidence` scores — so a section counts as relevant when several of its
//! passages are, not when one stray line matches. No model call, so the baseline costs what
//! vanilla RAG costs.
//!
//! Then the passages of the best `hierarchical_sections` sections come first, in blended order, and
//! the rest of the pool fills what is left of k (the reference put all in-section candidates before
//! all others in the same way).

use super::Search;
use crate::config::RetrievalSettings;
use crate::corpus::{Doc, Hit};
use std::collections::BTreeMap;

/// The section a document belongs to: its heading, or its page window.
pub fn section_key(doc: &Doc, window_pages: u32) -> String {
    match doc.section.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => format!("{}\u{1f}{s}", doc.source),
        None => {
            let w = window_pages.max(1);
            let start = (doc.page.saturating_sub(1) / w) * w + 1;
            format!("{}\u{1f}pages {start}–{}", doc.source, start + w - 1)
        }
    }
}

/// Sections of a candidate pool, best first: (key, score).
pub fn rank_sections(pool: &[Hit], s: &RetrievalSettings) -> Vec<(String, f64)> {
    let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for h in pool {
        by.entry(section_key(&h.doc, s.hierarchical_window_pages)).or_default().push(h.score);
    }
    let n = s.hierarchical_section_evidence.max(1);
    let mut ranked: Vec<(String, f64)> = by
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(|a, b| b.total_cmp(a));
            (k, v.iter().take(n).sum::<f64>() / n as f64)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked
}

/// Passages of the best sections first, then the rest of the pool, `k` in all.
pub fn rerank(pool: Vec<Hit>, k: usize, s: &RetrievalSettings) -> Vec<Hit> {
    let best: Vec<String> = rank_sections(&pool, s).into_iter().take(s.hierarchical_sections).map(|(k, _)| k).collect();
    let (mut inside, outside): (Vec<Hit>, Vec<Hit>) = pool.into_iter().partition(|h| best.contains(&section_key(&h.doc, s.hierarchical_window_pages)));
    // The pool is in blended order already; keep it within each group (stable).
    inside.extend(outside);
    inside.truncate(k);
    inside
}

/// Hierarchical retrieval for `question`: the usual pool of `pool_factor · k` candidates, reranked.
pub async fn retrieve<S: Search>(search: &S, question: &str, k: usize, s: &RetrievalSettings) -> Result<Vec<Hit>, String> {
    let pool = search.search(question, k * s.pool_factor.max(1), None).await?;
    Ok(rerank(pool, k, s))
}

#[cfg(test)]
// Without the `pdf` feature the real-filing test is out, and with it some imports.
#[cfg_attr(not(feature = "pdf"), allow(unused_imports))]
mod tests {
    use super::*;
    use crate::config::{Modality, Settings};
    use crate::corpus::ExtractionConfidence;
    use crate::retrieve::{Corpus, Embedder, LocalSearch, OfflineEmbedder};

    fn hit(page: u32, section: Option<&str>, score: f64) -> Hit {
        Hit {
            doc: Doc {
                id: format!("d-p{page}-{score}"),
                source: "r.pdf".into(),
                page,
                page_label: None,
                section: section.map(str::to_string),
                section_from_headings: false,
                modality: Modality::Text,
                text: String::new(),
                bboxes: vec![],
                page_size: (612.0, 792.0),
                confidence: ExtractionConfidence::High,
                table: None,
                chart: None,
            },
            score,
        }
    }

    #[test]
    fn a_section_with_several_good_passages_outranks_one_lucky_passage() {
        let s = RetrievalSettings { hierarchical_sections: 1, ..Default::default() };
        let pool = vec![hit(3, Some("Risk Factors"), 0.9), hit(40, Some("Item 8. Financial Statements"), 0.7), hit(41, Some("Item 8. Financial Statements"), 0.7), hit(42, Some("Item 8. Financial Statements"), 0.6)];
        let ranked = rank_sections(&pool, &s);
        assert!(ranked[0].0.ends_with("Item 8. Financial Statements"), "{ranked:?}");
        // (0.7 + 0.7 + 0.6) / 3 against 0.9 / 3.
        assert!((ranked[0].1 - 2.0 / 3.0).abs() < 1e-12 && (ranked[1].1 - 0.3).abs() < 1e-12);
        let top = rerank(pool, 3, &s);
        assert_eq!(top.iter().map(|h| h.doc.page).collect::<Vec<_>>(), vec![40, 41, 42], "the best section's passages fill k before the lucky one");
    }

    #[test]
    fn documents_without_sections_are_grouped_in_page_windows() {
        assert!(section_key(&hit(7, None, 0.0).doc, 5).ends_with("pages 6–10"));
        assert!(section_key(&hit(5, Some("  "), 0.0).doc, 5).ends_with("pages 1–5"));
    }

    /// On a real filing (offline embedder): every passage of the best sections precedes the rest,
    /// and the question's subject is among the passages.
    // Reads a PDF: only with the `pdf` feature (the app links core without it).
    #[cfg(feature = "pdf")]
    #[test]
    fn hierarchical_retrieval_on_a_real_filing_returns_passages_of_the_best_sections_first() {
        let path = format!("{}/../../shared/corpus/financebench/pdfs/AMCOR_2023Q2_10Q.pdf", env!("CARGO_MANIFEST_DIR"));
        let Ok(bytes) = std::fs::read(&path) else { panic!("{path} missing (the shared corpus is needed)") };
        let settings = Settings::paper();
        let ex = crate::ingest::extract(&bytes, "AMCOR_2023Q2_10Q.pdf", &settings.ingest);
        let docs = crate::ingest::documents(&ex, &settings.ingest);
        let e = OfflineEmbedder::default();
        let vectors = e.embed_documents(&crate::retrieve::embed::embedding_inputs(&docs));
        let mut c = Corpus::new(e.name(), e.dims());
        c.add(docs, vectors).unwrap();
        let search = LocalSearch { corpus: &c, embedder: &e, settings: &settings.retrieval };
        let q = "What is the nature & purpose of AMCOR's restructuring liability as of Q2 of FY2023 close?";
        let hits = futures::executor::block_on(retrieve(&search, q, 8, &settings.retrieval)).unwrap();
        assert_eq!(hits.len(), 8);
        let pool = search.search_now(q, 8 * settings.retrieval.pool_factor, None).unwrap();
        let best: Vec<String> = rank_sections(&pool, &settings.retrieval).into_iter().take(2).map(|(k, _)| k).collect();
        let inside: Vec<bool> = hits.iter().map(|h| best.contains(&section_key(&h.doc, 5))).collect();
        assert!(inside[0], "the first passage is in a best section: {best:?}");
        assert!(inside.windows(2).all(|w| w[0] || !w[1]), "no in-section passage after an out-of-section one: {inside:?}");
        assert!(hits.iter().any(|h| h.doc.text.to_lowercase().contains("restructuring")), "a restructuring passage is retrieved");
    }
}
