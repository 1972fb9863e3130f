//! Ruled tables (spec §4.1 step 5 "native rule-based table detection", issue 3): a grid drawn with
//! horizontal and vertical rules is read from the rules themselves.
//!
//! Rules that cross or touch form a connected *lattice*; its distinct rule positions cut the lattice
//! box into slots, and two neighbouring slots are one cell when no rule separates them (a spanning
//! header, a merged label). Words fall into the slot holding their centre. Double borders and hairline
//! gaps (rules a few points apart) are one boundary. A lattice with a single column, or whose slots
//! are mostly empty (a chart frame with gridlines), is not a table; a box around a paragraph has one
//! slot and is ignored. Whitespace-aligned tables without vertical rules stay with `regions` and `build`.

use crate::ingest::layout::{join_words, Graphics, Line, Word};
use crate::ingest::{Cell, Table};
use crate::corpus::BBox;

/// Rules closer than this (points) are one boundary: double borders, cell background edges.
const SAME_RULE: f32 = 6.0;
/// Slack when deciding that two rules touch (points).
const TOUCH: f32 = 2.5;
/// Rules looked at past each rule for the other stroke of a double rule (pieces of a row of cell
/// borders lie between the two strokes in position order).
const DOUBLE_RULE_SCAN: usize = 64;

#[derive(Debug, Clone, Copy)]
struct Rule {
    /// Position across the rule (y of a horizontal rule, x of a vertical one).
    at: f32,
    from: f32,
    to: f32,
}

/// Same-position pieces that touch become one rule (a row of cell borders drawn one by one).
fn merge(mut rules: Vec<Rule>) -> Vec<Rule> {
    rules.retain(|r| r.at.is_finite() && r.from.is_finite() && r.to.is_finite());
    rules.sort_by(|a, b| a.at.total_cmp(&b.at).then(a.from.total_cmp(&b.from)));
    let mut out: Vec<Rule> = vec![];
    for r in rules {
        match out
            .iter_mut()
            .rev()
            .take(8)
            .find(|o| (o.at - r.at).abs() <= 1.0 && r.from <= o.to + TOUCH)
        {
            Some(o) => o.to = o.to.max(r.to),
            None => out.push(r),
        }
    }
    out
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra] = rb;
    }
}

/// Distinct positions, rules closer than [`SAME_RULE`] counted once.
fn cuts(mut v: Vec<f32>) -> Vec<f32> {
    v.sort_by(f32::total_cmp);
    let mut out: Vec<f32> = vec![];
    for x in v {
        match out.last() {
            Some(&l) if x - l < SAME_RULE => {}
            _ => out.push(x),
        }
    }
    out
}

