//! Behaviour of retrieval as a user of the pipeline sees it.

use super::embed::embedding_inputs;
use super::*;
use crate::corpus::{doc_id, Doc, ExtractionConfidence};
use std::collections::BTreeMap;

fn doc(source: &str, page: u32, modality: Modality, n: &str, text: &str) -> Doc {
    Doc::bare(&doc_id(source, page, modality, n), source, page, modality, text)
}

fn corpus_of(docs: Vec<Doc>) -> (Corpus, OfflineEmbedder) {
    let e = OfflineEmbedder::default();
    let mut c = Corpus::new(e.name(), e.dims());
    let v = e.embed_documents(&embedding_inputs(&docs));
    c.add(docs, v).unwrap();
    (c, e)
}

fn filing() -> Vec<Doc> {
    use Modality::*;
    vec![
        doc("acme.pdf", 3, Text, "0", "Item 1. Business. Acme designs and sells industrial adhesives to customers in 70 countries. Our strategy is organic growth."),
        doc("acme.pdf", 12, Text, "0", "Risk factors. Our results depend on raw material prices, foreign exchange and the cyclicality of end markets."),
        doc("acme.pdf", 40, Text, "0", "CONSOLIDATED STATEMENTS OF CASH FLOWS\nCash flows from investing activities\nPurchases of property, plant and equipment (1,749) (1,603)\nProceeds from sale of businesses 2,100"),
        doc("acme.pdf", 38, Text, "0", "CONSOLIDATED BALANCE SHEETS\nTotal current assets 14,688\nTotal current liabilities 9,523\nTotal assets 46,455"),
        doc("acme.pdf", 37, Text, "0", "CONSOLIDATED STATEMENT OF INCOME\nNet sales 34,229 35,355\nCost of sales 19,232\nNet income 5,777"),
        doc("acme.pdf", 55, Text, "0", "Note 8. Leases. The Company leases office space and vehicles under operating leases expiring through 2030."),
        doc("acme.pdf", 37, Table, "t0", "Net sales | 34,229 | 35,355\nCost of sales | 19,232 | 18,795"),
    ]
}

fn pages(hits: &[crate::corpus::Hit]) -> Vec<u32> {
    hits.iter().map(|h| h.doc.page).collect()
}

#[test]
fn capex_question_finds_purchases_of_ppe_chunk() {
    let (c, e) = corpus_of(filing());
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let hits = ls.search_now("What was the FY2022 capex?", 1, None).unwrap();
    assert_eq!(pages(&hits), [40]);
    let hits = ls.search_now("What were capital expenditures in fiscal 2022?", 1, Some(Modality::Text)).unwrap();
    assert_eq!(pages(&hits), [40]);
}

#[test]
fn balance_sheet_question_finds_the_balance_sheet_page() {
    // The balance sheet printed as a table, as filings print it (a statement page, `prior`).
    let mut docs = filing();
    docs.push(doc("acme.pdf", 38, Modality::Table, "t0", "Total current assets | 14,688\nTotal current liabilities | 9,523\nTotal assets | 46,455"));
    let (c, e) = corpus_of(docs);
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let q = "What is the FY2022 working capital ratio? Use the statement of financial position.";
    assert_eq!(pages(&ls.search_now(q, 1, None).unwrap()), [38]);
    let q = "What is the FY2022 COGS? Use the P&L.";
    assert_eq!(pages(&ls.search_now(q, 1, Some(Modality::Text)).unwrap()), [37]);
}

