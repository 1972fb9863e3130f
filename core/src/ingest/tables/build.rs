//! A region's rows built into a table (spec §4.1 step 5): its columns come from the horizontal
//! projection of the value segments, so a long row label or a spanning header cannot merge two
//! value columns; rows of several lines are merged (`rows`), header cells placed (`header`); a
//! grid too sparse, or a chart's axis, is no table; rules drawn around it extend it to the header
//! they frame.

use crate::ingest::layout::Graphics;
use crate::ingest::{Cell, Table};
use crate::corpus::BBox;
use super::figure::{axis_row, axis_ticks};
use super::grid::{RawRow, place, put};
use super::header::{headed_columns, headings_over_labels, span_to_rules};
use super::lines::Row;
use super::rows::merge_rows;
use super::segments::{Seg, is_value};

/// Most columns a whitespace table may have (label column included).
const MAX_COLUMNS: usize = 120;

pub(super) fn build(rows: &[Row], data: &[Row], graphics: &Graphics, _width: f32) -> Option<Table> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use super::super::detect;
    use crate::ingest::layout::test_line;

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
