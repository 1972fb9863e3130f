//! Section titles from type size, for a report with neither an outline nor a filing's Items (issue 3
//! deliverable 1: "section titles … attached"): an annual, statistical or central-bank report
//! exported without bookmarks still sets its chapter and section headings larger than its text.
//!
//! Runs after `structure::attach` and `sections::attach_filing_items`, and only when neither gave a
//! page a section. A page's section is the last heading at or before it, as with an outline.
//!
//! - The text size is the size most characters of the document's text blocks are set in.
//! - A heading is a short line, at least `HEADING_SIZE_RATIO` times that size, that starts its
//!   block (a heading wrapped over two or three lines of its size is one heading) and reads as a
//!   title: it starts with a capital or a section number, is mostly letters and is not a sentence.
//! - A size is a heading level only when headings of that size, with different titles, sit on at
//!   least two pages (a cover's title or one large figure is not a level). The two largest levels
//!   are used: "Chapter — Section".
//! - A report whose text is set in a regular face may set its lower headings in bold at (about)
//!   the text size: a block's leading lines that are wholly bold, not smaller than the text, are
//!   headings one level below their size's larger headings; such a line alone right above a
//!   table is the table's title.
//! - A page with more than `MAX_HEADINGS_PER_PAGE` lines of one heading level is a cover, a chart
//!   or an infographic: none of its lines of that level count.
//! - A caption ("Table 3", "Chart 5 …", "Source: …") is not a heading.

use super::{BlockKind, Page, TextLine};
use std::collections::{BTreeMap, BTreeSet};

/// A heading is set at least this many times the text size.
const HEADING_SIZE_RATIO: f32 = 1.15;
/// Longest heading (characters, after joining its lines) and most words.
const MAX_HEADING_CHARS: usize = 120;
const MAX_HEADING_WORDS: usize = 16;
/// Lines of one heading size on a page beyond which none of them is a heading.
const MAX_HEADINGS_PER_PAGE: usize = 4;
/// Sizes are compared in steps of this many points.
const SIZE_STEP: f32 = 0.5;

/// A size in steps (saturating: a hostile file's sizes can be anything).
fn size_key(size: f32) -> i32 {
    (size / SIZE_STEP).round() as i32
}

/// A heading found on a page: where it is, its level and its title.
#[derive(Debug, Clone, PartialEq)]
struct Heading {
    page: usize,
    /// Its size step, doubled, plus one for a heading set larger than the text: larger headings
    /// rank above bold ones at their step, and both above any smaller size.
    level: i64,
    title: String,
    /// Top and bottom of its block (points from the top of the page).
    top: f32,
    bottom: f32,
}

/// Two headings whose tops and bottoms are this close (points) sit in the same band of the page.
const SAME_BAND_PT: f32 = 2.0;

/// Give every page a section from the report's typeset headings, when no page has one yet.
pub(super) fn attach_typeset_headings(pages: &mut [Page]) {
    if pages.iter().any(|p| p.section.is_some()) {
        return;
    }
    let Some(body) = text_style(pages) else { return };
    let found = headings(pages, body);
    let levels = levels(&found);
    if levels.is_empty() {
        return;
    }
    let mut by_page: BTreeMap<usize, Vec<&Heading>> = BTreeMap::new();
    for h in found.iter().filter(|h| levels.contains(&h.level)) {
        by_page.entry(h.page).or_default().push(h);
    }
    let top = levels[0];
    let mut chapter: Option<&str> = None;
    let mut section: Option<&str> = None;
    for (i, p) in pages.iter_mut().enumerate() {
        for h in by_page.get(&i).into_iter().flatten() {
            if h.level == top {
                chapter = Some(&h.title);
                section = None;
            } else {
                section = Some(&h.title);
            }
        }
        p.section = match (chapter, section) {
            (Some(c), Some(s)) => Some(format!("{c} — {s}")),
            (Some(t), None) | (None, Some(t)) => Some(t.to_string()),
            (None, None) => None,
        };
        p.section_from_headings = p.section.is_some();
    }
}

