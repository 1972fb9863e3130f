//! `clair ingest` and `clair search` (owned by the retrieval work).
//!
//! `clair ingest PDF... -o CORPUS [--embedder offline|static|api] [--static-table FILE] [--dims N] [--config SETTINGS.toml] [--pdftotext]
//!   [--vision off|flagged|all [--vision-pages 3,7] [--estimate] --base-url URL --model NAME]`
//!   extracts documents, embeds them and writes the corpus blob (`Corpus::to_bytes`). An existing
//!   CORPUS is extended (same ids replace; a re-ingested file replaces its old documents). With
//!   `--vision` the flagged (or all) pages are also read by the vision model (`crate::vision`);
//!   answers are cached in `CORPUS.vision.json`. `--estimate` prints the cost estimate and stops.
//! `clair search CORPUS QUERY [--k K] [--modality text|table|chart] [--static-weight W] [--json]`
//!   → `{"hits": [{"id","source","page","modality","score","text"}]}`, best first.
//! With `--store milvus://HOST:PORT/COLLECTION [--token T]` instead of CORPUS (`-o`), both work on
//! a team library on a Milvus server (`crate::store`).
//!
//! `--embedder static` (the default without an API key, when the table is installed) is the offline
//! embedder with its semantic part from the distilled static-embedding table
//! (`scripts/static-embed.sh` installs it; `--static-table`, else `CLAIR_STATIC_TABLE`, else
//! `static-embed/minilm-l6-static.bin` in the binary's target folder or in `target/`);
//! `--embedder offline` is its lexical part alone. Searching such a corpus
//! loads the same table (the corpus records its fingerprint) and weighs the semantic part of the
//! query by `--static-weight`, else `retrieval.static_weight`.

use crate::args::Args;
use crate::http::NativeTransport;
use clair_core::config::{Modality, Settings, VisionMode};
use clair_core::corpus::Doc;
use clair_core::llm::LlmClient;
use clair_core::retrieve::embed::embedding_inputs;
use clair_core::retrieve::static_embed::StaticTable;
use clair_core::retrieve::{ApiEmbedder, Corpus, Embedder, LocalSearch, OfflineEmbedder};
use std::sync::Arc;

/// Where the static-embedding table is looked for when no path is given: beside the binary's
/// target folder (`target/release/clair` → `target/static-embed/`), then under the working folder,
/// both where `scripts/static-embed.sh` puts it.
fn default_table_paths() -> Vec<std::path::PathBuf> {
    let rel = std::path::Path::new("static-embed").join("minilm-l6-static.bin");
    let mut out = vec![];
    if let Some(target) = std::env::current_exe().ok().and_then(|e| e.parent().and_then(|d| d.parent()).map(|d| d.to_path_buf())) {
        out.push(target.join(&rel));
    }
    out.push(std::path::Path::new("target").join(&rel));
    out
}

/// The table's path: `--static-table`, `CLAIR_STATIC_TABLE`, else the first default place that
/// holds one (None: not installed).
fn table_path(a: &Args) -> Option<String> {
    a.value("--static-table")
        .map(String::from)
        .or_else(|| std::env::var("CLAIR_STATIC_TABLE").ok())
        .or_else(|| default_table_paths().into_iter().find(|p| p.is_file()).map(|p| p.display().to_string()))
}

/// The static-embedding table (`static_embed`), read from `table_path` once per process (`clair
/// eval` asks for it per corpus and per question).
fn static_table(a: &Args) -> Result<Arc<StaticTable>, String> {
    static READ: std::sync::Mutex<Option<(String, Arc<StaticTable>)>> = std::sync::Mutex::new(None);
    let path = table_path(a).ok_or("the static embedding table is not installed (run scripts/static-embed.sh, or give --static-table FILE)")?;
    let mut read = READ.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, t)) = read.as_ref().filter(|(p, _)| *p == path) {
        return Ok(t.clone());
    }
    let b = std::fs::read(&path).map_err(|e| format!("cannot read the static embedding table {path}: {e} (run scripts/static-embed.sh)"))?;
    let t = Arc::new(StaticTable::from_bytes(&b).map_err(|e| format!("{path}: {e}"))?);
    *read = Some((path, t.clone()));
    Ok(t)
}

