//! Figures whose text lines up like a table (spec §4.1 step 5: detection reports tables, not charts):
//! what tells them apart is the drawing the text sits on, not the text.
//!
//! - **Legend**: most labels have a key just left of them — a short stroke at mid-line height (a line
//!   chart's series) or a small filled swatch (a bar chart's series).
//! - **Bar chart**: a value axis (evenly spaced ticks) right below; the figures sit on filled bars,
//!   the bars under one column end at different places and the figures drift with them. Cell
//!   shading is cut to the column and a table column keeps an edge.
//! - **Diagram**: the labels sit in boxes of their own with clear space (arrows) between neighbouring
//!   boxes. Ruled cells touch their neighbours; cell spacing in HTML tables is a point or two.
//! - **Chart axes**: a grid whose figures are evenly spaced ticks (450, 400, 350 …) is a chart's
//!   axis, not a table's column (`axis_ticks`, `axis_row` for whitespace grids, `chart_grid` for
//!   ruled ones).
//!
//! Every test is relative to the text size, so the rules hold at any scale. `regions` asks
//! [`figure`] about each table it found and drops the ones that are figures.

use crate::ingest::layout::{Graphics, Line};
use crate::ingest::{Cell, Table};
use crate::corpus::BBox;
use super::segments::{Seg, is_number, is_value};

/// What a table-like region turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Figure {
    Legend,
    BarChart,
    Diagram,
}

/// The figure `t` is, if it is one.
pub(crate) fn figure(t: &Table, g: &Graphics, lines: &[&Line]) -> Option<Figure> {
    if t.cells.is_empty() {
        return None;
    }
    let em = text_size(&t.cells);
    // Only drawings near the table matter (a page may hold thousands of paths).
    let near = |b: &BBox| {
        b[2] >= t.bbox[0] - 3.0 * em
            && b[0] <= t.bbox[2] + 3.0 * em
            && b[3] >= t.bbox[1] - em
            && b[1] <= t.bbox[3] + em
    };
    let local = Graphics {
        hrules: g
            .hrules
            .iter()
            .filter(|r| near(&[r[1].min(r[2]), r[0], r[1].max(r[2]), r[0]]))
            .copied()
            .collect(),
        vrules: g
            .vrules
            .iter()
            .filter(|r| near(&[r[0], r[1].min(r[2]), r[0], r[1].max(r[2])]))
            .copied()
            .collect(),
        path_boxes: g.path_boxes.iter().filter(|b| near(b)).copied().collect(),
        fills: g.fills.iter().filter(|b| near(b)).copied().collect(),
        ..Default::default()
    };
    if legend(&t.cells, &local, em) {
        Some(Figure::Legend)
    } else if axis_below(t, lines, em) && bar_chart(&t.cells, &local, em) {
        Some(Figure::BarChart)
    } else if diagram(&t.cells, &local, em) {
        Some(Figure::Diagram)
    } else {
        None
    }
}

/// The body text size of the table: the median cell height (one glyph box is one em tall; a few
/// wrapped cells do not move the median).
fn text_size(cells: &[Cell]) -> f32 {
    let mut h: Vec<f32> = cells.iter().map(|c| c.bbox[3] - c.bbox[1]).filter(|h| *h > 0.0).collect();
    h.sort_by(f32::total_cmp);
    h.get(h.len() / 2).copied().unwrap_or(10.0).max(1.0)
}