/// The text's style: the size (step) most characters of the text blocks are set in, and whether
/// most of those characters are bold.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TextStyle {
    size: f32,
    bold: bool,
}

/// Whether a line is set wholly in bold faces.
fn is_bold(p: &Page, line: &TextLine) -> bool {
    !line.spans.is_empty() && line.spans.iter().all(|s| p.fonts.get(s.font as usize).is_some_and(|f| f.bold))
}

fn visible_chars(line: &TextLine) -> usize {
    line.spans.iter().map(|s| s.text.chars().filter(|c| !c.is_whitespace()).count()).sum()
}

fn text_style(pages: &[Page]) -> Option<TextStyle> {
    // Per size step: characters, and of those the ones in bold lines.
    let mut chars: BTreeMap<i32, (usize, usize)> = BTreeMap::new();
    for p in pages {
        for b in p.blocks.iter().filter(|b| b.kind == BlockKind::Text) {
            for line in &b.lines {
                let n = visible_chars(line);
                let e = chars.entry(size_key(line.size)).or_default();
                e.0 += n;
                if is_bold(p, line) {
                    e.1 += n;
                }
            }
        }
    }
    chars
        .into_iter()
        .max_by_key(|&(k, (n, _))| (n, std::cmp::Reverse(k)))
        .map(|(k, (n, bold))| TextStyle { size: k as f32 * SIZE_STEP, bold: 2 * bold > n })
        .filter(|s| s.size > 0.0)
}

/// Every heading candidate of the document, in reading order.
fn headings(pages: &[Page], body: TextStyle) -> Vec<Heading> {
    let mut out = vec![];
    for (i, p) in pages.iter().enumerate() {
        let mut on_page: Vec<Heading> = vec![];
        for (k, b) in p.blocks.iter().enumerate().filter(|(_, b)| b.kind == BlockKind::Text) {
            // The block's leading lines set at one heading level.
            let level_of = |line: &TextLine| {
                let key = size_key(line.size);
                if line.size >= HEADING_SIZE_RATIO * body.size {
                    Some(2 * i64::from(key) + 1)
                } else if !body.bold && key >= size_key(body.size) && is_bold(p, line) {
                    Some(2 * i64::from(key))
                } else {
                    None
                }
            };
            let mut lines = b.lines.iter();
            let Some(first) = lines.next() else { continue };
            let Some(level) = level_of(first) else { continue };
            // A bold line at the text's size right above a table is the table's title.
            let table_next = p.blocks.get(k + 1).is_some_and(|n| n.kind == BlockKind::Table);
            if level % 2 == 0 && table_next && b.lines.len() == 1 {
                continue;
            }
            let mut title = first.text().trim().to_string();
            for line in lines {
                let text = line.text();
                if level_of(line) != Some(level) || text.trim().is_empty() {
                    break;
                }
                join_line(&mut title, text.trim());
            }
            if is_title(&title) && !is_caption(&title) {
                on_page.push(Heading { page: i, level, title, top: b.bbox[1], bottom: b.bbox[3] });
            }
        }
        // A page crowded with lines of one heading level is a cover, a chart or an infographic.
        let mut per_level: BTreeMap<i64, usize> = BTreeMap::new();
        for h in &on_page {
            *per_level.entry(h.level).or_default() += 1;
        }
        out.extend(on_page.into_iter().filter(|h| per_level.get(&h.level).is_some_and(|n| *n <= MAX_HEADINGS_PER_PAGE)));
    }
    without_running_headers(out)
}

/// A table's, chart's or figure's caption ("Table 3", "Chart 5 – Issuance", "Figure 2.1") or a
/// source or note line ("Source: …"): set like a heading, but not one.
fn is_caption(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let Some(first) = words.next() else { return false };
    let word = first.trim_end_matches([':', '.']).to_lowercase();
    let numbered = words.next().is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()));
    let labelled = first.ends_with(':');
    ["table", "chart", "figure", "graph", "exhibit", "box", "source", "sources", "note", "notes"].contains(&word.as_str())
        && (numbered || labelled)
}

