//! Header structure (spec §4.1 step 5, spanning headers; issue 3 deliverable 3): header lines set
//! under the pieces of the line above continue them (`stacks`, `split_under`) unless a rule is
//! drawn between (`ruled_between`); a heading spans the value columns its rules enclose
//! (`span_to_rules`); a heading right of the labels is its value column's (`headings_over_labels`),
//! and a column headed but empty is a column of its own (`headed_columns`).

use crate::ingest::layout::Word;
use super::grid::{RawRow, overlaps, place};
use super::lines::Row;
use super::segments::Seg;

/// A heading set just left of its column's figures falls in the wide label column: the column
/// letter "(a)" right-aligned over Boeing's "Total Number of Shares / Purchased(1)", whose figures
/// start further right (issue 3, deliverable 3: header rows). When the heading of a value column
/// on another header line lies over it, and its own line has no heading in that column, it is
/// that column's. A heading at the labels' left edge ("(in millions)") is the label column's.
pub(super) fn headings_over_labels(header: &mut [RawRow], columns: &[(f32, f32)]) {
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
pub(super) fn headed_columns(rows: &[Row], cols: &[(f32, f32)]) -> Vec<(f32, f32)> {
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

/// The lower header line continues the cells of the upper one: every piece overlaps at most one
/// piece of the other line, at least one pair overlaps, and the row label is not continued by a
/// value cell.
pub(super) fn stacks(upper: &RawRow, lower: &RawRow) -> bool {
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

/// A header line set under two pieces of the line above continues each of them, even where its
/// words are closer than a cell gap ("Under 18 | 18 years" over "years and over"): it is cut
/// where consecutive words stand in different value columns, when every part then lies mostly
/// under one piece above or under none, and at least two under one. A piece *over* two pieces
/// is a spanning header and is left whole (only the lower line is cut).
pub(super) fn split_under(upper: &RawRow, mut lower: RawRow, columns: &[(f32, f32)]) -> RawRow {
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
pub(super) fn ruled_between(upper: &RawRow, lower: &RawRow, columns: &[(f32, f32)], hrules: &[[f32; 3]]) -> bool {
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
pub(super) fn span_to_rules(cells: &mut [(usize, usize, Seg)], columns: &[(f32, f32)], hrules: &[[f32; 3]], vrules: &[[f32; 3]]) {
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