#[test]
fn modality_filter_returns_only_that_modality_and_scores_are_blended() {
    let (c, e) = corpus_of(filing());
    // No per-page cap: every document comes back.
    let s = RetrievalSettings { max_hits_per_page: 0, ..RetrievalSettings::default() };
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let hits = ls.search_now("net sales cost of sales", 5, Some(Modality::Table)).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].doc.modality, Modality::Table);
    // Best hit: unit vectors, so v ∈ [1/3, 1]; ℓ ∈ [0, 1].
    assert!(hits[0].score > 0.65 / 3.0 && hits[0].score <= 1.0 + 1e-9);
    let all = ls.search_now("net sales cost of sales", 100, None).unwrap();
    assert_eq!(all.len(), 7);
    assert!(all.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn low_confidence_tables_are_not_returned_for_tabular_search() {
    let mut docs = filing();
    let mut low = doc("acme.pdf", 37, Modality::Table, "t1", "Net sales | 34,229 | 35,355 garbled");
    low.confidence = ExtractionConfidence::Low;
    docs.push(low);
    let (c, e) = corpus_of(docs);
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let hits = ls.search_now("net sales", 10, Some(Modality::Table)).unwrap();
    assert!(hits.iter().all(|h| h.doc.confidence == ExtractionConfidence::High));
    assert_eq!(hits.len(), 1);
    // Untyped (preview) search still sees it.
    let hits = ls.search_now("net sales garbled", 10, None).unwrap();
    assert!(hits.iter().any(|h| h.doc.confidence == ExtractionConfidence::Low));
}

#[test]
fn reingesting_replaces_documents_and_removing_a_source_forgets_it() {
    let (mut c, e) = corpus_of(filing());
    let n = c.len();
    let again = filing();
    let v = e.embed_batch(&embedding_inputs(&again));
    c.add(again, v).unwrap();
    assert_eq!(c.len(), n, "same ids replace, never duplicate");
    let other = vec![doc("beta.pdf", 1, Modality::Text, "0", "Beta revenue grew")];
    let v = e.embed_batch(&embedding_inputs(&other));
    c.add(other, v).unwrap();
    assert_eq!(c.sources(), ["acme.pdf", "beta.pdf"]);
    assert_eq!(c.remove_source("acme.pdf"), n);
    assert_eq!(c.len(), 1);
    assert!(c.add(vec![doc("x.pdf", 1, Modality::Text, "0", "x")], vec![vec![0.0; 3]]).is_err());
}

#[test]
fn corpus_survives_a_save_and_load_with_identical_results() {
    let (c, e) = corpus_of(filing());
    let s = RetrievalSettings::default();
    let back = Corpus::from_bytes(&c.to_bytes()).unwrap();
    assert_eq!(back.embedder, c.embedder);
    let q = "capital expenditures 2022";
    let a = LocalSearch { corpus: &c, embedder: &e, settings: &s }.search_now(q, 5, None).unwrap();
    let b = LocalSearch { corpus: &back, embedder: &e, settings: &s }.search_now(q, 5, None).unwrap();
    assert_eq!(a, b);
}

#[test]
fn corrupted_corpus_blob_is_an_error_not_a_panic() {
    let (c, _) = corpus_of(filing());
    let good = c.to_bytes();
    for cut in 0..good.len() {
        assert!(Corpus::from_bytes(&good[..cut]).is_err(), "truncated at {cut}");
    }
    for i in (0..good.len()).step_by(7) {
        let mut bad = good.clone();
        bad[i] ^= 0x40;
        assert!(Corpus::from_bytes(&bad).is_err(), "bit flip at {i}");
    }
    assert!(Corpus::from_bytes(b"{\"docs\": []}").is_err());
    assert!(Corpus::from_bytes(&[]).is_err());
}

#[test]
fn corpus_of_another_embedder_is_refused_not_misread() {
    let (c, _) = corpus_of(filing());
    let other = OfflineEmbedder::new(256);
    let s = RetrievalSettings::default();
    assert!(LocalSearch { corpus: &c, embedder: &other, settings: &s }.search_now("capex", 3, None).is_err());
}

/// The corpus blob stores vectors as IEEE binary16, rounded to nearest even (ties to the even
/// mantissa), subnormals kept: these bits are what blobs already in users' stores hold, so the
/// conversion may change implementation but never its output.
#[test]
fn f16_bits_are_ieee_binary16_round_to_nearest_even() {
    let cases: [(f32, u16); 12] = [
        (1.0, 0x3c00),
        (-2.0, 0xc000),
        (0.1, 0x2e66),
        (65504.0, 0x7bff),
        (1.0 + 1.0 / 2048.0, 0x3c00),
        (1.0 + 3.0 / 2048.0, 0x3c02),
        (6.0e-8, 0x0001),
        (1.0e-5, 0x00a8),
        (-0.0, 0x8000),
        (1.0e-9, 0x0000),
        (0.333_333_34, 0x3555),
        (-0.000_71, 0x91d1),
    ];
    for (x, bits) in cases {
        assert_eq!(index::f32_to_f16(x), bits, "{x}");
    }
    for (x, bits) in cases {
        let back = index::f16_to_f32(bits);
        assert_eq!(index::f32_to_f16(back), bits, "{x}: {back} reads back to the same bits");
    }
    assert_eq!(index::f16_to_f32(0x0001), 5.960_464_5e-8);
    assert_eq!(index::f16_to_f32(0x7bff), 65504.0);
}

/// The blob's vector block is the vectors' f16 bits, little-endian, in document order, and the
/// last eight bytes are the FNV-1a checksum of everything before them.
#[test]
fn corpus_blob_holds_f16_vectors_and_an_fnv_checksum() {
    let docs = vec![doc("a.pdf", 1, Modality::Text, "0", "alpha"), doc("a.pdf", 2, Modality::Text, "0", "beta")];
    let mut c = Corpus::new("test-embedder", 3);
    c.add(docs, vec![vec![1.0, -2.0, 0.1], vec![65504.0, 6.0e-8, -0.0]]).unwrap();
    let b = c.to_bytes();
    let (body, sum) = b.split_at(b.len() - 8);
    let vectors = &body[body.len() - 12..];
    assert_eq!(vectors, [0x00, 0x3c, 0x00, 0xc0, 0x66, 0x2e, 0xff, 0x7b, 0x01, 0x00, 0x00, 0x80]);
    assert_eq!(u64::from_le_bytes(sum.try_into().unwrap()), crate::hash::fnv64(body));
    assert_eq!(Corpus::from_bytes(&b).unwrap().to_bytes(), b);
}

#[test]
fn f16_round_trip_keeps_unit_vector_precision() {
    for x in [0.0f32, 1.0, -1.0, 0.5, 0.0312, -0.00071, 1e-6, 3.0e-8, 65504.0] {
        let y = index::f16_to_f32(index::f32_to_f16(x));
        assert!((x - y).abs() <= x.abs() * 1e-3 + 6e-8, "{x} -> {y}");
    }
}

/// Deterministic pseudo-random unit vectors around `clusters` centres.
fn synthetic(n: usize, dims: usize, clusters: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut s = seed;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f32 / (1u64 << 53) as f32 - 0.5
    };
    let centres: Vec<Vec<f32>> = (0..clusters).map(|_| (0..dims).map(|_| rnd()).collect()).collect();
    (0..n)
        .map(|i| {
            let c = &centres[i % clusters];
            let mut v: Vec<f32> = c.iter().map(|x| x + 0.6 * rnd()).collect();
            embed::normalise(&mut v);
            v
        })
        .collect()
}

