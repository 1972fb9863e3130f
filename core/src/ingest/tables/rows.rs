//! Rows of several lines (spec §4.1 step 5): a wrapped row label, a label-only line and the figures
//! under it, a label continued in lower case, and stacked header lines each become one row
//! (`merge_rows`).

use super::grid::{RawRow, append_seg, overlaps};
use super::header::{ruled_between, split_under, stacks};

/// Multi-line row labels and multi-line headers become one row:
/// - a label-only line followed closely by a line that continues it (lowercase start) or carries the
///   values without a label of its own;
/// - a label-only line starting with `(` or lowercase right under a row continues that row's label;
/// - a header line whose cells sit in the columns of the header line above it (no values yet).
pub(super) fn merge_rows(raw: Vec<RawRow>, columns: &[(f32, f32)], hrules: &[[f32; 3]]) -> Vec<RawRow> {
    // Cells wrapped in a column of text are read as such only in a table that wraps two of them
    // or more (an exhibit index, a list of officers): a single such pair is as likely two
    // pieces of a poster's layout as one cell.
    let (merged, wraps) = merge(raw.clone(), columns, hrules, true);
    // Without a wrapped cell the two readings are the same: no second pass.
    if wraps == 0 || wraps >= MIN_WRAPPED_CELLS { merged } else { merge(raw, columns, hrules, false).0 }
}

/// Fewest cells wrapped in a column of text for a table to be read with them (`merge_rows`).
const MIN_WRAPPED_CELLS: usize = 2;

/// `merge_rows`, with cells wrapped in a column of text joined when `wrap_cells`; and how many
/// lines were so joined.
fn merge(raw: Vec<RawRow>, columns: &[(f32, f32)], hrules: &[[f32; 3]], wrap_cells: bool) -> (Vec<RawRow>, usize) {
    let mut wraps = 0;
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
    // Whether each line carries figures, its first column, its top and the columns it fills.
    let shape: Vec<(bool, usize, f32, Vec<usize>)> = raw
        .iter()
        .map(|r| (r.value, r.cells.iter().map(|c| c.0).min().unwrap_or(usize::MAX), r.top, r.cells.iter().map(|c| c.0).collect()))
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
            // A cell wrapped in a column of text (an exhibit's description beside its number
            // and its filing columns): a line of text, not figures, whose one piece sits under a
            // cell of the row above in the same column (not the label column), starting where
            // that cell's last line starts, its first word too wide for the rest of that line
            // within the column, goes on in that cell — unless figures follow within three lines
            // before any line starts a row of its own (a cell left of this column): then this
            // line opens that row, its label wrapped onto the line of its figures ("Natural gas
            // commodity" over "forward  $1 / MMBTU"). Lines of one cell are set closer together
            // than the cell is to the next row's: a line nearer the next line of its column than
            // the cell above belongs with that line ("Private activity bonds and government" over
            // "funded debt—fixed rate", which shares its line with its row's label).
            let c = r.cells.first().map_or(usize::MAX, |cell| cell.0);
            let opens_next = shape.iter().skip(k + 1).take(3).take_while(|s| s.1 >= c).any(|s| s.0);
            let gap_up = r.top - prev.bot;
            let gap_down = shape.iter().skip(k + 1).take(3).find(|s| s.3.contains(&c)).map_or(f32::MAX, |s| s.2 - r.bot);
            let nearer_up = gap_up <= gap_down + 0.1 * r.size;
            if wrap_cells && tight && nearer_up && prev.cells.len() >= 3 && !in_header && !r.value && !opens_next && r.cells.len() == 1 && r.cells[0].0 > 0 && r.cells[0].1 == 1 {
                let (c, _, lower) = &r.cells[0];
                let right = columns.get(*c).map_or(f32::MIN, |col| col.1);
                let size = r.size.max(prev.size);
                if let Some(p) = prev.cells.iter_mut().find(|p| p.0 == *c && p.1 == 1) {
                    if wraps_in_column(&p.2, lower, right, size) {
                        wraps += 1;
                        append_seg(&mut p.2, lower);
                        prev.bot = r.bot;
                        prev.lines += r.lines;
                        last = k;
                        continue;
                    }
                }
            }
        }
        out.push(r);
        last = k;
    }
    (out, wraps)
}

/// Where the last line of a cell of several lines starts.
fn last_line_start(cell: &super::segments::Seg, size: f32) -> f32 {
    let Some(end) = cell.words.last() else { return cell.x0 };
    cell.words.iter().rev().take_while(|w| w.ftop >= end.ftop - 0.3 * size).last().map_or(cell.x0, |w| w.fx0)
}

/// `lower` goes on from the text cell `upper` in a column whose widest line ends at `right`: it
/// starts where `upper`'s last line starts, in the same size, and its first word would not have
/// fit at the end of that line in a column six ems wide or more (in a narrower one a word of the
/// next entry fills the line as a wrapped word would). Both are words, not figures.
fn wraps_in_column(upper: &super::segments::Seg, lower: &super::segments::Seg, right: f32, size: f32) -> bool {
    let words = |s: &super::segments::Seg| s.text().chars().filter(|c| c.is_alphabetic()).count() >= 2;
    let (Some(end), Some(next)) = (upper.words.last(), lower.words.first()) else {
        return false;
    };
    let start = last_line_start(upper, size);
    words(upper)
        && words(lower)
        && (next.size - end.size).abs() <= 0.1 * end.size
        && !super::segments::is_value(&upper.text())
        && (next.fx0 - start).abs() <= 0.5 * size
        && right - start >= 6.0 * size
        && end.fx1 + 0.25 * size + (next.fx1 - next.fx0) > right
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
    let start = last_line_start(&up.2, size);
    end.fx1 <= limit + 0.25 * size
        && end.fx1 + 0.25 * size + (next.fx1 - next.fx0) > limit
        && limit - start >= 6.0 * size
        && (0.2 * size..=2.0 * size).contains(&(next.fx0 - start))
        && next_start.is_none_or(|x| x <= start + 0.2 * size)
        && !next.text.eq_ignore_ascii_case("total")
}
