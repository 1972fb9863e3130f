//! Request building and reply reading against Milvus 2.3's REST v1 shapes (as the server answered
//! them), and the whole library — store, manifest, search — through an in-memory stand-in that
//! keeps rows and answers L2 searches the way the server does. The real server is exercised by
//! `cli/tests/milvus_store.rs`.

use super::*;
use crate::corpus::{doc_id, TableMeta, TablePart};
use crate::retrieve::embed::embedding_inputs;
use crate::retrieve::{Corpus, LocalSearch};
use std::cell::RefCell;
use std::collections::HashMap;

fn url() -> StoreUrl {
    StoreUrl::parse("milvus://127.0.0.1:19530/filings").unwrap()
}

fn reply(body: &str) -> Reply {
    Reply { status: 200, body: body.into() }
}

#[test]
fn store_url_names_host_port_and_collection() {
    assert_eq!(url(), StoreUrl { base: "http://127.0.0.1:19530".into(), collection: "filings".into() });
    let tls = StoreUrl::parse("milvus+https://in01.example.com:443/team_lib/").unwrap();
    assert_eq!((tls.base.as_str(), tls.collection.as_str()), ("https://in01.example.com:443", "team_lib"));
    assert!(StoreUrl::parse("http://127.0.0.1:19530/filings").is_err(), "not a milvus:// URL");
    assert!(StoreUrl::parse("milvus://127.0.0.1:19530").is_err(), "no collection");
    assert!(StoreUrl::parse("milvus://h:1/bad-name").is_err(), "Milvus names allow no hyphen");
    assert!(StoreUrl::parse("milvus://h:1/9lives").is_err(), "nor a leading digit");
    // The app's fields: a server address and a collection.
    assert_eq!(StoreUrl::from_parts(" http://127.0.0.1:19530/ ", "filings"), Ok(url()));
    assert_eq!(StoreUrl::from_parts("https://in01.example.com:443", "team_lib").unwrap().base, "https://in01.example.com:443");
    assert!(StoreUrl::from_parts("127.0.0.1:19530", "filings").is_err(), "no scheme");
    assert!(StoreUrl::from_parts("http://h:1/v1/vector", "filings").is_err(), "a path is not a server");
    assert!(StoreUrl::from_parts("http://h:1", "").is_err(), "no collection");
}

#[test]
fn requests_carry_the_token_as_bearer_and_a_json_body() {
    let api = RestV1::new(url(), Some("root:Milvus".into()));
    let r = api.insert("filings", &[json!({"doc_id": "a"}).to_string()]);
    assert_eq!(r.method, Method::Post);
    assert_eq!(r.url, "http://127.0.0.1:19530/v1/vector/insert");
    assert!(r.headers.contains(&("Authorization".into(), "Bearer root:Milvus".into())));
    let body: Value = serde_json::from_str(r.body.as_deref().unwrap()).unwrap();
    assert_eq!(body, json!({"collectionName": "filings", "data": [{"doc_id": "a"}]}));
    let d = api.describe("filings");
    assert_eq!((d.method, d.url.as_str(), d.body.as_deref()), (Method::Get, "http://127.0.0.1:19530/v1/vector/collections/describe?collectionName=filings", None));
    // A blank token is no token: no Authorization header at all.
    let anon = RestV1::new(url(), Some("  ".into()));
    assert!(anon.describe("filings").headers.iter().all(|(k, _)| k != "Authorization"));
}

#[test]
fn search_request_filters_the_modality_and_leaves_low_confidence_tables_out_of_tabular_pools() {
    let api = RestV1::new(url(), None);
    let body = |m: Option<Modality>, limit: usize| -> Value {
        serde_json::from_str(api.search(&[0.5, 0.5], limit, modality_filter(m).as_deref()).body.as_deref().unwrap()).unwrap()
    };
    let b = body(Some(Modality::Table), 32);
    assert_eq!(b["filter"], json!("modality == \"table\" and low == false"));
    assert_eq!((b["limit"].as_u64(), b["outputFields"].clone()), (Some(32), json!(["doc", "statement", "years", "kinds"])));
    assert_eq!(body(Some(Modality::Text), 8)["filter"], json!("modality == \"text\""));
    assert!(body(None, 8).get("filter").is_none());
    assert_eq!(body(None, 100_000)["limit"].as_u64(), Some(MAX_TOPK as u64), "Milvus's top-k ceiling");
    assert_eq!(file_filter("ab", "Q\"3\".pdf"), "file_hash == \"ab\" or source == \"Q\\\"3\\\".pdf\"");
}

