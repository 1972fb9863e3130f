//! HNSW graphs built away from the index (issue 4): the job a search worker ships, the build a
//! builder worker runs, the blob that comes back (and is persisted), and when to build.
//!
//! instant-distance's build cannot yield — tens of seconds at 5,000 vectors — so the shell that
//! answers queries never runs it: it ships a modality's vectors (`GraphJob`) to a second worker,
//! keeps answering with the exact scan, and swaps the graph in when the blob arrives, only if the
//! corpus is still the one the job was made from (`Corpus::generation`, and the slab's content
//! `fingerprint` for a blob read back from the store). `Schedule` decides when: per modality, at or
//! above `hnsw_min_vectors`, once the corpus has been quiet for `hnsw_debounce_ms`.
//!
//! A point is one row of the corpus's vector slab, shared (`Arc`), not copied; it serialises as its
//! row alone, so the blob is the graph's links (bincode, ≈ 310 B per vector) plus a header, never
//! the vectors. Decoding re-attaches the rows to the receiving corpus's vectors. Every blob is
//! checksummed and its links checked against the row count before it is trusted: a damaged graph is
//! an error (the caller drops it and builds again), never a panic at query time.

use super::index::sq_l2;
use crate::config::Modality;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Graph search breadth; must cover the largest pool asked for (4 × k_preview = 48).
pub const HNSW_EF: usize = 128;
/// Fixed seed: the same vectors give the same layer assignment on every machine.
const SEED: u64 = 0x5eed;
const MAGIC: &[u8; 8] = b"CLAIRHNS";
const VERSION: u32 = 1;
/// instant-distance's M: links per node on the upper layers, 2·M on layer zero.
const M: usize = 32;
const INVALID: u32 = u32::MAX;

/// A graph point: a row of a vector slab shared with the corpus.
#[derive(Clone)]
pub(crate) struct HPoint {
    data: Arc<[f32]>,
    at: usize,
    dims: usize,
    /// Row within the slab the graph was built over (0-based).
    pub(crate) row: u32,
}

impl HPoint {
    pub(crate) fn query(q: &[f32]) -> HPoint {
        HPoint { data: Arc::from(q), at: 0, dims: q.len(), row: INVALID }
    }
    fn v(&self) -> &[f32] {
        &self.data[self.at..self.at + self.dims]
    }
}

impl instant_distance::Point for HPoint {
    fn distance(&self, other: &Self) -> f32 {
        sq_l2(self.v(), other.v())
    }
}

impl Serialize for HPoint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.row)
    }
}

/// The rows `decode` attaches deserialised points to (serde's derive in instant-distance offers no
/// seed, so the context rides in a thread-local for the length of one `decode`).
#[derive(Clone)]
struct Rows {
    data: Arc<[f32]>,
    base: usize,
    dims: usize,
    n: usize,
}

thread_local! {
    static ATTACH: RefCell<Option<Rows>> = const { RefCell::new(None) };
}

impl<'de> Deserialize<'de> for HPoint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let row = u32::deserialize(d)?;
        ATTACH.with(|a| {
            let a = a.borrow();
            let r = a.as_ref().ok_or_else(|| D::Error::custom("graph rows not attached"))?;
            if row as usize >= r.n {
                return Err(D::Error::custom("graph row out of range"));
            }
            Ok(HPoint { data: r.data.clone(), at: r.base + row as usize * r.dims, dims: r.dims, row })
        })
    }
}

pub(crate) type Graph = instant_distance::Hnsw<HPoint>;

/// Build a graph over `rows` (row i = `data[base + i·dims ..]`), in this thread.
pub(crate) fn build_over(data: Arc<[f32]>, base: usize, dims: usize, rows: usize) -> Graph {
    let points: Vec<HPoint> = (0..rows).map(|r| HPoint { data: data.clone(), at: base + r * dims, dims, row: r as u32 }).collect();
    instant_distance::Builder::default().seed(SEED).ef_search(HNSW_EF).build_hnsw(points).0
}

/// What a search worker ships to the builder: one modality's vectors, row-major, and what the
/// result must be checked against when it comes back.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphJob {
    pub modality: Modality,
    /// `Corpus::generation` when the job was made: a result for another generation is stale.
    pub generation: u64,
    /// `Corpus::fingerprint` of the slab: written into the blob, checked when it is installed.
    pub fingerprint: u64,
    pub dims: usize,
    pub vectors: Vec<f32>,
}

