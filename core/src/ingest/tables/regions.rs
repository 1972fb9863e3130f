//! Regions (spec §4.1 step 5): runs of row-like lines, with label-only lines between them
//! (section labels, wrapped row labels), become a table region; the short lines just above its
//! first row are its header. A grid drawn with rules is read from its rules (`ruled`), and
//! figures (`figure`) and footnote stacks (`notes`) that line up like tables are dropped.

use crate::ingest::layout::{Graphics, Line, GUTTER_EMS};
use crate::ingest::{Cell, Table};
use crate::corpus::BBox;
use super::build::build;
use super::captions::caption;
use super::figure::chart_grid;
use super::lines::Row;
use super::segments::{Seg, is_number, is_value, prose, sentence_words};

/// The tables found in a set of lines, and the boxes of the runs of row-like lines that made
/// none (`side_by_side` looks for two tables in them).
pub(super) struct Reading {
    pub(super) tables: Vec<Table>,
    pub(super) loose: Vec<BBox>,
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

/// A gap between two lines wider than this many lines of their size is a blank line: a region of
/// rows ends there unless the rows after it go on in its columns (`GROUP_GAP`), and a group's
/// heading stands no further over its first row.
const BLANK_LINE: f32 = 2.0;

/// The widest blank (in ems of the line's size) between two groups of rows of one table: a
/// blank line or two of the table's own leading. Wider, the rows after it start another table.
const GROUP_GAP: f32 = 3.2;

/// Most lines a group's heading and the short labels under it hold before the group's first row.
const GROUP_HEADING_LINES: usize = 6;

/// The label-only line `rows[j]` heads a group of rows of the table whose rows span `left` to
/// `right` and whose value columns are `cols`: a short heading set within the table's width (at
/// the label column, or centred over it: "Liabilities", "COVID-19 Vaccine"), then short labels
/// at the label column ("Current liabilities:"), each set close under the one before, stand right
/// over a row whose figures fall in two of the value columns seen or more — in the one value
/// column of a table of labels and one column of figures, once such a row (`labelled`) has been
/// seen: a header row of years alone shows no label column. A title over a table of its own is
/// followed by that table's column headings (years, "Total"), which are no figures in the columns
/// seen, and a paragraph is no short label.
fn group_heading(rows: &[Row], j: usize, (left, right): (f32, f32), cols: &[(f32, f32)], labelled: bool) -> bool {
    let in_cols = |s: &Seg| cols.iter().any(|c| s.x0.max(c.0) < s.x1.min(c.1));
    let heading = |r: &Row| {
        r.segs.len() == 1
            && r.segs[0].n_words() <= SHORT_LABEL_WORDS
            && r.line.fx0 >= left - r.line.size
            && r.line.fx1 <= right + r.line.size
    };
    let first = &rows[j];
    if first.caption || !heading(first) {
        return false;
    }
    for k in j..rows.len().min(j + GROUP_HEADING_LINES) {
        let r = &rows[k];
        if k > j && (r.caption || !short_label(r, left) || r.line.ftop - rows[k - 1].line.fbot > r.line.size) {
            return false;
        }
        let Some(next) = rows.get(k + 1) else { return false };
        if next.line.ftop - r.line.fbot > BLANK_LINE * next.line.size {
            return false;
        }
        if next.row_like() {
            let needed = if labelled && distinct_columns(cols) == 1 { 1 } else { 2 };
            return next.has_value() && next.segs[1..].iter().filter(|s| in_cols(s)).count() >= needed;
        }
    }
    false
}

/// Value columns among the pieces' extents seen: overlapping extents are one column.
fn distinct_columns(cols: &[(f32, f32)]) -> usize {
    let mut v = cols.to_vec();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut n = 0;
    let mut end = f32::MIN;
    for (x0, x1) in v {
        if x0 >= end {
            n += 1;
        }
        end = end.max(x1);
    }
    n
}

/// Label-only lines in a row that a region of rows goes on past (section labels, wrapped labels).
/// A longer stack goes on only when every line of it is a short label at the label column and the
/// row after it continues the value columns seen (`continues_columns`): a table whose groups of
/// rows are headed by a heading, a sub-heading and a wrapped item label is told from two tables
/// with a few short lines between them by the alignment of the rows, not by how many labels there
/// are.
const MAX_LABEL_LINES: usize = 3;
/// Words of a short label (a section label within a table).
const SHORT_LABEL_WORDS: usize = 6;

/// The label-only row is a short label set at the label column (`left`).
fn short_label(r: &Row, left: f32) -> bool {
    r.segs.len() == 1 && r.segs[0].n_words() <= SHORT_LABEL_WORDS && r.line.fx0 <= left + 2.5 * r.line.size
}

pub(super) fn detect_lines(folded: &[Line], graphics: &Graphics, width: f32) -> Reading {
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

    framed_phrase_rows(&mut rows, graphics);

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
        // Of those, the short labels at the label column (see MAX_LABEL_LINES).
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
            // Groups of rows set apart by a blank line, each under a heading of its own at the
            // label column or centred over it ("Pre-tax Adjustments", "Liabilities"), are one
            // table when the group's rows go on in the value columns seen.
            let heads_group = || group_heading(&rows, j, (left, right), &cols, labelled);
            if r.caption || gap > BLANK_LINE * size && !((aligned || heads_group()) && gap <= GROUP_GAP * size) {
                break;
            }
            // Past lines of the other column, a row reaching into that column is not this table's.
            if other_column && r.row_like() && r.line.fx1 >= right + GUTTER_EMS * size {
                break;
            }
            if r.row_like() {
                // Past a stack of short labels longer than MAX_LABEL_LINES, only a row whose
                // figures stand in the value columns seen goes on with the table.
                let continues_columns = r.has_value()
                    && r.segs[1..].iter().filter(|s| in_cols(s, &cols)).count() >= (r.segs.len() - 1).clamp(1, 2);
                if misses > MAX_LABEL_LINES && !continues_columns {
                    break;
                }
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
            } else if group_heading(&rows, j, (left, right), &cols, labelled) {
                // A group's heading over rows that go on in the table's columns.
                misses += 1;
                short_misses += 1;
            } else if r.segs.len() == 1
                && r.segs[0].n_words() <= 12
                && (misses < MAX_LABEL_LINES
                    || short_misses == misses && short_label(r, left))
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
    let found = super::ruled::detect(&lines, graphics);
    let banded: Vec<bool> = found.iter().map(|l| l.banded).collect();
    let lattices: Vec<Table> = found.into_iter().map(|l| l.table).collect();
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
        .zip(&banded)
        // Banded rows are read from their boxes where the whitespace reading does not already
        // hold them (it keeps a header set above the boxes).
        .filter(|(r, &b)| !(b && tables.iter().any(|t| share(&r.bbox, &t.bbox) >= 0.5)))
        .map(|(r, _)| r)
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
    caption(&mut tables, &lines);
    Reading { tables, loose }
}

/// Most words a line of one piece may hold inside a frame of rules that frames a table (a label
/// spanning rows, "Crude Oil Price"); a longer one is running text and the frame is no table's.
const FRAMED_LABEL_WORDS: usize = 6;

/// Most words a cell of a framed row may hold: a phrase ("Exchange Rate of United States of
/// America Dollar to Chinese Yuan"); lines of running text set in two columns are longer.
const FRAMED_CELL_WORDS: usize = 12;

/// The narrowest rule (points) that frames a table of phrases: about two columns of short words;
/// an underline under a word or a heading is shorter.
const FRAME_MIN_WIDTH: f32 = 50.0;

/// Lines of a table whose cells are phrases ("WTI | West Texas Intermediate Crude Oil Price") and
/// no figures are rows when rules frame them as a table: a top and a bottom rule of one extent (booktabs'
/// `\toprule` and `\bottomrule`, or `\hline`s), with nothing between them but lines inside their
/// extent, each of cells parted by gutters (phrases, not running text; no list item hung on a
/// bullet) or a short label, three of them of two cells or more.
/// Outside such a frame a line whose cells are long phrases stays text (`row_like`: a definition
/// list, a line of running text cut by a justified gap).
fn framed_phrase_rows(rows: &mut [Row], g: &Graphics) {
    // Rules whose ends lie this close (points) are of one extent.
    const SAME_EXTENT: f32 = 2.5;
    let mut hs: Vec<[f32; 3]> = g
        .hrules
        .iter()
        .filter(|r| r.iter().all(|v| v.is_finite()) && (r[2] - r[1]).abs() >= FRAME_MIN_WIDTH)
        .map(|r| [r[0], r[1].min(r[2]), r[1].max(r[2])])
        .collect();
    if hs.len() < 2 || hs.len() > 200 {
        return;
    }
    hs.sort_by(|a, b| a[0].total_cmp(&b[0]));
    let mut framed: Vec<usize> = vec![];
    for (i, top) in hs.iter().enumerate() {
        let (x0, x1) = (top[1] - SAME_EXTENT, top[2] + SAME_EXTENT);
        // Each rule of the same extent below (a `\midrule` under the header is one too), as long
        // as what lies between is a table's.
        let same = hs[i + 1..].iter().filter(|b| b[0] > top[0] + 1.0 && (b[1] - top[1]).abs() <= SAME_EXTENT && (b[2] - top[2]).abs() <= SAME_EXTENT);
        for bottom in same {
            let between: Vec<usize> = (0..rows.len())
                .filter(|&k| {
                    let b = &rows[k].line.bbox;
                    let cy = (b[1] + b[3]) / 2.0;
                    cy > top[0] && cy < bottom[0] && b[2] > x0 && b[0] < x1
                })
                .collect();
            let inside = between.iter().all(|&k| {
                let r = &rows[k];
                let cells = r.segs.len() >= 2
                    && !prose(&r.segs)
                    && r.segs.iter().all(|s| s.n_words() <= FRAMED_CELL_WORDS)
                    && r.segs[0].text().chars().any(char::is_alphanumeric);
                let label = r.segs.len() == 1 && r.segs[0].n_words() <= FRAMED_LABEL_WORDS;
                r.line.bbox[0] >= x0 && r.line.bbox[2] <= x1 && !r.caption && (cells || label)
            });
            // Figures in the frame, or right under it (a frame round the column headings of a
            // table of figures): the rows are found by their figures (`row_like`).
            let under = || {
                rows.iter()
                    .filter(|r| r.line.bbox[1] > bottom[0] && r.line.bbox[2] > x0 && r.line.bbox[0] < x1)
                    .min_by(|a, b| a.line.bbox[1].total_cmp(&b.line.bbox[1]))
                    .is_some_and(|r| r.has_value() && r.line.bbox[1] - bottom[0] <= 1.5 * r.line.size)
            };
            if !inside || between.iter().any(|&k| rows[k].has_value()) || under() {
                break;
            }
            if between.iter().filter(|&&k| rows[k].segs.len() >= 2).count() >= 3 {
                framed.extend(between.iter().copied().filter(|&k| rows[k].segs.len() >= 2));
            }
        }
    }
    for k in framed {
        rows[k].like = true;
    }
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