#[test]
fn server_errors_become_typed_errors_never_an_empty_result() {
    let api = RestV1::new(url(), None);
    // The bodies Milvus 2.3.5 sends.
    let missing = reply(r#"{"code":100,"message":"collection not found[database=default][collection=nope]"}"#);
    assert_eq!(api.data(&missing, "nope"), Err(StoreError::MissingCollection { collection: "nope".into() }));
    let auth = reply(r#"{"code":1800,"message":"user hasn't authenticated"}"#);
    assert!(matches!(api.data(&auth, "filings"), Err(StoreError::Auth { .. })));
    assert!(matches!(api.data(&Reply { status: 401, body: String::new() }, "filings"), Err(StoreError::Auth { .. })));
    let big = reply(r#"{"code":1100,"message":"the length (2000036) of dynamic field exceeds max length (65536)"}"#);
    assert_eq!(api.data(&big, "filings"), Err(StoreError::Server { code: 1100, message: "the length (2000036) of dynamic field exceeds max length (65536)".into() }));
    assert!(matches!(api.data(&Reply { status: 502, body: "<html>bad gateway".into() }, "filings"), Err(StoreError::Malformed(_))));
    assert_eq!(api.data(&reply(r#"{"code":200,"data":["filings"]}"#), "filings"), Ok(json!(["filings"])));
    // Each message says what to do.
    assert!(StoreError::MissingCollection { collection: "x".into() }.to_string().contains("clair ingest"));
    assert!(StoreError::Unreachable { url: "http://h:1".into(), reason: "refused".into() }.to_string().contains("scripts/milvus.sh serve"));
}

#[test]
fn describe_reply_gives_the_vector_size() {
    let d: Value = serde_json::from_str(
        r#"{"collectionName":"t1","enableDynamicField":true,"fields":[{"autoId":true,"name":"id","primaryKey":true,"type":"Int64"},{"autoId":false,"name":"vector","primaryKey":false,"type":"FloatVector(1024)"}]}"#,
    )
    .unwrap();
    assert_eq!(RestV1::parse_dims(&d), Ok(1024));
    assert!(RestV1::parse_dims(&json!({"fields": []})).is_err());
}

fn cited_table_row() -> Doc {
    let mut d = Doc::bare(&doc_id("acme.pdf", 37, Modality::Table, "t0r2"), "acme.pdf", 37, Modality::Table, "Net sales | 34,229 | 35,355");
    d.page_label = Some("35".into());
    d.section = Some("Item 8. Financial Statements".into());
    d.bboxes = vec![[72.0, 300.5, 540.0, 312.0]];
    d.table = Some(TableMeta {
        caption: "Consolidated Statement of Income".into(),
        columns: vec!["".into(), "2022".into(), "2021".into()],
        rows: vec![vec!["Net sales".into(), "34,229".into(), "35,355".into()]],
        row_label: Some("Net sales".into()),
        table_index: 0,
        parts: vec![TablePart { page: 37, bbox: [70.0, 100.0, 542.0, 700.0] }],
        notes: vec!["(a) Restated.".into()],
    });
    d
}

#[test]
fn a_hit_reads_back_every_field_a_citation_and_its_highlight_need() {
    let d = cited_table_row();
    let (row, cut) = doc_row(&d, &[0.0, 1.0], "abc", &PageFlag::default());
    assert!(!cut);
    let row: Value = serde_json::from_str(&row).unwrap();
    assert_eq!((row["modality"].as_str(), row["source"].as_str(), row["page"].as_u64()), (Some("table"), Some("acme.pdf"), Some(37)));
    // The server echoes the stored fields with the distance.
    let data = json!([{"distance": 0.25, "id": "4709", "doc": row["doc"]}]);
    let hits = RestV1::parse_hits(&data).unwrap();
    assert_eq!(hits, vec![(d, 0.25)]);
    assert!(RestV1::parse_hits(&json!([{"distance": 0.1, "doc": "{not json"}])).is_err());
}

#[test]
fn an_insert_carries_each_vector_in_the_shortest_digits_that_read_back_as_the_same_floats() {
    let api = RestV1::new(url(), None);
    let v = [0.1f32, 0.0, -0.0, 1.0 / 3.0, 1e-7, -0.25];
    let (row, _) = doc_row(&cited_table_row(), &v, "abc", &PageFlag::default());
    assert!(row.starts_with(r#"{"vector":[0.1,0,0,0.33333334,1e-7,-0.25],"#), "{row}");
    // What the server reads (as f64, stored as f32) is the vector the local index holds.
    let body: Value = serde_json::from_str(api.insert("filings", &[row.clone(), row]).body.as_deref().unwrap()).unwrap();
    assert_eq!(body["collectionName"], json!("filings"));
    let back: Vec<f32> = body["data"][1]["vector"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    assert_eq!(back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), v.iter().map(|x| if *x == 0.0 { 0 } else { x.to_bits() }).collect::<Vec<_>>());
    // A real offline vector, against the digits a `serde_json::Value` would print.
    let e = OfflineEmbedder::default();
    let (vs, _) = e.embed_documents_with_stats(&["Net sales rose 4% to $35.4 billion in 2022, led by Health Care".to_string()]);
    let compact = doc_row(&cited_table_row(), &vs[0], "abc", &PageFlag::default()).0.len();
    let through_value = json!({"vector": vs[0]}).to_string().len();
    assert!(compact < through_value, "{compact} bytes a row against {through_value} for the vector alone through a Value");
}

#[test]
fn a_document_too_big_for_a_row_loses_its_cell_grid_first_then_text() {
    let mut d = cited_table_row();
    let t = d.table.as_mut().unwrap();
    t.rows = (0..4000).map(|i| vec![format!("Line item {i}"), "1,234".into(), "5,678".into()]).collect();
    let (json, cut) = doc_json(&d);
    assert!(cut && serde_json::to_string(&json).unwrap().len() <= ROW_JSON_BUDGET);
    let back: Doc = serde_json::from_str(&json).unwrap();
    assert_eq!((back.text.as_str(), back.bboxes.clone()), (d.text.as_str(), d.bboxes.clone()), "text and boxes kept");
    assert!(back.table.as_ref().unwrap().rows.is_empty());
    assert_eq!(back.table.unwrap().parts, d.table.unwrap().parts);
    let mut long = Doc::bare("x-p1-text-c0", "x.pdf", 1, Modality::Text, &"é\"".repeat(50_000));
    long.bboxes = vec![[1.0, 2.0, 3.0, 4.0]];
    let (json, cut) = doc_json(&long);
    assert!(cut && serde_json::to_string(&json).unwrap().len() <= ROW_JSON_BUDGET);
    assert!(long.text.starts_with(&serde_json::from_str::<Doc>(&json).unwrap().text));
}

#[test]
fn manifest_splits_statistics_over_rows_and_an_interrupted_file_does_not_count() {
    let e = OfflineEmbedder::default();
    let texts: Vec<String> = (0..400).map(|i| format!("segment{i} revenue grew in region{i} with backlog{i} and margin{i}")).collect();
    let (_, stats) = e.embed_documents_with_stats(&texts);
    let counts = [("all".to_string(), 41), ("table".to_string(), 40)].into_iter().collect();
    // A statement page of 3,000 rows: its ids take rows of their own.
    let ids = (0..3000).map(|i| 470_950_385_177_067_566 + i).collect();
    let pages = vec![StatementPage { page: 37, kinds: 1, years: vec![2021, 2022], ids }, StatementPage { page: 38, kinds: 6, years: vec![], ids: vec![7] }];
    let f = FileEntry { hash: "h1".into(), source: "a.pdf".into(), embedder: e.name(), docs: 400, statement_rows: Some(counts), prior: PRIOR_VERSION, statement_pages: pages };
    let rows = manifest_rows(&f, &stats);
    assert!(rows.len() > 1, "large statistics take several rows");
    assert!(rows.iter().filter(|r| r.get("pages").is_some()).count() >= 2, "so do the ids of a large statement page");
    assert!(rows.iter().all(|r| serde_json::to_string(r).unwrap().len() <= ROW_JSON_BUDGET + 200));
    let other = FileEntry { hash: "h2".into(), source: "b.pdf".into(), embedder: e.name(), docs: 1, ..Default::default() };
    let mut all = manifest_rows(&other, &TermStats::default());
    all.extend(rows.iter().rev().cloned());
    let (files, merged) = read_manifest(&all).unwrap();
    // Each file's statement-page counts read back, and a file written without them (`other`,
    // as before rows carried flags) reads as `None`.
    assert_eq!(files, vec![f.clone(), other.clone()]);
    assert_eq!(files[1].statement_rows, None);
    assert_eq!(merged, stats);
    // One part missing: the file was interrupted, so it is not in the library.
    let (files, _) = read_manifest(&all[..all.len() - 1]).unwrap();
    assert_eq!(files, vec![other]);
}

/// A stand-in for the server: collections of rows, inserts, deletes and queries by the filters
/// this module writes, exact squared-L2 search. Replies are shaped as Milvus 2.3.5's.
#[derive(Default)]
struct FakeMilvus {
    collections: RefCell<HashMap<String, (usize, Vec<Value>)>>,
    down: bool,
    /// The next this-many filtered searches answer nothing, as the 10⁵-chunk run once saw.
    empty_filtered: std::cell::Cell<usize>,
    /// The next this-many unfiltered searches answer one row, as Milvus 2.3's interim index on a
    /// growing segment answered a fraction of the rows (docs/scale.md).
    thin_unfiltered: std::cell::Cell<usize>,
    /// Pool searches (those asking for documents).
    searches: std::cell::Cell<usize>,
    /// Statement-page searches (`statement == true`, no documents).
    statement_searches: std::cell::Cell<usize>,
    /// The next this-many statement-page searches answer one row.
    thin_statement: std::cell::Cell<usize>,
    /// Queries of the document collection (counts of a pool's filter).
    chunk_queries: std::cell::Cell<usize>,
    /// The last auto id given (Milvus's are ≈ 4.7 × 10¹⁷).
    last_id: std::cell::Cell<i64>,
}

fn matches(row: &Value, filter: &str) -> bool {
    if let Some(n) = filter.strip_prefix("id > ") {
        return row_id(row).unwrap() > n.parse::<i64>().unwrap();
    }
    if let Some(list) = filter.strip_prefix("id in [").and_then(|l| l.strip_suffix(']')) {
        let id = row_id(row).unwrap();
        return list.split(',').any(|x| x.trim().parse::<i64>() == Ok(id));
    }
    filter.split(" or ").any(|alt| {
        alt.split(" and ").all(|cond| {
            let (k, v) = cond.split_once(" == ").or_else(|| cond.split_once(" >= ")).unwrap();
            if cond.contains(">=") {
                return true;
            }
            let want: Value = serde_json::from_str(v).unwrap();
            row.get(k) == Some(&want)
        })
    })
}

impl StoreTransport for FakeMilvus {
    async fn send(&self, req: Request) -> Result<Reply, String> {
        if self.down {
            return Err("connection refused".into());
        }
        let path = req.url.split("/v1/vector").nth(1).unwrap().to_string();
        let body: Value = req.body.as_deref().map(|b| serde_json::from_str(b).unwrap()).unwrap_or(Value::Null);
        let mut cs = self.collections.borrow_mut();
        let name = body["collectionName"].as_str().map(str::to_string).unwrap_or_else(|| path.split('=').nth(1).unwrap_or("").to_string());
        let ok = |data: Value| Ok(reply(&json!({"code": 200, "data": data}).to_string()));
        if path == "/collections/create" {
            cs.insert(name, (body["dimension"].as_u64().unwrap() as usize, vec![]));
            return ok(json!({}));
        }
        let Some((dims, rows)) = cs.get_mut(&name) else {
            return Ok(reply(&format!(r#"{{"code":100,"message":"collection not found[database=default][collection={name}]"}}"#)));
        };
        match path.split('?').next().unwrap() {
            "/collections/describe" => ok(json!({"collectionName": name, "fields": [{"name": "id", "type": "Int64"}, {"name": "vector", "type": format!("FloatVector({dims})")}]})),
            "/insert" => {
                let mut ids = vec![];
                for r in body["data"].as_array().unwrap() {
                    // Auto ids, increasing, read back as strings (REST v1 writes Int64 so).
                    let id = self.last_id.get().max(470_950_385_177_067_566) + 1;
                    self.last_id.set(id);
                    let mut r = r.clone();
                    r["id"] = json!(id.to_string());
                    ids.push(id.to_string());
                    rows.push(r);
                }
                ok(json!({"insertCount": ids.len(), "insertIds": ids}))
            }
            "/delete" => {
                let f = body["filter"].as_str().unwrap();
                rows.retain(|r| !matches(r, f));
                ok(json!({}))
            }
            "/query" => {
                let f = body["filter"].as_str().unwrap();
                if body["collectionName"].as_str().is_some_and(|c| !c.ends_with("_files")) {
                    self.chunk_queries.set(self.chunk_queries.get() + 1);
                }
                let off = body["offset"].as_u64().unwrap() as usize;
                let lim = body["limit"].as_u64().unwrap() as usize;
                if off + lim > MAX_TOPK {
                    let m = format!("invalid max query result window, (offset+limit) should be in range [1, 16384], but got {}", off + lim);
                    return Ok(reply(&json!({"code": 65535, "message": m}).to_string()));
                }
                // In primary-key order, as Milvus 2.3 answers a limited query.
                ok(Value::Array(rows.iter().filter(|r| matches(r, f)).skip(off).take(lim).cloned().collect()))
            }
            "/search" => {
                let q: Vec<f32> = serde_json::from_value(body["vector"].clone()).unwrap();
                if q.len() != *dims {
                    return ok(json!([])); // what 2.3.5 does with a vector of the wrong size
                }
                let f = body["filter"].as_str();
                let fields: Vec<String> = serde_json::from_value(body["outputFields"].clone()).unwrap();
                let statement = f.is_some_and(|f| f.starts_with("statement == true"));
                if statement {
                    self.statement_searches.set(self.statement_searches.get() + 1);
                } else {
                    self.searches.set(self.searches.get() + 1);
                }
                if f.is_some() && !statement && self.empty_filtered.get() > 0 {
                    self.empty_filtered.set(self.empty_filtered.get() - 1);
                    return ok(json!([]));
                }
                let mut hits: Vec<(f32, &Value)> = rows
                    .iter()
                    .filter(|r| f.is_none_or(|f| matches(r, f)))
                    .map(|r| {
                        let v: Vec<f32> = serde_json::from_value(r["vector"].clone()).unwrap();
                        (crate::retrieve::index::sq_l2(&q, &v), r)
                    })
                    .collect();
                hits.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
                let mut lim = body["limit"].as_u64().unwrap() as usize;
                if f.is_none() && self.thin_unfiltered.get() > 0 {
                    self.thin_unfiltered.set(self.thin_unfiltered.get() - 1);
                    lim = 1;
                }
                if statement && self.thin_statement.get() > 0 {
                    self.thin_statement.set(self.thin_statement.get() - 1);
                    lim = 1;
                }
                // The id, the distance and the fields asked for that the row holds.
                let hit = |d: f32, r: &Value| {
                    let mut h = json!({"distance": d, "id": r["id"]});
                    for k in &fields {
                        if let Some(v) = r.get(k) {
                            h[k] = v.clone();
                        }
                    }
                    h
                };
                ok(Value::Array(hits.into_iter().take(lim).map(|(d, r)| hit(d, r)).collect()))
            }
            other => panic!("unexpected path {other}"),
        }
    }
}

fn filing() -> Vec<Doc> {
    use Modality::*;
    let d = |page, m, n: &str, text: &str| Doc::bare(&doc_id("acme.pdf", page, m, n), "acme.pdf", page, m, text);
    vec![
        d(3, Text, "0", "Item 1. Business. Acme designs and sells industrial adhesives to customers in 70 countries."),
        d(12, Text, "0", "Risk factors. Our results depend on raw material prices, foreign exchange and the cyclicality of end markets."),
        d(40, Text, "0", "CONSOLIDATED STATEMENTS OF CASH FLOWS\nPurchases of property, plant and equipment (1,749) (1,603)"),
        d(38, Text, "0", "CONSOLIDATED BALANCE SHEETS\nTotal current assets 14,688\nTotal current liabilities 9,523"),
        d(37, Text, "0", "CONSOLIDATED STATEMENT OF INCOME\nNet sales 34,229 35,355\nCost of sales 19,232"),
        d(37, Table, "t0", "Net sales | 34,229 | 35,355\nCost of sales | 19,232 | 18,795"),
    ]
}

/// The same documents as a browser's local corpus of one file (`source`'s statistics set when named).
fn local_corpus(e: &OfflineEmbedder, docs: Vec<Doc>, source: &str) -> Corpus {
    let mut c = Corpus::new(e.name(), e.dims());
    let (v, st) = e.embed_documents_with_stats(&embedding_inputs(&docs));
    c.add(docs, v).unwrap();
    if !source.is_empty() {
        c.set_source_stats(source, st);
    }
    c
}

async fn store_filing(m: &MilvusStore<'_, FakeMilvus>, e: &OfflineEmbedder, docs: &[Doc]) {
    let (vectors, stats) = e.embed_documents_with_stats(&embedding_inputs(docs));
    m.ensure_collections(e.dims()).await.unwrap();
    let f = FileEntry { hash: "h-acme".into(), source: "acme.pdf".into(), embedder: e.name(), docs: docs.len(), ..Default::default() };
    m.put_file(&f, docs, &vectors, &stats).await.unwrap();
}

/// The sample filing stored in `fake`, opened as a library search.
async fn acme_library<'t>(fake: &'t FakeMilvus, e: &'t OfflineEmbedder, s: &'t RetrievalSettings) -> MilvusSearch<'t, FakeMilvus> {
    store_filing(&MilvusStore::new(fake, url(), None), e, &filing()).await;
    MilvusStore::new(fake, url(), None).open_search(e, s).await.unwrap()
}

/// The library's hits are the local corpus's: the local index keeps f16-rounded vectors and the
/// server f32 ones, so scores agree to 1e-4, and each rank holds the local document or one the
/// local corpus scores within 1e-4 of it (a tie the rounding may break either way, on another
/// page or, under the per-page cap, on the same one).
fn assert_same_ranking(q: &str, got: &[Hit], want: &[Hit], local: &LocalSearch<'_>, m: Option<Modality>) {
    assert_eq!(got.len(), want.len(), "{q}");
    let uncapped = RetrievalSettings { max_hits_per_page: 0, ..local.settings.clone() };
    let every = LocalSearch { corpus: local.corpus, embedder: local.embedder, settings: &uncapped }.search_now(q, local.corpus.len(), m).unwrap();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g.score - w.score).abs() < 1e-4, "{q}: rank {i}: {} vs {}", g.score, w.score);
        let local_score = every.iter().find(|h| h.doc.id == g.doc.id).map(|h| h.score);
        assert!(g.doc.id == w.doc.id || local_score.is_some_and(|l| (l - w.score).abs() < 1e-4), "{q}: rank {i}: {} vs {} ({local_score:?})", g.doc.id, w.doc.id);
    }
}

#[test]
fn a_library_on_the_server_answers_exactly_as_the_same_files_searched_locally() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        // The default settings, the structural prior on: the rows carry their page's flag.
        let s = RetrievalSettings::default();
        assert!(s.statement_prior > 0.0);
        let remote = acme_library(&fake, &e, &s).await;
        assert_eq!(remote.files.len(), 1);

        let c = local_corpus(&e, filing(), "acme.pdf");
        let local = LocalSearch { corpus: &c, embedder: &e, settings: &s };
        for (q, m) in [("What was the FY2022 capex?", None), ("net sales 2022", Some(Modality::Table)), ("working capital", Some(Modality::Text))] {
            let want = local.search_now(q, 3, m).unwrap();
            let got = remote.search(q, 3, m).await.unwrap();
            assert_same_ranking(q, &got, &want, &local, m);
        }
        assert_eq!(remote.search("What was the FY2022 capex?", 1, None).await.unwrap()[0].doc.page, 40);
    });
}

#[test]
fn removing_a_file_takes_its_documents_and_manifest_and_an_unknown_collection_is_an_error() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let m = MilvusStore::new(&fake, url(), None);
        store_filing(&m, &e, &filing()).await;
        m.remove_file("h-acme", "acme.pdf").await.unwrap();
        assert!(m.files().await.unwrap().is_empty());
        let remote = MilvusStore::new(&fake, url(), None).open_search(&e, &s).await.unwrap();
        assert!(remote.search("capex", 3, None).await.unwrap().is_empty());

        let other = StoreUrl::parse("milvus://127.0.0.1:19530/nobody").unwrap();
        let err = MilvusStore::new(&fake, other, None).open_search(&e, &s).await.err().unwrap();
        assert_eq!(err, StoreError::MissingCollection { collection: "nobody".into() });
    });
}

