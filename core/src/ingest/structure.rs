//! Document structure from pdf-rs (tolerant parsing, PDF_NOTES.md): outline → section titles, page
//! labels → printed page numbers, title, encryption status. Glyphs come from hayro (`read.rs`); pdf-rs
//! is here only for what hayro does not expose. Everything is best effort: a broken outline costs the
//! section titles and a warning, nothing else.

use super::{Extracted, OutlineEntry};
use pdf::file::FileOptions;
use pdf::object::{MaybeNamedDest, NumberTree, NumberTreeNode, OutlineItem, PageLabel, PlainRef, Ref, Resolve};
use pdf::primitive::Primitive;
use std::collections::HashMap;

#[derive(Debug, Default, Clone)]
pub(super) struct Structure {
    pub encrypted: bool,
    pub title: Option<String>,
    /// The outline, depth first in document order, pointing at page objects: [`Structure::outline`]
    /// numbers them once hayro has read the page tree.
    pub entries: Vec<Entry>,
    /// Label per 0-based page index.
    pub labels: Vec<Option<String>>,
    pub warnings: Vec<String>,
}

/// An outline entry as pdf-rs reads it, before its page is numbered.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub title: String,
    pub target: Target,
    pub level: u32,
}

/// Where a destination points: a page object (object number and generation), or a page number
/// written in its place (0-based in the file, 1-based here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Object(u64, u64),
    Number(u32),
}

impl Structure {
    /// The outline with each entry's page numbered: `page_of` numbers the document's page objects
    /// (1-based, in the order the page tree shows them). An entry pointing at anything else is
    /// left out.
    pub(super) fn outline(&self, page_of: &HashMap<(u64, u64), u32>) -> Vec<OutlineEntry> {
        self.entries
            .iter()
            .filter_map(|e| {
                let page = match e.target {
                    Target::Object(id, gen) => *page_of.get(&(id, gen))?,
                    Target::Number(n) => n,
                };
                Some(OutlineEntry { title: e.title.clone(), page, level: e.level })
            })
            .collect()
    }
}

/// A single-threaded object/stream cache: uncached, pdf-rs decodes an object stream again for every
/// object in it (measured: 80 % of ingestion time on a 10-K). pdf-rs's own cache needs its `cache`
/// feature (threads-oriented); this one is a `RefCell` map, fine in wasm.
struct MapCache<T>(std::cell::RefCell<HashMap<PlainRef, T>>);

impl<T> Default for MapCache<T> {
    fn default() -> Self {
        MapCache(std::cell::RefCell::new(HashMap::new()))
    }
}

impl<T: Clone> pdf::file::Cache<T> for MapCache<T> {
    fn get_or_compute(&self, key: PlainRef, compute: impl FnOnce() -> T) -> T {
        // Not holding the borrow across `compute`: resolving an object resolves others.
        let hit = self.0.try_borrow().ok().and_then(|m| m.get(&key).cloned());
        if let Some(v) = hit {
            return v;
        }
        let v = compute();
        if let Ok(mut m) = self.0.try_borrow_mut() {
            m.insert(key, v.clone());
        }
        v
    }
    fn clear(&self) {
        if let Ok(mut m) = self.0.try_borrow_mut() {
            m.clear();
        }
    }
    fn remove(&self, key: PlainRef) {
        if let Ok(mut m) = self.0.try_borrow_mut() {
            m.remove(&key);
        }
    }
}

/// Outline entries read at most (a cyclic or absurd outline must not hang ingestion).
const MAX_OUTLINE: usize = 5_000;

pub(super) fn read(bytes: &[u8]) -> Structure {
    let mut s = Structure::default();
    let opened =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_inner(bytes, &mut s)));
    if opened.is_err() {
        return unreadable();
    }
    s
}

/// What [`read`] gives for a file pdf-rs panicked on.
pub(super) fn unreadable() -> Structure {
    Structure {
        warnings: vec!["document outline and page labels could not be read".into()],
        ..Default::default()
    }
}

