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
//!
//! One file per job, each using only the files listed below it (the reader's entry is `detect`):
//! - `regions`: runs of row-like lines into regions; ruled grids, figures and notes filtered out;
//!   captions attached.
//! - `build`: a region's rows into a table (columns, sparse grids and chart axes rejected).
//! - `rows`: lines merged into rows (wrapped labels, label-only lines over their figures).
//! - `header`: header structure (stacked and spanning headings, headed empty columns).
//! - `columns`: a page's two columns, text beside a table, tables side by side, read apart.
//! - `ruled`: grids drawn with rules; `figure`: charts, legends, diagrams and chart axes;
//!   `notes`: a table's footnotes.
//! - `grid`: a row's cells placed in columns.
//! - `lines`: lines as candidate rows; superscripts and offset figures folded into their line.
//! - `captions`: caption lines, and the caption over a table.
//! - `segments`: a line cut into cells; figures, years, dot leaders, footnote marks.
//! - `continuations`: a table going on from the page before (linked once all pages are read).
//! - `contents`: a contents list set like a table (page references for figures) is not one.

mod build;
mod captions;
mod columns;
mod contents;
mod continuations;
mod figure;
mod grid;
mod header;
mod lines;
pub mod notes;
mod regions;
mod rows;
mod ruled;
mod segments;

pub use continuations::link_continuations;
pub(crate) use segments::without_leaders;

use crate::ingest::layout::{Graphics, Layout, Line};
use crate::ingest::Table;
use crate::corpus::BBox;
use self::columns::{Beside, page_columns, side_by_side, text_beside, within, without};
use self::lines::{fold_offset_figures, fold_scripts};
use self::regions::{Reading, detect_lines};

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
    // A contents page is set like a table, but its figures are page references (`contents`).
    contents::without_contents(tables)
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

/// Readings of a page with the right-hand table of a pair set apart.
const SIDE_BY_SIDE_ROUNDS: usize = 3;

/// Readings of a page without the text columns found beside its tables (see `detect`).
const TEXT_BESIDE_ROUNDS: usize = 3;
