//! Lines as candidate rows (spec §4.1 step 5): a line with its segments and what they say of it
//! (`Row`: row-like, with a figure, a caption), and the lines put back together before rows are
//! looked for — superscripts and footnote marks laid out as lines of their own folded into their
//! host line (`fold_scripts`), a row's figures set a little off its label's baseline folded into
//! the label's line (`fold_offset_figures`).

use crate::ingest::layout::Line;
use super::captions::is_caption;
use super::segments::{has_value, row_like, SCRIPT_MARK_GAP, Seg, is_note_mark, is_number, is_value, segments};

pub(super) struct Row<'a> {
    pub(super) line: &'a Line,
    pub(super) segs: Vec<Seg>,
    pub(super) caption: bool,
    /// A line of the page's other column, set between the table's rows (see `detect_lines`).
    pub(super) beside: bool,
    /// `row_like(&segs)` and `has_value(&segs)`, worked out once: region finding asks them of
    /// every line again and again, and each reads the segments' text anew.
    pub(super) like: bool,
    pub(super) value: bool,
}

impl<'a> Row<'a> {
    pub(super) fn new(line: &'a Line) -> Self {
        let mut r = Row { line, segs: vec![], caption: is_caption(line), beside: false, like: false, value: false };
        r.set_segs(segments(line));
        r
    }

    pub(super) fn set_segs(&mut self, segs: Vec<Seg>) {
        self.like = row_like(&segs);
        self.value = has_value(&segs);
        self.segs = segs;
    }

    pub(super) fn row_like(&self) -> bool {
        !self.caption && self.like
    }

    pub(super) fn has_value(&self) -> bool {
        self.value
    }
}

/// Superscripts and subscripts ("3rd", "1st", footnote marks) are laid out as lines of their own
/// between the lines they belong to; a table row made of "rd  th" and a sentence cut at the gaps
/// they leave would look like a table. Each such line is folded back into its host line: a line of
/// larger text that it overlaps vertically (the one it overlaps most), where every script word
/// starts right where a host word ends. A footnote mark set close to its text's size is a
/// superscript by its raise: a line of marks only, smaller than the host and raised off its
/// baseline by `MARK_RAISE` or more (`raised_marks`).
pub(super) fn fold_scripts(lines: &[&Line]) -> Vec<Line> {
    let overlap = |a: &Line, b: &Line| a.fbot.min(b.fbot) - a.ftop.max(b.ftop);
    let host_of = |s: &Line| -> Option<usize> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, h)| {
                (s.size <= 0.8 * h.size || raised_marks(s, h))
                    && s.ftop < h.fbot
                    && s.words.len() <= 3
                    && if s.fbot > h.ftop {
                        // A footnote mark may stand a little apart from the figure it marks
                        // ("59,983 (a)", two thirds of an em after it).
                        s.words.iter().all(|w| {
                            w.text.chars().count() <= 4
                                && h.words.iter().any(|hw| {
                                    let gap = w.fx0 - hw.fx1;
                                    gap.abs() <= 0.3 * h.size
                                        || is_note_mark(&w.text) && (0.0..=SCRIPT_MARK_GAP * h.size).contains(&gap)
                                })
                        })
                    } else {
                        // A footnote mark set wholly above its host's box, a little after the
                        // word it marks, within half a line of it.
                        s.fbot > h.ftop - 0.5 * h.size
                            && s.words.iter().all(|w| {
                                is_note_mark(&w.text)
                                    && h.words.iter().any(|hw| (0.0..=0.6 * h.size).contains(&(w.fx0 - hw.fx1)))
                            })
                    }
            })
            // The host is the line it overlaps most (a superscript touches the line above too).
            .max_by(|a, b| overlap(s, a.1).total_cmp(&overlap(s, b.1)))
            .map(|(k, _)| k)
    };
    let hosts: Vec<Option<usize>> = lines.iter().map(|s| host_of(s)).collect();
    let mut out: Vec<Line> = vec![];
    let mut at: Vec<Option<usize>> = vec![None; lines.len()];
    for (k, l) in lines.iter().enumerate() {
        if hosts[k].is_none() {
            at[k] = Some(out.len());
            out.push((*l).clone());
        }
    }
    for (k, h) in hosts.iter().enumerate() {
        // A host that is itself a script line keeps its own line.
        let Some(i) = h.and_then(|h| at[h]) else {
            if h.is_some() {
                out.push(lines[k].clone());
            }
            continue;
        };
        // A script keeps its host's top and bottom (the host's size and place in the order).
        take_in(&mut out[i], lines[k].clone());
    }
    out.sort_by(|a, b| a.ftop.total_cmp(&b.ftop).then(a.fx0.total_cmp(&b.fx0)));
    out
}

