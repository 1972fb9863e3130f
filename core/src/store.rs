//! The library's persistent form (issue: "corpus persists across reloads"): what the worker keeps in
//! the browser's IndexedDB so documents, their vectors and the PDF bytes for page rendering survive
//! a reload, and what it decides when it reads them back. Pure: the worker only moves the bytes in
//! and out of IndexedDB; every decision — the key, the encoding, validation, the schema version, an
//! embedder change — is made here and tested natively.
//!
//! One entry per file, keyed by the SHA-256 of the PDF's bytes, so dropping the same file again is
//! answered from the library instead of being parsed and embedded again. An entry is
//! `CLAIRDOC`, schema version, a JSON header (name, embedder, summary, page texts) and its checksum, the file's
//! documents and vectors in the corpus blob format (`Corpus::to_bytes`, checksummed, f16 vectors),
//! then the PDF. The key doubles as the PDF's checksum.
//!
//! Alternatives considered: one blob for the whole library (every ingest would rewrite every PDF)
//! and separate object stores for documents and PDFs (two entries to keep consistent across a
//! crash). Per-file entries cost one `put` per ingest and one `delete` per removal.

use crate::corpus::Doc;
use crate::ingest::vision::VisionCache;
use crate::protocol::SourceInfo;
use crate::retrieve::embed::TermStats;
use crate::retrieve::graph_rag::GraphCache;
use crate::retrieve::index::Corpus;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// IndexedDB database name and version; the version only changes the object-store layout.
pub const DB_NAME: &str = "clair-fin";
pub const DB_VERSION: u32 = 1;
/// The object store holding one entry per file (key: `content_key`, value: `encode` bytes).
pub const OBJECT_STORE: &str = "files";
/// Bumped whenever the entry layout or the documents' meaning changes; older entries are dropped.
pub const SCHEMA_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"CLAIRDOC";

/// SHA-256 of the file's bytes, lowercase hex: the entry's key.
pub fn content_key(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// One ingested file as the library keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredFile {
    pub key: String,
    /// `Embedder::name()` of `vectors` (e.g. `offline-v3-1024`, or an API model with its dimensions).
    pub embedder: String,
    pub info: SourceInfo,
    /// Page texts, index 0 = page 1.
    pub pages: Vec<String>,
    pub docs: Vec<Doc>,
    pub vectors: Vec<Vec<f32>>,
    /// The file's share of the offline embedder's corpus statistics, so a restored library is
    /// search-ready without recomputing every document's features.
    pub stats: Option<TermStats>,
    /// The vision model's answers for this file's pages (`ingest::vision`), so a reload or a
    /// re-drop never pays for a page twice.
    pub vision: VisionCache,
    /// Graph-RAG's `graph_extraction` answers for this file's chunks (`retrieve::graph_rag`), kept
    /// with the file like its vision answers, so the entity graph is extracted once per file.
    pub graph_rag: GraphCache,
    /// `ingest::READER_VERSION` of the reading that made `docs` (0: before versions were kept).
    pub reader: u32,
    pub pdf: Vec<u8>,
}

#[derive(Serialize, Deserialize)]
struct Header {
    embedder: String,
    info: SourceInfo,
    pages: Vec<String>,
    #[serde(default)]
    stats: Option<TermStats>,
    #[serde(default)]
    vision: VisionCache,
    #[serde(default, skip_serializing_if = "graph_cache_is_empty")]
    graph_rag: GraphCache,
    #[serde(default)]
    reader: u32,
}

fn graph_cache_is_empty(c: &GraphCache) -> bool {
    c.entries.is_empty()
}

/// What went wrong reading an entry. Either way the entry is dropped and the file must be dropped again.
#[derive(Debug, Clone, PartialEq)]
pub enum EntryError {
    /// Written by another schema version.
    Version(u32),
    /// Truncated, bit-flipped, not ours, or its PDF does not hash to its key.
    Damaged(String),
}

