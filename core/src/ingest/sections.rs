//! Section titles for a filing without an outline (issue 3 deliverable 1: "section titles … attached").
//!
//! Most EDGAR-rendered 10-K, 10-Q and 8-K PDFs carry no `/Outlines`, but their structure is fixed by
//! the forms themselves: every section starts with an "Item" heading ("Item 7. Management's
//! Discussion and Analysis…", "ITEM 1A. RISK FACTORS", "Item 2.02 Results of Operations…"), grouped
//! in Parts ("PART II — OTHER INFORMATION"). When the outline gives no page a section, these
//! headings do: a page's section is the last heading at or before it, as with an outline
//! (`structure::attach`).
//!
//! What is not a heading:
//! - a running header ("PART I / Item 1", "Item 1, 1A"): no title, or not after the item number;
//!   furniture blocks are not read at all;
//! - a cross-reference ("Item 8 of Part II, …"): the title must start with a capital;
//! - a table of contents: item lines followed by page numbers, or by the next item line — a page
//!   with two such lines is a contents page and none of its lines count;
//! - an item that does not move forward in the form's order (a back-reference, a repeated header).
//!
//! After its items a filing has back matter, named by lines of their own: "SIGNATURES", "EXHIBIT
//! INDEX", an "Index to Financial Statements" (the F-pages, once the last part has begun), then
//! each exhibit ("Exhibit 99.1", at the top of its page). These are sections too, so a press release
//! attached to an 8-K is "Exhibit 99.1", not the "Item 9.01" that lists it.

use super::furniture::is_page_number;
use super::{BlockKind, Page};

/// Longest line taken as a heading (a title wrapped over two lines keeps its first).
const MAX_HEADING_CHARS: usize = 160;

/// Two blocks whose tops are this close (points) start on the same line.
const SAME_LINE_PT: f32 = 3.0;

/// Position in the form's order: part, item number, 8-K sub-item (`2.02` → 2), letter (`7A` → 1).
type Order = (u8, u16, u16, u8);

#[derive(Debug, Clone, PartialEq)]
struct ItemLine {
    /// The first item's number (`Items 1 and 2` → 1) and, for 8-K items, its sub-item and letter.
    number: u16,
    sub: Option<u16>,
    letter: Option<char>,
    /// `Item 7A`, `Item 2.02`, `Items 1 and 2`.
    label: String,
    /// The title on the same line, without a trailing page number.
    title: Option<String>,
    /// The line ended in a page number: a contents entry.
    page_ref: bool,
}

/// An item number as written: `7`, `7A`, `2.02`.
struct ItemNumber {
    number: u16,
    sub: Option<u16>,
    letter: Option<char>,
    label: String,
}

/// The item number at the start of `s`, and what follows it.
fn item_number(s: &str) -> Option<(ItemNumber, &str)> {
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() || digits.len() > 2 {
        return None;
    }
    let number: u16 = digits.parse().ok()?;
    let mut label = digits.clone();
    let mut rest = &s[digits.len()..];
    // 8-K items: `2.02`.
    let mut sub = None;
    if let Some(r) = rest.strip_prefix('.') {
        let d: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
        if d.len() == 2 {
            sub = d.parse().ok();
            label.push('.');
            label.push_str(&d);
            rest = &r[2..];
        }
    }
    let mut letter = None;
    if let Some(c) = rest.chars().next().filter(|c| matches!(c, 'A'..='D')) {
        if rest[1..].chars().next().is_none_or(|n| !n.is_alphanumeric()) {
            letter = Some(c);
            label.push(c);
            rest = &rest[1..];
        }
    }
    Some((ItemNumber { number, sub, letter, label }, rest))
}

