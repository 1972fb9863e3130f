//! Rule-based tables (spec §4.1 step 5 "native rule-based table detection"; issue 3 deliverable 3):
//! whitespace-aligned statements of a 10-K and ruled grids.
//!
//! A line is cut into *segments* at gaps wider than ~0.8 em. Lines with two or more segments where a
//! later segment is a number or short are *row-like*; two-column prose (two long segments) is not.
//! Runs of row-like lines (with label-only lines between them: section labels, wrapped row labels)
//! become a table region; its columns come from the horizontal projection of the value segments, so
//! a long row label or a spanning header cannot merge two value columns. Horizontal rules around a
//! region extend it to the header they frame. `$` and `%` signs and a lone `)` join the value
//! they belong to, so `$ (1,234)` is one cell "$ (1,234)" and parenthesised negatives survive.

use super::layout::{join_words, Graphics, Layout, Line, Word, GUTTER_EMS};
use super::{Cell, Page, Table};
use crate::corpus::BBox;

#[derive(Debug, Clone)]
struct Seg {
    words: Vec<Word>,
    x0: f32,
    x1: f32,
}

impl Seg {
    fn text(&self) -> String {
        join_words(&self.words)
    }
    /// `self.text() == t`, without building the text (`segments` asks it of every segment).
    fn reads(&self, t: &str) -> bool {
        // A word with right-to-left letters, which `join_words` would reorder, matches no part of
        // the (left-to-right) texts asked about.
        let mut parts = t.split(' ');
        self.words.iter().all(|w| parts.next() == Some(w.text.as_str())) && parts.next().is_none()
    }
    fn n_words(&self) -> usize {
        self.words.len()
    }
}

struct Row<'a> {
    line: &'a Line,
    segs: Vec<Seg>,
    caption: bool,
    /// A line of the page's other column, set between the table's rows (see `detect_lines`).
    beside: bool,
    /// `row_like(&segs)` and `has_value(&segs)`, worked out once: region finding asks them of
    /// every line again and again, and each reads the segments' text anew.
    like: bool,
    value: bool,
}

impl<'a> Row<'a> {
    fn new(line: &'a Line) -> Self {
        let mut r = Row { line, segs: vec![], caption: is_caption(line), beside: false, like: false, value: false };
        r.set_segs(segments(line));
        r
    }

    fn set_segs(&mut self, segs: Vec<Seg>) {
        self.like = row_like(&segs);
        self.value = has_value(&segs);
        self.segs = segs;
    }

    fn row_like(&self) -> bool {
        !self.caption && self.like
    }

    fn has_value(&self) -> bool {
        self.value
    }
}

pub(crate) fn is_number(s: &str) -> bool {
    // A single word (an opening bracket first at most) is one part: no need to split it.
    if !s.char_indices().any(|(i, c)| c.is_whitespace() || c == '(' && i > 0) {
        return is_single_number(s);
    }
    // A value with its share or error beside it ("63 (18.5%)", "1,234 12%") is still one value cell.
    let spaced = s.replace('(', " (");
    let parts: Vec<&str> = spaced.split_whitespace().collect();
    if parts.len() >= 2
        && parts.len() <= 3
        && !parts.iter().any(|p| matches!(*p, "$" | "€" | "£"))
        && parts.iter().all(|p| is_single_number(p))
    {
        return true;
    }
    is_single_number(s)
}

fn is_single_number(s: &str) -> bool {
    // Every character of a number is one of these (what is trimmed below, then the figure's own):
    // a word with any other is not one, and most words are told at their first letter.
    let numeric = |c: char| {
        c.is_ascii_digit() || c.is_whitespace() || matches!(c, ',' | '.' | '*' | 'x' | 'X' | '$' | '€' | '£' | '(' | ')' | '%' | '-' | '−' | '–' | '—')
    };
    if !s.chars().all(numeric) {
        return false;
    }
    // A dash stands for zero/nil in a statement column.
    if matches!(
        s.trim(),
        "—" | "–" | "-" | "$—" | "$ —" | "$ –" | "$ -" | "$–" | "$-"
    ) {
        return true;
    }
    let t = s
        .trim()
        .trim_start_matches('$')
        .trim_start_matches('€')
        .trim_start_matches('£')
        .trim();
    let t = t
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim_end_matches('%')
        .trim();
    let t = t
        .trim_start_matches(['-', '−', '–'])
        .trim_start_matches('$')
        .trim();
    if t.is_empty() {
        return matches!(s.trim(), "—" | "–" | "-" | "— " | "$—" | "$ —");
    }
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    digits > 0
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '*' | 'x' | 'X'))
}

/// Two numeric words side by side on a row, more than half an em apart, are two values (tight
/// columns such as `n  %Pos`), unless the second is the share beside a count ("63 (18.5%)"); so
/// are a figure and a dollar sign after it, a quarter of an em apart.
/// Below half an em the gap is a word space ("December 31, 2022, 2021 and 2020").
fn separate_values(prev: &Word, next: &Word, size: f32) -> bool {
    let gap = next.fx0 - prev.fx1;
    // A dollar sign never closes a figure: it opens the next one, however tight the columns
    // ("$ (473)  $ 166", a word space apart). A euro sign may follow its figure ("1 234 €").
    let currency = matches!(next.text.as_str(), "$" | "$(" | "$ (");
    gap > if currency { 0.25 } else { 0.5 } * size
        && prev.text != "$"
        && is_number(&prev.text)
        && (is_number(&next.text) || currency)
        && !(next.text.starts_with('(') && next.text.ends_with("%)"))
}

/// Dots at least this many in a row (spaced or not) are a leader, not a full stop or an ellipsis.
const LEADER_DOTS: usize = 4;

/// The words end in a dot leader: `LEADER_DOTS` dots or more, spaces between them or not
/// ("Revenue........", "Total . . . . .").
fn ends_in_leader(words: &[Word]) -> bool {
    let mut dots = 0;
    for w in words.iter().rev() {
        let t = w.text.trim_end();
        let run = t.chars().rev().take_while(|&c| matches!(c, '.' | '…' | '·')).map(|c| if c == '…' { 3 } else { 1 }).sum::<usize>();
        dots += run;
        if dots >= LEADER_DOTS {
            return true;
        }
        // Carry on to the word before only when this one is dots alone (". . . .").
        if run == 0 || t.chars().any(|c| !matches!(c, '.' | '…' | '·')) {
            return false;
        }
    }
    false
}

/// The text with its dot leaders taken out ("Total revenue ........" → "Total revenue"): a leader
/// is typography that leads the eye to a figure, not part of a label (documents and row labels
/// read without it).
pub(crate) fn without_leaders(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let mut dots = 0;
    let flush = |out: &mut String, run: &mut String, dots: &mut usize| {
        if *dots < LEADER_DOTS {
            out.push_str(run);
        } else if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
        run.clear();
        *dots = 0;
    };
    for c in text.chars() {
        match c {
            '.' | '·' => {
                dots += 1;
                run.push(c);
            }
            '…' => {
                dots += 3;
                run.push(c);
            }
            ' ' if dots > 0 => run.push(c),
            _ => {
                flush(&mut out, &mut run, &mut dots);
                out.push(c);
            }
        }
    }
    flush(&mut out, &mut run, &mut dots);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn segments(line: &Line) -> Vec<Seg> {
    let mut segs: Vec<Seg> = vec![];
    let gap = 0.8 * line.size.max(1.0);
    // A footnote mark set small after a figure ("59,983 ⁽ᵃ⁾", folded in by `fold_scripts`) is
    // part of its cell but does not widen it: the columns are where the figures are.
    let script = |w: &Word| w.size <= 0.8 * line.size && is_note_mark(&w.text);
    for w in &line.words {
        match segs.last_mut() {
            Some(s) if script(w) && (-0.3..=SCRIPT_MARK_GAP).contains(&((w.fx0 - s.x1) / line.size.max(1.0))) => {
                s.words.push(w.clone());
            }
            // Two numbers side by side are two values even when the columns are tight. (The gap
            // is from the last word, a footnote mark included; the figure before is the last
            // word that is not a mark.)
            // A dot leader ("Total revenue ........ $ 4,795.5") runs up to the figure it leads
            // to: a currency sign after it, however close, opens the next cell. (A page number
            // after a leader stays with its entry: a contents page is not a table.)
            Some(s)
                if w.fx0 - s.words.last().map_or(s.x1, |p| p.fx1.max(s.x1)) <= gap
                    && !(w.text.starts_with(['$', '€', '£', '¥']) && ends_in_leader(&s.words))
                    && !s
                        .words
                        .iter()
                        .rev()
                        .find(|p| !script(p))
                        .is_some_and(|p| separate_values(p, w, line.size)) =>
            {
                s.x1 = s.x1.max(w.fx1);
                s.words.push(w.clone());
            }
            _ => segs.push(Seg {
                words: vec![w.clone()],
                x0: w.fx0,
                x1: w.fx1,
            }),
        }
    }
    // `$` belongs to the value after it; `%` and a lone `)` to the value before it.
    let mut out: Vec<Seg> = vec![];
    let mut pending: Option<Seg> = None;
    for s in segs {
        let opens = ["$", "€", "£", "$ (", "(", "$("].iter().any(|t| s.reads(t));
        let closes = ["%", ")", ")%", "%)"].iter().any(|t| s.reads(t));
        let s = match pending.take() {
            Some(mut p) => {
                p.words.extend(s.words);
                p.x1 = s.x1;
                p
            }
            None => s,
        };
        if opens {
            pending = Some(s);
            continue;
        }
        if closes {
            if let Some(prev) = out.last_mut() {
                prev.words.extend(s.words);
                prev.x1 = s.x1;
                continue;
            }
        }
        out.push(s);
    }
    if let Some(p) = pending {
        out.push(p);
    }
    out
}

/// The first word of a caption line, lower-cased (see `is_caption`): a label, followed by its
/// number ("Table 3.4"), or a note's lead-in, followed by a colon ("Source:").
const LABEL_WORDS: [&str; 7] = ["table", "figure", "fig", "chart", "exhibit", "graph", "box"];
const NOTE_WORDS: [&str; 4] = ["source", "sources", "note", "notes"];

/// A caption, title or note line ("Table 3.4: …", "Figure 2", "Source: …", "Notes: …") frames a
/// table and is never one of its rows (§4.1 step 5: regions exclude captions and notes).
fn is_caption(line: &Line) -> bool {
    // The line's first word (in reading order) is one of its words: a line with none of these
    // words is not joined up to look.
    let caption_word = |w: &Word| {
        let w = w.text.trim_end_matches([':', '.']);
        LABEL_WORDS.iter().chain(&NOTE_WORDS).any(|c| w.eq_ignore_ascii_case(c))
    };
    if !line.words.iter().any(caption_word) {
        return false;
    }
    let t = line.text();
    let mut words = t.split_whitespace();
    let first = words
        .next()
        .unwrap_or("")
        .trim_end_matches([':', '.'])
        .to_lowercase();
    let second = words.next().unwrap_or("");
    let numbered = second
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c.is_ascii_uppercase() && second.len() <= 4);
    if LABEL_WORDS.contains(&first.as_str()) {
        numbered
    } else if NOTE_WORDS.contains(&first.as_str()) {
        t.split_whitespace().next().is_some_and(|w| w.ends_with(':'))
    } else {
        false
    }
}

/// Running text that a superscript or a justified gap cut into pieces: a first piece of ten or more
/// words with no figure (or pair of dashes) beside it.
fn prose(segs: &[Seg]) -> bool {
    // A figure beside the long label makes it a statement row; "2006)" closing a sentence's
    // parenthesis does not, nor does a lone dash.
    let figure = |s: &&Seg| {
        let t = s.text();
        is_number(&t)
            && t.chars().any(|c| c.is_ascii_digit())
            && {
                let u = t.trim_start_matches(['$', '€', '£', ' ']);
                u.starts_with('(') == u.ends_with(')')
            }
    };
    let dashes = segs[1..]
        .iter()
        .filter(|s| is_number(&s.text()) && !s.text().chars().any(|c| c.is_ascii_digit()))
        .count();
    segs.first().is_some_and(|s| s.n_words() >= 10)
        && !segs[1..].iter().any(|s| figure(&s))
        && dashes < 2
}

fn row_like(segs: &[Seg]) -> bool {
    segs.len() >= 2
        && !prose(segs)
        && segs[1..]
            .iter()
            .any(|s| is_number(&s.text()) || s.n_words() <= 4)
}

/// A year ("2019", "1996/7", "2007*") heads a column; it is not a value of the row.
fn is_year(s: &str) -> bool {
    let t = s.trim().trim_end_matches(['*', ')']).trim_start_matches(['(', 'F', 'Y']);
    let head: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest = &t[head.len()..];
    head.len() == 4
        && head.parse::<u32>().is_ok_and(|y| (1900..=2100).contains(&y))
        && (rest.is_empty() || rest.starts_with(['/', '-', '–']) && rest.len() <= 5)
}

/// A figure of the row, not a column heading.
pub(crate) fn is_value(s: &str) -> bool {
    is_number(s) && !is_year(s) && !is_day_and_year(s)
}

/// The second line of a heading "December / 31, 2022": a day of the month, a comma and a year.
fn is_day_and_year(s: &str) -> bool {
    let Some((day, year)) = s.split_once(',') else { return false };
    let day = day.trim();
    (1..=2).contains(&day.len()) && day.bytes().all(|b| b.is_ascii_digit()) && is_year(year.trim())
}

fn has_value(segs: &[Seg]) -> bool {
    segs.len() >= 2 && segs[1..].iter().any(|s| is_value(&s.text()))
}

/// Detect tables on one page.
///
/// A column of running text beside a table (two-column pages: an IRS notice, a 10-Q page with a
/// metrics table in its right column) shares baselines with the table's rows, so a first reading
/// takes its lines for row labels. Where a table holds such a column, the page is read again
/// without it (`text_beside`).
pub fn detect(lay: &Layout, graphics: &Graphics, width: f32, _height: f32) -> Vec<Table> {
    let mut lines: Vec<&Line> = lay.lines.iter().filter(|l| l.dir == 0).collect();
    lines.sort_by(|a, b| a.ftop.total_cmp(&b.ftop).then(a.fx0.total_cmp(&b.fx0)));
    let folded = fold_offset_figures(fold_scripts(&lines));
    let Reading { mut tables, mut loose } = detect_lines(&folded, graphics, width);
    // A page set in two columns is read a column at a time (`page_columns`); the tables of the
    // first reading that are set across the page stay whole.
    let first: Vec<BBox> = tables.iter().map(|t| t.bbox).collect();
    let mut right: Vec<Beside> = page_columns(&folded, graphics, &first);
    if !right.is_empty() {
        Reading { tables, loose } = detect_split(&folded, &right, graphics, width);
    }
    // Two tables set side by side in a page's two columns are read one column at a time (the
    // right-hand tables apart from the rest of the page): a few rounds, until no more are found.
    // Read across both, they may make no table at all (too sparse a grid), so the regions that
    // did not make one are looked at too.
    for _ in 0..SIDE_BY_SIDE_ROUNDS {
        if tables.is_empty() && loose.is_empty() {
            break;
        }
        let boxes: Vec<BBox> = tables.iter().map(|t| t.bbox).chain(loose.iter().copied()).collect();
        let more = if right.is_empty() {
            side_by_side(&boxes, &folded, &right)
        } else {
            side_by_side(&boxes, &without(&folded, &right), &right)
        };
        if more.is_empty() {
            break;
        }
        right.extend(more);
        Reading { tables, loose } = detect_split(&folded, &right, graphics, width);
    }
    // A reading without one column can find a table beside more of it (the part of the text
    // column next to rows the first reading had cut off): a few rounds, until none is found.
    let mut beside: Vec<Beside> = vec![];
    let mut kept: Option<Vec<Line>> = None;
    for _ in 0..TEXT_BESIDE_ROUNDS {
        let more = text_beside(&tables, kept.as_deref().unwrap_or(&folded));
        if more.is_empty() {
            break;
        }
        beside.extend(more);
        let k = without(&folded, &beside);
        tables = detect_split(&k, &right, graphics, width).tables;
        kept = Some(k);
    }
    tables
}