#[test]
fn hnsw_recall_matches_exact_scan() {
    let (n, dims) = (1500, 32);
    let vecs = synthetic(n + 50, dims, 30, 7);
    let docs: Vec<Doc> = (0..n).map(|i| doc("syn.pdf", 1 + i as u32 / 3, Modality::Text, &i.to_string(), "x")).collect();
    let mut c = Corpus::new("synthetic", dims);
    c.add(docs, vecs[..n].to_vec()).unwrap();
    assert_eq!(c.build_hnsw(n + 1), 0, "below the threshold no graph is built");
    assert_eq!(c.build_hnsw(1000), 1);
    let (mut found, mut total) = (0, 0);
    for q in &vecs[n..] {
        let exact: Vec<usize> = c.exact_pool(q, 8, None).iter().map(|p| p.0).collect();
        let approx: Vec<usize> = c.pool(q, 8, Some(Modality::Text)).iter().map(|p| p.0).collect();
        found += exact.iter().filter(|i| approx.contains(i)).count();
        total += exact.len();
    }
    let recall = found as f64 / total as f64;
    assert!(recall >= 0.99, "recall@8 {recall}");
}

/// Native measurement (not a check): `cargo test -p clair-core --lib retrieve::tests::measure_scale
/// -- --ignored --nocapture`, with `--config 'profile.dev.package.clair-core.opt-level=3'` for real
/// figures. Env: CLAIR_BENCH_N (20000), CLAIR_BENCH_DIMS (1024), CLAIR_BENCH_HNSW (1 to build),
/// CLAIR_BENCH_PRIOR (`retrieval.statement_prior`, 0 = off), CLAIR_BENCH_QUERY (the query text,
/// "net sales 2022"; "total assets 2022" names a balance-sheet item, so the matched lift applies).
#[test]
#[ignore]
fn measure_scale() {
    let n: usize = std::env::var("CLAIR_BENCH_N").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let dims: usize = std::env::var("CLAIR_BENCH_DIMS").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    let nq = 200;
    let vecs = synthetic(n + nq, dims, 200, 11);
    // Every 50th page a primary statement (its title first, then a table), as in a library of
    // filings: the structural prior's statement pages join every query's pool.
    let docs: Vec<Doc> = (0..n)
        .map(|i| {
            let page = 1 + i as u32 / 3;
            match (page % 50, i % 3) {
                (0, 0) => doc("syn.pdf", page, Modality::Text, &i.to_string(), "CONSOLIDATED BALANCE SHEETS (in millions) total assets"),
                (0, _) => doc("syn.pdf", page, Modality::Table, &i.to_string(), "Total assets | 1,000 | 900"),
                _ => doc("syn.pdf", page, Modality::Text, &i.to_string(), "net sales cost of sales operating income"),
            }
        })
        .collect();
    let mut c = Corpus::new("synthetic", dims);
    c.add(docs, vecs[..n].to_vec()).unwrap();
    let mut s = RetrievalSettings::default();
    if let Some(w) = std::env::var("CLAIR_BENCH_PRIOR").ok().and_then(|v| v.parse().ok()) {
        s.statement_prior = w;
    }
    let t = std::time::Instant::now();
    let statements = c.page_index().pages.iter().filter(|p| p.statement).count();
    println!("page index (first search only): {:.1} ms, {statements} statement pages", t.elapsed().as_secs_f64() * 1e3);
    let text = std::env::var("CLAIR_BENCH_QUERY").unwrap_or_else(|_| "net sales 2022".into());
    let mut lat = vec![];
    for q in &vecs[n..] {
        let t = std::time::Instant::now();
        let h = c.search(q, &text, 8, None, &s);
        lat.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(h.len(), 8);
    }
    lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("exact scan n={n} dims={dims}: p50 {:.2} ms p99 {:.2} ms (search incl. blend, k=8, pool 32)", lat[nq / 2], lat[nq * 99 / 100]);
    println!("blob bytes per vector incl. doc JSON: {}", c.to_bytes().len() / n);
    if std::env::var("CLAIR_BENCH_HNSW").as_deref() == Ok("1") {
        let t = std::time::Instant::now();
        c.build_hnsw(s.hnsw_min_vectors);
        println!("hnsw build {:.1} s", t.elapsed().as_secs_f64());
        let (mut found, mut total, mut lat) = (0, 0, vec![]);
        for q in &vecs[n..] {
            let exact: Vec<usize> = c.exact_pool(q, 8, None).iter().map(|p| p.0).collect();
            let t = std::time::Instant::now();
            let approx: Vec<usize> = c.pool(q, 8, None).iter().map(|p| p.0).collect();
            lat.push(t.elapsed().as_secs_f64() * 1e3);
            found += exact.iter().filter(|i| approx.contains(i)).count();
            total += exact.len();
        }
        lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("hnsw recall@8 {:.4}, query p50 {:.2} ms p99 {:.2} ms", found as f64 / total as f64, lat[nq / 2], lat[nq * 99 / 100]);
    }
}

