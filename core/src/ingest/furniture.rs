//! Page furniture (issue 3 deliverable 1, spec §4.2): running headers and footers, and the printed
//! page number a reader sees when the file carries no `/PageLabels`.
//!
//! A 10-K exported from EDGAR repeats "Table of Contents" at the top of every page and ends each
//! page with its printed number — often right under the last paragraph, not at the foot of the
//! sheet, and offset from the physical page (Boeing's physical page 21 is printed "19"). Left as
//! prose, the header opens every chunk of the filing and the number ends it. Marked here:
//! - a page's first or last text block (one or two short lines) whose text, with digit runs
//!   folded, opens or ends at least `max(MIN_PAGES, REPEAT_SHARE × pages)` pages is a header or
//!   footer;
//! - a first or last text block that is a page number (`21`, `Page 21`, `21 of 90`, `- 21 -`,
//!   `F-21`, `iv`, or a repeated footer ending in one) is a footer (header) when a page within
//!   `NEIGHBOURS` pages carries the number that fits the distance between them; its number becomes
//!   the page's label when `/PageLabels` gave none.
//!
//! Page text keeps these lines (it is the page as printed); prose documents leave them out
//! (`docs.rs` chunks `BlockKind::Text` only).

use super::{BlockKind, Page};
use std::collections::HashMap;

/// A header or footer repeats on at least this many pages …
const MIN_PAGES: usize = 3;
/// … and on at least this share of the document's pages.
const REPEAT_SHARE: f64 = 0.2;
/// Longest furniture block, in characters.
const MAX_CHARS: usize = 120;
/// How far (in pages) a page number looks for a neighbour that agrees with it.
const NEIGHBOURS: usize = 3;
/// Largest roman page number read (front matter is short).
const MAX_ROMAN: i64 = 60;
/// The series of lower-case roman page numbers (front matter).
const ROMAN: &str = "roman";

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum End {
    Top,
    Bottom,
}

/// A printed page number: an optional section prefix ("F-") and its value, as shown.
#[derive(Clone, Debug, PartialEq)]
struct Number {
    prefix: String,
    value: i64,
    shown: String,
}

/// Mark headers and footers on every page, and give unlabelled pages their printed number.
pub fn mark(pages: &mut [Page]) {
    let n = pages.len();
    let ends: Vec<[Option<usize>; 2]> = pages.iter().map(candidates).collect();
    // Each candidate's text with digit runs folded, and its page number if it reads as one.
    let keys: Vec<[Option<String>; 2]> =
        pages.iter().zip(&ends).map(|(p, e)| e.map(|slot| slot.map(|b| fold_digits(&p.blocks[b].text)))).collect();

    // Repeated texts, counted once per page and end.
    let mut counts: HashMap<(End, &str), usize> = HashMap::new();
    for k in &keys {
        for (end, key) in [(End::Top, &k[0]), (End::Bottom, &k[1])] {
            if let Some(key) = key {
                *counts.entry((end, key.as_str())).or_default() += 1;
            }
        }
    }
    let need = MIN_PAGES.max((REPEAT_SHARE * n as f64).ceil() as usize);
    let repeated: Vec<[bool; 2]> = keys
        .iter()
        .map(|k| {
            let rep = |end: End, key: &Option<String>| {
                key.as_deref().is_some_and(|key| counts.get(&(end, key)).copied().unwrap_or(0) >= need && key.chars().any(char::is_alphabetic))
            };
            [rep(End::Top, &k[0]), rep(End::Bottom, &k[1])]
        })
        .collect();

    // Page numbers, confirmed by a neighbour that carries the number the distance predicts.
    let numbers: Vec<[Option<Number>; 2]> = (0..n)
        .map(|pi| {
            let num = |slot: usize| {
                let text = &pages[pi].blocks[ends[pi][slot]?].text;
                page_number(text).or_else(|| repeated[pi][slot].then(|| trailing_number(text)).flatten())
            };
            [num(0), num(1)]
        })
        .collect();
    let confirmed = |pi: usize, slot: usize| -> bool {
        let Some(num) = &numbers[pi][slot] else { return false };
        (pi.saturating_sub(NEIGHBOURS)..(pi + NEIGHBOURS + 1).min(n))
            .filter(|&j| j != pi)
            .any(|j| numbers[j].iter().flatten().any(|m| m.prefix == num.prefix && m.value - num.value == j as i64 - pi as i64))
    };

    for (pi, p) in pages.iter_mut().enumerate() {
        let numbered = [confirmed(pi, 0), confirmed(pi, 1)];
        for (slot, kind) in [(0, BlockKind::Header), (1, BlockKind::Footer)] {
            if let Some(b) = ends[pi][slot] {
                if numbered[slot] || repeated[pi][slot] {
                    p.blocks[b].kind = kind;
                }
            }
        }
        if p.label.is_none() {
            // The footer's number first: a header may carry a section's number instead.
            let shown = [1, 0].into_iter().find(|&slot| numbered[slot]).and_then(|slot| numbers[pi][slot].as_ref());
            p.label = shown.map(|num| num.shown.clone());
        }
        clear_furniture_captions(p);
    }
}

