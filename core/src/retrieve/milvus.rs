//! A team library on a Milvus server (issue 42): the same documents, vectors and blended search
//! as a local `Corpus`, held by Milvus so filings are ingested once and searched from every CLI
//! and browser. Sans-I/O like the rest of core: this module builds each request (method, path,
//! JSON body, headers) and reads each reply into typed results or a `StoreError`; the shell sends
//! the bytes through a `StoreTransport` (the CLI with ureq, the browser with fetch).
//!
//! Layout. Milvus's REST v1 (2.3) creates collections with an auto-id Int64 key, one float vector
//! and dynamic fields, which is all this needs:
//! - `COLLECTION` holds one row per document of every modality (paper B.3: modality, source,
//!   page) with the whole `Doc` as JSON in `doc` — ids, page label, section, boxes, table and
//!   chart metadata — so a hit cites and highlights exactly as a local one. `file_hash` (SHA-256
//!   of the PDF, `store::content_key`), `low` (low-confidence table) and `statement` (the row's
//!   page is a statement page, `prior.rs`, with the page's fiscal years in `years`) are the
//!   filter fields.
//! - `COLLECTION_files` is the manifest: per file its hash, name, embedder, document count and its
//!   share of the offline embedder's query IDF (`TermStats`) and its rows on statement pages per
//!   pool filter (`statement_rows`), split over rows of ≤ 60 kB (Milvus
//!   caps a row's dynamic fields at 64 KiB). A file is in the library once all its manifest rows
//!   are: they are written after its documents, so an interrupted ingest leaves no manifest and
//!   the next one removes the partial documents and reads the file again (resumable).
//!
//! Search is `Corpus::search`'s: the dense pool (`pool_factor · k`, modality-filtered, low-
//! confidence tables left out of tabular searches) comes from Milvus's L2 search (squared L2, as
//! the local scan), then the 0.65/0.35 blend and the per-page cap run here (spec §5). The
//! structural prior (`prior.rs`, `retrieval.statement_prior`) needs each page's other documents,
//! which a pool does not bring, so ingest decides it per file (`PageIndex` over the file's
//! documents) and flags each row; a search then lifts flagged hits and lets each statement page's
//! nearest row join the pool through a second, `statement == true` search, as `Corpus::search`.
//!
//! Errors are never a silent empty result: an unreachable server, a refused token, a missing
//! collection and vectors of another size (Milvus 2.3 answers a wrong-size query with an empty
//! list) are each a `StoreError` with a message a user can act on. `RestV1` is the only place
//! that knows paths and reply shapes, so a v2 dialect can follow beside it.

use super::blend::{blend_all, cap_per_group};
use super::embed::{fiscal_years, Embedder, OfflineEmbedder, TermStats};
use super::prior::question_kinds;
use super::Search;
use crate::config::{Modality, RetrievalSettings};
use crate::corpus::{Doc, ExtractionConfidence, Hit};
use serde_json::{json, Value};

/// Milvus caps one search's top k at 16,384.
pub const MAX_TOPK: usize = 16_384;
/// Budget for one row's dynamic fields (Milvus: 65,536 bytes), with room for the small fields.
const ROW_JSON_BUDGET: usize = 60_000;
/// Rows per insert request: ≈ 1,000 inserts took 0.2 s on a local server (issue 42).
pub const INSERT_BATCH: usize = 256;

/// `milvus://HOST:PORT/COLLECTION` (HTTP) or `milvus+https://HOST:PORT/COLLECTION`.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreUrl {
    /// `http://HOST:PORT` without a trailing slash.
    pub base: String,
    pub collection: String,
}

impl StoreUrl {
    pub fn parse(s: &str) -> Result<StoreUrl, String> {
        let (scheme, rest) = if let Some(r) = s.strip_prefix("milvus://") {
            ("http", r)
        } else if let Some(r) = s.strip_prefix("milvus+https://") {
            ("https", r)
        } else {
            return Err(format!("`{s}` is no Milvus store: expected milvus://HOST:PORT/COLLECTION"));
        };
        let (host, collection) = rest.split_once('/').ok_or_else(|| format!("`{s}` names no collection: milvus://HOST:PORT/COLLECTION"))?;
        let collection = collection.trim_end_matches('/');
        if host.is_empty() {
            return Err(format!("`{s}` names no host"));
        }
        // Milvus: a collection name starts with a letter or underscore; letters, digits, underscores.
        let valid = collection.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && collection.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && collection.len() <= 200;
        if !valid {
            return Err(format!("collection `{collection}`: Milvus allows letters, digits and underscores, starting with a letter"));
        }
        Ok(StoreUrl { base: format!("{scheme}://{host}"), collection: collection.to_string() })
    }