#[test]
fn capex_synonym_query_finds_the_purchases_of_ppe_row() {
    let mut docs = filing();
    docs.push(doc("acme.pdf", 40, Modality::Table, "t0r3", "Purchases of property, plant and equipment: (1,749), (1,603)"));
    docs.push(doc("acme.pdf", 41, Modality::Table, "t0r1", "Proceeds from sale of businesses: 2,100, 45"));
    docs.push(doc("acme.pdf", 42, Modality::Table, "t0r2", "Dividends paid to shareholders: (3,369), (3,420)"));
    let (c, e) = corpus_of(docs);
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let hits = ls.search_now("How much was capex?", 1, Some(Modality::Table)).unwrap();
    assert_eq!(hits[0].doc.text.split(':').next(), Some("Purchases of property, plant and equipment"));
}

#[test]
fn fiscal_2022_question_matches_fy22_text_not_fy21() {
    use Modality::*;
    let docs = vec![
        doc("acme.pdf", 5, Text, "0", "FY22 organic sales growth was driven by pricing in every segment."),
        doc("acme.pdf", 6, Text, "0", "FY21 organic sales growth was driven by pricing in every segment."),
    ];
    let (c, e) = corpus_of(docs);
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    assert_eq!(pages(&ls.search_now("What drove organic sales growth in fiscal 2022?", 1, None).unwrap()), [5]);
    assert_eq!(pages(&ls.search_now("What drove organic sales growth in FY2021?", 1, None).unwrap()), [6]);
}

#[test]
fn page_number_only_document_does_not_outrank_related_text() {
    let mut docs = filing();
    docs.push(doc("acme.pdf", 58, Modality::Text, "0", "55"));
    let (c, e) = corpus_of(docs);
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let hits = ls.search_now("Which raw material and foreign exchange risks affect results?", 3, None).unwrap();
    assert_eq!(hits[0].doc.page, 12);
    assert!(!pages(&hits).contains(&58), "{:?}", pages(&hits));
}

