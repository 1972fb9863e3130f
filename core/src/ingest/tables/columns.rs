//! Columns of the page (spec §4.1 step 5 on two-column layouts): a page set in two columns is read
//! a column at a time (`page_columns`), a column of running text beside a table is left out of it
//! (`text_beside`), and two tables set side by side are read apart (`side_by_side`). A line is
//! cut into *pieces* at gaps as wide as a column gutter (`GUTTER_EMS`); a stretch where a strip
//! that wide runs down the page, crossed by no piece, splits it.

use crate::ingest::layout::{join_words, Graphics, Line, Word, GUTTER_EMS};
use crate::ingest::Table;
use crate::corpus::BBox;
use super::segments::{is_value, letters_of, sentence_words};

/// Tables of a page looked at for a text column beside them.
const TEXT_BESIDE_TABLES: usize = 64;

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

/// How far under a line (in ems of its type, from its foot to the next line's top) the
/// next line may stand and still carry on its sentence: text set double-spaced leaves a gap of
/// about one em between its lines.
const CARRIED_GAP_EMS: f32 = 1.25;

/// Pieces (top to bottom) that carry on, in lower case, the sentence of a piece set close above
/// them (a list of names, each in capitals, does not).
fn carried_on(side: &[&Piece]) -> usize {
    side.windows(2)
        .filter(|w| {
            let gap = w[1].top - w[0].bot;
            gap > -0.3 * w[1].size && gap <= CARRIED_GAP_EMS * w[1].size && prose_piece(w[0]) && opens_lower(w[1])
        })
        .count()
}

