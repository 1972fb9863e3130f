//! Positioned glyphs → words → lines → blocks in reading order (spec §4.1 "native text", issue 3
//! deliverable 1). Pure geometry over values: no PDF parser here, so it compiles everywhere.
//!
//! Text may run in four directions (rotated pages are already turned upright by the reader, so what
//! remains are rotated labels). Each glyph is placed in the *reading frame* of its direction — `fx`
//! along the text, `fy` down the lines — words and lines are built there, and boxes go back to page
//! space (points, origin top-left) at the end.
//!
//! Reading order is a recursive XY cut over blocks (`order`), with one change for multi-column pages: adjacent
//! horizontal bands that share a column gutter are merged before cutting, so two columns whose
//! paragraph breaks happen to line up are still read left column first.
//! Right-to-left words and lines are read in logical order (`bidi`).

use super::{Block, BlockKind, FontFace, Span, Table, TextLine};
use crate::corpus::BBox;

mod bidi;
mod order;

use bidi::{bidi_line, letters, logical_order};
pub use order::reading_order;

/// One glyph as the reader saw it: its Unicode character, page-space box and reading direction.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub c: char,
    /// Page space: points, origin top-left, rotation applied.
    pub bbox: BBox,
    /// Baseline origin in page space.
    pub origin: [f32; 2],
    /// Font size in points (em height after all transforms).
    pub size: f32,
    /// 0 = left→right, 1 = top→bottom, 2 = right→left (upside down), 3 = bottom→top.
    pub dir: u8,
    /// Unmapped glyph, control or private-use character: counted by the garbled test, not emitted.
    pub garbled: bool,
    /// The face it is set in: an index into the page's fonts (`Page::fonts`).
    pub font: u16,
}

/// Non-text facts of a page that layout and table detection use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graphics {
    /// Number of vector paths drawn (§4.1 chart signal).
    pub paths: usize,
    /// Horizontal rules: `[y, x0, x1]` page space.
    pub hrules: Vec<[f32; 3]>,
    /// Vertical rules: `[x, y0, y1]` page space.
    pub vrules: Vec<[f32; 3]>,
    /// Raster image boxes, page space.
    pub images: Vec<BBox>,
    /// Boxes of drawn paths that are not ruling lines, page space (where a chart is, §4.6 chart
    /// documents cite this region when the vision model gives none).
    pub path_boxes: Vec<BBox>,
    /// Boxes of filled paths that are not ruling lines, page space: bars, legend swatches, cell
    /// shading (table detection tells charts and legends from tables by what text sits on).
    pub fills: Vec<BBox>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    pub bbox: BBox,
    /// Extent along the reading direction and across it, in the reading frame.
    pub fx0: f32,
    pub fx1: f32,
    pub ftop: f32,
    pub fbot: f32,
    pub size: f32,
    /// The face of its first glyph (`Glyph::font`).
    pub font: u16,
    /// The baseline of its first glyph across the reading direction, in the reading frame.
    pub fbase: f32,
}

/// A baseline's worth of words in one direction, left to right in its frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub dir: u8,
    pub words: Vec<Word>,
    pub bbox: BBox,
    pub fx0: f32,
    pub fx1: f32,
    pub ftop: f32,
    pub fbot: f32,
    pub size: f32,
}

