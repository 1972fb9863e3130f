//! Right-to-left text (Hebrew, Arabic) in logical order (spec §4.1 "native text"): a line's words
//! get their characters back in the order they are read (`bidi_line`), and words are put in
//! reading order whenever they are joined (`logical_order`). The layout of glyphs into words and
//! lines (`layout`) asks this file; it asks nothing of layout but what a word is.

use super::Word;

// Right-to-left text (Hebrew, Arabic). A page places glyphs where they are seen, so a line read
// left to right is in *visual* order; Unicode text is in *logical* order, in which a right-to-left
// word runs from its right end. Without this, "مرحبا بالعالم" read back as "ملاعلاب ابحرم"
// (letters and words reversed). A line's words get their characters back in logical order when
// the line is built (`bidi_line`), and words are put in reading order whenever they are joined
// (`logical_order`), so table cells, lines and spans all read the same. This inverts the Unicode
// bidirectional algorithm (UAX #9) for what a report holds: right-to-left words with numbers,
// percentages, Latin names and brackets among them. The inversion is not unique (visual
// "Tel Aviv 35" may be logical "35 Tel Aviv"); where it is not, it takes UAX #9's reading of the
// usual case (a number after a Latin word belongs to it). A page set mostly right to left orders
// its blocks from the right too (`blocks_with_tables`).

/// A strong right-to-left letter (bidi classes R and AL): Hebrew, Arabic, Syriac, Thaana, N'Ko
/// and their presentation forms; Arabic-Indic digits are numbers, not letters.
fn is_rtl(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
        && !is_digit(c)
        && !is_mark(c)
}

/// Text with a right-to-left letter in it (checked byte-wise first: most text is ASCII).
fn has_rtl(t: &str) -> bool {
    !t.is_ascii() && t.chars().any(is_rtl)
}

/// Right-to-left and left-to-right letters in `t` (ASCII text counted byte-wise).
pub(super) fn letters(t: &str) -> (usize, usize) {
    if t.is_ascii() {
        return (0, t.bytes().filter(u8::is_ascii_alphabetic).count());
    }
    t.chars().fold((0, 0), |(r, l), c| {
        if is_rtl(c) {
            (r + 1, l)
        } else if c.is_alphabetic() && !is_mark(c) {
            (r, l + 1)
        } else {
            (r, l)
        }
    })
}

/// An Arabic letter (bidi class AL): after one, a number's `%` is not part of the number (UAX #9
/// W2 makes the digits Arabic numbers, which W5 does not join to `%`).
fn is_arabic(c: char) -> bool {
    matches!(c as u32, 0x0600..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF) && is_rtl(c)
}

/// A digit, Western or Arabic-Indic: numbers read left to right inside right-to-left text.
fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || ('\u{0660}'..='\u{0669}').contains(&c) || ('\u{06F0}'..='\u{06F9}').contains(&c)
}

/// A combining mark set on the letter before it (Hebrew points, Arabic vowel signs).
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0591..=0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670 | 0x06D6..=0x06ED | 0x0300..=0x036F)
}

/// A sign that goes with the number beside it (bidi class ET: `%`, currency signs, `#`, `°`).
fn is_number_sign(c: char) -> bool {
    matches!(c, '%' | '‰' | '#' | '°' | '$' | '¢' | '£' | '¤' | '¥' | '₪' | '€' | '\u{20A0}'..='\u{20CF}')
}

/// A bracket's mirror image: read right to left, the glyph drawn as ")" opens.
fn mirror(c: char) -> char {
    match c {
        '(' => ')',
        ')' => '(',
        '[' => ']',
        ']' => '[',
        '{' => '}',
        '}' => '{',
        '<' => '>',
        '>' => '<',
        '«' => '»',
        '»' => '«',
        c => c,
    }
}