/// A series key just left of the cell's first line: a short free-standing stroke or a small filled
/// swatch (not a rule: at least 0.4 em each way) whose middle is at mid-line height and which ends
/// within 1.5 em of the text.
fn keyed(c: &Cell, g: &Graphics, em: f32) -> bool {
    let (mid_lo, mid_hi) = (c.bbox[1] + 0.2 * em, c.bbox[1] + 0.8 * em);
    let ends_before = |x1: f32| x1 <= c.bbox[0] + 0.5 && x1 >= c.bbox[0] - 1.5 * em;
    let stroke = g.hrules.iter().any(|r| {
        let (x0, x1) = (r[1].min(r[2]), r[1].max(r[2]));
        let len = x1 - x0;
        // The cheap tests first: most of a statement's rules fail them, and the two scans below
        // are over every rule and fill near the table (a shaded statement has thousands).
        if !((0.5 * em..=4.0 * em).contains(&len) && (mid_lo..=mid_hi).contains(&r[0]) && ends_before(x1)) {
            return false;
        }
        // A grid's rule ends on a vertical rule; a key stands free.
        let free = !g.vrules.iter().any(|v| {
            let (y0, y1) = (v[1].min(v[2]), v[1].max(v[2]));
            ((v[0] - x0).abs() <= 1.5 || (v[0] - x1).abs() <= 1.5) && y0 - 1.5 <= r[0] && r[0] <= y1 + 1.5
        });
        // Nor is it the edge of a shaded box (the reader turns fill edges into rules).
        let edge = || {
            g.fills.iter().any(|f| {
                ((f[1] - r[0]).abs() <= 1.0 || (f[3] - r[0]).abs() <= 1.0) && f[0] <= x0 + 1.0 && f[2] >= x1 - 1.0
            })
        };
        free && !edge()
    });
    stroke
        || g.fills.iter().any(|b| {
            let (w, h, cy) = (b[2] - b[0], b[3] - b[1], (b[1] + b[3]) / 2.0);
            (0.4 * em..=2.5 * em).contains(&w)
                && (0.4 * em..=1.5 * em).contains(&h)
                && (mid_lo..=mid_hi).contains(&cy)
                && ends_before(b[2])
                && stands_free(b, &g.fills)
        })
}

/// No other fill touches or overlaps `b` except one that holds it (the legend's own panel): a
/// swatch stands free, a piece of a shaded cell background abuts the next piece.
fn stands_free(b: &BBox, fills: &[BBox]) -> bool {
    !fills.iter().any(|f| {
        let holds = f[0] <= b[0] + 0.5 && f[1] <= b[1] + 0.5 && f[2] >= b[2] - 0.5 && f[3] >= b[3] - 0.5;
        let touches = f[0] <= b[2] + 0.5 && f[2] >= b[0] - 0.5 && f[1] <= b[3] + 0.5 && f[3] >= b[1] - 0.5;
        f != b && touches && !holds
    })
}

/// At least three labels, and at least half of them, carry a series key.
fn legend(cells: &[Cell], g: &Graphics, em: f32) -> bool {
    let labels: Vec<&Cell> = cells.iter().filter(|c| !super::segments::is_number(&c.text)).collect();
    let keyed = labels.iter().filter(|c| keyed(c, g, em)).count();
    keyed >= 3 && 2 * keyed >= labels.len()
}

/// The boxes of `boxes` that hold the cell: they span its text horizontally, hold its middle
/// vertically and are at most `max_h` tall (a bar or a box, not the panel behind a whole chart).
fn holders<'a>(c: &'a Cell, boxes: &'a [BBox], max_h: f32) -> impl Iterator<Item = BBox> + 'a {
    let cy = (c.bbox[1] + c.bbox[3]) / 2.0;
    boxes
        .iter()
        .filter(move |b| {
            b[0] <= c.bbox[0] + 1.0
                && b[2] >= c.bbox[2] - 1.0
                && b[1] < cy
                && cy < b[3]
                && b[3] - b[1] <= max_h
        })
        .copied()
}

fn area(b: &BBox) -> f32 {
    (b[2] - b[0]) * (b[3] - b[1])
}

/// A value axis right under the region: a line, starting within three em of its bottom, made
/// mostly of four or more evenly spaced ticks (0% 10% 20% …; not a run of years).
fn axis_below(t: &Table, lines: &[&Line], em: f32) -> bool {
    let tick = |s: &str| -> Option<f64> { s.trim_end_matches('%').replace(',', "").parse::<f64>().ok() };
    lines.iter().any(|l| {
        // Where the line is first: its words are parsed only under the region.
        let under = l.ftop >= t.bbox[3] - 0.5 * em && l.ftop <= t.bbox[3] + 3.0 * em && l.fx0 < t.bbox[2] && l.fx1 > t.bbox[0];
        if !under {
            return false;
        }
        let vals: Vec<f64> = l.words.iter().filter_map(|w| tick(&w.text)).collect();
        let step = vals.get(1).zip(vals.first()).map_or(0.0, |(b, a)| b - a);
        let years = (step - 1.0).abs() < 1e-9 && vals.iter().all(|v| (1900.0..=2100.0).contains(v));
        vals.len() >= 4
            && 4 * vals.len() >= 3 * l.words.len()
            && step > 0.0
            && vals.windows(2).all(|w| ((w[1] - w[0]) - step).abs() <= 1e-6 * step.max(1.0))
            && !years
    })
}