impl Line {
    pub fn text(&self) -> String {
        join_words(&self.words)
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    /// Every line, all directions, sorted top to bottom within each direction.
    pub lines: Vec<Line>,
}

fn unit(dir: u8) -> ([f32; 2], [f32; 2]) {
    match dir {
        1 => ([0.0, 1.0], [-1.0, 0.0]),
        2 => ([-1.0, 0.0], [0.0, -1.0]),
        3 => ([0.0, -1.0], [1.0, 0.0]),
        _ => ([1.0, 0.0], [0.0, 1.0]),
    }
}

/// Page-space box of a frame-space rectangle.
fn to_page(dir: u8, fx0: f32, fx1: f32, fy0: f32, fy1: f32) -> BBox {
    let (u, v) = unit(dir);
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for (fx, fy) in [(fx0, fy0), (fx1, fy0), (fx0, fy1), (fx1, fy1)] {
        let x = fx * u[0] + fy * v[0];
        let y = fx * u[1] + fy * v[1];
        b[0] = b[0].min(x);
        b[1] = b[1].min(y);
        b[2] = b[2].max(x);
        b[3] = b[3].max(y);
    }
    b
}

/// An unsigned integer ordered as `f32::total_cmp` orders its floats (negative values' bits
/// reversed, positive values' sign bit set), for sort keys compared as one integer.
fn total_order(f: f32) -> u32 {
    let bits = f.to_bits();
    if bits & 0x8000_0000 != 0 { !bits } else { bits | 0x8000_0000 }
}

struct FG {
    c: char,
    fx0: f32,
    fx1: f32,
    fbase: f32,
    ftop: f32,
    fbot: f32,
    size: f32,
    font: u16,
    /// Its place in the order the content drew the glyphs (`glyphs` index).
    seq: u32,
}

/// Words and lines from glyphs (issue 3 deliverable 1).
pub fn lay_out(glyphs: &[Glyph], _width: f32, _height: f32) -> Layout {
    let mut lines = vec![];
    let mut in_dir = [0usize; 4];
    for g in glyphs {
        in_dir[usize::from(g.dir & 3)] += usize::from(!g.garbled);
    }
    for dir in 0..4u8 {
        // Most pages have text in one direction only.
        if in_dir[usize::from(dir)] == 0 {
            continue;
        }
        let (u, v) = unit(dir);
        let mut fg: Vec<FG> = Vec::with_capacity(in_dir[usize::from(dir)]);
        fg.extend(
            glyphs
                .iter()
                .enumerate()
                .filter(|(_, g)| g.dir == dir && !g.garbled)
                .map(|(seq, g)| {
                    let b = g.bbox;
                    let xs = [b[0] * u[0] + b[1] * u[1], b[2] * u[0] + b[3] * u[1]];
                    let ys = [b[0] * v[0] + b[1] * v[1], b[2] * v[0] + b[3] * v[1]];
                    FG {
                        c: g.c,
                        fx0: xs[0].min(xs[1]),
                        fx1: xs[0].max(xs[1]),
                        fbase: g.origin[0] * v[0] + g.origin[1] * v[1],
                        ftop: ys[0].min(ys[1]),
                        fbot: ys[0].max(ys[1]),
                        size: g.size.max(0.1),
                        font: g.font,
                        seq: seq as u32,
                    }
                })
                .filter(|g| g.fx0.is_finite() && g.fbase.is_finite() && g.ftop.is_finite()),
        );
        if fg.is_empty() {
            continue;
        }
        // By baseline, then along it: the order of `total_cmp` on (fbase, fx0), as one integer.
        fg.sort_by_key(|g| u64::from(total_order(g.fbase)) << 32 | u64::from(total_order(g.fx0)));
        // Baseline clusters.
        let mut clusters: Vec<Vec<usize>> = vec![];
        let mut start = 0;
        while start < fg.len() {
            let base = fg[start].fbase;
            let tol = 0.3 * fg[start].size;
            let mut end = start + 1;
            while end < fg.len() && fg[end].fbase - base <= tol {
                end += 1;
            }
            let mut cluster: Vec<usize> = (start..end).collect();
            cluster.sort_by_key(|&i| total_order(fg[i].fx0));
            clusters.push(cluster);
            start = end;
        }
        attach_scripts(&fg, &mut clusters);
        for cluster in clusters {
            let gs: Vec<&FG> = along_the_line(&fg, &cluster).into_iter().map(|i| &fg[i]).collect();
            if let Some(line) = build_line(dir, &gs) {
                lines.push(line);
            }
        }
    }
    Layout { lines }
}

/// A line's glyphs in reading order. Along the line by each glyph's middle, not its left edge: a
/// glyph kerned back over the space before it ("was 57" on 3M's 10-K, the "5" starting 0.2 pt left
/// of the space's start) comes after that space, which then separates the words. Glyphs that do
/// not overlap keep the order their left edges give.
///
/// A script run — touching glyphs on one baseline, set smaller than the line's largest text — is
/// read whole, at its first glyph's place: a superscript set over a subscript at one position
/// ("10.54" with +0.68 over −0.75, the uncertainties of a measurement) would otherwise interleave
/// their characters by middle ("10.54+−00..6785"). Stacked runs read top first ("10.54+0.68 −0.75";
/// `build_line` parts them).
fn along_the_line(fg: &[FG], cluster: &[usize]) -> Vec<usize> {
    let middle = |i: usize| total_order(fg[i].fx0 + fg[i].fx1);
    // Positions in `cluster`, by middle.
    let mut order: Vec<usize> = (0..cluster.len()).collect();
    order.sort_by_key(|&k| middle(cluster[k]));
    let size = cluster.iter().filter(|&&i| !fg[i].c.is_whitespace()).map(|&i| fg[i].size).fold(0.0, f32::max);
    let script = |i: usize| !fg[i].c.is_whitespace() && fg[i].size <= SCRIPT_SIZE_RATIO * size;
    // Script runs, each glyph joining the run whose last glyph it continues (same baseline,
    // touching); `cluster` is in left-edge order.
    let mut run_of: Vec<Option<usize>> = vec![None; cluster.len()];
    let mut runs: Vec<(usize, usize)> = vec![]; // (first glyph, last glyph)
    for (k, &i) in cluster.iter().enumerate() {
        if !script(i) {
            continue;
        }
        let g = &fg[i];
        // The runs open beside this glyph are the last few (a stack of two or three at one place);
        // looking further back would only make a hostile line of thousands of small glyphs quadratic.
        let from = runs.len().saturating_sub(SCRIPT_OPEN_RUNS);
        let continues = runs[from..].iter().rposition(|&(_, last)| {
            let p = &fg[last];
            (g.fbase - p.fbase).abs() <= 0.15 * g.size.max(p.size)
                && g.fx0 - p.fx1 <= SCRIPT_TOUCH_EM * g.size.max(p.size)
                && g.fx0 >= p.fx0
        });
        let r = match continues.map(|r| from + r) {
            Some(r) => {
                runs[r].1 = i;
                r
            }
            None => {
                runs.push((i, i));
                runs.len() - 1
            }
        };
        run_of[k] = Some(r);
    }
    if runs.len() >= 2 {
        // Each run sorts at its first glyph's middle, the higher run first, then where its first
        // member stands by middle; its glyphs stay together, in their own order.
        let (mut rank, mut first_rank) = (vec![0; cluster.len()], vec![usize::MAX; runs.len()]);
        for (n, &k) in order.iter().enumerate() {
            rank[k] = n;
            if let Some(r) = run_of[k] {
                first_rank[r] = first_rank[r].min(n);
            }
        }
        order.sort_by_key(|&k| match run_of[k] {
            None => (middle(cluster[k]), 0, rank[k], rank[k]),
            Some(r) => (middle(runs[r].0), total_order(fg[runs[r].0].fbase), first_rank[r], rank[k]),
        });
    }
    order.into_iter().map(|k| cluster[k]).collect()
}

/// Script runs a glyph may continue: the last this many (`along_the_line`).
const SCRIPT_OPEN_RUNS: usize = 4;
/// A superscript or subscript is at most this share of the size of the text it is set against.
const SCRIPT_SIZE_RATIO: f32 = 0.85;
/// … and at least this share: a hair-thin glyph beside a line is hidden text, not a marker.
const SCRIPT_MIN_RATIO: f32 = 0.4;
/// How far (ems of the text it is set against) a superscript's baseline may rise, or a subscript's
/// sink, and still belong to that line.
const SCRIPT_RISE_EM: f32 = 0.6;
const SCRIPT_SINK_EM: f32 = 0.35;
/// A script touches its word: the gap to it is at most this many ems (word spaces are ~0.25 em).
const SCRIPT_TOUCH_EM: f32 = 0.2;
/// … or is kerned back over its last letter by at most this many ems.
const SCRIPT_OVERLAP_EM: f32 = 0.3;
/// Lines looked at on either side of a script's own, and glyphs of each looked at near the script
/// (bound the work on a hostile page; a real line has a handful of glyphs within a few ems).
const SCRIPT_NEIGHBOUR_LINES: usize = 6;
const SCRIPT_SCAN_GLYPHS: usize = 48;

/// Footnote markers ("Sales¹˒²", "VaR⁽ᵃ⁾") are set smaller on a raised baseline, so baseline
/// clustering puts them on a line of their own, read before or after the line they belong to and
/// split from their word. Move each such run of glyphs into the line whose glyph it touches, where
/// word building joins it to that word as pdftotext does ("Sales1,2", which is also how the
/// FinanceBench gold page text reads). Issue 3 deliverable 1 (words and lines in reading order).
/// The run is smaller than the glyph it touches as well as than the line (a line that shares its
/// baseline with a larger text column has that column's median size), and it lies beside that
/// glyph's word, not across its letters (the next line of a label set close under it).
/// Table detection still folds the script lines this leaves (`tables::lines::fold_scripts`, looser: any
/// overlapping line, 0.3 em either side; 46 lines on the corpus PDFs) — one mechanism to merge.
fn attach_scripts(fg: &[FG], clusters: &mut [Vec<usize>]) {
    if clusters.len() < 2 {
        return;
    }
    let stats: Vec<(f32, f32)> = clusters
        .iter()
        .map(|c| {
            let base = median(c.iter().map(|&i| fg[i].fbase).collect());
            let size = median(c.iter().map(|&i| fg[i].size).collect());
            (base, size)
        })
        .collect();
    let mut moves: Vec<(Vec<usize>, usize)> = vec![];
    for (ci, cluster) in clusters.iter().enumerate() {
        let lo = ci.saturating_sub(SCRIPT_NEIGHBOUR_LINES);
        let hi = (ci + SCRIPT_NEIGHBOUR_LINES + 1).min(clusters.len());
        // A run moves only into a line set larger than it (SCRIPT_SIZE_RATIO), and it is at least
        // as large as its smallest glyph: a line with no glyph that small beside any neighbour
        // (body text among body text) has no run to move.
        let largest_neighbour = (lo..hi).filter(|&m| m != ci).map(|m| stats[m].1).fold(f32::MIN, f32::max);
        let smallest = cluster
            .iter()
            .filter(|&&i| !fg[i].c.is_whitespace())
            .map(|&i| fg[i].size)
            .fold(f32::MAX, f32::min);
        if smallest > SCRIPT_SIZE_RATIO * largest_neighbour {
            continue;
        }
        // Runs of touching glyphs within the cluster (already sorted along the line).
        let mut runs: Vec<Vec<usize>> = vec![];
        for &i in cluster {
            let g = &fg[i];
            // A space has no word to join (and splits one if moved into it).
            if g.c.is_whitespace() {
                runs.push(vec![]);
                continue;
            }
            match runs.last_mut() {
                Some(r) if r.last().is_some_and(|&p| g.fx0 - fg[p].fx1 <= SCRIPT_TOUCH_EM * g.size.max(fg[p].size)) => r.push(i),
                _ => runs.push(vec![i]),
            }
        }
        for run in runs.into_iter().filter(|r| !r.is_empty()) {
            let size = run.iter().map(|&i| fg[i].size).fold(0.0, f32::max);
            let base = median(run.iter().map(|&i| fg[i].fbase).collect());
            let x0 = run.iter().map(|&i| fg[i].fx0).fold(f32::MAX, f32::min);
            let x1 = run.iter().map(|&i| fg[i].fx1).fold(f32::MIN, f32::max);
            // How much of the line's letters the run covers, if it may belong to that line.
            let fits = |m: usize| -> Option<f32> {
                let (mbase, msize) = stats[m];
                if size > SCRIPT_SIZE_RATIO * msize || size < SCRIPT_MIN_RATIO * msize || base < mbase - SCRIPT_RISE_EM * msize || base > mbase + SCRIPT_SINK_EM * msize {
                    return None;
                }
                let touch = SCRIPT_TOUCH_EM * msize;
                let overlap = SCRIPT_OVERLAP_EM * msize;
                let line = &clusters[m];
                // The line's glyphs near the run (sorted by fx0).
                let from = line.partition_point(|&j| fg[j].fx0 < x0 - 4.0 * msize);
                let near = || line[from..].iter().take(SCRIPT_SCAN_GLYPHS).take_while(|&&j| fg[j].fx0 <= x1 + touch);
                // A script sits in the gap beside its word (its edge may overlap the word's last
                // glyph a little); a run lying across the middle of one of the line's letters is
                // the next line of a label set close under it, whose letters it would interleave.
                // A superscript set over the line's own subscript lies across that subscript's
                // letters: where a script of the line (smaller than its text) starts where the run
                // starts, the two are stacked at one position, and the line's scripts are no
                // letters for this test.
                let small = |j: usize| fg[j].size <= SCRIPT_SIZE_RATIO * msize;
                let stacked = near().any(|&j| !fg[j].c.is_whitespace() && small(j) && (fg[j].fx0 - x0).abs() <= touch);
                let across = |j: usize| {
                    let c = (fg[j].fx0 + fg[j].fx1) / 2.0;
                    !fg[j].c.is_whitespace() && !(stacked && small(j)) && c > x0 + 0.1 * msize && c < x1 - 0.1 * msize
                };
                if near().any(|&j| across(j)) {
                    return None;
                }
                let touches = near().any(|&j| {
                    let h = &fg[j];
                    let after = x0 - h.fx1; // the run follows this glyph
                    let before = h.fx0 - x1; // the run precedes it
                    // Smaller than the glyph it touches too: a line that shares a baseline with
                    // another column has that column's size, not this glyph's.
                    size <= SCRIPT_SIZE_RATIO * h.size
                        && ((after >= -overlap && after <= touch) || (before >= -overlap && before <= touch))
                });
                touches.then(|| {
                    near()
                        .filter(|&&j| !fg[j].c.is_whitespace())
                        .map(|&j| (x1.min(fg[j].fx1) - x0.max(fg[j].fx0)).max(0.0))
                        .sum::<f32>()
                })
            };
            // Of the lines it may belong to, the one whose letters it covers least: a mark after
            // "FHLBs" in a label's second line, not across "Federal" in its first, which shares a
            // baseline with a larger text column and so takes a deeper-set run.
            let target = (lo..hi)
                .filter(|&m| m != ci)
                .filter_map(|m| fits(m).map(|c| (m, c)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(m, _)| m);
            if let Some(m) = target {
                moves.push((run, m));
            }
        }
    }
    // Each glyph is in one run, so it moves at most once: take every moving glyph out of its line
    // (one pass per line), then add the runs to theirs.
    let mut moved = vec![false; fg.len()];
    for &i in moves.iter().flat_map(|(run, _)| run) {
        moved[i] = true;
    }
    for c in clusters.iter_mut() {
        c.retain(|&i| !moved[i]);
    }
    for (run, to) in moves {
        clusters[to].extend(run);
    }
}

/// A gap between glyphs wider than this many ems (of the larger of the two) separates words even
/// where no space is drawn: tables and leaders position each piece on its own ("$ 3,778,495",
/// "51 %", "Revenue ....", gaps of 0.151–0.158 em on Adobe's and Coca-Cola's 10-Ks). MuPDF's text
/// device breaks words at 0.15 em, pdftotext at 0.1 em of the font size; FinanceBench's gold page
/// text is such an extractor's output.
const WORD_GAP_EM: f32 = 0.15;

fn build_line(dir: u8, gs: &[&FG]) -> Option<Line> {
    let mut words: Vec<Word> = vec![];
    let mut cur: Option<Word> = None;
    let mut last: Option<&FG> = None;
    // Content order of the line's spaces, for the rule that a space drawn between two glyphs
    // separates them wherever the second is placed.
    let mut spaces: Vec<u32> = gs.iter().filter(|g| g.c.is_whitespace()).map(|g| g.seq).collect();
    spaces.sort_unstable();
    for (k, g) in gs.iter().enumerate() {
        // Fake bold and shadowed text draw the same glyph twice, a hair apart.
        if let Some(p) = last {
            if p.c == g.c
                && (g.fx0 - p.fx0).abs() < 0.15 * g.size
                && (g.fbase - p.fbase).abs() < 0.15 * g.size
            {
                continue;
            }
        }
        if g.c.is_whitespace() {
            // A space drawn inside the word read so far (its middle short of the word's right edge)
            // separates nothing: hidden text or a marker set under a letter, as the 0.9 pt space
            // under the first letter of a paragraph's first word on BESTBUY_2024Q2_10Q p17.
            if cur.as_ref().is_some_and(|w| 0.5 * (g.fx0 + g.fx1) < w.fx1 - 0.05 * w.size) {
                continue;
            }
            // A space drawn elsewhere in the content (another text object's, a stray blank of the
            // paragraph behind a figure on eu-014 p1) that the next glyph covers separates nothing
            // either; a space drawn right after the word's last glyph does, even when the next
            // glyph is kerned back over it ("was 57").
            let drawn_apart = last.is_some_and(|p| p.seq.wrapping_add(1) != g.seq);
            if cur.is_some() && drawn_apart && gs.get(k + 1).is_some_and(|n| !n.c.is_whitespace() && n.fx0 < g.fx1 && n.fx1 > g.fx0) {
                continue;
            }
            if let Some(w) = cur.take() {
                words.push(w);
            }
            last = Some(g);
            continue;
        }
        let gap_limit = WORD_GAP_EM * g.size.max(last.map(|p| p.size).unwrap_or(0.0));
        let breaks = match (&cur, last) {
            (Some(w), Some(p)) => {
                g.fx0 - w.fx1 > gap_limit
                    || g.fx0 < w.fx0 - 0.5 * g.size
                    // A footnote mark joins its word only when drawn with it: a mark the content
                    // draws after the rest of the row (Boeing's "customers (1)", set after the
                    // figures) is read as a word of its own, as a reader following the content
                    // has it and FinanceBench's gold page text reads; "Sales1,2" drawn in one run
                    // stays one word.
                    || (p.size.min(g.size) <= SCRIPT_SIZE_RATIO * p.size.max(g.size) && p.seq.abs_diff(g.seq) != 1)
                    // The content drew a space between the two: they are two words even when
                    // negative word spacing sets the second over that space and the first's last
                    // glyph (justified lines of Coca-Cola's 10-K: "31," then a space, then "2017"
                    // 1 pt left of the comma's end), as a reader following the content (MuPDF,
                    // whose text FinanceBench's gold is) has them.
                    || (p.seq.wrapping_add(2) == g.seq && spaces.binary_search(&p.seq.wrapping_add(1)).is_ok())
                    // A run set back under (or over) the one before it on another baseline: the
                    // lower of two scripts stacked at one position (`along_the_line`).
                    || (g.fx0 < p.fx0 - 0.1 * g.size && (g.fbase - p.fbase).abs() > 0.2 * g.size.min(p.size))
            }
            _ => false,
        };
        if breaks {
            if let Some(w) = cur.take() {
                words.push(w);
            }
        }
        match cur.as_mut() {
            Some(w) => {
                w.text.push(g.c);
                w.fx1 = w.fx1.max(g.fx1);
                w.ftop = w.ftop.min(g.ftop);
                w.fbot = w.fbot.max(g.fbot);
                w.size = w.size.max(g.size);
            }
            None => {
                cur = Some(Word {
                    text: g.c.to_string(),
                    bbox: [0.0; 4],
                    fx0: g.fx0,
                    fx1: g.fx1,
                    ftop: g.ftop,
                    fbot: g.fbot,
                    size: g.size,
                    font: g.font,
                    fbase: g.fbase,
                })
            }
        }
        last = Some(g);
    }
    if let Some(w) = cur.take() {
        words.push(w);
    }
    if words.is_empty() {
        return None;
    }
    for w in &mut words {
        if has_ligature(&w.text) {
            w.text = expand_ligatures(&w.text);
        }
        w.bbox = to_page(dir, w.fx0, w.fx1, w.ftop, w.fbot);
    }
    bidi_line(&mut words);
    let fx0 = words.iter().map(|w| w.fx0).fold(f32::MAX, f32::min);
    let fx1 = words.iter().map(|w| w.fx1).fold(f32::MIN, f32::max);
    let ftop = words.iter().map(|w| w.ftop).fold(f32::MAX, f32::min);
    let fbot = words.iter().map(|w| w.fbot).fold(f32::MIN, f32::max);
    let size = median(words.iter().map(|w| w.size).collect());
    Some(Line {
        dir,
        bbox: to_page(dir, fx0, fx1, ftop, fbot),
        words,
        fx0,
        fx1,
        ftop,
        fbot,
        size,
    })
}

pub(crate) fn median(mut v: Vec<f32>) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// A Latin ligature (U+FB00–FB06) in the text.
fn has_ligature(s: &str) -> bool {
    !s.is_ascii() && s.chars().any(|c| ('\u{FB00}'..='\u{FB06}').contains(&c))
}

fn expand_ligatures(s: &str) -> String {
    if !has_ligature(s) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        match c {
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
            c => out.push(c),
        }
    }
    out
}

/// Words in reading order, separated by spaces (a right-to-left run read right to left).
pub fn join_words(words: &[Word]) -> String {
    let mut s = String::new();
    let mut push = |w: &Word| {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&w.text);
    };
    match logical_order(words.len(), |i| &words[i].text) {
        Some(order) => order.into_iter().for_each(|i| push(&words[i])),
        None => words.iter().for_each(push),
    }
    s
}