/// Give every page a section from the filing's Item headings, when no page has one yet.
pub(super) fn attach_filing_items(pages: &mut [Page]) {
    if pages.iter().any(|p| p.section.is_some()) {
        return;
    }
    // The part of the last heading taken, and the last part line seen since (a cover page's
    // "Part III" in its incorporation table must not set the part of what follows).
    let mut part: u8 = 0;
    let mut part_seen: Option<u8> = None;
    let mut at: Option<Order> = None;
    let mut current: Option<(String, bool)> = None;
    // Signatures or an exhibit index seen: exhibits may begin.
    let mut back_matter = false;
    let mut signed = false;
    let mut indexed = false;
    for p in pages.iter_mut() {
        // A contents page is often laid out as a table: its rows count too.
        let texts: Vec<&str> = p
            .blocks
            .iter()
            .filter(|b| matches!(b.kind, BlockKind::Text | BlockKind::Table))
            .flat_map(|b| b.text.lines().map(str::trim).filter(|l| !l.is_empty()))
            .collect();
        // A contents page lists every item: none of its lines is a heading.
        let lines = if is_contents_page(&texts) { vec![] } else { body_lines(p) };
        for (i, line) in lines.iter().enumerate() {
            if let Some(n) = part_line(line.text) {
                part_seen = Some(n);
                continue;
            }
            if let Some(b) = back_matter_line(line.text).filter(|_| at.is_some()) {
                let take = match &b {
                    BackMatter::Signatures => !std::mem::replace(&mut signed, true),
                    BackMatter::ExhibitIndex => !std::mem::replace(&mut indexed, true),
                    BackMatter::FinancialStatements => back_matter || part >= 4,
                    BackMatter::Exhibit(_) => back_matter && i < 3,
                };
                if take {
                    back_matter |= matches!(b, BackMatter::Signatures | BackMatter::ExhibitIndex);
                    current = Some((b.name(), true));
                }
                continue;
            }
            let Some(item) = item_line(line.text) else { continue };
            // A number set off as a heading (`ITEM 1.`) may have its title beside it or on the
            // next line; a bare `Item 1` without either is a running header.
            let closed = line.text.ends_with(['.', ':']);
            let title = match &item.title {
                Some(t) => Some(continued(t.clone(), lines.get(i + 1), line)),
                None => title_beside(p, line).or_else(|| lines.get(i + 1).filter(|n| closed && is_title(n.text)).map(|n| n.text.to_string())),
            };
            if title.is_none() && !closed {
                continue;
            }
            let item_part = part_seen.unwrap_or(part).max(part);
            let order = order_of(item_part, &item);
            // The same item again with the title it lacked (a number-only heading, then its title).
            let retitle = title.is_some() && at == Some(order) && current.as_ref().is_some_and(|(_, titled)| !titled);
            if at.is_some_and(|a| order <= a) && !retitle {
                continue;
            }
            (part, part_seen, at) = (item_part, None, Some(order));
            current = Some((name(item_part, &item, title.as_deref()), title.is_some()));
        }
        p.section = current.as_ref().map(|(n, _)| n.clone());
        p.section_from_headings = p.section.is_some();
    }
}

/// A back-matter heading: a line of its own after the items.
#[derive(Debug, Clone, PartialEq)]
enum BackMatter {
    Signatures,
    ExhibitIndex,
    FinancialStatements,
    /// `Exhibit 99.1`.
    Exhibit(String),
}

impl BackMatter {
    fn name(&self) -> String {
        match self {
            BackMatter::Signatures => "Signatures".into(),
            BackMatter::ExhibitIndex => "Exhibit Index".into(),
            BackMatter::FinancialStatements => "Financial Statements".into(),
            BackMatter::Exhibit(n) => format!("Exhibit {n}"),
        }
    }
}

fn back_matter_line(line: &str) -> Option<BackMatter> {
    let words: Vec<String> = without_note_marks(line)
        .split_whitespace().map(|w| w.trim_end_matches([':', '.']).to_lowercase()).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["signature" | "signatures"] => Some(BackMatter::Signatures),
        ["exhibit" | "exhibits", "index"] | ["index", "to", "exhibits"] => Some(BackMatter::ExhibitIndex),
        ["index", "to", rest @ ..] if rest.ends_with(&["financial", "statements"]) || rest.ends_with(&["financial", "statement", "schedules"]) => {
            Some(BackMatter::FinancialStatements)
        }
        ["exhibit", number] => {
            let n = number.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            let ok = !n.is_empty() && n.len() <= 7 && n.starts_with(|c: char| c.is_ascii_digit()) && n.chars().all(|c| c.is_ascii_digit() || c == '.');
            ok.then(|| BackMatter::Exhibit(number.to_uppercase()))
        }
        _ => None,
    }
}

