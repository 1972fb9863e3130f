//! Segments: a line of a statement cut where its cells are (spec §4.1 step 5). A line is cut
//! into *segments* at gaps wider than ~0.8 em; `$` and `%` signs and a lone `)` join the value
//! they belong to, so `$ (1,234)` is one cell "$ (1,234)" and parenthesised negatives survive.
//! Also what a segment's words are: a figure (`is_number`, `is_value`), a year heading a column,
//! a dot leader, a footnote mark, words of a sentence. The lowest room of `tables`: every other
//! one reads segments and asks these questions; this one asks none of theirs.

use crate::ingest::layout::{join_words, Line, Word};

#[derive(Debug, Clone)]
pub(super) struct Seg {
    pub(super) words: Vec<Word>,
    pub(super) x0: f32,
    pub(super) x1: f32,
}

impl Seg {
    pub(super) fn text(&self) -> String {
        join_words(&self.words)
    }
    /// `self.text() == t`, without building the text (`segments` asks it of every segment).
    pub(super) fn reads(&self, t: &str) -> bool {
        // A word with right-to-left letters, which `join_words` would reorder, matches no part of
        // the (left-to-right) texts asked about.
        let mut parts = t.split(' ');
        self.words.iter().all(|w| parts.next() == Some(w.text.as_str())) && parts.next().is_none()
    }
    pub(super) fn n_words(&self) -> usize {
        self.words.len()
    }
}

pub(crate) fn is_number(s: &str) -> bool {
    // A single word (an opening bracket first at most) is one part: no need to split it.
    if !s.char_indices().any(|(i, c)| c.is_whitespace() || c == '(' && i > 0) {
        return is_single_number(s);
    }
    // A value with its share or error beside it ("63 (18.5%)", "1,234 12%") is still one value cell.
    let spaced = s.replace('(', " (");
    let parts: Vec<&str> = spaced.split_whitespace().collect();
    if parts.len() >= 2
        && parts.len() <= 3
        && !parts.iter().any(|p| matches!(*p, "$" | "€" | "£"))
        && parts.iter().all(|p| is_single_number(p))
    {
        return true;
    }
    is_single_number(s)
}

fn is_single_number(s: &str) -> bool {
    // Every character of a number is one of these (what is trimmed below, then the figure's own):
    // a word with any other is not one, and most words are told at their first letter.
    let numeric = |c: char| {
        c.is_ascii_digit() || c.is_whitespace() || matches!(c, ',' | '.' | '*' | 'x' | 'X' | '$' | '€' | '£' | '(' | ')' | '%' | '-' | '−' | '–' | '—')
    };
    if !s.chars().all(numeric) {
        return false;
    }
    // A dash stands for zero/nil in a statement column.
    if matches!(
        s.trim(),
        "—" | "–" | "-" | "$—" | "$ —" | "$ –" | "$ -" | "$–" | "$-"
    ) {
        return true;
    }
    let t = s
        .trim()
        .trim_start_matches('$')
        .trim_start_matches('€')
        .trim_start_matches('£')
        .trim();
    let t = t
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim_end_matches('%')
        .trim();
    let t = t
        .trim_start_matches(['-', '−', '–'])
        .trim_start_matches('$')
        .trim();
    if t.is_empty() {
        return matches!(s.trim(), "—" | "–" | "-" | "— " | "$—" | "$ —");
    }
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    digits > 0
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '*' | 'x' | 'X'))
}

/// Two numeric words side by side on a row, more than half an em apart, are two values (tight
/// columns such as `n  %Pos`), unless the second is the share beside a count ("63 (18.5%)"); so
/// are a figure and a dollar sign after it, a quarter of an em apart.
/// Below half an em the gap is a word space ("December 31, 2022, 2021 and 2020").
fn separate_values(prev: &Word, next: &Word, size: f32) -> bool {
    let gap = next.fx0 - prev.fx1;
    // A dollar sign never closes a figure: it opens the next one, however tight the columns
    // ("$ (473)  $ 166", a word space apart). A euro sign may follow its figure ("1 234 €").
    let currency = matches!(next.text.as_str(), "$" | "$(" | "$ (");
    gap > if currency { 0.25 } else { 0.5 } * size
        && prev.text != "$"
        && is_number(&prev.text)
        && (is_number(&next.text) || currency)
        && !(next.text.starts_with('(') && next.text.ends_with("%)"))
}