/// The tables of `lines`, the pieces within `right` read apart from the rest (see `side_by_side`).
fn detect_split(lines: &[Line], right: &[Beside], graphics: &Graphics, width: f32) -> Reading {
    let by_top = |a: &Line, b: &Line| a.ftop.total_cmp(&b.ftop).then(a.fx0.total_cmp(&b.fx0));
    let mut rest = without(lines, right);
    rest.sort_by(by_top);
    // A footnote mark laid out on the other column's baseline is a line of its own once the
    // columns are apart: it folds into its own column's line now.
    let fold_apart = |lines: Vec<Line>| {
        if right.is_empty() { lines } else { fold_scripts(&lines.iter().collect::<Vec<_>>()) }
    };
    let rest = fold_apart(rest);
    let mut reading = detect_lines(&rest, graphics, width);
    if !right.is_empty() {
        let mut apart = within(lines, right);
        apart.sort_by(by_top);
        let apart = fold_apart(apart);
        let more = detect_lines(&apart, graphics, width);
        reading.tables.extend(more.tables);
        reading.loose.extend(more.loose);
        reading.tables.sort_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]).then(a.bbox[0].total_cmp(&b.bbox[0])));
    }
    reading
}

/// The tables found in a set of lines, and the boxes of the runs of row-like lines that made
/// none (`side_by_side` looks for two tables in them).
struct Reading {
    tables: Vec<Table>,
    loose: Vec<BBox>,
}

/// The line ends the sentence that introduces the table below it ("… on the Consolidated
/// statements of income:"): one piece of three words or more ending in a colon. Read across a
/// page's two columns it was a piece of a longer line; read in its column it is short enough to
/// pass for a heading of the table. (A row label ending in a colon, "Net income per common
/// share:", or a heading over the columns, "… carrying amount of hedged items:", is no
/// sentence's end: the sentence runs on into it through two lines above, see `runs_on`.)
fn introduces(segs: &[Seg]) -> bool {
    segs.len() == 1 && segs[0].n_words() >= 3 && segs[0].text().trim_end().ends_with(':')
}

/// The line `upper` is a line of a sentence that runs on into `lower`, set right under it: one
/// piece of five words or more whose last word ends in no stop (a row label is shorter:
/// "Operating lease cost(1)" over "Finance lease cost:").
fn runs_on(upper: &Row, lower: &Row) -> bool {
    let text = upper.segs.first().map(Seg::text).unwrap_or_default();
    upper.segs.len() == 1
        && upper.segs[0].n_words() >= 5
        && !text.trim_end().ends_with(['.', ':', ';', '?', '!'])
        && lower.line.ftop - upper.line.fbot <= lower.line.size
}

/// The line is the end of a sentence (the last line of a paragraph over a table), not a heading:
/// one piece of two words or more ending in a full stop after a word of four letters or a number
/// ("… ended June 30, 2023.", not "Dec." or "Inc.").
fn ends_sentence(segs: &[Seg]) -> bool {
    let words = segs.first().map_or(&[][..], |g| &g.words[..]);
    let last = words.last().map_or("", |w| w.text.as_str());
    let stem = last.strip_suffix('.').unwrap_or("");
    segs.len() == 1
        && words.len() >= 2
        && !stem.is_empty()
        && (stem.chars().count() >= 4 || stem.chars().all(|c| c.is_ascii_digit()))
        && stem.chars().all(|c| c.is_alphanumeric() || c == ',' || c == ')' || c == '%')
}

/// A line at the label column that is a sentence running on across the value columns (the "The
/// following table presents …" between two tables), not a row label: six words or more, mostly
/// letters, reaching an em past where the first value column of the rows so far begins.
fn sentence_across(seg: &Seg, cols: &[(f32, f32)], size: f32) -> bool {
    let first = cols.iter().map(|c| c.0).fold(f32::MAX, f32::min);
    seg.words.len() >= 6 && sentence_words(&seg.words) && seg.x1 > first + size
}

/// The line `rows[j]`, right of a table's rows that end at `x1`, is a line of the page's other
/// column, passed over (see `detect_lines`): it reads as running text, no row with figures lies in
/// that column within a few lines of it (a table of its own there is read by `side_by_side`), and
/// the next row keeps clear of that column (a row reaching into it is a table across both).
fn other_column_line(rows: &[Row], j: usize, x1: f32, size: f32) -> bool {
    let line = &rows[j];
    let (gutter, reach) = (GUTTER_EMS * size, OTHER_COLUMN_REACH * size);
    // Rows are in top-to-bottom order: the neighbours within reach, up and down.
    let up = rows[..j].iter().rev().take_while(|o| line.line.ftop - o.line.ftop <= reach);
    let down = rows[j + 1..].iter().take_while(|o| o.line.ftop - line.line.ftop <= reach);
    line.segs.len() == 1
        && line.line.fx0 >= x1 + gutter
        && sentence_words(&line.segs[0].words)
        && !up.chain(down).any(|o| o.has_value() && o.line.fx0 >= x1 + gutter)
        && rows[j + 1..].iter().take(NEXT_ROW_LINES).find(|r| r.row_like()).is_some_and(|r| r.line.fx1 < x1 + gutter)
}

/// How far from a line of the other column (in ems) rows with figures in that column are looked for.
const OTHER_COLUMN_REACH: f32 = 6.0;

/// Lines after a line of the other column within which the table's next row is looked for.
const NEXT_ROW_LINES: usize = 6;

/// Lines of the page's other column passed over above a table's first row, looking for its header.
const MAX_PASSED: usize = 4;

/// Readings of a page with the right-hand table of a pair set apart.
const SIDE_BY_SIDE_ROUNDS: usize = 3;

/// Readings of a page without the text columns found beside its tables (see `detect`).
const TEXT_BESIDE_ROUNDS: usize = 3;
/// Tables of a page looked at for a text column beside them.
const TEXT_BESIDE_TABLES: usize = 64;

/// Label-only lines in a row that a region of rows goes on past (section labels, wrapped labels).
const MAX_LABEL_LINES: usize = 3;
/// … or, when every one of them is a short label at the label column, this many: NIKE's market-risk
/// table heads each debt with "Interest Rate Risk" / "Japanese Yen Functional Currency" /
/// "Long-term Japanese Yen debt — Fixed" / "rate" before its rows.
const MAX_SHORT_LABEL_LINES: usize = 5;
/// Words of a short label (`MAX_SHORT_LABEL_LINES`).
const SHORT_LABEL_WORDS: usize = 6;

/// The label-only row is a short label set at the label column (`left`).
fn short_label(r: &Row, left: f32) -> bool {
    r.segs.len() == 1 && r.segs[0].n_words() <= SHORT_LABEL_WORDS && r.line.fx0 <= left + 2.5 * r.line.size
}

fn detect_lines(folded: &[Line], graphics: &Graphics, width: f32) -> Reading {
    let lines: Vec<&Line> = folded.iter().collect();
    let mut rows: Vec<Row> = lines.iter().map(|l| Row::new(l)).collect();
    // A caption wraps: single-piece lines right under a caption line belong to it.
    for k in 1..rows.len() {
        let gap = rows[k].line.ftop - rows[k - 1].line.fbot;
        if rows[k - 1].caption
            && !rows[k].caption
            && rows[k].segs.len() == 1
            && gap <= 0.5 * rows[k].line.size
        {
            rows[k].caption = true;
        }
    }

    // Regions: runs of row-like lines, tolerating a few label-only lines in between.
    let mut regions: Vec<(usize, usize)> = vec![];
    let mut i = 0;
    while i < rows.len() {
        if !rows[i].row_like() {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        let mut j = i + 1;
        let mut misses = 0;
        // Of those, the short labels at the label column (see MAX_SHORT_LABEL_LINES).
        let mut short_misses = 0;
        let mut left = rows[i].line.fx0;
        // The right edge of the rows so far, once a labelled row with figures has been seen (a
        // header row alone does not show where the table ends).
        let labelled_row = |r: &Row| r.has_value() && !is_number(&r.segs[0].text());
        let mut right = rows[i].line.fx1;
        let mut labelled = labelled_row(&rows[i]);
        // Lines of the page's other column, right of the rows, passed over.
        let mut other_column = false;
        // Value columns seen so far in the region.
        let mut cols: Vec<(f32, f32)> = rows[i].segs[1..].iter().map(|s| (s.x0, s.x1)).collect();
        let in_cols = |s: &Seg, cols: &[(f32, f32)]| cols.iter().any(|c| s.x0.max(c.0) < s.x1.min(c.1));
        while j < rows.len() {
            let r = &rows[j];
            let size = r.line.size.max(rows[j - 1].line.size);
            let gap = r.line.ftop - rows[j - 1].line.fbot;
            // A blank line between row groups does not end a table whose next row carries
            // values in the same columns (a heading row after a blank starts the next table).
            let aligned = r.row_like()
                && r.has_value()
                && r.segs[1..].iter().filter(|s| in_cols(s, &cols)).count() >= 2;
            if r.caption || gap > 2.0 * size && !(aligned && gap <= 3.2 * size) {
                break;
            }
            // Past lines of the other column, a row reaching into that column is not this table's.
            if other_column && r.row_like() && r.line.fx1 >= right + GUTTER_EMS * size {
                break;
            }
            if r.row_like() {
                end = j;
                misses = 0;
                short_misses = 0;
                left = left.min(r.line.fx0);
                right = right.max(r.line.fx1);
                labelled |= labelled_row(r);
                cols.extend(r.segs[1..].iter().map(|s| (s.x0, s.x1)));
            } else if labelled && other_column_line(&rows, j, right, size) {
                // A paragraph of the page's other column set beside the table on baselines of its
                // own (a table in the left column of two): the table goes on past its lines,
                // without them.
                rows[j].beside = true;
                other_column = true;
            } else if r.segs.len() == 1
                && r.segs[0].n_words() <= 12
                && (misses < MAX_LABEL_LINES
                    || misses < MAX_SHORT_LABEL_LINES && short_misses == misses && short_label(r, left))
                && (r.line.fx0 <= left + 2.5 * r.line.size && !sentence_across(&r.segs[0], &cols, size)
                    || in_cols(&r.segs[0], &cols) && gap <= 0.8 * size
                        && (rows[end].has_value() || rows[end].segs.len() >= 3))
            {
                // A label-only line at the label column (section label, wrapped label) or a
                // cell wrapped under a value column of a full row; a line elsewhere (a
                // centred title, the heading of the next table) ends the region.
                misses += 1;
                short_misses += usize::from(short_label(r, left));
            } else {
                break;
            }
            j += 1;
        }
        // Lines of the other column after the last row are nobody's rows.
        let stop = j.min(rows.len());
        for r in &mut rows[end + 1..stop] {
            r.beside = false;
        }
        regions.push((start, end));
        i = end + 1;
    }
    let regions = with_headings_set_apart(&rows, regions);
    let (mut tables, mut loose) = (vec![], vec![]);
    let mut prev_end: Option<usize> = None;
    for (s, e, heading) in regions {
        let region = &rows[s..=e];
        let n_row_like = region.iter().filter(|r| r.row_like()).count();
        let n_values = region.iter().filter(|r| r.has_value()).count();
        if n_row_like < 2 || (n_row_like < 3 && n_values == 0) {
            continue;
        }
        // Two rows make a table only if their value cells line up.
        if n_row_like < 3 && !values_align(region) {
            continue;
        }
        // Header lines just above the first row: short, aligned with the region. Beside a column
        // of the page's other text (rows set between lines of it), what lies a gutter right of the
        // rows is that column's: whole lines of it are passed over, pieces of it cut off.
        let other_column = region.iter().any(|r| r.beside);
        let rx0 = region.iter().filter(|r| !r.beside).map(|r| r.line.fx0).fold(f32::MAX, f32::min);
        let rx1 = region.iter().filter(|r| r.row_like()).map(|r| r.line.fx1).fold(f32::MIN, f32::max);
        let off = |g: &Seg, size: f32| g.x0 >= rx1 + GUTTER_EMS * size;
        let mut top = heading.unwrap_or(s);
        let mut k = top;
        let (mut added, mut passed) = (s - top, 0);
        while k > prev_end.map_or(0, |p| p + 1) && added < 3 {
            let above = &rows[k - 1];
            let size = above.line.size;
            // Only beside the other column are pieces cut off (and the line's pieces copied).
            let kept: Option<Vec<Seg>> =
                other_column.then(|| above.segs.iter().filter(|g| !off(g, size)).cloned().collect());
            let segs: &[Seg] = kept.as_deref().unwrap_or(&above.segs);
            if segs.is_empty() && passed < MAX_PASSED {
                passed += 1;
                k -= 1;
                continue;
            }
            let gap = rows[top].line.ftop - above.line.fbot;
            let short = segs.iter().all(|g| g.n_words() <= 8) && segs.iter().map(Seg::n_words).sum::<usize>() <= 16;
            if gap <= 1.0 * size
                && short
                && !above.caption
                && !ends_sentence(segs)
                && !(introduces(segs) && k >= 3 && runs_on(&rows[k - 2], above) && runs_on(&rows[k - 3], &rows[k - 2]))
                && segs.iter().map(|g| g.x1).fold(f32::MIN, f32::max) > rx0
            {
                for r in &mut rows[k..top] {
                    r.beside = true;
                }
                if let Some(segs) = kept {
                    rows[k - 1].set_segs(segs);
                }
                k -= 1;
                top = k;
                added += 1;
            } else {
                break;
            }
        }
        prev_end = Some(e);
        match build(&rows[top..=e], &rows[s..=e], graphics, width) {
            Some(t) => tables.push(t),
            None => loose.extend(crate::corpus::union(rows[top..=e].iter().filter(|r| !r.beside).map(|r| &r.line.bbox))),
        }
    }
    // A grid drawn with rules is read from its rules; text-aligned tables inside it give way.
    // A lattice that is only part of a table (one ruled block; the row goes on with figures just
    // outside the rules) gives way to the whitespace reading of the whole table.
    let lattices = super::ruled::detect(&lines, graphics);
    let partial = |r: &Table| {
        lines.iter().any(|l| {
            let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
            cy > r.bbox[1] && cy < r.bbox[3] && l.words.iter().any(|w| {
                let (cx, wy) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
                let near = (cx > r.bbox[2] && w.bbox[0] - r.bbox[2] < 3.0 * l.size)
                    || (cx < r.bbox[0] && r.bbox[0] - w.bbox[2] < 3.0 * l.size);
                near && is_value(&w.text)
                    && !lattices.iter().any(|o| {
                        cx >= o.bbox[0] && cx <= o.bbox[2] && wy >= o.bbox[1] && wy <= o.bbox[3]
                    })
            })
        })
    };
    let ruled: Vec<Table> = lattices
        .iter()
        .filter(|r| !partial(r) && !chart_grid(&r.grid()))
        // A small ruled block inside a much larger whitespace-aligned table is part of it, and so
        // is a ruled box around its header (its figures all lie below the box) and a ruled body
        // under a header set without rules.
        .filter(|r| {
            !tables.iter().any(|t| {
                share(&r.bbox, &t.bbox) >= 0.5
                    && (share(&t.bbox, &r.bbox) < 0.15 || header_box(&r.bbox, t) || ruled_body(&r.bbox, t))
            })
        })
        .cloned()
        .collect();
    if !ruled.is_empty() {
        // Grids side by side (one per country group) cover a text "table" read across all of
        // them together, though no single grid covers a third of it.
        tables.retain(|t| {
            !ruled.iter().any(|r| covered(&t.bbox, &r.bbox))
                && ruled.iter().map(|r| share(&t.bbox, &r.bbox)).sum::<f32>() < 0.5
        });
        tables.extend(ruled);
        tables.sort_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]));
    }
    // Legends, bar charts and diagrams line up like tables; the drawing under the text tells.
    tables.retain(|t| super::figure::figure(t, graphics, &lines).is_none());
    // Footnotes set with their marks hung out in a column of their own line up like a table of
    // two columns; they are text, and notes of the table above (`notes`).
    tables.retain(|t| !super::notes::reads_as_notes(t));
    // Captions: a short line right above the table, not one of another table's rows.
    let boxes: Vec<BBox> = tables.iter().map(|t| t.bbox).collect();
    for (k, t) in tables.iter_mut().enumerate() {
        // A line across the table's columns that is not one of another table's rows.
        let over = |l: &Line| {
            let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
            let in_other =
                boxes.iter().enumerate().any(|(j, b)| j != k && cy > b[1] && cy < b[3] && l.fx0 < b[2] && l.fx1 > b[0]);
            l.fx1 > t.bbox[0] && l.fx0 < t.bbox[2] && !in_other
        };
        // A line of prose is no caption, unless it ends by introducing what follows ("…
        // measurements (in millions):"), however long.
        let ends_in_colon = |l: &Line| l.words.last().is_some_and(|w| w.text.ends_with(':'));
        let above = lines
            .iter()
            .filter(|l| l.fbot <= t.bbox[1] + 0.5 && t.bbox[1] - l.fbot < 3.0 * l.size && (l.words.len() <= 20 || ends_in_colon(l)) && over(l))
            .max_by(|a, b| a.fbot.total_cmp(&b.fbot));
        if let Some(l) = above {
            // A line of units ("(In millions)") names no table: the caption is what is set over it,
            // with the units after it.
            let units_over = |u: &Line| over(u) && u.fbot > l.ftop - UNITS_LEADING_EMS * u.size.max(l.size);
            let (l, units) = match is_units_line(l).then(|| set_above(&lines, l, f32::MAX, &units_over)).flatten() {
                Some(up) => (up, Some(l.text())),
                None => (*l, None),
            };
            let caption = titled_caption(&lines, l, &over)
                .or_else(|| introducing_sentence(&lines, l, &over))
                .or_else(|| titled_period(&lines, l, &over))
                .unwrap_or_else(|| l.text());
            t.caption = match units {
                Some(u) => format!("{caption} {u}"),
                None => caption,
            };
        }
    }
    Reading { tables, loose }
}