/// A run of words on one line with no wide gap: the unit blocks are built from.
struct Fragment {
    dir: u8,
    /// Its words in runs of one face.
    spans: Vec<Span>,
    fx0: f32,
    fx1: f32,
    ftop: f32,
    fbot: f32,
    size: f32,
}

impl Fragment {
    /// Every word set in a bold face (a heading's mark when the text around it is regular).
    fn bold(&self, fonts: &[FontFace]) -> bool {
        self.spans
            .iter()
            .all(|s| fonts.get(usize::from(s.font)).is_some_and(|f| f.bold))
    }

    fn line(self) -> TextLine {
        TextLine {
            bbox: to_page(self.dir, self.fx0, self.fx1, self.ftop, self.fbot),
            size: self.size,
            spans: self.spans,
        }
    }
}

/// Consecutive words set in the same face, as spans, in reading order.
fn spans_of(words: &[&Word]) -> Vec<Span> {
    let mut out: Vec<Span> = vec![];
    let order = logical_order(words.len(), |i| &words[i].text).unwrap_or_else(|| (0..words.len()).collect());
    for w in order.into_iter().map(|i| words[i]) {
        match out.last_mut() {
            Some(sp) if sp.font == w.font => {
                sp.text.push(' ');
                sp.text.push_str(&w.text);
            }
            _ => out.push(Span { text: w.text.clone(), font: w.font }),
        }
    }
    out
}

