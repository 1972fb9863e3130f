//! Table footnotes (issue 3 deliverables 3–4, spec §4.6): the notes set under a table ("(a) As of
//! June 30, 2023, included $120.0 billion of assets pledged to the FDIC …") read as notes of that
//! table, each with the mark its cells carry ("parties(a)", "expenses¹" read as "expenses1",
//! "1,303.7 (b)", a column of "*"). Row documents then carry the notes their cells point at, so a
//! figure is retrieved, shown and verified with the qualification printed under it.
//!
//! A run of notes is taken only when at least one of its marks is carried by a cell or the
//! caption: a numbered paragraph under a table ("(1) the Company's …") is not a footnote of a
//! table that marks nothing.

use crate::ingest::{Block, BlockKind, Table, TableNote, TextLine};
use crate::corpus::BBox;

/// Footnote symbols; a run of one ("**") is one mark.
const SYMBOLS: [char; 4] = ['*', '†', '‡', '§'];

/// How far under a table (in ems of the note's type size) its first note may start, and how far
/// under one block of notes the next may start.
const NOTE_GAP_EMS: f32 = 3.0;

/// Attach to each table the notes set under it (see the module doc). `blocks` are the page's
/// blocks as [`crate::ingest::layout::blocks_with_tables`] made them.
pub fn attach(tables: &mut [Table], blocks: &[Block]) {
    let tops: Vec<f32> = tables.iter().map(|t| t.bbox[1]).collect();
    let runs: Vec<Vec<TableNote>> = tables.iter().map(|t| notes_under(t.bbox, &tops, blocks)).collect();
    for i in 0..tables.len() {
        // The notes under the table or, when another table is set close under it (a stack of
        // tables over one set of notes, as JPMorgan prints its credit tables), under the stack.
        let mut k = i;
        while runs[k].is_empty() {
            let Some(j) = table_under(tables, k, blocks) else { break };
            k = j;
        }
        let carried = table_marks(&tables[i]);
        if runs[k].iter().any(|n| carried.contains(&n.mark)) {
            tables[i].notes = runs[k].clone();
        }
    }
}

/// How low on its page a table ends (a share of the page height) for its notes to run on to the
/// top of the next page.
const LOW_ON_PAGE: f32 = 0.55;

/// Notes that run on to the top of the next page: a table set low on its page whose marks its own
/// notes do not explain takes the notes that open the next page (a stack of tables over notes
/// (a)–(g), with (h)–(m) at the top of the next page). The next page's first text, under its running
/// header and over any table of it, is read as notes across the columns of each table set low on
/// the page before it (the table or its notes ending low on it); a table takes that run when it carries a mark of it that none of its own
/// notes explain. The notes keep their place on the next page (`TableNote::page`); the page's
/// text keeps them too.
pub fn attach_carried_over(pages: &mut [crate::ingest::Page]) {
    for i in 1..pages.len() {
        let (before, after) = pages.split_at_mut(i);
        let (prev, next) = (&mut before[i - 1], &after[0]);
        let low = LOW_ON_PAGE * prev.height;
        // Where a table's notes end on its page (or the table, if it has none).
        let end = |t: &Table| t.notes.iter().filter(|n| n.page.is_none()).map(|n| n.bbox[3]).fold(t.bbox[3], f32::max);
        if !prev.tables.iter().any(|t| end(t) > low) {
            continue;
        }
        // The next page's first block under its running header must be text.
        let first = next
            .blocks
            .iter()
            .filter(|b| !matches!(b.kind, BlockKind::Header | BlockKind::Footer) && !b.lines.is_empty())
            .min_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]));
        let Some(first) = first.filter(|b| b.kind == BlockKind::Text) else { continue };
        let tops: Vec<f32> = next.tables.iter().map(|t| t.bbox[1]).collect();
        for t in prev.tables.iter_mut().filter(|t| end(t) > low) {
            let explained: Vec<&str> = t.notes.iter().map(|n| n.mark.as_str()).collect();
            let unexplained: Vec<String> =
                table_marks(t).into_iter().filter(|m| !explained.contains(&m.as_str())).collect();
            if unexplained.is_empty() {
                continue;
            }
            let region = [t.bbox[0], first.bbox[1], t.bbox[2], first.bbox[1]];
            let run = notes_under(region, &tops, &next.blocks);
            if !run.iter().any(|n| unexplained.contains(&n.mark)) {
                continue;
            }
            for mut n in run {
                if !t.notes.iter().any(|m| m.mark == n.mark) {
                    n.page = Some(next.page);
                    t.notes.push(n);
                }
            }
        }
    }
}