    /// The app's form: the server's `http(s)://HOST:PORT` and a collection, each as typed.
    pub fn from_parts(server: &str, collection: &str) -> Result<StoreUrl, String> {
        let server = server.trim().trim_end_matches('/');
        let rest = if let Some(r) = server.strip_prefix("http://") {
            format!("milvus://{r}")
        } else if let Some(r) = server.strip_prefix("https://") {
            format!("milvus+https://{r}")
        } else {
            return Err(format!("`{server}` is no server address: expected http://HOST:PORT or https://HOST:PORT"));
        };
        if rest.splitn(2, "://").nth(1).is_some_and(|h| h.contains('/')) {
            return Err(format!("`{server}`: give the server only (http://HOST:PORT), the collection in its own field"));
        }
        StoreUrl::parse(&format!("{rest}/{}", collection.trim()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// One HTTP request for the shell to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub method: Method,
    /// Full URL.
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

/// What the shell got back: the status and the body.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

/// Sends a `Request`; `Err` when no reply came (connection refused, DNS, timeout).
#[allow(async_fn_in_trait)]
pub trait StoreTransport {
    async fn send(&self, req: Request) -> Result<Reply, String>;
}

#[derive(Debug, Clone, PartialEq)]
pub enum StoreError {
    Unreachable { url: String, reason: String },
    Auth { message: String },
    MissingCollection { collection: String },
    DimensionMismatch { collection: String, stored: usize, query: usize },
    EmbedderMismatch { collection: String, stored: String, query: String },
    Server { code: i64, message: String },
    /// A search answered fewer rows than its filter (or the collection) holds, twice.
    Incomplete { filter: String, got: usize, rows: usize },
    /// Files written before rows carried statement-page flags, searched with the prior on.
    NoStatementFlags { collection: String, files: Vec<String> },
    Malformed(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Unreachable { url, reason } => write!(f, "the Milvus server at {url} is unreachable ({reason}): is it running (scripts/milvus.sh serve)?"),
            StoreError::Auth { message } => write!(f, "the Milvus server refused the token: {message} (pass --token USER:PASSWORD or an API key)"),
            StoreError::MissingCollection { collection } => write!(f, "the Milvus server has no collection `{collection}`: ingest files into it first (clair ingest PDF --store …)"),
            StoreError::DimensionMismatch { collection, stored, query } => {
                write!(f, "collection `{collection}` holds {stored}-dimensional vectors, this embedder makes {query}: search it with the embedder it was ingested with")
            }
            StoreError::EmbedderMismatch { collection, stored, query } => {
                write!(f, "collection `{collection}` was embedded with `{stored}`, not `{query}`: search it with the same embedder or ingest into another collection")
            }
            StoreError::Server { code, message } => write!(f, "Milvus error {code}: {message}"),
            StoreError::Incomplete { filter, got, rows } => {
                if filter == ALL_ROWS {
                    write!(f, "Milvus answered an unfiltered search with {got} rows although the collection holds at least {rows};")?;
                } else {
                    write!(f, "Milvus answered a search filtered by `{filter}` with {got} rows although at least {rows} match;")?;
                }
                write!(
                    f,
                    " the search was not used (try again; if it persists, the server's index misses rows: on Milvus 2.3 set queryNode.segcore.interimIndex.enableIndex=false, docs/scale.md)"
                )
            }
            StoreError::NoStatementFlags { collection, files } => {
                let names: Vec<&str> = files.iter().take(3).map(String::as_str).collect();
                let more = if files.len() > 3 { format!(" and {} more", files.len() - 3) } else { String::new() };
                write!(
                    f,
                    "collection `{collection}` holds {} file(s) written without statement-page flags ({}{more}), so the structural prior cannot rank them: \
                     ingest them again (clair ingest PDF... --store … reads such a file again), or set retrieval.statement_prior = 0 to search without the prior",
                    files.len(),
                    names.join(", ")
                )
            }
            StoreError::Malformed(m) => write!(f, "unexpected reply from Milvus: {m}"),
        }
    }
}

impl From<StoreError> for String {
    fn from(e: StoreError) -> String {
        e.to_string()
    }
}

/// A Milvus string literal (filter expressions).
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The REST v1 dialect (Milvus 2.3, `/v1/vector/...`): paths, bodies and reply shapes.
#[derive(Debug, Clone)]
pub struct RestV1 {
    pub url: StoreUrl,
    pub token: Option<String>,
}

impl RestV1 {
    pub fn new(url: StoreUrl, token: Option<String>) -> RestV1 {
        RestV1 { url, token: token.filter(|t| !t.trim().is_empty()) }
    }
    pub fn chunks(&self) -> &str {
        &self.url.collection
    }
    pub fn manifest(&self) -> String {
        format!("{}_files", self.url.collection)
    }

    fn request(&self, method: Method, path: &str, body: Option<Value>) -> Request {
        let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
        if let Some(t) = &self.token {
            headers.push(("Authorization".to_string(), format!("Bearer {t}")));
        }
        Request { method, url: format!("{}/v1/vector{path}", self.url.base), headers, body: body.map(|b| b.to_string()) }
    }

    pub fn describe(&self, collection: &str) -> Request {
        // Collection names are [A-Za-z0-9_] (StoreUrl::parse), so no escaping is needed.
        self.request(Method::Get, &format!("/collections/describe?collectionName={collection}"), None)
    }
    pub fn create(&self, collection: &str, dims: usize) -> Request {
        self.request(
            Method::Post,
            "/collections/create",
            Some(json!({"collectionName": collection, "dimension": dims, "metricType": "L2", "primaryField": "id", "vectorField": "vector"})),
        )
    }
    /// An insert of rows already written as JSON objects (`doc_row`): the body is assembled as
    /// text so the rows keep their compact vectors.
    pub fn insert(&self, collection: &str, rows: &[String]) -> Request {
        let mut req = self.request(Method::Post, "/insert", None);
        let mut body = String::with_capacity(rows.iter().map(|r| r.len() + 1).sum::<usize>() + collection.len() + 40);
        body.push_str(&json!({"collectionName": collection}).to_string());
        body.pop(); // the closing brace: the rows follow
        body.push_str(",\"data\":[");
        for (i, r) in rows.iter().enumerate() {
            if i > 0 {
                body.push(',');
            }
            body.push_str(r);
        }
        body.push_str("]}");
        req.body = Some(body);
        req
    }
    pub fn delete(&self, collection: &str, filter: &str) -> Request {
        self.request(Method::Post, "/delete", Some(json!({"collectionName": collection, "filter": filter})))
    }
    pub fn query(&self, collection: &str, filter: &str, fields: &[&str], limit: usize, offset: usize) -> Request {
        self.request(
            Method::Post,
            "/query",
            Some(json!({"collectionName": collection, "filter": filter, "outputFields": fields, "limit": limit, "offset": offset})),
        )
    }
    /// A pool search: each hit with its document and its statement-page flag.
    pub fn search(&self, vector: &[f32], limit: usize, filter: Option<&str>) -> Request {
        self.search_fields(vector, limit, filter, &POOL_FIELDS)
    }
    pub fn search_fields(&self, vector: &[f32], limit: usize, filter: Option<&str>, fields: &[&str]) -> Request {
        let mut body = json!({"collectionName": self.chunks(), "vector": vector, "limit": limit.clamp(1, MAX_TOPK), "outputFields": fields});
        if let Some(f) = filter {
            body["filter"] = json!(f);
        }
        self.request(Method::Post, "/search", Some(body))
    }

    /// The `data` of a reply, or the error it carries. `collection` names the collection asked
    /// about, for the missing-collection message.
    pub fn data(&self, reply: &Reply, collection: &str) -> Result<Value, StoreError> {
        if reply.status == 401 || reply.status == 403 {
            return Err(StoreError::Auth { message: format!("HTTP {}", reply.status) });
        }
        let v: Value = serde_json::from_str(&reply.body)
            .map_err(|_| StoreError::Malformed(format!("HTTP {}: {}", reply.status, reply.body.chars().take(200).collect::<String>())))?;
        let code = v.get("code").and_then(Value::as_i64).unwrap_or(reply.status as i64);
        if code == 200 || code == 0 {
            return Ok(v.get("data").cloned().unwrap_or(Value::Null));
        }
        let message = v.get("message").and_then(Value::as_str).unwrap_or("").to_string();
        let lower = message.to_lowercase();
        // 1800: "user hasn't authenticated"; 2.3 also answers a bad password in the message.
        if code == 1800 || lower.contains("authenticat") || lower.contains("permission deny") || lower.contains("permission denied") {
            return Err(StoreError::Auth { message });
        }
        if lower.contains("collection not found") || lower.contains("can't find collection") || lower.contains("collection not exist") {
            return Err(StoreError::MissingCollection { collection: collection.to_string() });
        }
        Err(StoreError::Server { code, message })
    }

    /// The vector size of a described collection (`"type": "FloatVector(1024)"`).
    pub fn parse_dims(data: &Value) -> Result<usize, StoreError> {
        data.get("fields")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|f| f.get("type").and_then(Value::as_str))
            .find_map(|t| t.strip_prefix("FloatVector(").and_then(|r| r.strip_suffix(')')).and_then(|n| n.parse().ok()))
            .ok_or_else(|| StoreError::Malformed(format!("no float vector field in {data}")))
    }

    /// Search hits as (document, squared L2 distance), nearest first.
    pub fn parse_hits(data: &Value) -> Result<Vec<(Doc, f32)>, StoreError> {
        Ok(Self::parse_pool(data, true)?.into_iter().map(|r| (r.doc, r.distance)).collect())
    }

    /// Pool rows: document, distance (search hits; queried rows carry none and read as 0) and
    /// statement-page flag.
    pub fn parse_pool(data: &Value, hits: bool) -> Result<Vec<PoolRow>, StoreError> {
        let rows = data.as_array().ok_or_else(|| StoreError::Malformed(format!("search data is not a list: {data}")))?;
        rows.iter()
            .map(|r| {
                let distance = match r.get("distance").and_then(Value::as_f64) {
                    Some(d) => d as f32,
                    None if !hits => 0.0,
                    None => return Err(StoreError::Malformed("a hit without a distance".into())),
                };
                let doc = r.get("doc").and_then(Value::as_str).ok_or_else(|| StoreError::Malformed("a hit without its document".into()))?;
                let doc: Doc = serde_json::from_str(doc).map_err(|e| StoreError::Malformed(format!("a stored document does not read: {e}")))?;
                Ok(PoolRow { doc, distance, page: PageFlag::of_row(r), id: row_id(r).ok() })
            })
            .collect()
    }

    /// Hits of a search asking for no field: (row id, squared L2 distance).
    pub fn parse_id_hits(data: &Value) -> Result<Vec<(i64, f32)>, StoreError> {
        let rows = data.as_array().ok_or_else(|| StoreError::Malformed(format!("search data is not a list: {data}")))?;
        rows.iter()
            .map(|r| {
                let d = r.get("distance").and_then(Value::as_f64).ok_or_else(|| StoreError::Malformed("a hit without a distance".into()))?;
                Ok((row_id(r)?, d as f32))
            })
            .collect()
    }

    /// The ids an insert gave its rows, in the rows' order (REST v1 writes them as strings).
    pub fn parse_insert_ids(data: &Value, rows: usize) -> Result<Vec<i64>, StoreError> {
        let ids = data.get("insertIds").and_then(Value::as_array).ok_or_else(|| StoreError::Malformed(format!("an insert reply without its ids: {data}")))?;
        let ids = ids.iter().map(|id| row_id(&json!({ "id": id }))).collect::<Result<Vec<i64>, _>>()?;
        if ids.len() != rows {
            return Err(StoreError::Malformed(format!("an insert of {rows} rows answered {} ids", ids.len())));
        }
        Ok(ids)
    }
}

/// What a pool search asks for with each hit.
pub const POOL_FIELDS: [&str; 4] = ["doc", "statement", "years", "kinds"];

/// A row's structural-prior flag (`prior.rs`): whether its page is a statement page, which
/// statements it is taken for (`PageProfile::kinds`: its title's inside the document's statement
/// block, for `statement_prior_matched`) and the fiscal
/// years the page's heading and column headers name (for `statement_prior_needs_year`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageFlag {
    pub statement: bool,
    pub kinds: u8,
    pub years: std::collections::BTreeSet<u32>,
}

impl PageFlag {
    fn of_row(r: &Value) -> PageFlag {
        PageFlag {
            statement: r.get("statement").and_then(Value::as_bool).unwrap_or(false),
            kinds: r.get("kinds").and_then(Value::as_u64).map_or(0, |k| k as u8),
            years: r.get("years").and_then(Value::as_array).into_iter().flatten().filter_map(|y| y.as_u64()).map(|y| y as u32).collect(),
        }
    }
    /// `PageIndex::lifts` for a row: a statement page, and with `needs_year` one of `years`.
    pub fn lifts(&self, years: &std::collections::BTreeSet<u32>, needs_year: bool) -> bool {
        super::prior::page_lifts(self.statement, &self.years, years, needs_year)
    }
    /// `PageIndex::lift` for a row: what the prior adds to its score for a question asking about
    /// the statements `kinds` (`question_kinds`) and naming `years`.
    pub fn lift(&self, kinds: u8, years: &std::collections::BTreeSet<u32>, s: &RetrievalSettings) -> f64 {
        super::prior::page_lift(self.statement, self.kinds, &self.years, kinds, years, s)
    }
}

/// One row of a library's pool.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolRow {
    pub doc: Doc,
    pub distance: f32,
    pub page: PageFlag,
    /// Its primary key, when the reply carried it.
    pub id: Option<i64>,
}