fn fragments(line: &Line) -> Vec<Fragment> {
    let mut out: Vec<Fragment> = vec![];
    let gap = GUTTER_EMS * line.size.max(1.0);
    let mut cur: Vec<&Word> = vec![];
    let flush = |cur: &mut Vec<&Word>, out: &mut Vec<Fragment>| {
        if cur.is_empty() {
            return;
        }
        out.push(Fragment {
            dir: line.dir,
            spans: spans_of(cur),
            fx0: cur.iter().map(|w| w.fx0).fold(f32::MAX, f32::min),
            fx1: cur.iter().map(|w| w.fx1).fold(f32::MIN, f32::max),
            ftop: cur.iter().map(|w| w.ftop).fold(f32::MAX, f32::min),
            fbot: cur.iter().map(|w| w.fbot).fold(f32::MIN, f32::max),
            size: line.size,
        });
        cur.clear();
    };
    for w in &line.words {
        if let Some(p) = cur.last() {
            // A list bullet is set well apart from its item, often further than a gutter; it
            // still opens that item rather than standing as a block of its own.
            let space = w.fx0 - p.fx1;
            let after_bullet = || space <= BULLET_GAP_EMS * line.size.max(1.0) && cur.iter().all(|w| is_bullet(&w.text));
            if space > gap && !after_bullet() {
                flush(&mut cur, &mut out);
            }
        }
        cur.push(w);
    }
    flush(&mut cur, &mut out);
    out
}