#[test]
fn a_collection_of_another_vector_size_or_a_down_server_is_a_clear_error() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let s = RetrievalSettings::default();
        let small = OfflineEmbedder::new(256);
        store_filing(&MilvusStore::new(&fake, url(), None), &small, &filing()).await;
        let e = OfflineEmbedder::default();
        let err = MilvusStore::new(&fake, url(), None).open_search(&e, &s).await.err().unwrap();
        assert_eq!(err, StoreError::DimensionMismatch { collection: "filings".into(), stored: 256, query: 1024 });
        let err = MilvusStore::new(&fake, url(), None).ensure_collections(1024).await.err().unwrap();
        assert!(matches!(err, StoreError::DimensionMismatch { stored: 256, .. }));

        let down = FakeMilvus { down: true, ..Default::default() };
        let err = MilvusStore::new(&down, url(), None).open_search(&e, &s).await.err().unwrap();
        assert!(matches!(err, StoreError::Unreachable { .. }), "{err}");
    });
}

#[test]
fn equal_distances_from_the_server_come_in_the_local_corpus_order() {
    let doc = |page: u32, c: u32| {
        crate::corpus::Doc::bare(&format!("f-p{page}-text-c{c}"), "f.pdf", page, Modality::Text, "the same words")
    };
    let mut pool = vec![(doc(14, 1), 0.5), (doc(13, 10), 0.5), (doc(2, 0), 0.7), (doc(13, 2), 0.5), (doc(9, 0), 0.1)];
    in_corpus_order(&mut pool);
    let ids: Vec<&str> = pool.iter().map(|(d, _)| d.id.as_str()).collect();
    assert_eq!(ids, ["f-p9-text-c0", "f-p13-text-c2", "f-p13-text-c10", "f-p14-text-c1", "f-p2-text-c0"]);
}

