//! Evaluation datasets: FinanceBench, BB-FinQA-X and a generic JSONL, read into one `Item` shape.
//!
//! Three row layouts are recognised, row by row (a file may even mix them):
//!
//! - **FinanceBench** (`financebench_id`, `doc_name`, `question`, `answer`, `question_type`,
//!   `evidence: [{evidence_page_num}]`). Evidence pages are zero-based in FinanceBench and become
//!   one-based here, like every page number in the corpus.
//! - **BB-FinQA-X** (paper Table 4; spec §8.1): `id`, `number`, `chapter`, `chapter_title`,
//!   `question`, `answer`, `query_type`, `reasoning_skill`, `presentation_format`, `difficulty`,
//!   `source_page`, `evidence`; the older export names `question_type`, `evidence_source`,
//!   `gold_answer`, `page_no` are accepted too. `source_page` is a list like `"12, 14–16 / 20"`.
//!   `**` bold markers are stripped from answers (spec §8.1).
//! - **Generic** — `{"question": …, "answer": …}` plus, all optional: `"id"`, `"doc"` (a PDF file
//!   name or stem, looked up in the PDF directory), `"evidence_pages"` (one-based page numbers,
//!   a list of integers or a `source_page`-style string), `"type"`, `"format"`, `"difficulty"`.
//!
//! A file is JSON Lines, or one JSON array of rows. Parsing never panics and never gives up on the
//! whole file for one bad row: it returns the items it could read plus one message per row it
//! could not, naming the line and what to fix (STYLE.md).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which layout a row was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    FinanceBench,
    BbFinqaX,
    Generic,
}

/// One gold question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Unique within the dataset (the line number when the row has no id).
    pub id: String,
    pub question: String,
    pub answer: String,
    /// The document the question is about (FinanceBench `doc_name`), without `.pdf`.
    #[serde(default)]
    pub doc: Option<String>,
    /// Gold evidence pages, one-based, sorted, unique.
    #[serde(default)]
    pub evidence_pages: Vec<u32>,
    /// Query type (BB-FinQA-X `query_type`, FinanceBench `question_type`).
    #[serde(default)]
    pub query_type: Option<String>,
    /// Presentation format (BB-FinQA-X `presentation_format`).
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    pub layout: Layout,
}

/// What a dataset file yielded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    pub items: Vec<Item>,
    /// One actionable message per row that was skipped.
    pub errors: Vec<String>,
}

/// Parse a dataset file (JSON Lines or one JSON array).
pub fn parse(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    let rows: Vec<(usize, Result<Value, String>)> = if trimmed.starts_with('[') {
        match serde_json::from_str::<Vec<Value>>(trimmed) {
            Ok(v) => v.into_iter().enumerate().map(|(i, r)| (i + 1, Ok(r))).collect(),
            Err(e) => {
                out.errors.push(format!("the file starts with `[` but is not a JSON array of rows: {e}"));
                return out;
            }
        }
    } else {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, serde_json::from_str::<Value>(l.trim_start_matches('\u{feff}')).map_err(|e| format!("not JSON ({e})"))))
            .collect()
    };
    let mut seen = std::collections::BTreeSet::new();
    for (n, row) in rows {
        let r = row.and_then(|v| item_of(&v, n));
        match r {
            Ok(item) => {
                if !seen.insert(item.id.clone()) {
                    out.errors.push(format!("row {n}: id `{}` appears twice; the later row is skipped (give each row a unique id)", item.id));
                    continue;
                }
                out.items.push(item);
            }
            Err(e) => out.errors.push(format!("row {n}: {e}")),
        }
    }
    out
}

