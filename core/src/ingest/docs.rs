//! Corpus documents from extracted pages (spec §4.5–4.7): prose chunks, one markdown document per
//! table and one per labelled table row, with deterministic ids `<stem>-p<page>-<modality>-c<n>`.
//! Row ids use `t<table>r<row>` (corpus::doc_id) so they cannot collide the way the reference's
//! `1000 + 100·t + r` does at 100 rows (spec §12).

use super::chunk::{chunk_sentences, split_sentences};
use super::tables::without_leaders;
use super::{notes, BlockKind, Extracted, Page, Table, TableNote};
use crate::config::{IngestSettings, Modality};
use crate::corpus::{doc_id, BBox, Doc, ExtractionConfidence, TableMeta, TablePart};

pub fn documents(ex: &Extracted, settings: &IngestSettings) -> Vec<Doc> {
    let mut out = vec![];
    for pi in 0..ex.pages.len() {
        page_documents(ex, pi, settings, &mut out);
    }
    out
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A document of page `p` with no table or chart payload (the callers add those): the one place
/// a page's provenance (id, source, page, printed label, section, page size) is filled in.
pub(crate) fn page_doc(source: &str, p: &Page, modality: Modality, n: &str, text: String, bboxes: Vec<BBox>, confidence: ExtractionConfidence) -> Doc {
    Doc {
        id: doc_id(source, p.page, modality, n),
        source: source.to_string(),
        page: p.page,
        page_label: p.label.clone(),
        section: p.section.clone(),
        section_from_headings: p.section_from_headings,
        modality,
        text,
        bboxes,
        page_size: (p.width, p.height),
        confidence,
        table: None,
        chart: None,
    }
}

fn page_documents(ex: &Extracted, pi: usize, settings: &IngestSettings, out: &mut Vec<Doc>) {
    let p = &ex.pages[pi];
    let confidence = if p.signals.garbled_share > settings.garbled_share {
        ExtractionConfidence::Low
    } else {
        ExtractionConfidence::High
    };
    let base = |modality: Modality, n: String, text: String, bboxes: Vec<BBox>| page_doc(&ex.source, p, modality, &n, text, bboxes, confidence);

    // §4.6 prose: text blocks in reading order (tables have their own documents).
    let prose_blocks: Vec<(&str, BBox, String)> = p
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Text && !b.text.trim().is_empty())
        .map(|b| (b.text.as_str(), b.bbox, norm(&b.text)))
        .collect();
    let prose: String = prose_blocks
        .iter()
        .map(|b| b.0)
        .collect::<Vec<_>>()
        .join("\n\n");
    if !prose.trim().is_empty() {
        let sents = cap_sentences(split_sentences(&prose), settings.chunk_target_chars);
        let chunks = chunk_sentences(
            &sents,
            settings.chunk_target_chars,
            settings.chunk_overlap_sentences,
        );
        for (n, c) in chunks.into_iter().enumerate() {
            let bboxes: Vec<BBox> = prose_blocks
                .iter()
                .filter(|(_, _, t)| overlaps(&c, t))
                .map(|(_, b, _)| *b)
                .collect();
            out.push(base(Modality::Text, n.to_string(), c, bboxes));
        }
    }

    // §4.6 tables: first row(s) are the columns, the rest the rows. A table that goes on from the
    // previous page has no header of its own: it takes the columns (and caption) of the part the
    // table started on, so its rows read "Revenue: 2022=…" like the first page's.
    for (t, table) in p.tables.iter().enumerate() {
        let chain = table_chain(&ex.pages, pi, t);
        let head = chain.first().map(|&(hp, ht)| &ex.pages[hp].tables[ht]).filter(|h| !std::ptr::eq(*h, table));
        let inherit = head.filter(|h| h.n_cols == table.n_cols && table.header_rows == 0 && table.continues_from_previous);
        let (columns, rows, first_row, caption) = match inherit {
            Some(h) => {
                let caption = if table.caption.is_empty() && !h.caption.is_empty() { format!("{} (continued)", h.caption) } else { table.caption.clone() };
                let caption = without_leaders(&caption);
                (columns_and_rows(h).0, readable(table.grid()), 0, caption)
            }
            None => {
                let (c, r) = columns_and_rows(table);
                (c, r, table.header_rows.max(1), without_leaders(&table.caption))
            }
        };
        let parts: Vec<TablePart> = if chain.len() > 1 {
            chain.iter().map(|&(cp, ct)| TablePart { page: ex.pages[cp].page, bbox: ex.pages[cp].tables[ct].bbox }).collect()
        } else {
            vec![]
        };
        // The table's footnotes (`notes`): this part's, then those of its other parts whose marks
        // this part's do not repeat (a note under a table's last page is the whole table's).
        // A note carried over to the next page is not highlighted on this one.
        let mut notes: Vec<(&TableNote, bool)> = table.notes.iter().map(|n| (n, n.page.is_none())).collect();
        for &(cp, ct) in chain.iter().filter(|&&(cp, ct)| (cp, ct) != (pi, t)) {
            for n in &ex.pages[cp].tables[ct].notes {
                if !n.mark.is_empty() && !notes.iter().any(|(m, _)| m.mark == n.mark) {
                    notes.push((n, false));
                }
            }
        }
        // The whole-table document, in parts of at most `chunk_target_chars` like a prose chunk,
        // each under the table's caption and column headings (`table_parts`).
        let spans = table_parts(&caption, &columns, &rows, settings.chunk_target_chars);
        let last = spans.len().saturating_sub(1);
        // The marks a set of rows, the column headings or the caption point at.
        let pointed = |rs: &[Vec<String>]| {
            let mut texts: Vec<&str> = rs.iter().flatten().map(String::as_str).collect();
            texts.extend(columns.iter().map(String::as_str));
            texts.push(caption.as_str());
            notes::marks_of(&texts)
        };
        let anywhere = if spans.len() > 1 { pointed(&rows) } else { Default::default() };
        for (k, span) in spans.iter().enumerate() {
            let part_rows = &rows[span.clone()];
            // A part's notes: those its rows, its headings or the caption point at; the last part
            // also takes the general notes and any note no part points at, so each is printed once
            // under the table as a whole.
            let part_notes: Vec<&(&TableNote, bool)> = if spans.len() == 1 {
                notes.iter().collect()
            } else {
                let here = pointed(part_rows);
                notes.iter().filter(|(n, _)| (!n.mark.is_empty() && here.contains(&n.mark)) || (k == last && (n.mark.is_empty() || !anywhere.contains(&n.mark)))).collect()
            };
            let mut md = markdown(&caption, &columns, part_rows);
            if !part_notes.is_empty() {
                md.push('\n');
                for (n, _) in &part_notes {
                    md.push_str(&n.printed());
                    md.push('\n');
                }
            }
            let mut boxes = vec![part_box(table, first_row, span, k == 0, k == last)];
            boxes.extend(part_notes.iter().filter(|(_, here)| *here).map(|(n, _)| n.bbox));
            let n = if k == 0 { t.to_string() } else { format!("{t}p{k}") };
            let mut d = base(Modality::Table, n, md, boxes);
            d.table = Some(TableMeta {
                caption: caption.clone(),
                columns: columns.clone(),
                rows: part_rows.to_vec(),
                row_label: None,
                table_index: t,
                parts: parts.clone(),
                notes: part_notes.iter().map(|(n, _)| n.printed()).collect(),
            });
            out.push(d);
        }
        if rows.len() <= 1 {
            continue;
        }
        for (r, row) in rows.iter().enumerate() {
            let label = row.first().map(|s| s.trim()).unwrap_or("");
            if label.is_empty() {
                continue;
            }
            let pairs: Vec<String> = columns
                .iter()
                .zip(row.iter())
                .skip(1)
                .filter(|(_, v)| !v.trim().is_empty())
                .map(|(c, v)| {
                    if c.is_empty() {
                        v.clone()
                    } else {
                        format!("{c}={v}")
                    }
                })
                .collect();
            let mut text = String::new();
            if !caption.is_empty() {
                text.push_str(&caption);
                text.push_str(" — ");
            }
            text.push_str(label);
            if !pairs.is_empty() {
                text.push_str(": ");
                text.push_str(&pairs.join(", "));
            }
            // The notes the row's cells point at, and those of the headers over its figures.
            let mut marked: Vec<&str> = row.iter().map(String::as_str).collect();
            marked.extend(columns.iter().zip(row.iter()).skip(1).filter(|(_, v)| !v.trim().is_empty()).map(|(c, _)| c.as_str()));
            let keys = notes::marks_of(&marked);
            let row_notes: Vec<&(&TableNote, bool)> = notes.iter().filter(|(n, _)| keys.contains(&n.mark)).collect();
            // Each on a line of its own under the row, as printed under the table: the row line
            // keeps the `label: column=value, …` shape that readers of row documents parse.
            for (n, _) in &row_notes {
                text.push('\n');
                text.push_str(&n.printed());
            }
            let mut boxes: Vec<BBox> = row_box(table, first_row + r).into_iter().collect();
            boxes.extend(row_notes.iter().filter(|(_, here)| *here).map(|(n, _)| n.bbox));
            let mut d = base(Modality::Table, format!("t{t}r{r}"), text, boxes);
            d.table = Some(TableMeta {
                caption: caption.clone(),
                columns: columns.clone(),
                rows: vec![row.clone()],
                row_label: Some(label.to_string()),
                table_index: t,
                parts: parts.clone(),
                notes: row_notes.iter().map(|(n, _)| n.printed()).collect(),
            });
            out.push(d);
        }
    }
}