/// Most lines a block of column headings set apart over its table holds (`with_headings_set_apart`).
const HEADING_BLOCK_LINES: usize = 6;

/// How far (in lines of its size) a block of column headings may stand over its table's rows.
const HEADING_BLOCK_GAP: f32 = 3.0;

/// Regions of rows (first, last) with, for each, where its column headings start when they are
/// set apart from its rows. Headings stacked in several lines over each column ("Gross /
/// Carrying / Amount", "Accumulated / Amortization") line up like rows of their own; set a little
/// further over the first row than a line's leading (a rule drawn between, Microsoft's notes),
/// they made a table without a figure, and the table under them had no headings. A region
/// without a figure, of short cells only, right over a region with figures (no line between,
/// at most `HEADING_BLOCK_GAP` lines apart) whose cells each stand over one of that region's
/// columns, is that region's headings.
fn with_headings_set_apart(rows: &[Row], regions: Vec<(usize, usize)>) -> Vec<(usize, usize, Option<usize>)> {
    // A line of headings: no figure, short cells.
    let heading_line = |r: &Row| !r.has_value() && !r.caption && r.segs.iter().all(|g| g.n_words() <= 4);
    let mut out: Vec<(usize, usize, Option<usize>)> = vec![];
    let mut held: Option<(usize, usize)> = None;
    for (s, e) in regions {
        let mut heading = None;
        if let Some((hs, he)) = held.take() {
            // Between them, heading lines of the region's own (a line of dates) at most.
            let between = &rows[he + 1..s];
            let (last, next) = (&rows[he], between.first().unwrap_or(&rows[s]));
            let size = rows[s].line.size.max(last.line.size);
            let close = between.len() <= 2
                && between.iter().all(heading_line)
                && next.line.ftop - last.line.fbot <= HEADING_BLOCK_GAP * size;
            let cols: Vec<(f32, f32)> =
                rows[s..=e].iter().filter(|r| r.has_value()).flat_map(|r| r.segs[1..].iter().map(|g| (g.x0, g.x1))).collect();
            let over = |g: &Seg| cols.iter().any(|&(x0, x1)| g.x0 < x1 && g.x1 > x0);
            if close && !cols.is_empty() && last.segs.len() >= 2 && last.segs[1..].iter().all(over) {
                heading = Some(hs);
            } else {
                out.push((hs, he, None));
            }
        }
        if heading.is_none() && e - s < HEADING_BLOCK_LINES && rows[s..=e].iter().all(heading_line) {
            held = Some((s, e));
        } else {
            out.push((s, e, heading));
        }
    }
    out.extend(held.map(|(hs, he)| (hs, he, None)));
    out
}

/// The phrases a statement's period line opens with, under the statement's title.
const PERIOD_OPENINGS: [&str; 8] =
    ["for the", "years ended", "year ended", "fiscal years ended", "fiscal year ended", "three months ended", "six months ended", "nine months ended"];

/// A statement's period line ("For the Years Ended December 28, 2019, December 29, 2018 and
/// December 30, 2017") under its title ("Consolidated Statements of Comprehensive Income"): the
/// title set close over it, then the period. `None` when `line` is no period line (a sentence
/// ends in a full stop or a colon) or no short heading is set over it.
fn titled_period(lines: &[&Line], line: &Line, keep: &dyn Fn(&Line) -> bool) -> Option<String> {
    let text = line.text();
    let lower = text.to_lowercase();
    if !PERIOD_OPENINGS.iter().any(|p| lower.starts_with(p)) || text.ends_with(['.', ':']) {
        return None;
    }
    let heading = |t: &&Line| is_run_in_heading(t) && !is_units_line(t);
    let mut title = set_close_above(lines, line, keep).filter(heading)?;
    // The company's letterhead between them ("PepsiCo, Inc. and Subsidiaries") names no table.
    if is_entity_name(&title.text()) {
        title = set_close_above(lines, title, keep).filter(heading)?;
    }
    Some(format!("{} {text}", title.text()))
}

/// Words a line of units may have ("(in millions, except per share data)").
const UNITS_WORDS: usize = 8;

/// A line that only gives the table's units: short and wholly in parentheses ("(In millions)",
/// "(Dollars in thousands)").
fn is_units_line(line: &Line) -> bool {
    let t = line.text();
    let t = t.trim();
    line.words.len() <= UNITS_WORDS && t.starts_with('(') && t.ends_with(')') && t[1..t.len() - 1].find([')', '(']).is_none()
}

/// Lines of a headnote above a table that a title line may head ("Table 324. Arrests by Sex and
/// Age: 2009" over four lines of "[In thousands … See text]").
const HEADNOTE_LINES: usize = 6;

/// The table's title when the line right above it (`nearest`) ends a closely set block — a
/// headnote — that opens with a numbered label line ("Table 324. …"): that line, and the lines
/// of the title it wraps onto before the headnote's bracket. `None` when the block has no such
/// line (the nearest line is the caption, as before).
fn titled_caption(lines: &[&Line], nearest: &Line, over: &dyn Fn(&Line) -> bool) -> Option<String> {
    // A sentence that introduces the table ("… are listed below:") is what it says of it.
    if nearest.words.last().is_some_and(|w| w.text.ends_with(':')) {
        return None;
    }
    let mut block = vec![nearest];
    while block.len() <= HEADNOTE_LINES {
        let cur = block[block.len() - 1];
        if is_label_caption(cur) {
            break;
        }
        block.push(set_close_above(lines, cur, over)?);
    }
    let top = block.len() - 1;
    if top == 0 || !is_label_caption(block[top]) {
        return None;
    }
    // "Figure 2.4 illustrates …" is a sentence that names a figure, not a title.
    let after_label = block[top].words.get(2).and_then(|w| w.text.chars().next());
    if after_label.is_some_and(char::is_lowercase) {
        return None;
    }
    let mut title = block[top].text();
    // The title goes on under its label line when that line is the label alone ("Exhibit 1")
    // or is set full (the title wrapped).
    let widest = block.iter().map(|l| l.fx1 - l.fx0).fold(0.0, f32::max);
    let wrapped = block[top].words.len() <= 2 || block[top].fx1 - block[top].fx0 >= 0.8 * widest;
    let mut taken = 0;
    for l in block[..top].iter().rev() {
        let t = l.text();
        if !wrapped || taken == 2 || t.starts_with(['[', '(']) {
            break;
        }
        // A statement's letterhead names the company ("Ulta Beauty, Inc.") over the statement's
        // title: the source names it already, and on every statement it would match every query
        // that names the company.
        if is_entity_name(&t) {
            continue;
        }
        title.push(' ');
        title.push_str(&t);
        taken += 1;
    }
    Some(title)
}

/// The legal forms that end a company's name.
const LEGAL_FORMS: [&str; 15] = [
    "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc", "lp", "plc", "n.v", "ag", "se", "s.a",
];

/// A short line that is a company's name: it ends in a legal form ("Ulta Beauty, Inc."), or in
/// one and its subsidiaries ("PepsiCo, Inc. and Subsidiaries").
fn is_entity_name(t: &str) -> bool {
    let t = t.trim();
    let lower = t.to_lowercase();
    let t = ["and subsidiaries", "and its subsidiaries"]
        .iter()
        .find_map(|s| lower.ends_with(s).then(|| &t[..t.len() - s.len()]))
        .unwrap_or(t);
    let words: Vec<&str> = t.split_whitespace().collect();
    words.len() <= 6
        && words
            .last()
            .is_some_and(|w| LEGAL_FORMS.contains(&w.trim_end_matches('.').trim_end_matches(',').to_lowercase().as_str()))
}

/// The line set right above `cur` in the same block (less than 0.8 em of leading between them)
/// among those `keep` accepts.
fn set_close_above<'a>(lines: &[&'a Line], cur: &Line, keep: &dyn Fn(&Line) -> bool) -> Option<&'a Line> {
    set_above(lines, cur, 0.8 * cur.size, keep)
}

/// The line set right above `cur`, less than `leading` points above it, among those `keep`
/// accepts.
fn set_above<'a>(lines: &[&'a Line], cur: &Line, leading: f32, keep: &dyn Fn(&Line) -> bool) -> Option<&'a Line> {
    lines
        .iter()
        .copied()
        .filter(|l| l.fbot <= cur.ftop + 0.5 && cur.ftop - l.fbot < leading && keep(l))
        .max_by(|a, b| a.fbot.total_cmp(&b.fbot))
}

/// How far over a line of units (in ems of the larger type) the line it qualifies may be set: a
/// blank line's worth ("The components of inventories were as follows:" over "(In millions)").
const UNITS_LEADING_EMS: f32 = 1.5;

/// Lines of a paragraph above a table that the sentence introducing it may span.
const INTRO_LINES: usize = 4;

/// The sentence that introduces the table, when the line right above it ends one: with a colon
/// ("… The following table presents the effects of derivatives on our Consolidated Statements of
/// Earnings for fiscal 2017 and 2016:") or a full stop ("The table below sets forth … consumer
/// loans, excluding credit card, by class."). From the sentence's start, up to `INTRO_LINES`
/// closely set lines up, rather than its last line alone, and from the last sentence's start on
/// that line ("measurement purposes. We calculate ARR as follows:"). `None` when the line ends
/// neither way or is the whole sentence; and, after a full stop, when the sentence's start is not
/// within reach (a long paragraph's last line is then the caption, as before).
fn introducing_sentence(lines: &[&Line], nearest: &Line, over: &dyn Fn(&Line) -> bool) -> Option<String> {
    let last = nearest.words.last()?.text.trim_end_matches(['"', '”', '’', ')']);
    let colon = last.ends_with(':');
    if !colon && !last.ends_with('.') {
        return None;
    }
    let mut block = vec![nearest];
    // The block reached the paragraph's first line (no line set close above it), and the heading
    // set over it, if any.
    let mut top = false;
    let mut heading: Option<&Line> = None;
    while block.len() < INTRO_LINES {
        let cur = block[block.len() - 1];
        if sentence_start(&cur.text()).is_some() {
            break;
        }
        let Some(next) = set_close_above(lines, cur, over) else {
            top = true;
            break;
        };
        if opens_sentence_under(cur, next) {
            top = true;
            heading = is_run_in_heading(next).then_some(next);
            break;
        }
        block.push(next);
    }
    // After a full stop, a line that holds the sentence's start is the caption as it is (its
    // first sentence is as much the table's: "1. Financial Statements. See Index …").
    if !colon && block.len() == 1 {
        return None;
    }
    let text = block.iter().rev().map(|l| l.text()).collect::<Vec<_>>().join(" ");
    match sentence_start(&text) {
        Some(k) => Some(text[k..].to_string()),
        // The paragraph opens the sentence: the lines from its first, if there are several, under
        // their heading ("Pension Plans — The fair values for the pension plans … are as follows:").
        None if block.len() > 1 && (colon || top && text.starts_with(char::is_uppercase)) || heading.is_some() => {
            Some(match heading.map(|h| h.text()) {
                Some(h) if h.ends_with(':') => format!("{h} {text}"),
                Some(h) => format!("{h} — {text}"),
                None => text,
            })
        }
        None => None,
    }
}

/// Words a heading set on a line of its own over a paragraph may have.
const HEADING_WORDS: usize = 8;

/// A heading over a paragraph: a short line of words that ends no sentence ("Nonaccrual loans",
/// "NOTE 14: INCOME TAXES", "Derivative Impact on the Statements of Income:"); not a line of
/// years or figures ("2017 2016 2015").
fn is_run_in_heading(line: &Line) -> bool {
    let words = line.words.iter().filter(|w| w.text.starts_with(char::is_alphabetic)).count();
    line.words.len() <= HEADING_WORDS
        && words * 2 > line.words.len()
        && line.words.last().is_some_and(|w| !w.text.ends_with(['.', '?', '!', ';', ',']))
}

/// `line` opens a sentence (or a paragraph) under the line set close `above` it: it starts with
/// a capital, and the line above ends a sentence, or is set in another face (a heading in bold:
/// "Nonaccrual loans" over "The following table provides …"), or stops short of it by four ems
/// or more (a heading, or a paragraph's last line).
fn opens_sentence_under(line: &Line, above: &Line) -> bool {
    let (Some(first), Some(end)) = (line.words.first(), above.words.last()) else { return false };
    first.text.starts_with(char::is_uppercase)
        && (end.text.trim_end_matches(['"', '”', '’', ')']).ends_with(['.', '?', '!', ':'])
            || end.font != first.font
            || above.fx1 < line.fx1 - 4.0 * line.size)
}

/// Where the last sentence of `text` starts: after the last full stop (or `?`/`!`, a closing
/// quote or bracket allowed) followed by a space and a capital, unless the stop ends an
/// abbreviation ("U.S. Dollar", "No. 5").
fn sentence_start(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut found = None;
    for (i, _) in text.match_indices(' ') {
        let next_upper = text[i + 1..].chars().next().is_some_and(char::is_uppercase);
        if !next_upper || i == 0 {
            continue;
        }
        let before = text[..i].trim_end_matches(['"', '”', '’', ')']);
        if !before.ends_with(['.', '?', '!']) {
            continue;
        }
        let word = before[..before.len() - 1].rsplit(' ').next().unwrap_or("");
        let abbreviation = word.chars().count() == 1 && word.chars().all(char::is_alphabetic)
            || word.contains('.')
            || ["No", "Nos", "Inc", "Co", "Corp", "Ltd", "Mr", "Ms", "Dr", "vs", "St"].contains(&word);
        if !abbreviation && b.get(i + 1).is_some() {
            found = Some(i + 1);
        }
    }
    found
}

/// A caption line that is a numbered label ("Table 3.4 …"), not a note ("Source: …").
fn is_label_caption(line: &Line) -> bool {
    is_caption(line)
        && line
            .words
            .first()
            .is_some_and(|w| LABEL_WORDS.contains(&w.text.trim_end_matches([':', '.']).to_lowercase().as_str()))
}

/// A run of a line's words between gaps as wide as a column gutter (`GUTTER_EMS`).
struct Piece<'a> {
    words: &'a [Word],
    x0: f32,
    x1: f32,
    top: f32,
    bot: f32,
    size: f32,
}

fn pieces(line: &Line) -> Vec<Piece<'_>> {
    let gap = GUTTER_EMS * line.size.max(1.0);
    let mut out = vec![];
    let mut start = 0;
    for k in 1..=line.words.len() {
        if k < line.words.len() && line.words[k].fx0 - line.words[k - 1].fx1 <= gap {
            continue;
        }
        let words = &line.words[start..k];
        start = k;
        if words.is_empty() {
            continue;
        }
        out.push(Piece {
            words,
            x0: words.iter().map(|w| w.fx0).fold(f32::MAX, f32::min),
            x1: words.iter().map(|w| w.fx1).fold(f32::MIN, f32::max),
            top: line.ftop,
            bot: line.fbot,
            size: line.size,
        });
    }
    out
}

/// Letters among the words' characters, and all their characters but spaces.
fn letters_of(words: &[Word]) -> (usize, usize) {
    words.iter().flat_map(|w| w.text.chars()).fold((0, 0), |(l, a), c| {
        (l + usize::from(c.is_alphabetic()), a + usize::from(!c.is_whitespace()))
    })
}

/// Words of a sentence: three or more, mostly letters.
fn sentence_words(words: &[Word]) -> bool {
    let (letters, all) = letters_of(words);
    words.len() >= 3 && letters * 10 >= all * 6
}