/// The job without its vectors: the JSON half of the builder's messages (the vectors, and the
/// blob on the way back, travel beside it as transferred typed arrays).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobHeader {
    pub modality: Modality,
    pub generation: u64,
    /// As a string: JSON numbers above 2^53 do not survive JavaScript.
    pub fingerprint: String,
    pub dims: usize,
}

/// The builder's answer: the header it was given, and the blob or what went wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildReport {
    pub job: JobHeader,
    pub build_ms: f64,
    pub error: Option<String>,
}

impl GraphJob {
    pub fn header(&self) -> JobHeader {
        JobHeader { modality: self.modality, generation: self.generation, fingerprint: self.fingerprint.to_string(), dims: self.dims }
    }
}

/// The builder's whole work: the graph over the job's vectors as a blob (`decode` reads it).
pub fn build(header: &JobHeader, vectors: Vec<f32>) -> Result<Vec<u8>, String> {
    let fingerprint: u64 = header.fingerprint.parse().map_err(|_| format!("bad fingerprint {:?}", header.fingerprint))?;
    if header.dims == 0 || !vectors.len().is_multiple_of(header.dims) {
        return Err(format!("{} numbers do not make rows of {} dimensions", vectors.len(), header.dims));
    }
    if vectors.iter().any(|x| !x.is_finite()) {
        return Err("a vector holds a non-finite number".into());
    }
    let rows = vectors.len() / header.dims;
    let graph = build_over(Arc::from(vectors), 0, header.dims, rows);
    encode(&graph, fingerprint, header.dims, rows)
}

/// `CLAIRHNS`, version, slab fingerprint, dims, rows, bincode length + graph, FNV-1a checksum.
pub(crate) fn encode(g: &Graph, fingerprint: u64, dims: usize, rows: usize) -> Result<Vec<u8>, String> {
    let body = bincode::serialize(g).map_err(|e| format!("graph not serialisable: {e}"))?;
    let mut b = Vec::with_capacity(40 + body.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&fingerprint.to_le_bytes());
    b.extend_from_slice(&(dims as u32).to_le_bytes());
    b.extend_from_slice(&(rows as u32).to_le_bytes());
    b.extend_from_slice(&(body.len() as u64).to_le_bytes());
    b.extend_from_slice(&body);
    let sum = crate::hash::fnv64(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    Ok(b)
}

/// Why a blob was not installed.
#[derive(Debug, Clone, PartialEq)]
pub enum GraphError {
    /// Built for another corpus state (documents added or removed since): build again.
    Stale,
    /// Truncated, bit-flipped, another version, inconsistent links: drop it and build again.
    Damaged(String),
}

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GraphError::Stale => write!(f, "the graph was built for other documents"),
            GraphError::Damaged(why) => write!(f, "the graph is damaged ({why})"),
        }
    }
}

/// The blob's fingerprint, if it is one of ours (to decide staleness without decoding).
pub fn blob_fingerprint(b: &[u8]) -> Option<u64> {
    (b.len() >= 20 && &b[..8] == MAGIC).then(|| u64::from_le_bytes(b[12..20].try_into().unwrap_or_default()))
}

/// Read a blob back and attach it to rows `base_row..base_row + rows` of `data`. Checks, in order:
/// magic, checksum, version, fingerprint (→ `Stale`), dims and rows, every link in range. Never panics.
pub(crate) fn decode(b: &[u8], data: Arc<[f32]>, base_row: usize, dims: usize, rows: usize, fingerprint: u64) -> Result<Graph, GraphError> {
    let bad = |why: &str| GraphError::Damaged(why.to_string());
    if b.len() < 40 || &b[..8] != MAGIC {
        return Err(bad("not a CLAIR graph"));
    }
    let (body, sum) = b.split_at(b.len() - 8);
    if crate::hash::fnv64(body) != u64::from_le_bytes(sum.try_into().map_err(|_| bad("short"))?) {
        return Err(bad("checksum mismatch"));
    }
    let u32_at = |at: usize| u32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
    if u32_at(8) != VERSION {
        return Err(bad(&format!("version {}", u32_at(8))));
    }
    if blob_fingerprint(b) != Some(fingerprint) {
        return Err(GraphError::Stale);
    }
    if u32_at(20) as usize != dims || u32_at(24) as usize != rows {
        return Err(GraphError::Stale);
    }
    let len = u64::from_le_bytes(body[28..36].try_into().map_err(|_| bad("short"))?);
    let graph = body.get(36..).filter(|g| g.len() as u64 == len).ok_or_else(|| bad("graph length"))?;
    check_links(graph, rows).map_err(|e| bad(&e))?;
    ATTACH.with(|a| *a.borrow_mut() = Some(Rows { data, base: base_row * dims, dims, n: rows }));
    let g = bincode::deserialize::<Graph>(graph).map_err(|e| bad(&e.to_string()));
    ATTACH.with(|a| *a.borrow_mut() = None);
    g
}