fn other_filing() -> Vec<Doc> {
    let d = |page, n: &str, text: &str| Doc::bare(&doc_id("beta.pdf", page, Modality::Text, n), "beta.pdf", page, Modality::Text, text);
    vec![
        d(5, "0", "Beta Corp capital expenditures were 2,100 in fiscal 2022, up from 1,900."),
        d(9, "0", "Beta Corp net sales grew 4% on higher volumes in Europe."),
    ]
}

#[test]
fn library_and_browser_files_search_as_one_and_a_file_in_both_counts_once() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let remote = acme_library(&fake, &e, &s).await;

        // A file dropped in the browser beside the library.
        let c = local_corpus(&e, other_filing(), "beta.pdf");
        let local = LocalSearch { corpus: &c, embedder: &e, settings: &s };
        let both = WithLibrary { local: Some(&local), library: &remote, local_sources: vec!["beta.pdf".into()], settings: &s };
        let hits = both.search("capital expenditures capex fiscal 2022", 6, None).await.unwrap();
        let sources: std::collections::BTreeSet<&str> = hits.iter().map(|h| h.doc.source.as_str()).collect();
        assert_eq!(sources, ["acme.pdf", "beta.pdf"].into_iter().collect(), "both sides answer");
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score), "one ranking, best first");
        assert!(hits.len() <= 6);

        // The library's file also added in the browser: its hits come once, from the browser.
        let c2 = local_corpus(&e, filing(), "acme.pdf");
        let local2 = LocalSearch { corpus: &c2, embedder: &e, settings: &s };
        let both = WithLibrary { local: Some(&local2), library: &remote, local_sources: vec!["acme.pdf".into()], settings: &s };
        let hits = both.search("net sales 2022", 6, None).await.unwrap();
        let mut ids: Vec<&str> = hits.iter().map(|h| h.doc.id.as_str()).collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n, "no document twice");
        assert!(n > 0);

        // No browser files: the library alone.
        let only = WithLibrary::<LocalSearch, _> { local: None, library: &remote, local_sources: vec![], settings: &s };
        assert_eq!(only.search("net sales 2022", 3, None).await.unwrap(), remote.search("net sales 2022", 3, None).await.unwrap());
    });
}