/// A heading without the footnote marks set after it (`Exhibit Index (1),(2)`, `Signatures*`):
/// a raised mark reads with the line it is set on (`layout::attach_scripts`).
fn without_note_marks(line: &str) -> &str {
    let mut rest = line.trim_end();
    loop {
        let before = rest;
        rest = rest.trim_end_matches(['*', ',', ' ']);
        if let Some(open) = rest.strip_suffix(')').and_then(|r| r.rfind('(').map(|i| (i, r))) {
            let (i, r) = open;
            let mark = &r[i + 1..];
            // `10(p)` is an exhibit's number, not a mark.
            let numbered = r[..i].ends_with(|c: char| c.is_ascii_digit());
            if !numbered && (1..=2).contains(&mark.chars().count()) && mark.chars().all(|c| c.is_ascii_alphanumeric()) {
                rest = &r[..i];
            }
        }
        if rest == before {
            return rest;
        }
    }
}

fn order_of(part: u8, item: &ItemLine) -> Order {
    (part, item.number, item.sub.unwrap_or(0), item.letter.map_or(0, |c| c as u8 - b'A' + 1))
}

/// `Part II — Item 7. Management's Discussion…`
fn name(part: u8, item: &ItemLine, title: Option<&str>) -> String {
    let mut name = item.label.clone();
    if let Some(t) = title {
        name.push_str(". ");
        name.push_str(t.trim_end_matches('.'));
    }
    if part > 0 {
        name = format!("Part {} — {name}", roman(part));
    }
    name
}

/// A title cut at the end of its line (`… OWNERS AND MANAGEMENT AND` / `RELATED STOCKHOLDER
/// MATTERS`, in the same block) goes on with the next line.
fn continued(title: String, next: Option<&BodyLine>, line: &BodyLine) -> String {
    const OPEN: [&str; 10] = ["and", "of", "or", "the", "for", "in", "to", "on", "with", "by"];
    let cut = title.ends_with(',') || title.rsplit(' ').next().is_some_and(|w| OPEN.iter().any(|o| w.eq_ignore_ascii_case(o)));
    match next {
        Some(n) if cut && n.block == line.block && !n.first && is_title(n.text) && title.chars().count() + n.text.chars().count() < MAX_HEADING_CHARS => {
            format!("{title} {}", n.text)
        }
        _ => title,
    }
}

/// A line of a text block, with the block it starts (its first line) or belongs to.
struct BodyLine<'a> {
    text: &'a str,
    block: usize,
    first: bool,
}

/// The title set beside an item number that starts its block: another block of the page whose top
/// is the same line, to its right (`Item 10.` in the margin, `Directors, Executive…` in the body column).
fn title_beside(p: &Page, line: &BodyLine) -> Option<String> {
    if !line.first {
        return None;
    }
    let b = &p.blocks[line.block];
    p.blocks
        .iter()
        .enumerate()
        .filter(|(k, o)| *k != line.block && o.kind == BlockKind::Text && (o.bbox[1] - b.bbox[1]).abs() < SAME_LINE_PT && o.bbox[0] > b.bbox[0])
        .min_by(|(_, x), (_, y)| x.bbox[0].total_cmp(&y.bbox[0]))
        .and_then(|(_, o)| o.text.lines().next())
        .map(str::trim)
        .filter(|t| is_title(t))
        .map(str::to_string)
}

/// The lines of a page's text blocks in reading order, and the first line of each table (a
/// heading set flush above a statement is read into it); running headers and footers left out.
fn body_lines(p: &Page) -> Vec<BodyLine<'_>> {
    p.blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| matches!(b.kind, BlockKind::Text | BlockKind::Table))
        .flat_map(|(k, b)| {
            let take = if b.kind == BlockKind::Table { 1 } else { usize::MAX };
            b.text.lines().map(str::trim).filter(|l| !l.is_empty()).take(take).enumerate().map(move |(n, l)| BodyLine { text: l, block: k, first: n == 0 })
        })
        .collect()
}

/// A contents page: at least two item lines that end in a page number or are followed directly by
/// another item or part line.
fn is_contents_page(lines: &[&str]) -> bool {
    let entries = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| item_line(l).map(|it| (i, it)))
        .filter(|(i, it)| {
            it.page_ref || lines.get(i + 1).is_some_and(|n| item_line(n).is_some() || part_line(n).is_some() || is_page_number(n))
        })
        .count();
    entries >= 2
}