/// A gap this many ems wide in a line is a column gutter: wider than any word space of justified
/// prose.
pub(crate) const GUTTER_EMS: f32 = 1.6;

/// How far, in ems, a list bullet may stand from the first word of its item.
const BULLET_GAP_EMS: f32 = 4.0;

/// A word that is only list-bullet marks (dashes are left out: a dash alone is also "nil" in a
/// table cell).
fn is_bullet(word: &str) -> bool {
    !word.is_empty()
        && word.chars().all(|c| {
            matches!(c, '•' | '●' | '▪' | '■' | '◦' | '‣' | '⁃' | '○' | '►' | '▸' | '➢' | '❖' | '◆' | '◇' | '□' | '▫' | '✓' | '✔' | '·')
        })
}

struct TextBlock {
    dir: u8,
    lines: Vec<TextLine>,
    fx0: f32,
    fx1: f32,
    ftop: f32,
    fbot: f32,
    last_fx0: f32,
    last_fx1: f32,
    /// Its last line is set wholly in bold.
    last_bold: bool,
    /// Its last line ends a sentence.
    last_ends_sentence: bool,
    size: f32,
}

fn inside(b: &BBox, t: &BBox, slack: f32) -> bool {
    let cx = (b[0] + b[2]) / 2.0;
    let cy = (b[1] + b[3]) / 2.0;
    cx >= t[0] - slack && cx <= t[2] + slack && cy >= t[1] - slack && cy <= t[3] + slack
}

/// Characters compared, per page, checking that a table's cells hold the text inside it.
const HELD_CHECK_BUDGET: usize = 50_000_000;

/// Blocks a fragment may join, counted back from the latest (see `blocks_with_tables`).
const BLOCK_WINDOW: usize = 512;

/// Blocks in reading order and the page text (blocks separated by blank lines).
///
/// A fragment joins the block just above it when the gap is under 0.75 em, the sizes are close and
/// they overlap across — except that a line set wholly in bold under a regular line that ends a
/// sentence starts a block of its own: that is a heading set close under the paragraph before it
/// ("…thereon." / **Basis for Opinion** / "These financial statements…"), and it opens the
/// paragraph it heads. A bold line under an unfinished one (a total under a row label, a name under
/// a signature) is not a heading, and stays where it is.
pub fn blocks_with_tables(
    lay: &Layout,
    tables: &[Table],
    fonts: &[FontFace],
    graphics: &Graphics,
    width: f32,
    height: f32,
    _settings: &crate::config::IngestSettings,
) -> (Vec<Block>, String) {
    // The words each table's cells hold. A fragment inside a table is read from its cells, unless
    // they do not hold one of its words (a line the grid left out): then it stays in the text, so
    // a table never costs the page its words. A word is held when a cell has it (each cell word
    // counted once) or when it is in the cells' text run together (`$31.74` against a `$` column).
    let mut held: Vec<(std::collections::HashMap<&str, usize>, String)> = tables
        .iter()
        .map(|t| {
            let cell_words: Vec<&str> = t.cells.iter().flat_map(|c| c.text.split_whitespace()).collect();
            let run = cell_words.concat();
            let mut words = std::collections::HashMap::new();
            for w in cell_words {
                *words.entry(w).or_insert(0) += 1;
            }
            (words, run)
        })
        .collect();
    // Bounds the run-together checks on a hostile page (characters compared); past it a word
    // inside a table is taken as held.
    let mut budget: usize = HELD_CHECK_BUDGET;
    let mut frags: Vec<Fragment> = vec![];
    for line in &lay.lines {
        for f in fragments(line) {
            let pb = to_page(f.dir, f.fx0, f.fx1, f.ftop, f.fbot);
            if f.dir == 0 {
                if let Some(k) = tables.iter().position(|t| inside(&pb, &t.bbox, 1.0)) {
                    let (words, run) = &mut held[k];
                    // A list bullet is a mark, not a word the cells must hold.
                    let mut unmarked = f.spans.iter().flat_map(|s| s.text.split_whitespace()).filter(|w| !is_bullet(w));
                    let left_out = unmarked.any(|w| {
                        if let Some(n) = words.get_mut(w).filter(|n| **n > 0) {
                            *n -= 1;
                            return false;
                        }
                        if budget < run.len() {
                            return false;
                        }
                        budget -= run.len();
                        !run.contains(w)
                    });
                    if !left_out {
                        continue;
                    }
                }
            }
            frags.push(f);
        }
    }
    frags.sort_by(|a, b| {
        a.dir
            .cmp(&b.dir)
            .then(a.ftop.total_cmp(&b.ftop))
            .then(a.fx0.total_cmp(&b.fx0))
    });
    let mut blocks: Vec<TextBlock> = vec![];
    for f in frags {
        let bold = f.bold(fonts);
        let ends_sentence = f
            .spans
            .last()
            .and_then(|s| s.text.trim_end().chars().last())
            .is_some_and(|c| matches!(c, '.' | ':' | ';' | '?' | '!'));
        let mut best: Option<(usize, f32)> = None;
        // Fragments come top to bottom, so a fragment joins one of the latest blocks; looking at
        // the last `BLOCK_WINDOW` only keeps a page of 100,000 one-line blocks (a hostile content
        // stream) from costing 10¹⁰ comparisons. Real pages have far fewer blocks than the window.
        let from = blocks.len().saturating_sub(BLOCK_WINDOW);
        for (i, b) in blocks.iter().enumerate().skip(from) {
            if b.dir != f.dir || (bold && !b.last_bold && b.last_ends_sentence) {
                continue;
            }
            let vgap = f.ftop - b.fbot;
            let s = f.size.max(b.size);
            if vgap < -0.4 * s || vgap > 0.75 * s {
                continue;
            }
            let ratio = f.size.max(0.1) / b.size.max(0.1);
            if !(0.7..=1.4).contains(&ratio) {
                continue;
            }
            let overlap = f.fx1.min(b.last_fx1) - f.fx0.max(b.last_fx0);
            if overlap <= 0.0 {
                continue;
            }
            if best.is_none_or(|(_, g)| vgap < g) {
                best = Some((i, vgap));
            }
        }
        match best {
            Some((i, _)) => {
                let b = &mut blocks[i];
                b.fx0 = b.fx0.min(f.fx0);
                b.fx1 = b.fx1.max(f.fx1);
                b.ftop = b.ftop.min(f.ftop);
                b.fbot = b.fbot.max(f.fbot);
                b.last_fx0 = f.fx0;
                b.last_fx1 = f.fx1;
                b.last_bold = bold;
                b.last_ends_sentence = ends_sentence;
                b.lines.push(f.line());
            }
            None => blocks.push(TextBlock {
                dir: f.dir,
                fx0: f.fx0,
                fx1: f.fx1,
                ftop: f.ftop,
                fbot: f.fbot,
                last_fx0: f.fx0,
                last_fx1: f.fx1,
                last_bold: bold,
                last_ends_sentence: ends_sentence,
                size: f.size,
                lines: vec![f.line()],
            }),
        }
    }
    let mut all: Vec<Block> = blocks
        .into_iter()
        .map(|b| Block {
            kind: BlockKind::Text,
            bbox: to_page(b.dir, b.fx0, b.fx1, b.ftop, b.fbot),
            text: b.lines.iter().map(TextLine::text).collect::<Vec<_>>().join("\n"),
            lines: b.lines,
        })
        .collect();
    for (k, t) in tables.iter().enumerate() {
        all.push(Block {
            kind: BlockKind::Table,
            bbox: t.bbox,
            text: table_text_once(t, &tables[..k]),
            lines: vec![],
        });
    }
    let page_area = (width * height).max(1.0);
    for im in &graphics.images {
        let b = [
            im[0].max(0.0),
            im[1].max(0.0),
            im[2].min(width),
            im[3].min(height),
        ];
        let a = (b[2] - b[0]).max(0.0) * (b[3] - b[1]).max(0.0);
        if a / page_area >= 0.01 {
            all.push(Block {
                kind: BlockKind::Image,
                bbox: b,
                text: String::new(),
                lines: vec![],
            });
        }
    }
    // A page set mostly right to left is read from its right: its columns, and the blocks across
    // a band, come right to left (the boxes are mirrored for the cut, not in the output).
    let rtl_page = {
        let (rtl, ltr) = all.iter().map(|b| letters(&b.text)).fold((0, 0), |(r, l), (br, bl)| (r + br, l + bl));
        rtl > ltr
    };
    let boxes: Vec<BBox> = all
        .iter()
        .map(|b| if rtl_page { [width - b.bbox[2], b.bbox[1], width - b.bbox[0], b.bbox[3]] } else { b.bbox })
        .collect();
    let order = reading_order(&boxes);
    let mut ordered = Vec::with_capacity(all.len());
    let mut slots: Vec<Option<Block>> = all.into_iter().map(Some).collect();
    for i in order {
        if let Some(b) = slots.get_mut(i).and_then(Option::take) {
            ordered.push(b);
        }
    }
    let text = ordered
        .iter()
        .filter(|b| !b.text.is_empty())
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");
    (ordered, text)
}