pub fn encode(f: &StoredFile) -> Result<Vec<u8>, String> {
    let header = Header { embedder: f.embedder.clone(), info: f.info.clone(), pages: f.pages.clone(), stats: f.stats.clone(), vision: f.vision.clone(), graph_rag: f.graph_rag.clone(), reader: f.reader };
    let json = serde_json::to_vec(&header).map_err(|e| format!("{}: not storable ({e})", f.info.source))?;
    let dims = f.vectors.first().map_or(1, Vec::len);
    let mut c = Corpus::new(f.embedder.clone(), dims);
    c.add(f.docs.clone(), f.vectors.clone()).map_err(|e| format!("{}: not storable ({e})", f.info.source))?;
    let blob = c.to_bytes();
    let mut b = Vec::with_capacity(28 + json.len() + blob.len() + f.pdf.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&SCHEMA_VERSION.to_le_bytes());
    b.extend_from_slice(&(json.len() as u64).to_le_bytes());
    b.extend_from_slice(&json);
    b.extend_from_slice(&header_sum(&json));
    b.extend_from_slice(&(blob.len() as u64).to_le_bytes());
    b.extend_from_slice(&blob);
    b.extend_from_slice(&f.pdf);
    Ok(b)
}

/// The inverse of `encode`, checking every part: magic, version, header JSON, the corpus blob's own
/// checksum, and that the PDF hashes to `key`. Never panics on any input.
pub fn decode(key: &str, b: &[u8]) -> Result<StoredFile, EntryError> {
    let damaged = |why: &str| EntryError::Damaged(why.to_string());
    if b.len() < 20 || &b[..8] != MAGIC {
        return Err(damaged("not a CLAIR library entry"));
    }
    let version = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
    if version != SCHEMA_VERSION {
        return Err(EntryError::Version(version));
    }
    let (json, rest) = take_block(&b[12..]).ok_or_else(|| damaged("truncated header"))?;
    let (sum, rest) = rest.split_at_checked(8).ok_or_else(|| damaged("truncated header"))?;
    if sum != header_sum(json) {
        return Err(damaged("header checksum mismatch"));
    }
    let header: Header = serde_json::from_slice(json).map_err(|e| damaged(&format!("header: {e}")))?;
    let (blob, pdf) = take_block(rest).ok_or_else(|| damaged("truncated documents"))?;
    let corpus = Corpus::from_bytes(blob).map_err(|e| damaged(&e))?;
    if content_key(pdf) != key {
        return Err(damaged("the PDF does not match its key"));
    }
    if corpus.embedder != header.embedder || corpus.docs.iter().any(|d| d.source != header.info.source) {
        return Err(damaged("documents do not belong to the entry"));
    }
    let vectors = (0..corpus.len()).map(|i| corpus.vector(i).to_vec()).collect();
    Ok(StoredFile {
        key: key.to_string(),
        embedder: header.embedder,
        info: header.info,
        pages: header.pages,
        docs: corpus.docs,
        vectors,
        stats: header.stats,
        vision: header.vision,
        graph_rag: header.graph_rag,
        reader: header.reader,
        pdf: pdf.to_vec(),
    })
}

/// The header's checksum (the documents carry their own, the PDF is checked against the key).
fn header_sum(json: &[u8]) -> [u8; 8] {
    let d = Sha256::digest(json);
    [d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]
}

/// A little-endian u64 length, then that many bytes.
fn take_block(b: &[u8]) -> Option<(&[u8], &[u8])> {
    let len = usize::try_from(u64::from_le_bytes(b.get(..8)?.try_into().ok()?)).ok()?;
    let end = len.checked_add(8)?;
    Some((b.get(8..end)?, b.get(end..)?))
}