/// A statement page of a file as the manifest records it: its page number, fiscal years and the
/// ids Milvus gave its rows, so the statement-page search can answer ids alone.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StatementPage {
    pub page: u32,
    /// The statements it is taken for (`PageProfile::kinds`: its title's, inside the statement block).
    #[serde(default)]
    pub kinds: u8,
    pub years: Vec<u32>,
    pub ids: Vec<i64>,
}

/// Each document's `PageFlag`, from the file's own documents: `PageIndex` over them in the order a
/// local corpus holds them (by modality, stable), so a page's heading is read as `Corpus` reads it.
pub fn page_flags(docs: &[Doc]) -> Vec<PageFlag> {
    let mut order: Vec<usize> = (0..docs.len()).collect();
    order.sort_by_key(|&i| docs[i].modality);
    let sorted: Vec<Doc> = order.iter().map(|&i| docs[i].clone()).collect();
    let idx = super::prior::PageIndex::build(&sorted);
    let mut flags = vec![PageFlag::default(); docs.len()];
    for (pos, &i) in order.iter().enumerate() {
        if let Some(p) = idx.page_of.get(pos).and_then(|&p| idx.pages.get(p)) {
            flags[i] = PageFlag { statement: p.statement, kinds: p.kinds, years: if p.statement { p.years.clone() } else { Default::default() } };
        }
    }
    flags
}