/// How far above its host's baseline (in ems of the host's size) a line of footnote marks sits
/// to be read as raised: a superscript is set up by a third of an em or so; text on the host's
/// baseline sits level with it.
const MARK_RAISE: f32 = 0.25;

/// The line `s` is footnote marks raised over `h`'s baseline ("Medical Device Regulation²" with
/// the mark at 6.7 pt beside 7.3 pt text, laid out as a line of its own): marks only (`(a)`, `2`,
/// `*`), smaller than the host's text, its bottom `MARK_RAISE` above the host's and its top above
/// the host's top. Left as a line, each mark is a row of its own, and a mark under a group's
/// heading hides the heading from the rows it heads.
fn raised_marks(s: &Line, h: &Line) -> bool {
    s.size < h.size
        && !s.words.is_empty()
        && s.words.iter().all(|w| is_note_mark(&w.text))
        && s.fbot <= h.fbot - MARK_RAISE * h.size
        && s.ftop < h.ftop
}

/// `host` takes in the words of `other` (in order along the line), its left and right ends and its box.
fn take_in(host: &mut Line, other: Line) {
    host.fx0 = host.fx0.min(other.fx0);
    host.fx1 = host.fx1.max(other.fx1);
    for j in 0..4 {
        host.bbox[j] = if j < 2 { host.bbox[j].min(other.bbox[j]) } else { host.bbox[j].max(other.bbox[j]) };
    }
    host.words.extend(other.words);
    host.words.sort_by(|a, b| a.fx0.total_cmp(&b.fx0));
}

/// How much of the shorter line's height a line of figures must share with a labelled line to be
/// read as that line's figures set off its baseline (`fold_offset_figures`).
const OFFSET_FIGURES_OVERLAP: f32 = 0.5;
/// The most words a line may have beside its figures and still be a row's label for them.
const OFFSET_FIGURES_LABEL_WORDS: usize = 10;