/// How far under a table (points) the next table of its stack may start; with a one-line title of
/// its own between them, how far the title's table may start.
const STACK_GAP: f32 = 24.0;
const STACK_TITLED_GAP: f32 = 48.0;

/// The table set next under table `k`, across the same columns, within [`STACK_GAP`] — or within
/// [`STACK_TITLED_GAP`] when no more than one line of text lies between them (the next table's
/// title: Verizon's "The following table presents the balances of assets and liabilities
/// measured at fair value on a nonrecurring basis", JPMorgan's "Derivatives gains/(losses)
/// recorded in income …" over the 2020 half of a table printed twice).
fn table_under(tables: &[Table], k: usize, blocks: &[Block]) -> Option<usize> {
    let t = &tables[k].bbox;
    let lines_between = |u: &BBox| {
        blocks
            .iter()
            .filter(|b| b.kind == BlockKind::Text)
            .flat_map(|b| &b.lines)
            .filter(|l| l.bbox[1] >= t[3] - 1.0 && l.bbox[3] <= u[1] + 1.0 && l.bbox[2] > t[0] && l.bbox[0] < t[2])
            .count()
    };
    (0..tables.len())
        .filter(|&j| {
            let u = &tables[j].bbox;
            let across = u[2].min(t[2]) - u[0].max(t[0]);
            let gap = u[1] - t[3];
            j != k
                && u[1] >= t[3] - 1.0
                && across >= 0.5 * (u[2] - u[0]).min(t[2] - t[0])
                && (gap <= STACK_GAP || gap <= STACK_TITLED_GAP && lines_between(u) <= 1)
        })
        .min_by(|&a, &b| tables[a].bbox[1].total_cmp(&tables[b].bbox[1]))
}

/// Every mark the table's cells and caption carry.
fn table_marks(t: &Table) -> Vec<String> {
    let mut out: Vec<String> = t.cells.iter().flat_map(|c| marks(&c.text)).collect();
    out.extend(marks(&t.caption));
    out.sort();
    out.dedup();
    out
}

/// The notes of the text blocks set under `t`, from the nearest down, while each block opens
/// with a note and the one before it ended in a note; none when another table comes first.
fn notes_under(table: BBox, table_tops: &[f32], blocks: &[Block]) -> Vec<TableNote> {
    let [x0, _, x1, bottom] = table;
    let width = (x1 - x0).max(1.0);
    let mut under: Vec<&Block> = blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Text && !b.lines.is_empty())
        // Under the table, starting below its left edge (a note hangs its mark a little out) and
        // not in the column beside it.
        .filter(|b| b.bbox[1] >= bottom - 2.0 && b.bbox[0] >= x0 - 24.0 && b.bbox[0] <= x0 + width / 2.0)
        .collect();
    under.sort_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]));
    let mut notes: Vec<TableNote> = vec![];
    let mut above = bottom;
    // Blocks already read as the note of a mark set apart (by their index in `under`).
    let mut taken: Vec<usize> = vec![];
    for (i, b) in under.iter().enumerate() {
        if taken.contains(&i) {
            continue;
        }
        let size = b.lines[0].size.max(1.0);
        if b.bbox[1] - above > NOTE_GAP_EMS * size + 2.0 {
            break;
        }
        // Another table between: what is under it is its own.
        if table_tops.iter().any(|&top| top > bottom + 1.0 && top < b.bbox[1]) {
            break;
        }
        let text = b.text.trim();
        if !text.is_empty() && text.chars().all(|c| matches!(c, '_' | '-' | '—' | '–') || c.is_whitespace()) {
            above = b.bbox[3];
            continue;
        }
        // A mark set apart from its note ("(a)" hung in the margin, a raised "(1)"): the block
        // beside it, starting on its line, is the note. Its first line starts right of the mark;
        // lines further down may start under it (Boeing's "(1)" raised beside "A total of 25,742
        // shares …", a block that goes on to "(2) On March 21, 2020, …" at the margin).
        let (b, apart) = match lone_mark(text) {
            Some(mark) => {
                let beside = (i + 1..under.len()).find(|&k| {
                    let n = under[k];
                    let x0 = n.lines[0].bbox[0];
                    !taken.contains(&k)
                        && n.bbox[1] < b.bbox[3] + size / 2.0
                        && x0 >= b.bbox[2] - 1.0
                        && x0 - b.bbox[2] < 4.0 * size
                });
                match beside {
                    Some(k) => {
                        taken.push(k);
                        // The other marks set apart beside the note's lines (Verizon's "(1)" and
                        // "(2)", each raised beside a line of one block) open notes there.
                        let mut apart = vec![(mark, b.bbox)];
                        for j in i + 1..under.len() {
                            let m = under[j];
                            if j == k || taken.contains(&j) {
                                continue;
                            }
                            if let Some(mk) = lone_mark(m.text.trim()) {
                                if under[k].lines.iter().skip(1).any(|l| beside_line(&m.bbox, l)) {
                                    taken.push(j);
                                    apart.push((mk, m.bbox));
                                }
                            }
                        }
                        (under[k], apart)
                    }
                    None => break,
                }
            }
            None => (*b, vec![]),
        };
        let (found, whole) = notes_of_block(b, apart);
        if found.is_empty() {
            break;
        }
        notes.extend(found);
        if !whole {
            break;
        }
        above = b.bbox[3];
    }
    notes
}