#[test]
fn rows_of_one_statement_page_do_not_fill_the_top_k() {
    let mut docs = filing();
    for r in 0..12 {
        docs.push(doc("acme.pdf", 37, Modality::Table, &format!("t0r{r}"), &format!("Net sales by region {r}: {r}00, {r}10")));
    }
    let (c, e) = corpus_of(docs);
    let s = RetrievalSettings::default();
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let hits = ls.search_now("net sales by region", 6, None).unwrap();
    let on_37 = hits.iter().filter(|h| h.doc.page == 37).count();
    assert_eq!(on_37, s.max_hits_per_page, "{:?}", pages(&hits));
    assert!(hits.len() > on_37, "other pages fill the freed places");
    let reference = RetrievalSettings { max_hits_per_page: 0, ..RetrievalSettings::default() };
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &reference };
    assert!(ls.search_now("net sales by region", 6, None).unwrap().iter().all(|h| h.doc.page == 37), "0 = the reference's uncapped top k");
}

#[test]
fn a_new_file_joins_the_corpus_statistics_without_recomputing_the_others() {
    let other: Vec<Doc> = filing()
        .into_iter()
        .map(|mut d| {
            d.source = "other.pdf".into();
            d.id = d.id.replace("acme", "other");
            d.text = d.text.replace("Acme", "Other Corp").replace("adhesives", "semiconductors");
            d
        })
        .collect();
    let e = OfflineEmbedder::default();
    let mut incremental = Corpus::new(e.name(), e.dims());
    for file in [filing(), other.clone()] {
        let source = file[0].source.clone();
        let (v, st) = e.embed_documents_with_stats(&embedding_inputs(&file));
        incremental.add(file, v).unwrap();
        incremental.set_source_stats(&source, st);
    }
    let (mut from_scratch, _) = corpus_of(filing().into_iter().chain(other.clone()).collect());
    assert_eq!(incremental.term_stats(&e), from_scratch.term_stats(&e));

    incremental.remove_source("acme.pdf");
    from_scratch.remove_source("acme.pdf");
    let (only_other, _) = corpus_of(other);
    assert_eq!(incremental.term_stats(&e), only_other.term_stats(&e));
    assert_eq!(from_scratch.term_stats(&e), only_other.term_stats(&e));
}

#[test]
fn a_sparse_query_scan_ranks_exactly_like_the_full_distance() {
    let (c, e) = corpus_of(filing());
    for q in ["How much was capex?", "net sales and cost of sales", "leases expiring through 2030", "raw material risk"] {
        let qv = e.embed_query(q, c.term_stats(&e));
        let fast = c.pool(&qv, 5, None);
        let full = c.exact_pool(&qv, 5, None);
        assert_eq!(fast.iter().map(|p| p.0).collect::<Vec<_>>(), full.iter().map(|p| p.0).collect::<Vec<_>>(), "{q}");
        for (a, b) in fast.iter().zip(&full) {
            assert!((a.1 - b.1).abs() < 1e-4, "{q}: {} vs {}", a.1, b.1);
        }
    }
}

#[test]
fn a_query_with_a_dense_semantic_part_scans_exactly_like_the_full_distance() {
    use super::static_embed::{tests::table_bytes, StaticTable};
    // A semantic part of 32 dimensions, every row non-zero somewhere, so a query's tail is dense.
    let words = ["capex", "sales", "cost", "leases", "expiring", "raw", "material", "risk", "net", "much", "was", "how"];
    let rows: Vec<(&str, Vec<f32>)> = words.iter().enumerate().map(|(w, t)| (*t, (0..32).map(|d| (((w * 7 + d * 3) % 11) as f32 - 5.0) / 5.0).collect())).collect();
    let table = std::sync::Arc::new(StaticTable::from_bytes(&table_bytes(&rows)).unwrap());
    let e = OfflineEmbedder::default().with_static(table, 0.5);
    let docs = filing();
    let mut c = Corpus::new(e.name(), e.dims());
    let v = e.embed_documents(&embedding_inputs(&docs));
    c.add(docs, v).unwrap();
    for q in ["How much was capex?", "net sales and cost of sales", "leases expiring through 2030", "raw material risk"] {
        let qv = e.embed_query(q, c.term_stats(&e));
        let tail = super::index::dense_tail(&qv);
        assert_eq!(tail, e.lexical_dims(), "{q}: the semantic part is the dense tail");
        let fast = c.pool(&qv, 5, None);
        let full = c.exact_pool(&qv, 5, None);
        assert_eq!(fast.iter().map(|p| p.0).collect::<Vec<_>>(), full.iter().map(|p| p.0).collect::<Vec<_>>(), "{q}");
        for (a, b) in fast.iter().zip(&full) {
            assert!((a.1 - b.1).abs() < 1e-4, "{q}: {} vs {}", a.1, b.1);
        }
    }
    // A lexical query alone has no dense tail.
    let plain = OfflineEmbedder::default();
    let (pc, _) = corpus_of(filing());
    assert_eq!(super::index::dense_tail(&plain.embed_query("How much was capex?", pc.term_stats(&plain))), plain.dims());
}