/// The key of a pool filter in a file's `statement_rows`: every row, or one modality's (tables
/// without the low-confidence ones, as `modality_filter`).
pub fn statement_key(modality: Option<Modality>) -> &'static str {
    modality.map_or("all", Modality::as_str)
}

/// A file's rows on statement pages per pool filter (`statement_key`).
pub fn statement_rows(docs: &[Doc], flags: &[PageFlag]) -> std::collections::BTreeMap<String, usize> {
    let mut n: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (d, _) in docs.iter().zip(flags).filter(|(_, f)| f.statement) {
        *n.entry("all".into()).or_default() += 1;
        if !(d.modality == Modality::Table && d.confidence == ExtractionConfidence::Low) {
            *n.entry(d.modality.as_str().into()).or_default() += 1;
        }
    }
    n
}

/// The filter of the statement-page search: flagged rows within the pool's filter.
pub fn statement_filter(modality: Option<Modality>) -> String {
    match modality_filter(modality) {
        Some(f) => format!("statement == true and {f}"),
        None => "statement == true".into(),
    }
}

/// The JSON stored for a document, within the row budget: a table that does not fit loses its
/// cell grid first (the whole-table document's text holds the same table as markdown), then text
/// past the budget is cut. Returns the JSON and whether anything was cut.
pub fn doc_json(doc: &Doc) -> (String, bool) {
    let fits = |s: &str| serde_json::to_string(s).map_or(false, |e| e.len() <= ROW_JSON_BUDGET);
    let full = serde_json::to_string(doc).unwrap_or_default();
    if fits(&full) {
        return (full, false);
    }
    let mut d = doc.clone();
    if let Some(t) = d.table.as_mut() {
        t.rows.clear();
    }
    loop {
        let s = serde_json::to_string(&d).unwrap_or_default();
        if fits(&s) || d.text.is_empty() {
            return (s, true);
        }
        let keep = d.text.chars().count() * 3 / 4;
        d.text = d.text.chars().take(keep).collect();
    }
}

/// A vector as insert requests carry it: each component with the shortest digits that read back
/// as the same `f32`, zeros as `0`. Through a `serde_json::Value` an `f32` becomes an `f64` and
/// prints with up to 17 digits (`0.10000000149011612`), and the offline embedder's vectors are
/// mostly zeros (`0.0`): the compact form makes the 3M 10-K's rows 38 % smaller (5,888 bytes
/// against 9,542) and saved ≈ 11 % of the server's CPU a row (docs/scale.md, "Where the time
/// goes").
struct CompactVector<'a>(&'a [f32]);

impl serde::Serialize for CompactVector<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for x in self.0 {
            if *x == 0.0 {
                seq.serialize_element(&0u8)?;
            } else {
                seq.serialize_element(x)?;
            }
        }
        seq.end()
    }
}

/// One document's row (paper B.3's metadata as filter fields, the whole document in `doc`).
#[derive(serde::Serialize)]
struct DocRow<'a> {
    vector: CompactVector<'a>,
    doc_id: &'a str,
    source: &'a str,
    page: u32,
    modality: &'a str,
    low: bool,
    file_hash: &'a str,
    statement: bool,
    #[serde(skip_serializing_if = "is_zero")]
    kinds: u8,
    #[serde(skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    years: &'a std::collections::BTreeSet<u32>,
    doc: &'a str,
}

fn is_zero(k: &u8) -> bool {
    *k == 0
}

/// One document's row as JSON text: the vector, the filter fields (its page's statement flag
/// among them, `page_flags`) and the whole document. Returns the row and whether the document
/// had to be cut to fit (`doc_json`).
pub fn doc_row(doc: &Doc, vector: &[f32], file_hash: &str, page: &PageFlag) -> (String, bool) {
    let (json, cut) = doc_json(doc);
    let row = DocRow {
        vector: CompactVector(vector),
        doc_id: &doc.id,
        source: &doc.source,
        page: doc.page,
        modality: doc.modality.as_str(),
        low: doc.confidence == ExtractionConfidence::Low,
        file_hash,
        statement: page.statement,
        kinds: page.kinds,
        years: &page.years,
        doc: &json,
    };
    (serde_json::to_string(&row).unwrap_or_default(), cut)
}

/// A file as the manifest records it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileEntry {
    pub hash: String,
    pub source: String,
    pub embedder: String,
    pub docs: usize,
    /// Its rows on statement pages per pool filter (`statement_key`), written by `put_file`;
    /// `None` for a file stored before rows carried statement-page flags.
    pub statement_rows: Option<std::collections::BTreeMap<String, usize>>,
    /// The version of the structural prior its rows were flagged for (`PRIOR_VERSION`; 0 when the
    /// manifest records none).
    pub prior: u32,
    /// Its statement pages with their rows' ids (read with the statistics, `open_search`).
    pub statement_pages: Vec<StatementPage>,
}

/// The structural prior's row flags as `put_file` writes them: 1 = statement page and years,
/// 2 = also the statements the page's title names (`statement_prior_matched`), 3 = those only
/// inside the document's statement block (`prior::statement_block`). A file flagged for
/// an earlier version is read again by `clair ingest --store` and refused by a search with the
/// prior on (`StoreError::NoStatementFlags`).
pub const PRIOR_VERSION: u32 = 3;

impl FileEntry {
    /// Whether its rows carry the flags this version's prior ranks by.
    pub fn flagged(&self) -> bool {
        self.statement_rows.is_some() && self.prior >= PRIOR_VERSION
    }
}

/// The manifest collection's vector size: Milvus needs a vector field; this one is never searched.
pub const MANIFEST_DIMS: usize = 2;
/// Manifest rows a query asks for: rows with statistics are ≈ 30 kB each (`manifest_rows`), so a
/// page is a few MB — well under Milvus's result size, which counts every row's dynamic fields.
pub const MANIFEST_PAGE: usize = 128;

/// A row's primary key: REST v1 writes Int64 ids as strings (JavaScript numbers lose digits past
/// 2⁵³ and Milvus's auto ids are ≈ 4.7 × 10¹⁷), as numbers from other dialects.
pub fn row_id(row: &Value) -> Result<i64, StoreError> {
    match row.get("id") {
        Some(Value::String(s)) => s.parse().map_err(|_| StoreError::Malformed(format!("a row id `{s}` is not an integer"))),
        Some(v) => v.as_i64().ok_or_else(|| StoreError::Malformed(format!("a row id `{v}` is not an integer"))),
        None => Err(StoreError::Malformed("a row without its id".into())),
    }
}