/// A table set at the top of a page took the running header above it for its caption ("Table of
/// Contents" on every EDGAR page): a line of the page's header or footer captions nothing. Cleared
/// here, before continuations are linked (a continued table has no caption of its own).
fn clear_furniture_captions(p: &mut Page) {
    let furniture: Vec<&str> = p
        .blocks
        .iter()
        .filter(|b| matches!(b.kind, BlockKind::Header | BlockKind::Footer))
        .flat_map(|b| b.text.lines().map(str::trim))
        .filter(|l| !l.is_empty())
        .collect();
    for t in &mut p.tables {
        if furniture.contains(&t.caption.trim()) {
            t.caption.clear();
        }
    }
}

/// The first and last text blocks of a page in reading order, when short enough to be furniture
/// and nothing else on the page lies above (below) them.
fn candidates(p: &Page) -> [Option<usize>; 2] {
    let texts: Vec<usize> = p.blocks.iter().enumerate().filter(|(_, b)| b.kind == BlockKind::Text && !b.text.trim().is_empty()).map(|(i, _)| i).collect();
    if texts.len() < 2 {
        return [None, None];
    }
    let short = |i: usize| {
        let t = p.blocks[i].text.trim();
        t.lines().count() <= 2 && t.chars().count() <= MAX_CHARS
    };
    let content: Vec<usize> = p.blocks.iter().enumerate().filter(|(_, b)| !b.text.trim().is_empty() || b.kind != BlockKind::Text).map(|(i, _)| i).collect();
    let (first, last) = (texts[0], texts[texts.len() - 1]);
    let top = short(first) && content.iter().all(|&j| j == first || p.blocks[j].bbox[3] > p.blocks[first].bbox[1] + 0.5);
    let bottom = short(last) && content.iter().all(|&j| j == last || p.blocks[j].bbox[1] < p.blocks[last].bbox[3] - 0.5);
    [top.then_some(first), bottom.then_some(last)]
}

/// Lower case, whitespace collapsed, every run of digits as one `#`.
fn fold_digits(text: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for w in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
            in_digits = false;
        }
        for c in w.chars() {
            if c.is_ascii_digit() {
                if !in_digits {
                    out.push('#');
                }
                in_digits = true;
            } else {
                out.extend(c.to_lowercase());
                in_digits = false;
            }
        }
    }
    out
}

/// `12`, `F-3`, `iv`: a page reference in a contents entry.
pub(crate) fn is_page_number(s: &str) -> bool {
    let s = s.trim();
    let digits = |t: &str| !t.is_empty() && t.len() <= 4 && t.chars().all(|c| c.is_ascii_digit());
    digits(s)
        || s.split_once('-').is_some_and(|(a, b)| a.len() <= 2 && a.chars().all(|c| c.is_ascii_uppercase()) && digits(b))
        || (!s.is_empty() && s.len() <= 5 && s.chars().all(|c| matches!(c, 'i' | 'v' | 'x')))
}