/// A piece of a sentence (`sentence_words`).
fn prose_piece(p: &Piece) -> bool {
    sentence_words(p.words)
}

/// A piece of a sentence: words of one (`prose_piece`), or it carries on the sentence above
/// (`opens_lower`), or three words or more that end a clause ("2023 or 2022.", "$1.5 billion,
/// consisting of:"). A row label is a name: "Investment-grade", "Total".
fn in_sentence(p: &Piece) -> bool {
    let ends_clause = p.words.last().is_some_and(|w| w.text.ends_with(['.', ',', ':', ';']));
    prose_piece(p) || opens_lower(p) || p.words.len() >= 3 && ends_clause
}

/// The piece carries on the sentence of the line above: it opens in lower case.
fn opens_lower(p: &Piece) -> bool {
    p.words
        .first()
        .and_then(|w| w.text.chars().find(|c| c.is_alphanumeric()))
        .is_some_and(char::is_lowercase)
}

/// The pieces (top to bottom) read as wrapped running text: mostly sentence words, five words a
/// line on average, and most lines set close under another carry on its sentence in lower case.
/// A table's row labels are short and open in capitals; a wrapped label is one line in several.
fn running_text(side: &[&Piece]) -> bool {
    let n = side.len();
    let words: usize = side.iter().map(|p| p.words.len()).sum();
    let prose = side.iter().filter(|p| prose_piece(p)).count();
    let (pairs, carried) = closely_set(side);
    n >= 3 && words * 2 >= 9 * n && prose * 10 >= 7 * n && pairs >= 2 && carried * 2 >= pairs
}

/// Pairs of pieces (top to bottom) set close one under the other, and how many of them carry on
/// the sentence of the piece above.
fn closely_set(side: &[&Piece]) -> (usize, usize) {
    let (mut pairs, mut carried) = (0, 0);
    for w in side.windows(2) {
        let gap = w[1].top - w[0].bot;
        if gap > -0.3 * w[1].size && gap <= w[1].size {
            pairs += 1;
            // A sentence runs on into the next line: it opens in lower case, or the line above
            // (words of a sentence) ends mid-sentence and the next goes on in words of one
            // (legal prose wraps at "… of JPMorgan / Chase’s 2022 Form 10-K …").
            let mid_sentence = || {
                let last = w[0].words.last().map_or("", |x| x.text.as_str());
                prose_piece(w[0]) && prose_piece(w[1]) && !last.ends_with(['.', ':', ';', '?', '!'])
            };
            carried += usize::from(opens_lower(w[1]) || mid_sentence());
        }
    }
    (pairs, carried)
}

/// Pieces (top to bottom) that carry on, in lower case, the sentence of a piece set close above
/// them (a list of names, each in capitals, does not).
fn carried_on(side: &[&Piece]) -> usize {
    side.windows(2)
        .filter(|w| {
            let gap = w[1].top - w[0].bot;
            gap > -0.3 * w[1].size && gap <= w[1].size && prose_piece(w[0]) && opens_lower(w[1])
        })
        .count()
}

/// The pieces are a table of its own: most of its lines with a figure open with a worded label
/// ("Weekly  $ 71.15", "Total assets  $ 1,355,123"). An exhibit index is one table whose
/// descriptions wrap like running text; what lies beside them ("8-K  2.1  4/30/2013") has no
/// labels of its own.
fn labelled(other: &[&Piece]) -> bool {
    let mut lines: Vec<Vec<&Piece>> = vec![];
    // The pieces of a line come one after another.
    for p in other {
        match lines.last_mut() {
            Some(l) if l[0].top == p.top => l.push(p),
            _ => lines.push(vec![p]),
        }
    }
    let (mut rows, mut named) = (0, 0);
    for l in &mut lines {
        l.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        if l.iter().any(|p| is_value(&join_words(p.words))) {
            rows += 1;
            named += usize::from(worded(l[0]));
        }
    }
    rows >= 2 && named * 10 >= rows * 6
}

/// Words, not a figure: a row's label ("Weekly", "Total assets").
fn worded(p: &Piece) -> bool {
    let (letters, all) = letters_of(p.words);
    letters >= 3 && letters * 2 >= all && !is_value(&join_words(p.words))
}

/// A row of a table set across the strip `g0`–`g1`: something on the left, and on the right
/// figures only, from the first (a table in the right-hand column labels its rows: "Right-of-use
/// assets  $ 8,399"; a label wrapped onto a second line there opens with words or a year:
/// "2020  $ 234,844").
fn row_across(ps: &[Piece], (g0, g1): (f32, f32)) -> bool {
    // Sides from the middle of the strip: a figure column may start a hair inside it.
    let middle = (g0 + g1) / 2.0;
    let mut right: Vec<&Piece> = ps.iter().filter(|p| p.x0 >= middle).collect();
    right.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    // Every word of the piece is a figure or a currency sign ("$  2,278,112  $  2,144,257"; not
    // "90 or more days past due").
    let figure = |p: &Piece| {
        !p.words.is_empty()
            && p.words.iter().all(|w| is_value(&w.text) || w.text.chars().all(|c| matches!(c, '$' | '€' | '£' | '¥' | '(')))
    };
    ps.iter().any(|p| p.x1 <= middle) && right.first().is_some_and(|p| figure(p))
}

/// Where text is left out of a second reading of the page: the pieces that lie within `x` and
/// whose line's middle lies within `y`.
#[derive(Debug, Clone, Copy)]
struct Beside {
    x: (f32, f32),
    y: (f32, f32),
}

/// The pieces (of `lines`, cut into `cut`) within the table's box: lines whose middle lies in its
/// height, pieces that reach into its width.
fn pieces_in<'p>(b: &BBox, lines: &[Line], cut: &'p [Vec<Piece>]) -> Vec<&'p Piece<'p>> {
    let mid = |l: &Line| (l.ftop + l.fbot) / 2.0;
    lines
        .iter()
        .zip(cut)
        .filter(|(l, _)| mid(l) >= b[1] && mid(l) <= b[3])
        .flat_map(|(_, ps)| ps.iter())
        .filter(|p| p.x1 > b[0] && p.x0 < b[2])
        .collect()
}

/// The lines above `top` (`up`) or below `bot`, nearest first, by their middles.
fn nearest_first(lines: &[Line], top: f32, bot: f32, up: bool) -> Vec<usize> {
    let mid = |l: &Line| (l.ftop + l.fbot) / 2.0;
    let mut order: Vec<usize> =
        (0..lines.len()).filter(|&i| if up { mid(&lines[i]) < top } else { mid(&lines[i]) > bot }).collect();
    order.sort_by(|&a, &b| {
        let (ma, mb) = (mid(&lines[a]), mid(&lines[b]));
        if up { mb.total_cmp(&ma) } else { ma.total_cmp(&mb) }
    });
    order
}

/// The pieces' median type size, and the strips at least a gutter wide that no piece crosses,
/// left to right.
fn strips_in(inside: &[&Piece]) -> (f32, Vec<(f32, f32)>) {
    let mut sizes: Vec<f32> = inside.iter().map(|p| p.size).collect();
    sizes.sort_by(f32::total_cmp);
    let size = sizes.get(sizes.len() / 2).copied().unwrap_or(1.0).max(1.0);
    let mut spans: Vec<(f32, f32)> = inside.iter().map(|p| (p.x0, p.x1)).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut strips = vec![];
    let mut end = f32::MIN;
    for (a, b) in spans {
        if end > f32::MIN && a - end >= GUTTER_EMS * size {
            strips.push((end, a));
        }
        end = end.max(b);
    }
    (size, strips)
}

/// Columns of running text that tables of the first reading hold as row labels (see `detect`).
///
/// For each table: a strip at least a gutter wide, inside the table, that no piece of a line in the
/// table's height crosses; on one side of it, pieces that read as running text (`running_text`:
/// by themselves, or as pieces of sentences together with the column's lines just beyond the
/// table) beside a table of its own (`labelled`), and that go on for three lines or more on that
/// side above or below the table, two of the four nearest being sentences. The column is left out over
/// the table's height and on through those lines (a paragraph going on above the table, whose lines
/// would join its header rows).
fn text_beside(tables: &[Table], lines: &[Line]) -> Vec<Beside> {
    let mut out = vec![];
    let cut: Vec<Vec<Piece>> = lines.iter().map(pieces).collect();
    let mid = |l: &Line| (l.ftop + l.fbot) / 2.0;
    // A real page has a few tables; a hostile one with thousands is not searched for text
    // columns (each table looks at every line).
    for (k, t) in tables.iter().enumerate().take(TEXT_BESIDE_TABLES) {
        let (top, bot) = (t.bbox[1], t.bbox[3]);
        let inside = pieces_in(&t.bbox, lines, &cut);
        if inside.len() < 6 {
            continue;
        }
        let (size, strips) = strips_in(&inside);
        // A column of text is one column: it lies beyond the first strip or the last one.
        let ends = [(strips.first(), true), (strips.last(), false)];
        for (strip, left) in ends {
            let Some(&(g0, g1)) = strip else { continue };
            // A piece that runs across the middle of the strip spans the gutter.
            let crosses = |p: &Piece| p.x0 < (g0 + g1) / 2.0 && p.x1 > (g0 + g1) / 2.0;
            let on_side = |p: &Piece| if left { p.x1 <= g0 } else { p.x0 >= g1 };
            let mut side: Vec<&Piece> = inside.iter().copied().filter(|p| on_side(p)).collect();
            side.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.x0.total_cmp(&b.x0)));
            let other: Vec<&Piece> = inside.iter().copied().filter(|p| if left { p.x0 >= g1 } else { p.x1 <= g0 }).collect();
            if !labelled(&other) {
                continue;
            }
            let sx0 = side.iter().map(|p| p.x0).fold(f32::MAX, f32::min);
            let sx1 = side.iter().map(|p| p.x1).fold(f32::MIN, f32::max);
            // Beyond the table the column's lines may run on into the strip (its lines inside the
            // table happen to be short), up to its middle.
            let mid_strip = (g0 + g1) / 2.0;
            let near = |p: &Piece| {
                (if left { p.x1 <= mid_strip } else { p.x0 >= mid_strip }) && p.x1 > sx0 && p.x0 < sx1
            };
            // Lines outside the table on this side, nearest first, up and down; a line with a
            // piece across the strip ends the column there.
            let mut reach = (top, bot);
            let (mut beyond, mut sentences) = (0, 0);
            // The column's pieces within the table and the nearest few beyond it, up and down.
            let mut column = side.clone();
            for up in [true, false] {
                let order = nearest_first(lines, top, bot, up);
                let mut edge = if up { top } else { bot };
                let mut seen = 0;
                for i in order {
                    let l = &lines[i];
                    let gap = if up { edge - l.fbot } else { l.ftop - edge };
                    if gap > 2.0 * size || cut[i].iter().any(&crosses) {
                        break;
                    }
                    let ps: Vec<&Piece> = cut[i].iter().filter(|p| near(p)).collect();
                    if ps.is_empty() {
                        continue;
                    }
                    // The column ends above the next table of the first reading in it: a line
                    // inside another table whose pieces on this side are a row of it (pieces
                    // apart, or a figure, or a row label), not a line of text read across both
                    // columns.
                    let in_other = tables.iter().enumerate().any(|(j, o)| {
                        j != k
                            && mid(l) >= o.bbox[1]
                            && mid(l) <= o.bbox[3]
                            && ps.iter().any(|p| p.x1 > o.bbox[0] && p.x0 < o.bbox[2])
                    });
                    // A label ("Total") whose figures lie across the gutter is a row of it too.
                    let label_of_row = || {
                        ps.iter().all(|p| !in_sentence(p)) && cut[i].iter().any(|p| is_value(&join_words(p.words)))
                    };
                    let row = || ps.len() >= 2 || ps.iter().any(|p| is_value(&join_words(p.words))) || label_of_row();
                    if in_other && row() {
                        break;
                    }
                    seen += 1;
                    beyond += 1;
                    if seen <= 4 {
                        sentences += usize::from(ps.iter().any(|p| prose_piece(p)));
                        column.extend(ps.iter().copied());
                    }
                    edge = if up { l.ftop } else { l.fbot };
                    if up {
                        reach.0 = reach.0.min(l.ftop);
                    } else {
                        reach.1 = reach.1.max(l.fbot);
                    }
                }
            }
            // A column heading over a table's text column is one or two lines; running text
            // goes on for three lines or more, two of them sentences near the table.
            // The column reads as running text: its pieces within the table do, or (a table over
            // as few as two lines of it) they are pieces of sentences and read so with the lines
            // beyond.
            let mut running = || {
                let prose_side = side.iter().filter(|p| in_sentence(p)).count() * 10 >= 7 * side.len();
                column.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.x0.total_cmp(&b.x0)));
                running_text(&side) || prose_side && running_text(&column)
            };
            if beyond >= 3 && sentences >= 2 && running() {
                let x = if left { (f32::MIN, mid_strip) } else { (mid_strip, f32::MAX) };
                out.push(Beside { x, y: reach });
            }
        }
    }
    out
}

/// Right-hand tables of pairs set side by side in a page's two columns, each with its own labels,
/// headings and rows (a 10-Q's "Selected metrics" beside "Selected metrics (continued)"): one
/// reading across the page makes one table of both, rows of one interleaved with rows of the other.
///
/// For each table of the reading: a strip at least a gutter wide, inside the table, that no piece
/// of a line in the table's height crosses; on both sides of it a table of its own (`labelled`,
/// three lines or more with a figure), set on lines of its own: fewer than half the lines of the
/// right side share a baseline with a line of the left. A table printed in two halves to save room
/// (the same rows go on at the right, row by row) keeps its baselines and stays one table; so does
/// a table whose right-hand columns have no labels of their own. The right side is set apart over
/// the table's height and on through the lines above and below it that do not cross the strip.
fn side_by_side(boxes: &[BBox], lines: &[Line], known: &[Beside]) -> Vec<Beside> {
    let mut out: Vec<Beside> = vec![];
    let cut: Vec<Vec<Piece>> = lines.iter().map(pieces).collect();
    for b in boxes.iter().take(TEXT_BESIDE_TABLES) {
        let (top, bot) = (b[1], b[3]);
        let inside = pieces_in(b, lines, &cut);
        if inside.len() < 12 {
            continue;
        }
        let (size, strips) = strips_in(&inside);
        for (g0, g1) in strips {
            let mut left: Vec<&Piece> = inside.iter().copied().filter(|p| p.x1 <= g0).collect();
            let mut right: Vec<&Piece> = inside.iter().copied().filter(|p| p.x0 >= g1).collect();
            for side in [&mut left, &mut right] {
                side.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.x0.total_cmp(&b.x0)));
            }
            if value_lines(&left) < 3 || value_lines(&right) < 3 || !labelled(&left) || !labelled(&right) {
                continue;
            }
            let mut tops: Vec<f32> = right.iter().map(|p| p.top).collect();
            tops.dedup();
            let shared = tops
                .iter()
                .filter(|&&y| left.iter().any(|p| (p.top - y).abs() <= 0.25 * size))
                .count();
            if shared * 2 >= tops.len() {
                continue;
            }
            let reach = keeping_to_sides(lines, &cut, (top, bot), (g0, g1), size, &|_| false);
            // From the middle of the strip: a footnote's mark hangs out into the gutter.
            let region = Beside { x: ((g0 + g1) / 2.0, f32::MAX), y: reach };
            let seen = |b: &Beside| b.x.0 <= g1 && b.y.0 <= reach.1 && b.y.1 >= reach.0;
            if !known.iter().chain(&out).any(seen) {
                out.push(region);
            }
            break;
        }
    }
    out
}

/// How much of the page's text width, from each side, a page's column gutter stays clear of: the
/// gutter of a two-column page lies in its middle half or so (a sidebar column is a third).
const COLUMN_GUTTER_MARGIN: f32 = 0.25;

/// Lines a column must hold beside the other over a stretch of the page for the page to be read
/// in two columns there.
const COLUMN_MIN_LINES: usize = 5;

/// Words a line of running text in a column holds at the least (a list of names does not).
const COLUMN_SENTENCE_WORDS: usize = 6;

/// How much of its column's width a line of running text spans at the least.
const COLUMN_FILL: f32 = 0.6;

