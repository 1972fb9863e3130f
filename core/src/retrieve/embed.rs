//! Embedders (paper §3.4): the OpenAI-compatible API one, and an offline one for users without a key
//! and for tests.
//!
//! The offline embedder has two parts side by side: a lexical one, a hashed bag of financial
//! "features" (below), and, when the static table is loaded, a semantic one — the mean of word-piece
//! rows distilled from a sentence encoder (`static_embed`, `with_static`), weighted
//! `retrieval.static_weight` at query time. What makes the lexical part work on 10-K questions:
//! - light stemming, so "liabilities" meets "liability";
//! - fiscal-period normalisation ("FY2022", "fiscal 2022", "FY22" → `2022`), and other numbers left
//!   out entirely: statement pages are mostly numbers, which would otherwise dominate their vectors'
//!   norm and bury the few words a question can match;
//! - concepts: phrases that name the same line item or statement in different words map to one
//!   extra feature — the US-GAAP taxonomy's elements grouped by line item (`PaymentsToAcquire…`,
//!   capital expenditures ↔ purchases of property, plant and equipment; `us_gaap_concepts.tsv`),
//!   the statements' titles (balance sheet ↔ statement of financial position), and abbreviations
//!   and ratio names as their inputs (EPS; inventory turnover → inventories + cost of sales);
//! - a general English + question-instruction stop list for the dense features only ("round your
//!   answer to two decimal places" names nothing in a filing);
//! - word unigrams and bigrams with sublinear tf (1 + ln tf), signed feature hashing into `dims`;
//! - on the query side, an IDF weight per feature taken from the corpus (`TermStats`, rebuilt from
//!   the documents, so it is deterministic and never stored): a cosine of log-tf document vectors with
//!   log-tf·idf query vectors (SMART lnc.ltc).
//!
//! `embedding_inputs` adds each page's heading (its first lines) to every document of the page, so
//! the lower half of "CONSOLIDATED BALANCE SHEETS" still knows it is a balance sheet.

use crate::config::Modality;
use crate::corpus::Doc;
use crate::llm::{LlmClient, Transport};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::cell::Cell;
use std::sync::Arc;
use super::static_embed::StaticTable;

/// What an index needs to know about the embedder that produced its vectors.
pub trait Embedder {
    /// Stored in the corpus; a corpus is only queried with vectors from the same embedder.
    fn name(&self) -> String;
    fn dims(&self) -> usize;
}

/// Scale `v` to unit length (a zero vector stays zero).
pub fn normalise(v: &mut [f32]) {
    let n = v.iter().map(|x| (*x as f64) * (*x as f64)).sum::<f64>().sqrt();
    if n > 0.0 {
        for x in v.iter_mut() {
            *x = (*x as f64 / n) as f32;
        }
    }
}

/// The text actually embedded for each document: section and page heading, then the document text.
/// A page's heading is the start of its first text document (or of its first document when it has
/// no text), so row and table documents and lower chunks still carry "Consolidated Balance Sheets".
pub fn embedding_inputs(docs: &[Doc]) -> Vec<String> {
    let mut heading: HashMap<(&str, u32), String> = HashMap::new();
    for d in docs.iter().filter(|d| d.modality == Modality::Text && d.text.trim().len() >= 20) {
        heading.entry((d.source.as_str(), d.page)).or_insert_with(|| page_heading(&d.text));
    }
    for d in docs {
        heading.entry((d.source.as_str(), d.page)).or_insert_with(|| page_heading(&d.text));
    }
    docs.iter()
        .map(|d| {
            let mut s = String::new();
            if let Some(sec) = d.section.as_ref().filter(|_| !d.section_from_headings) {
                s.push_str(sec);
                s.push('\n');
            }
            if let Some(h) = heading.get(&(d.source.as_str(), d.page)) {
                if !d.text.starts_with(h.as_str()) {
                    s.push_str(h);
                    s.push('\n');
                }
            }
            if let Some(t) = &d.table {
                if !t.caption.is_empty() && !d.text.contains(&t.caption) {
                    s.push_str(&t.caption);
                    s.push('\n');
                }
            }
            s.push_str(&d.text);
            s
        })
        .collect()
}

/// The first ≈ 160 characters of a page's first document, cut at a word boundary: where statements
/// and notes print their titles (chunks may or may not keep line breaks).
pub(crate) fn page_heading(text: &str) -> String {
    const MAX: usize = 160;
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= MAX {
        return flat;
    }
    let cut: String = flat.chars().take(MAX).collect();
    match cut.rfind(' ') {
        Some(i) => cut[..i].to_string(),
        None => cut,
    }
}

// ---------------------------------------------------------------------------------------------
// Offline embedder