/// The manifest rows of a file: its share of the IDF statistics as JSON, split at char boundaries
/// into pieces that fit a row, each row carrying the file's identity and `part`/`parts`.
pub fn manifest_rows(file: &FileEntry, stats: &TermStats) -> Vec<Value> {
    let s = serde_json::to_string(stats).unwrap_or_default();
    // The escaped piece must fit: JSON escaping can at most double ASCII (\" and \\), so half.
    let max = ROW_JSON_BUDGET / 2;
    let mut pieces: Vec<&str> = vec![];
    let mut rest = s.as_str();
    while !rest.is_empty() {
        let mut cut = rest.len().min(max);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        pieces.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    if pieces.is_empty() {
        pieces.push("");
    }
    // The statement pages' row ids follow in rows of their own (digits, brackets and commas: no
    // escaping), each with an empty piece of the statistics.
    let pages = if file.statement_pages.is_empty() { String::new() } else { serde_json::to_string(&file.statement_pages).unwrap_or_default() };
    let page_pieces: Vec<&str> = pages.as_bytes().chunks(ROW_JSON_BUDGET / 2).map(|c| std::str::from_utf8(c).unwrap_or_default()).collect();
    let parts = pieces.len() + page_pieces.len();
    let rows = pieces.into_iter().map(|p| (p, "")).chain(page_pieces.into_iter().map(|p| ("", p)));
    rows.enumerate()
        .map(|(i, (p, ids))| {
            let mut row = json!({"vector": [1.0, 0.0], "file_hash": file.hash, "source": file.source, "embedder": file.embedder,
                   "docs": file.docs, "part": i, "parts": parts, "stats": p});
            if let Some(n) = &file.statement_rows {
                row["statement_rows"] = json!(n);
                row["prior"] = json!(file.prior);
            }
            if !ids.is_empty() {
                row["pages"] = json!(ids);
            }
            row
        })
        .collect()
}

/// Complete files from manifest rows (a file missing a part was interrupted: left out), in name
/// order, and, when the rows carry `stats`, the merged statistics of the complete files.
pub fn read_manifest(rows: &[Value]) -> Result<(Vec<FileEntry>, TermStats), StoreError> {
    use std::collections::BTreeMap;
    let mut by_hash: BTreeMap<String, (FileEntry, usize, BTreeMap<usize, (String, String)>)> = BTreeMap::new();
    for r in rows {
        let s = |k: &str| r.get(k).and_then(Value::as_str).map(str::to_string);
        let n = |k: &str| r.get(k).and_then(Value::as_u64).map(|x| x as usize);
        let (Some(hash), Some(source), Some(embedder), Some(docs), Some(part), Some(parts)) =
            (s("file_hash"), s("source"), s("embedder"), n("docs"), n("part"), n("parts"))
        else {
            return Err(StoreError::Malformed(format!("a manifest row lacks a field: {r}")));
        };
        // A file written before rows carried statement-page flags has no `statement_rows`.
        let statement_rows = r.get("statement_rows").and_then(|v| serde_json::from_value(v.clone()).ok());
        let prior = n("prior").map_or(0, |p| p as u32);
        let e = by_hash.entry(hash.clone()).or_insert_with(|| (FileEntry { hash, source, embedder, docs, statement_rows, prior, ..Default::default() }, parts, BTreeMap::new()));
        e.2.insert(part, (s("stats").unwrap_or_default(), s("pages").unwrap_or_default()));
    }
    let mut files = vec![];
    let mut stats = TermStats::default();
    for (_, (mut file, parts, pieces)) in by_hash {
        if pieces.len() != parts || (0..parts).any(|i| !pieces.contains_key(&i)) {
            continue;
        }
        let (joined, pages): (String, String) = pieces.into_values().unzip();
        if !pages.is_empty() {
            file.statement_pages = serde_json::from_str(&pages).map_err(|e| StoreError::Malformed(format!("{}: its statement pages do not read: {e}", file.source)))?;
        }
        if !joined.is_empty() {
            let share: TermStats = serde_json::from_str(&joined).map_err(|e| StoreError::Malformed(format!("{}: its statistics do not read: {e}", file.source)))?;
            stats.merge(&share);
        }
        files.push(file);
    }
    files.sort_by(|a, b| a.source.cmp(&b.source).then(a.hash.cmp(&b.hash)));
    Ok((files, stats))
}

/// The dense-pool filter for a modality: tabular searches leave low-confidence tables out, as the
/// local index does (spec §4.2).
pub fn modality_filter(modality: Option<Modality>) -> Option<String> {
    modality.map(|m| {
        let f = format!("modality == {}", quote(m.as_str()));
        if m == Modality::Table {
            format!("{f} and low == false")
        } else {
            f
        }
    })
}

/// Filter for everything stored for a file: its hash, or (a new version of a file) its name.
pub fn file_filter(hash: &str, source: &str) -> String {
    format!("file_hash == {} or source == {}", quote(hash), quote(source))
}

/// A library on a Milvus server: the REST dialect plus a transport.
pub struct MilvusStore<'t, T: StoreTransport> {
    pub api: RestV1,
    pub transport: &'t T,
}

impl<'t, T: StoreTransport> MilvusStore<'t, T> {
    pub fn new(transport: &'t T, url: StoreUrl, token: Option<String>) -> Self {
        MilvusStore { api: RestV1::new(url, token), transport }
    }

    async fn call(&self, req: Request, collection: &str) -> Result<Value, StoreError> {
        let url = self.api.url.base.clone();
        let reply = self.transport.send(req).await.map_err(|reason| StoreError::Unreachable { url, reason })?;
        self.api.data(&reply, collection)
    }

    /// The vector size of a collection.
    pub async fn dims(&self, collection: &str) -> Result<usize, StoreError> {
        let d = self.call(self.api.describe(collection), collection).await?;
        RestV1::parse_dims(&d)
    }