/// Ruled tables on one page, with the words they hold.
pub fn detect(lines: &[&Line], g: &Graphics) -> Vec<Lattice> {
    // A drawn rule is [position, start, end] with start and end in either order.
    let rules = |raw: &[[f32; 3]]| merge(raw.iter().map(|r| Rule { at: r[0], from: r[1].min(r[2]), to: r[1].max(r[2]) }).collect());
    let v = rules(&g.vrules);
    let h = without_underlines(rules(&g.hrules), &v, lines, &g.fills);
    if h.len() < 2 || v.len() < 2 || h.len() * v.len() > 400_000 {
        return vec![];
    }
    // Lattices: horizontal and vertical rules that cross or touch.
    let n = h.len() + v.len();
    let mut parent: Vec<usize> = (0..n).collect();
    for (i, a) in h.iter().enumerate() {
        for (j, b) in v.iter().enumerate() {
            if b.at >= a.from - TOUCH
                && b.at <= a.to + TOUCH
                && a.at >= b.from - TOUCH
                && a.at <= b.to + TOUCH
            {
                union(&mut parent, i, h.len() + j);
            }
        }
    }
    // A double rule is one boundary: the rules drawn between its two strokes stop at one stroke or
    // the other (a `\hline\hline` between two blocks of a grid, whose column rules break at
    // the gap), so rules of one extent set closer than `SAME_RULE` join their lattices. `merge`
    // sorts rules by position, so only the next rules up to `SAME_RULE` further on are compared
    // (at most `DOUBLE_RULE_SCAN` of them: a hostile page may draw thousands of pieces on one line).
    for (base, rs) in [(0, &h), (h.len(), &v)] {
        for (i, a) in rs.iter().enumerate() {
            let next = rs.iter().enumerate().skip(i + 1).take(DOUBLE_RULE_SCAN);
            for (j, b) in next.take_while(|(_, b)| b.at - a.at < SAME_RULE) {
                if (a.from - b.from).abs() <= TOUCH && (a.to - b.to).abs() <= TOUCH {
                    union(&mut parent, base + i, base + j);
                }
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, (Vec<Rule>, Vec<Rule>)> = Default::default();
    for (i, r) in h.iter().enumerate() {
        let k = find(&mut parent, i);
        groups.entry(k).or_default().0.push(*r);
    }
    for (j, r) in v.iter().enumerate() {
        let k = find(&mut parent, h.len() + j);
        groups.entry(k).or_default().1.push(*r);
    }
    // Grids ruled block by block (one shaded block per year) that sit edge to edge, over the same
    // rows, are one table.
    let mut gs: Vec<(Vec<Rule>, Vec<Rule>)> = groups
        .into_values()
        .filter(|(hs, vs)| !hs.is_empty() && !vs.is_empty())
        .collect();
    let bounds = |g: &(Vec<Rule>, Vec<Rule>)| {
        let x0 = g.0.iter().map(|r| r.from).fold(f32::MAX, f32::min);
        let x1 = g.0.iter().map(|r| r.to).fold(f32::MIN, f32::max);
        let y0 = g.0.iter().map(|r| r.at).fold(f32::MAX, f32::min);
        let y1 = g.0.iter().map(|r| r.at).fold(f32::MIN, f32::max);
        [x0, y0, x1, y1]
    };
    // Quadratic in the number of lattices: a page of hundreds of ruled specks is not a table page.
    let mut merged = gs.len() <= 200;
    while merged {
        merged = false;
        'outer: for i in 0..gs.len() {
            for j in 0..gs.len() {
                if i == j {
                    continue;
                }
                let (a, b) = (bounds(&gs[i]), bounds(&gs[j]));
                let gap = b[0] - a[2];
                let overlap = a[3].min(b[3]) - a[1].max(b[1]);
                let shorter = (a[3] - a[1]).min(b[3] - b[1]);
                if (-TOUCH..SAME_RULE).contains(&gap) && shorter > 0.0 && overlap >= 0.8 * shorter {
                    let g = gs.remove(j);
                    let k = if j < i { i - 1 } else { i };
                    gs[k].0.extend(g.0);
                    gs[k].1.extend(g.1);
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    banded(gs, lines)
        .into_iter()
        .filter_map(|(hs, vs, banded)| lattice_table(&hs, &vs, lines, &g.fills).map(|table| Lattice { table, banded }))
        .collect()
}

/// A table read from rules, and whether it was read from banded rows (`banded`).
pub struct Lattice {
    pub table: Table,
    pub banded: bool,
}

/// A rule drawn under the words of one line, from the first word's start to the last one's end
/// (a hyperlink's underline, an underlined heading), decorates text: it cuts no rows. A cell's
/// border runs along the cell, past its text's ends (padding, alignment). The edge of a box
/// painted behind a run of text (a paragraph laid out as HTML: `runs_across` reads such boxes as
/// running text) and the bottom of a frame drawn round a word (a vertical rule ends at a corner of
/// it) stay rules.
fn without_underlines(h: Vec<Rule>, v: &[Rule], lines: &[&Line], fills: &[BBox]) -> Vec<Rule> {
    const ENDS: f32 = 1.5;
    let box_edge = |r: &Rule| {
        fills.iter().any(|b| {
            ((b[1] - r.at).abs() <= 1.0 || (b[3] - r.at).abs() <= 1.0) && b[0] <= r.from + ENDS && b[2] >= r.to - ENDS
        })
    };
    let cornered = |r: &Rule| {
        v.iter().any(|q| {
            ((q.from - r.at).abs() <= TOUCH || (q.to - r.at).abs() <= TOUCH)
                && ((q.at - r.from).abs() <= TOUCH || (q.at - r.to).abs() <= TOUCH)
        })
    };
    let underlines = |r: &Rule| {
        !box_edge(r) && !cornered(r) && lines.iter().any(|l| {
            (r.at - l.bbox[3]).abs() <= 0.3 * l.size
                && l.words.iter().any(|w| (w.bbox[0] - r.from).abs() <= ENDS)
                && l.words.iter().any(|w| (w.bbox[2] - r.to).abs() <= ENDS)
        })
    };
    h.into_iter().filter(|r| !underlines(r)).collect()
}

/// A lattice's column and row cuts: columns from its vertical rules and its outer edges only (the
/// ends of rules drawn under single cells, statement totals, are no column boundaries), rows from
/// its horizontal rules and the ends of its vertical ones.
fn grid_cuts(hs: &[Rule], vs: &[Rule]) -> (Vec<f32>, Vec<f32>) {
    let left = hs.iter().map(|r| r.from).fold(f32::MAX, f32::min);
    let right = hs.iter().map(|r| r.to).fold(f32::MIN, f32::max);
    let xs = cuts(vs.iter().map(|r| r.at).chain([left, right]).collect());
    let ys = cuts(hs.iter().map(|r| r.at).chain(vs.iter().flat_map(|r| [r.from, r.to])).collect());
    (xs, ys)
}

/// Banded rows (zebra striping): a writer shades every other row of a table, each shaded row a
/// box of its own with the table's column edges, the rows between them unshaded. Three boxes or
/// more, each one row (no rule across it), with the same column edges, stacked with gaps no
/// taller than three times the taller box beside the gap, and every line in a gap kept within
/// the columns (no word over a column edge), are one table when their rows wrap (half the boxes
/// or more hold text on two baselines: an exhibit index, a list of properties): the unshaded
/// rows are its rows too, and the column edges run down through them. Rows of one line each (a
/// statement shaded every other line) are read from their alignment.
fn banded(gs: Vec<(Vec<Rule>, Vec<Rule>)>, lines: &[&Line]) -> Vec<(Vec<Rule>, Vec<Rule>, bool)> {
    struct Band {
        xs: Vec<f32>,
        /// Row edges, top to bottom: two for a box of one row.
        ys: Vec<f32>,
        top: f32,
        bottom: f32,
    }
    // Each lattice of two columns or more, as (its index in `gs`, its box), top to bottom.
    let mut bands: Vec<(usize, Band)> = gs
        .iter()
        .enumerate()
        .filter_map(|(i, (hs, vs))| {
            let (xs, ys) = grid_cuts(hs, vs);
            (xs.len() >= 3 && ys.len() >= 2).then(|| (i, Band { top: ys[0], bottom: ys[ys.len() - 1], xs, ys }))
        })
        .collect();
    bands.sort_by(|a, b| a.1.top.total_cmp(&b.1.top));
    // The tallest row of a box.
    let row = |b: &Band| b.ys.windows(2).map(|r| r[1] - r[0]).fold(0.0f32, f32::max);
    let same_columns = |a: &Band, b: &Band| a.xs.len() == b.xs.len() && a.xs.iter().zip(&b.xs).all(|(x, y)| (x - y).abs() < SAME_RULE);
    // A line within the columns: inside the outer edges, no word over an inner one.
    let within_columns = |l: &Line, xs: &[f32]| {
        let (x0, x1) = (xs[0], xs[xs.len() - 1]);
        l.bbox[0] >= x0 - TOUCH
            && l.bbox[2] <= x1 + TOUCH
            && l.words.iter().all(|w| !xs[1..xs.len() - 1].iter().any(|&x| w.bbox[0] < x - 1.0 && w.bbox[2] > x + 1.0))
    };
    // The gap between two bands holds text, all of it within their columns.
    let gap_rows = |a: &Band, b: &Band| {
        let (x0, x1) = (a.xs[0], a.xs[a.xs.len() - 1]);
        let inside: Vec<&&Line> = lines
            .iter()
            .filter(|l| {
                let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
                cy > a.bottom && cy < b.top && l.bbox[2] > x0 && l.bbox[0] < x1
            })
            .collect();
        !inside.is_empty() && inside.iter().all(|l| within_columns(l, &a.xs))
    };
    // Chains of bands, top to bottom (positions in `bands`).
    let mut chains: Vec<Vec<usize>> = vec![];
    for (k, (_, b)) in bands.iter().enumerate() {
        let joins = chains.iter_mut().find(|c| {
            c.last().is_some_and(|&j| {
                let a = &bands[j].1;
                let gap = b.top - a.bottom;
                same_columns(a, b) && gap > TOUCH && gap <= 3.0 * row(a).max(row(b)) && gap_rows(a, b)
            })
        });
        match joins {
            Some(c) => c.push(k),
            None => chains.push(vec![k]),
        }
    }
    // A box holding text on two baselines or more: a row whose cells wrap (an exhibit's
    // description, an address), which whitespace alone cannot tell from the next row.
    let wrapped = |b: &Band| {
        b.ys.windows(2)
            .filter(|r| {
                let mut mids: Vec<(f32, f32)> = lines
                    .iter()
                    .filter(|l| {
                        let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
                        cy > r[0] && cy < r[1] && l.bbox[2] > b.xs[0] && l.bbox[0] < b.xs[b.xs.len() - 1]
                    })
                    .map(|l| ((l.bbox[1] + l.bbox[3]) / 2.0, 0.5 * (l.bbox[3] - l.bbox[1])))
                    .collect();
                mids.sort_by(|a, b| a.0.total_cmp(&b.0));
                mids.windows(2).any(|p| p[1].0 - p[0].0 > p[0].1.max(p[1].1))
            })
            .count()
    };
    let mut taken = vec![false; gs.len()];
    let mut out: Vec<(Vec<Rule>, Vec<Rule>, bool)> = vec![];
    for c in chains.iter().filter(|c| {
        let boxes: usize = c.iter().map(|&k| bands[k].1.ys.len() - 1).sum();
        let n: usize = c.iter().map(|&k| wrapped(&bands[k].1)).sum();
        c.len() >= 2 && boxes >= 3 && 2 * n >= boxes
    }) {
        let chain: Vec<&Band> = c.iter().map(|&k| &bands[k].1).collect();
        let (Some(&first), Some(&last)) = (chain.first(), chain.last()) else { continue };
        let (x0, x1) = (first.xs[0], first.xs[first.xs.len() - 1]);
        let across = |l: &&&Line| l.bbox[2] > x0 && l.bbox[0] < x1;
        // The unshaded rows' padding (their text's distance from the boxes beside them) and the
        // tallest row seen.
        let (mut pad, mut tallest) = (0.0f32, 0.0f32);
        for p in chain.windows(2) {
            let (a, b) = (p[0], p[1]);
            let gap: Vec<&&Line> = lines.iter().filter(across).filter(|l| l.bbox[1] + l.bbox[3] > 2.0 * a.bottom && l.bbox[1] + l.bbox[3] < 2.0 * b.top).collect();
            let top = gap.iter().map(|l| l.bbox[1]).fold(f32::MAX, f32::min);
            let bottom = gap.iter().map(|l| l.bbox[3]).fold(f32::MIN, f32::max);
            pad = pad.max(top - a.bottom).max(b.top - bottom);
            tallest = tallest.max(b.top - a.bottom).max(row(a)).max(row(b));
        }
        // The row past each end box is the table's too when it is set as the unshaded rows are:
        // its text as close to the box, within the columns, no taller than the tallest row.
        let beyond = |edge: f32, down: bool| -> f32 {
            let mut near: Vec<&&Line> = lines
                .iter()
                .filter(across)
                .filter(|l| if down { l.bbox[1] >= edge - 1.0 } else { l.bbox[3] <= edge + 1.0 })
                .collect();
            near.sort_by(|a, b| if down { a.bbox[1].total_cmp(&b.bbox[1]) } else { b.bbox[3].total_cmp(&a.bbox[3]) });
            let mut reach = edge;
            for l in near {
                let (from, to) = if down { (l.bbox[1], l.bbox[3]) } else { (l.bbox[3], l.bbox[1]) };
                let step = if down { from - reach } else { reach - from };
                let height = if down { to - edge } else { edge - to } + pad;
                if step > pad + 0.5 || height > tallest || !within_columns(l, &first.xs) {
                    break;
                }
                reach = if down { reach.max(to) } else { reach.min(to) };
            }
            if reach == edge { edge } else if down { reach + pad } else { reach - pad }
        };
        let (top, bottom) = (beyond(first.top, false), beyond(last.bottom, true));
        let (mut hs, mut vs) = (vec![], vec![]);
        for &k in c {
            let i = bands[k].0;
            taken[i] = true;
            hs.extend(gs[i].0.iter().copied());
            vs.extend(gs[i].1.iter().copied());
        }
        hs.extend([top, bottom].map(|at| Rule { at, from: x0, to: x1 }));
        vs.extend(first.xs.iter().map(|&x| Rule { at: x, from: top, to: bottom }));
        out.push((hs, vs, true));
    }
    out.extend(gs.into_iter().zip(taken).filter(|(_, t)| !t).map(|((hs, vs), _)| (hs, vs, false)));
    out
}

/// The band between two consecutive cuts (`xs` or `ys`) that holds `v`, if any.
fn band_of(cuts: &[f32], v: f32) -> Option<usize> {
    cuts.windows(2).position(|s| s[0] <= v && v < s[1])
}

/// Row cuts the rules do not draw: a band between two rules that holds several lines with values
/// in two or more columns is several rows (grids that rule only the columns and the header).
fn text_row_cuts(ys: &[f32], xs: &[f32], lines: &[&Line]) -> Vec<f32> {
    let (x0, x1) = (xs[0], xs[xs.len() - 1]);
    let mut out = vec![];
    for band in ys.windows(2) {
        let inside: Vec<&Line> = lines
            .iter()
            .copied()
            .filter(|l| {
                let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
                cy > band[0] && cy < band[1] && l.bbox[2] > x0 && l.bbox[0] < x1
            })
            .collect();
        let columns = |l: &Line| {
            let mut cs: Vec<usize> = l
                .words
                .iter()
                .filter_map(|w| {
                    let cx = (w.bbox[0] + w.bbox[2]) / 2.0;
                    band_of(xs, cx)
                })
                .collect();
            cs.dedup();
            cs
        };
        let is_row = |l: &Line| {
            let cs = columns(l);
            cs.len() >= 2
                && l.words.iter().any(|w| {
                    let cx = (w.bbox[0] + w.bbox[2]) / 2.0;
                    cx > xs[1] && super::segments::is_value(&w.text)
                })
        };
        if inside.iter().filter(|l| is_row(l)).count() < 2 {
            continue;
        }
        // One row per line with cells in two or more columns. A label line above it that starts
        // a new label goes down with it; a continuation ("(as HCl)", lowercase) stays with the
        // row above.
        // Heading lines above the first line with values stay one heading row ("to air" over
        // "kg/year").
        // A row starts with a label, in the band's first column that holds any text: a line with
        // nothing there, and no label line above it, goes on the cells of the row above (a ruled
        // cell of several lines: a list of items under a group's "Total:"), and the band's
        // first label starts no new row after lines with figures (a cell of two lines, "200 (as"
        // / "BTEX)", set vertically centred on its one-line label) — after heading lines
        // only, with its label in the grid's first column, it does (a band that holds a grid's
        // header and its body; a header band's lines, none in the first column, stay one row).
        let label_column = inside.iter().filter_map(|l| columns(l).first().copied()).min();
        let labelled = |l: &Line| columns(l).first().copied() == label_column;
        let first_label = inside.iter().position(|l| labelled(l));
        let mut has_multi = false;
        let mut seen_value = false;
        let mut pending: Option<usize> = None;
        for (i, l) in inside.iter().enumerate() {
            if columns(l).len() >= 2 {
                let value = is_row(l);
                let heading = !seen_value && !value;
                // The first label of the band starts a row only under heading lines (lines with
                // figures above it are its own, set centred beside it).
                let under_headings = !seen_value && label_column == Some(0);
                seen_value |= value;
                // The row starts at its pending label line, or at this line if it has a label.
                let starts = pending.or(labelled(l).then_some(i));
                if let Some(k) = starts.filter(|&k| has_multi && !heading && k > 0 && (under_headings || first_label.is_some_and(|f| f < k))) {
                    out.push((inside[k - 1].bbox[3] + inside[k].bbox[1]) / 2.0);
                }
                has_multi = true;
                pending = None;
            } else {
                let continues = l
                    .text()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_lowercase() || c == '(');
                if has_multi && !continues && pending.is_none() {
                    pending = Some(i);
                }
            }
        }
    }
    out
}

/// Running text set in boxes is no grid: a writer that lays paragraphs out as HTML paints a
/// background behind each run of a line (Lockheed Martin's 10-K), and the boxes' edges cut its
/// lines where they run on a word space apart. A table's cells keep a gutter between them (a
/// heading run across one is one word, straddling it, and a cell's text that ends close to the
/// next cell's does not run on into it in lower case). True when at least two of the lines
/// within the columns, and a quarter of them, run on across a column edge from a word (letters
/// or a figure: "of 5.25% senior notes") to one opening in lower case (or to the next sentence
/// after a full stop), a word space apart (half an em) or less; or when, in a box of two to four
/// lines none of which has a gutter inside the box, one of them runs on across an edge a word
/// space apart whatever the case (a paragraph's indented first line draws the edge the next line
/// crosses: "totaling $78 million").
fn runs_across(xs: &[f32], ys: &[f32], lines: &[&Line]) -> bool {
    let (Some(&top), Some(&bottom)) = (ys.first(), ys.last()) else { return false };
    let (left, right) = (xs[0], xs[xs.len() - 1]);
    let column = |w: &Word| band_of(xs, (w.bbox[0] + w.bbox[2]) / 2.0);
    let (mut within, mut running, mut gapless, mut crossing) = (0usize, 0usize, 0usize, 0usize);
    for l in lines {
        let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
        if cy <= top || cy >= bottom || l.bbox[2] <= left || l.bbox[0] >= right {
            continue;
        }
        within += 1;
        // The next word carries on the sentence (lower case), or opens the next sentence after
        // a full stop ("… (THAAD and PAC-3). These increases …").
        let runs_on = l.words.windows(2).any(|p| {
            let (a, b) = (&p[0], &p[1]);
            let next_sentence = a.text.ends_with(['.', ';']) && b.text.starts_with(|c: char| c.is_uppercase()) && b.text.chars().filter(|c| c.is_alphabetic()).count() >= 2;
            b.bbox[0] - a.bbox[2] <= 0.5 * l.size
                && a.text.chars().any(char::is_alphanumeric)
                && (b.text.starts_with(|c: char| c.is_lowercase()) || next_sentence)
                && column(a) != column(b)
        });
        running += usize::from(runs_on);
        // Any word of it runs on into the next column a word space later ("totaling $78 million"
        // across the edge a paragraph's indented first line draws).
        crossing += usize::from(l.words.windows(2).any(|p| {
            let (a, b) = (column(&p[0]), column(&p[1]));
            p[1].bbox[0] - p[0].bbox[2] <= 0.5 * l.size && p[0].text.chars().any(char::is_alphanumeric) && a.is_some() && b.is_some() && a != b
        }));
        // No gutter anywhere in the line: its words are a word space apart from end to end.
        // Only the words inside the grid count: a bullet hung outside the box keeps its gap.
        let inside: Vec<&Word> = l.words.iter().filter(|w| column(w).is_some()).collect();
        gapless += usize::from(inside.windows(2).all(|p| p[1].bbox[0] - p[0].bbox[2] <= GUTTERLESS_EMS * l.size));
    }
    // A paragraph of two to four lines in boxes shows one run-on line, and no line of it has a
    // gutter in it: a table's rows are set with gutters between their cells.
    running >= 2 && running * 4 >= within || crossing >= 1 && (2..=4).contains(&within) && gapless == within
}

/// Word gaps up to this many ems are spaces within a phrase, not gutters between cells.
const GUTTERLESS_EMS: f32 = 1.0;

/// The text of slot (`r`, `c`) wraps onto the slot below: a row label wrapped onto the next
/// row's line, where no rule parts them ("Chronic fatigue" over "syndrome" beside a Count and a
/// Percentage row): the label column is narrower than the label, the other columns are not. The lower slot opens in lower case with a word that would not have
/// fitted after the upper slot's last word ("Total EU-12" over "non-EU" is two labels).
fn wraps_into_next(words: &[&Word], xs: &[f32], ys: &[f32], r: usize, c: usize) -> bool {
    let in_slot = |row: usize| {
        words.iter().filter(move |w| {
            let (cx, cy) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
            cx > xs[c] && cx < xs[c + 1] && cy > ys[row] && cy < ys[row + 1]
        })
    };
    let first = in_slot(r + 1).min_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]).then(a.bbox[0].total_cmp(&b.bbox[0])));
    let right = in_slot(r).map(|w| w.bbox[2]).fold(f32::MIN, f32::max);
    first.is_some_and(|w| {
        let space = 0.25 * (w.bbox[3] - w.bbox[1]);
        w.text.starts_with(|ch: char| ch.is_lowercase()) && right + space + (w.bbox[2] - w.bbox[0]) > xs[c + 1] - 1.0
    })
}

fn lattice_table(hs: &[Rule], vs: &[Rule], lines: &[&Line], fills: &[BBox]) -> Option<Table> {
    let words: Vec<&Word> = lines.iter().flat_map(|l| l.words.iter()).collect();
    // Columns come from vertical rules only (plus the lattice's outer edges): the ends of rules
    // drawn under single cells (statement totals) are not column boundaries.
    let (xs, ruled_ys) = grid_cuts(hs, vs);
    if xs.len() < 3 || ruled_ys.len() < 2 {
        return None;
    }
    if runs_across(&xs, &ruled_ys, lines) {
        return None;
    }
    let text_cuts = text_row_cuts(&ruled_ys, &xs, lines);
    let mut ys = ruled_ys.clone();
    ys.extend(text_cuts.iter().copied());
    ys.sort_by(f32::total_cmp);
    let (nc, nr) = (xs.len().checked_sub(1)?, ys.len().checked_sub(1)?);
    if nc < 2 || nr < 1 || nc * nr > 20_000 {
        return None;
    }
    let vertical_at = |x: f32, y: f32| {
        vs.iter()
            .any(|r| (r.at - x).abs() < SAME_RULE && r.from - TOUCH <= y && y <= r.to + TOUCH)
    };
    let horizontal_at = |y: f32, x: f32| {
        text_cuts.contains(&y)
            || hs
                .iter()
                .any(|r| (r.at - y).abs() < SAME_RULE && r.from - TOUCH <= x && x <= r.to + TOUCH)
    };
    // Slots with no rule between them are one cell.
    let id = |r: usize, c: usize| r * nc + c;
    let mut filled = vec![false; nr * nc];
    for w in &words {
        let (cx, cy) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
        let (c, r) = (band_of(&xs, cx), band_of(&ys, cy));
        if let (Some(r), Some(c)) = (r, c) {
            filled[id(r, c)] = true;
        }
    }
    // Heading slots whose shading runs on across a cut are one heading cell: a word processor
    // shades a multi-line heading cell as one background with a padding box per line, and the
    // padding boxes' edges look like a rule between the lines.
    let value_row = |r: usize| {
        words.iter().any(|w| {
            let (cx, cy) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
            cy > ys[r] && cy < ys[r + 1] && cx > xs[1] && super::segments::is_value(&w.text)
        })
    };
    let first_value_row = (0..nr).find(|&r| value_row(r)).unwrap_or(0);
    let shaded_across = |y: f32, c: usize| {
        fills.iter().any(|b| {
            b[0] <= xs[c] + SAME_RULE
                && b[2] >= xs[c + 1] - SAME_RULE
                && b[2] - b[0] <= xs[c + 1] - xs[c] + 2.0 * SAME_RULE
                && b[1] < y - TOUCH
                && b[3] > y + TOUCH
        })
    };
    // A row's figures sit on its label's line, or centred on the lines of a label wrapped over
    // two: figures set across a cut, with nothing else beside the label above or below it, say
    // that the two label lines are one label and the cut (the edge of a box the writer draws
    // behind each line) parts no rows (eu-001: "Chlorine and inorganic compounds" / "(as HCl)",
    // its "10 000  -  -" half a line lower). A word never runs across a real rule.
    let centred_across = |r: usize| {
        let y = ys[r + 1];
        let beside: Vec<&&Word> = words
            .iter()
            .filter(|w| {
                let (cx, cy) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
                cx > xs[1] && cx < xs[nc] && cy > ys[r] && cy < ys[r + 2]
            })
            .collect();
        let across = |w: &Word| w.bbox[1] < y - 1.0 && w.bbox[3] > y + 1.0;
        filled[id(r, 0)]
            && filled[id(r + 1, 0)]
            && beside.iter().any(|w| across(w) && super::segments::is_value(&w.text))
            && beside.iter().all(|w| across(w))
    };
    // A row label's cell is shaded as one background down the rows it labels (a Count and a
    // Percentage row), with a padding box per line whose edges look like rules across the label
    // column. Under its background the label goes on down while the slot below holds nothing or
    // the lowercase rest of the label ("Chronic fatigue" / "syndrome", eu-021); a capitalised
    // label there starts a row of its own, and figures never join (a shaded column of figures).
    let label_shaded_across = |r: usize| {
        let y = ys[r + 1];
        let in_labels = |w: &&&Word| {
            let cx = (w.bbox[0] + w.bbox[2]) / 2.0;
            cx > xs[0] && cx < xs[1]
        };
        let cy = |w: &Word| (w.bbox[1] + w.bbox[3]) / 2.0;
        let below = words
            .iter()
            .filter(in_labels)
            .filter(|w| cy(w) > y && cy(w) < ys[r + 2])
            .min_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]).then(a.bbox[0].total_cmp(&b.bbox[0])));
        below.is_none_or(|w| w.text.starts_with(|ch: char| ch.is_lowercase()))
            && fills.iter().any(|b| {
                b[0] <= xs[0] + SAME_RULE
                    && b[2] >= xs[1] - SAME_RULE
                    && b[2] - b[0] <= xs[1] - xs[0] + 2.0 * SAME_RULE
                    && b[1] < y - TOUCH
                    && b[3] > y + TOUCH
                    && words.iter().filter(in_labels).any(|w| cy(w) > b[1] && cy(w) < y)
            })
    };
    let mut parent: Vec<usize> = (0..nr * nc).collect();
    for r in 0..nr {
        if r + 1 < nr && centred_across(r) {
            for c in 0..nc {
                union(&mut parent, id(r, c), id(r + 1, c));
            }
        }
        let my = (ys[r] + ys[r + 1]) / 2.0;
        for c in 0..nc {
            let mx = (xs[c] + xs[c + 1]) / 2.0;
            // Without a rule between them, two slots are one cell only if text runs across the
            // gap (a spanning header); body rows of a grid that rules only its header keep the
            // columns the header drew.
            let straddled = |x: f32| {
                words.iter().any(|w| {
                    let cy = (w.bbox[1] + w.bbox[3]) / 2.0;
                    cy > ys[r] && cy < ys[r + 1] && w.bbox[0] < x - 1.0 && w.bbox[2] > x + 1.0
                })
            };
            if c + 1 < nc && !vertical_at(xs[c + 1], my) && straddled(xs[c + 1]) {
                union(&mut parent, id(r, c), id(r, c + 1));
            }
            // Down: text running across the cut, or a row label beside an empty label slot
            // (one label for a Count and a Percentage row). A label never climbs into the empty
            // slot above it, and headings do not reach into the body.
            let straddled_y = |y: f32| {
                words.iter().any(|w| {
                    let cx = (w.bbox[0] + w.bbox[2]) / 2.0;
                    cx > xs[c] && cx < xs[c + 1] && w.bbox[1] < y - 1.0 && w.bbox[3] > y + 1.0
                })
            };
            let spans = r + 1 < nr && c == 0 && filled[id(r, c)] && !filled[id(r + 1, c)];
            let wraps = r + 1 < nr && c == 0 && filled[id(r, c)] && wraps_into_next(&words, &xs, &ys, r, c);
            let heading = r + 1 < first_value_row && shaded_across(ys[r + 1], c);
            let shaded_label = c == 0 && r + 1 < nr && r + 1 >= first_value_row && label_shaded_across(r);
            if r + 1 < nr && (heading || shaded_label || !horizontal_at(ys[r + 1], mx) && (spans || wraps || straddled_y(ys[r + 1]))) {
                union(&mut parent, id(r, c), id(r + 1, c));
            }
        }
    }
    // Each merged cell as its slot rectangle.
    let mut rects: std::collections::BTreeMap<usize, [usize; 4]> = Default::default();
    for r in 0..nr {
        for c in 0..nc {
            let k = find(&mut parent, id(r, c));
            let e = rects.entry(k).or_insert([r, c, r, c]);
            e[0] = e[0].min(r);
            e[1] = e[1].min(c);
            e[2] = e[2].max(r);
            e[3] = e[3].max(c);
        }
    }
    let slot_of = |x: f32, y: f32| -> Option<(usize, usize)> {
        let c = band_of(&xs, x)?;
        let r = band_of(&ys, y)?;
        Some((r, c))
    };
    let mut texts: std::collections::BTreeMap<usize, Vec<Word>> = Default::default();
    for l in lines {
        let mut last: Option<(usize, &Word)> = None;
        for w in &l.words {
            let (cx, cy) = ((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0);
            let Some((r, c)) = slot_of(cx, cy) else {
                last = None;
                continue;
            };
            let k = find(&mut parent, id(r, c));
            // Figures set apart by whitespace inside one slot: the rules draw only part of the
            // grid, and the whitespace-aligned reading does better.
            if let Some((pk, p)) = last {
                if pk == k
                    && w.fx0 - p.fx1 > 1.0 * l.size
                    && super::segments::is_number(&w.text)
                    && super::segments::is_number(&p.text)
                {
                    return None;
                }
            }
            last = Some((k, w));
            texts.entry(k).or_default().push(w.clone());
        }
    }
    // Rows and columns that hold no text at all (double borders, spacer rows) are dropped.
    let mut row_used = vec![false; nr];
    let mut col_used = vec![false; nc];
    for (k, ws) in &texts {
        if ws.is_empty() {
            continue;
        }
        if let Some(rc) = rects.get(k) {
            row_used[rc[0]] = true;
            col_used[rc[1]] = true;
        }
    }
    let row_ix = renumber(&row_used);
    let col_ix = renumber(&col_used);
    let n_rows = row_used.iter().filter(|u| **u).count();
    let n_cols = col_used.iter().filter(|u| **u).count();
    if n_rows < 2 || n_cols < 2 {
        return None;
    }
    let mut cells = vec![];
    let mut filled_area = 0usize;
    for (k, rc) in &rects {
        let Some(ws) = texts.get(k).filter(|ws| !ws.is_empty()) else {
            continue;
        };
        let (Some(r0), Some(c0)) = (row_ix[rc[0]], col_ix[rc[1]]) else {
            continue;
        };
        let r1 = (rc[0]..=rc[2]).filter_map(|r| row_ix[r]).max().unwrap_or(r0);
        let c1 = (rc[1]..=rc[3]).filter_map(|c| col_ix[c]).max().unwrap_or(c0);
        filled_area += (r1 - r0 + 1) * (c1 - c0 + 1);
        let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for w in ws {
            b[0] = b[0].min(w.bbox[0]);
            b[1] = b[1].min(w.bbox[1]);
            b[2] = b[2].max(w.bbox[2]);
            b[3] = b[3].max(w.bbox[3]);
        }
        cells.push(Cell {
            row: r0,
            col: c0,
            row_span: r1 - r0 + 1,
            col_span: c1 - c0 + 1,
            text: join_words(ws),
            bbox: b,
        });
    }
    // A chart frame with gridlines, or a form with a few filled boxes, leaves most slots empty.
    if (filled_area as f32) < 0.4 * (n_rows * n_cols) as f32 {
        return None;
    }
    // A `$` or `%` alone in a cell: the rules are cell backgrounds that cut values from their
    // signs (statements rendered from HTML); the whitespace reading joins them (§4.1 step 5).
    if cells
        .iter()
        .any(|c| matches!(c.text.trim(), "$" | "€" | "£" | "%" | ")" | ")%" | "%)"))
    {
        return None;
    }
    // A chart frame around a legend: a few words in a large box. Table text is dense.
    let box_area = ((xs[nc] - xs[0]) * (ys[nr] - ys[0])).max(1.0);
    let ink: f32 = words
        .iter()
        .filter(|w| slot_of((w.bbox[0] + w.bbox[2]) / 2.0, (w.bbox[1] + w.bbox[3]) / 2.0).is_some())
        .map(|w| (w.bbox[2] - w.bbox[0]) * (w.bbox[3] - w.bbox[1]))
        .sum();
    if ink < 0.04 * box_area {
        return None;
    }
    cells.sort_by_key(|c| (c.row, c.col));
    let header_rows = (0..n_rows)
        .find(|&r| {
            cells
                .iter()
                .any(|c| c.row == r && c.col > 0 && super::segments::is_number(&c.text))
        })
        .unwrap_or(0);
    let bbox: BBox = [xs[0], ys[0], xs[nc], ys[nr]];
    Some(Table {
        bbox,
        cells,
        caption: String::new(),
        continues_from_previous: false,
        n_rows,
        n_cols,
        header_rows,
        ruled: true,
        notes: vec![],
    })
}