#[test]
fn outline_sections_are_embedded_with_the_text_and_sections_read_from_headings_are_not() {
    let mut outlined = doc("a.pdf", 3, Modality::Text, "1", "Net sales rose 4% to $12.4 billion.");
    outlined.section = Some("Results of Operations".into());
    let mut headed = outlined.clone();
    headed.section_from_headings = true;
    let inputs = embedding_inputs(&[outlined, headed]);
    assert!(inputs[0].starts_with("Results of Operations\n"), "{}", inputs[0]);
    assert!(!inputs[1].contains("Results of Operations"), "{}", inputs[1]);
}

#[test]
fn hyde_scores_lexical_overlap_with_the_question_and_dense_similarity_with_the_passage() {
    use super::lexical::{lexical_score, terms};
    let (c, e) = corpus_of(filing());
    // No per-page cap: every document comes back; no structural prior: the score is the blend.
    let s = RetrievalSettings { max_hits_per_page: 0, statement_prior: 0.0, ..RetrievalSettings::default() };
    let ls = LocalSearch { corpus: &c, embedder: &e, settings: &s };
    let q = "What was the FY2022 capex?";
    // A hypothetical passage (spec §8.6: it may invent figures) full of words other documents hold.
    let passage = "Purchases of property, plant and equipment rose; total assets, net sales and operating leases grew in fiscal 2022.";
    let hits = futures::executor::block_on(ls.search_hyde(q, passage, 7, None)).unwrap();
    assert_eq!(hits.len(), 7);
    let dense = e.embed_query(passage, c.term_stats(&e));
    let pool = c.pool(&dense, c.docs.len(), None);
    let (question, appended) = (terms(q), terms(&format!("{q}\n{passage}")));
    let mut appended_differs = false;
    for h in &hits {
        let i = c.docs.iter().position(|d| d.id == h.doc.id).unwrap();
        let d = pool.iter().find(|p| p.0 == i).unwrap().1;
        // Lexical part: the plain question's terms, as if HyDE were off; dense part: the passage.
        let expected = s.dense_weight / (1.0 + d.max(0.0) as f64) + s.lexical_weight * lexical_score(&question, &h.doc.text);
        assert!((h.score - expected).abs() < 1e-9, "{}: {} vs {expected}", h.doc.id, h.score);
        appended_differs |= lexical_score(&appended, &h.doc.text) != lexical_score(&question, &h.doc.text);
    }
    assert!(appended_differs, "the passage's own words would have changed the lexical scores");
    // Without a passage the same question gives the same lexical terms, with its own dense pool.
    let plain = ls.search_now(q, 7, None).unwrap();
    assert_eq!(plain.len(), 7);
}

#[test]
fn statement_page_documents_are_lifted_by_the_prior_and_prose_is_not() {
    // A statement page (title in its first lines, a table on it) and a prose page that names the
    // same line items: the prior adds `statement_prior` to the statement page's documents only.
    let docs = vec![
        doc("acme.pdf", 20, Modality::Text, "0", "We turn inventory quickly; accounts payable to suppliers are settled after we collect from customers."),
        doc("acme.pdf", 40, Modality::Text, "0", "ACME INC. CONSOLIDATED BALANCE SHEETS (in millions)"),
        doc("acme.pdf", 40, Modality::Table, "t0", "Inventories | 16,047 | 11,461\nAccounts payable | 34,616 | 25,309"),
    ];
    let (c, e) = corpus_of(docs);
    let q = "How quickly does Acme turn inventory and pay its accounts payable?";
    // The plain prior alone (the question names balance-sheet items, so the matched lift would add to it).
    let on = RetrievalSettings { max_hits_per_page: 0, statement_prior_matched: 0.0, ..RetrievalSettings::default() };
    let off = RetrievalSettings { statement_prior: 0.0, ..on.clone() };
    let scores = |s: &RetrievalSettings| -> BTreeMap<String, f64> {
        LocalSearch { corpus: &c, embedder: &e, settings: s }.search_now(q, 3, None).unwrap().into_iter().map(|h| (h.doc.id, h.score)).collect()
    };
    let (with, without) = (scores(&on), scores(&off));
    assert_eq!(with.len(), 3);
    for (id, s) in &with {
        let lift = if id.contains("-p40-") { on.statement_prior } else { 0.0 };
        assert!((s - without[id] - lift).abs() < 1e-9, "{id}: {s} vs {}", without[id]);
    }
}

