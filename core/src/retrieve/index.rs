//! The corpus index (spec §5): documents, their unit vectors in one contiguous slab per modality
//! (so the modality filter is free and an exact scan is a straight loop), an optional HNSW graph per
//! modality, and a compact, checksummed binary form for persistence.
//!
//! Exact scan is the default and always available. A graph costs tens of seconds to build at
//! 5,000 vectors (PDF_NOTES.md), so in the browser it is built in another worker from a
//! `graph_job` and swapped in with `install_graph` (`graph.rs`); the CLI may `build_hnsw` in place.
//! Any change to the documents drops the graphs and bumps `generation` (instant-distance has no
//! incremental insert); a graph blob is accepted only for a slab with its `fingerprint`.
//!
//! Vectors are stored as f16 in the blob and rounded to f16 when added, so a corpus answers the same
//! before and after a save/load round trip.

use crate::hash::{fnv64, fnv64_more};
use super::blend::{blend_all, cap_per_group};
use super::embed::{embedding_inputs, fiscal_years, OfflineEmbedder, TermStats};
use super::prior::{question_kinds, PageIndex};
use crate::config::{Modality, RetrievalSettings};
use crate::corpus::{Doc, ExtractionConfidence, Hit};
use super::graph::{self, Graph, GraphError, GraphJob, HPoint};
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Docs `start..end` (all of one modality) and, when built or loaded, their HNSW graph (points are
/// the slab's rows, `row` 0 = doc `start`).
struct Slab {
    modality: Modality,
    start: usize,
    end: usize,
    hnsw: Option<Graph>,
    /// `Corpus::fingerprint` of this slab, computed on first use.
    fingerprint: OnceCell<u64>,
}

/// Which index answered a search: the exact scan, or (for at least one of the modalities searched)
/// an HNSW graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchPath {
    #[default]
    Exact,
    Hnsw,
}

pub struct Corpus {
    /// `Embedder::name()` of the vectors; queries must come from the same embedder.
    pub embedder: String,
    pub dims: usize,
    /// Grouped by modality (Text, Table, Chart, ToolDerived), insertion order within a modality.
    pub docs: Vec<Doc>,
    /// `docs.len() × dims`, row i belongs to `docs[i]`; shared with the graphs' points.
    vectors: Arc<[f32]>,
    /// `|vectors[i]|²`, for the sparse-query scan.
    norms: Vec<f32>,
    slabs: Vec<Slab>,
    /// Offline-embedder document frequencies, the sum of `source_stats`, on first use.
    stats: OnceCell<TermStats>,
    /// Pages and their profiles (`prior.rs`), on first use.
    pages: OnceCell<PageIndex>,
    /// Each file's share of `stats`: handed over from the batch that embedded it
    /// (`set_source_stats`), or computed from its documents on first use. A change to one file
    /// drops only its share, so a new file is search-ready without recomputing the others.
    source_stats: RefCell<BTreeMap<String, TermStats>>,
    /// Bumped by every change to the documents: a graph built for another generation is stale.
    generation: u64,
}

const MAGIC: &[u8; 8] = b"CLAIRIDX";
const VERSION: u32 = 1;

#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    embedder: String,
    dims: usize,
    docs: Vec<Doc>,
}