/// A title set on more than one page is a running header (a short document gives furniture
/// detection too few pages to see it), and so is any other line in the same band of the page as
/// one: the left and right pages' headers ("3. | Information on specific zoonoses", "Salmonella | 3.1.").
fn without_running_headers(found: Vec<Heading>) -> Vec<Heading> {
    let mut pages_of: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for h in &found {
        pages_of.entry(h.title.as_str()).or_default().insert(h.page);
    }
    let bands: Vec<(f32, f32)> = found.iter().filter(|h| pages_of.get(h.title.as_str()).is_some_and(|ps| ps.len() > 1)).map(|h| (h.top, h.bottom)).collect();
    let in_band = |h: &Heading| bands.iter().any(|(t, b)| (h.top - t).abs() <= SAME_BAND_PT && (h.bottom - b).abs() <= SAME_BAND_PT);
    found.iter().filter(|h| !in_band(h)).cloned().collect()
}

/// Append the next line of a wrapped heading, joining a word hyphenated across the break
/// ("Stock Mar-" / "ket Participation" → "Stock Market Participation") and keeping a compound's
/// hyphen ("Non-" / "GAAP measures" → "Non-GAAP measures").
fn join_line(title: &mut String, line: &str) {
    let broken = title.ends_with('-') && title[..title.len() - 1].ends_with(char::is_alphabetic);
    if broken && line.starts_with(char::is_lowercase) {
        title.pop();
    } else if !broken {
        title.push(' ');
    }
    title.push_str(line);
}

/// Heading levels, highest first, that carry different titles on at least two pages; the two highest.
fn levels(found: &[Heading]) -> Vec<i64> {
    let mut pages: BTreeMap<i64, BTreeSet<usize>> = BTreeMap::new();
    let mut titles: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
    for h in found {
        pages.entry(h.level).or_default().insert(h.page);
        titles.entry(h.level).or_default().insert(h.title.as_str());
    }
    let mut sizes: Vec<i64> = pages
        .iter()
        .filter(|(k, ps)| ps.len() >= 2 && titles.get(*k).is_some_and(|t| t.len() >= 2))
        .map(|(k, _)| *k)
        .collect();
    sizes.sort_by(|a, b| b.cmp(a));
    sizes.truncate(2);
    sizes
}