#[test]
fn a_library_that_fails_fails_the_blended_search_instead_of_answering_from_the_browser_alone() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let mut remote = acme_library(&fake, &e, &s).await;
        // The collection disappears after the library was opened.
        fake.collections.borrow_mut().remove("filings");
        remote.files.clear();
        let c = local_corpus(&e, other_filing(), "");
        let local = LocalSearch { corpus: &c, embedder: &e, settings: &s };
        let both = WithLibrary { local: Some(&local), library: &remote, local_sources: vec!["beta.pdf".into()], settings: &s };
        let err = both.search("capex", 3, None).await.unwrap_err();
        assert!(err.contains("has no collection `filings`"), "{err}");
    });
}

#[test]
fn a_filtered_search_answered_empty_while_rows_match_is_asked_again_and_never_returned_empty() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let remote = acme_library(&fake, &e, &s).await;
        let want = remote.search("net sales 2022", 3, Some(Modality::Table)).await.unwrap();
        assert!(!want.is_empty());

        // Once: the search is asked again and answers as usual.
        fake.empty_filtered.set(1);
        fake.searches.set(0);
        assert_eq!(remote.search("net sales 2022", 3, Some(Modality::Table)).await.unwrap(), want);
        assert_eq!(fake.searches.get(), 2, "asked twice");

        // Twice: an error naming the filter, not an empty pool.
        fake.empty_filtered.set(2);
        let err = remote.search("net sales 2022", 3, Some(Modality::Table)).await.unwrap_err();
        assert!(err.contains("modality == \"table\" and low == false") && err.contains("with 0 rows although at least 1 match"), "{err}");

        // A short answer that holds every matching row is the answer: one search, no retry.
        fake.searches.set(0);
        let text = remote.search("net sales", 8, Some(Modality::Text)).await.unwrap();
        assert_eq!((text.len(), fake.searches.get()), (5, 1), "five text documents, one per page");
    });
}

/// Real filings, read and embedded as the CLI does.
#[cfg(feature = "pdf")]
fn read_filing(name: &str) -> (Vec<Doc>, Vec<Vec<f32>>, TermStats) {
    let s = crate::config::Settings::paper();
    let path = format!("{}/../../shared/corpus/financebench/pdfs/{name}", env!("CARGO_MANIFEST_DIR"));
    let ex = crate::ingest::extract_on_threads(std::fs::read(path).unwrap(), name, &s.ingest, 1);
    let docs = crate::ingest::documents(&ex, &s.ingest);
    let (v, st) = OfflineEmbedder::default().embed_documents_with_stats(&embedding_inputs(&docs));
    (docs, v, st)
}

#[cfg(feature = "pdf")]
fn corpus_of(files: &[&(Vec<Doc>, Vec<Vec<f32>>, TermStats)]) -> Corpus {
    let e = OfflineEmbedder::default();
    let mut c = Corpus::new(e.name(), e.dims());
    for (d, v, st) in files {
        c.add(d.clone(), v.clone()).unwrap();
        c.set_source_stats(&d[0].source, st.clone());
    }
    c
}

/// The browser's worker state (`Library`) as the app's local search: the same messages the app
/// sends it (`ToWorker::Search`), answered as the worker answers them.
#[cfg(feature = "pdf")]
struct Worker(RefCell<crate::library::Library>);