/// Document frequencies of the offline embedder's features over a corpus (query-side IDF).
/// Additive: a corpus's statistics are the sum of its files' (`merge`), so adding a file never
/// recomputes the others.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TermStats {
    pub docs: u32,
    /// Documents holding each feature; with a static table also each of its word pieces (`s:<row>`).
    pub df: HashMap<String, u32>,
    /// With a static table: the sum of the documents' semantic parts before centring, so the
    /// corpus mean (this / `docs`) is additive like the frequencies. Empty without a table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub static_sum: Vec<f32>,
    /// The documents `static_sum` is over (0: all `docs`, as in statistics stored before this
    /// count). A library on a server embeds without the semantic part, so merged with this
    /// browser's files its documents count in `docs` but add nothing to the sum.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub static_docs: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl TermStats {
    pub fn add_features(&mut self, feats: &BTreeMap<String, f32>) {
        self.docs += 1;
        for f in feats.keys() {
            *self.df.entry(f.clone()).or_insert(0) += 1;
        }
    }
    pub fn merge(&mut self, other: &TermStats) {
        self.static_docs = self.semantic_docs() + other.semantic_docs();
        self.docs += other.docs;
        for (f, n) in &other.df {
            *self.df.entry(f.clone()).or_insert(0) += n;
        }
        if self.static_sum.len() < other.static_sum.len() {
            self.static_sum.resize(other.static_sum.len(), 0.0);
        }
        for (x, y) in self.static_sum.iter_mut().zip(&other.static_sum) {
            *x += y;
        }
    }

    /// The documents whose semantic parts `static_sum` adds up.
    fn semantic_docs(&self) -> u32 {
        match (self.static_sum.is_empty(), self.static_docs) {
            (true, _) => 0,
            (false, 0) => self.docs,
            (false, n) => n,
        }
    }

    /// The corpus mean of the semantic parts, when the statistics carry one of `dims` values.
    fn static_mean(&self, dims: usize) -> Option<Vec<f32>> {
        let n = self.semantic_docs();
        (n > 0 && self.static_sum.len() == dims).then(|| self.static_sum.iter().map(|x| x / n as f32).collect())
    }

    /// A static word piece's weight: the same ln(1 + N/df) as a document feature's. A piece no
    /// document holds weighs as one held by a single document — it still carries meaning towards
    /// its neighbours in the table, which is what the semantic part is for.
    fn static_idf(&self, id: u32) -> f32 {
        let df = self.df.get(&static_key(id)).copied().unwrap_or(0).max(1);
        (1.0 + self.docs.max(1) as f32 / df as f32).ln()
    }

    /// BM25's idf, and 0 for a feature no document has (it can only add hash-collision noise).
    pub fn idf(&self, feature: &str) -> f32 {
        let df = self.df.get(feature).copied().unwrap_or(0);
        if df == 0 {
            return 0.0;
        }
        let n = self.docs as f64;
        (((n - df as f64 + 0.5) / (df as f64 + 0.5)) + 1.0).ln() as f32
    }
}

fn static_key(id: u32) -> String {
    format!("s:{id}")
}

/// `v` minus `mean`, at unit length; a zero `v` (no word piece in the table) stays zero rather
/// than becoming the negated mean.
fn centred(mut v: Vec<f32>, mean: &[f32]) -> Vec<f32> {
    if v.iter().all(|x| *x == 0.0) {
        return v;
    }
    for (x, m) in v.iter_mut().zip(mean) {
        *x -= m;
    }
    normalise(&mut v);
    v
}

/// Hashed financial-text embedder; deterministic, no network. With a static-embedding table
/// (`with_static`) each vector is the lexical part followed by a semantic part (`static_embed`).
#[derive(Debug, Clone)]
pub struct OfflineEmbedder {
    dims: usize,
    /// First stemmed token → (phrase as stemmed tokens, concept feature).
    phrases: HashMap<String, Vec<(Vec<String>, &'static str)>>,
    semantic: Option<Arc<StaticTable>>,
    /// Weight of the semantic part in a query vector (the lexical part has 1 − this).
    static_weight: f32,
}

/// Relative feature weights.
const W_UNIGRAM: f32 = 1.0;
const W_BIGRAM: f32 = 0.6;
const W_CONCEPT: f32 = 1.0;
/// Character n-grams of a word share one unit of weight between them, so a long word does not
/// outweigh a short one; they join inflections the stemmer leaves apart (cyclicality ↔ cyclical,
/// liquidated ↔ liquidation) at a fraction of a whole-word match.
const W_CHARGRAMS: f32 = 0.5;
const CHARGRAM: usize = 5;

pub const OFFLINE_DEFAULT_DIMS: usize = 1024;

impl Default for OfflineEmbedder {
    fn default() -> Self {
        OfflineEmbedder::new(OFFLINE_DEFAULT_DIMS)
    }
}

impl Embedder for OfflineEmbedder {
    fn name(&self) -> String {
        match &self.semantic {
            Some(t) => format!("offline-v3-{}+static-{}-{}", self.dims, t.tag(), t.dims()),
            None => format!("offline-v3-{}", self.dims),
        }
    }
    fn dims(&self) -> usize {
        self.dims + self.semantic.as_ref().map_or(0, |t| t.dims())
    }
}

impl OfflineEmbedder {
    pub fn new(dims: usize) -> OfflineEmbedder {
        let dims = dims.max(8);
        let mut phrases: HashMap<String, Vec<(Vec<String>, &'static str)>> = HashMap::new();
        for (p, concept) in concept_phrases() {
            let toks: Vec<String> = raw_tokens(p).into_iter().map(|t| stem(&t)).collect();
            if let Some(first) = toks.first() {
                let list = phrases.entry(first.clone()).or_default();
                if !list.iter().any(|(t, c)| *t == toks && *c == concept) {
                    list.push((toks, concept));
                }
            }
        }
        // Longest phrase first, so "net cash provided by operating activities" wins over "net cash".
        for v in phrases.values_mut() {
            v.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
        }
        OfflineEmbedder { dims, phrases, semantic: None, static_weight: 0.0 }
    }

    /// The same lexical embedder with a semantic part from `table`. Document vectors are the two
    /// unit parts side by side (rescaled to unit length); a query's parts are weighted
    /// (1 − `weight`, `weight`), so its dot product with a document — what the L2 ranking orders
    /// by — is the weighted blend of the two cosines. The weight is a query-time setting
    /// (`retrieval.static_weight`): a corpus need not be embedded again to change it.
    pub fn with_static(mut self, table: Arc<StaticTable>, weight: f32) -> OfflineEmbedder {
        self.semantic = Some(table);
        self.set_static_weight(weight);
        self
    }

    /// What the app's worker embeds with when the table loads: both parts, the semantic part at
    /// the default `retrieval.static_weight` (each search sets its own, `Library::handle`).
    pub fn with_default_static(table: Arc<StaticTable>) -> OfflineEmbedder {
        OfflineEmbedder::default().with_static(table, crate::config::RetrievalSettings::default().static_weight as f32)
    }

    /// Sets the query-time weight of the semantic part (no effect without a table).
    pub fn set_static_weight(&mut self, weight: f32) {
        self.static_weight = if weight.is_finite() { weight.clamp(0.0, 1.0) } else { 0.0 };
    }

    /// Lexical dimensions (the hashed part).
    pub fn lexical_dims(&self) -> usize {
        self.dims
    }

    /// Appends the semantic part of `text` to a unit lexical vector, weighted `(wl, ws)`, and
    /// rescales to unit length. Without a table the lexical vector is returned as it is.
    fn with_semantic(&self, mut lexical: Vec<f32>, semantic: Option<Vec<f32>>, wl: f32, ws: f32) -> Vec<f32> {
        let Some(sem) = semantic.filter(|_| self.semantic.is_some()) else { return lexical };
        for x in lexical.iter_mut() {
            *x *= wl;
        }
        lexical.extend(sem.into_iter().map(|x| x * ws));
        normalise(&mut lexical);
        lexical
    }

    /// Unit vector of a document text.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let sem = self.semantic.as_ref().map(|t| t.embed(text));
        self.with_semantic(self.featureless_to_sentinel(self.hash(&self.features(text), None)), sem, 1.0, 1.0)
    }