/// Some writers set a row's figures a little off its label's baseline (a third of an em above it),
/// past what layout takes for one baseline. The row is then laid out as two lines, its label with a figure or two and
/// the rest of its figures, and each reads as half a row (pdftotext's layout mode shows them as
/// one). A line of figures only (amounts: a header of years is a row of its own), of the same
/// size as a line with a label that it overlaps by at least half its height, is folded into that
/// line when no word of either lies over a word of the other (the one it overlaps most), that
/// line's words are few enough for a row label, and one of the two holds two figures or more. The lines are in top-to-bottom order; so is the result.
pub(super) fn fold_offset_figures(lines: Vec<Line>) -> Vec<Line> {
    // (`all` first: a line of words is told at its first.)
    let figures_only = |l: &Line| {
        l.words.iter().all(|w| is_value(&w.text) || matches!(w.text.as_str(), "$" | "€" | "£" | "%"))
            && l.words.iter().any(|w| is_value(&w.text))
    };
    let wordy = |l: &Line| l.words.iter().filter(|w| w.text.chars().any(char::is_alphabetic) && !is_number(&w.text)).count();
    let values = |l: &Line| l.words.iter().filter(|w| is_value(&w.text)).count();
    let overlap = |a: &Line, b: &Line| a.fbot.min(b.fbot) - a.ftop.max(b.ftop);
    let apart = |a: &Line, b: &Line| {
        a.words.iter().all(|x| b.words.iter().all(|y| x.fx1 <= y.fx0 + 0.1 * y.size || y.fx1 <= x.fx0 + 0.1 * y.size))
    };
    let host_of = |k: usize| -> Option<usize> {
        let s = &lines[k];
        if !figures_only(s) {
            return None;
        }
        // Lines are sorted by top: the ones that can overlap this one lie near it in the order.
        let near = (k.saturating_sub(3)..(k + 4).min(lines.len())).filter(|&j| j != k);
        near.filter(|&j| {
            let h = &lines[j];
            let shorter = (s.fbot - s.ftop).min(h.fbot - h.ftop);
            // A row's label, not a sentence (a chart's figures beside a paragraph).
            (1..=OFFSET_FIGURES_LABEL_WORDS).contains(&wordy(h))
                // A lone figure beside a line of words is a figure of its own (a large "$69" in
                // one column beside a sentence in the other, an equation's number), unless that
                // line has figures of its own.
                && (values(s) >= 2 || values(h) >= 2)
                && s.size >= 0.8 * h.size
                && h.size >= 0.8 * s.size
                && overlap(s, h) >= OFFSET_FIGURES_OVERLAP * shorter
                && apart(s, h)
        })
        .max_by(|&a, &b| overlap(s, &lines[a]).total_cmp(&overlap(s, &lines[b])))
    };
    let hosts: Vec<Option<usize>> = (0..lines.len()).map(host_of).collect();
    if hosts.iter().all(Option::is_none) {
        return lines;
    }
    let mut out: Vec<Option<Line>> = lines.iter().map(|l| Some(l.clone())).collect();
    for (k, h) in hosts.iter().enumerate() {
        // A host is labelled, so never folded itself.
        let Some(h) = *h else { continue };
        let Some(figures) = out[k].take() else { continue };
        let Some(host) = out[h].as_mut() else { continue };
        // The row is as tall as both lines.
        host.ftop = host.ftop.min(figures.ftop);
        host.fbot = host.fbot.max(figures.fbot);
        take_in(host, figures);
    }
    let mut out: Vec<Line> = out.into_iter().flatten().collect();
    out.sort_by(|a, b| a.ftop.total_cmp(&b.ftop).then(a.fx0.total_cmp(&b.fx0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use super::super::detect;
    use crate::ingest::layout::{test_line, Graphics, Layout};

    /// eu-023 p3: "3rd -5th year students …" with the "rd" and "th" set as a line of their own.
    fn sentence_with_superscripts() -> Vec<Line> {
        vec![
            test_line(&[("out and overwhelmed than other students, particularly humanities", 58.0, 362.0)], 449.0, 11.0),
            test_line(&[("rd", 110.0, 116.0), ("th", 133.0, 138.0)], 459.8, 7.0),
            test_line(
                &[("students. 3", 58.0, 110.0), ("-5", 124.0, 133.0), ("year students and students in a long term", 146.0, 362.0)],
                461.6,
                11.0,
            ),
            test_line(&[("relationship tend to feel more tense and exhausted than 1", 58.0, 321.0), ("year or", 330.0, 362.0)], 474.3, 11.0),
            test_line(&[("st", 321.0, 326.0)], 472.5, 7.0),
        ]
    }

    #[test]
    fn superscripts_fold_into_their_line_so_a_sentence_is_not_a_table() {
        let lines = sentence_with_superscripts();
        let refs: Vec<&Line> = lines.iter().collect();
        let folded = fold_scripts(&refs);
        assert_eq!(folded.len(), 3, "the two superscript lines join their hosts");
        let host = folded.iter().find(|l| l.text().starts_with("students.")).unwrap();
        assert_eq!(host.text(), "students. 3 rd -5 th year students and students in a long term");
        assert!(!row_like(&segments(host)), "{:?}", segments(host).iter().map(|s| s.text()).collect::<Vec<_>>());
        let lay = Layout { lines };
        assert!(detect(&lay, &Graphics::default(), 420.0, 595.0).is_empty());
    }

    #[test]
    fn small_print_that_does_not_touch_a_word_keeps_its_own_line() {
        // A unit line "(in %)" set smaller beside a heading is not a superscript.
        let lines = [
            test_line(&[("Employment rate", 70.0, 150.0)], 100.0, 11.0),
            test_line(&[("(in %)", 170.0, 195.0)], 102.0, 8.0),
        ];
        let refs: Vec<&Line> = lines.iter().collect();
        assert_eq!(fold_scripts(&refs).len(), 2);
    }
}