#[cfg(feature = "pdf")]
impl Search for Worker {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        let mut out = vec![];
        // The app's settings, as it sends them.
        let settings = RetrievalSettings::default();
        let msg = crate::protocol::ToWorker::Search { id: 1, query: query.into(), k, modality, settings, exact: true, dense: None };
        self.0.borrow_mut().handle(msg, None, &|| 0.0, &mut |m| out.push(m));
        match out.pop() {
            Some(crate::protocol::FromWorker::Hits { hits, .. }) => Ok(hits),
            other => Err(format!("{other:?}")),
        }
    }
    async fn search_hyde(&self, query: &str, _passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search(query, k, modality).await
    }
}

/// docs/scale.md, "Library and browser statistics": a library on a server (two filings) and the
/// browser's own files (two more) weight every query with ONE set of statistics — the library's
/// merged with the browser's files it does not hold (`ToWorker::LibraryStats`, whose answer the
/// app gives the library's search) — so each file ranks as it would in one corpus of all four,
/// but for the split pool (each side's 32 nearest instead of the 32 nearest overall). Measured on
/// FinanceBench's questions with `--nocapture` against one corpus of the four, the default
/// settings (structural prior and its matched lift on) everywhere: the first page agrees for 59 of
/// 65 questions (58 when each side weighted with its own statistics).
#[test]
#[cfg(feature = "pdf")]
fn library_and_browser_with_one_idf_cite_the_first_page_one_corpus_of_all_files_would() {
    let lib_a = read_filing("AMCOR_2023Q2_10Q.pdf");
    let lib_b = read_filing("BESTBUY_2024Q2_10Q.pdf");
    let web_a = read_filing("AMCOR_2023Q4_EARNINGS.pdf");
    let web_b = read_filing("AMCOR_2022_8K_dated-2022-07-01.pdf");
    let e = OfflineEmbedder::default();
    // The default settings on every side, the structural prior and its matched lift on (the
    // worker's searches below take `RetrievalSettings::default()` as the app sends them).
    let s = RetrievalSettings::default();
    futures::executor::block_on(async {
        // The library on a (stand-in) server, opened as the app opens it.
        let fake = FakeMilvus::default();
        let store = MilvusStore::new(&fake, url(), None);
        store.ensure_collections(e.dims()).await.unwrap();
        for (i, (docs, vectors, stats)) in [&lib_a, &lib_b].into_iter().enumerate() {
            let f = FileEntry { hash: format!("h{i}"), source: docs[0].source.clone(), embedder: e.name(), docs: docs.len(), ..Default::default() };
            store.put_file(&f, docs, vectors, stats).await.unwrap();
        }
        let mut remote = MilvusStore::new(&fake, url(), None).open_search(&e, &s).await.unwrap();
        let own_idf = remote.stats.clone();
        // The browser's files in the worker, which merges the library's statistics with its own.
        let mut worker = crate::library::Library::new();
        worker.corpus = corpus_of(&[&web_a, &web_b]);
        let library = crate::protocol::LibraryStats { stats: remote.stats.clone(), sources: remote.files.iter().map(|f| f.source.clone()).collect() };
        let mut out = vec![];
        worker.handle(crate::protocol::ToWorker::LibraryStats { id: 7, library: Some(library) }, None, &|| 0.0, &mut |m| out.push(m));
        let Some(crate::protocol::FromWorker::QueryStats { id: 7, stats: Some(merged) }) = out.pop() else { panic!("no merged statistics") };
        let all = corpus_of(&[&lib_a, &lib_b, &web_a, &web_b]);
        assert_eq!(merged.docs, all.term_stats(&e).docs, "one set: every file counted once");
        assert_eq!(merged.df, all.term_stats(&e).df);
        remote.stats = merged;
        let browser = Worker(RefCell::new(worker));

        let sources = vec![web_a.0[0].source.clone(), web_b.0[0].source.clone()];
        let both = WithLibrary { local: Some(&browser), library: &remote, local_sources: sources.clone(), settings: &s };
        // Before: each side weighted the query with its own files' statistics.
        let (lib_alone, web_alone) = (corpus_of(&[&lib_a, &lib_b]), corpus_of(&[&web_a, &web_b]));
        let (lib_alone, web_alone) =
            (LocalSearch { corpus: &lib_alone, embedder: &e, settings: &s }, LocalSearch { corpus: &web_alone, embedder: &e, settings: &s });
        assert_eq!(&own_idf, lib_alone.corpus.term_stats(&e));
        let separate = WithLibrary { local: Some(&web_alone), library: &lib_alone, local_sources: sources, settings: &s };
        let all = LocalSearch { corpus: &all, embedder: &e, settings: &s };

        let qs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/questions.jsonl")).unwrap();
        let qs: Vec<String> = qs.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()?["question"].as_str().map(str::to_string)).collect();
        let k = s.k_narrative;
        let pages = |h: &[Hit]| h.iter().map(|h| (h.doc.source.clone(), h.doc.page)).collect::<Vec<_>>();
        let set = |v: &[(String, u32)]| v.iter().cloned().collect::<std::collections::BTreeSet<_>>();
        let mut same = [[0usize; 3]; 2];
        for q in &qs {
            let one = pages(&all.search_now(q, k, None).unwrap());
            for (i, two) in [pages(&separate.search(q, k, None).await.unwrap()), pages(&both.search(q, k, None).await.unwrap())].into_iter().enumerate() {
                same[i][0] += (one == two) as usize;
                same[i][1] += (set(&one) == set(&two)) as usize;
                same[i][2] += (one.first() == two.first()) as usize;
            }
        }
        for (label, [list, pages, top]) in [("each side its own IDF", same[0]), ("one IDF on both sides (the app)", same[1])] {
            eprintln!("{label}: {} questions, k {k}: same pages in the same order {list}, same pages {pages}, same first page {top}", qs.len());
        }
        assert_eq!(qs.len(), 65);
        assert!(same[1][2] >= 55, "the app's blended search agrees with one corpus's first page for {} of 65 questions", same[1][2]);
        assert!(same[1][2] > same[0][2] && same[1][1] > same[0][1], "one set of statistics agrees more often than two: {same:?}");
    });
}

#[test]
fn an_unfiltered_search_answered_short_while_rows_exist_is_asked_again_and_never_returned_thin() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let remote = acme_library(&fake, &e, &s).await;
        // k 3 asks for a pool of 12: the library's 6 documents are all of it, one search, and no
        // count (the manifest lists the 6).
        fake.searches.set(0);
        fake.chunk_queries.set(0);
        let want = remote.search("capital expenditure", 3, None).await.unwrap();
        assert_eq!((want.len(), fake.searches.get(), fake.chunk_queries.get()), (3, 1, 0));

        // Once thinned: asked again, the same answer.
        fake.thin_unfiltered.set(1);
        fake.searches.set(0);
        assert_eq!(remote.search("capital expenditure", 3, None).await.unwrap(), want);
        assert_eq!(fake.searches.get(), 2, "asked twice");

        // Twice: an error saying how many rows the collection holds, not a one-row pool.
        fake.thin_unfiltered.set(2);
        let err = remote.search("capital expenditure", 3, None).await.unwrap_err();
        assert!(err.contains("unfiltered search with 1 rows although the collection holds at least 6"), "{err}");
        assert!(err.contains("interimIndex.enableIndex=false"), "the message names the server setting: {err}");
    });
}

