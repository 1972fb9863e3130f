//! The grid a whitespace table's rows are placed in (spec §4.1 step 5): a row's cells as
//! (first column, span, segment), the column a segment falls in (`place`) and two segments in one
//! column joined (`put`).

use super::segments::Seg;

#[derive(Clone)]
pub(super) struct RawRow {
    pub(super) cells: Vec<(usize, usize, Seg)>,
    pub(super) top: f32,
    pub(super) bot: f32,
    pub(super) size: f32,
    pub(super) value: bool,
    /// Text lines merged into this row.
    pub(super) lines: usize,
}

impl RawRow {
    pub(super) fn label_only(&self) -> bool {
        self.cells.len() == 1 && self.cells[0].0 == 0
    }
    pub(super) fn label(&self) -> Option<String> {
        self.cells.iter().find(|c| c.0 == 0).map(|c| c.2.text())
    }
}

pub(super) fn overlaps(a: &Seg, b: &Seg) -> bool {
    a.x0.max(b.x0) < a.x1.min(b.x1)
}

pub(super) fn append_seg(into: &mut Seg, from: &Seg) {
    into.words.extend(from.words.iter().cloned());
    into.x0 = into.x0.min(from.x0);
    into.x1 = into.x1.max(from.x1);
}

/// The columns a segment belongs to: those it covers for a good part of the column's or its own
/// width (a header centred over a narrow value column spills into its neighbours without spanning
/// them), else the nearest one.
pub(super) fn place(sg: &Seg, columns: &[(f32, f32)]) -> (usize, usize) {
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
pub(super) fn put(cells: &mut Vec<(usize, usize, Seg)>, c0: usize, span: usize, sg: &Seg) {
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