/// Figures on bars: four or more figures, three quarters of them on a filled box, and in at least
/// half the columns the boxes under the figures start or end more than an em apart (bars of
/// different lengths; shading cut to a column has one extent) while the figures share no left,
/// right or centre edge (they are centred on their bars).
fn bar_chart(cells: &[Cell], g: &Graphics, em: f32) -> bool {
    let values: Vec<&Cell> = cells.iter().filter(|c| super::segments::is_value(&c.text)).collect();
    let on: Vec<(usize, BBox)> = values
        .iter()
        .filter_map(|c| {
            // The bar itself: the smallest fill under the figure.
            holders(c, &g.fills, 3.0 * em).min_by(|a, b| area(a).total_cmp(&area(b))).map(|b| (c.col, b))
        })
        .collect();
    if values.len() < 4 || 4 * on.len() < 3 * values.len() {
        return false;
    }
    let mut cols: Vec<usize> = on.iter().map(|(c, _)| *c).collect();
    cols.sort_unstable();
    cols.dedup();
    let (mut with_bars, mut ragged) = (0, 0);
    for col in cols {
        let bars: Vec<&BBox> = on.iter().filter(|(c, _)| *c == col).map(|(_, b)| b).collect();
        if bars.len() < 2 {
            continue;
        }
        with_bars += 1;
        let spread = |k: usize| {
            let (lo, hi) = bars.iter().fold((f32::MAX, f32::MIN), |(lo, hi), b| (lo.min(b[k]), hi.max(b[k])));
            hi - lo
        };
        // Figures centred on bars of different lengths drift; a table column keeps a common
        // left, right or centre edge.
        let texts: Vec<&Cell> = values
            .iter()
            .copied()
            .filter(|c| c.col == col && holders(c, &g.fills, 3.0 * em).next().is_some())
            .collect();
        let drift = |f: &dyn Fn(&Cell) -> f32| {
            let (lo, hi) = texts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), c| (lo.min(f(c)), hi.max(f(c))));
            hi - lo
        };
        let aligned = drift(&|c| c.bbox[0]) <= 0.3 * em
            || drift(&|c| c.bbox[2]) <= 0.3 * em
            || drift(&|c| (c.bbox[0] + c.bbox[2]) / 2.0) <= 0.3 * em;
        if (spread(0) > em || spread(2) > em) && !aligned {
            ragged += 1;
        }
    }
    ragged > 0 && 2 * ragged >= with_bars
}

/// A connector (an arrow, a line) drawn in the space between box `a` and box `b` to its right:
/// it covers at least half the gap and lies level with both boxes. Shaded table cells with white
/// gutters between them have nothing in the gutters.
fn linked(a: &BBox, b: &BBox, paths: &[BBox]) -> bool {
    let gap = b[0] - a[2];
    paths.iter().any(|p| {
        let cover = p[2].min(b[0]) - p[0].max(a[2]);
        let cy = (p[1] + p[3]) / 2.0;
        p[0] >= a[2] - 1.0
            && p[2] <= b[0] + 1.0
            && cover >= 0.5 * gap
            && cy > a[1].max(b[1])
            && cy < a[3].min(b[3])
    })
}

