//! `clair extract` and `clair tables` (owned by the ingestion work): the native reader over
//! `clair_core::ingest`, printing the JSON contracts the shared scorers read (tools/*.py).

use crate::args::Args;
use clair_core::config::IngestSettings;
use clair_core::ingest;

fn load(args: &[String], what: &str) -> Result<(Args, ingest::Extracted), String> {
    let a = Args::parse(args)?;
    let path = a
        .positional
        .first()
        .ok_or_else(|| format!("usage: clair {what} PDF [--json]"))?;
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let source = std::path::Path::new(path)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.clone());
    let ex = ingest::extract_on_threads(bytes, &source, &IngestSettings::default(), crate::reading_threads());
    for w in &ex.warnings {
        eprintln!("warning: {w}");
    }
    if ex.pages.is_empty() {
        return Err(format!("{path}: no pages could be read"));
    }
    Ok((a, ex))
}

fn print_json(v: &serde_json::Value) -> Result<(), String> {
    let s = serde_json::to_string(v).map_err(|e| e.to_string())?;
    println!("{s}");
    Ok(())
}

pub fn extract(args: &[String]) -> Result<(), String> {
    let (a, ex) = load(args, "extract")?;
    if a.has("--json") {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        ingest::write_extract_json(&ex, &mut out)?;
        return writeln!(out).and_then(|_| out.flush()).map_err(|e| e.to_string());
    }
    for p in &ex.pages {
        match &p.label {
            Some(l) => println!("--- page {} ({l}) ---", p.page),
            None => println!("--- page {} ---", p.page),
        }
        println!("{}\n", p.text);
    }
    Ok(())
}

pub fn tables(args: &[String]) -> Result<(), String> {
    let (a, ex) = load(args, "tables")?;
    if a.has("--json") {
        return print_json(&ingest::tables_json(&ex));
    }
    for p in &ex.pages {
        for (i, t) in p.tables.iter().enumerate() {
            println!(
                "--- page {} table {i} {:?}{} ---",
                p.page,
                t.bbox,
                if t.continues_from_previous {
                    " (continued)"
                } else {
                    ""
                }
            );
            if !t.caption.is_empty() {
                println!("{}", t.caption);
            }
            for row in t.grid() {
                println!("{}", row.join(" | "));
            }
            for n in &t.notes {
                println!("{}", n.printed());
            }
            println!();
        }
    }
    Ok(())
}