/// A page set in two columns (JPMorgan's 10-Qs: a note's text and tables in each column): the
/// stretches of the page where a strip at least a gutter wide (`GUTTER_EMS`), in the middle of the
/// text width, is crossed by no piece of a line, and where one side holds running text of its own
/// — five lines or more, three of them sentences of six words or more that fill the column (from
/// its left edge across six tenths of it or more), two of them carrying on the sentence of the
/// line above in lower case (`carried_on`) — and the other side at least one such sentence
/// carried on (a table of its own under the lines that introduce it); and no rule is drawn down
/// the strip. A statement's
/// figures column is never text; a table whose wide column is text (an exhibit index, a
/// glossary) has labels on the other side, not sentences.
///
/// Read across both columns, a table in one column takes the other column's sentences for rows
/// (set on its baselines), loses its heading rows to them and hides them from the text; so such a
/// stretch's right column is read apart from the left (`detect`). The stretch ends at a line
/// across the gutter (a heading), a rule or shaded box drawn across it, or a row of a table set
/// across the page (`row_across`; the first reading's `first` tables with two such rows keep
/// all their lines out of the columns).
fn page_columns(lines: &[Line], graphics: &Graphics, first: &[BBox]) -> Vec<Beside> {
    let mut out = vec![];
    if lines.len() < 2 * COLUMN_MIN_LINES || lines.len() > 4_000 {
        return out;
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| lines[a].ftop.total_cmp(&lines[b].ftop).then(lines[a].fx0.total_cmp(&lines[b].fx0)));
    let cut: Vec<Vec<Piece>> = lines.iter().map(pieces).collect();
    let x0 = cut.iter().flatten().map(|p| p.x0).fold(f32::MAX, f32::min);
    let x1 = cut.iter().flatten().map(|p| p.x1).fold(f32::MIN, f32::max);
    if x1 <= x0 {
        return out;
    }
    let mut sizes: Vec<f32> = lines.iter().map(|l| l.size).collect();
    sizes.sort_by(f32::total_cmp);
    let gutter = GUTTER_EMS * sizes[sizes.len() / 2].max(1.0);
    let middle = (x0 + COLUMN_GUTTER_MARGIN * (x1 - x0), x1 - COLUMN_GUTTER_MARGIN * (x1 - x0));
    // The free strips that stay at least a gutter wide once what lies across them is taken out.
    let take = |free: &[(f32, f32)], spans: &[(f32, f32)]| -> Vec<(f32, f32)> {
        let mut now = free.to_vec();
        for &(x0, x1) in spans {
            now = now
                .into_iter()
                .flat_map(|(a, b)| if x1 <= a || x0 >= b { vec![(a, b)] } else { vec![(a, x0.min(b)), (x1.max(a), b)] })
                .filter(|(a, b)| b - a >= gutter)
                .collect();
        }
        now
    };
    // The lines of each table of a first reading across the page. A table set across the page
    // has rows across the strip (`row_across`); its other lines down to the last such row (its
    // heading, its caption) are of it too, and no column runs through it.
    let mid = |l: &Line| (l.ftop + l.fbot) / 2.0;
    let members: Vec<Vec<usize>> = first
        .iter()
        .map(|b| (0..lines.len()).filter(|&i| mid(&lines[i]) >= b[1] && mid(&lines[i]) <= b[3]).collect())
        .collect();
    let mut tables_of: Vec<Vec<usize>> = vec![vec![]; lines.len()];
    for (t, m) in members.iter().enumerate() {
        for &i in m {
            tables_of[i].push(t);
        }
    }
    // Where a table set across the page ends: the foot of its last row across the strip, if it
    // has two. A line of text under it, taken into the first reading's table, is not of it; a
    // line with a figure is (a total row whose halves are laid out as two lines). A
    // table is looked at once per strip, not once per line of it.
    let set_across: std::cell::RefCell<std::collections::HashMap<(usize, u32, u32), Option<f32>>> = Default::default();
    let across = |i: usize, strip: (f32, f32)| {
        row_across(&cut[i], strip)
            || tables_of[i].iter().any(|&t| {
                let end = *set_across.borrow_mut().entry((t, strip.0.to_bits(), strip.1.to_bits())).or_insert_with(|| {
                    let rows: Vec<f32> =
                        members[t].iter().filter(|&&j| row_across(&cut[j], strip)).map(|&j| lines[j].fbot).collect();
                    (rows.len() >= 2).then(|| rows.iter().copied().fold(f32::MIN, f32::max))
                });
                end.is_some_and(|end| {
                    mid(&lines[i]) <= end || cut[i].iter().flat_map(|p| p.words).any(|w| is_value(&w.text))
                })
            })
    };
    // Top to bottom: the lines, and the rules and shaded boxes drawn across the page (a ruled
    // table's rules run across its columns, a heading's rule across the page); a line is taken
    // with its pieces, a drawing at its top edge.
    let mut events: Vec<(f32, Option<usize>, Vec<(f32, f32)>)> = order
        .iter()
        .enumerate()
        .map(|(k, &i)| (lines[i].ftop, Some(k), cut[i].iter().map(|p| (p.x0, p.x1)).collect()))
        .collect();
    let drawn = graphics.hrules.iter().map(|r| (r[0], r[1], r[2])).chain(graphics.fills.iter().map(|f| (f[1], f[0], f[2])));
    // A column's rule may run to the very edge of the gutter: a quarter of a gutter is given.
    let give = 0.25 * gutter;
    events.extend(drawn.map(|(y, x0, x1)| (y, None, vec![(x0 + give, x1 - give)])));
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Runs of lines (top to bottom) that leave a strip free, each closed by a line or a drawing
    // that leaves none.
    let mut runs: Vec<(usize, usize, Vec<(f32, f32)>)> = vec![];
    let (mut start, mut free, mut seen) = (0, vec![middle], 0);
    for (_, line, spans) in &events {
        let mut next = take(&free, spans);
        if let Some(k) = line {
            next.retain(|&strip| !across(order[*k], strip));
        }
        if !next.is_empty() {
            free = next;
            seen += usize::from(line.is_some());
            continue;
        }
        runs.push((start, seen, free));
        // A line across the gutter may open the next run at a strip of its own; a drawing does not.
        let mut alone = if line.is_some() { take(&[middle], spans) } else { vec![] };
        if let Some(k) = line {
            alone.retain(|&strip| !across(order[*k], strip));
        }
        seen += usize::from(line.is_some());
        (start, free) = if alone.is_empty() { (seen, vec![middle]) } else { (seen - 1, alone) };
    }
    runs.push((start, order.len(), free));
    for (s, e, free) in runs {
        if e < s + 2 * COLUMN_MIN_LINES {
            continue;
        }
        let Some(&(g0, g1)) = free.iter().max_by(|a, b| (a.1 - a.0).total_cmp(&(b.1 - b.0))) else { continue };
        let run = &order[s..e];
        let side = |left: bool| -> Vec<&Piece> {
            let mut ps: Vec<&Piece> = run
                .iter()
                .flat_map(|&i| cut[i].iter())
                .filter(|p| if left { p.x1 <= g0 } else { p.x0 >= g1 })
                .collect();
            ps.sort_by(|a, b| a.top.total_cmp(&b.top).then(a.x0.total_cmp(&b.x0)));
            ps
        };
        // A side's running text, as (sentences, lines carried on). Lines of running text fill
        // their column: they start at its left edge and run across most of it (text wrapped in a
        // table's cell starts at the cell, right of the labels). The column's left edge is where
        // its words start: a page number or a lone figure set further out (in the gutter) is not
        // of it.
        let text_of_its_own = |ps: &[&Piece]| {
            let left = |min_words: usize| ps.iter().filter(|p| p.words.len() >= min_words).map(|p| p.x0).fold(f32::MAX, f32::min);
            let x0 = match left(2) {
                f32::MAX => left(0),
                worded => worded,
            };
            let x1 = ps.iter().map(|p| p.x1).fold(f32::MIN, f32::max);
            let fills = |p: &Piece| p.x0 <= x0 + p.size && p.x1 - p.x0 >= COLUMN_FILL * (x1 - x0);
            let sentences = ps
                .iter()
                .filter(|p| prose_piece(p) && p.words.len() >= COLUMN_SENTENCE_WORDS && fills(p))
                .count();
            if ps.len() < COLUMN_MIN_LINES {
                (0, 0)
            } else {
                (sentences, carried_on(ps))
            }
        };
        let column = |(sentences, carried): (usize, usize)| sentences >= 3 && carried >= 2;
        // A side with a table of its own under a sentence or two (JPMorgan 2021Q1 p112: two lines
        // introduce a small table, beside a column of text) is a column too, beside one that is.
        let some_text = |(sentences, carried): (usize, usize)| sentences >= 1 && carried >= 1;
        let top = run.iter().map(|&i| lines[i].ftop).fold(f32::MAX, f32::min);
        let bot = run.iter().map(|&i| lines[i].fbot).fold(f32::MIN, f32::max);
        // A rule drawn down the strip is a ruled table's column border (a table of text cells
        // side by side), not the gutter of a page.
        let ruled = graphics
            .vrules
            .iter()
            .any(|r| r[0] > g0 && r[0] < g1 && r[2].min(bot) - r[1].max(top) >= 0.5 * (bot - top));
        let (left, right) = (text_of_its_own(&side(true)), text_of_its_own(&side(false)));
        if !ruled && (column(left) && some_text(right) || some_text(left) && column(right)) {
            // The columns go on above and below the stretch through lines that keep to their
            // sides of the gutter (a heading whose figure hangs into it closed the stretch), up
            // to a table set across the page: its rows keep to the sides too, labels on the
            // left and figures on the right.
            let (top, bot) = keeping_to_sides(lines, &cut, (top, bot), (g0, g1), gutter / GUTTER_EMS, &|i| across(i, (g0, g1)));
            out.push(Beside { x: ((g0 + g1) / 2.0, f32::MAX), y: (top, bot) });
        }
    }
    out
}

/// From `top`–`bot` on through the lines above and below that keep to their own side of the
/// strip `g0`–`g1` (no piece across it), each within two lines of the one before.
/// A line for which `stop` holds stops it too.
fn keeping_to_sides(
    lines: &[Line],
    cut: &[Vec<Piece>],
    (top, bot): (f32, f32),
    (g0, g1): (f32, f32),
    size: f32,
    stop: &dyn Fn(usize) -> bool,
) -> (f32, f32) {
    let crosses = |p: &Piece| p.x0 < g0 + 0.25 * size && p.x1 > g1 - 0.25 * size;
    let mut reach = (top, bot);
    for up in [true, false] {
        let order = nearest_first(lines, top, bot, up);
        let mut edge = if up { top } else { bot };
        for i in order {
            let l = &lines[i];
            let gap = if up { edge - l.fbot } else { l.ftop - edge };
            if gap > 2.0 * size || cut[i].iter().any(&crosses) || stop(i) {
                break;
            }
            edge = if up { l.ftop } else { l.fbot };
            if up {
                reach.0 = reach.0.min(l.ftop);
            } else {
                reach.1 = reach.1.max(l.fbot);
            }
        }
    }
    reach
}

/// Lines among the pieces (top to bottom) that carry a figure.
fn value_lines(side: &[&Piece]) -> usize {
    let mut tops: Vec<f32> = side.iter().filter(|p| is_value(&join_words(p.words))).map(|p| p.top).collect();
    tops.dedup();
    tops.len()
}

/// The lines without the pieces `beside` leaves out (a line left empty is dropped).
fn without(lines: &[Line], beside: &[Beside]) -> Vec<Line> {
    keep(lines, beside, false)
}

/// Only the pieces of the lines that lie in `beside` (the complement of `without`).
fn within(lines: &[Line], beside: &[Beside]) -> Vec<Line> {
    keep(lines, beside, true)
}

fn keep(lines: &[Line], beside: &[Beside], inside: bool) -> Vec<Line> {
    let mut out = vec![];
    for l in lines {
        let m = (l.ftop + l.fbot) / 2.0;
        let ps = pieces(l);
        let gone = |p: &Piece| {
            beside.iter().any(|b| m >= b.y.0 && m <= b.y.1 && p.x0 >= b.x.0 && p.x1 <= b.x.1) != inside
        };
        if !ps.iter().any(gone) {
            out.push(l.clone());
            continue;
        }
        let words: Vec<Word> = ps.iter().filter(|p| !gone(p)).flat_map(|p| p.words.iter().cloned()).collect();
        if words.is_empty() {
            continue;
        }
        let mut bbox = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for w in &words {
            bbox = [bbox[0].min(w.bbox[0]), bbox[1].min(w.bbox[1]), bbox[2].max(w.bbox[2]), bbox[3].max(w.bbox[3])];
        }
        out.push(Line {
            dir: l.dir,
            bbox,
            fx0: words.iter().map(|w| w.fx0).fold(f32::MAX, f32::min),
            fx1: words.iter().map(|w| w.fx1).fold(f32::MIN, f32::max),
            ftop: words.iter().map(|w| w.ftop).fold(f32::MAX, f32::min),
            fbot: words.iter().map(|w| w.fbot).fold(f32::MIN, f32::max),
            // The size of what is kept: a footnote mark cut from the other column's line is small.
            size: super::layout::median(words.iter().map(|w| w.size).collect()),
            words,
        });
    }
    out
}

/// How far after the word it marks (in ems of that word's line) a small footnote mark may stand
/// and still be folded into its line (`fold_scripts`) and joined to its cell (`segments`): JPM
/// sets `59,983 (a)` two thirds of an em apart, Coca-Cola its superscript digits 1.3 em, JPM's
/// credit tables their raised "(l)", "(n)" 1.7 em after the figure (at 1.5 they were lines of
/// their own that cut those tables into pieces).
const SCRIPT_MARK_GAP: f32 = 2.0;

/// Superscripts and subscripts ("3rd", "1st", footnote marks) are laid out as lines of their own
/// between the lines they belong to; a table row made of "rd  th" and a sentence cut at the gaps
/// they leave would look like a table. Each such line is folded back into its host line: a line of
/// larger text that it overlaps vertically (the one it overlaps most), where every script word
/// starts right where a host word ends.
fn fold_scripts(lines: &[&Line]) -> Vec<Line> {
    let overlap = |a: &Line, b: &Line| a.fbot.min(b.fbot) - a.ftop.max(b.ftop);
    let host_of = |s: &Line| -> Option<usize> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, h)| {
                s.size <= 0.8 * h.size
                    && s.ftop < h.fbot
                    && s.words.len() <= 3
                    && if s.fbot > h.ftop {
                        // A footnote mark may stand a little apart from the figure it marks
                        // (JPM's "59,983 (a)", two thirds of an em after it).
                        s.words.iter().all(|w| {
                            w.text.chars().count() <= 4
                                && h.words.iter().any(|hw| {
                                    let gap = w.fx0 - hw.fx1;
                                    gap.abs() <= 0.3 * h.size
                                        || is_note_mark(&w.text) && (0.0..=SCRIPT_MARK_GAP * h.size).contains(&gap)
                                })
                        })
                    } else {
                        // A footnote mark set wholly above its host's box, a little after the
                        // word it marks, within half a line of it.
                        s.fbot > h.ftop - 0.5 * h.size
                            && s.words.iter().all(|w| {
                                is_note_mark(&w.text)
                                    && h.words.iter().any(|hw| (0.0..=0.6 * h.size).contains(&(w.fx0 - hw.fx1)))
                            })
                    }
            })
            // The host is the line it overlaps most (a superscript touches the line above too).
            .max_by(|a, b| overlap(s, a.1).total_cmp(&overlap(s, b.1)))
            .map(|(k, _)| k)
    };
    let hosts: Vec<Option<usize>> = lines.iter().map(|s| host_of(s)).collect();
    let mut out: Vec<Line> = vec![];
    let mut at: Vec<Option<usize>> = vec![None; lines.len()];
    for (k, l) in lines.iter().enumerate() {
        if hosts[k].is_none() {
            at[k] = Some(out.len());
            out.push((*l).clone());
        }
    }
    for (k, h) in hosts.iter().enumerate() {
        // A host that is itself a script line keeps its own line.
        let Some(i) = h.and_then(|h| at[h]) else {
            if h.is_some() {
                out.push(lines[k].clone());
            }
            continue;
        };
        // A script keeps its host's top and bottom (the host's size and place in the order).
        take_in(&mut out[i], lines[k].clone());
    }
    out.sort_by(|a, b| a.ftop.total_cmp(&b.ftop).then(a.fx0.total_cmp(&b.fx0)));
    out
}