#[test]
fn a_library_of_more_manifest_rows_than_one_query_answers_opens_whole() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let store = MilvusStore::new(&fake, url(), None);
        store_filing(&store, &e, &filing()).await;
        // 16,500 files of one manifest row each, more than Milvus answers in one query (16,384
        // counting the offset), written in a few inserts.
        let extra = 16_500;
        let rows: Vec<String> = (0..extra)
            .flat_map(|i| {
                let f = FileEntry { hash: format!("h{i:05}"), source: format!("f{i:05}.pdf"), embedder: e.name(), docs: 0, statement_rows: Some(Default::default()), prior: PRIOR_VERSION, ..Default::default() };
                manifest_rows(&f, &TermStats::default())
            })
            .map(|r| r.to_string())
            .collect();
        for batch in rows.chunks(4096) {
            store.call(store.api.insert(&store.api.manifest(), batch), "filings_files").await.unwrap();
        }
        let files = store.files().await.unwrap();
        assert_eq!(files.len(), extra + 1, "every file is read");
        assert!(files.iter().any(|f| f.source == "acme.pdf") && files.iter().any(|f| f.source == "f16499.pdf"));

        let lib = MilvusStore::new(&fake, url(), None).open_search(&e, &s).await.unwrap();
        let (_, acme_stats) = e.embed_documents_with_stats(&embedding_inputs(&filing()));
        assert_eq!((lib.files.len(), lib.stats.docs), (extra + 1, acme_stats.docs));
        assert!(!lib.search("net sales", 3, None).await.unwrap().is_empty());
    });
}

/// The sample filing's rows as a library written before rows carried statement-page flags:
/// no `statement`/`years` on the documents, no `statement_rows` in the manifest.
fn strip_statement_flags(fake: &FakeMilvus) {
    for (_, rows) in fake.collections.borrow_mut().values_mut() {
        for r in rows.iter_mut().filter_map(Value::as_object_mut) {
            for k in ["statement", "kinds", "years", "statement_rows", "prior", "pages"] {
                r.remove(k);
            }
        }
    }
}

#[test]
fn ingest_flags_every_row_of_a_statement_page_and_counts_them_per_pool_filter() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        store_filing(&MilvusStore::new(&fake, url(), None), &e, &filing()).await;
        let cs = fake.collections.borrow();
        let flagged: Vec<(u64, &str)> = cs["filings"].1.iter().filter(|r| r["statement"] == json!(true)).map(|r| (r["page"].as_u64().unwrap(), r["modality"].as_str().unwrap())).collect();
        // Page 37 prints the income statement's title and a table; 38 and 40 carry titles but no
        // table, so they print no statement (`prior.rs`).
        assert_eq!(flagged, [(37, "text"), (37, "table")]);
        assert!(cs["filings"].1.iter().all(|r| r.get("statement").is_some()), "every row says whether its page is a statement page");
        drop(cs);
        // A page naming its fiscal years carries them (`statement_prior_needs_year`), in the row too.
        let d = |m, n: &str, text: &str| Doc::bare(&doc_id("z.pdf", 5, m, n), "z.pdf", 5, m, text);
        let page = [d(Modality::Table, "t0", "Revenue | 10 | 9"), d(Modality::Text, "0", "CONSOLIDATED STATEMENTS OF OPERATIONS Years ended December 31, 2022 and 2021")];
        let flags = page_flags(&page);
        assert!(flags.iter().all(|f| f.statement && f.kinds == crate::retrieve::prior::INCOME_STATEMENT && f.years == [2021, 2022].into_iter().collect()), "{flags:?}");
        let row: Value = serde_json::from_str(&doc_row(&page[0], &[0.0], "h", &flags[0]).0).unwrap();
        assert_eq!((row["statement"].clone(), row["kinds"].clone(), row["years"].clone()), (json!(true), json!(crate::retrieve::prior::INCOME_STATEMENT), json!([2021, 2022])));
        let cs = fake.collections.borrow();
        let (files, _) = read_manifest(&cs["filings_files"].1).unwrap();
        let want: std::collections::BTreeMap<String, usize> = [("all".into(), 2), ("table".into(), 1), ("text".into(), 1)].into_iter().collect();
        assert_eq!(files[0].statement_rows, Some(want));
        // The manifest keeps the flagged rows' ids by page, so the statement-page search answers ids alone.
        let ids: Vec<i64> = cs["filings"].1.iter().filter(|r| r["statement"] == json!(true)).map(|r| row_id(r).unwrap()).collect();
        assert_eq!(files[0].statement_pages, [StatementPage { page: 37, kinds: crate::retrieve::prior::INCOME_STATEMENT, years: vec![], ids }]);
        assert!(files[0].flagged(), "written for this version of the prior ({PRIOR_VERSION})");
    });
}

#[test]
fn a_flagged_hit_is_lifted_by_exactly_the_statement_prior() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let on = RetrievalSettings { max_hits_per_page: 0, statement_prior_matched: 0.0, ..RetrievalSettings::default() };
        let off = RetrievalSettings { statement_prior: 0.0, ..on.clone() };
        store_filing(&MilvusStore::new(&fake, url(), None), &e, &filing()).await;
        let with = MilvusStore::new(&fake, url(), None).open_search(&e, &on).await.unwrap();
        let without = MilvusStore::new(&fake, url(), None).open_search(&e, &off).await.unwrap();
        let q = "net sales and cost of sales in 2022";
        let (a, b) = (with.search(q, 6, None).await.unwrap(), without.search(q, 6, None).await.unwrap());
        assert_eq!(a.len(), 6);
        for h in &a {
            let other = b.iter().find(|x| x.doc.id == h.doc.id).expect("the same six documents");
            let lift = if h.doc.page == 37 { on.statement_prior } else { 0.0 };
            assert!((h.score - other.score - lift).abs() < 1e-12, "{}: {} against {} without the prior", h.doc.id, h.score, other.score);
        }
    });
}

