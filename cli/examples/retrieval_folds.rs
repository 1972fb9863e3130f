//! Retrieval variants on the FinanceBench company folds without parsing a PDF again: each stored
//! corpus (one per filing, from `clair ingest`) keeps its documents, which are embedded anew with the
//! current offline embedder and searched per question; page-hit@k and MRR per held-out fold exactly
//! as `scripts/folds.py` folds and counts them (companies by falling question count to the lightest
//! fold). It measures one configuration per run: settings from `--config`, the static table from
//! `--static-table` (its weight is `retrieval.static_weight`).
//!
//!   cargo run --release -p clair-cli --example retrieval_folds -- CORPORA_DIR QUESTIONS.jsonl
//!       [--config SETTINGS.toml] [--static-table FILE] [--k 8] [--folds 5] [--misses] [--ranks] [--explain 1,3] [--dump FILE]
//!
//! `--misses` lists the questions whose gold page is not in the top k; `--ranks` every question's
//! gold rank; `--explain FOLDS` prints,
//! for every question of those folds whose gold page is not first, the start of the gold page and
//! of the rank-1 page (the failure analysis in docs/retrieval-bench.md); `--dump FILE` appends,
//! per question, a `Q` row (index, fold, gold pages, `prior::question_kinds`, question) and one `D`
//! row per document (index, page, dense distance, overlap ℓ, statement kinds of its page,
//! modality, length), so that rerank rules can be tried offline on the same numbers.
use clair_core::config::Settings;
use clair_core::retrieve::embed::embedding_inputs;
use clair_core::retrieve::static_embed::StaticTable;
use clair_core::retrieve::{Corpus, Embedder, LocalSearch, OfflineEmbedder};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let pos: Vec<&String> = {
        let mut out = vec![];
        let mut i = 0;
        while i < args.len() {
            if args[i].starts_with("--") {
                i += if args[i] == "--misses" || args[i] == "--ranks" { 1 } else { 2 };
                continue;
            }
            out.push(&args[i]);
            i += 1;
        }
        out
    };
    let [dir, questions] = pos[..] else {
        eprintln!("usage: retrieval_folds CORPORA_DIR QUESTIONS.jsonl [--config F] [--static-table F] [--k 8] [--folds 5]");
        std::process::exit(2);
    };
    let settings = match value("--config") {
        Some(p) => Settings::from_toml(&std::fs::read_to_string(&p).expect("config")).expect("settings"),
        None => Settings::default(),
    };
    let k: usize = value("--k").map_or(8, |v| v.parse().expect("--k"));
    let n_folds: usize = value("--folds").map_or(5, |v| v.parse().expect("--folds"));
    let mut embedder = OfflineEmbedder::default();
    if let Some(p) = value("--static-table") {
        let t = Arc::new(StaticTable::from_bytes(&std::fs::read(&p).expect("static table")).expect("table"));
        embedder = embedder.with_static(t, settings.retrieval.static_weight as f32);
    }
    let qs: Vec<serde_json::Value> = std::fs::read_to_string(questions)
        .expect("questions")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("question json"))
        .filter(|q: &serde_json::Value| std::path::Path::new(&format!("{dir}/{}.json", q["doc_name"].as_str().unwrap_or(""))).exists())
        .collect();

    // Company folds (scripts/folds.py `company_folds`).
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for q in &qs {
        *count.entry(q["company"].as_str().unwrap_or("").to_string()).or_default() += 1;
    }
    let mut companies: Vec<(&String, &usize)> = count.iter().collect();
    companies.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut load = vec![0usize; n_folds];
    let mut fold_of: HashMap<String, usize> = HashMap::new();
    for (c, n) in companies {
        let f = (0..n_folds).min_by_key(|&i| (load[i], i)).unwrap_or(0);
        fold_of.insert(c.clone(), f);
        load[f] += n;
    }

    let mut corpora: HashMap<String, Corpus> = HashMap::new();
    let mut ranks: Vec<(usize, Option<usize>)> = vec![];
    let started = std::time::Instant::now();
    for q in &qs {
        let doc = q["doc_name"].as_str().unwrap_or("").to_string();
        let corpus = corpora.entry(doc.clone()).or_insert_with(|| {
            let stored = Corpus::from_bytes(&std::fs::read(format!("{dir}/{doc}.json")).expect("corpus")).expect("corpus bytes");
            let docs = stored.docs.clone();
            let (vectors, stats) = embedder.embed_documents_with_stats(&embedding_inputs(&docs));
            let mut c = Corpus::new(embedder.name(), embedder.dims());
            let source = docs.first().map(|d| d.source.clone()).unwrap_or_default();
            c.add(docs, vectors).expect("add");
            c.set_source_stats(&source, stats);
            c
        });
        let s = LocalSearch { corpus, embedder: &embedder, settings: &settings.retrieval };
        let question = q["question"].as_str().unwrap_or("");
        let hits = s.search_now(question, k, None).unwrap_or_default();
        let gold: Vec<u32> = q["evidence"].as_array().into_iter().flatten().filter_map(|e| e["evidence_page_num"].as_u64()).map(|p| p as u32 + 1).collect();
        let rank = hits.iter().take(k).position(|h| gold.contains(&h.doc.page)).map(|i| i + 1);
        let fold = fold_of[q["company"].as_str().unwrap_or("")];
        if let Some(fs) = value("--explain") {
            // Failure analysis: every question of the listed folds whose gold page is not first.
            let listed = fs.split(',').any(|f| f.trim().parse::<usize>().ok() == Some(fold));
            if listed && rank != Some(1) {
                let head = |page: u32| {
                    let t: String = corpus.docs.iter().filter(|d| d.page == page).map(|d| d.text.as_str()).collect::<Vec<_>>().join(" | ");
                    t.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(220).collect::<String>()
                };
                let first = hits.first().map(|h| h.doc.page).unwrap_or(0);
                let pages: Vec<u32> = hits.iter().map(|h| h.doc.page).collect();
                println!("## fold {fold} {doc} gold {gold:?} rank {rank:?} got {pages:?}\nQ: {question}");
                for g in &gold {
                    println!("  GOLD p{g}: {}", head(*g));
                }
                println!("  TOP1 p{first}: {}", head(first));
                // Where each gold page's best document sits in the dense order and in the blend.
                let qv = embedder.embed_query(question, corpus.term_stats(&embedder));
                let dense = corpus.exact_pool(&qv, corpus.len(), None);
                let blended = clair_core::retrieve::blend::blend_all(dense.iter().map(|&(i, d)| (i, d, corpus.docs[i].text.as_str())), question, &settings.retrieval);
                for p in gold.iter().chain(std::iter::once(&first)) {
                    let dr = dense.iter().position(|&(i, _)| corpus.docs[i].page == *p);
                    let br = blended.iter().position(|&(i, _)| corpus.docs[i].page == *p);
                    let (bi, bs) = br.map(|r| blended[r]).unwrap_or((0, 0.0));
                    let d = dense.iter().find(|x| x.0 == bi).map_or(0.0, |x| x.1);
                    println!("    p{p}: dense doc rank {dr:?}, blend doc rank {br:?} score {bs:.3} (v {:.3}) {}", 1.0 / (1.0 + d), corpus.docs[bi].id);
                }
                println!();
            }
        }
        if let Some(path) = value("--dump") {
            // Every document's dense distance, overlap ℓ and statement-page flag for this question
            // (one TSV row per document), to try rerank rules offline on the same numbers.
            use std::io::Write;
            let qv = embedder.embed_query(question, corpus.term_stats(&embedder));
            let qt = clair_core::retrieve::lexical::terms(question);
            let pages = corpus.page_index();
            let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).expect("dump");
            let qi = ranks.len();
            let qk = clair_core::retrieve::prior::question_kinds(question);
            writeln!(f, "Q\t{qi}\t{fold}\t{}\t{qk}\t{}", gold.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(","), question.replace(['\t', '\n'], " ")).ok();
            for (i, d) in corpus.exact_pool(&qv, corpus.len(), None) {
                let doc = &corpus.docs[i];
                let l = clair_core::retrieve::lexical::lexical_score(&qt, &doc.text);
                let st = pages.pages[pages.page_of[i]].kinds;
                writeln!(f, "D\t{qi}\t{i}\t{}\t{d:.6}\t{l:.6}\t{st}\t{:?}\t{}", doc.page, doc.modality, doc.text.len()).ok();
            }
        }
        if args.iter().any(|a| a == "--ranks") {
            println!("rank fold {fold} {rank:?} {doc}: {}", question.chars().take(70).collect::<String>());
        }
        if rank.is_none() && args.iter().any(|a| a == "--misses") {
            let pages: Vec<u32> = hits.iter().map(|h| h.doc.page).collect();
            eprintln!("miss {doc} gold {gold:?} got {pages:?}: {question}");
        }
        ranks.push((fold, rank));
    }
    let score = |rs: &[Option<usize>]| {
        let n = rs.len().max(1) as f64;
        (rs.iter().filter(|r| r.is_some()).count() as f64 / n, rs.iter().flatten().map(|r| 1.0 / *r as f64).sum::<f64>() / n)
    };
    let mut per_fold = vec![];
    for f in 0..n_folds {
        let rs: Vec<Option<usize>> = ranks.iter().filter(|r| r.0 == f).map(|r| r.1).collect();
        per_fold.push(score(&rs));
    }
    let all: Vec<Option<usize>> = ranks.iter().map(|r| r.1).collect();
    let (h, m) = score(&all);
    let mean = |i: usize| per_fold.iter().map(|p| if i == 0 { p.0 } else { p.1 }).sum::<f64>() / n_folds as f64;
    let folds: Vec<String> = per_fold.iter().map(|(h, m)| format!("{h:.3}/{m:.3}")).collect();
    println!(
        "all {h:.3}/{m:.3}  fold-mean {:.3}/{:.3}  folds {}  ({} questions, {:.1}s)",
        mean(0),
        mean(1),
        folds.join(" "),
        all.len(),
        started.elapsed().as_secs_f64()
    );
}