    /// A document with no features (a page whose only text is its number "55", a row of bare
    /// figures) would get the zero vector, which is at squared distance exactly 1 from every unit
    /// query: v = 1/2, closer than any document with an unrelated word (d ≈ 2, v ≈ 1/3). It gets a
    /// fixed unit vector of its own instead, orthogonal to nearly every query.
    fn featureless_to_sentinel(&self, mut v: Vec<f32>) -> Vec<f32> {
        if v.iter().all(|x| *x == 0.0) {
            let h = fnv1a(b"#featureless");
            v[(h % self.dims as u64) as usize] = 1.0;
        }
        v
    }

    pub fn embed_batch(&self, texts: &[String]) -> Vec<Vec<f32>> {
        texts.iter().map(|t| self.embed(t)).collect()
    }

    /// Vectors for the documents of one ingested file (or any batch that is a meaningful collection):
    /// each feature is also weighted by its IDF within the batch, so a chunk's vector is dominated
    /// by what distinguishes it ("inventories", "balance sheet") rather than by what every page of
    /// the filing says ("million", "fiscal", the company name). With the query-side IDF this is the
    /// classic ltc·ltc cosine. Deterministic for a given batch.
    pub fn embed_documents(&self, texts: &[String]) -> Vec<Vec<f32>> {
        self.embed_documents_with_stats(texts).0
    }

    /// `embed_documents` plus the batch's document frequencies, which are the file's share of the
    /// corpus statistics (`Corpus::set_source_stats`): a new file is search-ready without
    /// recomputing every other file's features.
    pub fn embed_documents_with_stats(&self, texts: &[String]) -> (Vec<Vec<f32>>, TermStats) {
        let feats: Vec<BTreeMap<String, f32>> = texts.iter().map(|t| self.features(t)).collect();
        let mut st = TermStats::default();
        for f in &feats {
            st.add_features(f);
        }
        let n = st.docs as f32;
        let semantic = self.semantic_parts(texts, &mut st);
        let vectors = feats
            .iter()
            .zip(semantic)
            .map(|(f, sem)| {
                let weighted: BTreeMap<String, f32> = f
                    .iter()
                    .map(|(k, w)| {
                        let df = st.df.get(k).copied().unwrap_or(1) as f32;
                        (k.clone(), w * (1.0 + n / df).ln())
                    })
                    .collect();
                self.with_semantic(self.featureless_to_sentinel(self.hash(&weighted, None)), sem, 1.0, 1.0)
            })
            .collect();
        (vectors, st)
    }

    /// A batch's statistics alone (what `embed_documents_with_stats` returns with the vectors),
    /// for a corpus read back without them.
    pub fn document_stats(&self, texts: &[String]) -> TermStats {
        let mut st = TermStats::default();
        for t in texts {
            st.add_features(&self.features(t));
        }
        let _ = self.semantic_parts(texts, &mut st);
        st
    }

    /// The semantic parts of a batch (one `None` per text without a table). The mean of
    /// word-piece vectors is dominated by what every text shares: the pages of one 10-K pooled
    /// from static rows come out nearly parallel, so the cosine between any two of them says
    /// little. Two corrections from the sentence-embedding literature, both computed from the
    /// batch itself, never from questions: each word piece is weighted by its IDF in the batch (SIF,
    /// Arora et al. 2017, with the corpus as the frequency source), and the batch mean is removed
    /// (the first step of "all-but-the-top", Mu & Viswanath 2018). The batch's piece frequencies
    /// and the sum of the uncentred vectors go into `st`, so a query is weighted and centred alike.
    fn semantic_parts(&self, texts: &[String], st: &mut TermStats) -> Vec<Option<Vec<f32>>> {
        let Some(t) = &self.semantic else { return vec![None; texts.len()] };
        let ids: Vec<Vec<u32>> = texts.iter().map(|x| t.token_ids(x)).collect();
        let mut df: HashMap<u32, u32> = HashMap::new();
        for doc in &ids {
            let mut seen = doc.clone();
            seen.sort_unstable();
            seen.dedup();
            for id in seen {
                *df.entry(id).or_insert(0) += 1;
            }
        }
        let n = texts.len().max(1) as f32;
        let idf = |id: u32| (1.0 + n / df.get(&id).copied().unwrap_or(1).max(1) as f32).ln();
        let raw: Vec<Vec<f32>> = ids.iter().map(|doc| t.embed_ids(doc, idf)).collect();
        let mut sum = vec![0f32; t.dims()];
        for v in &raw {
            for (s, x) in sum.iter_mut().zip(v) {
                *s += x;
            }
        }
        let mean: Vec<f32> = sum.iter().map(|x| x / n).collect();
        for (id, c) in df {
            *st.df.entry(static_key(id)).or_insert(0) += c;
        }
        // The batch's documents are already counted in `st.docs` (its features); this adds their sum.
        let before = st.semantic_docs();
        st.merge(&TermStats { docs: 0, df: HashMap::new(), static_sum: sum, static_docs: 0 });
        st.static_docs = before + texts.len() as u32;
        raw.into_iter().map(|v| Some(centred(v, &mean))).collect()
    }