/// `host` takes in the words of `other` (in order along the line), its left and right ends and its box.
fn take_in(host: &mut Line, other: Line) {
    host.fx0 = host.fx0.min(other.fx0);
    host.fx1 = host.fx1.max(other.fx1);
    for j in 0..4 {
        host.bbox[j] = if j < 2 { host.bbox[j].min(other.bbox[j]) } else { host.bbox[j].max(other.bbox[j]) };
    }
    host.words.extend(other.words);
    host.words.sort_by(|a, b| a.fx0.total_cmp(&b.fx0));
}

/// How much of the shorter line's height a line of figures must share with a labelled line to be
/// read as that line's figures set off its baseline (`fold_offset_figures`).
const OFFSET_FIGURES_OVERLAP: f32 = 0.5;
/// The most words a line may have beside its figures and still be a row's label for them.
const OFFSET_FIGURES_LABEL_WORDS: usize = 10;

/// Some writers set a row's figures a little off its label's baseline: NIKE's market-risk table
/// puts "$ 6 … $ 16" 2.7 pt above "Principal payments", a third of an em, past what layout takes
/// for one baseline. The row is then laid out as two lines, its label with a figure or two and
/// the rest of its figures, and each reads as half a row (pdftotext's layout mode shows them as
/// one). A line of figures only (amounts: a header of years is a row of its own), of the same
/// size as a line with a label that it overlaps by at least half its height, is folded into that
/// line when no word of either lies over a word of the other (the one it overlaps most), that
/// line's words are few enough for a row label, and one of the two holds two figures or more. The lines are in top-to-bottom order; so is the result.
fn fold_offset_figures(lines: Vec<Line>) -> Vec<Line> {
    // (`all` first: a line of words is told at its first.)
    let figures_only = |l: &Line| {
        l.words.iter().all(|w| is_value(&w.text) || matches!(w.text.as_str(), "$" | "€" | "£" | "%"))
            && l.words.iter().any(|w| is_value(&w.text))
    };
    let wordy = |l: &Line| l.words.iter().filter(|w| w.text.chars().any(char::is_alphabetic) && !is_number(&w.text)).count();
    let values = |l: &Line| l.words.iter().filter(|w| is_value(&w.text)).count();
    let overlap = |a: &Line, b: &Line| a.fbot.min(b.fbot) - a.ftop.max(b.ftop);
    let apart = |a: &Line, b: &Line| {
        a.words.iter().all(|x| b.words.iter().all(|y| x.fx1 <= y.fx0 + 0.1 * y.size || y.fx1 <= x.fx0 + 0.1 * y.size))
    };
    let host_of = |k: usize| -> Option<usize> {
        let s = &lines[k];
        if !figures_only(s) {
            return None;
        }
        // Lines are sorted by top: the ones that can overlap this one lie near it in the order.
        let near = (k.saturating_sub(3)..(k + 4).min(lines.len())).filter(|&j| j != k);
        near.filter(|&j| {
            let h = &lines[j];
            let shorter = (s.fbot - s.ftop).min(h.fbot - h.ftop);
            // A row's label, not a sentence (a chart's figures beside a paragraph).
            (1..=OFFSET_FIGURES_LABEL_WORDS).contains(&wordy(h))
                // A lone figure beside a line of words is a figure of its own (a large "$69" in
                // one column beside a sentence in the other, an equation's number), unless that
                // line has figures of its own.
                && (values(s) >= 2 || values(h) >= 2)
                && s.size >= 0.8 * h.size
                && h.size >= 0.8 * s.size
                && overlap(s, h) >= OFFSET_FIGURES_OVERLAP * shorter
                && apart(s, h)
        })
        .max_by(|&a, &b| overlap(s, &lines[a]).total_cmp(&overlap(s, &lines[b])))
    };
    let hosts: Vec<Option<usize>> = (0..lines.len()).map(host_of).collect();
    if hosts.iter().all(Option::is_none) {
        return lines;
    }
    let mut out: Vec<Option<Line>> = lines.iter().map(|l| Some(l.clone())).collect();
    for (k, h) in hosts.iter().enumerate() {
        // A host is labelled, so never folded itself.
        let Some(h) = *h else { continue };
        let Some(figures) = out[k].take() else { continue };
        let Some(host) = out[h].as_mut() else { continue };
        // The row is as tall as both lines.
        host.ftop = host.ftop.min(figures.ftop);
        host.fbot = host.fbot.max(figures.fbot);
        take_in(host, figures);
    }
    let mut out: Vec<Line> = out.into_iter().flatten().collect();
    out.sort_by(|a, b| a.ftop.total_cmp(&b.ftop).then(a.fx0.total_cmp(&b.fx0)));
    out
}

/// A footnote mark: `(d)`, `(12)`, `*`, `†`, or one or two letters or digits.
fn is_note_mark(t: &str) -> bool {
    let inner = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(t);
    let n = inner.chars().count();
    (1..=2).contains(&n) && inner.chars().all(|c| c.is_alphanumeric() || matches!(c, '*' | '†' | '‡'))
}

/// Share of `a`'s area that lies inside `b`.
fn share(a: &BBox, b: &BBox) -> f32 {
    let ix = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let iy = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    ix * iy / ((a[2] - a[0]) * (a[3] - a[1])).max(1e-3)
}

/// The box `r` holds none of the text table's figures, and at least three of its rows with figures
/// lie below it: a ruled or shaded header over a whitespace-aligned body.
fn header_box(r: &BBox, t: &Table) -> bool {
    let centre = |b: &BBox| ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    let inside = |b: &BBox| {
        let (x, y) = centre(b);
        x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]
    };
    let values: Vec<&Cell> = t.cells.iter().filter(|c| c.col > 0 && is_value(&c.text)).collect();
    let mut rows_below: Vec<usize> = values.iter().filter(|c| centre(&c.bbox).1 > r[3]).map(|c| c.row).collect();
    rows_below.dedup();
    !values.iter().any(|c| inside(&c.bbox)) && !rows_below.is_empty()
}

/// The lattice `r` rules the body of the text table `t` (it lies inside `t`, with every figure of
/// it) and not the header above it, which only the text table has.
fn ruled_body(r: &BBox, t: &Table) -> bool {
    let cy = |c: &Cell| (c.bbox[1] + c.bbox[3]) / 2.0;
    let values_inside = t.cells.iter().filter(|c| c.col > 0 && is_value(&c.text)).all(|c| cy(c) >= r[1] && cy(c) <= r[3]);
    share(r, &t.bbox) >= 0.9 && values_inside && t.cells.iter().any(|c| cy(c) < r[1])
}

/// A good part of the text table `t` lies inside the lattice `r`, or `r` lies inside `t` and is
/// not a small block of it.
fn covered(t: &BBox, r: &BBox) -> bool {
    share(t, r) >= 0.3 || share(r, t) >= 0.5 && share(t, r) >= 0.15
}

/// Some value cell of one row sits over (or within two em of) a value cell of another (cells:
/// figures or short labels, not the tail of a sentence); a heading centred over a `$` and its
/// figure may end short of a right-aligned value.
fn values_align(region: &[Row]) -> bool {
    let like: Vec<&Row> = region.iter().filter(|r| r.row_like()).collect();
    let cell = |s: &&Seg| s.n_words() <= 4 || is_number(&s.text());
    like.iter().enumerate().any(|(i, a)| {
        like[i + 1..].iter().any(|b| {
            a.segs[1..].iter().filter(cell).any(|s| {
                b.segs[1..]
                    .iter()
                    .filter(cell)
                    .any(|t| s.x0.max(t.x0) < s.x1.min(t.x1) + 2.0 * a.line.size)
            })
        })
    })
}

/// Most columns a whitespace table may have (label column included).
const MAX_COLUMNS: usize = 120;

fn build(rows: &[Row], data: &[Row], graphics: &Graphics, _width: f32) -> Option<Table> {
    // Value columns from the projection of non-first segments of row-like lines.
    // When the table has two rows with values or more, only those rows draw the columns: a
    // header centred over two tight value columns ("June 30," over "$ 1,471  $ 1,993") must not
    // fuse them.
    let n_value_rows = data.iter().filter(|r| r.has_value()).count();
    let mut iv: Vec<(f32, f32)> = data
        .iter()
        .filter(|r| r.row_like() && (n_value_rows < 2 || r.has_value()))
        .flat_map(|r| r.segs[1..].iter().map(|s| (s.x0, s.x1)))
        .collect();
    if iv.is_empty() {
        return None;
    }
    iv.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut cols: Vec<(f32, f32)> = vec![];
    for (a, b) in iv {
        match cols.last_mut() {
            Some(c) if a <= c.1 + 1.0 => c.1 = c.1.max(b),
            _ => cols.push((a, b)),
        }
    }
    // Headed columns the table leaves empty take their place among the value columns.
    let headed = headed_columns(rows, &cols);
    if !headed.is_empty() {
        cols.extend(headed.iter().copied());
        cols.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // The label column: everything left of the first value column.
    let label_x1 = cols.first().map(|c| c.0).unwrap_or(0.0);
    let label_x0 = rows.iter().filter(|r| !r.beside).map(|r| r.line.fx0).fold(f32::MAX, f32::min);
    let mut columns = vec![(label_x0, label_x1 - 0.5)];
    columns.extend(cols);
    let n_cols = columns.len();
    // More columns than any printed table has is text that happens to line up (or a hostile page
    // of 200,000 glyphs, where placing every segment in every column would take seconds).
    if !(2..=MAX_COLUMNS).contains(&n_cols) {
        return None;
    }

    let mut raw: Vec<RawRow> = vec![];
    // Where the labels of the rows with figures end. The label column reaches to the first value
    // column, so a heading over that column's figures that starts left of them, but right of
    // every label ("Total Number of / Shares Repurchased" over Walmart's share counts), reaches
    // into the label column without being of it: it heads the value columns it spans.
    let labels_x1 = rows
        .iter()
        .filter(|r| !r.beside && r.has_value())
        .filter_map(|r| r.segs.first().filter(|g| g.x1 < label_x1))
        .map(|g| g.x1)
        .fold(f32::MIN, f32::max);
    let place_in = |sg: &Seg, em: f32, value: bool| match place(sg, &columns) {
        (0, span) if span >= 2 && !value && labels_x1 > f32::MIN && sg.x0 > labels_x1 + em => (1, span - 1),
        at => at,
    };
    for r in rows.iter().filter(|r| !r.beside) {
        let mut cells: Vec<(usize, usize, Seg)> = vec![];
        for sg in &r.segs {
            let (c0, span) = place_in(sg, r.line.size, r.has_value());
            put(&mut cells, c0, span, sg);
        }
        cells.sort_by_key(|c| c.0);
        let value = cells.iter().any(|(c, _, s)| *c > 0 && is_value(&s.text()));
        raw.push(RawRow {
            cells,
            top: r.line.ftop,
            bot: r.line.fbot,
            size: r.line.size,
            value,
            lines: 1,
        });
    }
    // Tables are read from upright lines (`detect`), in the page space of the rules.
    let (hrules, vrules) = (&graphics.hrules[..], &graphics.vrules[..]);
    let mut grid_rows = merge_rows(raw, &columns, hrules);
    // Stacked header cells are wider than any one of their lines: place them again.
    for r in grid_rows.iter_mut().filter(|r| r.lines > 1 && !r.value) {
        let mut cells = vec![];
        for (_, _, sg) in &r.cells {
            let (c0, span) = place_in(sg, r.size, false);
            put(&mut cells, c0, span, sg);
        }
        cells.sort_by_key(|c| c.0);
        r.cells = cells;
    }
    // The header is the rows above the first row of figures, but for the label lines right above
    // it that a colon closes: they head the rows under them ("Other noncurrent liabilities:").
    let mut header_end = grid_rows.iter().position(|r| r.value).unwrap_or(0);
    while header_end > 0 && {
        let r = &grid_rows[header_end - 1];
        r.cells.len() == 1 && r.cells[0].0 == 0 && r.label().is_some_and(|l| l.ends_with(':'))
    } {
        header_end -= 1;
    }
    headings_over_labels(&mut grid_rows[..header_end], &columns);
    for r in grid_rows.iter_mut().take(header_end) {
        span_to_rules(&mut r.cells, &columns, hrules, vrules);
    }
    let grid_rows: Vec<Vec<(usize, usize, Seg)>> = grid_rows.into_iter().map(|r| r.cells).collect();
    if grid_rows.len() < 2 {
        return None;
    }
    let mut cells_out = vec![];
    let mut bbox = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for (ri, r) in grid_rows.iter().enumerate() {
        for (c, span, s) in r {
            let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
            for w in &s.words {
                b[0] = b[0].min(w.bbox[0]);
                b[1] = b[1].min(w.bbox[1]);
                b[2] = b[2].max(w.bbox[2]);
                b[3] = b[3].max(w.bbox[3]);
            }
            for k in 0..4 {
                bbox[k] = if k < 2 {
                    bbox[k].min(b[k])
                } else {
                    bbox[k].max(b[k])
                };
            }
            cells_out.push(Cell {
                row: ri,
                col: *c,
                row_span: 1,
                col_span: *span,
                text: s.text(),
                bbox: b,
            });
        }
    }
    // Chart axes and legends line up like a table but leave most of the grid empty. A spanning
    // header fills the columns it spans, and a header row of one spanning heading counts as a
    // row of several cells.
    // Only a table of figures (in two columns or more, or three rows or more) has headers that
    // span; equations set in a grid (fraction bars under their numerators, each equation's number
    // at the right margin) do not.
    let value_columns: std::collections::BTreeSet<usize> = grid_rows
        .iter()
        .flatten()
        .filter(|(c, _, s)| *c > 0 && is_value(&s.text()))
        .map(|(c, _, _)| *c)
        .collect();
    let figures = value_columns.len() >= 2 || n_value_rows >= 3;
    let header = if figures { header_end } else { 0 };
    let covers = |i: usize, r: &[(usize, usize, Seg)]| {
        if i < header { r.iter().map(|c| c.1).sum::<usize>() } else { r.len() }
    };
    let filled = grid_rows.iter().enumerate().map(|(i, r)| covers(i, r)).sum::<usize>() as f32;
    let multi = grid_rows.iter().enumerate().filter(|(i, r)| covers(*i, r) >= 2).count();
    // A headed column is empty by its nature: it does not make the grid sparse.
    let fillable = n_cols - headed.len();
    if filled < 0.4 * (grid_rows.len() * fillable) as f32 || multi * 2 < grid_rows.len() {
        return None;
    }
    if axis_ticks(&grid_rows) || axis_row(&grid_rows) {
        return None;
    }
    let ruled = extend_to_rules(&mut bbox, graphics);
    Some(Table {
        bbox,
        cells: cells_out,
        caption: String::new(),
        continues_from_previous: false,
        n_rows: grid_rows.len(),
        n_cols,
        header_rows: header_end,
        ruled,
        notes: vec![],
    })
}

/// A heading set just left of its column's figures falls in the wide label column: the column
/// letter "(a)" right-aligned over Boeing's "Total Number of Shares / Purchased(1)", whose figures
/// start further right (issue 3, deliverable 3: header rows). When the heading of a value column
/// on another header line lies over it, and its own line has no heading in that column, it is
/// that column's. A heading at the labels' left edge ("(in millions)") is the label column's.
fn headings_over_labels(header: &mut [RawRow], columns: &[(f32, f32)]) {
    let Some(&(label_x0, _)) = columns.first() else { return };
    let over: Vec<(usize, f32, f32, usize)> = header
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.cells.iter().filter(|(c, span, _)| *c > 0 && *span == 1).map(move |(c, _, s)| (i, s.x0, s.x1, *c)))
        .collect();
    for (i, r) in header.iter_mut().enumerate() {
        let em = r.size.max(1.0);
        let mut moves: Vec<(usize, usize)> = r
            .cells
            .iter()
            .enumerate()
            .filter(|(_, (c, _, s))| *c == 0 && s.x0 >= label_x0 + 2.0 * em)
            .filter_map(|(n, (_, _, s))| {
                let cx = (s.x0 + s.x1) / 2.0;
                over.iter()
                    .find(|&&(j, x0, x1, _)| j != i && x0 <= cx && cx <= x1)
                    .map(|&(_, _, _, k)| (n, k))
            })
            .filter(|&(_, k)| !r.cells.iter().any(|(c, _, _)| *c == k))
            .collect();
        // Two headings over one column's: neither is moved.
        let ks: Vec<usize> = moves.iter().map(|m| m.1).collect();
        moves.retain(|m| ks.iter().filter(|&&k| k == m.1).count() == 1);
        if moves.is_empty() {
            continue;
        }
        for (n, k) in moves {
            r.cells[n].0 = k;
            r.cells[n].1 = 1;
        }
        r.cells.sort_by_key(|c| c.0);
    }
}