/// `PART II`, `Part I. Financial Information`, `PART II — OTHER INFORMATION` → the part number.
fn part_line(line: &str) -> Option<u8> {
    let rest = strip_word(line, "part")?;
    let (numeral, after) = split_token(rest);
    let n = match numeral.trim_end_matches(['.', ':']).to_ascii_uppercase().as_str() {
        "I" => 1,
        "II" => 2,
        "III" => 3,
        "IV" => 4,
        _ => return None,
    };
    let after = after.trim_start_matches(['.', ':', '—', '–', '-', ' ']).trim();
    (after.is_empty() || after.starts_with(|c: char| c.is_uppercase()) || numeral.ends_with(['.', ':'])).then_some(n).filter(|_| after.len() <= MAX_HEADING_CHARS)
}

/// `Item 7. Management's Discussion…`, `ITEM 1A. RISK FACTORS`, `Item 2.02 Results of Operations`,
/// `Item 9B` (title on the next line).
fn item_line(line: &str) -> Option<ItemLine> {
    if line.chars().count() > MAX_HEADING_CHARS {
        return None;
    }
    // `Items 1 and 2. Business and Properties`: one heading for several items, ordered by the first.
    let (rest, several) = match strip_word(line, "items") {
        Some(r) => (r, true),
        None => (strip_word(line, "item")?, false),
    };
    let (ItemNumber { number, sub, letter, label: first }, mut rest) = item_number(rest)?;
    let mut label = format!("{} {first}", if several { "Items" } else { "Item" });
    if several {
        let mut n = 0;
        while let Some((joiner, next, r)) = joined_item(rest) {
            label.push_str(joiner);
            label.push_str(&next);
            rest = r;
            n += 1;
        }
        if n == 0 {
            return None;
        }
    }
    // What follows the number: nothing, or a separator, then the title. `Item 1, 1A` and
    // `Item 8 of Part II` are not headings.
    let sep = rest.chars().next();
    if sep.is_some_and(|c| !matches!(c, '.' | ':' | '—' | '–' | '-' | ' ' | '\u{a0}')) {
        return None;
    }
    let rest = rest.trim_start_matches(['.', ':', '—', '–', '-', ' ', '\u{a0}']).trim();
    if rest.is_empty() {
        return Some(ItemLine { number, sub, letter, label, title: None, page_ref: false });
    }
    if !rest.starts_with(|c: char| c.is_uppercase() || matches!(c, '[' | '“' | '"')) {
        return None;
    }
    // A quotation closed or another item named inside: a cross-reference wrapped to the start of
    // a line (`Item 2. Management's Discussion…" appearing in our Quarterly Reports`), not a title.
    if rest.chars().skip(1).any(|c| matches!(c, '”' | '"')) || rest.contains("Item ") {
        return None;
    }
    let (title, page_ref) = match rest.rsplit_once(' ') {
        Some((t, last)) if is_page_number(last) => (t.trim_end_matches(['.', ' ']).to_string(), true),
        _ => (rest.to_string(), false),
    };
    Some(ItemLine { number, sub, letter, label, title: Some(title), page_ref })
}

/// `, 1A`, ` and 2`, ` through 4`: a further item of an `Items …` heading, as (joiner, label, rest).
fn joined_item(rest: &str) -> Option<(&'static str, String, &str)> {
    let (joiner, after) = [", and ", " and ", ", ", " & ", " through ", "-", "–"].into_iter().find_map(|j| rest.strip_prefix(j).map(|r| (j, r)))?;
    item_number(after).map(|(next, r)| (joiner, next.label, r))
}

/// A title on the line after a bare `Item 7.`: short, capitalised, not a sentence of the body.
fn is_title(line: &str) -> bool {
    let l = line.trim();
    l.chars().count() <= MAX_HEADING_CHARS
        && l.starts_with(|c: char| c.is_uppercase())
        && item_line(l).is_none()
        && part_line(l).is_none()
        && !is_page_number(l)
        && !l.trim_end_matches('.').contains(". ")
}


/// `line` without its leading `word` (any case) and the whitespace after it.
fn strip_word<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let head = line.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = &line[word.len()..];
    let trimmed = rest.trim_start_matches([' ', '\u{a0}']);
    (trimmed.len() < rest.len()).then_some(trimmed)
}