/// Walk the bincode layout of `Hnsw<HPoint>` (fixed-width little-endian: `ef_search` u64; points:
/// u64 count + one u32 row each; layer zero: u64 count + 2·M u32 links per node; upper layers: u64
/// count, then per layer u64 count + M u32 links per node) and check what the search would index:
/// one node per point on layer zero, upper layers no larger than the one below (a node found on a
/// layer exists on every layer under it), every link a node of its own layer or the INVALID marker,
/// no bytes left over. The checksum catches accidents; this makes a consistent-looking but wrong
/// blob an error instead of an out-of-bounds panic in the worker.
fn check_links(b: &[u8], rows: usize) -> Result<(), String> {
    let count = |b: &[u8], pos: &mut usize| -> Result<usize, String> {
        let v = b.get(*pos..pos.saturating_add(8)).ok_or("truncated")?;
        *pos += 8;
        usize::try_from(u64::from_le_bytes(v.try_into().map_err(|_| "truncated")?)).map_err(|_| "count".to_string())
    };
    let mut pos = 0usize;
    let ef = count(b, &mut pos)?;
    if ef == 0 || ef > 1 << 20 {
        return Err(format!("ef_search {ef}"));
    }
    let points = count(b, &mut pos)?;
    if points != rows {
        return Err(format!("{points} points for {rows} rows"));
    }
    let links = |b: &[u8], pos: &mut usize, nodes: usize, per: usize, limit: usize| -> Result<(), String> {
        let bytes = nodes.checked_mul(per * 4).ok_or("too many nodes")?;
        let end = pos.checked_add(bytes).ok_or("too many nodes")?;
        let block = b.get(*pos..end).ok_or("truncated links")?;
        if block.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).any(|l| l != INVALID && l as usize >= limit) {
            return Err("a link points past its layer".into());
        }
        *pos = end;
        Ok(())
    };
    // Points: rows, each checked against `rows` when attached (HPoint::deserialize).
    pos = pos.checked_add(points.checked_mul(4).ok_or("too many points")?).ok_or("overflow")?;
    let zero = count(b, &mut pos)?;
    if zero != rows {
        return Err(format!("layer zero has {zero} nodes for {rows} rows"));
    }
    links(b, &mut pos, zero, 2 * M, rows)?;
    let layers = count(b, &mut pos)?;
    let mut below = rows;
    for _ in 0..layers {
        let n = count(b, &mut pos)?;
        if n > below {
            return Err("an upper layer is larger than the one below".into());
        }
        links(b, &mut pos, n, M, n)?;
        below = n;
    }
    if pos != b.len() {
        return Err("trailing bytes".into());
    }
    // The search starts at point 0 on the top layer.
    if rows > 0 && below == 0 {
        return Err("an empty top layer".into());
    }
    Ok(())
}

/// Per modality, whether a graph is wanted, in flight, or given up on for this corpus state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum GraphState {
    /// Below the threshold (or not yet due): answered exactly.
    Exact,
    /// The builder is working on it; answered exactly meanwhile.
    Building,
    /// Built by the builder worker in this session.
    Built { build_ms: f64 },
    /// Read back from the store (no rebuild).
    Loaded,
    /// The builder failed or died; answered exactly until the documents change.
    Failed { error: String },
}

/// When to build which graph. Pure: the shell passes its clock and the corpus state.
#[derive(Debug, Default)]
pub struct Schedule {
    /// The corpus generation the states below belong to.
    generation: u64,
    /// When that generation was first seen (start of the debounce).
    since_ms: f64,
    states: BTreeMap<Modality, GraphState>,
}