/// Amazon's 2019 10-K (FinanceBench) read and indexed with `settings`.
#[cfg(feature = "pdf")]
fn amazon_2019_10k(settings: &crate::config::Settings) -> (Corpus, OfflineEmbedder) {
    let name = "AMAZON_2019_10K.pdf";
    let path = format!("{}/../../shared/corpus/financebench/pdfs/{name}", env!("CARGO_MANIFEST_DIR"));
    let Ok(bytes) = std::fs::read(&path) else { panic!("{path} missing (the shared corpus is needed)") };
    let ex = crate::ingest::extract_on_threads(bytes, name, &settings.ingest, 1);
    corpus_of(crate::ingest::documents(&ex, &settings.ingest))
}

/// On a real filing (Amazon's 2019 10-K, FinanceBench): the question asks for a figure of the
/// income statement. The statements of operations (p38) come first; the statement of
/// comprehensive income (p39), which repeats net income, is not an income statement. Without the
/// structural prior the statement is still among the first eight (it is searched in parts of a
/// chunk's size, `ingest::docs`; in one document of every line item it was not), but the segment
/// reconciliation to net income (p67) comes before it: the prior puts the statement first.
#[cfg(feature = "pdf")]
#[test]
fn income_statement_question_finds_the_statements_of_operations_on_a_real_filing() {
    let settings = crate::config::Settings::paper();
    let (c, e) = amazon_2019_10k(&settings);
    let idx = c.page_index();
    let statement = |page: u32| idx.pages.iter().any(|p| p.statement && c.docs[p.members[0]].page == page);
    assert!(statement(38) && statement(40), "operations and balance sheet pages are statement pages");
    assert!(!statement(39), "comprehensive income is not");
    let q = "By drawing conclusions from the information stated only in the income statement, what is Amazon's FY2019 net income attributable to shareholders (in USD millions)?";
    let first = |s: &RetrievalSettings| LocalSearch { corpus: &c, embedder: &e, settings: s }.search_now(q, 8, None).unwrap()[0].doc.page;
    assert_eq!(first(&settings.retrieval), 38);
    let plain = RetrievalSettings { statement_prior: 0.0, ..settings.retrieval.clone() };
    let hits = LocalSearch { corpus: &c, embedder: &e, settings: &plain }.search_now(q, 8, None).unwrap();
    assert!(hits.iter().any(|h| h.doc.page == 38), "{:?}", pages(&hits));
}

#[test]
fn the_statement_a_question_asks_about_is_lifted_more_than_the_other_statements() {
    // Two statement pages and prose: a question naming a balance-sheet ratio lifts the balance
    // sheet by `statement_prior` + `statement_prior_matched`, the income statement by the plain
    // prior, and prose not at all.
    let docs = vec![
        doc("acme.pdf", 20, Modality::Text, "0", "Our working capital needs are met by cash from operations and our revolving credit facility."),
        doc("acme.pdf", 40, Modality::Text, "0", "ACME INC. CONSOLIDATED BALANCE SHEETS (in millions)"),
        doc("acme.pdf", 40, Modality::Table, "t0", "Total current assets | 16,047 | 11,461\nTotal current liabilities | 14,616 | 12,309"),
        doc("acme.pdf", 41, Modality::Text, "0", "ACME INC. CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)"),
        doc("acme.pdf", 41, Modality::Table, "t0", "Net sales | 34,229 | 35,355\nCost of sales | 20,100 | 21,000"),
    ];
    let (c, e) = corpus_of(docs);
    let q = "What is Acme's current ratio?";
    assert_eq!(super::prior::question_kinds(q), super::prior::BALANCE_SHEET);
    let on = RetrievalSettings { max_hits_per_page: 0, ..RetrievalSettings::default() };
    assert!(on.statement_prior_matched > 0.0, "on by default");
    let off = RetrievalSettings { statement_prior: 0.0, ..on.clone() };
    let scores = |s: &RetrievalSettings| -> BTreeMap<String, f64> {
        LocalSearch { corpus: &c, embedder: &e, settings: s }.search_now(q, 5, None).unwrap().into_iter().map(|h| (h.doc.id, h.score)).collect()
    };
    let (with, without) = (scores(&on), scores(&off));
    assert_eq!(with.len(), 5);
    for (id, s) in &with {
        let lift = match id {
            _ if id.contains("-p40-") => on.statement_prior + on.statement_prior_matched,
            _ if id.contains("-p41-") => on.statement_prior,
            _ => 0.0,
        };
        assert!((s - without[id] - lift).abs() < 1e-9, "{id}: {s} vs {} + {lift}", without[id]);
    }
}