/// Labels in boxes joined by connectors: at least half the cells sit in a drawn outline, and along the rows
/// at least two pairs of neighbouring cells sit in different boxes with more than 0.8 em of space
/// between them and a connector drawn across it, such pairs being at least two thirds of the
/// neighbouring pairs that are both boxed. A cell's box is the largest one around it up to six em tall: a table cell drawn as an
/// outer background and an inset padding box (word processors) is its outer box, which touches
/// the next cell's.
fn diagram(cells: &[Cell], g: &Graphics, em: f32) -> bool {
    // Diagram boxes are outlines; shaded cell backgrounds (fills) are tables' (HTML statements).
    let outlines: Vec<BBox> = g.path_boxes.iter().filter(|b| !g.fills.contains(b)).copied().collect();
    let box_of = |c: &Cell| holders(c, &outlines, 6.0 * em).max_by(|a, b| area(a).total_cmp(&area(b)));
    let boxed = cells.iter().filter(|c| box_of(c).is_some()).count();
    if 2 * boxed < cells.len() {
        return false;
    }
    let n_rows = cells.iter().map(|c| c.row + 1).max().unwrap_or(0);
    let (mut boxed_pairs, mut apart) = (0, 0);
    for r in 0..n_rows {
        let mut row: Vec<&Cell> = cells.iter().filter(|c| c.row == r).collect();
        row.sort_by(|a, b| a.bbox[0].total_cmp(&b.bbox[0]));
        let boxes: Vec<Option<BBox>> = row.iter().map(|c| box_of(c)).collect();
        for w in boxes.windows(2) {
            if let [Some(a), Some(b)] = w {
                boxed_pairs += 1;
                if a != b && b[0] - a[2] > 0.8 * em && linked(a, b, &g.path_boxes) {
                    apart += 1;
                }
            }
        }
    }
    apart >= 2 && 3 * apart >= 2 * boxed_pairs
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
pub(super) fn axis_ticks(grid_rows: &[Vec<(usize, usize, Seg)>]) -> bool {
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
pub(super) fn axis_row(grid_rows: &[Vec<(usize, usize, Seg)>]) -> bool {
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
pub(super) fn chart_grid(grid: &[Vec<String>]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: usize, col: usize, text: &str, bbox: BBox) -> Cell {
        Cell { row, col, row_span: 1, col_span: 1, text: text.into(), bbox }
    }

    fn table(cells: Vec<Cell>) -> Table {
        let mut bbox = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for c in &cells {
            bbox = [bbox[0].min(c.bbox[0]), bbox[1].min(c.bbox[1]), bbox[2].max(c.bbox[2]), bbox[3].max(c.bbox[3])];
        }
        let n_rows = cells.iter().map(|c| c.row + 1).max().unwrap_or(0);
        let n_cols = cells.iter().map(|c| c.col + 1).max().unwrap_or(0);
        Table { bbox, cells, caption: String::new(), continues_from_previous: false, n_rows, n_cols, header_rows: 0, ruled: false, notes: vec![] }
    }

    /// A line chart's key (eu-011 p1): two series per line, each name after a 19 pt stroke.
    fn line_chart_key() -> (Table, Graphics) {
        let names = [["Greece", "Spain"], ["Ireland", "Italy"], ["Portugal", "UK"]];
        let mut cells = vec![];
        let mut g = Graphics::default();
        for (r, pair) in names.iter().enumerate() {
            let top = 212.7 + 25.0 * r as f32;
            for (k, name) in pair.iter().enumerate() {
                let x = 185.0 + 69.0 * k as f32;
                cells.push(cell(r, k, name, [x, top, x + 25.0, top + 7.8]));
                g.hrules.push([top + 2.7, x - 20.4, x - 1.2]);
            }
        }
        (table(cells), g)
    }

    #[test]
    fn series_names_after_short_strokes_are_a_legend() {
        let (t, g) = line_chart_key();
        assert_eq!(figure(&t, &g, &[]), Some(Figure::Legend));
    }

    #[test]
    fn labels_over_a_long_rule_are_not_a_legend() {
        // The same words with a table's rule under the whole row are a table.
        let (t, mut g) = line_chart_key();
        g.hrules = vec![[209.0, 150.0, 300.0], [285.0, 150.0, 300.0]];
        assert_eq!(figure(&t, &g, &[]), None);
    }

    /// Stacked bars (eu-012 p3): each figure centred on its segment; the segments of one series end
    /// at different places from year to year.
    fn stacked_bars(ragged: bool) -> (Table, Graphics) {
        let mut cells = vec![];
        let mut g = Graphics::default();
        for r in 0..5 {
            let top = 129.1 + 25.6 * r as f32;
            let shift = if ragged { 3.0 * r as f32 } else { 0.0 };
            let edges = [111.0, 228.0 - shift, 416.0 - 2.0 * shift, 495.0];
            cells.push(cell(r, 0, &format!("{}", 2001 + 5 * r), [83.0, top, 104.0, top + 11.0]));
            for k in 0..3 {
                let mid = (edges[k] + edges[k + 1]) / 2.0;
                cells.push(cell(r, k + 1, &format!("{}.5", 30 + k), [mid - 9.0, top, mid + 9.0, top + 11.0]));
                g.fills.push([edges[k], top + 0.4, edges[k + 1], top + 10.7]);
            }
        }
        (table(cells), g)
    }

    /// The percentage axis under the bars.
    fn axis(t: &Table) -> Line {
        let ticks: Vec<(String, f32, f32)> =
            (0..=10).map(|k| (format!("{}%", 10 * k), 105.0 + 38.0 * k as f32, 118.0 + 38.0 * k as f32)).collect();
        let pieces: Vec<(&str, f32, f32)> = ticks.iter().map(|(s, a, b)| (s.as_str(), *a, *b)).collect();
        crate::ingest::layout::test_line(&pieces, t.bbox[3] + 10.0, 10.3)
    }

    #[test]
    fn figures_on_bars_of_different_lengths_above_an_axis_are_a_bar_chart() {
        let (t, g) = stacked_bars(true);
        let axis = axis(&t);
        assert_eq!(figure(&t, &g, &[&axis]), Some(Figure::BarChart));
        // Without the axis nothing says chart: shaded statements can look like this.
        assert_eq!(figure(&t, &g, &[]), None);
    }

    #[test]
    fn figures_on_column_shading_are_a_table() {
        let (t, g) = stacked_bars(false);
        let axis = axis(&t);
        assert_eq!(figure(&t, &g, &[&axis]), None);
    }

    /// A flow chart (eu-014 p1): labels in boxes, with or without arrows between them.
    fn boxes_in_a_row(gap: f32, arrows: bool) -> (Table, Graphics) {
        let mut cells = vec![];
        let mut g = Graphics::default();
        let mut x = 63.0;
        for (k, name) in ["Taxes", "State budget", "Ministry", "Providers"].iter().enumerate() {
            let w = 12.0 + 5.0 * name.len() as f32;
            cells.push(cell(0, k, name, [x + 6.0, 272.6, x + w - 6.0, 285.0]));
            g.path_boxes.push([x, 268.0, x + w, 290.0]);
            if arrows && k > 0 {
                g.path_boxes.push([x - gap, 276.0, x, 282.0]);
            }
            x += w + gap;
        }
        (table(cells), g)
    }

    #[test]
    fn labels_in_separate_boxes_are_a_diagram() {
        let (t, g) = boxes_in_a_row(18.0, true);
        assert_eq!(figure(&t, &g, &[]), Some(Figure::Diagram));
    }

    #[test]
    fn shaded_cells_with_empty_gutters_are_a_table() {
        // Blocks shaded per column with white gutters between them: cell shading, not boxes of a diagram.
        let (t, g) = boxes_in_a_row(18.0, false);
        assert_eq!(figure(&t, &g, &[]), None);
    }

    #[test]
    fn cells_with_inset_padding_boxes_are_a_table() {
        // Word processors draw each cell as a background and an inset padding box: the inset boxes
        // stand apart, the backgrounds touch, so the cells are one grid.
        let (t, mut g) = boxes_in_a_row(1.5, false);
        let insets: Vec<BBox> = g.path_boxes.iter().map(|b| [b[0] + 5.0, b[1], b[2] - 5.0, b[3]]).collect();
        g.path_boxes.extend(insets);
        assert_eq!(figure(&t, &g, &[]), None);
    }

    #[test]
    fn cells_drawn_as_touching_boxes_are_a_table() {
        let (t, g) = boxes_in_a_row(1.5, false);
        assert_eq!(figure(&t, &g, &[]), None);
    }
}