fn read_inner(bytes: &[u8], s: &mut Structure) {
    let file = match FileOptions::uncached()
        .cache(MapCache::default(), MapCache::default())
        .parse_options(pdf::object::ParseOptions::tolerant())
        .load(bytes)
    {
        Ok(f) => f,
        Err(e) => {
            // hayro reports unreadable files itself; only note that structure is missing.
            s.warnings
                .push(format!("outline and page labels unavailable: {}", root_cause(&e.to_string())));
            return;
        }
    };
    s.encrypted = file.trailer.encrypt_dict.is_some();
    if let Some(info) = &file.trailer.info_dict {
        s.title = info
            .title
            .as_ref()
            .map(|t| text_string(t.as_bytes()).trim().to_string())
            .filter(|t| !t.is_empty());
    }
    let resolver = file.resolver();
    let n = file.num_pages() as usize;
    let root = file.get_root();

    // Page labels (PDF 32000 §12.4.2).
    if let Some(tree) = &root.page_labels {
        let mut ranges: Vec<(i32, PageLabel)> = vec![];
        let walked = walk_numbers(tree, &resolver, &mut |k, v: &PageLabel| {
            if ranges.len() < 100_000 {
                ranges.push((k, v.clone()));
            }
        });
        if walked.is_err() {
            s.warnings.push("page labels could not be read".into());
        }
        ranges.sort_by_key(|(k, _)| *k);
        s.labels = (0..n)
            .map(|i| {
                let (start, l) = ranges.iter().rev().find(|(k, _)| *k as usize <= i)?;
                Some(label_for(l, i - *start as usize))
            })
            .collect();
    }

    // The rest is the outline's: a document without one (most filings) has no destinations to
    // name. Destinations point at page objects, numbered later from the page tree hayro walks
    // (`Structure::outline`): walking it here too cost a 10-K's second thread 7 ms.
    let Some(outlines) = &root.outlines else {
        return;
    };

    // Named destinations, for outline entries that point at a name.
    let mut named: HashMap<Vec<u8>, Target> = HashMap::new();
    if let Some(names) = &root.names {
        if let Some(dests) = &names.dests {
            let raw_dests = resolver
                .resolve(file.trailer.root.get_ref().get_inner())
                .and_then(|c| c.into_dictionary())
                .ok()
                .and_then(|c| c.get("Names").cloned())
                .and_then(|n| n.resolve(&resolver).ok())
                .and_then(|n| n.into_dictionary().ok())
                .and_then(|n| n.get("Dests").cloned());
            if raw_dests.is_some_and(|d| name_tree_is_sound(&d, &resolver)) {
                let _ = dests.walk(&resolver, &mut |k, v| {
                    if let Some(d) = v {
                        if let Some(r) = &d.page {
                            if named.len() < 200_000 {
                                named.insert(k.as_bytes().to_vec(), object(r.get_inner()));
                            }
                        }
                    }
                });
            } else {
                s.warnings.push("named destinations could not be read (the name tree loops back on itself or nests too deep)".into());
            }
        }
    }
    if let Some(dests) = &root.dests {
        for (k, v) in dests.iter() {
            if let Some(p) = dest_page(v, &resolver) {
                named.insert(k.as_str().as_bytes().to_vec(), p);
            }
        }
    }

    // Outline, depth first in document order.
    let mut stack: Vec<(Ref<OutlineItem>, u32)> = vec![];
    if let Some(first) = outlines.first {
        stack.push((first, 0));
    }
    let mut seen = std::collections::HashSet::new();
    while let Some((r, level)) = stack.pop() {
        if s.entries.len() >= MAX_OUTLINE || !seen.insert(r.get_inner()) {
            continue;
        }
        let item = match resolver.get(r) {
            Ok(i) => i,
            Err(_) => {
                s.warnings
                    .push("part of the document outline could not be read".into());
                continue;
            }
        };
        if let Some(next) = item.next {
            stack.push((next, level));
        }
        if let Some(child) = item.first {
            stack.push((child, level + 1));
        }
        let title = item
            .title
            .as_ref()
            .map(|t| clean_title(&text_string(t.as_bytes())))
            .unwrap_or_default();
        let target = match (&item.dest, &item.action) {
            (Some(d), _) => dest_page(d, &resolver).or_else(|| named_page(d, &named)),
            (None, Some(a)) => match &a.d {
                Some(MaybeNamedDest::Direct(d)) => d.page.as_ref().map(|r| object(r.get_inner())),
                Some(MaybeNamedDest::Named(n)) => named.get(n.as_bytes()).copied(),
                None => None,
            },
            _ => None,
        };
        if let (Some(target), false) = (target, title.is_empty()) {
            s.entries.push(Entry { title, target, level });
        }
    }
}

/// A PDF text string (ISO 32000-1 §7.9.2.2): UTF-16BE after its byte-order mark, UTF-8 after
/// its mark (PDF 2.0), otherwise PDFDocEncoding (Annex D) — which pdf-rs's `to_string_lossy` reads
/// as UTF-8, turning an outline's dashes (0x84, 0x85) and quotes into U+FFFD.
pub(super) fn text_string(b: &[u8]) -> String {
    if let Some(u) = b.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = u.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(u) = b.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(u).into_owned();
    }
    b.iter().filter_map(|&c| pdf_doc_char(c)).collect()
}