    /// Unit vector of a query, each feature weighted by its IDF in the corpus being searched.
    pub fn embed_query(&self, text: &str, stats: &TermStats) -> Vec<f32> {
        let feats = self.features(text);
        let mut v = if stats.docs == 0 { self.hash(&feats, None) } else { self.hash(&feats, Some(stats)) };
        if v.iter().all(|x| *x == 0.0) {
            // Nothing in the query occurs in the corpus: fall back to the plain vector.
            v = self.hash(&feats, None);
        }
        let sem = self.semantic.as_ref().map(|t| {
            let v = t.embed_ids(&t.token_ids(text), |id| stats.static_idf(id));
            match stats.static_mean(t.dims()) {
                Some(mean) => centred(v, &mean),
                None => v,
            }
        });
        self.with_semantic(v, sem, 1.0 - self.static_weight, self.static_weight)
    }

    /// Weighted features (sublinear tf × type weight) of a text.
    pub fn features(&self, text: &str) -> BTreeMap<String, f32> {
        let toks = raw_tokens(&normalise_country(text));
        let toks = normalise_periods(toks);
        let stems: Vec<String> = toks.iter().map(|t| stem(t)).collect();
        let mut tf: BTreeMap<String, (f32, f32)> = BTreeMap::new(); // feature → (count, weight)
        let mut bump = |f: String, w: f32| {
            let e = tf.entry(f).or_insert((0.0, w));
            e.0 += 1.0;
        };
        // Concepts over the full stem sequence (stopwords included: "statement of cash flows").
        let mut i = 0;
        while i < stems.len() {
            let mut matched = 0;
            if let Some(cands) = self.phrases.get(&stems[i]) {
                for (p, concept) in cands {
                    if stems.len() - i >= p.len() && stems[i..i + p.len()] == p[..] {
                        bump(format!("#{concept}"), W_CONCEPT);
                        matched = matched.max(p.len());
                    }
                }
            }
            i += matched.max(1);
        }
        // Unigrams and bigrams over content words.
        let content: Vec<&String> =
            stems.iter().filter(|s| !is_dense_stopword(s) && !is_plain_number(s)).collect();
        for (j, s) in content.iter().enumerate() {
            bump(format!("w:{s}"), W_UNIGRAM);
            let grams = char_grams(s);
            let w = W_CHARGRAMS / (grams.len().max(1) as f32).sqrt();
            for g in grams {
                bump(format!("c:{g}"), w);
            }
            if j + 1 < content.len() {
                bump(format!("b:{s}_{}", content[j + 1]), W_BIGRAM);
            }
        }
        tf.into_iter().map(|(f, (c, w))| (f, w * (1.0 + c.ln()))).collect()
    }