impl Schedule {
    /// Note the corpus generation; a new one resets every state (graphs were dropped with it) and
    /// restarts the debounce. Returns true when the generation changed.
    pub fn observe(&mut self, generation: u64, now_ms: f64) -> bool {
        if generation == self.generation {
            return false;
        }
        self.generation = generation;
        self.since_ms = now_ms;
        self.states.clear();
        true
    }

    /// Adopt `generation` without a debounce or a reset (after a restore that loaded graphs).
    pub fn adopt(&mut self, generation: u64) {
        self.generation = generation;
        self.since_ms = f64::NEG_INFINITY;
    }

    pub fn state(&self, m: Modality) -> GraphState {
        self.states.get(&m).cloned().unwrap_or(GraphState::Exact)
    }

    pub fn set(&mut self, m: Modality, s: GraphState) {
        self.states.insert(m, s);
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The modalities to build now: at or above `min_vectors` (0 = never build), no graph yet, not
    /// in flight, not failed for this generation, and the corpus quiet for `debounce_ms`.
    /// `slabs` is (modality, vectors, has a graph). Marks what it returns as `Building`.
    pub fn due(&mut self, slabs: &[(Modality, usize, bool)], min_vectors: usize, debounce_ms: f64, now_ms: f64) -> Vec<Modality> {
        if min_vectors == 0 || now_ms - self.since_ms < debounce_ms {
            return vec![];
        }
        let mut out = vec![];
        for &(m, n, has_graph) in slabs {
            if n >= min_vectors && !has_graph && self.state(m) == GraphState::Exact {
                self.states.insert(m, GraphState::Building);
                out.push(m);
            }
        }
        out
    }

    /// Milliseconds until `due` may return something, when a slab waits only for the debounce.
    pub fn wait_ms(&self, slabs: &[(Modality, usize, bool)], min_vectors: usize, debounce_ms: f64, now_ms: f64) -> Option<f64> {
        let waiting = min_vectors > 0 && slabs.iter().any(|&(m, n, g)| n >= min_vectors && !g && self.state(m) == GraphState::Exact);
        let left = debounce_ms - (now_ms - self.since_ms);
        (waiting && left > 0.0).then_some(left)
    }

    /// Modalities in flight (to give up on when the builder dies).
    pub fn building(&self) -> Vec<Modality> {
        self.states.iter().filter(|(_, s)| **s == GraphState::Building).map(|(m, _)| *m).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(n: usize, dims: usize, seed: u64) -> Vec<f32> {
        let mut s = seed;
        (0..n * dims)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 11) as f32 / (1u64 << 53) as f32 - 0.5
            })
            .collect()
    }

    fn header(n_dims: usize, fp: u64) -> JobHeader {
        JobHeader { modality: Modality::Text, generation: 3, fingerprint: fp.to_string(), dims: n_dims }
    }

    fn nearest(g: &Graph, q: &[f32], k: usize) -> Vec<u32> {
        let mut s = instant_distance::Search::default();
        g.search(&HPoint::query(q), &mut s).take(k).map(|it| it.point.row).collect()
    }

    #[test]
    fn a_graph_survives_the_blob_round_trip_and_answers_the_same() {
        let (n, dims) = (400, 16);
        let v = vectors(n, dims, 5);
        let blob = build(&header(dims, 77), v.clone()).unwrap();
        // Only links travel (a row id, 2·M links on layer zero, about a third more on the upper
        // layers), never the vectors.
        assert!(blob.len() < n * (4 + 2 * M * 4 + M * 4 * 2 / 3) + 4096, "{} bytes", blob.len());
        assert_eq!(blob_fingerprint(&blob), Some(77));
        let data: Arc<[f32]> = Arc::from(v.clone());
        let g = decode(&blob, data.clone(), 0, dims, n, 77).unwrap();
        let local = build_over(data, 0, dims, n);
        for q in vectors(20, dims, 9).chunks(dims) {
            assert_eq!(nearest(&g, q, 8), nearest(&local, q, 8));
        }
    }

    #[test]
    fn a_blob_attaches_to_rows_at_an_offset_of_a_larger_slab() {
        let (n, dims) = (200, 8);
        let v = vectors(n, dims, 1);
        let blob = build(&header(dims, 1), v.clone()).unwrap();
        // The same rows after 50 rows of another modality.
        let mut all = vectors(50, dims, 2);
        all.extend_from_slice(&v);
        let g = decode(&blob, Arc::from(all), 50, dims, n, 1).unwrap();
        let q = &v[7 * dims..8 * dims];
        assert_eq!(nearest(&g, q, 1), vec![7], "a stored row is its own nearest neighbour");
    }

    #[test]
    fn stale_damaged_and_foreign_blobs_are_errors_not_panics() {
        let (n, dims) = (120, 8);
        let v = vectors(n, dims, 3);
        let data: Arc<[f32]> = Arc::from(v.clone());
        let blob = build(&header(dims, 42), v).unwrap();
        assert_eq!(decode(&blob, data.clone(), 0, dims, n, 43).err(), Some(GraphError::Stale));
        assert_eq!(decode(&blob, data.clone(), 0, dims, n - 1, 42).err(), Some(GraphError::Stale));
        for cut in [0, 8, 39, blob.len() / 2, blob.len() - 1] {
            assert!(matches!(decode(&blob[..cut], data.clone(), 0, dims, n, 42), Err(GraphError::Damaged(_))), "cut {cut}");
        }
        for i in (0..blob.len()).step_by(13) {
            let mut b = blob.clone();
            b[i] ^= 0x10;
            assert!(decode(&b, data.clone(), 0, dims, n, 42).is_err(), "flip at {i}");
        }
        assert!(matches!(decode(b"{\"json\":1}", data.clone(), 0, dims, n, 42), Err(GraphError::Damaged(_))));
    }

    #[test]
    fn a_checksummed_blob_with_a_link_out_of_range_is_damaged() {
        let (n, dims) = (100, 8);
        let v = vectors(n, dims, 4);
        let blob = build(&header(dims, 9), v.clone()).unwrap();
        // Rewrite the first link of layer zero to row n (one past the end), and re-checksum.
        let mut b = blob[..blob.len() - 8].to_vec();
        let zero_links = 36 + 16 + n * 4 + 8;
        b[zero_links..zero_links + 4].copy_from_slice(&(n as u32).to_le_bytes());
        let sum = crate::hash::fnv64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        match decode(&b, Arc::from(v), 0, dims, n, 9) {
            Err(GraphError::Damaged(why)) => assert!(why.contains("link"), "{why}"),
            other => panic!("{:?}", other.err()),
        }
    }

    #[test]
    fn builds_wait_for_the_threshold_and_a_quiet_corpus_and_happen_once_per_generation() {
        let mut s = Schedule::default();
        let slabs = [(Modality::Text, 5000, false), (Modality::Table, 900, false)];
        assert!(s.observe(1, 0.0));
        assert_eq!(s.due(&slabs, 1000, 2000.0, 500.0), vec![], "inside the debounce");
        assert_eq!(s.wait_ms(&slabs, 1000, 2000.0, 500.0), Some(1500.0));
        assert_eq!(s.due(&slabs, 1000, 2000.0, 2000.0), vec![Modality::Text], "only the modality over the threshold");
        assert_eq!(s.state(Modality::Text), GraphState::Building);
        assert_eq!(s.due(&slabs, 1000, 2000.0, 9000.0), vec![], "not twice");
        assert_eq!(s.due(&slabs, 0, 2000.0, 9000.0), vec![], "0 turns building off");
        // A failure is not retried for this generation; documents changing starts over.
        s.set(Modality::Text, GraphState::Failed { error: "builder died".into() });
        assert_eq!(s.due(&slabs, 1000, 2000.0, 9000.0), vec![]);
        assert!(!s.observe(1, 9000.0));
        assert!(s.observe(2, 9000.0));
        assert_eq!(s.state(Modality::Text), GraphState::Exact);
        assert_eq!(s.due(&slabs, 1000, 2000.0, 10_000.0), vec![], "debounce again");
        assert_eq!(s.due(&slabs, 1000, 2000.0, 11_000.0), vec![Modality::Text]);
        // A slab that already has a graph (loaded from the store) is not built.
        let mut s = Schedule::default();
        s.adopt(5);
        assert_eq!(s.due(&[(Modality::Text, 5000, true)], 1000, 2000.0, 0.0), vec![]);
    }
}