/// PDFDocEncoding (ISO 32000-1 Annex D.2): Latin-1 but for 0x18–0x1F and 0x80–0xA0; the three
/// undefined codes (0x7F, 0x9F, 0xAD) are dropped rather than shown as U+FFFD.
fn pdf_doc_char(c: u8) -> Option<char> {
    const LOW: [char; 8] = ['\u{02D8}', '\u{02C7}', '\u{02C6}', '\u{02D9}', '\u{02DD}', '\u{02DB}', '\u{02DA}', '\u{02DC}'];
    const HIGH: [char; 31] = [
        '\u{2022}', '\u{2020}', '\u{2021}', '\u{2026}', '\u{2014}', '\u{2013}', '\u{0192}', '\u{2044}', '\u{2039}', '\u{203A}', '\u{2212}',
        '\u{2030}', '\u{201E}', '\u{201C}', '\u{201D}', '\u{2018}', '\u{2019}', '\u{201A}', '\u{2122}', '\u{FB01}', '\u{FB02}', '\u{0141}',
        '\u{0152}', '\u{0160}', '\u{0178}', '\u{017D}', '\u{0131}', '\u{0142}', '\u{0153}', '\u{0161}', '\u{017E}',
    ];
    match c {
        0x7F | 0x9F | 0xAD => None,
        0x18..=0x1F => Some(LOW[(c - 0x18) as usize]),
        0x80..=0x9E => Some(HIGH[(c - 0x80) as usize]),
        0xA0 => Some('\u{20AC}'),
        c => Some(c as char),
    }
}