    /// Create the document and manifest collections when missing; an existing document
    /// collection of another vector size is an error.
    pub async fn ensure_collections(&self, dims: usize) -> Result<(), StoreError> {
        for (name, want) in [(self.api.chunks().to_string(), dims), (self.api.manifest(), MANIFEST_DIMS)] {
            match self.dims(&name).await {
                Ok(d) if d == want => {}
                Ok(d) => return Err(StoreError::DimensionMismatch { collection: name, stored: d, query: want }),
                Err(StoreError::MissingCollection { .. }) => {
                    self.call(self.api.create(&name, want), &name).await?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Every manifest row, page by page in primary-key order: each page asks for the rows after
    /// the last id read (`id > last`), the way pymilvus's query iterator pages, because Milvus
    /// answers a query with at most 16,384 rows counting its offset (offset paging stopped at
    /// 16,384 manifest rows, ≈ 500 10-Ks) and refuses one whose rows exceed its result size
    /// (a 500,000-chunk library's 5,363 rows read in one query did: every row's dynamic fields,
    /// statistics included, are read even when not asked for). Milvus 2.3 returns a limited
    /// query's rows in primary-key order, so the last id of a page is the next page's bound.
    async fn manifest_rows(&self, with_stats: bool) -> Result<Vec<Value>, StoreError> {
        let name = self.api.manifest();
        let mut fields = vec!["id", "file_hash", "source", "embedder", "docs", "part", "parts", "statement_rows", "prior"];
        if with_stats {
            fields.extend(["stats", "pages"]);
        }
        let mut rows = vec![];
        let mut after: Option<i64> = None;
        loop {
            let filter = after.map_or_else(|| "part >= 0".to_string(), |id| format!("id > {id}"));
            let page = self.call(self.api.query(&name, &filter, &fields, MANIFEST_PAGE, 0), &name).await?;
            let page = page.as_array().cloned().ok_or_else(|| StoreError::Malformed(format!("query data is not a list: {page}")))?;
            let n = page.len();
            let last = page.iter().map(row_id).collect::<Result<Vec<i64>, _>>()?.into_iter().max();
            rows.extend(page);
            match last {
                Some(last) if n >= MANIFEST_PAGE => {
                    if let Some(a) = after.filter(|a| last <= *a) {
                        return Err(StoreError::Malformed(format!("the manifest page after id {a} ended at id {last}")));
                    }
                    after = Some(last);
                }
                _ => return Ok(rows),
            }
        }
    }

    /// The files fully in the library.
    pub async fn files(&self) -> Result<Vec<FileEntry>, StoreError> {
        Ok(read_manifest(&self.manifest_rows(false).await?)?.0)
    }

    /// Remove everything stored for a file (by hash or by name): documents and manifest rows.
    pub async fn remove_file(&self, hash: &str, source: &str) -> Result<(), StoreError> {
        let f = file_filter(hash, source);
        // Manifest first: a file without a manifest counts as absent, whatever documents remain.
        self.call(self.api.delete(&self.api.manifest(), &f), &self.api.manifest()).await?;
        self.call(self.api.delete(self.api.chunks(), &f), self.api.chunks()).await?;
        Ok(())
    }

    /// Store a file's documents and vectors, each row flagged with its page's statement flag
    /// (`page_flags`, over the file's documents: a page never spans files), then its manifest
    /// rows with the flagged rows' counts. Returns how many documents had to be cut to fit a row
    /// (`doc_json`).
    pub async fn put_file(&self, file: &FileEntry, docs: &[Doc], vectors: &[Vec<f32>], stats: &TermStats) -> Result<usize, StoreError> {
        if docs.len() != vectors.len() {
            return Err(StoreError::Malformed(format!("{} documents but {} vectors", docs.len(), vectors.len())));
        }
        let flags = page_flags(docs);
        let mut file = FileEntry { statement_rows: Some(statement_rows(docs, &flags)), prior: PRIOR_VERSION, statement_pages: vec![], ..file.clone() };
        let mut pages: std::collections::BTreeMap<u32, StatementPage> = std::collections::BTreeMap::new();
        let mut cut = 0;
        let chunks = self.api.chunks().to_string();
        for ((ds, vs), fs) in docs.chunks(INSERT_BATCH).zip(vectors.chunks(INSERT_BATCH)).zip(flags.chunks(INSERT_BATCH)) {
            let rows: Vec<String> = ds
                .iter()
                .zip(vs)
                .zip(fs)
                .map(|((d, v), f)| {
                    let (row, c) = doc_row(d, v, &file.hash, f);
                    cut += c as usize;
                    row
                })
                .collect();
            let reply = self.call(self.api.insert(&chunks, &rows), &chunks).await?;
            // The ids Milvus gave the statement pages' rows, for the manifest (`StatementPage`).
            let ids = RestV1::parse_insert_ids(&reply, rows.len())?;
            for ((d, f), id) in ds.iter().zip(fs).zip(ids).filter(|((_, f), _)| f.statement) {
                let p = pages.entry(d.page).or_insert_with(|| StatementPage { page: d.page, kinds: f.kinds, years: f.years.iter().copied().collect(), ids: vec![] });
                p.ids.push(id);
            }
        }
        file.statement_pages = pages.into_values().collect();
        let file = &file;
        let m = self.api.manifest();
        let rows: Vec<String> = manifest_rows(file, stats).iter().map(Value::to_string).collect();
        self.call(self.api.insert(&m, &rows), &m).await?;
        Ok(cut)
    }

    /// Open the library for searching with the offline embedder: checks the vector size and the
    /// embedder against what the collection holds, and merges the files' IDF statistics.
    pub async fn open_search(self, embedder: &'t OfflineEmbedder, settings: &'t RetrievalSettings) -> Result<MilvusSearch<'t, T>, StoreError> {
        let collection = self.api.chunks().to_string();
        let stored = self.dims(&collection).await?;
        if stored != embedder.dims() {
            return Err(StoreError::DimensionMismatch { collection, stored, query: embedder.dims() });
        }
        let (files, stats) = read_manifest(&self.manifest_rows(true).await?)?;
        if let Some(f) = files.iter().find(|f| f.embedder != embedder.name()) {
            return Err(StoreError::EmbedderMismatch { collection, stored: f.embedder.clone(), query: embedder.name() });
        }
        // With the prior on, a file whose rows carry no statement-page flag would rank below the
        // flagged ones for want of a flag, not of relevance: refuse rather than rank it so.
        let unflagged: Vec<String> = files.iter().filter(|f| !f.flagged()).map(|f| f.source.clone()).collect();
        if settings.statement_prior > 0.0 && !unflagged.is_empty() {
            return Err(StoreError::NoStatementFlags { collection, files: unflagged });
        }
        let statement_rows = statement_index(&files);
        Ok(MilvusSearch { store: self, embedder, settings, stats, files, statement_rows })
    }
}

/// `Search` over a Milvus library with the offline embedder (the CLI's and the browser's without
/// a key).
pub struct MilvusSearch<'t, T: StoreTransport> {
    pub store: MilvusStore<'t, T>,
    pub embedder: &'t OfflineEmbedder,
    pub settings: &'t RetrievalSettings,
    pub stats: TermStats,
    pub files: Vec<FileEntry>,
    /// Each flagged row's id → its file, page and flag (`statement_index`).
    pub statement_rows: std::collections::HashMap<i64, (String, u32, PageFlag)>,
}

/// Every flagged row of the library by id: its file, page and flag, from the manifest.
pub fn statement_index(files: &[FileEntry]) -> std::collections::HashMap<i64, (String, u32, PageFlag)> {
    let mut index = std::collections::HashMap::new();
    for f in files {
        for p in &f.statement_pages {
            let flag = PageFlag { statement: true, kinds: p.kinds, years: p.years.iter().copied().collect() };
            for id in &p.ids {
                index.insert(*id, (f.source.clone(), p.page, flag.clone()));
            }
        }
    }
    index
}

impl<T: StoreTransport> MilvusSearch<'_, T> {
    async fn search_split(&self, query: &str, dense_text: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        if k == 0 {
            return Ok(vec![]);
        }
        let s = self.settings;
        let q = self.embedder.embed_query(dense_text, &self.stats);
        let n = (k * s.pool_factor.max(1)).min(MAX_TOPK);
        let filter = modality_filter(modality);
        let mut pool = self.pool(&q, n, filter.as_deref()).await?;
        in_corpus_order_rows(&mut pool);
        // The structural prior (`prior.rs`), as `Corpus::search_traced`: statement pages join the
        // pool and their rows are lifted.
        let years = if s.statement_prior_needs_year { fiscal_years(query) } else { Default::default() };
        if s.statement_prior > 0.0 {
            let joined = self.statement_pages(&q, modality, &pool, &years).await?;
            pool.extend(joined);
        }
        let kinds = if s.statement_prior > 0.0 && s.statement_prior_matched > 0.0 { question_kinds(query) } else { 0 };
        let lifts: Vec<f64> = pool.iter().map(|r| r.page.lift(kinds, &years, s)).collect();
        Ok(rank_lifted(&pool, &lifts, query, k, s))
    }

    /// Each statement page's nearest row that is not in `pool` already, within the pool's filter
    /// (`Corpus::search_traced`: "statement pages join the pool"). Milvus 2.3 cannot group a
    /// search by page, so a search filtered to flagged rows asks for the nearest
    /// `retrieval.statement_pool` of them (all of them with 0, up to Milvus's top-k ceiling of
    /// 16,384) — the manifest counts them per filter, so fewer than that many is a short answer —
    /// answering ids and distances only (reading the rows' fields costs Milvus most of the time,
    /// docs/scale.md); the manifest's `StatementPage`s say each id's page, the client picks each
    /// page's nearest and reads the picked rows' documents by id. A short answer is asked again
    /// and then is `StoreError::Incomplete`, as the dense pool's.
    async fn statement_pages(&self, q: &[f32], modality: Option<Modality>, pool: &[PoolRow], years: &std::collections::BTreeSet<u32>) -> Result<Vec<PoolRow>, StoreError> {
        let key = statement_key(modality);
        let flagged: usize = self.files.iter().map(|f| f.statement_rows.as_ref().and_then(|n| n.get(key)).copied().unwrap_or(0)).sum();
        let bound = match self.settings.statement_pool {
            0 => MAX_TOPK,
            n => n.min(MAX_TOPK),
        };
        let want = flagged.min(bound);
        if want == 0 {
            return Ok(vec![]);
        }
        let api = &self.store.api;
        let chunks = api.chunks();
        let filter = statement_filter(modality);
        let search = || self.store.call(api.search_fields(q, want, Some(&filter), &[]), chunks);
        let mut hits = RestV1::parse_id_hits(&search().await?)?;
        if hits.len() < want {
            hits = RestV1::parse_id_hits(&search().await?)?;
            if hits.len() < want {
                return Err(StoreError::Incomplete { filter, got: hits.len(), rows: want });
            }
        }
        // Rows the manifest does not list (left by an interrupted ingest) are no file's.
        let mut known: Vec<(i64, f32, &(String, u32, PageFlag))> = hits.into_iter().filter_map(|(id, d)| Some((id, d, self.statement_rows.get(&id)?))).collect();
        // Nearest first, equal distances in file, page and insertion order (`in_corpus_order`).
        known.sort_by(|a, b| {
            a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal).then_with(|| a.2 .0.cmp(&b.2 .0)).then(a.2 .1.cmp(&b.2 .1)).then(a.0.cmp(&b.0))
        });
        let needs_year = self.settings.statement_prior_needs_year;
        let in_pool: std::collections::BTreeSet<i64> = pool.iter().filter_map(|r| r.id).collect();
        let mut pages = std::collections::BTreeSet::new();
        let picked: Vec<(i64, f32)> = known
            .into_iter()
            .filter(|(_, _, (_, _, flag))| flag.lifts(years, needs_year))
            .filter(|(_, _, (source, page, _))| pages.insert((source.clone(), *page)))
            .filter(|(id, _, _)| !in_pool.contains(id))
            .map(|(id, d, _)| (id, d))
            .collect();
        if picked.is_empty() {
            return Ok(vec![]);
        }
        let by_id = format!("id in [{}]", picked.iter().map(|(id, _)| id.to_string()).collect::<Vec<_>>().join(","));
        let rows = self.store.call(api.query(chunks, &by_id, &POOL_FIELDS, picked.len(), 0), chunks).await?;
        let mut rows = RestV1::parse_pool(&rows, false)?;
        let mut out = Vec::with_capacity(picked.len());
        for (id, d) in &picked {
            let Some(i) = rows.iter().position(|r| r.id == Some(*id)) else {
                let filter = format!("id in [{} rows]", picked.len());
                return Err(StoreError::Incomplete { filter, got: out.len(), rows: picked.len() });
            };
            let mut r = rows.swap_remove(i);
            r.distance = *d;
            out.push(r);
        }
        Ok(out)
    }