/// How far (ems) a heading keeps clear of every value column to head one of its own.
const HEADED_CLEAR_EMS: f32 = 1.0;

/// Columns that are headed but hold no figure in this table (issue 3, deliverable 3: header rows):
/// in the header line right over the figures — the lowest line above them that heads two value
/// columns or more — a heading that lies clear of every value column, in the gap between two or
/// right of the last, heads a column of its own. Boeing's fair values ("Carrying Amount  Total
/// Fair Value  Level 1  Level 2  Level 3", figures only under Level 2) and share repurchases
/// ("(c) Total Number of Shares Purchased as Part of Publicly Announced Plans", no figures) fused
/// those headings into the nearest figures' column. A heading centred over two columns sits on a
/// line above the one that heads them one by one, so it is never taken for a column.
fn headed_columns(rows: &[Row], cols: &[(f32, f32)]) -> Vec<(f32, f32)> {
    let Some(first) = cols.first() else {
        return vec![];
    };
    let over = |g: &Seg| cols.iter().any(|c| g.x1 > c.0 && g.x0 < c.1);
    let header: Vec<&Row> = rows.iter().filter(|r| !r.beside).take_while(|r| !r.has_value()).collect();
    let Some(at) = header.iter().rposition(|r| r.segs.iter().filter(|g| over(g)).count() >= 2) else {
        return vec![];
    };
    let (line, above) = (header[at], &header[..at]);
    // Every value column has its heading on that line: a heading clear of them all is none of
    // theirs (a wide heading set left of the figures it heads leaves its column unheaded there).
    if !cols.iter().all(|c| line.segs.iter().any(|g| g.x1 > c.0 && g.x0 < c.1)) {
        return vec![];
    }
    let m = HEADED_CLEAR_EMS * line.line.size.max(1.0);
    line.segs
        .iter()
        .filter(|g| g.x0 > first.1 + m && g.x0 > first.0)
        .filter(|g| cols.iter().all(|c| g.x1 < c.0 - m || g.x0 > c.1 + m))
        .filter(|g| g.words.iter().any(|w| w.text.chars().any(char::is_alphabetic)))
        // A heading opens as one does, or goes on from a line above ("Capital ratio" over
        // "requirements(b)"); "of" set apart from "Fraction" on its own line goes on with that.
        .filter(|g| {
            let opens = g.words.first().and_then(|w| w.text.chars().next()).is_some_and(|c| !c.is_lowercase());
            opens || above.iter().any(|r| r.segs.iter().any(|h| h.x1 > g.x0 && h.x0 < g.x1))
        })
        .map(|g| (g.x0, g.x1))
        .collect()
}

fn value_of(s: &str) -> Option<f64> {
    let t = s.trim();
    let neg = t.starts_with('(') && t.ends_with(')') || t.starts_with(['-', '−', '–']);
    let digits: String = t
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let v: f64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// Chart axes line up like a table: every column that holds numbers holds evenly spaced tick
/// values (450, 400, 350 …). A real table has at least one column of data.
fn axis_ticks(grid_rows: &[Vec<(usize, usize, Seg)>]) -> bool {
    let n_cols = grid_rows
        .iter()
        .flat_map(|r| r.iter().map(|c| c.0 + 1))
        .max()
        .unwrap_or(0);
    let mut progressions = 0;
    for col in 0..n_cols {
        let vals: Vec<f64> = grid_rows
            .iter()
            .filter_map(|r| r.iter().find(|c| c.0 == col))
            .map(|c| c.2.text())
            .filter(|t| is_number(t))
            .filter_map(|t| value_of(&t))
            .collect();
        if vals.len() < 3 {
            continue;
        }
        let step = vals[1] - vals[0];
        if !evenly_spaced(&vals, step) {
            return false;
        }
        progressions += 1;
    }
    progressions > 0
}

/// A chart's axis labels: a row of four or more evenly spaced ticks (0, 10, 20 … or 1, 2, 3 …).
/// Either a zero-based axis along the bottom, or the only figures the "table" has.
fn axis_row(grid_rows: &[Vec<(usize, usize, Seg)>]) -> bool {
    let ticks = |r: &Vec<(usize, usize, Seg)>| -> Option<f64> {
        let vals: Vec<f64> = r
            .iter()
            .flat_map(|c| c.2.words.iter().map(|w| w.text.clone()).collect::<Vec<_>>())
            .filter(|t| is_number(t))
            .filter_map(|t| value_of(&t))
            .collect();
        let step = vals.get(1).zip(vals.first()).map(|(b, a)| b - a)?;
        let even = vals.len() >= 4
            && step > 0.0
            && vals
                .windows(2)
                .all(|w| ((w[1] - w[0]) - step).abs() <= 1e-6 * step.max(1.0));
        even.then_some(vals[0])
    };
    let bottom_axis = grid_rows
        .iter()
        .rev()
        .take(2)
        .any(|r| ticks(r) == Some(0.0));
    let value_rows: Vec<&Vec<(usize, usize, Seg)>> = grid_rows
        .iter()
        .filter(|r| r.iter().any(|c| c.0 > 0 && is_value(&c.2.text())))
        .collect();
    bottom_axis || !value_rows.is_empty() && value_rows.iter().all(|r| ticks(r).is_some())
}

/// [`axis_ticks`] over a finished grid: every column with four or more figures (other than a
/// 1, 2, 3 … numbering) holds evenly spaced ticks (two chart frames side by side ruled like a grid).
fn chart_grid(grid: &[Vec<String>]) -> bool {
    let n_cols = grid.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut progressions = 0;
    for col in 0..n_cols {
        let vals: Vec<f64> = grid
            .iter()
            .filter_map(|r| r.get(col))
            .filter(|t| is_number(t))
            .filter_map(|t| value_of(t))
            .collect();
        let step = vals.get(1).zip(vals.first()).map_or(0.0, |(b, a)| b - a);
        // Fewer than four figures, or a numbering column (1, 2, 3 …), says nothing.
        if vals.len() < 4 || (step.abs() - 1.0).abs() < 1e-9 {
            continue;
        }
        if !evenly_spaced(&vals, step) {
            return false;
        }
        progressions += 1;
    }
    progressions > 0
}

/// Every gap between consecutive values equals `step` (non-zero), up to rounding.
fn evenly_spaced(vals: &[f64], step: f64) -> bool {
    step.abs() > 0.0 && vals.windows(2).all(|w| ((w[1] - w[0]) - step).abs() <= 1e-6 * step.abs().max(1.0))
}

struct RawRow {
    cells: Vec<(usize, usize, Seg)>,
    top: f32,
    bot: f32,
    size: f32,
    value: bool,
    /// Text lines merged into this row.
    lines: usize,
}

impl RawRow {
    fn label_only(&self) -> bool {
        self.cells.len() == 1 && self.cells[0].0 == 0
    }
    fn label(&self) -> Option<String> {
        self.cells.iter().find(|c| c.0 == 0).map(|c| c.2.text())
    }
}

fn overlaps(a: &Seg, b: &Seg) -> bool {
    a.x0.max(b.x0) < a.x1.min(b.x1)
}

/// The lower header line continues the cells of the upper one: every piece overlaps at most one
/// piece of the other line, at least one pair overlaps, and the row label is not continued by a
/// value cell.
fn stacks(upper: &RawRow, lower: &RawRow) -> bool {
    let one_to_one = lower
        .cells
        .iter()
        .all(|c| upper.cells.iter().filter(|p| overlaps(&p.2, &c.2)).count() <= 1)
        && upper
            .cells
            .iter()
            .all(|p| lower.cells.iter().filter(|c| overlaps(&p.2, &c.2)).count() <= 1);
    let any = lower
        .cells
        .iter()
        .any(|c| upper.cells.iter().any(|p| overlaps(&p.2, &c.2)));
    one_to_one && any
}

fn append_seg(into: &mut Seg, from: &Seg) {
    into.words.extend(from.words.iter().cloned());
    into.x0 = into.x0.min(from.x0);
    into.x1 = into.x1.max(from.x1);
}

/// Multi-line row labels and multi-line headers become one row:
/// - a label-only line followed closely by a line that continues it (lowercase start) or carries the
///   values without a label of its own;
/// - a label-only line starting with `(` or lowercase right under a row continues that row's label;
/// - a header line whose cells sit in the columns of the header line above it (no values yet).
fn merge_rows(raw: Vec<RawRow>, columns: &[(f32, f32)], hrules: &[[f32; 3]]) -> Vec<RawRow> {
    // Header lines are only merged above the first value row of a table that has values; in a
    // table of text every line is its own row.
    let has_values = raw.iter().any(|r| r.value);
    // Where the row labels end: the right edge of the widest one-line label of the other rows.
    let ends: Vec<f32> = raw
        .iter()
        .map(|r| r.cells.iter().find(|c| c.0 == 0 && c.1 == 1).map_or(f32::MIN, |c| c.2.x1))
        .collect();
    let widest_but =
        |k: usize| ends.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, &e)| e).fold(f32::MIN, f32::max);
    // Where each line's label starts.
    let starts: Vec<Option<f32>> = raw
        .iter()
        .map(|r| r.cells.iter().find(|c| c.0 == 0).and_then(|c| c.2.words.first()).map(|w| w.fx0))
        .collect();
    let mut out: Vec<RawRow> = vec![];
    // The line of `raw` that last went into `out`.
    let mut last = usize::MAX;
    for (k, r) in raw.into_iter().enumerate() {
        let in_header = has_values && !out.iter().any(|o| o.value);
        let r = match out.last() {
            Some(prev) if in_header && !r.value && !prev.value => split_under(prev, r, columns),
            _ => r,
        };
        if let Some(prev) = out.last_mut() {
            let tight = r.top - prev.bot < 0.6 * r.size.max(prev.size);
            let starts_low = r
                .label()
                .and_then(|l| l.chars().next())
                .is_some_and(|ch| ch.is_lowercase() || ch == '(');
            let prev_open = prev.label().is_some_and(|l| !l.ends_with(':'));
            // Label-only line, then its values (with or without a lowercase label continuation,
            // or with the rest of a label that was wrapped).
            if tight
                && prev.label_only()
                && prev_open
                && (r.label().is_none() && r.value
                    || starts_low
                    || r.value && prev.label().is_some_and(|l| ends_unfinished(&l))
                    || r.value && wrapped(prev, &r, widest_but(last), starts.get(k + 1).copied().flatten()))
            {
                let mut cells = r.cells;
                let lab = prev.cells[0].2.clone();
                match cells.iter_mut().find(|c| c.0 == 0) {
                    Some(c) => {
                        let mut m = lab;
                        append_seg(&mut m, &c.2);
                        c.2 = m;
                    }
                    None => cells.insert(0, (0, 1, lab)),
                }
                prev.cells = cells;
                prev.bot = r.bot;
                prev.value |= r.value;
                last = k;
                continue;
            }
            // Label continuation under a row that has values: "(Douwe Egberts)".
            if tight && r.label_only() && starts_low && prev.value {
                if let Some(c) = prev.cells.iter_mut().find(|c| c.0 == 0) {
                    append_seg(&mut c.2, &r.cells[0].2);
                    prev.bot = r.bot;
                    last = k;
                    continue;
                }
            }
            // Multi-line header cells: each line's pieces sit under exactly one piece of the
            // line above (one-to-one); a piece over two pieces is a spanning header and stays
            // a row of its own.
            if tight
                && in_header
                && !r.value
                && !prev.value
                && prev.lines < 4
                && !(prev.label().is_some_and(|l| l.ends_with(':')) && r.label().is_some())
                && stacks(prev, &r)
                && !ruled_between(prev, &r, columns, hrules)
            {
                for c in r.cells {
                    match prev.cells.iter_mut().find(|p| overlaps(&p.2, &c.2)) {
                        Some(p) => append_seg(&mut p.2, &c.2),
                        None => prev.cells.push(c),
                    }
                }
                prev.bot = r.bot;
                prev.lines += r.lines;
                last = k;
                continue;
            }
        }
        out.push(r);
        last = k;
    }
    out
}

/// Words a row label does not end on: a label-only line ending in one runs on into the next
/// line's label, whatever case that opens in ("… attributable to shareowners of" over "The
/// Coca-Cola Company  $ 1,181").
const UNFINISHED_ENDINGS: [&str; 14] =
    ["of", "and", "the", "to", "for", "in", "on", "from", "with", "by", "or", "at", "a", "an"];

/// The label stops on a word it cannot end on (`UNFINISHED_ENDINGS`), a hyphen ("non-") or
/// inside brackets ("Other comprehensive income (Note" over "13)").
fn ends_unfinished(label: &str) -> bool {
    let last = label.split_whitespace().last().unwrap_or("");
    last.len() > 1 && last.ends_with('-')
        || UNFINISHED_ENDINGS.iter().any(|w| last.eq_ignore_ascii_case(w))
        || label.matches('(').count() > label.matches(')').count()
}

/// `lower`'s label goes on from the label-only line `upper`: its first word would not have fit
/// at the end of `upper` within the width the other rows' labels take (`limit`, the right edge
/// of the widest, six ems or more from where `upper` starts), while `upper` itself fits in it
/// ("Commercial Real Estate" over " Banking"), `lower` starts with the small hanging indent of a
/// wrapped label (a fifth of an em to two ems), and the label of the line after it (`next_start`)
/// starts back where `upper` does. A heading wider than the labels under it, a short one,
/// "PART I" over "ITEM 1" in a narrow column, a total, or a heading over rows indented under it
/// ("Net sales by contract type" over " Fixed-price", " Cost-reimbursable") is not wrapped.
fn wrapped(upper: &RawRow, lower: &RawRow, limit: f32, next_start: Option<f32>) -> bool {
    let (Some(up), Some(low)) = (upper.cells.first(), lower.cells.iter().find(|c| c.0 == 0)) else {
        return false;
    };
    let (Some(end), Some(next)) = (up.2.words.last(), low.2.words.first()) else {
        return false;
    };
    let size = upper.size.max(lower.size);
    // Where `upper`'s last line starts.
    let start =
        up.2.words.iter().rev().take_while(|w| w.ftop >= end.ftop - 0.3 * size).last().map_or(up.2.x0, |w| w.fx0);
    end.fx1 <= limit + 0.25 * size
        && end.fx1 + 0.25 * size + (next.fx1 - next.fx0) > limit
        && limit - start >= 6.0 * size
        && (0.2 * size..=2.0 * size).contains(&(next.fx0 - start))
        && next_start.is_none_or(|x| x <= start + 0.2 * size)
        && !next.text.eq_ignore_ascii_case("total")
}

/// A header line set under two pieces of the line above continues each of them, even where its
/// words are closer than a cell gap ("Under 18 | 18 years" over "years and over"): it is cut
/// where consecutive words stand in different value columns, when every part then lies mostly
/// under one piece above or under none, and at least two under one. A piece *over* two pieces
/// is a spanning header and is left whole (only the lower line is cut).
fn split_under(upper: &RawRow, mut lower: RawRow, columns: &[(f32, f32)]) -> RawRow {
    let column_of = |w: &Word| {
        columns
            .iter()
            .enumerate()
            .map(|(k, c)| (k, w.fx1.min(c.1) - w.fx0.max(c.0)))
            .filter(|(_, ov)| *ov > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(k, _)| k)
    };
    let mut cells = vec![];
    for (c, span, sg) in lower.cells {
        let above = upper.cells.iter().filter(|p| overlaps(&p.2, &sg)).count();
        if above < 2 {
            cells.push((c, span, sg));
            continue;
        }
        let mut parts: Vec<Seg> = vec![];
        let mut last_col = None;
        for w in &sg.words {
            let col = column_of(w);
            let new_part = match (parts.last(), last_col, col) {
                (None, _, _) => true,
                (Some(p), Some(a), Some(b)) => a != b && p.x1 < w.fx0,
                _ => false,
            };
            if new_part {
                parts.push(Seg { words: vec![], x0: w.fx0, x1: w.fx1 });
            }
            if let Some(p) = parts.last_mut() {
                p.x0 = p.x0.min(w.fx0);
                p.x1 = p.x1.max(w.fx1);
                p.words.push(w.clone());
            }
            last_col = col.or(last_col);
        }
        let placed: Vec<(usize, usize, Seg)> = parts
            .into_iter()
            .map(|p| {
                let (c0, span) = place(&p, columns);
                (c0, span, p)
            })
            .collect();
        // A part under a piece above lies mostly under it; a line centred across the columns
        // ("(in thousands, except per share data)" under the years) is not cut.
        let under = |p: &Seg| {
            let ov: Vec<f32> = upper.cells.iter().map(|a| p.x1.min(a.2.x1) - p.x0.max(a.2.x0)).filter(|&o| o > 0.0).collect();
            match ov[..] {
                [] => Some(false),
                [o] if o >= 0.5 * (p.x1 - p.x0) => Some(true),
                _ => None,
            }
        };
        let unders: Option<Vec<bool>> = placed.iter().map(|p| under(&p.2)).collect();
        let clean = placed.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0)
            && unders.is_some_and(|u| u.iter().filter(|&&b| b).count() >= 2);
        if clean {
            cells.extend(placed);
        } else {
            cells.push((c, span, sg));
        }
    }
    lower.cells = cells;
    lower
}