fn text_field(v: &Value, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match v.get(*k) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

fn required(v: &Value, keys: &[&str], layout: &str) -> Result<String, String> {
    text_field(v, keys).ok_or_else(|| {
        let names: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        format!("{layout} row has no non-empty {} (a string)", names.join(" or "))
    })
}

fn layout_of(v: &Value) -> Layout {
    let has = |k: &str| v.get(k).is_some();
    if has("financebench_id") || (has("doc_name") && v.get("evidence").map(Value::is_array).unwrap_or(false)) {
        Layout::FinanceBench
    } else if has("presentation_format") || has("source_page") || has("chapter") || has("page_no") || has("evidence_source") {
        Layout::BbFinqaX
    } else {
        Layout::Generic
    }
}

fn item_of(v: &Value, line: usize) -> Result<Item, String> {
    if !v.is_object() {
        return Err("a row must be a JSON object".into());
    }
    let layout = layout_of(v);
    let mut item = match layout {
        Layout::FinanceBench => {
            let mut pages = vec![];
            for e in v.get("evidence").and_then(Value::as_array).into_iter().flatten() {
                match e.get("evidence_page_num").and_then(Value::as_u64) {
                    // FinanceBench pages are zero-based (shared/README.md).
                    Some(p) => pages.push(p as u32 + 1),
                    None => return Err("FinanceBench evidence entry has no integer `evidence_page_num`".into()),
                }
            }
            Item {
                id: text_field(v, &["financebench_id"]).unwrap_or_else(|| format!("line-{line}")),
                question: required(v, &["question"], "FinanceBench")?,
                answer: required(v, &["answer"], "FinanceBench")?,
                doc: text_field(v, &["doc_name"]),
                evidence_pages: pages,
                query_type: text_field(v, &["question_type"]),
                format: None,
                difficulty: None,
                layout,
            }
        }
        Layout::BbFinqaX => {
            let pages = match v.get("source_page").or_else(|| v.get("page_no")) {
                None | Some(Value::Null) => vec![],
                Some(p) => pages_of(p).map_err(|e| format!("`source_page`: {e}"))?,
            };
            Item {
                id: text_field(v, &["id"]).unwrap_or_else(|| format!("line-{line}")),
                question: required(v, &["question"], "BB-FinQA-X")?,
                answer: required(v, &["answer", "gold_answer"], "BB-FinQA-X")?.replace("**", ""),
                doc: text_field(v, &["doc", "doc_name"]),
                evidence_pages: pages,
                query_type: text_field(v, &["query_type", "question_type"]),
                format: text_field(v, &["presentation_format", "evidence_source"]),
                difficulty: text_field(v, &["difficulty"]),
                layout,
            }
        }
        Layout::Generic => {
            let pages = match v.get("evidence_pages") {
                None | Some(Value::Null) => vec![],
                Some(p) => pages_of(p).map_err(|e| format!("`evidence_pages`: {e}"))?,
            };
            Item {
                id: text_field(v, &["id"]).unwrap_or_else(|| format!("line-{line}")),
                question: required(v, &["question"], "generic")?,
                answer: required(v, &["answer"], "generic")?,
                doc: text_field(v, &["doc"]),
                evidence_pages: pages,
                query_type: text_field(v, &["type", "query_type"]),
                format: text_field(v, &["format"]),
                difficulty: text_field(v, &["difficulty"]),
                layout,
            }
        }
    };
    if let Some(d) = &item.doc {
        let stem = d.strip_suffix(".pdf").or_else(|| d.strip_suffix(".PDF")).unwrap_or(d);
        item.doc = Some(stem.to_string());
    }
    item.evidence_pages.sort_unstable();
    item.evidence_pages.dedup();
    Ok(item)
}

/// Pages from an integer, a list of integers, or a string like `"12, 14–16 / 20"` (spec §8.3:
/// split on `,` or `/`; `a–b`, `a—b`, `a-b` are inclusive ranges).
pub fn pages_of(v: &Value) -> Result<Vec<u32>, String> {
    match v {
        Value::Number(n) => n.as_u64().map(|p| vec![p as u32]).ok_or_else(|| format!("{n} is not a page number")),
        Value::String(s) => parse_pages(s),
        Value::Array(a) => {
            let mut out = vec![];
            for x in a {
                out.extend(pages_of(x)?);
            }
            Ok(out)
        }
        other => Err(format!("expected page numbers, got {other}")),
    }
}

/// `"12, 14–16 / 20"` → [12, 14, 15, 16, 20]. Words such as `p.` or `pages` are ignored.
pub fn parse_pages(s: &str) -> Result<Vec<u32>, String> {
    let mut out = vec![];
    for part in s.split([',', '/', ';']) {
        let part = part.trim().trim_start_matches(|c: char| c.is_alphabetic() || c == '.' || c.is_whitespace());
        if part.is_empty() {
            continue;
        }
        let num = |t: &str| t.trim().parse::<u32>().map_err(|_| format!("`{}` is not a page number (in `{s}`)", t.trim()));
        match part.split_once(['–', '—', '-']) {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if b < a || b - a > 1000 {
                    return Err(format!("`{part}` is not a page range (in `{s}`)"));
                }
                out.extend(a..=b);
            }
            None => out.push(num(part)?),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn financebench_rows_read_with_one_based_pages() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/financebench/questions.jsonl"));
        let Ok(text) = text else { return };
        let p = parse(&text);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(p.items.len(), 65);
        let first = &p.items[0];
        assert_eq!(first.id, "financebench_id_00499");
        assert_eq!(first.doc.as_deref(), Some("3M_2022_10K"));
        assert_eq!(first.evidence_pages, vec![48, 50, 52]);
        assert_eq!(first.layout, Layout::FinanceBench);
        assert!(p.items.iter().all(|i| i.evidence_pages.iter().all(|&p| p >= 1)));
    }

    #[test]
    fn bb_finqa_x_row_parses_page_ranges_and_strips_bold() {
        let row = r#"{"id":"chapter_1-q30","number":30,"chapter":"1","chapter_title":"Macro","question":"What was inflation?","answer":"**9.7%** in FY24","query_type":"Fact Extraction","reasoning_skill":"lookup","presentation_format":"Text + Table","difficulty":"Easy","source_page":"12, 14–16 / 20","evidence":"Table 1.1"}"#;
        let p = parse(row);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        let i = &p.items[0];
        assert_eq!(i.layout, Layout::BbFinqaX);
        assert_eq!(i.answer, "9.7% in FY24");
        assert_eq!(i.evidence_pages, vec![12, 14, 15, 16, 20]);
        assert_eq!(i.format.as_deref(), Some("Text + Table"));
        assert_eq!(i.difficulty.as_deref(), Some("Easy"));
        assert_eq!(i.query_type.as_deref(), Some("Fact Extraction"));
    }

    #[test]
    fn generic_rows_and_json_array_are_accepted() {
        let p = parse(r#"[{"question":"Q1?","answer":"A1","doc":"X.pdf","evidence_pages":[3,2,3],"type":"lookup"},{"id":"b","question":"Q2?","answer":"A2","evidence_pages":"4-5"}]"#);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(p.items[0].id, "line-1");
        assert_eq!(p.items[0].doc.as_deref(), Some("X"));
        assert_eq!(p.items[0].evidence_pages, vec![2, 3]);
        assert_eq!(p.items[1].evidence_pages, vec![4, 5]);
    }

    #[test]
    fn bad_rows_are_reported_by_line_and_the_rest_kept() {
        let text = "{\"question\":\"ok?\",\"answer\":\"yes\"}\nnot json\n{\"answer\":\"no question\"}\n\n{\"question\":\"p?\",\"answer\":\"a\",\"evidence_pages\":\"x-y\"}\n[1,2]\n";
        let p = parse(text);
        assert_eq!(p.items.len(), 1);
        assert_eq!(p.errors.len(), 4, "{:?}", p.errors);
        assert!(p.errors[0].starts_with("row 2: not JSON"));
        assert!(p.errors[1].contains("row 3") && p.errors[1].contains("`question`"));
        assert!(p.errors[2].contains("row 5") && p.errors[2].contains("evidence_pages"));
        assert!(p.errors[3].contains("row 6") && p.errors[3].contains("object"));
    }

    #[test]
    fn duplicate_ids_keep_the_first_row() {
        let p = parse("{\"id\":\"a\",\"question\":\"q\",\"answer\":\"x\"}\n{\"id\":\"a\",\"question\":\"q2\",\"answer\":\"y\"}");
        assert_eq!(p.items.len(), 1);
        assert!(p.errors[0].contains("twice"));
    }
}