/// The pieces are a table of its own: most of its lines with a figure open with a worded label
/// ("Weekly  $ 71.15", "Total assets  $ 1,355,123"). An exhibit index is one table whose
/// descriptions wrap like running text; what lies beside them ("8-K  2.1  4/30/2013") has no
/// labels of its own.
fn labelled(other: &[&Piece]) -> bool {
    let (mut rows, mut named) = (0, 0);
    for l in &side_lines(other) {
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
/// "2020  $ 234,844"), on the left's baseline (`one_baseline`).
fn row_across(ps: &[Piece], strip: (f32, f32)) -> bool {
    shaped_across(ps, strip).is_some_and(one_baseline)
}

/// One row of a table stands on one baseline. A line whose two sides stand more than
/// `ROW_BASELINE_EMS` off each other's baselines (`off`, in ems) is two lines of the page's two
/// columns side by side (a table in each, or text beside a table that numbers its rows: "1  8
/// 3.8"), which the layout joined as they overlap.
fn one_baseline(off: f32) -> bool {
    off.abs() <= ROW_BASELINE_EMS
}

/// A line shaped like a row across the strip (`row_across`): how far (in ems) the baseline of its
/// right side stands below that of its left; `None` for a line of another shape.
fn shaped_across(ps: &[Piece], (g0, g1): (f32, f32)) -> Option<f32> {
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
    let left: Vec<&Piece> = ps.iter().filter(|p| p.x1 <= middle).collect();
    let (Some(last), Some(first)) = (left.last(), right.first()) else { return None };
    let base = |p: &Piece| p.words.iter().max_by(|a, b| a.size.total_cmp(&b.size)).map_or(0.0, |w| w.fbase);
    figure(first).then(|| (base(first) - base(last)) / last.size.max(first.size).max(1.0))
}

/// How far apart (in ems) the baselines of a row's two sides may stand throughout a table set
/// across the page, each row alike (a contents page's page numbers two points above its entries,
/// a statement's figures a third of an em above their labels): under the height of a lower-case
/// letter, the two still read as one line.
const STEADY_OFFSET_EMS: f32 = 0.4;

/// How far apart (in ems) the baselines of a line's two sides may stand and still be one row.
const ROW_BASELINE_EMS: f32 = 0.1;

/// Where text is left out of a second reading of the page: the pieces that lie within `x` and
/// whose line's middle lies within `y`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Beside {
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
pub(super) fn text_beside(tables: &[Table], lines: &[Line]) -> Vec<Beside> {
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
pub(super) fn side_by_side(boxes: &[BBox], lines: &[Line], known: &[Beside]) -> Vec<Beside> {
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
/// carried on (a table of its own under the lines that introduce it), or both sides such text
/// that has a column's sentences and carried lines between them (a page in two columns given
/// mostly to tables, a paragraph or two in each), or one side running text or both tables of
/// their own (`own_table`) with each side on lines of its own (`own_lines`); and no rule is drawn
/// down the strip. A statement's
/// figures column is never text; a table whose wide column is text (an exhibit index, a
/// glossary) has labels on the other side, not sentences.
///
/// Read across both columns, a table in one column takes the other column's sentences for rows
/// (set on its baselines), loses its heading rows to them and hides them from the text; so such a
/// stretch's right column is read apart from the left (`detect`). The stretch ends at a line
/// across the gutter (a heading), a rule or shaded box drawn across it, or a row of a table set
/// across the page (`row_across`; the first reading's `first` tables with two such rows, at
/// least half of their lines shaped like them, keep all their lines out of the columns).
pub(super) fn page_columns(lines: &[Line], graphics: &Graphics, first: &[BBox]) -> Vec<Beside> {
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
    // Whether a table of the first reading is set across the strip, and where it ends. A table
    // across the page keeps its rows' two sides in step: on one baseline, or a steady distance
    // apart (a contents page may set its page numbers two points above its entries), while two
    // columns' tables meet on a baseline now and then by chance. Of its lines shaped like rows
    // across (`shaped_across`), at least half stand within `ROW_BASELINE_EMS` of the median
    // distance, and that distance is at most `STEADY_OFFSET_EMS` (`in_step`). It ends at the foot
    // of its last row across the strip, if it has two such rows (`end`). A line of text
    // under it, taken into the first reading's table, is not of it; a line with a figure is (a
    // total row whose halves are laid out as two lines). A table is looked at once per strip,
    // not once per line of it.
    let set_across: std::cell::RefCell<std::collections::HashMap<(usize, u32, u32), (bool, Option<f32>)>> = Default::default();
    let verdict = |t: usize, strip: (f32, f32)| {
        *set_across.borrow_mut().entry((t, strip.0.to_bits(), strip.1.to_bits())).or_insert_with(|| {
            let shaped: Vec<(f32, f32)> = members[t]
                .iter()
                .filter_map(|&j| shaped_across(&cut[j], strip).map(|off| (off, lines[j].fbot)))
                .collect();
            let mut offs: Vec<f32> = shaped.iter().map(|s| s.0).collect();
            offs.sort_by(f32::total_cmp);
            let median = offs.get(offs.len() / 2).copied().unwrap_or(0.0);
            let in_step = median.abs() <= STEADY_OFFSET_EMS
                && offs.iter().filter(|o| (*o - median).abs() <= ROW_BASELINE_EMS).count() * 2 >= offs.len();
            let rows: Vec<f32> = shaped.iter().filter(|s| one_baseline(s.0)).map(|s| s.1).collect();
            (in_step, (rows.len() >= 2 && in_step).then(|| rows.iter().copied().fold(f32::MIN, f32::max)))
        })
    };
    let across = |i: usize, strip: (f32, f32)| {
        let verdicts = || tables_of[i].iter().map(|&t| verdict(t, strip));
        row_across(&cut[i], strip) && verdicts().all(|(in_step, _)| in_step)
            || verdicts().any(|(_, end)| {
                end.is_some_and(|end| mid(&lines[i]) <= end || cut[i].iter().flat_map(|p| p.words).any(|w| is_value(&w.text)))
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
        // A side with a table of its own under a sentence or two (a lead-in sentence over a small
        // table) is a column too, beside one that is: a gutter needs running text on one side only.
        let some_text = |(sentences, carried): (usize, usize)| sentences >= 1 && carried >= 1;
        let top = run.iter().map(|&i| lines[i].ftop).fold(f32::MAX, f32::min);
        let bot = run.iter().map(|&i| lines[i].fbot).fold(f32::MIN, f32::max);
        // A rule drawn down the strip is a ruled table's column border (a table of text cells
        // side by side), not the gutter of a page.
        let ruled = graphics
            .vrules
            .iter()
            .any(|r| r[0] > g0 && r[0] < g1 && r[2].min(bot) - r[1].max(top) >= 0.5 * (bot - top));
        let (lp, rp) = (side(true), side(false));
        let (left, right) = (text_of_its_own(&lp), text_of_its_own(&rp));
        // Or running text on both sides, a column's worth between them: a page in two columns
        // given mostly to tables has a paragraph or two in each.
        let both = some_text(left) && some_text(right) && column((left.0 + right.0, left.1 + right.1));
        // Or a column of running text on one side, or a table of its own on each, the two sides
        // set on lines of their own: the rows of one table stand on one baseline each (a
        // statement's labels and figures, a glossary's terms and definitions); two columns'
        // lines do so only by chance (`own_lines`).
        let tables_apart = || {
            let (ll, rl) = (side_lines(&lp), side_lines(&rp));
            (column(left) || column(right) || own_table(&ll) && own_table(&rl)) && own_lines(&ll, &rl)
        };
        if !ruled && (column(left) && some_text(right) || some_text(left) && column(right) || both || tables_apart()) {
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

/// The lines of a side (`side_lines`) are a table of their own: three lines or more with a figure in them
/// (a cell's gaps may be narrower than a gutter: "Si/Fe  0.89 ± 0.04" is one piece), and
/// sentences in under a quarter of its lines.
fn own_table(lines: &[Vec<&Piece>]) -> bool {
    let with_figure = lines.iter().filter(|l| l.iter().any(|p| p.words.iter().any(|w| is_value(&w.text)))).count();
    let sentences = lines.iter().flatten().filter(|p| p.words.len() >= COLUMN_SENTENCE_WORDS && prose_piece(p)).count();
    with_figure >= 3 && sentences * 4 < lines.len()
}

/// The pieces (top to bottom) by line, left to right: the pieces of a line come one after another.
fn side_lines<'s, 'p>(side: &'s [&'p Piece<'p>]) -> Vec<Vec<&'p Piece<'p>>> {
    let mut lines: Vec<Vec<&Piece>> = vec![];
    for p in side {
        match lines.last_mut() {
            Some(l) if l[0].top == p.top => l.push(p),
            _ => lines.push(vec![p]),
        }
    }
    for l in &mut lines {
        l.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    lines
}

/// Two sides (their `side_lines`) set on lines of their own: fewer than half the lines of each stand within
/// `ROW_BASELINE_EMS` of a baseline of the other (a table across both sides has its rows on one
/// baseline each).
fn own_lines(ll: &[Vec<&Piece>], rl: &[Vec<&Piece>]) -> bool {
    let base = |l: &Vec<&Piece>| l[0].words.first().map_or(0.0, |w| w.fbase);
    let shared = |a: &[Vec<&Piece>], b: &[Vec<&Piece>]| {
        a.iter()
            .filter(|x| b.iter().any(|y| (base(x) - base(y)).abs() <= ROW_BASELINE_EMS * x[0].size.max(y[0].size)))
            .count()
    };
    !ll.is_empty() && !rl.is_empty() && shared(ll, rl) * 2 < ll.len() && shared(rl, ll) * 2 < rl.len()
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
pub(super) fn without(lines: &[Line], beside: &[Beside]) -> Vec<Line> {
    keep(lines, beside, false)
}

/// Only the pieces of the lines that lie in `beside` (the complement of `without`).
pub(super) fn within(lines: &[Line], beside: &[Beside]) -> Vec<Line> {
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
            size: crate::ingest::layout::median(words.iter().map(|w| w.size).collect()),
            words,
        });
    }
    out
}