    /// The dense pool, never silently short. A search answering fewer than `n` rows is checked
    /// against a query of the same filter (every row for an unfiltered search that answered fewer
    /// than the manifest's documents): when more rows
    /// match, the search is asked again, and a second short answer is `StoreError::Incomplete`.
    /// Milvus has answered short while rows matched: a modality-filtered search at 10⁵ chunks once
    /// came back empty (a segment being sealed or indexed while it ran fits it), and the interim
    /// index Milvus 2.3 puts on growing segments reached 28 of a replaced 10-K's 1,295 tables
    /// (docs/scale.md; `scripts/milvus.sh` turns that index off, a team's server should too).
    async fn pool(&self, q: &[f32], n: usize, filter: Option<&str>) -> Result<Vec<PoolRow>, StoreError> {
        let chunks = self.store.api.chunks();
        let search = || self.store.call(self.store.api.search(q, n, filter), chunks);
        let pool = RestV1::parse_pool(&search().await?, true)?;
        if pool.len() >= n {
            return Ok(pool);
        }
        // Unfiltered, the manifest already says how many documents the library's files hold (a
        // file's rows are stored before its manifest rows): a pool of all of them needs no count.
        if filter.is_none() && pool.len() >= self.files.iter().map(|f| f.docs).sum::<usize>() {
            return Ok(pool);
        }
        let f = filter.unwrap_or(ALL_ROWS);
        let rows = self.store.call(self.store.api.query(chunks, f, &["doc_id"], n, 0), chunks).await?;
        let rows = rows.as_array().map_or(0, Vec::len);
        if pool.len() >= rows {
            return Ok(pool);
        }
        let again = RestV1::parse_pool(&search().await?, true)?;
        if again.len() >= rows {
            return Ok(again);
        }
        Err(StoreError::Incomplete { filter: f.to_string(), got: again.len(), rows })
    }
}