/// A table's text without the cells an earlier table on the page already reads: where table
/// detection gives two tables that overlap by a row (a header band and the body under it, each
/// taking the row between them — Boeing's union table on p4 of its 2022 10-K, JPMorgan's 10-Q p3,
/// a Best Buy exhibit row), that row is printed on the page once, so the page text has it once. A
/// cell is left out when the cells of an earlier table that overlap it hold all its words, however
/// the two tables split the row into cells (the same text in the same place, not a `$` of the row
/// below that a header band's box reaches over).
fn table_text_once(t: &Table, earlier: &[Table]) -> String {
    let overlaps = |a: &BBox, b: &BBox| a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    let others: Vec<&super::Cell> = earlier
        .iter()
        .filter(|e| overlaps(&e.bbox, &t.bbox))
        .flat_map(|e| e.cells.iter())
        .filter(|c| overlaps(&c.bbox, &t.bbox))
        .collect();
    if others.is_empty() {
        return table_text(t);
    }
    let mut grid = t.grid();
    for c in &t.cells {
        if c.text.trim().is_empty() {
            continue;
        }
        let mut have: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for w in others.iter().filter(|o| overlaps(&o.bbox, &c.bbox)).flat_map(|o| o.text.split_whitespace()) {
            *have.entry(w).or_insert(0) += 1;
        }
        let held = c.text.split_whitespace().all(|w| match have.get_mut(w) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        });
        if held {
            if let Some(slot) = grid.get_mut(c.row).and_then(|r| r.get_mut(c.col)) {
                slot.clear();
            }
        }
    }
    row_texts(&grid).into_iter().filter(|r| !r.is_empty()).collect::<Vec<_>>().join("\n")
}

fn row_texts(grid: &[Vec<String>]) -> Vec<String> {
    grid.iter()
        .map(|r| r.iter().filter(|c| !c.is_empty()).cloned().collect::<Vec<_>>().join("  "))
        .collect()
}

/// Row by row, cells separated by two spaces: readable as prose and keeps every token.
pub fn table_text(t: &Table) -> String {
    row_texts(&t.grid()).into_iter().filter(|r| !r.is_empty()).collect::<Vec<_>>().join("\n")
}