/// What to do with the entries read at startup.
#[derive(Debug, Default)]
pub struct RestorePlan {
    /// Entries to load as they are.
    pub keep: Vec<StoredFile>,
    /// Entries whose vectors came from another embedder: their documents must be embedded again
    /// (no re-parse) before they join the corpus, so vector spaces never mix.
    pub reembed: Vec<StoredFile>,
    /// Keys to delete from the store (unreadable, other schema version, superseded).
    pub discard: Vec<String>,
    /// One line for the user when something was dropped.
    pub notice: Option<String>,
}

/// Decide, from the raw entries and the embedder in use, what the library restores.
/// Two entries for the same file name (a crash between put and delete) keep the newer-looking one:
/// deterministic by key order, the other is discarded.
pub fn plan_restore(entries: Vec<(String, Vec<u8>)>, embedder: &str) -> RestorePlan {
    let mut plan = RestorePlan::default();
    let (mut damaged, mut old) = (0usize, 0usize);
    let mut by_name: BTreeMap<String, StoredFile> = BTreeMap::new();
    for (key, bytes) in entries {
        match decode(&key, &bytes) {
            Ok(f) => {
                if let Some(prev) = by_name.insert(f.info.source.clone(), f) {
                    plan.discard.push(prev.key);
                }
            }
            Err(EntryError::Version(_)) => {
                old += 1;
                plan.discard.push(key);
            }
            Err(EntryError::Damaged(_)) => {
                damaged += 1;
                plan.discard.push(key);
            }
        }
    }
    for f in by_name.into_values() {
        if f.embedder == embedder {
            plan.keep.push(f);
        } else {
            plan.reembed.push(f);
        }
    }
    plan.notice = match (damaged, old) {
        (0, 0) => None,
        (d, 0) => Some(format!("{d} saved document(s) could not be read and were removed from the library: drop the PDF(s) again.")),
        (0, o) => Some(format!("{o} saved document(s) came from an older version and were removed from the library: drop the PDF(s) again.")),
        (d, o) => Some(format!("{} saved document(s) were damaged or from an older version and were removed: drop the PDF(s) again.", d + o)),
    };
    plan
}

/// The notice when the whole store could not be opened or read and was wiped.
pub fn cleared_notice(why: &str) -> String {
    format!("The saved library could not be read ({why}) and was cleared: drop your PDFs again.")
}

/// Key prefix of a modality's HNSW graph in the same object store (`graph:text`): file keys are
/// 64 hex digits, so the two never meet. The blob carries the fingerprint of the slab it was built
/// over (`retrieve::graph`), so a graph outlives a reload only with exactly its documents.
pub const GRAPH_PREFIX: &str = "graph:";

pub fn graph_key(m: crate::config::Modality) -> String {
    format!("{GRAPH_PREFIX}{}", m.as_str())
}

/// The modality of a graph key; `None` for file keys and unknown names.
pub fn graph_modality(key: &str) -> Option<crate::config::Modality> {
    crate::config::Modality::parse(key.strip_prefix(GRAPH_PREFIX)?)
}