/// A "table" that is a run of footnotes: its first row opens with a footnote mark — "(a)",
/// "(1)" or a symbol, as a cell of its own or opening the cell's text; a bare letter or number
/// heads a row of a real table too ("T | Primary Tumor", "30 June 2020 | …") — followed by a
/// sentence of six words or more, and its cells are words, not figures: at most one cell in ten
/// (besides the marks) is a figure, and every row reads as prose.
pub fn reads_as_notes(t: &Table) -> bool {
    let mut rows: Vec<Vec<&str>> = vec![vec![]; t.n_rows];
    let mut cells: Vec<&crate::ingest::Cell> = t.cells.iter().filter(|c| !c.text.trim().is_empty()).collect();
    cells.sort_by_key(|c| (c.row, c.col));
    for c in &cells {
        if let Some(r) = rows.get_mut(c.row) {
            r.push(c.text.trim());
        }
    }
    let footnote_mark = |m: &str| m.starts_with('(') || m.starts_with(SYMBOLS);
    // The row's text after its mark, when it opens with one.
    let after_mark = |r: &[&str]| -> Option<String> {
        match r {
            [first, rest @ ..] if lone_mark(first).is_some() && footnote_mark(first) => {
                rest.first().is_some_and(|next| starts_words(next)).then(|| rest.join(" "))
            }
            [first, rest @ ..] if footnote_mark(first) => note_mark(first)
                .filter(|(mark, _)| !mark.is_empty())
                .map(|(_, text)| std::iter::once(text).chain(rest.iter().copied()).collect::<Vec<_>>().join(" ")),
            _ => None,
        }
    };
    let opens = |r: &[&str]| after_mark(r).is_some();
    let Some(first) = rows.iter().find(|r| !r.is_empty()) else { return false };
    if !after_mark(first).is_some_and(|text| text.split_whitespace().count() >= 6) {
        return false;
    }
    let marks = rows.iter().filter(|r| opens(r)).count();
    let figures = cells.iter().filter(|c| super::segments::is_value(&c.text)).count().saturating_sub(marks);
    let prose = |r: &[&str]| {
        let text = r.join(" ");
        let letters = text.chars().filter(|c| c.is_alphabetic()).count();
        let all = text.chars().filter(|c| !c.is_whitespace()).count();
        letters * 10 >= all * 7
    };
    let prose_after = |r: &[&str]| after_mark(r).is_some_and(|text| prose(&[text.as_str()]));
    figures * 10 <= cells.len() && rows.iter().filter(|r| !r.is_empty()).all(|r| prose_after(r) || prose(r))
}

/// A block that is a footnote mark alone: "(a)", "(12)", "1", "*".
fn lone_mark(text: &str) -> Option<String> {
    let inner = text.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(text);
    let n = inner.chars().count();
    let symbols = n > 0 && inner.chars().all(|c| SYMBOLS.contains(&c));
    let short = (1..=2).contains(&n) && inner.chars().all(char::is_alphanumeric);
    (symbols || short).then(|| inner.to_string())
}