/// `21`, `Page 21`, `page 21 of 90`, `- 21 -`, `F-21`, `A-3`, `iv`, `xii`.
fn page_number(text: &str) -> Option<Number> {
    let t = text.trim();
    let lower = t.to_lowercase();
    let mut s = lower.as_str();
    s = s.strip_prefix("page").map(str::trim_start).unwrap_or(s);
    if let Some((head, tail)) = s.split_once(" of ") {
        if tail.trim().chars().all(|c| c.is_ascii_digit()) && !tail.trim().is_empty() {
            s = head.trim_end();
        }
    }
    let s = s.trim_matches(|c: char| c == '-' || c == '–' || c == '—' || c.is_whitespace());
    let (prefix, body) = match s.split_once('-').map(|(p, b)| (p.trim_end(), b.trim_start())) {
        Some((p, b)) if (1..=2).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphabetic()) => (p.to_uppercase(), b),
        _ => (String::new(), s),
    };
    let value = if !body.is_empty() && body.len() <= 4 && body.chars().all(|c| c.is_ascii_digit()) {
        body.parse().ok()?
    } else if prefix.is_empty() {
        roman(body)?
    } else {
        return None;
    };
    let arabic = body.chars().all(|c| c.is_ascii_digit());
    let shown = match (arabic, prefix.is_empty()) {
        (true, true) => value.to_string(),
        (true, false) => format!("{prefix}-{value}"),
        (false, _) => body.to_string(),
    };
    // Roman numbers count in their own series, apart from arabic ones.
    let prefix = if arabic { prefix } else { ROMAN.to_string() };
    Some(Number { prefix, value, shown })
}

/// The number a repeated footer ends (or starts) with: "Apple Inc. | 2022 Form 10-K | 21".
fn trailing_number(text: &str) -> Option<Number> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let last = words.last()?;
    let first = words.first()?;
    page_number(last).filter(|n| n.prefix != ROMAN).or_else(|| page_number(first).filter(|n| n.prefix != ROMAN))
}

/// Lower-case roman numerals up to `MAX_ROMAN` (front matter: i, ii, …, xii), so that words such
/// as "mix" or "did" are not numbers.
fn roman(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 8 || !s.chars().all(|c| matches!(c, 'i' | 'v' | 'x' | 'l')) {
        return None;
    }
    let val = |c: char| match c {
        'i' => Some(1),
        'v' => Some(5),
        'x' => Some(10),
        'l' => Some(50),
        'c' => Some(100),
        'd' => Some(500),
        'm' => Some(1000),
        _ => None,
    };
    let vals: Vec<i64> = s.chars().map(val).collect::<Option<_>>()?;
    let mut total = 0;
    for (i, v) in vals.iter().enumerate() {
        if vals.get(i + 1).is_some_and(|n| n > v) {
            total -= v;
        } else {
            total += v;
        }
    }
    // Only canonical spellings ("iiii" or "vx" are words, not numbers).
    (total <= MAX_ROMAN && to_roman(total) == s).then_some(total)
}