/// A filter every document row matches (auto ids are positive), for counting an unfiltered pool.
pub const ALL_ROWS: &str = "id >= 0";

/// The pool nearest first with equal distances in the order a local corpus of the file holds its
/// documents (file, page, chunk number), as the local scan breaks ties by index: Milvus returns
/// equal distances — a page repeated word for word — in no fixed order, and the blend's stable sort
/// keeps the pool's order for equal scores, so without this the same question could cite another
/// of two identical pages than the local corpus does.
pub fn in_corpus_order(pool: &mut [(Doc, f32)]) {
    pool.sort_by(|(a, da), (b, db)| corpus_order(a, *da, b, *db));
}

/// `in_corpus_order` over pool rows.
pub fn in_corpus_order_rows(pool: &mut [PoolRow]) {
    pool.sort_by(|a, b| corpus_order(&a.doc, a.distance, &b.doc, b.distance));
}

fn corpus_order(a: &Doc, da: f32, b: &Doc, db: f32) -> std::cmp::Ordering {
    da.partial_cmp(&db)
        .unwrap_or(std::cmp::Ordering::Equal)
        .then_with(|| a.source.cmp(&b.source))
        .then(a.page.cmp(&b.page))
        .then_with(|| chunk_number(&a.id).cmp(&chunk_number(&b.id)))
        .then_with(|| a.id.cmp(&b.id))
}

/// A document id's chunk number (`…-c12`), for ordering a page's chunks as a local corpus does.
fn chunk_number(id: &str) -> u64 {
    id.rsplit_once("-c").and_then(|(_, n)| n.parse().ok()).unwrap_or(u64::MAX)
}

/// Spec §5 over a pool from the server: blend, per-page cap, top k — as `Corpus::search_traced`.
pub fn rank(pool: &[(Doc, f32)], query: &str, k: usize, s: &RetrievalSettings) -> Vec<Hit> {
    let rows: Vec<PoolRow> = pool.iter().map(|(doc, distance)| PoolRow { doc: doc.clone(), distance: *distance, page: PageFlag::default(), id: None }).collect();
    rank_lifted(&rows, &vec![0.0; rows.len()], query, k, s)
}

/// `rank` with the structural prior: row i gets `lifts[i]` (`PageFlag::lift`: `statement_prior`,
/// plus `statement_prior_matched` on a statement the question asks about) added to its blended
/// score before the stable re-sort, as `Corpus::search_traced` does.
pub fn rank_lifted(pool: &[PoolRow], lifts: &[f64], query: &str, k: usize, s: &RetrievalSettings) -> Vec<Hit> {
    let mut ranked = blend_all(pool.iter().enumerate().map(|(i, r)| (i, r.distance, r.doc.text.as_str())), query, s);
    if lifts.iter().any(|&l| l > 0.0) {
        for r in ranked.iter_mut() {
            r.1 += lifts.get(r.0).copied().unwrap_or(0.0);
        }
        // Stable: equal scores keep the blend's order.
        ranked.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    }
    cap_per_group(&ranked, k, s.max_hits_per_page, |i| (pool[i].doc.source.as_str(), pool[i].doc.page))
        .into_iter()
        .map(|(i, score)| Hit { doc: pool[i].doc.clone(), score })
        .collect()
}

impl<T: StoreTransport> Search for MilvusSearch<'_, T> {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search_split(query, query, k, modality).await
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search_split(query, passage, k, modality).await
    }
}

/// A library on a server and files in this browser, searched as one (issue 42, the app): each
/// side ranks its own pool (the server's dense pool blended and capped in the client by
/// `MilvusSearch`, the browser's by its index), then the two rankings merge by score under the
/// per-page cap. A file present on both sides counts once: the local copy wins, because only it
/// can draw its pages. Either side failing fails the search — a library that cannot answer must
/// not look like a library with nothing relevant.
pub struct WithLibrary<'a, L: Search, R: Search> {
    pub local: Option<&'a L>,
    pub library: &'a R,
    /// The files read in this browser (their server copies are left out).
    pub local_sources: Vec<String>,
    pub settings: &'a RetrievalSettings,
}

/// Spec §5's per-page cap over the union of two rankings, best first, top k; the library's hits
/// on a file also held locally are dropped.
pub fn merge_hits(local: Vec<Hit>, library: Vec<Hit>, local_sources: &[String], k: usize, s: &RetrievalSettings) -> Vec<Hit> {
    let mut all: Vec<Hit> = local;
    all.extend(library.into_iter().filter(|h| !local_sources.contains(&h.doc.source)));
    // Stable: at equal scores the local hit (first) stays ahead.
    all.sort_by(|a, b| b.score.partial_cmp(&a.score).unwrap_or(std::cmp::Ordering::Equal));
    let ranked: Vec<(usize, f64)> = all.iter().enumerate().map(|(i, h)| (i, h.score)).collect();
    let keep = cap_per_group(&ranked, k, s.max_hits_per_page, |i| (all[i].doc.source.as_str(), all[i].doc.page));
    keep.into_iter().map(|(i, _)| all[i].clone()).collect()
}

impl<L: Search, R: Search> WithLibrary<'_, L, R> {
    async fn both(&self, query: &str, passage: Option<&str>, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        let remote = match passage {
            Some(p) => self.library.search_hyde(query, p, k, modality).await?,
            None => self.library.search(query, k, modality).await?,
        };
        let local = match (self.local, passage) {
            (Some(l), Some(p)) => l.search_hyde(query, p, k, modality).await?,
            (Some(l), None) => l.search(query, k, modality).await?,
            (None, _) => vec![],
        };
        Ok(merge_hits(local, remote, &self.local_sources, k, self.settings))
    }
}

impl<L: Search, R: Search> Search for WithLibrary<'_, L, R> {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.both(query, None, k, modality).await
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.both(query, Some(passage), k, modality).await
    }
}

#[cfg(test)]
mod tests;