/// A write the worker must apply to the store, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum StoreOp {
    Put { key: String, bytes: Vec<u8> },
    Delete { key: String },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Modality;

    fn doc(source: &str, n: usize) -> Doc {
        Doc {
            id: format!("a-p1-text-c{n}"),
            source: source.into(),
            page: 1,
            page_label: None,
            section: None,
            section_from_headings: false,
            modality: Modality::Text,
            text: format!("net sales rose {n}"),
            bboxes: vec![],
            page_size: (612.0, 792.0),
            table: None,
            chart: None,
            confidence: Default::default(),
        }
    }

    fn file(name: &str, pdf: &[u8], embedder: &str) -> StoredFile {
        StoredFile {
            key: content_key(pdf),
            embedder: embedder.into(),
            info: SourceInfo {
                source: name.into(),
                pages: 1,
                documents: 2,
                tables: 0,
                vision_pages: 0,
                signals: Default::default(),
                vision_read: 0,
                warnings: vec![],
                ingest_ms: 12.0,
            },
            pages: vec!["net sales rose".into()],
            docs: vec![doc(name, 0), doc(name, 1)],
            vectors: vec![vec![1.0, 0.0, 0.0, 0.0], vec![0.0, 0.5, 0.5, 0.0]],
            stats: Some(TermStats { docs: 2, df: [("net".to_string(), 2)].into_iter().collect(), ..TermStats::default() }),
            vision: VisionCache::default(),
            graph_rag: GraphCache::default(),
            reader: crate::ingest::READER_VERSION,
            pdf: pdf.to_vec(),
        }
    }

    #[test]
    fn content_key_is_the_sha256_of_the_bytes() {
        assert_eq!(content_key(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn an_entry_round_trips_with_everything_the_library_needs() {
        let f = file("a.pdf", b"%PDF-1.4 one", "offline-v2-4");
        let back = decode(&f.key, &encode(&f).unwrap()).unwrap();
        assert_eq!(back, f);
    }

    #[test]
    fn truncated_flipped_foreign_and_mismatched_entries_are_damaged_not_a_panic() {
        let f = file("a.pdf", b"%PDF-1.4 one", "offline-v2-4");
        let good = encode(&f).unwrap();
        for cut in [0, 5, 12, 20, good.len() / 2, good.len() - 1] {
            assert!(matches!(decode(&f.key, &good[..cut]), Err(EntryError::Damaged(_))), "cut at {cut}");
        }
        for i in (0..good.len()).step_by(7) {
            let mut bad = good.clone();
            bad[i] ^= 0x40;
            assert!(decode(&f.key, &bad).is_err(), "flip at {i}");
        }
        assert!(matches!(decode(&f.key, b"{\"json\": true}"), Err(EntryError::Damaged(_))));
        assert!(matches!(decode(&content_key(b"other"), &good), Err(EntryError::Damaged(_))));
    }

    #[test]
    fn another_schema_version_is_reported_as_such() {
        let f = file("a.pdf", b"%PDF-1.4 one", "offline-v2-4");
        let mut b = encode(&f).unwrap();
        b[8..12].copy_from_slice(&(SCHEMA_VERSION + 1).to_le_bytes());
        assert_eq!(decode(&f.key, &b), Err(EntryError::Version(SCHEMA_VERSION + 1)));
    }

    #[test]
    fn restore_keeps_good_entries_drops_bad_ones_and_says_so_in_one_line() {
        let a = file("a.pdf", b"%PDF a", "offline-v2-4");
        let b = file("b.pdf", b"%PDF b", "offline-v2-4");
        let mut old = encode(&b).unwrap();
        old[8..12].copy_from_slice(&0u32.to_le_bytes());
        let entries = vec![
            (a.key.clone(), encode(&a).unwrap()),
            (b.key.clone(), old),
            ("garbage".to_string(), b"not an entry".to_vec()),
        ];
        let plan = plan_restore(entries, "offline-v2-4");
        assert_eq!(plan.keep, vec![a]);
        assert!(plan.reembed.is_empty());
        assert_eq!(plan.discard, vec![b.key.clone(), "garbage".to_string()]);
        let notice = plan.notice.unwrap();
        assert!(notice.contains("2 saved document(s)") && !notice.contains('\n'), "{notice}");
    }

    #[test]
    fn a_changed_embedder_re_embeds_instead_of_mixing_vector_spaces() {
        let a = file("a.pdf", b"%PDF a", "api-text-embedding-3-small-256");
        let plan = plan_restore(vec![(a.key.clone(), encode(&a).unwrap())], "offline-v2-4");
        assert!(plan.keep.is_empty() && plan.discard.is_empty() && plan.notice.is_none());
        assert_eq!(plan.reembed, vec![a]);
    }

    #[test]
    fn a_clean_store_restores_silently() {
        let plan = plan_restore(vec![], "offline-v2-4");
        assert!(plan.keep.is_empty() && plan.notice.is_none());
    }
}