/// The notes a block opens with, and whether they fill the whole block (a block whose notes end
/// before its last line goes on with text that is not a note). `apart` are the marks set apart
/// from the block: the first opens its first line, each other the line it lies beside
/// (`beside_line`). A general note ("Note: Table may not foot due to rounding.")
/// is kept with the mark "".
fn notes_of_block(b: &Block, mut apart: Vec<(String, BBox)>) -> (Vec<TableNote>, bool) {
    let right = b.bbox[2];
    let mut notes: Vec<TableNote> = vec![];
    let mut ended = true;
    // Where the text of a note opened by a mark set apart starts: its lines keep to it, and a line
    // back out at the marks' margin is not part of it ("nm - not meaningful" under Verizon's notes).
    let mut hanging: Option<f32> = None;
    for (k, line) in b.lines.iter().enumerate() {
        let text = line.text();
        let set_apart = apart
            .iter()
            .position(|(_, at)| if k == 0 { true } else { beside_line(at, line) })
            .map(|p| apart.remove(p));
        let opens = match set_apart {
            Some((mark, at)) => {
                hanging = Some(line.bbox[0]);
                Some((mark, text.trim(), union(&at, &line.bbox)))
            }
            None => {
                let found = note_mark(&text).map(|(mark, rest)| (mark, rest, line.bbox));
                if found.is_some() {
                    hanging = None;
                }
                found
            }
        };
        let outdented = hanging.is_some_and(|x| line.bbox[0] < x - 0.5 * line.size);
        if let Some((mark, rest, bbox)) = opens {
            notes.push(TableNote { mark, text: rest.to_string(), bbox, page: None });
        } else if ended || outdented {
            return (notes, false);
        } else if let Some(n) = notes.last_mut() {
            n.text.push(' ');
            n.text.push_str(text.trim());
            n.bbox = union(&n.bbox, &line.bbox);
        }
        ended = ends_paragraph(line, right);
    }
    (notes, true)
}

/// A mark set apart (`at`) lies beside `line`: on its baseline or raised over it, and left of it.
fn beside_line(at: &BBox, line: &TextLine) -> bool {
    at[3] > line.bbox[1] - 1.0 && at[1] < line.bbox[3] - 0.25 * line.size && at[2] <= line.bbox[0] + 1.0
}

/// A line that ends a sentence well short of the block's right edge ends its paragraph; a note
/// whose last sentence happens to end at the margin goes on to the next line.
fn ends_paragraph(line: &TextLine, right: f32) -> bool {
    let text = line.text();
    let t = text.trim_end();
    let last = t.chars().last();
    matches!(last, Some('.' | ':' | ';' | '?' | '!')) && line.bbox[2] < right - 2.0 * line.size
        || t.is_empty()
}

/// The mark a note line opens with and its text: "(a) As of …", "(12) Includes …", "* Not
/// meaningful", "† …", and a raised number set before its first word ("1 Includes …",
/// "1Includes …"), which must be followed by a capital. "Note: …" opens a general note, with
/// the mark "" (no cell points at it).
pub(crate) fn note_mark(line: &str) -> Option<(String, &str)> {
    let line = line.trim_start();
    for general in ["Note:", "Notes:", "NOTE:", "NOTES:"] {
        if let Some(rest) = line.strip_prefix(general) {
            return starts_words(rest.trim_start()).then(|| (String::new(), line));
        }
    }
    if let Some(inner_rest) = line.strip_prefix('(') {
        let close = inner_rest.find(')')?;
        let inner = &inner_rest[..close];
        let rest = inner_rest[close + 1..].trim_start();
        let n = inner.chars().count();
        if (1..=2).contains(&n) && inner.chars().all(|c| c.is_alphanumeric()) && starts_words(rest) {
            return Some((inner.to_string(), rest));
        }
        return None;
    }
    let sym_end = line.find(|c: char| !SYMBOLS.contains(&c)).unwrap_or(line.len());
    if sym_end > 0 {
        let rest = line[sym_end..].trim_start();
        return starts_words(rest).then(|| (line[..sym_end].to_string(), rest));
    }
    let digits_end = line.find(|c: char| !c.is_ascii_digit()).unwrap_or(line.len());
    if (1..=2).contains(&digits_end) {
        let rest = line[digits_end..].trim_start();
        let mut cs = rest.chars();
        if cs.next().is_some_and(char::is_uppercase) && cs.next().is_some_and(char::is_lowercase) {
            return Some((line[..digits_end].to_string(), rest));
        }
    }
    None
}

/// Text that reads as words (not a figure, not empty): what follows a note's mark.
fn starts_words(rest: &str) -> bool {
    rest.chars().next().is_some_and(char::is_alphabetic)
}