/// A word read right to left, from its visual order: reversed, except that a number ("2023",
/// "1,234.5", and "12.5%" unless the text is Arabic) keeps its order, a letter keeps its marks
/// after it, and a bracket turns to face the way it is read.
fn logical_word(visual: &str, arabic: bool) -> String {
    let chars: Vec<char> = visual.chars().collect();
    let sign = |c: char| !arabic && is_number_sign(c);
    // Units in visual order: a number with its signs, or one character with the marks after it.
    let mut units: Vec<&[char]> = vec![];
    let mut rest = &chars[..];
    while let Some(&c) = rest.first() {
        let mut n = 1;
        let opens_number = is_digit(c) || (sign(c) && rest.get(1).is_some_and(|&d| is_digit(d)));
        if opens_number {
            while n < rest.len()
                && (is_digit(rest[n])
                    || sign(rest[n])
                    || (matches!(rest[n], ',' | '.' | '\u{066B}' | '\u{066C}') && rest.get(n + 1).is_some_and(|&d| is_digit(d))))
            {
                n += 1;
            }
        } else {
            while n < rest.len() && is_mark(rest[n]) {
                n += 1;
            }
        }
        let (unit, tail) = rest.split_at(n);
        units.push(unit);
        rest = tail;
    }
    let mut out = String::with_capacity(visual.len());
    for unit in units.iter().rev() {
        match unit {
            [c] => out.push(mirror(*c)),
            _ => out.extend(unit.iter()),
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Dir {
    Rtl,
    Ltr,
    Neutral,
}

/// Words `[from, to)` of a line read in one direction; `true` when right to left.
type Run = (usize, usize, bool);

/// The directional runs of a line's words (left to right on the page), and whether the line as a
/// whole reads right to left (more right-to-left letters than left-to-right ones). `None` for a
/// line without right-to-left letters.
fn bidi_runs<'a>(n: usize, text: impl Fn(usize) -> &'a str) -> Option<(Vec<Run>, bool)> {
    let mut rtl_letters = 0usize;
    let mut ltr_letters = 0usize;
    let dirs: Vec<Dir> = (0..n)
        .map(|i| {
            let (r, l) = letters(text(i));
            rtl_letters += r;
            ltr_letters += l;
            if r > 0 {
                Dir::Rtl
            } else if l > 0 {
                Dir::Ltr
            } else {
                Dir::Neutral
            }
        })
        .collect();
    if rtl_letters == 0 {
        return None;
    }
    let opposite = |d: Dir| match d {
        Dir::Rtl => Dir::Ltr,
        Dir::Ltr => Dir::Rtl,
        Dir::Neutral => Dir::Neutral,
    };
    let mut runs: Vec<Run> = vec![];
    let mut i = 0;
    while i < n {
        let dir = dirs[i];
        let mut end = i + 1;
        if dir != Dir::Neutral {
            // A run goes on through neutrals up to the last word of its own direction; a Latin
            // run also takes the numbers right after it ("Tel Aviv 35", UAX #9 W7).
            let mut j = i + 1;
            while j < n && dirs[j] != opposite(dir) {
                if dirs[j] == dir || (dir == Dir::Ltr && end == j && text(j).chars().any(is_digit)) {
                    end = j + 1;
                }
                j += 1;
            }
        }
        runs.push((i, end, dir == Dir::Rtl));
        i = end;
    }
    Some((runs, rtl_letters > ltr_letters))
}

/// Put a line's words (left to right on the page) into logical order, character by character:
/// every word read right to left is reversed (`logical_word`) — a right-to-left word, a number or
/// sign among right-to-left words, and on a mostly right-to-left line any neutral word outside a
/// Latin run.
pub(super) fn bidi_line(words: &mut [Word]) {
    if !words.iter().any(|w| has_rtl(&w.text)) {
        return;
    }
    let Some((runs, rtl_line)) = bidi_runs(words.len(), |i| &words[i].text) else {
        return;
    };
    let arabic = words.iter().any(|w| w.text.chars().any(is_arabic));
    for (from, to, rtl) in runs {
        let latin = !rtl && words[from..to].iter().any(|w| w.text.chars().any(char::is_alphabetic));
        if rtl || (rtl_line && !latin) {
            for w in &mut words[from..to] {
                w.text = logical_word(&w.text, arabic);
            }
        }
    }
}

/// Indices of `n` words (left to right on the page, each in logical order already) in reading
/// order: a right-to-left run, with any numbers between its words, is read right to left; on a
/// mostly right-to-left line the runs themselves are too, a Latin run (and the numbers in it)
/// staying left to right inside. `None` when there is no right-to-left letter: the words read as
/// they stand.
pub(super) fn logical_order<'a>(n: usize, text: impl Fn(usize) -> &'a str) -> Option<Vec<usize>> {
    if !(0..n).any(|i| has_rtl(text(i))) {
        return None;
    }
    let (mut runs, rtl_line) = bidi_runs(n, text)?;
    if rtl_line {
        runs.reverse();
    }
    let mut out = Vec::with_capacity(n);
    for (from, to, rtl) in runs {
        if rtl {
            out.extend((from..to).rev());
        } else {
            out.extend(from..to);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::layout::join_words;

    /// Words as they stand on the page, left to right, read back in logical order.
    fn read_back(visual: &[&str]) -> String {
        let mut words: Vec<Word> = visual
            .iter()
            .enumerate()
            .map(|(i, t)| Word { text: t.to_string(), bbox: [0.0; 4], fx0: 10.0 * i as f32, fx1: 10.0 * i as f32 + 8.0, ftop: 0.0, fbot: 9.0, size: 9.0, font: 0, fbase: 7.2 })
            .collect();
        bidi_line(&mut words);
        join_words(&words)
    }

    #[test]
    fn right_to_left_words_read_from_their_right_end_numbers_and_latin_left_to_right() {
        // Hebrew: letters reversed, the words too; a number with its percent sign keeps its order.
        assert_eq!(read_back(&["12.5%-ב", "לדג"]), "גדל ב-12.5%");
        // Brackets turn to face the way they are read; a negative in brackets stays one.
        assert_eq!(read_back(&["(2,345)", "לש", "דספה"]), "הפסד של (2,345)");
        // A Latin name with its number stays left to right inside the right-to-left line.
        assert_eq!(read_back(&[".הנשה", "הלע", "Tel", "Aviv", "35", "דדמה"]), "המדד Tel Aviv 35 עלה השנה.");
        // Arabic: the percent sign is not part of an Arabic number (UAX #9 W2, W5).
        assert_eq!(read_back(&[".(%8", "ﺓﺩﺎﻳﺰﺑ)"]), "(ﺑﺰﻳﺎﺩﺓ 8%).");
        // A right-to-left word inside an English line; an English line is left alone.
        assert_eq!(read_back(&["Israel", "(לארשי)", "rose"]), "Israel (ישראל) rose");
        assert_eq!(read_back(&["Net", "income", "(1,234)"]), "Net income (1,234)");
        // A letter keeps its vowel points after it.
        assert_eq!(logical_word("\u{5DD}\u{5D5}\u{5B9}\u{5DC}\u{5B8}\u{5E9}\u{5C1}", false), "\u{5E9}\u{5C1}\u{5DC}\u{5B8}\u{5D5}\u{5B9}\u{5DD}");
    }
}