/// A rule drawn between two header lines, under a piece of the upper line that the lower line
/// would continue, separates them when it runs under several pieces of either line (under a
/// group heading and over its columns, "Total" over "Under 18 | 18 years"; under a whole header
/// row and over the body's first label, "(in millions) | 2023 | 2022" over "Assets"), or when it
/// spans several columns and the lower piece is not centred under it ("Incorporated by
/// Reference" over the "Exhibit" of one of its columns). A rule under one piece and over one
/// piece centred like it underlines a line of one cell and separates nothing ("One Withholding"
/// over "Allowance"; "January 28, 2023" over "(Unaudited)", both centred over their two columns).
fn ruled_between(upper: &RawRow, lower: &RawRow, columns: &[(f32, f32)], hrules: &[[f32; 3]]) -> bool {
    let runs = rule_runs(hrules, upper.bot - 1.0, lower.top + 1.0);
    let across = |r: &(f32, f32), row: &RawRow| row.cells.iter().filter(|(_, _, s)| r.0 < s.x1 && r.1 > s.x0).count();
    let n_columns = |r: &(f32, f32)| {
        columns.iter().skip(1).filter(|c| (c.0 + c.1) / 2.0 > r.0 && (c.0 + c.1) / 2.0 < r.1).count()
    };
    let off_centre = |r: &(f32, f32), s: &Seg| ((s.x0 + s.x1) - (r.0 + r.1)).abs() / 2.0 > 0.25 * (r.1 - r.0);
    upper.cells.iter().any(|(_, _, p)| {
        lower.cells.iter().any(|(_, _, c)| {
            let (a, b) = (p.x0.max(c.x0), p.x1.min(c.x1));
            a < b
                && runs.iter().any(|r| {
                    r.0 < b
                        && r.1 > a
                        && (across(r, upper) >= 2 || across(r, lower) >= 2 || n_columns(r) >= 2 && off_centre(r, c))
                })
        })
    })
}

/// The horizontal rules drawn between `y0` and `y1`, pieces drawn end to end at one height (cell
/// borders) joined into one rule each: their extents. Tighter than `ruled::merge` (which joins
/// pieces 2.5 pt apart into one grid line): spanner rules of neighbouring column groups stop a
/// point or two apart, and joined they would span both groups (MGM's "(In thousands)").
fn rule_runs(hrules: &[[f32; 3]], y0: f32, y1: f32) -> Vec<(f32, f32)> {
    let mut spans: Vec<[f32; 3]> = hrules.iter().filter(|h| h[0] >= y0 && h[0] <= y1).copied().collect();
    spans.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let mut runs: Vec<[f32; 3]> = vec![];
    for h in spans {
        match runs.last_mut() {
            Some(r) if (h[0] - r[0]).abs() <= 0.5 && h[1] <= r[2] + 1.0 => r[2] = r[2].max(h[2]),
            _ => runs.push(h),
        }
    }
    runs.into_iter().map(|r| (r[1], r[2])).collect()
}

/// A header cell spans the value columns its rules enclose (spec §4.1 step 5, spanning
/// headers): the vertical rules on either side of it, and the rules drawn under its lines
/// (`rules_under`). "Total" set over the middle of its three columns spans all three. A cell
/// that shares its enclosure with another cell of the row spans nothing more.
fn span_to_rules(cells: &mut [(usize, usize, Seg)], columns: &[(f32, f32)], hrules: &[[f32; 3]], vrules: &[[f32; 3]]) {
    let bounds: Vec<Option<(f32, f32)>> = cells
        .iter()
        .map(|(c, _, sg)| {
            if *c == 0 || sg.words.is_empty() {
                return None;
            }
            let top = sg.words.iter().map(|w| w.ftop).fold(f32::MAX, f32::min);
            let bot = sg.words.iter().map(|w| w.fbot).fold(f32::MIN, f32::max);
            let em = sg.words.iter().map(|w| w.fbot - w.ftop).fold(f32::MAX, f32::min).max(1.0);
            let mid = (top + bot) / 2.0;
            let (mut lo, mut hi) = (f32::MIN, f32::MAX);
            let mut ruled = false;
            for v in vrules.iter().filter(|v| v[1] <= mid && v[2] >= mid) {
                if v[0] <= sg.x0 + 0.5 && v[0] > lo {
                    lo = v[0];
                    ruled = true;
                }
                if v[0] >= sg.x1 - 0.5 && v[0] < hi {
                    hi = v[0];
                    ruled = true;
                }
            }
            if let Some((a, b)) = rules_under(sg, top, bot, em, hrules) {
                lo = lo.max(a);
                hi = hi.min(b);
                ruled = true;
            }
            ruled.then_some((lo, hi))
        })
        .collect();
    let centre = |s: &Seg| (s.x0 + s.x1) / 2.0;
    for i in 0..cells.len() {
        let Some((lo, hi)) = bounds[i] else { continue };
        let alone = cells.iter().enumerate().all(|(j, o)| j == i || !(centre(&o.2) > lo && centre(&o.2) < hi));
        let inside: Vec<usize> = (1..columns.len())
            .filter(|&k| {
                let m = (columns[k].0 + columns[k].1) / 2.0;
                m > lo && m < hi
            })
            .collect();
        let (Some(&a), Some(&b)) = (inside.first(), inside.last()) else { continue };
        let (c0, span) = (cells[i].0, cells[i].1);
        let free = cells.iter().enumerate().all(|(j, o)| j == i || o.0 + o.1 <= a || o.0 > b);
        if alone && free && b - a + 1 > span && a <= c0 && c0 + span - 1 <= b {
            cells[i].0 = a;
            cells[i].1 = b - a + 1;
        }
    }
}

/// The rules drawn under a header cell's lines or right under the cell (within half a line), each
/// wider than the cell, pieces of one rule drawn end to end joined: the extent they all share.
fn rules_under(sg: &Seg, top: f32, bot: f32, em: f32, hrules: &[[f32; 3]]) -> Option<(f32, f32)> {
    let w = sg.x1 - sg.x0;
    rule_runs(hrules, top + 0.25 * em, bot + 0.5 * em)
        .into_iter()
        .filter(|r| r.0 <= sg.x0 + 0.5 && r.1 >= sg.x1 - 0.5 && r.1 - r.0 > 1.5 * w)
        .reduce(|a, b| (a.0.max(b.0), a.1.min(b.1)))
}

/// The columns a segment belongs to: those it covers for a good part of the column's or its own
/// width (a header centred over a narrow value column spills into its neighbours without spanning
/// them), else the nearest one.
fn place(sg: &Seg, columns: &[(f32, f32)]) -> (usize, usize) {
    let sw = (sg.x1 - sg.x0).max(0.1);
    let hit: Vec<usize> = columns
        .iter()
        .enumerate()
        .filter(|(k, c)| {
            let ov = sg.x1.min(c.1) - sg.x0.max(c.0);
            let cw = (c.1 - c.0).max(0.1);
            // The label column is wide: a heading centred over the first value column
            // reaches into it without belonging to it.
            let k = *k;
            ov > 0.0 && if k == 0 { ov >= 0.5 * sw } else { ov >= 0.5 * cw || ov >= 0.3 * cw.min(sw) }
        })
        .map(|(k, _)| k)
        .collect();
    match (hit.first(), hit.last()) {
        (Some(&a), Some(&b)) => (a, b - a + 1),
        _ => {
            let k = columns
                .iter()
                .enumerate()
                .min_by(|a, b| dist(sg, a.1).total_cmp(&dist(sg, b.1)))
                .map(|(k, _)| k)
                .unwrap_or(0);
            (k, 1)
        }
    }
}

/// Add a segment to a row's cells; two segments in one column are one cell.
fn put(cells: &mut Vec<(usize, usize, Seg)>, c0: usize, span: usize, sg: &Seg) {
    match cells.iter_mut().find(|(c, _, _)| *c == c0) {
        Some((_, sp, s)) => {
            s.words.extend(sg.words.iter().cloned());
            s.x0 = s.x0.min(sg.x0);
            s.x1 = s.x1.max(sg.x1);
            *sp = (*sp).max(span);
        }
        None => cells.push((c0, span, sg.clone())),
    }
}

fn dist(s: &Seg, c: &(f32, f32)) -> f32 {
    if s.x1 < c.0 {
        c.0 - s.x1
    } else if s.x0 > c.1 {
        s.x0 - c.1
    } else {
        0.0
    }
}

/// Horizontal rules spanning most of the table just above/below it belong to it (top rule, rule
/// under the header, bottom rule of a ruled table).
fn extend_to_rules(bbox: &mut BBox, g: &Graphics) -> bool {
    let w = bbox[2] - bbox[0];
    let orig = *bbox;
    let mut ruled = false;
    for r in &g.hrules {
        let overlap = r[2].min(orig[2]) - r[1].max(orig[0]);
        if overlap < 0.6 * w {
            continue;
        }
        if r[0] >= orig[1] - 6.0 && r[0] <= orig[3] + 6.0 {
            ruled = true;
            bbox[1] = bbox[1].min(r[0]);
            bbox[3] = bbox[3].max(r[0]);
            bbox[0] = bbox[0].min(r[1].max(orig[0] - 0.1 * w));
            bbox[2] = bbox[2].max(r[2].min(orig[2] + 0.1 * w));
        }
    }
    ruled
}

/// A table at the top of a page with the same column count as the last table of the previous page
/// and no caption of its own continues it (issue 3 deliverable 3).
pub fn link_continuations(pages: &mut [Page]) {
    for i in 1..pages.len() {
        let prev = pages[i - 1]
            .tables
            .last()
            .map(|t| (t.n_cols, t.bbox[3] > 0.55 * pages[i - 1].height));
        let h = pages[i].height;
        if let (Some((cols, prev_low)), Some(first)) = (prev, pages[i].tables.first_mut()) {
            if prev_low
                && first.n_cols == cols
                && first.bbox[1] < 0.35 * h
                && first.header_rows == 0
            {
                first.continues_from_previous = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_sentence_starts_after_a_full_stop_but_not_after_an_abbreviation() {
        let t = "in fiscal 2017. The following table presents";
        assert_eq!(sentence_start(t).map(|k| &t[k..]), Some("The following table presents"));
        assert_eq!(sentence_start("the U.S. Dollar equivalents follow:"), None);
        assert_eq!(sentence_start("under Note No. 5 Follows"), None);
        let t = "as noted.” Amounts were:";
        assert_eq!(sentence_start(t).map(|k| &t[k..]), Some("Amounts were:"));
        assert_eq!(sentence_start("no stop here at All"), None);
    }

    #[test]
    fn dot_leaders_are_taken_out_of_labels_but_full_stops_and_short_runs_stay() {
        assert_eq!(without_leaders("Total revenue ........................"), "Total revenue");
        assert_eq!(without_leaders("Violent crime. . . . . . . . . . . ."), "Violent crime");
        assert_eq!(without_leaders("Other……"), "Other");
        assert_eq!(without_leaders("Euro ....... $ (104.3)"), "Euro $ (104.3)");
        assert_eq!(without_leaders("U.S. Treasury and agency securities"), "U.S. Treasury and agency securities");
        assert_eq!(without_leaders("Figures in € ... see note"), "Figures in € ... see note");
        assert_eq!(without_leaders("1,234.5"), "1,234.5");
        assert_eq!(without_leaders(""), "");
    }
    #[test]
    fn parenthesised_and_dollar_values_are_numbers() {
        for s in ["(1,234)", "$ 1,234", "$(12.5)", "12.5%", "—", "1,234.56"] {
            assert!(is_number(s), "{s}");
        }
        for s in ["Revenue", "2019 plan", ""] {
            assert!(!is_number(s), "{s}");
        }
    }

    #[test]
    fn the_day_and_year_under_a_month_heading_are_not_a_figure() {
        for s in ["31, 2022", "1, 2021", "30,2023"] {
            assert!(!is_value(s), "{s}");
        }
        for s in ["31, 202", "1,234", "312, 2022", "$ 31, 2022"] {
            assert!(!is_day_and_year(s), "{s}");
        }
        assert!(is_value("1,234"));
    }

    use crate::ingest::layout::test_line;

    /// eu-023 p3: "3rd -5th year students …" with the "rd" and "th" set as a line of their own.
    fn sentence_with_superscripts() -> Vec<Line> {
        vec![
            test_line(&[("out and overwhelmed than other students, particularly humanities", 58.0, 362.0)], 449.0, 11.0),
            test_line(&[("rd", 110.0, 116.0), ("th", 133.0, 138.0)], 459.8, 7.0),
            test_line(
                &[("students. 3", 58.0, 110.0), ("-5", 124.0, 133.0), ("year students and students in a long term", 146.0, 362.0)],
                461.6,
                11.0,
            ),
            test_line(&[("relationship tend to feel more tense and exhausted than 1", 58.0, 321.0), ("year or", 330.0, 362.0)], 474.3, 11.0),
            test_line(&[("st", 321.0, 326.0)], 472.5, 7.0),
        ]
    }

    #[test]
    fn superscripts_fold_into_their_line_so_a_sentence_is_not_a_table() {
        let lines = sentence_with_superscripts();
        let refs: Vec<&Line> = lines.iter().collect();
        let folded = fold_scripts(&refs);
        assert_eq!(folded.len(), 3, "the two superscript lines join their hosts");
        let host = folded.iter().find(|l| l.text().starts_with("students.")).unwrap();
        assert_eq!(host.text(), "students. 3 rd -5 th year students and students in a long term");
        assert!(!row_like(&segments(host)), "{:?}", segments(host).iter().map(|s| s.text()).collect::<Vec<_>>());
        let lay = Layout { lines };
        assert!(detect(&lay, &Graphics::default(), 420.0, 595.0).is_empty());
    }

    #[test]
    fn small_print_that_does_not_touch_a_word_keeps_its_own_line() {
        // A unit line "(in %)" set smaller beside a heading is not a superscript.
        let lines = [
            test_line(&[("Employment rate", 70.0, 150.0)], 100.0, 11.0),
            test_line(&[("(in %)", 170.0, 195.0)], 102.0, 8.0),
        ];
        let refs: Vec<&Line> = lines.iter().collect();
        assert_eq!(fold_scripts(&refs).len(), 2);
    }

    #[test]
    fn years_head_columns_and_shares_stay_with_their_value() {
        for s in ["2007", "1996/7", "FY2019", "2006*"] {
            assert!(is_year(s) && !is_value(s), "{s}");
        }
        for s in ["1,234", "63 (18.5%)", "101(20.4%)", "(3,115)", "3.5"] {
            assert!(is_value(s), "{s}");
        }
        assert!(!is_number("Total: 0%"));
    }

    #[test]
    fn figures_lined_up_in_more_columns_than_a_table_has_are_not_one() {
        // Six rows of 300 aligned figures each (a hostile page's shape): no 301-column table.
        let row = |k: usize| {
            let label = format!("Item {k}");
            let mut pieces: Vec<(String, f32, f32)> = vec![(label, 10.0, 40.0)];
            pieces.extend((0..300).map(|i| ("1.0".to_string(), 60.0 + i as f32 * 10.0, 66.0 + i as f32 * 10.0)));
            let pieces: Vec<(&str, f32, f32)> = pieces.iter().map(|(t, a, b)| (t.as_str(), *a, *b)).collect();
            test_line(&pieces, 100.0 + k as f32 * 6.0, 4.0)
        };
        let lay = crate::ingest::layout::Layout { lines: (0..6).map(row).collect() };
        let tables = detect(&lay, &Graphics::default(), 3200.0, 400.0);
        assert!(tables.iter().all(|t| t.cells.iter().all(|c| c.col < MAX_COLUMNS)), "{} tables", tables.len());
    }
}