/// Reads as a title: short, starts with a capital or a section number, mostly letters, and not a
/// sentence or a clause.
fn is_title(t: &str) -> bool {
    let chars = t.chars().count();
    let words = t.split_whitespace().count();
    if !(2..=MAX_HEADING_CHARS).contains(&chars) || words > MAX_HEADING_WORDS {
        return false;
    }
    let visible: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    let letters = visible.iter().filter(|c| c.is_alphabetic()).count();
    if letters < 2 || letters * 2 < visible.len() {
        return false;
    }
    let starts = t.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
    let clause = t.ends_with([',', ';']) || (t.ends_with('.') && words > 6);
    starts && !clause
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{text_block, Block, FontFace, PageSignals};

    fn page(n: u32, blocks: &[(&str, f32)]) -> Page {
        Page {
            page: n,
            width: 595.0,
            height: 842.0,
            label: None,
            section: None,
            section_from_headings: false,
            text: String::new(),
            blocks: blocks
                .iter()
                .map(|(t, size)| text_block([0.0; 4], &t.lines().map(|l| (l, *size)).collect::<Vec<_>>()))
                .collect(),
            tables: vec![],
            signals: PageSignals::default(),
            fonts: vec![],
        }
    }

    const BODY: &str = "The economy grew by 2.1 per cent in the year, driven by household consumption and exports.";

    #[test]
    fn chapters_and_sections_set_larger_than_the_text_name_the_pages() {
        let mut pages = vec![
            page(1, &[("Annual Report 2022", 24.0), (BODY, 10.0)]),
            page(2, &[("1 Economic developments", 16.0), ("1.1 Output", 12.0), (BODY, 10.0), (BODY, 10.0)]),
            page(3, &[(BODY, 10.0), ("1.2 Prices and wages", 12.0), (BODY, 10.0)]),
            page(4, &[(BODY, 10.0), (BODY, 10.0)]),
            page(5, &[("2 Monetary policy", 16.0), (BODY, 10.0), ("2.1 Interest rates", 12.0), (BODY, 10.0)]),
        ];
        attach_typeset_headings(&mut pages);
        let sections: Vec<Option<&str>> = pages.iter().map(|p| p.section.as_deref()).collect();
        assert_eq!(
            sections,
            vec![
                None,
                Some("1 Economic developments — 1.1 Output"),
                Some("1 Economic developments — 1.2 Prices and wages"),
                Some("1 Economic developments — 1.2 Prices and wages"),
                Some("2 Monetary policy — 2.1 Interest rates"),
            ]
        );
        assert!(pages[1..].iter().all(|p| p.section_from_headings));
    }

    #[test]
    fn a_heading_wrapped_over_two_lines_is_one_title() {
        let two_lines = text_block([0.0; 4], &[("3 Financial stability and", 16.0), ("the banking sector", 16.0), ("Banks were well capitalised.", 10.0)]);
        let mut pages = vec![page(1, &[("2 Prices", 16.0), (BODY, 10.0)]), page(2, &[(BODY, 10.0)])];
        pages[1].blocks.push(two_lines);
        attach_typeset_headings(&mut pages);
        assert_eq!(pages[1].section.as_deref(), Some("3 Financial stability and the banking sector"));
    }

    #[test]
    fn a_title_repeated_at_the_top_of_pages_is_a_running_header() {
        let header = |n, t: &str, x: f32| {
            let mut p = page(n, &[(t, 14.0), (BODY, 10.0)]);
            p.blocks[0].bbox = [x, 37.0, x + 240.0, 51.0];
            p.blocks[1].bbox = [85.0, 99.0, 510.0, 153.0];
            p
        };
        let mut pages = vec![
            header(1, "3. | Information on specific zoonoses", 62.0),
            header(2, "Salmonella | 3.1.", 446.0),
            header(3, "3. | Information on specific zoonoses", 62.0),
        ];
        pages[2].blocks.push(text_block([85.0, 300.0, 300.0, 314.0], &[("3.1.2 Salmonella in food", 14.0)]));
        pages[1].blocks.push(text_block([85.0, 300.0, 300.0, 314.0], &[("3.1.1 Salmonella in humans", 14.0)]));
        attach_typeset_headings(&mut pages);
        let sections: Vec<Option<&str>> = pages.iter().map(|p| p.section.as_deref()).collect();
        assert_eq!(sections, vec![None, Some("3.1.1 Salmonella in humans"), Some("3.1.2 Salmonella in food")]);
    }

    #[test]
    fn a_word_hyphenated_across_a_headings_lines_is_joined() {
        let mut t = "B Appendix B: Stock Mar-".to_string();
        join_line(&mut t, "ket Participation");
        assert_eq!(t, "B Appendix B: Stock Market Participation");
        let mut t = "Non-".to_string();
        join_line(&mut t, "GAAP measures");
        assert_eq!(t, "Non-GAAP measures");
    }

    #[test]
    fn covers_figures_sentences_and_lone_titles_are_not_headings() {
        // A title used once, large figures, a pull-quote sentence and a crowded infographic page.
        let mut pages = vec![
            page(1, &[("Annual Report 2022", 24.0), (BODY, 10.0)]),
            page(2, &[("$23.7bn", 18.0), (BODY, 10.0), ("Growth was strong across every region of the group this year.", 18.0)]),
            page(3, &[("$19.2bn", 18.0), (BODY, 10.0), ("Growth was strong across every region of the group last year.", 18.0)]),
            page(4, &[("Sales", 14.0), ("Margin", 14.0), ("Cash", 14.0), ("Debt", 14.0), ("Staff", 14.0), (BODY, 10.0)]),
            page(5, &[("Sales", 14.0), ("Margin", 14.0), ("Cash", 14.0), ("Debt", 14.0), ("Staff", 14.0), (BODY, 10.0)]),
        ];
        attach_typeset_headings(&mut pages);
        assert!(pages.iter().all(|p| p.section.is_none()), "{:?}", pages.iter().map(|p| &p.section).collect::<Vec<_>>());
    }

    /// Pages whose fonts are a regular (0) and a bold (1) face; `bold` lines are set in the bold.
    fn styled(pages: &mut [Page], bold: &[&str]) {
        for p in pages {
            p.fonts = vec![FontFace::default(), FontFace { bold: true, ..FontFace::default() }];
            for l in p.blocks.iter_mut().flat_map(|b| b.lines.iter_mut()) {
                if bold.contains(&l.text().as_str()) {
                    l.spans.iter_mut().for_each(|s| s.font = 1);
                }
            }
        }
    }

    #[test]
    fn bold_headings_at_the_text_size_are_a_level_below_larger_ones() {
        let table = |p: &mut Page| p.blocks.push(Block { kind: BlockKind::Table, bbox: [0.0; 4], text: "2021  2022".into(), lines: vec![] });
        let mut pages = vec![
            page(1, &[("1 Economic developments", 16.0), ("Output", 10.0), (BODY, 10.0), ("Table 1: Output by sector", 10.0), (BODY, 10.0)]),
            page(2, &[(BODY, 10.0), ("Prices and wages", 10.0), (BODY, 10.0), ("Gross domestic product", 10.0)]),
            page(3, &[("2 Monetary policy", 16.0), (BODY, 10.0), ("Interest rates", 10.0), (BODY, 10.0)]),
        ];
        // "Gross domestic product", alone above a table, is the table's title.
        table(&mut pages[1]);
        styled(&mut pages, &["Output", "Prices and wages", "Interest rates", "Table 1: Output by sector", "Gross domestic product"]);
        attach_typeset_headings(&mut pages);
        let sections: Vec<Option<&str>> = pages.iter().map(|p| p.section.as_deref()).collect();
        assert_eq!(
            sections,
            vec![
                Some("1 Economic developments — Output"),
                Some("1 Economic developments — Prices and wages"),
                Some("2 Monetary policy — Interest rates"),
            ]
        );
        // A report set in bold throughout has no bold headings.
        let mut pages = vec![page(1, &[(BODY, 10.0), ("Output", 10.0)]), page(2, &[(BODY, 10.0), ("Prices and wages", 10.0)])];
        styled(&mut pages, &[BODY, "Output", "Prices and wages"]);
        attach_typeset_headings(&mut pages);
        assert!(pages.iter().all(|p| p.section.is_none()));
    }

    #[test]
    fn absurd_type_sizes_from_a_hostile_file_are_headings_like_any_other() {
        // Sizes past i32's range in half points (a fuzzed file's) once overflowed the level.
        let mut pages = vec![
            page(1, &[("Huge", 1e30), (BODY, 10.0), ("Bold at a huge size", 1e30)]),
            page(2, &[("Larger still", f32::MAX), (BODY, 10.0)]),
        ];
        styled(&mut pages, &["Bold at a huge size"]);
        attach_typeset_headings(&mut pages);
        assert_eq!(pages[1].section.as_deref(), Some("Larger still"));
    }

    #[test]
    fn captions_and_source_lines_are_not_headings() {
        for t in ["Table 3", "Chart 5 European ABCP issuance", "Figure 2.1 Prices", "Source: Moody's, Dealogic", "Note: seasonally adjusted"] {
            assert!(is_caption(t), "{t}");
        }
        for t in ["Notes to the consolidated financial statements", "Tables and charts", "Sources of funding", "3.1 Output"] {
            assert!(!is_caption(t), "{t}");
        }
    }

    #[test]
    fn an_outline_or_a_filings_items_come_first() {
        let mut pages = vec![page(1, &[("1 Prices", 16.0), (BODY, 10.0)]), page(2, &[("2 Wages", 16.0), (BODY, 10.0)])];
        pages[0].section = Some("Part I — Item 1. Business".into());
        attach_typeset_headings(&mut pages);
        assert_eq!(pages[1].section, None);
    }
}