    fn hash(&self, feats: &BTreeMap<String, f32>, stats: Option<&TermStats>) -> Vec<f32> {
        let mut v = vec![0f32; self.dims];
        for (f, w) in feats {
            let w = match stats {
                Some(s) => w * s.idf(f),
                None => *w,
            };
            if w == 0.0 {
                continue;
            }
            let h = fnv1a(f.as_bytes());
            let b = (h % self.dims as u64) as usize;
            let sign = if (h >> 63) == 1 { -1.0 } else { 1.0 };
            v[b] += sign * w;
        }
        normalise(&mut v);
        v
    }
}

/// Fiscal years a text names: four-digit years 1900–2099 and the forms `fiscal_periods`
/// normalises ("FY22", "fiscal 2022", "2023Q2").
pub(crate) fn fiscal_years(text: &str) -> BTreeSet<u32> {
    normalise_periods(raw_tokens(text))
        .iter()
        .filter(|t| t.len() == 4 && (t.starts_with("19") || t.starts_with("20")))
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// `CHARGRAM`-grams of a lowercase word framed as `<word>`; none for words of fewer than
/// `CHARGRAM` letters or holding a digit (their whole-word feature is the match).
fn char_grams(stemmed: &str) -> Vec<String> {
    if stemmed.len() < CHARGRAM || !stemmed.chars().all(|c| c.is_ascii_alphabetic()) {
        return vec![];
    }
    let framed: Vec<char> = format!("<{stemmed}>").chars().collect();
    framed.windows(CHARGRAM).map(|w| w.iter().collect()).collect()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = crate::hash::fnv64(bytes);
    // Final avalanche so the top bit (the sign) and the low bits (the bucket) are independent.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

/// Lowercased tokens: ASCII letter/digit runs, keeping `&` inside words (P&L, PP&E, D&A, SG&A) and
/// `,`/`.` between digits (34,229; 10.70), with digit separators then removed.
fn raw_tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut out = vec![];
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i > 0 { chars[i - 1] } else { ' ' };
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        if c.is_ascii_alphanumeric() {
            cur.push(c);
        } else if c == '&' && prev.is_ascii_alphanumeric() && next.is_ascii_alphanumeric() {
            cur.push('&');
        } else if (c == ',' || c == '.') && prev.is_ascii_digit() && next.is_ascii_digit() && !cur.is_empty() {
            // digit separator: drop it but keep the run together
            if c == '.' {
                cur.push('.');
            }
        } else if c == '\'' || c == '\u{2019}' {
            // possessives and contractions: "company's" → "company"
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            // skip a following "s"
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // drop the "s" left over by possessives ("company ' s")
    out.retain(|t| t != "s");
    out
}

/// "U.S.", "U.S.A.", and "US"/"USA" written in capitals → `UnitedStates`: lowercased and split at
/// punctuation, "U.S." would leave two one-letter tokens and "US" would be the pronoun "us".
fn normalise_country(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let word_char = |c: u8| c.is_ascii_alphanumeric();
    while i < b.len() {
        let before_ok = i == 0 || !word_char(b[i - 1]);
        if before_ok {
            let mut matched = 0;
            for pat in ["U.S.A.", "U.S.", "USA", "US"] {
                let p = pat.as_bytes();
                if b.len() >= i + p.len() && &b[i..i + p.len()] == p && (i + p.len() == b.len() || !word_char(b[i + p.len()])) {
                    matched = p.len();
                    break;
                }
            }
            if matched > 0 {
                out.push_str(" UnitedStates ");
                i += matched;
                continue;
            }
        }
        // Copy one whole UTF-8 character.
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Fiscal-period normalisation: `fy2022`, `fy22`, `fiscal 2022`, `fiscal year 2022` → `2022`;
/// `2023q2` / `q2fy24` split into year and quarter.
fn normalise_periods(toks: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(toks.len());
    for t in toks {
        let push_year = |y: &str, out: &mut Vec<String>| {
            if y.len() == 2 {
                out.push(format!("20{y}"));
            } else {
                out.push(y.to_string());
            }
        };
        if let Some(rest) = t.strip_prefix("fy") {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if digits.len() == 2 || digits.len() == 4 {
                push_year(&digits, &mut out);
                let tail = &rest[digits.len()..];
                if !tail.is_empty() {
                    out.push(tail.to_string());
                }
                continue;
            }
        }
        // "2023q2"
        if t.len() == 6 && t[..4].chars().all(|c| c.is_ascii_digit()) && t.as_bytes()[4] == b'q' {
            out.push(t[..4].to_string());
            out.push(t[4..].to_string());
            continue;
        }
        // "q2fy24" / "q2fy2024"
        if t.len() > 4 && t.starts_with('q') && t[2..].starts_with("fy") {
            out.push(t[..2].to_string());
            push_year(&t[4..], &mut out);
            continue;
        }
        out.push(t);
    }
    out
}

/// A conservative suffix stripper (plural, -ing, -ed, final -e), enough to join the inflections that
/// filings and questions use for the same line item.
pub(crate) fn stem(w: &str) -> String {
    if w.len() <= 3 || w.chars().any(|c| c.is_ascii_digit()) || w.contains('&') {
        return w.to_string();
    }
    let mut s = w.to_string();
    if s.ends_with("ies") && s.len() > 4 {
        s.truncate(s.len() - 3);
        s.push('y');
    } else if s.ends_with("sses") {
        s.truncate(s.len() - 2);
    } else if s.ends_with('s') && !s.ends_with("ss") && !s.ends_with("us") && !s.ends_with("is") {
        s.pop();
    }
    if s.ends_with("ity") && s.len() > 7 {
        // "cyclicality" → "cyclical", "profitability" → "profitabil"
        s.truncate(s.len() - 3);
    } else if s.ends_with("ing") && s.len() > 5 {
        s.truncate(s.len() - 3);
    } else if s.ends_with("ed") && s.len() > 4 {
        s.truncate(s.len() - 2);
    }
    if s.ends_with('e') && s.len() > 4 {
        s.pop();
    }
    s
}

pub(crate) fn is_plain_number(s: &str) -> bool {
    if !s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return false;
    }
    if !s.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return false; // "10k", "8k", "3m" stay
    }
    // Years stay: they carry the fiscal period.
    !(s.len() == 4 && (s.starts_with("19") || s.starts_with("20")))
}

fn is_dense_stopword(s: &str) -> bool {
    s.len() < 2 || DENSE_STOP.binary_search(&s).is_ok()
}

/// General English function words plus the vocabulary of question instructions. Stemmed forms
/// (they are compared after `stem`); sorted for binary search (checked by a test).
const DENSE_STOP: &[&str] = &[
    "about", "above", "after", "again", "against", "all", "also", "am", "among", "an", "and", "answer", "any",
    "approximation", "are", "as", "ask", "assum", "at", "bas", "be", "becaus", "been", "befor", "being", "below",
    "between", "both", "but", "by", "calculat", "can", "clearly", "comput", "could", "decimal", "defin", "did", "do",
    "doe", "dur", "each", "exact", "extract", "few", "following", "for", "from", "further", "giv", "had", "has",
    "have", "having", "he", "her", "here", "hi", "how", "if", "in", "info", "information", "into", "is", "it", "item", "its",
    "itself", "judgment", "just", "lik", "lin", "mor", "most", "much", "my", "no", "nor", "not", "now",
    "number", "of", "off", "on", "once", "only", "or", "other", "our", "out", "outlin", "over", "own", "perspectiv",
    "place", "plainly", "pleas", "possibl", "primarily", "provid", "question", "rather", "reasonabl", "respond",
    "respons", "round", "sam", "should", "shown", "so", "som", "stat", "such", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "thi", "those", "through", "to", "too", "two", "under", "unit",
    "until", "up", "us", "usd", "utiliz", "very", "was", "we", "wer", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "within", "would", "you", "your",
];

/// Concept features (paper §3.4's embedder, issue 41): every phrase adds `#concept`. Three sources,
/// each fixed a priori and none written from questions:
/// - `us_gaap_items()`: the line items of the three primary statements as the US-GAAP taxonomy
///   names its elements, grouped under one standard item each (`scripts/us_gaap_concepts.py`,
///   from edgartools' mapping of 32,240 filings): `PaymentsToAcquirePropertyPlantAndEquipment` and
///   `PaymentsToAcquireProductiveAssets` are both `#CapitalExpenses`, "Capital Expenditures".
/// - `STATEMENT_TITLES`: the primary statements' titles in the wordings ASC 210, 220 and 230 and
///   filings give them, kept pure so that a question naming a statement finds its pages.
/// - `RATIOS`: standard abbreviations of line items and the standard ratios, each as the items it
///   is computed from (inventory turnover = cost of sales / inventory).
const STATEMENT_TITLES: &[(&str, &[&str])] = &[
    ("balance_sheet", &["balance sheet", "balance sheets", "statement of financial position",
        "statements of financial position", "statement of financial condition", "statements of financial condition"]),
    ("income_statement", &["income statement", "income statements", "statement of income", "statements of income",
        "statement of operations", "statements of operations", "statement of earnings", "statements of earnings",
        "p&l", "profit and loss"]),
    ("cash_flow_statement", &["cash flow statement", "cash flow statements", "statement of cash flows",
        "statements of cash flows", "cash flows statement", "cash flows statements"]),
    // `normalise_country`'s spelling of "US" / "U.S." / "United States".
    ("united_states", &["unitedstates", "united states"]),
];

/// Abbreviations and ratios → the US-GAAP items (`us_gaap_concepts.tsv`) they name or are computed from.
const RATIOS: &[(&[&str], &[&str])] = &[
    (&["capex"], &["CapitalExpenses"]),
    (&["cogs"], &["CostOfGoodsAndServicesSold"]),
    (&["sg&a"], &["SellingGeneralAndAdminExpenses"]),
    (&["r&d"], &["ResearchAndDevelopmentExpenses"]),
    (&["d&a"], &["DepreciationExpense", "DepreciationAmortizationCF"]),
    (&["pp&e"], &["PlantPropertyEquipmentNet"]),
    (&["eps"], &["EarningsPerShareBasic", "EarningsPerShareDiluted"]),
    (&["ebit"], &["OperatingIncomeLoss"]),
    (&["ebitda"], &["OperatingIncomeLoss", "DepreciationExpense", "DepreciationAmortizationCF"]),
    (&["working capital", "current ratio"], &["CurrentAssetsTotal", "CurrentLiabilitiesTotal"]),
    (&["quick ratio"], &["CurrentAssetsTotal", "CurrentLiabilitiesTotal", "Inventories"]),
    (&["inventory turnover", "days inventory outstanding"], &["CostOfGoodsAndServicesSold", "Inventories"]),
    (&["days payable outstanding", "dpo", "payables turnover"], &["TradePayables", "CostOfGoodsAndServicesSold"]),
    (&["days sales outstanding", "dso", "receivables turnover"], &["TradeReceivables", "Revenue"]),
    (&["asset turnover", "total asset turnover"], &["Revenue", "Assets"]),
    (&["fixed asset turnover"], &["Revenue", "PlantPropertyEquipmentNet"]),
    (&["return on assets", "roa"], &["NetIncome", "Assets"]),
    (&["return on equity", "roe"], &["NetIncome", "AllEquityBalance"]),
    (&["gross margin"], &["GrossProfit", "Revenue"]),
    (&["operating margin"], &["OperatingIncomeLoss", "Revenue"]),
    (&["net margin", "net profit margin", "profit margin"], &["NetIncome", "Revenue"]),
    (&["free cash flow", "fcf"], &["NetCashFromOperatingActivities", "CapitalExpenses"]),
    (&["effective tax rate"], &["IncomeTaxes", "PretaxIncomeLoss"]),
    (&["interest coverage"], &["OperatingIncomeLoss", "InterestExpense"]),
    (&["debt to equity", "debt-to-equity"], &["LongTermDebt", "ShortTermDebt", "AllEquityBalance"]),
    (&["dividend payout ratio", "payout ratio"], &["CommonDividendsPaid", "NetIncome"]),
];

/// The statement a US-GAAP item is reported on (`us_gaap_concepts.tsv`'s second column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statement {
    BalanceSheet,
    IncomeStatement,
    CashFlows,
}

/// `(item, statement, phrase)` rows of `us_gaap_concepts.tsv`, read once.
pub fn us_gaap_items() -> &'static [(&'static str, Statement, &'static str)] {
    static ROWS: std::sync::OnceLock<Vec<(&'static str, Statement, &'static str)>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        include_str!("us_gaap_concepts.tsv")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.split('\t');
                let (item, st, phrase) = (f.next()?, f.next()?, f.next()?);
                let st = match st {
                    "bs" => Statement::BalanceSheet,
                    "is" => Statement::IncomeStatement,
                    "cf" => Statement::CashFlows,
                    _ => return None,
                };
                Some((item, st, phrase))
            })
            .collect()
    })
}