fn to_roman(mut n: i64) -> String {
    let table = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")];
    let mut out = String::new();
    for (v, s) in table {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Block;

    fn page(n: u32, blocks: &[(&str, [f32; 4])]) -> Page {
        Page {
            page: n,
            width: 612.0,
            height: 792.0,
            blocks: blocks.iter().map(|(t, b)| Block { kind: BlockKind::Text, bbox: *b, text: t.to_string(), lines: vec![] }).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn page_numbers_in_their_printed_forms() {
        let v = |t: &str| page_number(t).map(|n| (n.prefix, n.value, n.shown));
        assert_eq!(v("21"), Some((String::new(), 21, "21".into())));
        assert_eq!(v("Page 7 of 90"), Some((String::new(), 7, "7".into())));
        assert_eq!(v("- 12 -"), Some((String::new(), 12, "12".into())));
        assert_eq!(v("F-3"), Some(("F".into(), 3, "F-3".into())));
        assert_eq!(v("A - 13"), Some(("A".into(), 13, "A-13".into())));
        assert_eq!(v("xii"), Some((ROMAN.into(), 12, "xii".into())));
        assert_eq!(v("mix"), None);
        assert_eq!(v("Revenue"), None);
        assert_eq!(v("12345"), None);
        assert_eq!(trailing_number("Apple Inc. | 2022 Form 10-K | 21").map(|n| n.value), Some(21));
    }

    #[test]
    fn a_repeated_header_and_agreeing_page_numbers_are_furniture_and_label_the_pages() {
        let body = [100.0, 60.0, 500.0, 400.0];
        let mut pages: Vec<Page> = (1..=5)
            .map(|n| {
                page(n, &[
                    ("Table of Contents", [24.0, 20.0, 80.0, 28.0]),
                    ("Revenue grew because customers bought more widgets in every region.", body),
                    (&(n + 2).to_string(), [300.0, 410.0, 308.0, 418.0]),
                ])
            })
            .collect();
        mark(&mut pages);
        for (i, p) in pages.iter().enumerate() {
            let kinds: Vec<BlockKind> = p.blocks.iter().map(|b| b.kind).collect();
            assert_eq!(kinds, vec![BlockKind::Header, BlockKind::Text, BlockKind::Footer]);
            assert_eq!(p.label.as_deref(), Some((i + 3).to_string().as_str()));
        }
    }

    #[test]
    fn a_running_header_above_a_table_is_not_its_caption() {
        let body = [100.0, 60.0, 500.0, 400.0];
        let mut pages: Vec<Page> = (1..=4)
            .map(|n| {
                let mut p = page(n, &[
                    ("Table of Contents", [24.0, 20.0, 80.0, 28.0]),
                    ("Revenue grew because customers bought more widgets in every region.", body),
                    (&(n + 2).to_string(), [300.0, 410.0, 308.0, 418.0]),
                ]);
                let caption = if n == 2 { "Selected Quarterly Financial Data" } else { "Table of Contents" };
                p.tables.push(crate::ingest::Table {
                    bbox: [100.0, 40.0, 500.0, 300.0],
                    cells: vec![],
                    caption: caption.into(),
                    continues_from_previous: false,
                    n_rows: 0,
                    n_cols: 0,
                    header_rows: 0,
                    ruled: false,
                    notes: vec![],
                });
                p
            })
            .collect();
        mark(&mut pages);
        let captions: Vec<&str> = pages.iter().map(|p| p.tables[0].caption.as_str()).collect();
        assert_eq!(captions, ["", "Selected Quarterly Financial Data", "", ""]);
    }

    #[test]
    fn a_lone_number_that_no_neighbour_agrees_with_stays_text() {
        let body = [100.0, 60.0, 500.0, 400.0];
        let mut pages = vec![
            page(1, &[("Net sales by year", body), ("2022", [300.0, 410.0, 330.0, 418.0])]),
            page(2, &[("Operating income by year", body), ("2019", [300.0, 410.0, 330.0, 418.0])]),
        ];
        pages[0].label = None;
        mark(&mut pages);
        assert!(pages.iter().all(|p| p.blocks.iter().all(|b| b.kind == BlockKind::Text)));
        assert!(pages.iter().all(|p| p.label.is_none()));
    }

    #[test]
    fn labels_from_the_file_are_kept() {
        let body = [100.0, 60.0, 500.0, 400.0];
        let mut pages: Vec<Page> = (1..=3).map(|n| page(n, &[("Body text of the page.", body), (&n.to_string(), [300.0, 410.0, 308.0, 418.0])])).collect();
        for p in pages.iter_mut() {
            p.label = Some(format!("A{}", p.page));
        }
        mark(&mut pages);
        assert_eq!(pages[1].label.as_deref(), Some("A2"));
        assert_eq!(pages[1].blocks[1].kind, BlockKind::Footer);
    }
}