impl Corpus {
    pub fn new(embedder_name: impl Into<String>, dims: usize) -> Corpus {
        Corpus {
            embedder: embedder_name.into(),
            dims,
            docs: vec![],
            vectors: Arc::from(Vec::new()),
            norms: vec![],
            slabs: vec![],
            stats: OnceCell::new(),
            pages: OnceCell::new(),
            source_stats: RefCell::default(),
            generation: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Source file names, sorted.
    pub fn sources(&self) -> Vec<String> {
        self.docs.iter().map(|d| d.source.clone()).collect::<BTreeSet<_>>().into_iter().collect()
    }

    /// Vector of `docs[i]`.
    pub fn vector(&self, i: usize) -> &[f32] {
        &self.vectors[i * self.dims..(i + 1) * self.dims]
    }

    /// Add documents with their vectors (one per doc, `dims` long, finite). A document whose id is
    /// already present replaces the old one (ids are deterministic, so re-ingesting a file replaces
    /// its documents; call `remove_source` first when the file itself changed). Batches of one source
    /// may arrive in several calls (embedding batches).
    pub fn add(&mut self, docs: Vec<Doc>, vectors: Vec<Vec<f32>>) -> Result<(), String> {
        if docs.len() != vectors.len() {
            return Err(format!("{} documents but {} vectors", docs.len(), vectors.len()));
        }
        for (d, v) in docs.iter().zip(&vectors) {
            if v.len() != self.dims {
                return Err(format!("vector of {} has {} dimensions, the corpus {}", d.id, v.len(), self.dims));
            }
            if v.iter().any(|x| !x.is_finite()) {
                return Err(format!("vector of {} holds a non-finite number", d.id));
            }
        }
        let touched: BTreeSet<&str> = docs.iter().map(|d| d.source.as_str()).collect();
        self.source_stats.get_mut().retain(|s, _| !touched.contains(s.as_str()));
        let new_ids: BTreeSet<&str> = docs.iter().map(|d| d.id.as_str()).collect();
        let mut all: Vec<(Doc, Vec<f32>)> = Vec::with_capacity(self.docs.len() + docs.len());
        for (i, d) in std::mem::take(&mut self.docs).into_iter().enumerate() {
            if !new_ids.contains(d.id.as_str()) {
                let v = self.vectors[i * self.dims..(i + 1) * self.dims].to_vec();
                all.push((d, v));
            }
        }
        // Within one batch a repeated id keeps its last occurrence.
        let mut seen = BTreeSet::new();
        let mut batch: Vec<(Doc, Vec<f32>)> = vec![];
        for (d, v) in docs.into_iter().zip(vectors).rev() {
            if seen.insert(d.id.clone()) {
                batch.push((d, v.iter().map(|x| f16_to_f32(f32_to_f16(*x))).collect()));
            }
        }
        batch.reverse();
        all.extend(batch);
        self.rebuild(all);
        Ok(())
    }

    /// Remove every document of `source`; returns how many went.
    pub fn remove_source(&mut self, source: &str) -> usize {
        if !self.docs.iter().any(|d| d.source == source) {
            return 0;
        }
        self.source_stats.get_mut().remove(source);
        let before = self.docs.len();
        let mut all = vec![];
        for (i, d) in std::mem::take(&mut self.docs).into_iter().enumerate() {
            if d.source != source {
                let v = self.vectors[i * self.dims..(i + 1) * self.dims].to_vec();
                all.push((d, v));
            }
        }
        self.rebuild(all);
        before - self.docs.len()
    }

    fn rebuild(&mut self, mut all: Vec<(Doc, Vec<f32>)>) {
        all.sort_by_key(|(d, _)| d.modality); // stable: insertion order within a modality
        let mut vectors = Vec::with_capacity(all.len() * self.dims);
        self.norms = all.iter().map(|(_, v)| v.iter().map(|x| x * x).sum()).collect();
        self.docs = Vec::with_capacity(all.len());
        self.slabs.clear();
        for (i, (d, v)) in all.into_iter().enumerate() {
            match self.slabs.last_mut() {
                Some(s) if s.modality == d.modality => s.end = i + 1,
                _ => self.slabs.push(Slab { modality: d.modality, start: i, end: i + 1, hnsw: None, fingerprint: OnceCell::new() }),
            }
            vectors.extend_from_slice(&v);
            self.docs.push(d);
        }
        self.vectors = Arc::from(vectors);
        self.stats = OnceCell::new();
        self.pages = OnceCell::new();
        self.generation += 1;
    }

    /// Changes with every change to the documents (graphs are dropped with it).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Per modality slab: (modality, vectors, has a graph), in slab order.
    pub fn slabs(&self) -> Vec<(Modality, usize, bool)> {
        self.slabs.iter().map(|s| (s.modality, s.end - s.start, s.hnsw.is_some())).collect()
    }

    /// What identifies a modality's slab across sessions: FNV-1a over the embedder, dimensions,
    /// document ids in order and the vectors' bits. A stored graph is used only for an equal one.
    pub fn fingerprint(&self, m: Modality) -> Option<u64> {
        let s = self.slabs.iter().find(|s| s.modality == m)?;
        Some(*s.fingerprint.get_or_init(|| {
            let mut h = fnv64(self.embedder.as_bytes()) ^ self.dims as u64;
            for d in &self.docs[s.start..s.end] {
                h = fnv64_more(h, d.id.as_bytes());
                h = fnv64_more(h, &[0]);
            }
            for x in &self.vectors[s.start * self.dims..s.end * self.dims] {
                // One FNV step per 32-bit word, not per byte: the fingerprints already stored with
                // graphs were made this way, so it stays.
                h = (h ^ x.to_bits() as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
            h
        }))
    }

    /// The builder's job for modality `m`: its vectors and what the result will be checked against.
    pub fn graph_job(&self, m: Modality) -> Option<GraphJob> {
        let s = self.slabs.iter().find(|s| s.modality == m)?;
        Some(GraphJob {
            modality: m,
            generation: self.generation,
            fingerprint: self.fingerprint(m)?,
            dims: self.dims,
            vectors: self.vectors[s.start * self.dims..s.end * self.dims].to_vec(),
        })
    }

    /// Swap in a graph blob (from the builder or the store) for modality `m` if it was built over
    /// exactly this slab; queries of `m` use it from the next search on.
    pub fn install_graph(&mut self, m: Modality, blob: &[u8]) -> Result<(), GraphError> {
        let fp = self.fingerprint(m).ok_or(GraphError::Stale)?;
        let (dims, data) = (self.dims, self.vectors.clone());
        let s = self.slabs.iter_mut().find(|s| s.modality == m).ok_or(GraphError::Stale)?;
        s.hnsw = Some(graph::decode(blob, data, s.start, dims, s.end - s.start, fp)?);
        Ok(())
    }

    /// The graph of modality `m` as a blob (to persist a graph built in-process).
    pub fn graph_blob(&self, m: Modality) -> Option<Vec<u8>> {
        let s = self.slabs.iter().find(|s| s.modality == m)?;
        graph::encode(s.hnsw.as_ref()?, self.fingerprint(m)?, self.dims, s.end - s.start).ok()
    }

    /// Build an HNSW graph, in this thread, for every modality slab of at least `min_vectors`
    /// vectors (and drop the graphs of smaller ones): the CLI and tests. Deterministic (fixed seed).
    /// Returns how many graphs exist afterwards.
    pub fn build_hnsw(&mut self, min_vectors: usize) -> usize {
        for s in self.slabs.iter_mut() {
            s.hnsw = (s.end - s.start >= min_vectors.max(1)).then(|| graph::build_over(self.vectors.clone(), s.start * self.dims, self.dims, s.end - s.start));
        }
        self.hnsw_count()
    }

    pub fn hnsw_count(&self) -> usize {
        self.slabs.iter().filter(|s| s.hnsw.is_some()).count()
    }

    /// Drop the graphs: queries go back to the exact scan.
    pub fn drop_hnsw(&mut self) {
        for s in self.slabs.iter_mut() {
            s.hnsw = None;
        }
    }

    /// Hand over `source`'s document frequencies from the batch that embedded all of its documents
    /// (`OfflineEmbedder::embed_documents_with_stats`), after `add`.
    pub fn set_source_stats(&mut self, source: &str, stats: TermStats) {
        self.source_stats.get_mut().insert(source.to_string(), stats);
        self.stats = OnceCell::new();
    }

    /// `source`'s share of the statistics, when known (to persist it with the file).
    pub fn source_stats(&self, source: &str) -> Option<TermStats> {
        self.source_stats.borrow().get(source).cloned()
    }

    /// The statistics of the files not in `exclude` (the sum of their shares): this browser's
    /// part of the one set a library and a browser weight queries with (`Library`'s
    /// `LibraryStats`), leaving out the files the library holds too.
    pub fn term_stats_excluding(&self, e: &OfflineEmbedder, exclude: &BTreeSet<String>) -> TermStats {
        self.term_stats(e); // every present file's share known, the departed ones dropped
        let mut st = TermStats::default();
        for (source, share) in self.source_stats.borrow().iter() {
            if !exclude.contains(source) {
                st.merge(share);
            }
        }
        st
    }

    /// Offline-embedder IDF statistics over the documents (computed once per corpus state): the
    /// sum of every file's share, computing only the shares not known yet.
    pub fn term_stats(&self, e: &OfflineEmbedder) -> &TermStats {
        self.stats.get_or_init(|| {
            let mut shares = self.source_stats.borrow_mut();
            let sources: BTreeSet<&str> = self.docs.iter().map(|d| d.source.as_str()).collect();
            shares.retain(|s, _| sources.contains(s.as_str()));
            if sources.iter().any(|s| !shares.contains_key(*s)) {
                // Page headings never cross files, so one pass over all documents gives each file's inputs.
                // A file's share is taken over its documents as one batch, in corpus order — the
                // batch its vectors were embedded in (the static part's mean is a batch figure).
                let known: BTreeSet<String> = shares.keys().cloned().collect();
                let mut batches: BTreeMap<String, Vec<String>> = BTreeMap::new();
                for (d, text) in self.docs.iter().zip(embedding_inputs(&self.docs)) {
                    if !known.contains(&d.source) {
                        batches.entry(d.source.clone()).or_default().push(text);
                    }
                }
                for (source, texts) in batches {
                    shares.insert(source, e.document_stats(&texts));
                }
            }
            let mut st = TermStats::default();
            for share in shares.values() {
                st.merge(share);
            }
            st
        })
    }

    /// Spec §5: a dense pool of `pool_factor · k` (modality-filtered), reranked by the blend, top k
    /// with at most `max_hits_per_page` per (source, page) (0 = no cap, the reference).
    /// Low-confidence table documents are left out of tabular (`Some(Table)`) searches. A query
    /// vector of the wrong size finds nothing.
    pub fn search(&self, query_vec: &[f32], query_text: &str, k: usize, modality: Option<Modality>, s: &RetrievalSettings) -> Vec<Hit> {
        self.search_traced(query_vec, query_text, k, modality, s, true).0
    }

    /// `search`, saying which index answered; `use_graphs = false` forces the exact scan (recall
    /// checks). The graph path uses the same pool size and the same blend as the exact one.
    pub fn search_traced(
        &self,
        query_vec: &[f32],
        query_text: &str,
        k: usize,
        modality: Option<Modality>,
        s: &RetrievalSettings,
        use_graphs: bool,
    ) -> (Vec<Hit>, SearchPath) {
        if query_vec.len() != self.dims || k == 0 {
            return (vec![], SearchPath::Exact);
        }
        let (mut pool, path) = self.pool_traced(query_vec, k * s.pool_factor.max(1), modality, use_graphs);
        // The structural prior (`prior.rs`): statement pages join the pool and are lifted.
        let prior = (s.statement_prior > 0.0).then(|| self.page_index());
        let years = if s.statement_prior_needs_year { fiscal_years(query_text) } else { BTreeSet::new() };
        let lifted = |i: usize| prior.is_some_and(|p| p.lifts(i, &years, s.statement_prior_needs_year));
        let kinds = if prior.is_some() && s.statement_prior_matched > 0.0 { question_kinds(query_text) } else { 0 };
        if let Some(pages) = prior {
            // Each statement page's nearest document within the pool's filter joins, among the
            // `statement_pool` flagged documents nearest the question (0 = all of them): the same
            // bound a library's statement-page search has (`milvus.rs`), so the two rank alike.
            let dist = self.distance_fn(query_vec);
            let in_pool: BTreeSet<usize> = pool.iter().map(|x| x.0).collect();
            let mut flagged: Vec<(usize, f32)> = pages
                .pages
                .iter()
                .filter(|p| p.statement)
                .flat_map(|p| p.members.iter().copied())
                .filter(|&j| modality.is_none_or(|m| self.docs[j].modality == m))
                .filter(|&j| !(modality == Some(Modality::Table) && self.docs[j].confidence == ExtractionConfidence::Low))
                .map(|j| (j, dist(j)))
                .collect();
            if s.statement_pool > 0 && flagged.len() > s.statement_pool {
                flagged.select_nth_unstable_by(s.statement_pool, cmp_pair);
                flagged.truncate(s.statement_pool);
            }
            flagged.sort_by(cmp_pair);
            let mut joined = BTreeSet::new();
            for (j, d) in flagged {
                if lifted(j) && joined.insert(pages.page_of[j]) && !in_pool.contains(&j) {
                    pool.push((j, d));
                }
            }
        }
        let mut ranked = blend_all(pool.iter().map(|&(i, d)| (i, d, self.docs[i].text.as_str())), query_text, s);
        if let Some(pages) = prior {
            // `statement_prior`, plus `statement_prior_matched` on the statements the question asks about.
            for r in ranked.iter_mut() {
                r.1 += pages.lift(r.0, kinds, &years, s);
            }
            // Stable: equal scores keep the blend's order.
            ranked.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
        }
        let hits = cap_per_group(&ranked, k, s.max_hits_per_page, |i| (self.docs[i].source.as_str(), self.docs[i].page))
            .into_iter()
            .map(|(i, score)| Hit { doc: self.docs[i].clone(), score })
            .collect();
        (hits, path)
    }

    /// Each document's page and each page's profile for the structural prior, on first use.
    pub fn page_index(&self) -> &PageIndex {
        self.pages.get_or_init(|| PageIndex::build(&self.docs))
    }

    /// Dense candidates (doc index, squared L2), nearest first, ties by document order.
    pub fn pool(&self, q: &[f32], n: usize, modality: Option<Modality>) -> Vec<(usize, f32)> {
        self.pool_traced(q, n, modality, true).0
    }

    fn pool_traced(&self, q: &[f32], n: usize, modality: Option<Modality>, use_graphs: bool) -> (Vec<(usize, f32)>, SearchPath) {
        let skip_low = modality == Some(Modality::Table);
        let mut out: Vec<(usize, f32)> = vec![];
        let mut path = SearchPath::Exact;
        for s in self.slabs.iter().filter(|s| modality.is_none_or(|m| m == s.modality)) {
            let keep = |i: usize| !(skip_low && self.docs[i].confidence == ExtractionConfidence::Low);
            match s.hnsw.as_ref().filter(|_| use_graphs) {
                Some(g) => {
                    path = SearchPath::Hnsw;
                    let mut search = instant_distance::Search::default();
                    out.extend(
                        g.search(&HPoint::query(q), &mut search)
                            .map(|it| s.start + it.point.row as usize)
                            .filter(|&i| keep(i))
                            .take(n)
                            .map(|i| (i, sq_l2(q, self.vector(i)))),
                    );
                }
                None => {
                    let dist = self.distance_fn(q);
                    let mut part: Vec<(usize, f32)> = (s.start..s.end).filter(|&i| keep(i)).map(|i| (i, dist(i))).collect();
                    if part.len() > n {
                        part.select_nth_unstable_by(n, cmp_pair);
                        part.truncate(n);
                    }
                    out.extend(part);
                }
            }
        }
        out.sort_by(cmp_pair);
        out.truncate(n);
        (out, path)
    }

    /// The exact scan's distance to row i. A sparse query (the offline embedder's: a question has
    /// tens of hashed features in 1,024 dimensions) uses |q|² + |v|² − 2 q·v over its non-zero
    /// dimensions only — the same squared L2, a tenth of the work (worker/tests/bench.rs); a query
    /// whose last dimensions are dense (the static table's semantic part, `dense_tail`) adds their
    /// dot product as one contiguous (simd128) loop; a dense one (API embeddings) the straight loop.
    fn distance_fn<'a>(&'a self, q: &'a [f32]) -> Box<dyn Fn(usize) -> f32 + 'a> {
        let tail = dense_tail(q);
        let nz: Vec<(usize, f32)> = q[..tail].iter().copied().enumerate().filter(|(_, x)| *x != 0.0).collect();
        if nz.len() * 4 > tail.max(1) || (tail == q.len() && nz.len() * 4 > self.dims) {
            return Box::new(move |i| sq_l2(q, self.vector(i)));
        }
        let qn: f32 = q.iter().map(|x| x * x).sum();
        let qt = &q[tail..];
        Box::new(move |i| {
            let row = self.vector(i);
            let mut dot: f32 = nz.iter().map(|&(j, x)| x * row[j]).sum();
            if !qt.is_empty() {
                dot += dot_product(qt, &row[tail..]);
            }
            (qn + self.norms[i] - 2.0 * dot).max(0.0)
        })
    }

    /// Exact-scan pool regardless of graphs (for measuring HNSW recall).
    pub fn exact_pool(&self, q: &[f32], n: usize, modality: Option<Modality>) -> Vec<(usize, f32)> {
        let mut all: Vec<(usize, f32)> = (0..self.docs.len())
            .filter(|&i| modality.is_none_or(|m| self.docs[i].modality == m))
            .map(|i| (i, sq_l2(q, self.vector(i))))
            .collect();
        all.sort_by(cmp_pair);
        all.truncate(n);
        all
    }

    /// `CLAIRIDX`, version, JSON header (embedder, dims, documents), f16 vectors, FNV-1a checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = Header { embedder: self.embedder.clone(), dims: self.dims, docs: self.docs.clone() };
        let json = serde_json::to_vec(&header).unwrap_or_default();
        let mut b = Vec::with_capacity(24 + json.len() + self.vectors.len() * 2);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(json.len() as u64).to_le_bytes());
        b.extend_from_slice(&json);
        for x in self.vectors.iter() {
            b.extend_from_slice(&f32_to_f16(*x).to_le_bytes());
        }
        let sum = fnv64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The inverse of `to_bytes`; any truncation, bit flip or foreign file is an error.
    pub fn from_bytes(b: &[u8]) -> Result<Corpus, String> {
        const BAD: &str = "the corpus store is damaged or not a CLAIR corpus; rebuild it by ingesting the files again";
        if b.len() < 8 + 4 + 8 + 8 || &b[..8] != MAGIC {
            return Err(BAD.into());
        }
        let (body, sum) = b.split_at(b.len() - 8);
        let sum = u64::from_le_bytes(sum.try_into().map_err(|_| BAD)?);
        if fnv64(body) != sum {
            return Err(format!("{BAD} (checksum mismatch)"));
        }
        let version = u32::from_le_bytes(body[8..12].try_into().map_err(|_| BAD)?);
        if version != VERSION {
            return Err(format!("corpus store version {version} is not supported (expected {VERSION}); rebuild it"));
        }
        let jlen = u64::from_le_bytes(body[12..20].try_into().map_err(|_| BAD)?);
        let jend = usize::try_from(jlen).ok().and_then(|l| l.checked_add(20)).filter(|&e| e <= body.len()).ok_or(BAD)?;
        let header: Header = serde_json::from_slice(&body[20..jend]).map_err(|e| format!("{BAD} ({e})"))?;
        let n = header.docs.len();
        let want = n.checked_mul(header.dims).and_then(|x| x.checked_mul(2)).ok_or(BAD)?;
        let vb = &body[jend..];
        if vb.len() != want || header.dims == 0 && n > 0 {
            return Err(format!("{BAD} (vector block size)"));
        }
        let vecs: Vec<Vec<f32>> = vb
            .chunks_exact(2 * header.dims.max(1))
            .map(|row| row.chunks_exact(2).map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]]))).collect())
            .collect();
        if vecs.iter().flatten().any(|x| !x.is_finite()) {
            return Err(format!("{BAD} (non-finite vector)"));
        }
        let mut c = Corpus::new(header.embedder, header.dims);
        c.rebuild(header.docs.into_iter().zip(vecs).collect());
        Ok(c)
    }
}