fn split_token(s: &str) -> (&str, &str) {
    match s.find([' ', '\u{a0}', '—', '–']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

fn roman(n: u8) -> &'static str {
    ["", "I", "II", "III", "IV"].get(n as usize).copied().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_headings_are_read_in_their_usual_forms() {
        let it = item_line("Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations").unwrap();
        assert_eq!((it.number, it.letter, it.title.as_deref(), it.page_ref), (7, None, Some("Management’s Discussion and Analysis of Financial Condition and Results of Operations"), false));
        let it = item_line("ITEM 1A. RISK FACTORS").unwrap();
        assert_eq!((it.label.as_str(), it.title.as_deref()), ("Item 1A", Some("RISK FACTORS")));
        let it = item_line("Item 2.02 Results of Operations and Financial Condition.").unwrap();
        assert_eq!(it.label, "Item 2.02");
        let it = item_line("Items 1 and 2. Business and Properties").unwrap();
        assert_eq!((it.number, it.label.as_str(), it.title.as_deref()), (1, "Items 1 and 2", Some("Business and Properties")));
        assert_eq!(item_line("Items 1, 1A and 2. Business").unwrap().label, "Items 1, 1A and 2");
        assert_eq!(item_line("Item 9B").unwrap().title, None);
        let toc = item_line("Item 1A. Risk Factors 17").unwrap();
        assert!(toc.page_ref);
        assert_eq!(toc.title.as_deref(), Some("Risk Factors"));
        assert_eq!(item_line("Item 6. [Reserved]").unwrap().title.as_deref(), Some("[Reserved]"));
    }

    #[test]
    fn running_headers_and_cross_references_are_not_headings() {
        assert!(item_line("Item 1, 1A").is_none());
        assert!(item_line("Item 8 of Part II, “Financial Statements and Supplementary Data — Note 7”").is_none());
        assert!(item_line("Items 7 of this report").is_none(), "a plural needs a second item");
        assert!(item_line("Itemized deductions were 12").is_none());
        assert!(item_line("Item 123. Not an item").is_none());
        assert!(item_line("Item 2. Management's Discussions and Analysis of Financial Condition\" appearing in our Quarterly").is_none());
        assert!(item_line("Item 14. Information required by Item 14 of Part III is included in our Proxy Statement").is_none());
        assert_eq!(part_line("PART II — OTHER INFORMATION"), Some(2));
        assert_eq!(part_line("Part I. Financial Information"), Some(1));
        assert_eq!(part_line("PART IV"), Some(4));
        assert_eq!(part_line("Part III of this report incorporates"), None);
        assert_eq!(part_line("Part II, Item 8"), None);
    }

    #[test]
    fn back_matter_is_named_by_lines_of_its_own() {
        assert_eq!(back_matter_line("SIGNATURES"), Some(BackMatter::Signatures));
        assert_eq!(back_matter_line("Signature"), Some(BackMatter::Signatures));
        assert_eq!(back_matter_line("EXHIBIT INDEX"), Some(BackMatter::ExhibitIndex));
        assert_eq!(back_matter_line("INDEX TO FINANCIAL STATEMENTS"), Some(BackMatter::FinancialStatements));
        assert_eq!(back_matter_line("Index to Consolidated Financial Statements"), Some(BackMatter::FinancialStatements));
        assert_eq!(back_matter_line("Exhibit 99.1"), Some(BackMatter::Exhibit("99.1".into())));
        assert_eq!(back_matter_line("EXHIBIT 10.2a").map(|b| b.name()), Some("Exhibit 10.2A".into()));
        assert_eq!(back_matter_line("Exhibit 99.1 Press release dated August 30, 2023"), None);
        assert_eq!(back_matter_line("Signatures of the directors follow"), None);
        assert_eq!(back_matter_line("Exhibit A"), None);
        // Footnote marks after the heading (Walmart's "Exhibit Index⁽¹⁾˒⁽²⁾").
        assert_eq!(back_matter_line("Exhibit Index (1),(2)"), Some(BackMatter::ExhibitIndex));
        assert_eq!(back_matter_line("SIGNATURES*"), Some(BackMatter::Signatures));
        assert_eq!(back_matter_line("Signatures(a)"), Some(BackMatter::Signatures));
        assert_eq!(back_matter_line("Exhibit 10(p)"), None);
    }

    #[test]
    fn contents_entries_are_told_from_headings() {
        assert!(is_contents_page(&["PART I", "Item 1. Business 3", "Item 1A. Risk Factors 17", "Item 2. Properties 26"]));
        assert!(is_contents_page(&["Item 1.", "Item 1A.", "Item 1B.", "Business"]));
        // Short items, each with its one-line body, are headings.
        assert!(!is_contents_page(&["Item 1B. Unresolved Staff Comments", "None.", "Item 2. Properties", "We operate the following facilities.", "Item 3. Legal Proceedings", "See Item 8 of Part II."]));
    }
}