/// Dots at least this many in a row (spaced or not) are a leader, not a full stop or an ellipsis.
const LEADER_DOTS: usize = 4;

/// The words end in a dot leader: `LEADER_DOTS` dots or more, spaces between them or not
/// ("Revenue........", "Total . . . . .").
fn ends_in_leader(words: &[Word]) -> bool {
    let mut dots = 0;
    for w in words.iter().rev() {
        let t = w.text.trim_end();
        let run = t.chars().rev().take_while(|&c| matches!(c, '.' | '…' | '·')).map(|c| if c == '…' { 3 } else { 1 }).sum::<usize>();
        dots += run;
        if dots >= LEADER_DOTS {
            return true;
        }
        // Carry on to the word before only when this one is dots alone (". . . .").
        if run == 0 || t.chars().any(|c| !matches!(c, '.' | '…' | '·')) {
            return false;
        }
    }
    false
}

/// The text with its dot leaders taken out ("Total revenue ........" → "Total revenue"): a leader
/// is typography that leads the eye to a figure, not part of a label (documents and row labels
/// read without it).
pub(crate) fn without_leaders(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let mut dots = 0;
    let flush = |out: &mut String, run: &mut String, dots: &mut usize| {
        if *dots < LEADER_DOTS {
            out.push_str(run);
        } else if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
        run.clear();
        *dots = 0;
    };
    for c in text.chars() {
        match c {
            '.' | '·' => {
                dots += 1;
                run.push(c);
            }
            '…' => {
                dots += 3;
                run.push(c);
            }
            ' ' if dots > 0 => run.push(c),
            _ => {
                flush(&mut out, &mut run, &mut dots);
                out.push(c);
            }
        }
    }
    flush(&mut out, &mut run, &mut dots);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn segments(line: &Line) -> Vec<Seg> {
    let mut segs: Vec<Seg> = vec![];
    let gap = 0.8 * line.size.max(1.0);
    // A footnote mark set small after a figure ("59,983 ⁽ᵃ⁾", folded in by `fold_scripts`) is
    // part of its cell but does not widen it: the columns are where the figures are.
    let script = |w: &Word| w.size <= 0.8 * line.size && is_note_mark(&w.text);
    for w in &line.words {
        match segs.last_mut() {
            Some(s) if script(w) && (-0.3..=SCRIPT_MARK_GAP).contains(&((w.fx0 - s.x1) / line.size.max(1.0))) => {
                s.words.push(w.clone());
            }
            // Two numbers side by side are two values even when the columns are tight. (The gap
            // is from the last word, a footnote mark included; the figure before is the last
            // word that is not a mark.)
            // A dot leader ("Total revenue ........ $ 4,795.5") runs up to the figure it leads
            // to: a currency sign after it, however close, opens the next cell. (A page number
            // after a leader stays with its entry: a contents page is not a table.)
            Some(s)
                if w.fx0 - s.words.last().map_or(s.x1, |p| p.fx1.max(s.x1)) <= gap
                    && !(w.text.starts_with(['$', '€', '£', '¥']) && ends_in_leader(&s.words))
                    && !s
                        .words
                        .iter()
                        .rev()
                        .find(|p| !script(p))
                        .is_some_and(|p| separate_values(p, w, line.size)) =>
            {
                s.x1 = s.x1.max(w.fx1);
                s.words.push(w.clone());
            }
            _ => segs.push(Seg {
                words: vec![w.clone()],
                x0: w.fx0,
                x1: w.fx1,
            }),
        }
    }
    let segs = sentence_spaces_joined(segs, line.size.max(1.0));
    // `$` belongs to the value after it; `%` and a lone `)` to the value before it.
    let mut out: Vec<Seg> = vec![];
    let mut pending: Option<Seg> = None;
    for s in segs {
        let opens = ["$", "€", "£", "$ (", "(", "$("].iter().any(|t| s.reads(t));
        let closes = ["%", ")", ")%", "%)"].iter().any(|t| s.reads(t));
        let s = match pending.take() {
            Some(mut p) => {
                p.words.extend(s.words);
                p.x1 = s.x1;
                p
            }
            None => s,
        };
        if opens {
            pending = Some(s);
            continue;
        }
        if closes {
            if let Some(prev) = out.last_mut() {
                prev.words.extend(s.words);
                prev.x1 = s.x1;
                continue;
            }
        }
        out.push(s);
    }
    if let Some(p) = pending {
        out.push(p);
    }
    out
}

/// How many times the widest word space of its sentence the space after a full stop may be.
const SENTENCE_SPACE_RATIO: f32 = 2.5;

/// How wide (in ems) the space after a sentence's full stop may be stretched in justified text.
const SENTENCE_SPACE_EMS: f32 = 2.0;

/// Justified text stretches the space after a full stop more than a word space (TeX's space
/// factor), past the gap that cuts a line into cells: "Share red future be play instead.
/// Suggest". A segment of a sentence's words (four or more) ending in a full stop, a question or
/// exclamation mark, followed within `SENTENCE_SPACE_EMS` by a word in capitals then lower case
/// that ends the line or opens a sentence's words again, is one piece of running text with it.
fn sentence_spaces_joined(segs: Vec<Seg>, size: f32) -> Vec<Seg> {
    let n = segs.len();
    let mut out: Vec<Seg> = Vec::with_capacity(n);
    for (k, s) in segs.into_iter().enumerate() {
        // Cheapest first: most segments end in no full stop (every line of every page comes here).
        let ends_sentence = |prev: &Seg| {
            prev.words.len() >= 4
                && prev.words.last().is_some_and(|w| {
                    w.text.ends_with(['.', '?', '!']) && w.text.chars().filter(|c| c.is_alphabetic()).count() >= 2
                })
                && sentence_words(&prev.words)
        };
        let opens = || {
            s.words.first().is_some_and(|w| {
                let mut cs = w.text.chars();
                cs.next().is_some_and(char::is_uppercase) && cs.clone().count() >= 1 && cs.all(char::is_lowercase)
            })
        };
        // The line's own word spaces are stretched as much: the widest of the sentence's.
        let sentence_space = |prev: &Seg| {
            let gap = s.x0 - prev.x1;
            let word_space = prev.words.windows(2).map(|w| w[1].fx0 - w[0].fx1).fold(0.0f32, f32::max);
            gap <= SENTENCE_SPACE_EMS * size && gap <= SENTENCE_SPACE_RATIO * word_space
        };
        if let Some(prev) = out.last_mut() {
            if ends_sentence(prev) && opens() && (k + 1 == n || sentence_words(&s.words)) && sentence_space(prev) {
                prev.x1 = prev.x1.max(s.x1);
                prev.words.extend(s.words);
                continue;
            }
        }
        out.push(s);
    }
    out
}

/// Running text that a superscript or a justified gap cut into pieces: a first piece of ten or more
/// words with no figure (or pair of dashes) beside it.
pub(super) fn prose(segs: &[Seg]) -> bool {
    // A figure beside the long label makes it a statement row; "2006)" closing a sentence's
    // parenthesis does not, nor does a lone dash.
    let figure = |s: &&Seg| {
        let t = s.text();
        is_number(&t)
            && t.chars().any(|c| c.is_ascii_digit())
            && {
                let u = t.trim_start_matches(['$', '€', '£', ' ']);
                u.starts_with('(') == u.ends_with(')')
            }
    };
    let dashes = segs[1..]
        .iter()
        .filter(|s| is_number(&s.text()) && !s.text().chars().any(|c| c.is_ascii_digit()))
        .count();
    segs.first().is_some_and(|s| s.n_words() >= 10)
        && !segs[1..].iter().any(|s| figure(&s))
        && dashes < 2
}

pub(super) fn row_like(segs: &[Seg]) -> bool {
    segs.len() >= 2
        && !prose(segs)
        && segs[1..]
            .iter()
            .any(|s| is_number(&s.text()) || s.n_words() <= 4)
}

/// A year ("2019", "1996/7", "2007*") heads a column; it is not a value of the row.
fn is_year(s: &str) -> bool {
    let t = s.trim().trim_end_matches(['*', ')']).trim_start_matches(['(', 'F', 'Y']);
    let head: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest = &t[head.len()..];
    head.len() == 4
        && head.parse::<u32>().is_ok_and(|y| (1900..=2100).contains(&y))
        && (rest.is_empty() || rest.starts_with(['/', '-', '–']) && rest.len() <= 5)
}

/// A figure of the row, not a column heading.
pub(crate) fn is_value(s: &str) -> bool {
    is_number(s) && !is_year(s) && !is_day_and_year(s)
}

/// The second line of a heading "December / 31, 2022": a day of the month, a comma and a year.
fn is_day_and_year(s: &str) -> bool {
    let Some((day, year)) = s.split_once(',') else { return false };
    let day = day.trim();
    (1..=2).contains(&day.len()) && day.bytes().all(|b| b.is_ascii_digit()) && is_year(year.trim())
}

pub(super) fn has_value(segs: &[Seg]) -> bool {
    segs.len() >= 2 && segs[1..].iter().any(|s| is_value(&s.text()))
}

/// Letters among the words' characters, and all their characters but spaces.
pub(super) fn letters_of(words: &[Word]) -> (usize, usize) {
    words.iter().flat_map(|w| w.text.chars()).fold((0, 0), |(l, a), c| {
        (l + usize::from(c.is_alphabetic()), a + usize::from(!c.is_whitespace()))
    })
}

/// Words of a sentence: three or more, mostly letters.
pub(super) fn sentence_words(words: &[Word]) -> bool {
    let (letters, all) = letters_of(words);
    words.len() >= 3 && letters * 10 >= all * 6
}

/// How far after the word it marks (in ems of that word's line) a small footnote mark may stand
/// and still be folded into its line (`fold_scripts`) and joined to its cell (`segments`). A mark
/// is set small, so its distance is measured in ems of the text it marks: writers set it from
/// touching to almost two ems after the figure (`59,983 (a)`, raised "(l)" after a right-aligned
/// figure), while the gutter between two value columns is wider than the mark's offset plus a
/// figure; a mark left as a line of its own cuts its table in two.
pub(super) const SCRIPT_MARK_GAP: f32 = 2.0;

/// A footnote mark: `(d)`, `(12)`, `*`, `†`, or one or two letters or digits.
pub(super) fn is_note_mark(t: &str) -> bool {
    let inner = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(t);
    let n = inner.chars().count();
    (1..=2).contains(&n) && inner.chars().all(|c| c.is_alphanumeric() || matches!(c, '*' | '†' | '‡'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_leaders_are_taken_out_of_labels_but_full_stops_and_short_runs_stay() {
        assert_eq!(without_leaders("Total revenue ........................"), "Total revenue");
        assert_eq!(without_leaders("Violent crime. . . . . . . . . . . ."), "Violent crime");
        assert_eq!(without_leaders("Other……"), "Other");
        assert_eq!(without_leaders("Euro ....... $ (104.3)"), "Euro $ (104.3)");
        assert_eq!(without_leaders("U.S. Treasury and agency securities"), "U.S. Treasury and agency securities");
        assert_eq!(without_leaders("Figures in € ... see note"), "Figures in € ... see note");
        assert_eq!(without_leaders("1,234.5"), "1,234.5");
        assert_eq!(without_leaders(""), "");
    }

    #[test]
    fn parenthesised_and_dollar_values_are_numbers() {
        for s in ["(1,234)", "$ 1,234", "$(12.5)", "12.5%", "—", "1,234.56"] {
            assert!(is_number(s), "{s}");
        }
        for s in ["Revenue", "2019 plan", ""] {
            assert!(!is_number(s), "{s}");
        }
    }

    #[test]
    fn the_day_and_year_under_a_month_heading_are_not_a_figure() {
        for s in ["31, 2022", "1, 2021", "30,2023"] {
            assert!(!is_value(s), "{s}");
        }
        for s in ["31, 202", "1,234", "312, 2022", "$ 31, 2022"] {
            assert!(!is_day_and_year(s), "{s}");
        }
        assert!(is_value("1,234"));
    }

    #[test]
    fn years_head_columns_and_shares_stay_with_their_value() {
        for s in ["2007", "1996/7", "FY2019", "2006*"] {
            assert!(is_year(s) && !is_value(s), "{s}");
        }
        for s in ["1,234", "63 (18.5%)", "101(20.4%)", "(3,115)", "3.5"] {
            assert!(is_value(s), "{s}");
        }
        assert!(!is_number("Total: 0%"));
    }
}