/// The parts of the table `t` of page index `pi` in page order, following the links ingest made
/// (`Table::continues_from_previous`, tables::link_continuations): back while this page's first
/// table continues the previous page's last, forward while the next page's first table continues
/// this page's last. A one-page table gives itself alone.
fn table_chain(pages: &[Page], pi: usize, t: usize) -> Vec<(usize, usize)> {
    let adjacent = |a: usize, b: usize| pages[b].page == pages[a].page + 1;
    let mut chain = vec![(pi, t)];
    let (mut p, mut k) = (pi, t);
    while k == 0 && p > 0 && pages[p].tables.first().is_some_and(|x| x.continues_from_previous) && adjacent(p - 1, p) && !pages[p - 1].tables.is_empty() {
        p -= 1;
        k = pages[p].tables.len() - 1;
        chain.insert(0, (p, k));
    }
    let (mut p, mut k) = (pi, t);
    while k + 1 == pages[p].tables.len() && p + 1 < pages.len() && adjacent(p, p + 1) && pages[p + 1].tables.first().is_some_and(|x| x.continues_from_previous) {
        p += 1;
        k = 0;
        chain.push((p, k));
    }
    chain
}

/// A "sentence" with no terminal punctuation (a list, an undetected table) can run for pages; §4.5
/// would make it one chunk. Pieces longer than the target are cut at word boundaries so a chunk
/// stays a retrievable size (a deliberate departure, like the `etc.` fix).
fn cap_sentences(sents: Vec<String>, target: usize) -> Vec<String> {
    let target = target.max(100);
    let mut out = vec![];
    for s in sents {
        if s.chars().count() <= target {
            out.push(s);
            continue;
        }
        let mut cur = String::new();
        for w in s.split(' ') {
            if !cur.is_empty() && cur.chars().count() + w.chars().count() + 1 > target {
                out.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(w);
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

fn overlaps(chunk: &str, block: &str) -> bool {
    let head: String = block.chars().take(40).collect();
    let tail: String = {
        let v: Vec<char> = block.chars().collect();
        v[v.len().saturating_sub(40)..].iter().collect()
    };
    let chunk_head: String = chunk.chars().take(40).collect();
    chunk.contains(&head) || chunk.contains(&tail) || block.contains(&chunk_head)
}

/// The whole-table document's parts (spec §4.4's chunk target applied to tables): ranges of
/// `rows`, in order, each as many rows as fit in `target` characters of markdown under the
/// caption and the column headings (at least one row). A table within the target is one part.
/// Why: a long table in one document — a statement of sixty line items — carries the words of
/// every row, so it shares a few terms with most questions (the lexical overlap ℓ is the share
/// of the question's terms found anywhere in the document) and stands close to none; prose is
/// chunked for the same reason. Groups of rows read as one table (`tables::regions`) must not
/// turn into one ever larger document.
fn table_parts(caption: &str, columns: &[String], rows: &[Vec<String>], target: usize) -> Vec<std::ops::Range<usize>> {
    if rows.len() <= 1 || markdown(caption, columns, rows).len() <= target {
        return vec![0..rows.len()];
    }
    let head = markdown(caption, columns, &[]).len();
    let bare = markdown("", columns, &[]).len();
    let mut out = vec![];
    let (mut start, mut len) = (0, head);
    for (r, row) in rows.iter().enumerate() {
        let line = markdown("", columns, std::slice::from_ref(row)).len() - bare;
        if r > start && len + line > target {
            out.push(start..r);
            start = r;
            len = head;
        }
        len += line;
    }
    out.push(start..rows.len());
    out
}

/// A part's box: the table's width from its first row's top to its last row's bottom; the first
/// part reaches up to the table's top (caption and headings), the last down to its bottom, so the
/// parts tile the table's box. Rows with no cells on this page fall back to the table's edges.
fn part_box(t: &Table, first_row: usize, span: &std::ops::Range<usize>, first: bool, last: bool) -> BBox {
    let top = if first { None } else { row_box(t, first_row + span.start).map(|b| b[1]) };
    let bottom = if last { None } else { span.clone().rev().find_map(|r| row_box(t, first_row + r)).map(|b| b[3]) };
    [t.bbox[0], top.unwrap_or(t.bbox[1]), t.bbox[2], bottom.unwrap_or(t.bbox[3])]
}

fn row_box(t: &Table, row: usize) -> Option<BBox> {
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    let mut any = false;
    for c in t.cells.iter().filter(|c| c.row == row) {
        any = true;
        b = [
            b[0].min(c.bbox[0]),
            b[1].min(c.bbox[1]),
            b[2].max(c.bbox[2]),
            b[3].max(c.bbox[3]),
        ];
    }
    any.then_some(b)
}

/// Header rows flattened into one label per column (spanning header text repeated over its span,
/// joined top to bottom), data rows padded to the column count.
pub fn columns_and_rows(t: &Table) -> (Vec<String>, Vec<Vec<String>>) {
    let header = t.header_rows.max(1).min(t.n_rows);
    let mut columns = vec![String::new(); t.n_cols];
    for c in t.cells.iter().filter(|c| c.row < header) {
        for column in columns.iter_mut().take((c.col + c.col_span).min(t.n_cols)).skip(c.col) {
            if !column.is_empty() {
                column.push(' ');
            }
            column.push_str(&c.text);
        }
    }
    let grid = t.grid();
    let rows = readable(grid.into_iter().skip(header).collect());
    (columns.iter().map(|c| without_leaders(c)).collect(), rows)
}

/// Cells as a reader takes them: dot leaders out (`tables::without_leaders`), so a row reads
/// "Total revenue: Fiscal 2015=$ 4,795.5", not eighty dots, in its document and its markdown.
fn readable(rows: Vec<Vec<String>>) -> Vec<Vec<String>> {
    rows.into_iter().map(|r| r.iter().map(|c| without_leaders(c)).collect()).collect()
}

/// §4.6 whole-table markdown: optional bold caption, header row, `---` separator, data rows padded.
pub fn markdown(caption: &str, columns: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    if !caption.is_empty() {
        s.push_str(&format!("**{caption}**\n\n"));
    }
    let esc = |v: &str| v.replace('|', "\\|");
    s.push_str(&format!(
        "| {} |\n",
        columns
            .iter()
            .map(|c| esc(c))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    s.push_str(&format!("|{}\n", " --- |".repeat(columns.len())));
    for r in rows {
        let cells: Vec<String> = (0..columns.len())
            .map(|k| esc(r.get(k).map(|s| s.as_str()).unwrap_or("")))
            .collect();
        s.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_longer_than_the_chunk_target_is_cut_between_rows_into_parts_within_it() {
        let columns: Vec<String> = ["", "2022", "2021"].iter().map(|s| s.to_string()).collect();
        let rows: Vec<Vec<String>> = (0..60).map(|i| vec![format!("Line item number {i}"), format!("{},000", i + 10), format!("{},500", i + 20)]).collect();
        let caption = "Consolidated Statements of Operations (in millions)";
        let parts = table_parts(caption, &columns, &rows, 1000);
        assert!(parts.len() > 1);
        assert_eq!(parts.first().map(|p| p.start), Some(0));
        assert_eq!(parts.last().map(|p| p.end), Some(rows.len()));
        assert!(parts.windows(2).all(|w| w[0].end == w[1].start && w[0].start < w[0].end), "{parts:?}");
        for p in &parts {
            let len = markdown(caption, &columns, &rows[p.clone()]).len();
            assert!(len <= 1000, "{p:?}: {len}");
            // As many rows as fit: one more row would pass the target.
            if p.end < rows.len() {
                assert!(markdown(caption, &columns, &rows[p.start..p.end + 1]).len() > 1000);
            }
        }
        // Within the target, one part; a single row longer than the target is a part of its own.
        assert_eq!(table_parts(caption, &columns, &rows[..5], 1000), vec![0..5]);
        let long = vec![vec!["x".repeat(1500), "1".into(), "2".into()], vec!["y".into(), "3".into(), "4".into()]];
        assert_eq!(table_parts("", &columns, &long, 1000), vec![0..1, 1..2]);
    }
}