fn cmp_pair(a: &(usize, f32), b: &(usize, f32)) -> std::cmp::Ordering {
    a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal).then(a.0.cmp(&b.0))
}

/// Squared Euclidean distance (spec §5: Milvus "L2"): the exact scan's inner loop. In wasm with
/// simd128 (the worker's build) four explicit f32x4 accumulators, measured ≈ 2× the autovectorised
/// loop in Chromium (worker/tests/bench.rs); elsewhere the portable eight-lane loop.
pub fn sq_l2(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        sq_l2_simd128(a, b)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        sq_l2_portable(a, b)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn sq_l2_simd128(a: &[f32], b: &[f32]) -> f32 {
    use core::arch::wasm32::*;
    lane_sum(
        a,
        b,
        |x, y| {
            let d = f32x4_sub(x, y);
            f32x4_mul(d, d)
        },
        |x, y| (x - y) * (x - y),
    )
}

/// Σ term(aᵢ, bᵢ) with four f32x4 accumulators over blocks of 16, the rest one by one: the shape
/// of both simd128 loops (`sq_l2_simd128`, `dot_product`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn lane_sum(a: &[f32], b: &[f32], lanes: impl Fn(core::arch::wasm32::v128, core::arch::wasm32::v128) -> core::arch::wasm32::v128, one: impl Fn(f32, f32) -> f32) -> f32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let blocks = n / 16;
    let mut acc = [f32x4_splat(0.0); 4];
    for i in 0..blocks {
        for (l, acc) in acc.iter_mut().enumerate() {
            let at = i * 16 + l * 4;
            // SAFETY: at + 4 <= blocks * 16 <= n <= len of both slices; v128_load is an unaligned load.
            let (x, y) = unsafe { (v128_load(a.as_ptr().add(at) as *const v128), v128_load(b.as_ptr().add(at) as *const v128)) };
            *acc = f32x4_add(*acc, lanes(x, y));
        }
    }
    let v = f32x4_add(f32x4_add(acc[0], acc[1]), f32x4_add(acc[2], acc[3]));
    let mut s = f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<1>(v) + f32x4_extract_lane::<2>(v) + f32x4_extract_lane::<3>(v);
    for i in blocks * 16..n {
        s += one(a[i], b[i]);
    }
    s
}