fn renumber(used: &[bool]) -> Vec<Option<usize>> {
    let mut k = 0;
    used.iter()
        .map(|&u| {
            if u {
                k += 1;
                Some(k - 1)
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::layout::test_line;

    /// A grid whose heading cells are shaded as one background per cell with a padding box per
    /// line (eu-001): the padding boxes' edges draw a rule between "to air" and "kg/year".
    fn shaded_heading_grid(shaded: bool) -> (Vec<Line>, Graphics) {
        let lines = vec![
            test_line(&[("Pollutant", 5.0, 45.0), ("to air", 130.0, 160.0), ("to water", 225.0, 270.0)], 5.0, 8.0),
            test_line(&[("kg/year", 130.0, 165.0), ("kg/year", 230.0, 265.0)], 24.0, 8.0),
            test_line(&[("Carbon dioxide", 5.0, 70.0), ("100", 140.0, 155.0), ("5", 245.0, 250.0)], 43.0, 8.0),
            test_line(&[("Methane", 5.0, 45.0), ("7", 145.0, 150.0), ("9", 245.0, 250.0)], 58.0, 8.0),
        ];
        let mut g = Graphics::default();
        for y in [0.0, 40.0, 55.0, 70.0] {
            g.hrules.push([y, 0.0, 300.0]);
        }
        for x in [0.0, 100.0, 200.0, 300.0] {
            g.vrules.push([x, 0.0, 70.0]);
        }
        for x in [100.0, 200.0] {
            if shaded {
                g.fills.push([x + 0.5, 0.5, x + 99.5, 39.5]);
            }
            // Two padding boxes per heading cell; their shared edge lies between the lines.
            g.fills.push([x + 5.0, 0.5, x + 95.0, 20.0]);
            g.fills.push([x + 5.0, 20.0, x + 95.0, 39.5]);
        }
        // The reader turns the edges of filled boxes into rules (read.rs).
        for b in g.fills.clone() {
            g.hrules.extend([[b[1], b[0], b[2]], [b[3], b[0], b[2]]]);
            g.vrules.extend([[b[0], b[1], b[3]], [b[2], b[1], b[3]]]);
        }
        (lines, g)
    }

    /// An exhibit list ruled as a grid whose first description is underlined (a link): the
    /// rule under its first line runs from the line's first word, set 1.5 pt inside the column
    /// edge (so the rule touches the edge), to its last.
    fn underlined_description(rule_from: f32, rule_to: f32) -> Vec<Vec<String>> {
        let lines = vec![
            test_line(&[("No.", 5.0, 20.0)], 5.0, 8.0),
            test_line(&[("Description", 101.5, 160.0)], 5.0, 8.0),
            test_line(&[("3.1", 5.0, 20.0)], 27.0, 8.0),
            test_line(&[("Restated Articles", 101.5, 190.0)], 23.0, 8.0),
            test_line(&[("as amended", 101.5, 165.0)], 32.0, 8.0),
            test_line(&[("3.2", 5.0, 20.0)], 47.0, 8.0),
            test_line(&[("Bylaws", 101.5, 140.0)], 47.0, 8.0),
        ];
        let mut g = Graphics::default();
        for y in [0.0, 20.0, 43.0, 60.0] {
            g.hrules.push([y, 0.0, 300.0]);
        }
        for x in [0.0, 100.0, 300.0] {
            g.vrules.push([x, 0.0, 60.0]);
        }
        g.hrules.push([31.0, rule_from, rule_to]);
        let refs: Vec<&Line> = lines.iter().collect();
        detect(&refs, &g).pop().expect("the grid is a table").table.grid()
    }

    #[test]
    fn an_underline_cuts_no_row_and_a_rule_across_the_cell_does() {
        let rows = underlined_description(101.5, 190.0);
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert_eq!(rows[1], vec!["3.1", "Restated Articles as amended"]);
        // A rule from one column edge to the other is a cell border: the description's lines
        // are two rows.
        let rows = underlined_description(100.0, 300.0);
        assert_eq!(rows.len(), 4, "{rows:?}");
    }

    fn heading_cells(shaded: bool) -> Vec<String> {
        let (lines, g) = shaded_heading_grid(shaded);
        let refs: Vec<&Line> = lines.iter().collect();
        let t = detect(&refs, &g).pop().expect("the grid is a table").table;
        t.cells.iter().filter(|c| c.row < t.header_rows).map(|c| c.text.clone()).collect()
    }

    /// The rows of a grid that rules its outline and its columns only: a header and a body in
    /// one band between two rules.
    fn column_ruled_rows(lines: Vec<Line>) -> Vec<Vec<String>> {
        let bottom = lines.iter().map(|l| l.bbox[3]).fold(0.0, f32::max) + 4.0;
        let mut g = Graphics::default();
        g.hrules.push([0.0, 0.0, 300.0]);
        g.hrules.push([bottom, 0.0, 300.0]);
        for x in [0.0, 100.0, 200.0, 300.0] {
            g.vrules.push([x, 0.0, bottom]);
        }
        let refs: Vec<&Line> = lines.iter().collect();
        detect(&refs, &g).pop().expect("the grid is a table").table.grid()
    }

    /// A grid whose writer draws a box behind each line of the label column: the box edge
    /// between a label's two lines looks like a row rule, and the row's figures are set centred
    /// on the two lines, across it.
    fn figures_centred_on_a_wrapped_label(figures_top: f32) -> Vec<Vec<String>> {
        let lines = vec![
            test_line(&[("to air", 130.0, 160.0), ("to water", 225.0, 270.0)], 5.0, 8.0),
            test_line(&[("Ammonia", 5.0, 45.0), ("10", 140.0, 150.0), ("5", 245.0, 250.0)], 20.0, 8.0),
            test_line(&[("Chlorine and compounds", 5.0, 90.0)], 35.0, 8.0),
            test_line(&[("100", 140.0, 155.0), ("7", 245.0, 250.0)], figures_top, 8.0),
            test_line(&[("(as HCl)", 5.0, 40.0)], 45.0, 8.0),
            test_line(&[("Methane", 5.0, 45.0), ("3", 145.0, 150.0), ("4", 245.0, 250.0)], 59.0, 8.0),
        ];
        let mut g = Graphics::default();
        for y in [0.0, 17.0, 32.0, 56.0, 70.0] {
            g.hrules.push([y, 0.0, 300.0]);
        }
        // The edge between the label's two line boxes, in the label column only.
        g.hrules.push([44.0, 0.0, 100.0]);
        for x in [0.0, 100.0, 200.0, 300.0] {
            g.vrules.push([x, 0.0, 70.0]);
        }
        let refs: Vec<&Line> = lines.iter().collect();
        detect(&refs, &g).pop().expect("the grid is a table").table.grid()
    }

    #[test]
    fn figures_centred_across_a_label_of_two_lines_make_the_lines_one_label() {
        let rows = figures_centred_on_a_wrapped_label(40.0);
        assert_eq!(rows.len(), 4, "{rows:?}");
        assert_eq!(rows[2], ["Chlorine and compounds (as HCl)", "100", "7"]);
        assert_eq!(rows[3], ["Methane", "3", "4"]);
    }

    #[test]
    fn figures_on_the_first_line_of_a_label_leave_the_second_line_its_own_row() {
        // The figures sit on the first line's baseline, not across the edge: "(as HCl)" is a
        // line of its own, as the rules draw it.
        let rows = figures_centred_on_a_wrapped_label(35.0);
        assert_eq!(rows.len(), 5, "{rows:?}");
        assert_eq!(rows[2], ["Chlorine and compounds", "100", "7"]);
    }

    /// Row labels each over a Count and a Percentage row, in a grid whose writer boxes every line
    /// (the boxes' edges are rules across every column); with `label_cells`, each label's cell
    /// also has one background down its two rows. "Chronic fatigue" wraps onto "syndrome", set
    /// between its two rows.
    fn labels_over_two_rows(label_cells: bool) -> Vec<(String, usize, usize)> {
        let lines = vec![
            test_line(&[("Measure", 105.0, 140.0), ("Cases", 230.0, 255.0)], 5.0, 8.0),
            test_line(&[("Asthma", 5.0, 35.0), ("Count", 105.0, 130.0), ("31", 240.0, 250.0)], 19.0, 8.0),
            test_line(&[("Percentage", 105.0, 150.0), ("6.3%", 235.0, 255.0)], 33.0, 8.0),
            test_line(&[("Chronic fatigue", 5.0, 65.0), ("Count", 105.0, 130.0), ("19", 240.0, 250.0)], 47.0, 8.0),
            test_line(&[("syndrome", 5.0, 40.0)], 58.0, 8.0),
            test_line(&[("Percentage", 105.0, 150.0), ("3.8%", 235.0, 255.0)], 61.0, 8.0),
            test_line(&[("Depression", 5.0, 45.0), ("Count", 105.0, 130.0), ("48", 240.0, 250.0)], 75.0, 8.0),
            test_line(&[("Percentage", 105.0, 150.0), ("9.7%", 235.0, 255.0)], 89.0, 8.0),
        ];
        let mut g = Graphics::default();
        // One box per slot, each line of a label in a box of its own.
        let cuts = [0.0, 16.0, 30.0, 44.0, 57.0, 72.0, 86.0, 100.0];
        for x in [0.0, 100.0, 200.0] {
            for w in cuts.windows(2) {
                g.fills.push([x + 0.5, w[0] + 0.5, x + 99.5, w[1] - 0.5]);
            }
        }
        if label_cells {
            for (top, bottom) in [(16.0, 44.0), (44.0, 72.0), (72.0, 100.0)] {
                g.fills.push([0.5, top + 0.5, 99.5, bottom - 0.5]);
            }
        }
        // The reader turns the edges of filled boxes into rules (read.rs).
        for b in g.fills.clone() {
            g.hrules.extend([[b[1], b[0], b[2]], [b[3], b[0], b[2]]]);
            g.vrules.extend([[b[0], b[1], b[3]], [b[2], b[1], b[3]]]);
        }
        let refs: Vec<&Line> = lines.iter().collect();
        let t = detect(&refs, &g).pop().expect("the grid is a table").table;
        t.cells.iter().filter(|c| c.col == 0).map(|c| (c.text.clone(), c.row, c.row_span)).collect()
    }

    #[test]
    fn a_row_label_shaded_down_two_rows_spans_them_with_its_wrapped_line() {
        let labels = labels_over_two_rows(true);
        assert_eq!(
            labels,
            [("Asthma".to_string(), 1, 2), ("Chronic fatigue syndrome".to_string(), 3, 2), ("Depression".to_string(), 5, 2)]
        );
    }

    #[test]
    fn row_labels_boxed_line_by_line_keep_the_rows_the_boxes_draw() {
        // Without a background down the label's rows, the boxes' edges are the only reading.
        let labels = labels_over_two_rows(false);
        assert!(labels.iter().all(|l| l.2 == 1), "{labels:?}");
        assert!(labels.iter().any(|l| l.0 == "syndrome"), "{labels:?}");
    }

    #[test]
    fn a_header_over_the_body_in_one_ruled_band_stays_its_own_row() {
        let rows = column_ruled_rows(vec![
            test_line(&[("Revenue", 130.0, 165.0), ("Cost", 230.0, 250.0)], 5.0, 8.0),
            test_line(&[("Germany", 5.0, 45.0), ("100", 140.0, 155.0), ("5", 245.0, 250.0)], 24.0, 8.0),
            test_line(&[("France", 5.0, 40.0), ("7", 145.0, 150.0), ("9", 245.0, 250.0)], 43.0, 8.0),
            test_line(&[("Spain", 5.0, 35.0), ("3", 145.0, 150.0), ("4", 245.0, 250.0)], 62.0, 8.0),
        ]);
        assert_eq!(rows.len(), 4, "{rows:?}");
        assert_eq!(rows[0], ["", "Revenue", "Cost"]);
        assert_eq!(rows[1], ["Germany", "100", "5"]);
    }

    #[test]
    fn lines_without_a_label_are_the_cells_of_the_labelled_row_they_sit_by() {
        // A cell of two lines set centred on its row's one-line label ("200 (as" / "BTEX)"), and
        // a cell whose second line has no label of its own.
        let rows = column_ruled_rows(vec![
            test_line(&[("200 (as", 130.0, 165.0), ("200 (as", 230.0, 265.0)], 4.0, 8.0),
            test_line(&[("Benzene", 5.0, 45.0), ("1", 145.0, 150.0)], 14.0, 8.0),
            test_line(&[("BTEX)", 130.0, 160.0), ("BTEX)", 230.0, 260.0)], 24.0, 8.0),
            test_line(&[("Toluene", 5.0, 45.0), ("2", 145.0, 150.0), ("3", 245.0, 250.0)], 36.0, 8.0),
        ]);
        assert_eq!(rows, [["Benzene", "200 (as 1 BTEX)", "200 (as BTEX)"], ["Toluene", "2", "3"]], "{rows:?}");
        let rows = column_ruled_rows(vec![
            test_line(&[("Besnier", 5.0, 45.0), ("Total: 18%", 130.0, 175.0), ("Total: 9%", 230.0, 270.0)], 5.0, 8.0),
            test_line(&[("Bfpridel (4%)", 130.0, 185.0), ("Bridelight (5%)", 230.0, 290.0)], 15.0, 8.0),
            test_line(&[("Vedial", 5.0, 35.0), ("Total: 0%", 130.0, 175.0), ("Total: 19%", 230.0, 275.0)], 25.0, 8.0),
        ]);
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[0], ["Besnier", "Total: 18% Bfpridel (4%)", "Total: 9% Bridelight (5%)"]);
    }

    #[test]
    fn shaded_multi_line_heading_cell_is_one_cell() {
        let cells = heading_cells(true);
        assert!(cells.contains(&"to air kg/year".to_string()), "{cells:?}");
        assert!(cells.contains(&"to water kg/year".to_string()), "{cells:?}");
    }

    #[test]
    fn heading_lines_split_by_a_rule_without_one_background_stay_apart() {
        // Only the padding boxes, no background across the cut: the drawn edge is a boundary.
        let cells = heading_cells(false);
        assert!(cells.contains(&"to air".to_string()), "{cells:?}");
        assert!(cells.contains(&"kg/year".to_string()), "{cells:?}");
    }
}