/// On a real filing (Kraft Heinz's 2019 10-K, FinanceBench), a ratio question in words of our own.
/// The filing prints its statements on pp. 50–54 and, in the notes, statements of the guarantors
/// and quarterly figures under the same titles. The block (`prior::statement_block`) takes the
/// first run for the statements; the repeats keep the plain prior. With the matched lift on every
/// titled page a repeat in the notes came first.
#[cfg(feature = "pdf")]
#[test]
fn a_ratio_question_finds_the_primary_statements_before_their_repeats_in_the_notes_on_a_real_filing() {
    let settings = crate::config::Settings::paper();
    let name = "KRAFTHEINZ_2019_10K.pdf";
    let path = format!("{}/../../shared/corpus/financebench/pdfs/{name}", env!("CARGO_MANIFEST_DIR"));
    let Ok(bytes) = std::fs::read(&path) else { panic!("{path} missing (the shared corpus is needed)") };
    let ex = crate::ingest::extract_on_threads(bytes, name, &settings.ingest, 1);
    let (c, e) = corpus_of(crate::ingest::documents(&ex, &settings.ingest));
    let idx = c.page_index();
    let titled: Vec<(u32, u8)> = {
        let mut v: Vec<(u32, u8)> = idx.pages.iter().filter(|p| p.statement).map(|p| (c.docs[p.members[0]].page, p.kinds)).collect();
        v.sort_unstable();
        v
    };
    let in_block: Vec<u32> = titled.iter().filter(|t| t.1 != 0).map(|t| t.0).collect();
    assert_eq!(in_block.first().copied(), Some(50), "{titled:?}");
    assert!(in_block.iter().all(|&p| p <= 54), "{titled:?}");
    assert!(titled.iter().any(|t| t.0 > 100), "repeats under statement titles in the notes: {titled:?}");
    let q = "How fast did Kraft Heinz turn over its inventory in 2019? Divide cost of products sold by average inventories.";
    let first = |s: &RetrievalSettings| LocalSearch { corpus: &c, embedder: &e, settings: s }.search_now(q, 8, None).unwrap()[0].doc.page;
    assert!([50, 52].contains(&first(&settings.retrieval)), "p{}", first(&settings.retrieval));
}

/// On a real filing (Amazon's 2019 10-K, FinanceBench), a ratio question in words of our own:
/// inventory turnover is computed from the income statement (cost of sales) and the balance
/// sheet (inventories). With the matched lift one of those statements (p38, p40) comes first;
/// with the plain prior prose about inventory ranks above both.
#[cfg(feature = "pdf")]
#[test]
fn a_ratio_question_finds_the_statements_its_inputs_are_printed_in_on_a_real_filing() {
    let settings = crate::config::Settings::paper();
    let (c, e) = amazon_2019_10k(&settings);
    let q = "What was Amazon's inventory turnover in 2019?";
    assert_eq!(super::prior::question_kinds(q), super::prior::BALANCE_SHEET | super::prior::INCOME_STATEMENT);
    let first = |s: &RetrievalSettings| LocalSearch { corpus: &c, embedder: &e, settings: s }.search_now(q, 8, None).unwrap()[0].doc.page;
    assert!([38, 40].contains(&first(&settings.retrieval)), "{}", first(&settings.retrieval));
    let plain = first(&RetrievalSettings { statement_prior_matched: 0.0, ..settings.retrieval.clone() });
    assert!(![38, 40].contains(&plain), "without the matched lift p{plain} would be first anyway");
}