#[test]
fn a_flagged_hit_of_the_statement_the_question_asks_about_gets_the_matched_lift_too() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let on = RetrievalSettings { max_hits_per_page: 0, ..RetrievalSettings::default() };
        let off = RetrievalSettings { statement_prior: 0.0, ..on.clone() };
        store_filing(&MilvusStore::new(&fake, url(), None), &e, &filing()).await;
        // Page 37 prints the income statement: a question about its line items gets both lifts,
        // one about the balance sheet's the plain prior only (`prior.rs`, `question_kinds`).
        let income = "net sales and cost of sales in 2022";
        let balance = "total assets and total liabilities at year end 2022";
        assert!(crate::retrieve::prior::question_kinds(income) != 0, "the income statement's line items name it");
        let with = MilvusStore::new(&fake, url(), None).open_search(&e, &on).await.unwrap();
        let without = MilvusStore::new(&fake, url(), None).open_search(&e, &off).await.unwrap();
        for (q, matched) in [(income, on.statement_prior_matched), (balance, 0.0)] {
            let (a, b) = (with.search(q, 6, None).await.unwrap(), without.search(q, 6, None).await.unwrap());
            let p37 = a.iter().find(|h| h.doc.page == 37).expect("the statement page among the six");
            let other = b.iter().find(|x| x.doc.id == p37.doc.id).expect("and without the prior");
            assert!((p37.score - other.score - on.statement_prior - matched).abs() < 1e-12, "{q}: {} against {}", p37.score, other.score);
            // As the local corpus ranks it.
            let c = local_corpus(&e, filing(), "acme.pdf");
            let local = LocalSearch { corpus: &c, embedder: &e, settings: &on };
            assert_same_ranking(q, &a, &local.search_now(q, 6, None).unwrap(), &local, None);
        }
    });
}

#[test]
fn a_library_flagged_before_statement_kinds_were_recorded_is_refused_with_the_prior_on() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        store_filing(&MilvusStore::new(&fake, url(), None), &e, &filing()).await;
        // What `put_file` wrote before `PRIOR_VERSION` 2: statement flags, no kinds, no version.
        for (_, rows) in fake.collections.borrow_mut().values_mut() {
            for r in rows.iter_mut().filter_map(Value::as_object_mut) {
                r.remove("kinds");
                r.remove("prior");
            }
        }
        let files = MilvusStore::new(&fake, url(), None).files().await.unwrap();
        assert!(files.iter().all(|f| f.statement_rows.is_some() && !f.flagged()));
        let err = MilvusStore::new(&fake, url(), None).open_search(&e, &RetrievalSettings::default()).await.err().unwrap();
        assert_eq!(err, StoreError::NoStatementFlags { collection: "filings".into(), files: vec!["acme.pdf".into()] });
    });
}

#[test]
fn a_statement_page_outside_the_dense_pool_joins_it_as_in_a_local_corpus() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        // A pool of k (pool factor 1) and a prior strong enough to show the joined page in the top k.
        let s = RetrievalSettings { pool_factor: 1, statement_prior: 0.5, max_hits_per_page: 0, ..RetrievalSettings::default() };
        let off = RetrievalSettings { statement_prior: 0.0, ..s.clone() };
        store_filing(&MilvusStore::new(&fake, url(), None), &e, &filing()).await;
        let remote = MilvusStore::new(&fake, url(), None).open_search(&e, &s).await.unwrap();
        let q = "risk factors raw material prices foreign exchange business";
        let plain = MilvusStore::new(&fake, url(), None).open_search(&e, &off).await.unwrap().search(q, 2, None).await.unwrap();
        assert!(plain.iter().all(|h| h.doc.page != 37), "the statement page is outside the dense pool of 2: {plain:?}");

        fake.statement_searches.set(0);
        fake.chunk_queries.set(0);
        let got = remote.search(q, 2, None).await.unwrap();
        assert_eq!(got.iter().filter(|h| h.doc.page == 37).count(), 1, "the statement page's nearest row joined: {got:?}");
        assert_eq!((fake.statement_searches.get(), fake.chunk_queries.get()), (1, 1), "one statement search, one read of the joined row");
        let c = local_corpus(&e, filing(), "acme.pdf");
        let want = LocalSearch { corpus: &c, embedder: &e, settings: &s }.search_now(q, 2, None).unwrap();
        let ids = |h: &[Hit]| h.iter().map(|h| h.doc.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&got), ids(&want));
        assert!(got.iter().zip(&want).all(|(g, w)| (g.score - w.score).abs() < 1e-4));
        // Tables only: the statement page's table row joins a table pool the same way.
        let t = remote.search(q, 1, Some(Modality::Table)).await.unwrap();
        assert_eq!(ids(&t), ids(&LocalSearch { corpus: &c, embedder: &e, settings: &s }.search_now(q, 1, Some(Modality::Table)).unwrap()));
    });
}

#[test]
fn a_statement_search_answered_short_is_asked_again_and_never_drops_pages_silently() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        let s = RetrievalSettings::default();
        let remote = acme_library(&fake, &e, &s).await;
        let q = "What was the FY2022 capex?";
        let want = remote.search(q, 3, None).await.unwrap();
        fake.thin_statement.set(1);
        fake.statement_searches.set(0);
        assert_eq!(remote.search(q, 3, None).await.unwrap(), want);
        assert_eq!(fake.statement_searches.get(), 2, "asked twice");
        fake.thin_statement.set(2);
        let err = remote.search(q, 3, None).await.unwrap_err();
        assert!(err.contains("filtered by `statement == true` with 1 rows although at least 2 match"), "{err}");
    });
}

#[test]
fn a_library_written_before_statement_flags_is_refused_with_the_prior_on_and_searched_with_it_off() {
    futures::executor::block_on(async {
        let fake = FakeMilvus::default();
        let e = OfflineEmbedder::default();
        store_filing(&MilvusStore::new(&fake, url(), None), &e, &filing()).await;
        strip_statement_flags(&fake);
        let s = RetrievalSettings::default();
        let err = MilvusStore::new(&fake, url(), None).open_search(&e, &s).await.err().unwrap();
        assert_eq!(err, StoreError::NoStatementFlags { collection: "filings".into(), files: vec!["acme.pdf".into()] });
        let msg = err.to_string();
        assert!(msg.contains("acme.pdf") && msg.contains("ingest them again") && msg.contains("retrieval.statement_prior = 0"), "{msg}");
        // With the prior off it searches as before, and as a local corpus without the prior.
        let off = RetrievalSettings { statement_prior: 0.0, ..RetrievalSettings::default() };
        let remote = MilvusStore::new(&fake, url(), None).open_search(&e, &off).await.unwrap();
        let c = local_corpus(&e, filing(), "acme.pdf");
        let local = LocalSearch { corpus: &c, embedder: &e, settings: &off };
        let want = local.search_now("net sales 2022", 3, None).unwrap();
        let got = remote.search("net sales 2022", 3, None).await.unwrap();
        assert_same_ranking("net sales 2022", &got, &want, &local, None);
    });
}