/// Where a query's dense last block starts (`q.len()`: none): the shortest suffix that is at least
/// half non-zero and 16 dimensions or longer — the static table's semantic part, appended after the
/// hashed lexical dimensions (`OfflineEmbedder::with_static`).
pub fn dense_tail(q: &[f32]) -> usize {
    const MIN_TAIL: usize = 16;
    let (mut nz, mut start) = (0usize, q.len());
    for i in (0..q.len()).rev() {
        if q[i] != 0.0 {
            nz += 1;
            if nz * 2 >= q.len() - i {
                start = i;
            }
        }
    }
    if q.len() - start < MIN_TAIL {
        q.len()
    } else {
        start
    }
}

/// a · b: simd128 in the worker's build (four f32x4 accumulators, as `sq_l2`), else the portable loop.
pub fn dot_product(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        lane_sum(a, b, |x, y| core::arch::wasm32::f32x4_mul(x, y), |x, y| x * y)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let mut acc = [0f32; 8];
        let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
        let (ra, rb) = (ca.remainder(), cb.remainder());
        for (x, y) in ca.zip(cb) {
            for l in 0..8 {
                acc[l] += x[l] * y[l];
            }
        }
        acc.iter().sum::<f32>() + ra.iter().zip(rb).map(|(x, y)| x * y).sum::<f32>()
    }
}

/// The portable loop: eight independent lanes so the compiler vectorises it (SSE/AVX natively).
pub fn sq_l2_portable(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..8 {
            let d = x[l] - y[l];
            acc[l] += d * d;
        }
    }
    let mut s: f32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        s += (x - y) * (x - y);
    }
    s
}

/// IEEE 754 binary16, round to nearest even (the `half` crate; the same bits as the blobs already
/// stored, `f16_bits_are_ieee_binary16_round_to_nearest_even`).
pub fn f32_to_f16(x: f32) -> u16 {
    half::f16::from_f32(x).to_bits()
}

pub fn f16_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}