fn static_weight(a: &Args, s: &Settings) -> Result<f32, String> {
    let w = match a.value("--static-weight") {
        Some(w) => w.parse::<f64>().map_err(|_| format!("--static-weight {w} is not a number"))?,
        None => s.retrieval.static_weight,
    };
    if !(0.0..=1.0).contains(&w) {
        return Err(format!("--static-weight {w} must be between 0 and 1"));
    }
    Ok(w as f32)
}

fn settings(a: &Args) -> Result<Settings, String> {
    let mut s = match a.value("--config") {
        Some(p) => Settings::from_toml(&std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}"))?)?,
        None => Settings::paper(),
    };
    crate::cmd_ask::endpoint_from_env(&mut s);
    if let Some(u) = a.value("--base-url") {
        s.models.base_url = u.into();
    }
    Ok(s)
}

pub fn ingest(raw: &[String]) -> Result<(), String> {
    let a = Args::parse(raw)?;
    if let Some((url, token)) = crate::store::from_args(&a)? {
        if a.positional.is_empty() {
            return Err("ingest needs at least one PDF".into());
        }
        return crate::store::ingest(&a, &settings(&a)?, url, token);
    }
    let out = a.value("-o").or(a.value("--out")).ok_or("ingest needs -o CORPUS")?;
    if a.positional.is_empty() {
        return Err("ingest needs at least one PDF".into());
    }
    let mut s = settings(&a)?;
    if let Some(m) = a.value("--vision") {
        s.ingest.vision_mode = VisionMode::parse(m).ok_or_else(|| format!("--vision {m}: expected off, flagged or all"))?;
    }
    if let Some(m) = a.value("--model") {
        s.models.vision_model = m.into();
    }
    if a.has("--pdftotext") && s.ingest.vision_mode != VisionMode::Off {
        return Err("--vision needs the native reader: drop --pdftotext".into());
    }
    let only = crate::vision::parse_pages(a.value("--vision-pages"))?;
    let cache_file = crate::vision::cache_path(out);
    let mut cache = crate::vision::load_cache(&cache_file)?;
    // The default: the API's embeddings with a key; without one the offline embedder with its
    // semantic part when the table is installed, the lexical part alone (said on stderr) when not.
    let kind = match a.value("--embedder") {
        Some(k) => k,
        None if std::env::var("OPENAI_API_KEY").is_ok() => "api",
        None if table_path(&a).is_some() => "static",
        None => {
            eprintln!("the static embedding table is not installed (scripts/static-embed.sh): embedding with the lexical part alone");
            "offline"
        }
    };
    let dims: Option<usize> = a.value("--dims").map(|d| d.parse().map_err(|_| format!("--dims {d} is not a number"))).transpose()?;

    let mut docs: Vec<Doc> = vec![];
    for pdf in &a.positional {
        let d = if a.has("--pdftotext") {
            pdftotext_documents(pdf, &s)?
        } else {
            let bytes = std::fs::read(pdf).map_err(|e| format!("cannot read {pdf}: {e}"))?;
            let ex = clair_core::ingest::extract_on_threads(bytes.clone(), &file_name(pdf), &s.ingest, crate::reading_threads());
            crate::vision::report_signals(pdf, &ex);
            let native = clair_core::ingest::documents(&ex, &s.ingest);
            crate::vision::phase(pdf, &bytes, &ex, native, &s, &mut cache, only.as_deref(), a.has("--estimate"))?
        };
        eprintln!("{pdf}: {} documents", d.len());
        docs.extend(d);
    }
    if a.has("--estimate") {
        return Ok(());
    }
    if s.ingest.vision_mode != VisionMode::Off {
        crate::vision::save_cache(&cache_file, &cache)?;
    }
    let inputs = embedding_inputs(&docs);
    let (name, dims, vectors) = match kind {
        "offline" => {
            let e = dims.map(OfflineEmbedder::new).unwrap_or_default();
            (e.name(), e.dims(), e.embed_documents(&inputs))
        }
        "static" => {
            let e = dims.map(OfflineEmbedder::new).unwrap_or_default().with_static(static_table(&a)?, static_weight(&a, &s)?);
            (e.name(), e.dims(), e.embed_documents(&inputs))
        }
        "api" => {
            if let Some(d) = dims {
                s.models.embedding_dimensions = Some(d as u32);
            }
            // Adding to a corpus of this model's vectors: its size is the size (the first ingest
            // learnt it when models.embedding_dimensions was unset).
            let prefix = format!("api:{}:", s.models.embedding_model);
            let existing = std::fs::read(out).ok().and_then(|b| Corpus::from_bytes(&b).ok()).filter(|c| c.embedder.starts_with(&prefix)).map(|c| c.dims);
            let t = NativeTransport::new(&s.models.base_url, std::env::var("OPENAI_API_KEY").ok());
            let client = LlmClient::new(&t, &s);
            let e = match existing {
                Some(d) => ApiEmbedder::for_corpus(&client, d),
                None => ApiEmbedder::new(&client),
            };
            let v = futures::executor::block_on(e.embed_batch(&inputs))?;
            (e.name(), e.dims(), v)
        }
        other => return Err(format!("unknown embedder `{other}` (offline, static or api)")),
    };
    let mut corpus = match std::fs::read(out) {
        Ok(b) => match Corpus::from_bytes(&b) {
            Ok(c) if c.embedder == name => c,
            Ok(c) => return Err(format!("{out} holds `{}` vectors, not `{name}`; write a new corpus", c.embedder)),
            Err(e) => {
                eprintln!("{out}: {e}; starting a new corpus");
                Corpus::new(name.clone(), dims)
            }
        },
        Err(_) => Corpus::new(name.clone(), dims),
    };
    for pdf in &a.positional {
        corpus.remove_source(&file_name(pdf));
    }
    corpus.add(docs, vectors)?;
    std::fs::write(out, corpus.to_bytes()).map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!("{out}: {} documents from {} files", corpus.len(), corpus.sources().len());
    Ok(())
}