/// The statement of a US-GAAP item's concept feature (`#CapitalExpenses` → cash flows).
pub fn item_statement(feature: &str) -> Option<Statement> {
    static BY_ITEM: std::sync::OnceLock<HashMap<&'static str, Statement>> = std::sync::OnceLock::new();
    let item = feature.strip_prefix('#')?;
    BY_ITEM.get_or_init(|| us_gaap_items().iter().map(|(i, s, _)| (*i, *s)).collect()).get(item).copied()
}

/// Every `(phrase, concept)` pair of the three sources.
fn concept_phrases() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = us_gaap_items().iter().map(|(i, _, p)| (*p, *i)).collect();
    for (concept, list) in STATEMENT_TITLES {
        out.extend(list.iter().map(|p| (*p, *concept)));
    }
    for (names, items) in RATIOS {
        for n in *names {
            out.extend(items.iter().map(|i| (*n, *i)));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// API embedder

/// The OpenAI-compatible `/v1/embeddings` embedder: batching, retries and usage accounting are the
/// `LlmClient`'s; this adds unit-length normalisation and the dimension rule.
///
/// Dimensions: a model's output size is whatever the server answers (OpenAI 3,072 or a shortened
/// size, Ollama's nomic-embed-text 768, bge-m3 1,024, any llama.cpp or vLLM model its own). With
/// `models.embedding_dimensions` unset (or 0) the size is learnt from the first response and the
/// corpus keeps it (`Corpus::dims`, and the embedder name `api:<model>:<dims>`); every later
/// response — more documents, a query — must match it. A mismatch is an error that names the
/// setting to change, never a silently empty search.
pub struct ApiEmbedder<'a, 'b, T: Transport> {
    client: &'b LlmClient<'a, T>,
    expected: Expected,
    learnt: Cell<Option<usize>>,
}

/// Where the expected size comes from (it decides what the mismatch error tells the user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// Learn from the first response.
    Learn,
    /// `models.embedding_dimensions`, sent as `dimensions` in each request.
    Setting(usize),
    /// The vectors already in the corpus being extended or searched.
    Corpus(usize),
}

impl<'a, 'b, T: Transport> ApiEmbedder<'a, 'b, T> {
    /// For a new corpus: the size `models.embedding_dimensions` asks for, or (unset or 0) the
    /// size of the model's first answer.
    pub fn new(client: &'b LlmClient<'a, T>) -> Self {
        let expected = match client.settings().models.embedding_dimensions {
            Some(d) if d > 0 => Expected::Setting(d as usize),
            _ => Expected::Learn,
        };
        ApiEmbedder { client, expected, learnt: Cell::new(None) }
    }

    /// For an existing corpus of `dims`-dimensional vectors (adding documents, or searching it).
    pub fn for_corpus(client: &'b LlmClient<'a, T>, dims: usize) -> Self {
        ApiEmbedder { client, expected: Expected::Corpus(dims), learnt: Cell::new(None) }
    }

    fn check(&self, got: usize) -> Result<(), String> {
        let model = &self.client.settings().models.embedding_model;
        let want = match (self.expected, self.learnt.get()) {
            (Expected::Setting(d) | Expected::Corpus(d), _) | (Expected::Learn, Some(d)) => d,
            (Expected::Learn, None) => {
                self.learnt.set(Some(got));
                return Ok(());
            }
        };
        if got == want {
            return Ok(());
        }
        Err(match self.expected {
            Expected::Setting(_) => format!(
                "the embedding model `{model}` returned {got} dimensions, but models.embedding_dimensions asks for {want}: \
                 clear models.embedding_dimensions to use the model's own size, or set it to {got}"
            ),
            Expected::Corpus(_) => format!(
                "the embedding model `{model}` returned {got} dimensions, but this corpus holds {want}-dimensional vectors: \
                 set models.embedding_dimensions = {want} if the model can shorten its output, use the model the corpus \
                 was built with, or build a new corpus"
            ),
            Expected::Learn => format!(
                "the embedding model `{model}` returned {got} dimensions after {want} for earlier texts: \
                 set models.embedding_dimensions to the size you want the server to return"
            ),
        })
    }

    pub async fn embed_batch(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        let mut out = self.client.embed(texts).await?;
        for v in out.iter_mut() {
            if v.is_empty() {
                return Err(format!("the embedding model `{}` returned an empty vector", self.client.settings().models.embedding_model));
            }
            self.check(v.len())?;
            normalise(v);
        }
        Ok(out)
    }
    pub async fn embed(&self, text: &str) -> Result<Vec<f32>, String> {
        let mut v = self.embed_batch(&[text.to_string()]).await?;
        v.pop().ok_or_else(|| "the embedding model returned nothing".to_string())
    }
}

impl<T: Transport> Embedder for ApiEmbedder<'_, '_, T> {
    fn name(&self) -> String {
        format!("api:{}:{}", self.client.settings().models.embedding_model, self.dims())
    }
    /// The expected size; 0 while it is still to be learnt from the first response.
    fn dims(&self) -> usize {
        match self.expected {
            Expected::Setting(d) | Expected::Corpus(d) => d,
            Expected::Learn => self.learnt.get().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cos(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    /// The hashed features' buckets and signs come from FNV-1a 64 with a final avalanche; a stored
    /// corpus was embedded with them, so the values are pinned (computed independently).
    #[test]
    fn feature_hash_is_fnv1a_with_avalanche() {
        assert_eq!(fnv1a(b"#featureless"), 0x3ab1_0ed2_4177_41b9);
        assert_eq!(fnv1a(b"<rev"), 0x9514_8ea3_47f6_0529);
        assert_eq!(fnv1a(b"revenue"), 0x3179_903d_a92d_2ffa);
    }

    #[test]
    fn dense_stop_list_is_sorted() {
        let mut s = DENSE_STOP.to_vec();
        s.sort();
        assert_eq!(s, DENSE_STOP);
    }

    #[test]
    fn offline_vectors_are_unit_length_and_deterministic() {
        let e = OfflineEmbedder::default();
        let a = e.embed("Net sales increased 5% in fiscal 2022");
        let n: f32 = a.iter().map(|x| x * x).sum();
        assert!((n - 1.0).abs() < 1e-4);
        assert_eq!(a, OfflineEmbedder::default().embed("Net sales increased 5% in fiscal 2022"));
        assert_eq!(e.embed_batch(&["x y".into()]).len(), 1);
    }

    #[test]
    fn fiscal_periods_are_normalised() {
        let e = OfflineEmbedder::default();
        for q in ["FY2022 revenue", "fiscal 2022 revenue", "FY22 revenue"] {
            assert!(e.features(q).contains_key("w:2022"), "{q}");
        }
        assert!(!e.features("sales were 34,229 million").contains_key("w:34229"));
    }

    #[test]
    fn elements_of_one_us_gaap_item_share_its_concept() {
        let e = OfflineEmbedder::default();
        // Two elements of `CapitalExpenses` and the item's display name; an abbreviation of it.
        for t in ["Capital expenditures", "Payments to acquire property, plant and equipment",
            "Payments to acquire productive assets", "What is the capex?"] {
            assert!(e.features(t).contains_key("#CapitalExpenses"), "{t}");
        }
        // Either side of a pair the taxonomy names together (`NetCashProvidedByUsedInOperatingActivities`).
        for t in ["Net cash provided by operating activities", "Net cash used in operating activities"] {
            assert!(e.features(t).contains_key("#NetCashFromOperatingActivities"), "{t}");
        }
        // A side of a pair alone names nothing: "income" is not net income.
        assert!(!e.features("interest income rose").contains_key("#NetIncome"));
        let a = e.embed("What is the capex?");
        let b = e.embed("Payments to acquire property, plant and equipment");
        let c = e.embed("Advertising costs are expensed as incurred");
        assert!(cos(&a, &b) > cos(&a, &c) + 0.1, "{} vs {}", cos(&a, &b), cos(&a, &c));
        let a = e.embed("earnings per share");
        let b = e.embed("EPS grew");
        let c = e.embed("Leases expire through 2030");
        assert!(cos(&a, &b) > cos(&a, &c) + 0.1, "{} vs {}", cos(&a, &b), cos(&a, &c));
    }

    #[test]
    fn every_ratio_is_computed_from_items_the_taxonomy_list_holds() {
        let items: BTreeSet<&str> = us_gaap_items().iter().map(|(i, _, _)| *i).collect();
        assert!(items.len() >= 100 && us_gaap_items().len() >= 500, "{} items, {} phrases", items.len(), us_gaap_items().len());
        for (names, inputs) in RATIOS {
            for i in *inputs {
                assert!(items.contains(i), "{names:?} names {i}, which us_gaap_concepts.tsv does not hold");
            }
        }
        assert_eq!(item_statement("#Inventories"), Some(Statement::BalanceSheet));
        assert_eq!(item_statement("#CapitalExpenses"), Some(Statement::CashFlows));
        assert_eq!(item_statement("#balance_sheet"), None);
    }

    #[test]
    fn inflections_meet_through_character_ngrams() {
        let e = OfflineEmbedder::default();
        let (a, b) = (e.features("liquidated"), e.features("liquidation"));
        let shared = a.keys().filter(|k| k.starts_with("c:") && b.contains_key(*k)).count();
        assert!(shared >= 4, "{shared} shared n-grams");
        let q = e.embed("liquidated");
        let (near, far) = (e.embed("liquidation"), e.embed("litigation"));
        assert!(cos(&q, &near) > cos(&q, &far) + 0.05, "{} vs {}", cos(&q, &near), cos(&q, &far));
    }

    #[test]
    fn us_in_capitals_means_united_states_not_the_pronoun() {
        let e = OfflineEmbedder::default();
        for t in ["US sales growth", "U.S. sales growth", "sales in the United States"] {
            assert!(e.features(t).contains_key("#united_states"), "{t}");
        }
        assert!(!e.features("let us grow").contains_key("#united_states"));
    }

    #[test]
    fn the_static_part_finds_a_synonym_the_lexical_part_cannot() {
        use crate::retrieve::static_embed::{tests::table_bytes, StaticTable};
        let t = Arc::new(StaticTable::from_bytes(&table_bytes(&[
            ("turnover", vec![1.0, 0.1, 0.0]),
            ("attrition", vec![0.9, 0.2, 0.0]),
            ("lease", vec![0.0, 0.0, 1.0]),
        ])).unwrap());
        let docs = vec!["employee attrition".to_string(), "lease terms".to_string()];
        let lexical = OfflineEmbedder::default();
        let semantic = OfflineEmbedder::default().with_static(t.clone(), 0.8);
        assert!(semantic.name().starts_with("offline-v3-1024+static-") && semantic.dims() == 1027);
        let score = |e: &OfflineEmbedder, w: f32| {
            let e = e.clone().with_static(t.clone(), w);
            let (dv, st) = e.embed_documents_with_stats(&docs);
            let q = e.embed_query("staff turnover", &st);
            assert_eq!(q.len(), e.dims());
            (cos(&q, &dv[0]), cos(&q, &dv[1]))
        };
        // Lexically the question shares no word with either document; the static rows join
        // "turnover" and "attrition".
        let (a, b) = score(&semantic, 0.8);
        assert!(a > b + 0.3, "{a} vs {b}");
        // Weight 0: the semantic part is silent, both documents are equally far.
        let (a, b) = score(&lexical, 0.0);
        assert!((a - b).abs() < 0.05, "{a} vs {b}");
    }

    #[test]
    fn the_static_parts_of_one_filings_pages_are_centred_not_parallel() {
        use crate::retrieve::static_embed::{tests::table_bytes, StaticTable};
        // Every page of a filing says "company" and "million", whose rows dominate a plain mean;
        // each page has one word of its own.
        let t = Arc::new(StaticTable::from_bytes(&table_bytes(&[
            ("company", vec![5.0, 0.5, 0.0, 0.0]),
            ("million", vec![4.0, 1.0, 0.0, 0.0]),
            ("lease", vec![0.5, 0.0, 1.0, 0.0]),
            ("revenue", vec![0.5, 0.0, 0.0, 1.0]),
            ("debt", vec![0.5, 0.0, -0.7, -0.7]),
        ])).unwrap());
        let docs: Vec<String> = ["company million lease", "company million revenue", "company million debt"].map(String::from).to_vec();
        let plain = (t.embed(&docs[0]), t.embed(&docs[1]));
        assert!(cos(&plain.0, &plain.1) > 0.9, "the plain mean is near-parallel: {}", cos(&plain.0, &plain.1));
        let e = OfflineEmbedder::default().with_static(t.clone(), 1.0);
        let (dv, st) = e.embed_documents_with_stats(&docs);
        let lex = e.lexical_dims();
        let sem: Vec<&[f32]> = dv.iter().map(|v| &v[lex..]).collect();
        assert!(cos(sem[0], sem[1]) < 0.2, "centred pages differ: {}", cos(sem[0], sem[1]));
        // The statistics carry the mean, and a query is centred on it: with the semantic part
        // alone, "lease terms" (no lexical feature here at weight 1) finds the lease page first.
        assert_eq!(st.static_sum.len(), t.dims());
        let q = e.embed_query("lease terms", &st);
        let best = (0..3).max_by(|&a, &b| cos(&q, &dv[a]).total_cmp(&cos(&q, &dv[b]))).unwrap();
        assert_eq!(best, 0);
        // Read back without its statistics, a corpus gets the same ones from its documents.
        assert_eq!(e.document_stats(&docs), st);
        // Merged with a library's statistics (a server embeds without the semantic part), the
        // mean stays the mean of the documents that have one: the same query vector.
        let library = OfflineEmbedder::default().document_stats(&vec!["company million revenue".to_string(); 5]);
        let mut merged = library.clone();
        merged.merge(&st);
        assert_eq!((merged.docs, merged.semantic_docs()), (8, 3));
        assert_eq!(merged.static_mean(t.dims()), st.static_mean(t.dims()));
        let mut other_way = st.clone();
        other_way.merge(&library);
        assert_eq!(other_way.static_mean(t.dims()), st.static_mean(t.dims()));
    }

    #[test]
    fn featureless_document_is_not_the_zero_vector() {
        let e = OfflineEmbedder::default();
        let v = &e.embed_documents(&["55".to_string(), "Net sales rose".to_string()])[0];
        assert!((v.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-4);
    }
}