/// The footnote marks a cell's (or caption's) text ends with, as the keys notes are matched by:
/// "(a)" → "a", "parties(a)(b)" → "b", "a"; "expenses1" and "(loss)2" → "1", "2" (a raised
/// number glued to a word); "163 1", "0.00% (1)" → "1" (after a figure); "*"/"**"/"†" →
/// themselves, also as a cell of their own. A figure alone is never a mark: "(5)" is a negative
/// value, "Level 3" and "2023" are text. A parenthesised mark glued to a word inside the text
/// counts too ("sales(1) in the U.S.").
pub fn marks(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = text.trim_end();
    loop {
        if let Some(body) = rest.strip_suffix(')') {
            if let Some(open) = body.rfind('(') {
                let inner = &body[open + 1..];
                let before = body[..open].trim_end();
                let n = inner.chars().count();
                let letters = inner.chars().all(char::is_alphabetic);
                let digits = inner.chars().all(|c| c.is_ascii_digit());
                if (1..=2).contains(&n) && (letters || digits && (before.chars().any(char::is_alphabetic) || figure(before))) {
                    out.push(inner.to_string());
                    rest = before;
                    continue;
                }
            }
        }
        let body = rest.trim_end_matches(SYMBOLS);
        if body.len() < rest.len() {
            out.push(rest[body.len()..].to_string());
            rest = body.trim_end();
            continue;
        }
        let body = rest.trim_end_matches(|c: char| c.is_ascii_digit());
        let n = rest.len() - body.len();
        let word = body.chars().filter(|c| c.is_alphabetic()).count() >= 2;
        let glued = word && body.ends_with(|c: char| c.is_lowercase() || c == ')');
        // A raised number set a space after a figure ("163 1") or after a label's last word
        // ("Identifiable operating assets 1") where the label has no other figure and its last
        // word is lower-case ("Year 1", "Tier 1" and "Level 1" are names).
        let spaced = n == 1
            && out.is_empty()
            && body.strip_suffix(' ').is_some_and(|w| {
                let last = w.rsplit(' ').next().unwrap_or("");
                let lower_word = !last.is_empty() && last.chars().all(char::is_lowercase);
                figure(w) || word && lower_word && !w.chars().any(|c| c.is_ascii_digit())
            });
        if (1..=2).contains(&n) && (glued || spaced) {
            out.push(rest[body.len()..].to_string());
            rest = body.trim_end();
            continue;
        }
        break;
    }
    // Within the text, a mark glued to a word before more words: "comparable sales(1) in the U.S.",
    // or to an amount: "$40 - $51(1) Median $46", a cell of two lines. A mark the content draws
    // apart from its word is read a space after it (`layout::build_line`): "$51 (1) Median $46",
    // "sales (1) in" — after an amount any mark, after a word a number.
    let b = rest.as_bytes();
    for (open, _) in rest.match_indices('(') {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else { continue };
        let inner = &rest[open + 1..close];
        let spaced = open > 1 && b[open - 1] == b' ' && b[open - 2] != b' ';
        let amount = rest[..open].trim_end().rsplit(' ').next().is_some_and(|t| {
            figure(t) && t.ends_with(|c: char| c.is_ascii_digit()) && t.contains(['$', '€', '£', '%', ',', '.'])
        });
        let glued = open > 0 && (b[open - 1].is_ascii_lowercase() || (amount && (!spaced || b[open - 2].is_ascii_digit())))
            || spaced && b[open - 2].is_ascii_lowercase() && inner.bytes().all(|c| c.is_ascii_digit());
        let ends_word = b.get(close + 1).is_some_and(|&c| c == b' ');
        if glued && ends_word && (1..=2).contains(&inner.len()) && inner.bytes().all(|c| c.is_ascii_alphanumeric()) {
            out.push(inner.to_string());
        }
    }
    out
}

/// A figure as a table prints it: "163", "(17.5)", "0.00%", "$ 21,331", "2017".
fn figure(s: &str) -> bool {
    let s = s.trim();
    s.chars().any(|c| c.is_ascii_digit()) && s.chars().all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '%' | '$' | '(' | ')' | ' ' | '-' | '—' | '–'))
}

/// The marks the given texts (a row's cells, the headers of its figures, a cell's labels) carry.
pub fn marks_of(texts: &[&str]) -> Vec<String> {
    texts.iter().flat_map(|s| marks(s)).collect()
}