pub fn search(raw: &[String]) -> Result<(), String> {
    let a = Args::parse(raw)?;
    let store = crate::store::from_args(&a)?;
    let (path, query) = match (&store, &a.positional[..]) {
        (None, [path, query]) => (path.as_str(), query),
        (Some(_), [query]) => ("", query),
        _ => return Err("usage: clair search CORPUS QUERY | --store milvus://HOST:PORT/COLLECTION QUERY [--k K] [--modality text|table|chart] [--json]".into()),
    };
    let s = settings(&a)?;
    let k: usize = match a.value("--k") {
        Some(k) => k.parse().map_err(|_| format!("--k {k} is not a number"))?,
        None => s.retrieval.k_narrative,
    };
    let modality = match a.value("--modality") {
        Some(m) => Some(Modality::parse(m).ok_or_else(|| format!("unknown modality `{m}`"))?),
        None => None,
    };
    let hits = match store {
        Some((url, token)) => {
            let t = crate::store::MilvusHttp::new();
            let e = crate::store::embedder_for(&t, &url, &token)?;
            let search = crate::store::open_search(&t, url, token, &e, &s.retrieval)?;
            futures::executor::block_on(clair_core::retrieve::Search::search(&search, query, k, modality))?
        }
        None => local_hits(&a, path, query, k, modality, &s)?,
    };
    print_hits(&hits, a.has("--json"));
    Ok(())
}

/// The offline embedder a new corpus gets without an API key: with the semantic part when the
/// static table is installed (`table_path`), its lexical part alone when not.
pub fn default_offline(a: &Args, s: &Settings) -> Result<OfflineEmbedder, String> {
    if table_path(a).is_none() {
        return Ok(OfflineEmbedder::default());
    }
    Ok(OfflineEmbedder::default().with_static(static_table(a)?, static_weight(a, s)?))
}

/// The offline embedder a stored corpus was embedded with: its lexical part alone, or with the
/// static table's semantic part (the corpus name records the table's fingerprint), the query's
/// semantic part weighted by `--static-weight`, else `retrieval.static_weight`.
pub fn offline_for(a: &Args, corpus: &Corpus, s: &Settings) -> Result<OfflineEmbedder, String> {
    if !corpus.embedder.contains("+static-") {
        return Ok(OfflineEmbedder::new(corpus.dims));
    }
    let t = static_table(a)?;
    Ok(OfflineEmbedder::new(corpus.dims.saturating_sub(t.dims())).with_static(t, static_weight(a, s)?))
}