/// A left-to-right line for tests: each piece `(text, x0, x1)` is spread over its span, one word
/// per space-separated token, `size` points tall from `top`.
#[cfg(test)]
pub(crate) fn test_line(pieces: &[(&str, f32, f32)], top: f32, size: f32) -> Line {
    let mut words = vec![];
    for (text, x0, x1) in pieces {
        let toks: Vec<&str> = text.split_whitespace().collect();
        let chars: usize = toks.iter().map(|t| t.chars().count()).sum();
        let space = 0.25 * size;
        let per = ((x1 - x0) - space * (toks.len() as f32 - 1.0)) / chars.max(1) as f32;
        let mut x = *x0;
        for t in toks {
            let w = per * t.chars().count() as f32;
            words.push(Word {
                text: t.to_string(),
                bbox: [x, top, x + w, top + size],
                fx0: x,
                fx1: x + w,
                ftop: top,
                fbot: top + size,
                size,
                font: 0,
                fbase: top + 0.8 * size,
            });
            x += w + space;
        }
    }
    let (fx0, fx1) = (words.first().map_or(0.0, |w| w.fx0), words.last().map_or(0.0, |w| w.fx1));
    Line { dir: 0, words, bbox: [fx0, top, fx1, top + size], fx0, fx1, ftop: top, fbot: top + size, size }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_keys_order_floats_as_total_cmp_does() {
        let v = [
            f32::NEG_INFINITY, -1e30, -2.5, -1.0, -f32::MIN_POSITIVE, -0.0, 0.0, f32::MIN_POSITIVE, 1e-3, 1.0, 2.5,
            612.0, 1e30, f32::INFINITY, f32::NAN, -f32::NAN,
        ];
        for a in v {
            for b in v {
                assert_eq!(total_order(a).cmp(&total_order(b)), a.total_cmp(&b), "{a} vs {b}");
            }
        }
    }

    /// Glyphs of `text` set from `x` on `baseline` at `size` points, each half an em wide; a space
    /// is a glyph too (as content streams often draw them).
    fn set(text: &str, x: f32, baseline: f32, size: f32) -> Vec<Glyph> {
        let w = 0.5 * size;
        text.chars()
            .enumerate()
            .map(|(i, c)| {
                let x0 = x + i as f32 * w;
                Glyph { c, bbox: [x0, baseline - 0.75 * size, x0 + w, baseline + 0.2 * size], origin: [x0, baseline], size, dir: 0, garbled: false, font: 0 }
            })
            .collect()
    }

    fn line_texts(glyphs: Vec<Glyph>) -> Vec<String> {
        lay_out(&glyphs, 600.0, 800.0).lines.iter().map(Line::text).collect()
    }

    #[test]
    fn a_hair_thin_space_drawn_under_a_letter_does_not_split_its_word() {
        // BESTBUY_2024Q2_10Q p17: a 0.9 pt space set under the "D" of a paragraph's first word,
        // 2 pt below its baseline.
        let mut g = set("Domestic segment", 18.1, 339.8, 8.0);
        g.push(Glyph { c: ' ', bbox: [18.1, 341.2, 18.35, 342.0], origin: [18.1, 341.85], size: 0.9, dir: 0, garbled: false, font: 0 });
        assert_eq!(line_texts(g), vec!["Domestic segment".to_string()]);
        // A space after a word's end still ends it, however thin.
        let mut g = set("Domestic", 18.1, 339.8, 8.0);
        g.push(Glyph { c: ' ', bbox: [50.1, 339.0, 50.35, 339.8], origin: [50.1, 339.8], size: 0.9, dir: 0, garbled: false, font: 0 });
        g.extend(set("segment", 50.4, 339.8, 8.0));
        assert_eq!(line_texts(g), vec!["Domestic segment".to_string()]);
    }

    #[test]
    fn a_space_drawn_between_two_glyphs_separates_them_when_word_spacing_sets_the_second_back_over_it() {
        // COCACOLA_2017_10K p56, justified 7.8 pt text: "31," then a space glyph (1.93 pt wide),
        // then "2017" starting 1.04 pt left of the comma's end (its middle short of the space's),
        // since the line's word spacing is negative. Drawn in that order, as one run.
        let size = 7.8;
        let mut g = set("December 31,", 220.0, 260.7, size);
        let comma_end = 220.0 + 12.0 * 0.5 * size;
        g.push(Glyph { c: ' ', bbox: [comma_end, 253.0, comma_end + 1.93, 262.4], origin: [comma_end, 260.7], size, dir: 0, garbled: false, font: 0 });
        g.extend(set("2017 and 2016", comma_end - 1.04, 260.7, size));
        assert_eq!(line_texts(g), vec!["December 31, 2017 and 2016".to_string()]);
        // Without a space drawn between them, glyphs that overlap stay one word.
        let mut g = set("31,", 220.0, 260.7, size);
        g.extend(set("2017", 220.0 + 3.0 * 0.5 * size - 1.04, 260.7, size));
        assert_eq!(line_texts(g), vec!["31,2017".to_string()]);
    }

    #[test]
    fn a_superscript_stacked_over_a_subscript_reads_whole_after_its_value() {
        // pdf-parse-bench page 034: "10.54" at 11.89 pt with +0.68 over −0.75 at 7.93 pt, both set
        // where the value ends (`$10.54_{-0.75}^{+0.68}$`); each glyph here half an em wide.
        for sink in [2.9, 4.0] {
            // 2.9 pt: the subscript shares the value's baseline cluster; 4.0 pt: a line of its own.
            let mut g = set("10.54", 454.6, 244.3, 11.89);
            let end = 454.6 + 5.0 * 0.5 * 11.89;
            g.extend(set("+0.68", end, 239.9, 7.93));
            g.extend(set("\u{2212}0.75", end, 244.3 + sink, 7.93));
            g.extend(set("5.88", 540.0, 244.3, 11.89));
            assert_eq!(line_texts(g), vec!["10.54+0.68 \u{2212}0.75 5.88".to_string()], "subscript {sink} pt below");
        }
    }

    #[test]
    fn a_raised_footnote_marker_joins_the_word_it_touches() {
        // "Sales" at 9 pt, "1,2" at 5.5 pt raised 3.4 pt and touching it, a value further right.
        let mut g = set("Operational Sales", 46.0, 105.0, 9.0);
        let end = 46.0 + 17.0 * 4.5;
        g.extend(set("1,2", end + 0.15, 101.6, 5.5));
        g.extend(set("0.9%", 337.0, 105.0, 9.0));
        assert_eq!(line_texts(g), vec!["Operational Sales1,2 0.9%".to_string()]);
        // A marker set before its word ("¹Non-GAAP …") joins it too.
        let mut g = set("1", 40.0, 201.6, 5.5);
        g.extend(set("Non-GAAP measure", 40.0 + 2.75 + 0.1, 205.0, 9.0));
        assert_eq!(line_texts(g), vec!["1Non-GAAP measure".to_string()]);
        // A marker kerned back over its word's last letter (Coca-Cola's 10-K: 0.2 em) joins it too.
        let mut g = set("discontinued operations", 46.0, 350.7, 7.8);
        g.extend(set("2", 46.0 + 23.0 * 3.9 - 1.5, 348.9, 5.4));
        assert_eq!(line_texts(g), vec!["discontinued operations2".to_string()]);
    }

    #[test]
    fn a_table_label_beside_a_larger_text_column_keeps_its_words_and_its_marks() {
        // JPMorgan 10-Q p24: 10 pt running text in the left column shares baselines with the 8 pt
        // labels of a table in the right one, so those lines' median size is the text's.
        // A mark raised from a label's second line lies across the first line's last word: it
        // belongs to the word it follows, not to the glyphs it overlaps.
        let mut g = set("compared with a loss of $951 million", 58.5, 170.0, 10.0);
        g.extend(set("Loans held-for-sale and", 312.9, 168.9, 8.0));
        g.extend(set("loans at fair value", 316.9, 176.9, 8.0));
        g.extend(set("(c)", 392.9, 173.06, 5.2));
        let lines = line_texts(g);
        assert!(lines.iter().any(|l| l.ends_with("Loans held-for-sale and")), "{lines:?}");
        assert!(lines.contains(&"loans at fair value(c)".to_string()), "{lines:?}");
        // A label's second line on the text's baseline is not a superscript of the first line.
        let mut g = set("predominantly driven by higher", 49.5, 221.0, 10.0);
        g.extend(set("Selected balance sheet", 322.0, 215.2, 8.0));
        g.extend(set("data (average)", 326.6, 221.0, 8.0));
        let lines = line_texts(g);
        assert!(lines.contains(&"Selected balance sheet".to_string()), "{lines:?}");
        // A mark on the text's baseline does not take the label word it follows as its subscript.
        let mut g = set("partially offset by lower legal", 49.5, 233.0, 10.0);
        g.extend(set("Total assets", 322.0, 236.15, 8.0));
        g.extend(set("(a)", 370.0, 233.0, 6.0));
        let lines = line_texts(g);
        assert!(lines.contains(&"Total assets(a)".to_string()), "{lines:?}");
        assert!(lines.contains(&"partially offset by lower legal".to_string()), "{lines:?}");
    }

    #[test]
    fn words_inside_a_table_that_its_cells_do_not_hold_stay_in_the_text() {
        use crate::ingest::Cell;
        let cell = |row, col, text: &str, bbox| Cell { row, col, row_span: 1, col_span: 1, text: text.into(), bbox };
        // Two rows the grid holds ("$ 31.74" as a `$` column and its figure), and a sentence
        // inside the table's box that it left out.
        let mut g = set("Period Price", 50.0, 110.0, 9.0);
        g.extend(set("October $31.74", 50.0, 125.0, 9.0));
        g.extend(set("Selected metrics for each LOB", 50.0, 140.0, 9.0));
        let lay = lay_out(&g, 600.0, 800.0);
        let table = Table {
            bbox: [45.0, 100.0, 300.0, 145.0],
            cells: vec![
                cell(0, 0, "Period", [50.0, 101.0, 80.0, 112.0]),
                cell(0, 2, "Price", [86.0, 101.0, 110.0, 112.0]),
                cell(1, 0, "October", [50.0, 116.0, 85.0, 127.0]),
                cell(1, 1, "$", [86.0, 116.0, 90.0, 127.0]),
                cell(1, 2, "31.74", [90.0, 116.0, 120.0, 127.0]),
            ],
            caption: String::new(),
            continues_from_previous: false,
            n_rows: 2,
            n_cols: 3,
            header_rows: 1,
            ruled: false,
            notes: vec![],
        };
        let (blocks, text) = blocks_with_tables(&lay, &[table], &[], &Graphics::default(), 600.0, 800.0, &crate::config::IngestSettings::default());
        let prose: Vec<&str> = blocks.iter().filter(|b| b.kind == BlockKind::Text).map(|b| b.text.as_str()).collect();
        assert_eq!(prose, vec!["Selected metrics for each LOB"], "only the line the cells left out is prose");
        assert_eq!(text.matches("October").count(), 1, "{text}");
        assert_eq!(text.matches("31.74").count(), 1, "{text}");
    }

    #[test]
    fn small_print_that_does_not_touch_a_word_keeps_its_own_line() {
        // A hair-thin space inside a word's height is hidden text, not a marker: the word stays whole.
        let mut g = set("Selected data", 18.0, 105.0, 8.0);
        g.extend(set(" ", 22.0, 107.7, 0.9));
        assert_eq!(line_texts(g), vec!["Selected data".to_string()]);
        // Footnote text on the next line, smaller, stays a line of its own.
        let mut g = set("Revenue 120", 40.0, 100.0, 9.0);
        g.extend(set("(1) Restated", 40.0, 109.0, 6.0));
        assert_eq!(line_texts(g), vec!["Revenue 120".to_string(), "(1) Restated".to_string()]);
        // A raised label a word space away from the line is not a marker of its words.
        let mut g = set("Total", 40.0, 100.0, 9.0);
        g.extend(set("note", 40.0 + 22.5 + 4.0, 96.6, 5.5));
        assert_eq!(line_texts(g).len(), 2);
    }

    /// `set` in face `font`.
    fn set_in(text: &str, x: f32, baseline: f32, size: f32, font: u16) -> Vec<Glyph> {
        set(text, x, baseline, size).into_iter().map(|g| Glyph { font, ..g }).collect()
    }

    fn block_texts(g: Vec<Glyph>) -> Vec<String> {
        let fonts = [
            FontFace { name: Some("Body".into()), bold: false, italic: false },
            FontFace { name: Some("Body-Bold".into()), bold: true, italic: false },
        ];
        let lay = lay_out(&g, 600.0, 800.0);
        let (blocks, _) = blocks_with_tables(&lay, &[], &fonts, &Graphics::default(), 600.0, 800.0, &crate::config::IngestSettings::default());
        blocks.iter().map(|b| b.text.clone()).collect()
    }

    #[test]
    fn a_bold_heading_set_close_under_a_finished_paragraph_opens_the_next_one() {
        // 9 pt lines 11 pt apart: the heading is no further from the paragraph above than its lines.
        let mut g = set_in("expressed an unqualified opinion thereon.", 40.0, 100.0, 9.0, 0);
        g.extend(set_in("Basis for Opinion", 40.0, 111.0, 9.0, 1));
        g.extend(set_in("These statements are the responsibility", 40.0, 122.0, 9.0, 0));
        g.extend(set_in("of the Company's management.", 40.0, 133.0, 9.0, 0));
        assert_eq!(
            block_texts(g),
            vec![
                "expressed an unqualified opinion thereon.".to_string(),
                "Basis for Opinion\nThese statements are the responsibility\nof the Company's management.".to_string(),
            ]
        );
        // A bold total under a row label that does not end a sentence stays in its block, and so
        // does a bold line under a bold one.
        let mut g = set_in("Unbilled receivables", 40.0, 100.0, 9.0, 0);
        g.extend(set_in("Total 2022", 40.0, 111.0, 9.0, 1));
        g.extend(set_in("and 2023.", 40.0, 122.0, 9.0, 1));
        assert_eq!(block_texts(g), vec!["Unbilled receivables\nTotal 2022\nand 2023.".to_string()]);
    }

    #[test]
    fn a_list_bullet_set_apart_from_its_item_opens_it() {
        // The bullet stands 2.4 em before its item (wider than a column gutter), items 2 lines apart.
        let mut g = set("•", 42.0, 100.0, 9.0);
        g.extend(set("the decisions of regulatory bodies;", 66.0, 100.0, 9.0));
        g.extend(set("•", 42.0, 126.0, 9.0));
        g.extend(set("changes in customer demand.", 66.0, 126.0, 9.0));
        assert_eq!(
            block_texts(g),
            vec!["• the decisions of regulatory bodies;".to_string(), "• changes in customer demand.".to_string()]
        );
        // A dash alone is a nil in a table as often as a bullet: it keeps its distance.
        let mut g = set("–", 42.0, 100.0, 9.0);
        g.extend(set("1,234", 66.0, 100.0, 9.0));
        assert_eq!(block_texts(g).len(), 2);
    }

    #[test]
    fn a_right_to_left_page_reads_its_right_column_first() {
        // Two columns of Hebrew (each line already in visual order, as a page draws it).
        let mut g = set("ןושאר רוט", 320.0, 100.0, 9.0);
        g.extend(set("ינש רוט", 60.0, 100.0, 9.0));
        assert_eq!(block_texts(g), vec!["טור ראשון".to_string(), "טור שני".to_string()]);
        // The same columns in English read left first.
        let mut g = set("first column", 60.0, 100.0, 9.0);
        g.extend(set("second column", 320.0, 100.0, 9.0));
        assert_eq!(block_texts(g), vec!["first column".to_string(), "second column".to_string()]);
    }
}