/// Of a table's notes as printed ("(b) As of …", `TableNote::printed`), those the given texts (a
/// cell's row and column labels) carry the marks of; general notes (no mark) are not pointed at.
pub fn pointed_at(printed: &[String], texts: &[&str]) -> Vec<String> {
    let keys = marks_of(texts);
    printed
        .iter()
        .filter(|p| note_mark(p).is_some_and(|(mark, _)| !mark.is_empty() && keys.contains(&mark)))
        .cloned()
        .collect()
}

fn union(a: &BBox, b: &BBox) -> BBox {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_read_off_the_end_of_a_label_or_figure_but_a_negative_figure_is_not_a_mark() {
        assert_eq!(marks("Assets pledged at Federal Reserve banks and FHLBs(b)"), vec!["b"]);
        assert_eq!(marks("Total pledged assets(a)(b)"), vec!["b", "a"]);
        assert_eq!(marks("Selling and distribution expenses1"), vec!["1"]);
        assert_eq!(marks("Net actuarial (loss) gain arising in current year2"), vec!["2"]);
        assert_eq!(marks("Other (income) expense (3)"), vec!["3"]);
        assert_eq!(marks("1,303.7 (a)"), vec!["a"]);
        assert_eq!(marks("*"), vec!["*"]);
        assert_eq!(marks("Compensatory plan**"), vec!["**"]);
        assert_eq!(marks("Identifiable operating assets 1"), vec!["1"]);
        assert_eq!(marks("163 1"), vec!["1"]);
        assert_eq!(marks("(17.5) 5"), vec!["5"]);
        assert_eq!(marks("0.00% (1)"), vec!["1"]);
        assert_eq!(marks("2013 (5)(6)"), vec!["6", "5"]);
        assert_eq!(marks("Increase (decrease) in calendar comparable sales(1) in the U.S."), vec!["1"]);
        // A cell of two lines, the mark at the end of the first (Boeing 2022 p111).
        assert_eq!(marks("$40 - $51(1) Median $46"), vec!["1"]);
        assert_eq!(marks("($4) - $5(2) Net $1"), vec!["2"]);
        // … and the same marks drawn apart from their figures, read a space after them.
        assert_eq!(marks("$40 - $51 (1) Median $46"), vec!["1"]);
        assert_eq!(marks("($4) - $5 (2) Net $1"), vec!["2"]);
        assert_eq!(marks("comparable sales (1) in the U.S."), vec!["1"]);
        assert!(marks("Section 3 (a) of the Act").is_empty());
        assert!(marks("the company (a) and").is_empty());
        for figure in ["(5)", "(1,234)", "2023", "Level 3", "Tier 1", "CET1", "(in millions)", "Tier 1", "Year 1", "2023 vs. 2022", "1 1/2", "Section 3(a) of the Act", "Gain (loss) on sale", "$ 161.3", ""] {
            assert!(marks(figure).is_empty(), "{figure:?} read as a mark");
        }
    }

    #[test]
    fn a_cell_is_shown_with_the_notes_its_labels_point_at() {
        let printed = vec![
            "Note: Table may not foot due to rounding.".to_string(),
            "(a) As of June 30, 2023, included $120.0 billion".to_string(),
            "(b) As of June 30, 2023, included $23.7 billion".to_string(),
            "* Not meaningful".to_string(),
        ];
        assert_eq!(pointed_at(&printed, &["Assets pledged at Federal Reserve banks and FHLBs(b)", "June 30, 2023"]), vec![printed[2].clone()]);
        assert_eq!(pointed_at(&printed, &["Growth*", "2023(a)"]), vec![printed[1].clone(), printed[3].clone()]);
        assert!(pointed_at(&printed, &["Total pledged assets", "June 30, 2023"]).is_empty());
    }

    #[test]
    fn a_note_line_opens_with_its_mark_and_a_word() {
        assert_eq!(note_mark("(a) As of June 30, 2023, included"), Some(("a".to_string(), "As of June 30, 2023, included")));
        assert_eq!(note_mark("(12) Includes"), Some(("12".to_string(), "Includes")));
        assert_eq!(note_mark("1 Includes operating expenses"), Some(("1".to_string(), "Includes operating expenses")));
        assert_eq!(note_mark("** Not meaningful"), Some(("**".to_string(), "Not meaningful")));
        assert_eq!(note_mark("Note: Table may not foot due to rounding."), Some((String::new(), "Note: Table may not foot due to rounding.")));
        for not_a_note in ["(in millions)", "(5)", "2023 was a year", "12 months ended", "100 Main Street", "Total pledged assets", "(a)"] {
            assert_eq!(note_mark(not_a_note), None, "{not_a_note:?} read as a note");
        }
    }
}