fn local_hits(a: &Args, path: &str, query: &str, k: usize, modality: Option<Modality>, s: &Settings) -> Result<Vec<clair_core::corpus::Hit>, String> {
    let corpus = Corpus::from_bytes(&std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?)
        .map_err(|e| format!("{path}: {e}"))?;
    let hits = if corpus.embedder.starts_with("api:") {
        let t = NativeTransport::new(&s.models.base_url, std::env::var("OPENAI_API_KEY").ok());
        let client = LlmClient::new(&t, &s);
        let e = ApiEmbedder::for_corpus(&client, corpus.dims);
        let q = futures::executor::block_on(e.embed(query))?;
        corpus.search(&q, query, k, modality, &s.retrieval)
    } else {
        let e = offline_for(a, &corpus, s)?;
        LocalSearch { corpus: &corpus, embedder: &e, settings: &s.retrieval }.search_now(query, k, modality)?
    };
    Ok(hits)
}

fn print_hits(hits: &[clair_core::corpus::Hit], json: bool) {
    if json {
        let hits: Vec<serde_json::Value> = hits
            .iter()
            .map(|h| {
                serde_json::json!({"id": h.doc.id, "source": h.doc.source, "page": h.doc.page,
                    "page_label": h.doc.page_label, "section": h.doc.section,
                    "modality": h.doc.modality.as_str(), "score": h.score, "text": h.doc.text})
            })
            .collect();
        println!("{}", serde_json::json!({ "hits": hits }));
    } else {
        for h in hits {
            let preview: String = h.doc.text.chars().take(160).collect::<String>().replace('\n', " ");
            let section = h.doc.section.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
            println!("{:.4}  {} p{} [{}]{section}  {}", h.score, h.doc.source, h.doc.page, h.doc.modality.as_str(), preview);
        }
    }
}

fn file_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| path.to_string())
}

/// Measurement baseline (`--pdftotext`): pdftotext per page, chunked at line boundaries to
/// ≈ `chunk_target_chars` with the last two lines repeated as overlap. Needs poppler-utils.
fn pdftotext_documents(pdf: &str, s: &Settings) -> Result<Vec<Doc>, String> {
    let source = file_name(pdf);
    let out = std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8", pdf, "-"])
        .output()
        .map_err(|e| format!("pdftotext: {e}"))?;
    if !out.status.success() {
        return Err(format!("{pdf}: pdftotext failed"));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let target = s.ingest.chunk_target_chars.max(100);
    let mut docs = vec![];
    for (pi, page) in text.split('\u{c}').enumerate() {
        let lines: Vec<&str> = page.lines().filter(|l| !l.trim().is_empty()).collect();
        let mut chunk: Vec<&str> = vec![];
        let mut len = 0;
        let mut n = 0;
        let mut flush = |chunk: &[&str], n: &mut usize| {
            let t = chunk.join("\n");
            if t.trim().is_empty() {
                return;
            }
            docs.push(Doc {
                id: clair_core::corpus::doc_id(&source, pi as u32 + 1, Modality::Text, &n.to_string()),
                source: source.clone(),
                page: pi as u32 + 1,
                page_label: None,
                section: None,
                section_from_headings: false,
                modality: Modality::Text,
                text: t,
                bboxes: vec![],
                page_size: (0.0, 0.0),
                confidence: Default::default(),
                table: None,
                chart: None,
            });
            *n += 1;
        };
        for l in lines {
            chunk.push(l);
            len += l.len() + 1;
            if len >= target {
                flush(&chunk, &mut n);
                let keep = chunk.len().saturating_sub(2);
                chunk.drain(..keep);
                len = chunk.iter().map(|l| l.len() + 1).sum();
            }
        }
        if chunk.len() > 2 || n == 0 {
            flush(&chunk, &mut n);
        }
    }
    Ok(docs)
}