fn clean_title(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn object(r: PlainRef) -> Target {
    Target::Object(r.id, u64::from(r.gen))
}

fn dest_page(p: &Primitive, r: &impl Resolve) -> Option<Target> {
    let p = match p {
        Primitive::Reference(x) => r.resolve(*x).ok()?,
        p => p.clone(),
    };
    let p = match p {
        Primitive::Dictionary(d) => d.get("D").cloned()?,
        p => p,
    };
    let arr = p.as_array().ok()?;
    match arr.first()? {
        Primitive::Reference(x) => Some(object(*x)),
        // Remote-style destinations give a 0-based page number.
        Primitive::Integer(i) if *i >= 0 => Some(Target::Number(*i as u32 + 1)),
        _ => None,
    }
}

fn named_page(p: &Primitive, named: &HashMap<Vec<u8>, Target>) -> Option<Target> {
    match p {
        Primitive::String(s) => named.get(s.as_bytes()).copied(),
        Primitive::Name(n) => named.get(n.as_bytes()).copied(),
        _ => None,
    }
}

/// PDF 32000 §12.4.2: `/S` style, `/P` prefix, `/St` first number. pdf-rs swaps the upper/lower
/// roman and alphabetic variants of `Counter`, so this reads its names back the right way round.
fn label_for(l: &PageLabel, offset: usize) -> String {
    use pdf::object::Counter;
    let n = l.start.unwrap_or(1).max(1) + offset;
    let prefix = l
        .prefix
        .as_ref()
        .map(|p| text_string(p.as_bytes()))
        .unwrap_or_default();
    let body = match &l.style {
        None => String::new(),
        Some(Counter::Arabic) => n.to_string(),
        // pdf-rs maps "r" to RomanUpper and "R" to RomanLower.
        Some(Counter::RomanUpper) => roman(n).to_lowercase(),
        Some(Counter::RomanLower) => roman(n),
        Some(Counter::AlphaUpper) => alpha(n).to_lowercase(),
        Some(Counter::AlphaLower) => alpha(n),
    };
    format!("{prefix}{body}")
}

fn roman(mut n: usize) -> String {
    const T: [(usize, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    if n > 100_000 {
        return n.to_string();
    }
    let mut s = String::new();
    for (v, r) in T {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

fn alpha(n: usize) -> String {
    let letter = (b'A' + ((n.max(1) - 1) % 26) as u8) as char;
    std::iter::repeat_n(letter, (n.max(1) - 1) / 26 + 1)
        .take(64)
        .collect()
}

/// pdf-rs errors chain every frame they passed through ("Try at …/file.rs:801:23, caused by …",
/// thousands of lines for a deeply nested object); the user needs the last cause only.
fn root_cause(chain: &str) -> String {
    let last = chain.rsplit("caused by").map(str::trim).find(|l| !l.is_empty()).unwrap_or(chain);
    let line = last.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    line.chars().take(160).collect()
}

/// How deep a number or name tree may nest (PDF 32000 §7.9.6–7.9.7 trees are shallow; real files
/// use two or three levels).
const MAX_TREE_DEPTH: usize = 32;

/// pdf-rs's `NumberTree::walk` follows `/Kids` recursively without remembering where it has been,
/// so a tree whose kids point back at an ancestor overflows the stack — which no `catch_unwind`
/// can stop (natively the process aborts; in wasm the worker dies). Same walk, with every node
/// visited once and the depth bounded; a cycle or an overdeep tree ends the walk with an error.
fn walk_numbers(tree: &NumberTree<PageLabel>, r: &impl Resolve, f: &mut dyn FnMut(i32, &PageLabel)) -> Result<(), String> {
    type T = PageLabel;
    fn go(tree: &NumberTree<T>, r: &impl Resolve, depth: usize, seen: &mut std::collections::HashSet<PlainRef>, f: &mut dyn FnMut(i32, &T)) -> Result<(), String> {
        match &tree.node {
            NumberTreeNode::Leaf(items) => items.iter().for_each(|(k, v)| f(*k, v)),
            NumberTreeNode::Intermediate(kids) => {
                for kid in kids {
                    if depth >= MAX_TREE_DEPTH || !seen.insert(kid.get_inner()) {
                        return Err("the number tree loops back on itself or nests too deep".into());
                    }
                    let node = r.get(*kid).map_err(|e| e.to_string())?;
                    go(&node, r, depth + 1, seen, f)?;
                }
            }
        }
        Ok(())
    }
    go(tree, r, 0, &mut Default::default(), f)
}

/// The name tree `node` (a raw object) and every node under it is visited once, at most
/// `MAX_TREE_DEPTH` deep: checked before pdf-rs's `NameTree::walk`, which has the same flaw as its
/// number-tree walk (its node type is private, so the walk cannot be rewritten like
/// `walk_numbers`).
fn name_tree_is_sound(node: &Primitive, r: &impl Resolve) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(node.clone(), 0usize)];
    while let Some((n, depth)) = stack.pop() {
        let n = match n {
            Primitive::Reference(pr) => {
                if depth > MAX_TREE_DEPTH || !seen.insert(pr) {
                    return false;
                }
                match r.resolve(pr) {
                    Ok(p) => p,
                    Err(_) => continue,
                }
            }
            other => other,
        };
        let Ok(dict) = n.into_dictionary() else { continue };
        if let Some(kids) = dict.get("Kids") {
            let kids = match kids {
                Primitive::Reference(pr) if seen.insert(*pr) => r.resolve(*pr).ok(),
                Primitive::Array(_) => Some(kids.clone()),
                _ => None,
            };
            if let Some(Primitive::Array(items)) = kids {
                stack.extend(items.into_iter().map(|k| (k, depth + 1)));
            }
        }
    }
    true
}

/// Attach labels and sections to pages: a page's section is the last outline entry at or before it
/// (deepest entry wins on its own page).
pub(super) fn attach(ex: &mut Extracted, s: &Structure) {
    let mut entries: Vec<&OutlineEntry> = ex.outline.iter().collect();
    entries.sort_by_key(|e| e.page);
    for p in ex.pages.iter_mut() {
        p.label = s.labels.get(p.page as usize - 1).cloned().flatten();
        p.section = entries
            .iter()
            .filter(|e| e.page <= p.page)
            .max_by_key(|e| (e.page, e.level))
            .map(|e| e.title.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn outline_titles_are_decoded_as_pdf_text_strings() {
        assert_eq!(text_string(b"Part I \x84 Financial information"), "Part I \u{2014} Financial information");
        assert_eq!(text_string(b"Caf\xe9 \x8dquoted\x8e \xa0"), "Caf\u{e9} \u{201C}quoted\u{201D} \u{20AC}");
        assert_eq!(text_string(&[0xFE, 0xFF, 0x00, 0x49, 0x20, 0x14]), "I\u{2014}");
        assert_eq!(text_string(b"A\x9fB\xadC"), "ABC", "undefined codes are dropped");
        let mut utf8 = vec![0xEF, 0xBB, 0xBF];
        utf8.extend_from_slice("Ünïcode".as_bytes());
        assert_eq!(text_string(&utf8), "Ünïcode");
    }

    #[test]
    fn a_pdf_rs_error_chain_reads_as_its_last_cause() {
        let chain = "Try at /x/pdf-0.10.0/src/file.rs:801:23:, caused by\n  Can't parse field root, caused by\n  Max nesting depth reached";
        assert_eq!(root_cause(chain), "Max nesting depth reached");
        assert_eq!(root_cause("plain failure"), "plain failure");
    }

    #[test]
    fn roman_and_alphabetic_labels_follow_pdf_32000() {
        assert_eq!(roman(4), "IV");
        assert_eq!(roman(1994), "MCMXCIV");
        assert_eq!(alpha(1), "A");
        assert_eq!(alpha(27), "AA");
    }
}
