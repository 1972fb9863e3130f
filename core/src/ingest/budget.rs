//! The per-page work budget (issue 3 deliverable 5): how much a page's content may make the
//! interpreter do, decided before it runs.
//!
//! hayro interprets a page to the end and cannot be stopped from a device, and a form XObject is
//! interpreted again every time it is drawn. A huge content stream, or ten forms each drawing the
//! next one ten times ("billion laughs" with `Do`, bounded by hayro only at 50 levels), would keep
//! the worker busy for hours. So the page is costed first: every content operator is one unit, and
//! so is every byte of a shown string (a glyph, at most); a
//! `Do` of a form costs the form's own operators (recursively, each form costed once and
//! remembered), and every form drawn also costs its decoded bytes. When the page is within
//! `max_page_operators` and `max_page_content_bytes` it is interpreted as it is; otherwise its content
//! stream is cut after the last operator that fits (annotations are then not drawn), so the page
//! keeps what was read before and gets a warning naming the setting.
//!
//! Some inputs make hayro recurse until the stack overflows, which no guard can catch in wasm:
//! inline images whose data has no clear end ([`ambiguous_image_ends`]) and functions or colour
//! spaces nested deep ([`function_nesting`]). They are found the same way, before hayro meets them,
//! and the page is cut before the operator that would (a fixed limit, not a setting).
//!
//! The renderer (`render.rs`) uses the same costing and refuses a page over budget, or one with an
//! image declared too large to decode.

use crate::config::IngestSettings;
use hayro_syntax::content::{Instruction, UntypedIter};
use hayro_syntax::object::dict::keys::{
    ANNOTS, AP, CHAR_PROCS, FORM, FUNCTION_TYPE, H, HEIGHT, IMAGE, N, PARENT, RESOURCES, SUBTYPE, TYPE3, W,
    WIDTH,
};
use hayro_syntax::object::{Array, Dict, Name, Object, ObjectIdentifier, Stream};
use hayro_syntax::page::{Page, Resources};
use std::collections::HashMap;

/// Glyphs the reader keeps of one page (`read.rs` stops collecting there: a page of a 10-K has
/// about 10,000). The budget lets through twice as many bytes of shown strings — a two-byte font's
/// glyph takes two — and cuts the page after that: hayro would otherwise run every remaining glyph
/// (a flood of millions takes seconds) only for the reader to drop it.
pub(crate) const MAX_GLYPHS: usize = 200_000;
pub(crate) const MAX_TEXT_BYTES: u64 = 2 * MAX_GLYPHS as u64;

/// hayro stops nesting forms, patterns and Type3 glyphs at this depth (`context.rs`); costing
/// stops there too.
const MAX_DEPTH: u32 = 50;

/// Glyph programs of one Type3 font looked at for inline images hayro would read over and over
/// (a font has one per glyph it draws: 256 for a one-byte font).
const MAX_GLYPH_PROGRAMS: usize = 256;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Cost {
    pub operators: u64,
    pub bytes: u64,
    /// Bytes of shown strings (each is at most one glyph; a two-byte font's glyph takes two).
    pub text_bytes: u64,
    /// Width × height of the largest image drawn, as declared. Ingestion never decodes images;
    /// the renderer does, and hayro sizes its buffers from the declared width (render.rs).
    pub largest_image: u64,
    /// Inline images of one content stream whose end hayro cannot settle without reading on
    /// ([`ambiguous_image_ends`]); over [`MAX_AMBIGUOUS_IMAGE_ENDS`] the stream is cut.
    pub ambiguous_image_ends: u64,
    /// The deepest nesting of a function or colour space the drawing may use (brace nesting in a
    /// PostScript function, or a chain of objects: [`function_nesting`]); over
    /// [`MAX_FUNCTION_NESTING`] the page is cut before it.
    pub function_nesting: u64,
}

impl Cost {
    fn add(self, o: Cost) -> Cost {
        Cost {
            operators: self.operators.saturating_add(o.operators),
            bytes: self.bytes.saturating_add(o.bytes),
            text_bytes: self.text_bytes.saturating_add(o.text_bytes),
            largest_image: self.largest_image.max(o.largest_image),
            ambiguous_image_ends: self.ambiguous_image_ends.max(o.ambiguous_image_ends),
            function_nesting: self.function_nesting.max(o.function_nesting),
        }
    }

    fn operator() -> Cost {
        Cost { operators: 1, ..Default::default() }
    }

    /// The larger of the two in every part.
    fn max(self, o: Cost) -> Cost {
        Cost {
            operators: self.operators.max(o.operators),
            bytes: self.bytes.max(o.bytes),
            text_bytes: self.text_bytes.max(o.text_bytes),
            largest_image: self.largest_image.max(o.largest_image),
            ambiguous_image_ends: self.ambiguous_image_ends.max(o.ambiguous_image_ends),
            function_nesting: self.function_nesting.max(o.function_nesting),
        }
    }

    /// `n` of these, one after another (the parts that are maxima, not sums, stay as they are).
    fn times(self, n: u64) -> Cost {
        Cost {
            operators: self.operators.saturating_mul(n),
            bytes: self.bytes.saturating_mul(n),
            text_bytes: self.text_bytes.saturating_mul(n),
            ..self
        }
    }

    /// Why a page of this cost was cut, in the words reading's warning and the renderer's refusal
    /// share, and whether a setting can lift it (the glyph cap is fixed; the budget is the user's).
    pub(crate) fn cut_reason(&self, settings: &IngestSettings) -> (String, bool) {
        if self.ambiguous_image_ends > MAX_AMBIGUOUS_IMAGE_ENDS {
            return (
                format!(
                    "more than {MAX_AMBIGUOUS_IMAGE_ENDS} inline images whose data has no clear end (an \"EI\" \
                     inside it or stray after it), which the PDF library would read over and over"
                ),
                false,
            );
        }
        if self.function_nesting > MAX_FUNCTION_NESTING {
            return (
                format!(
                    "a function or colour space nested at least {} levels deep (at most {MAX_FUNCTION_NESTING}), \
                     which the PDF library would read recursively until the stack overflows",
                    self.function_nesting
                ),
                false,
            );
        }
        if self.text_bytes > MAX_TEXT_BYTES {
            return (format!("more than {MAX_GLYPHS} glyphs (at least {} bytes of shown text)", self.text_bytes), false);
        }
        let reason = format!(
            "the page's content is beyond the per-page work budget (at least {} operators and {} bytes \
             of content; ingest.max_page_operators = {}, ingest.max_page_content_bytes = {})",
            self.operators, self.bytes, settings.max_page_operators, settings.max_page_content_bytes
        );
        (reason, true)
    }
}

/// Declared pixels of an image dictionary (an XObject's or an inline image's abbreviations).
fn image_pixels(d: &Dict<'_>) -> u64 {
    let side = |long: &[u8], short: &[u8]| d.get::<u32>(long).or_else(|| d.get::<u32>(short)).unwrap_or(0) as u64;
    side(WIDTH, W) * side(HEIGHT, H)
}

/// What the interpreter will be asked to do with one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Within budget: interpret the page as it is (content and annotations).
    Whole(Cost),
    /// Over budget: interpret the first `content_end` bytes of the decoded page content only.
    /// `cost` is what the page would have cost, as far as it was counted (at least the limit).
    Cut { content_end: usize, cost: Cost },
}

/// [`plan`] for reading text, where the size of images does not matter: a page that is within the
/// budget at a glance is not costed operator by operator (costing tokenises the whole content
/// stream once more, a fifth of the time of reading a 10-K). `Whole`'s cost is then the bound the
/// glance used, not a count.
pub(crate) fn plan_reading(page: &Page<'_>, s: &IngestSettings) -> Plan {
    if ambiguous_image_ends(page.page_stream().unwrap_or(&[])).is_some() {
        return plan(page, s);
    }
    match within_at_a_glance(page, s) {
        Some(bound) => Plan::Whole(bound),
        None => plan(page, s),
    }
}

/// XObjects a page's resources may name for its forms to be costed at a glance; a page with
/// more is costed in full (real pages name a few: a logo, a running footer, a chart).
const MAX_GLANCED_XOBJECTS: usize = 64;

/// A bound on the page's cost without reading its operators, when the bound is within the budget.
/// Every unit of the page's own cost is at least one byte of its content: an operator is a token
/// of at least one byte, a shown string byte takes at least one byte of content, and operators and
/// strings do not overlap. A form adds its own cost each time it is drawn, once per `Do`: every
/// "Do" in the content's bytes (an over-count: some may sit in a string or a name) adds the
/// costliest XObject the page's resources name, each costed in full as [`plan`] costs it (forms
/// are small; the page's content, which they are drawn from, is not tokenised). Annotation
/// appearances have no such bound, so a page with one is costed in full.
fn within_at_a_glance(page: &Page<'_>, s: &IngestSettings) -> Option<Cost> {
    let content = page.page_stream().unwrap_or(&[]);
    let len = content.len() as u64;
    if len > s.max_page_operators || len > s.max_page_content_bytes || len > MAX_TEXT_BYTES {
        return None;
    }
    let has_appearance = page
        .raw()
        .get::<Array<'_>>(ANNOTS)
        .is_some_and(|a| a.iter::<Dict<'_>>().any(|annot| annot.contains_key(AP)));
    // Type3 glyphs and tiling patterns are content streams of their own (see `Scan::operator`).
    let fonts = &page.resources().fonts;
    let has_type3 = fonts.keys().any(|k| {
        fonts.get::<Dict<'_>>(k).is_some_and(|f| f.get::<Name<'_>>(SUBTYPE).as_deref() == Some(TYPE3))
    });
    let patterns = &page.resources().patterns;
    let has_tiling = patterns.keys().any(|k| patterns.get::<Stream<'_>>(k).is_some());
    if has_appearance || has_type3 || has_tiling {
        return None;
    }
    // Functions a page's resources hold are parsed when used (see `Scan::operator`).
    let r = page.resources();
    let holders = [&r.color_spaces, &r.shadings, &r.patterns, &r.ext_g_states, &r.x_objects];
    if holders.iter().any(|d| !d.is_empty() && function_nesting(Object::Dict((*d).clone())) > MAX_FUNCTION_NESTING) {
        return None;
    }
    let own = Cost { operators: len, bytes: len, text_bytes: len, ..Default::default() };
    let draws = count(content, b"Do");
    if draws == 0 || r.x_objects.is_empty() {
        return Some(own);
    }
    if r.x_objects.len() > MAX_GLANCED_XOBJECTS {
        return None;
    }
    let limit = limit(s);
    let mut scan = Scan { limit, memo: HashMap::new(), named: HashMap::new() };
    let mut costliest = Cost::default();
    for name in r.x_objects.keys() {
        if let Some(xobject) = r.x_objects.get::<Stream<'_>>(name) {
            costliest = costliest.max(scan.form(&xobject, r, 1));
        }
    }
    let bound = own.add(costliest.times(draws));
    (!over(bound, limit)).then_some(bound)
}

/// Non-overlapping occurrences of `needle` in `data`.
fn count(data: &[u8], needle: &[u8]) -> u64 {
    let mut n = 0;
    let mut at = 0;
    while let Some(i) = find(data, at, needle) {
        n += 1;
        at = i + needle.len();
    }
    n
}

/// What a page may cost at most under the settings.
fn limit(s: &IngestSettings) -> Cost {
    Cost {
        operators: s.max_page_operators,
        bytes: s.max_page_content_bytes,
        text_bytes: MAX_TEXT_BYTES,
        largest_image: u64::MAX,
        ambiguous_image_ends: MAX_AMBIGUOUS_IMAGE_ENDS,
        function_nesting: MAX_FUNCTION_NESTING,
    }
}

/// Cost `page` and decide how much of it to interpret.
pub(crate) fn plan(page: &Page<'_>, s: &IngestSettings) -> Plan {
    plan_content(page, page.page_stream().unwrap_or(&[]), s)
}

/// [`plan`] for `content` read in place of the page's own (its stray delimiters blanked:
/// `repair.rs`).
pub(crate) fn plan_content(page: &Page<'_>, content: &[u8], s: &IngestSettings) -> Plan {
    let limit = limit(s);
    // Inline images hayro would read over and over: only what comes before them is read (and
    // costed: the scan below must not meet them either).
    let tangle = ambiguous_image_ends(content);
    let content = &content[..tangle.map_or(content.len(), |(cut, _)| cut)];
    let mut scan = Scan {
        limit,
        memo: HashMap::new(),
        named: HashMap::new(),
    };
    // The page's own decoded content counts as bytes read, and no more than the limit is scanned.
    let readable = content.len().min(usize::try_from(limit.bytes).unwrap_or(usize::MAX));
    let mut used = Cost {
        bytes: readable as u64,
        ..Default::default()
    };
    let mut end = 0usize;
    let data = &content[..readable];
    let mut ops = UntypedIter::new(data);
    while let Some(op) = ops.next() {
        let c = Cost::operator().add(scan.operator(&op, page.resources(), 1));
        let next = used.add(c);
        if over(next, limit) {
            return Plan::Cut {
                content_end: end,
                cost: next,
            };
        }
        used = next;
        if let Some(e) = operator_end(&op, data) {
            end = e;
        }
    }
    if let Some((cut, count)) = tangle {
        return Plan::Cut {
            content_end: cut,
            cost: used.add(Cost { ambiguous_image_ends: count, ..Default::default() }),
        };
    }
    if readable < content.len() {
        return Plan::Cut {
            content_end: end,
            cost: used.add(Cost {
                bytes: (content.len() - readable) as u64,
                ..Default::default()
            }),
        };
    }
    // Annotation appearances are forms too.
    if let Some(annots) = page.raw().get::<Array<'_>>(ANNOTS) {
        for annot in annots.iter::<Dict<'_>>() {
            let Some(ap) = annot.get::<Dict<'_>>(AP) else { continue };
            let mut forms: Vec<Stream<'_>> = vec![];
            if let Some(n) = ap.get::<Stream<'_>>(N) {
                forms.push(n);
            } else if let Some(states) = ap.get::<Dict<'_>>(N) {
                forms.extend(states.keys().take(64).filter_map(|k| states.get::<Stream<'_>>(k)));
            }
            for f in forms {
                used = used.add(scan.form(&f, page.resources(), 1));
                if over(used, limit) {
                    return Plan::Cut {
                        content_end: data.len(),
                        cost: used,
                    };
                }
            }
        }
    }
    Plan::Whole(used)
}

fn over(c: Cost, limit: Cost) -> bool {
    c.operators > limit.operators
        || c.bytes > limit.bytes
        || c.text_bytes > limit.text_bytes
        || c.ambiguous_image_ends > limit.ambiguous_image_ends
        || c.function_nesting > limit.function_nesting
}

/// Resources nested deeper than this ([`function_nesting`]) are not used. hayro-interpret 0.9
/// parses (and evaluates) a Type 4 function's procedures recursively, one stack frame per `{`:
/// 100,000 nested braces overflowed the stack — a crash no guard catches in wasm. Real functions
/// nest a few deep (`{ … } { … } ifelse` inside a procedure), real resources a few levels.
pub(crate) const MAX_FUNCTION_NESTING: u64 = 64;

/// Containers looked at below one resource (colour spaces, shadings, graphics states and image
/// dictionaries hold their functions a few levels down).
const MAX_FUNCTION_SEARCH: usize = 1024;

/// How deep hayro may recurse to read what `root` holds (a resource: colour space, shading,
/// pattern, graphics state, image): the deepest brace nesting of a Type 4 function below it, or
/// the longest chain of dictionaries and arrays below it, whichever is deeper. hayro reads a
/// stitching function's functions and an `/Indexed` space's base recursively, one frame per link:
/// a chain of 20,000 overflowed the stack. The chain is measured over every container (a bound
/// from above: real resources are a few levels deep), breadth-first over at most
/// [`MAX_FUNCTION_SEARCH`] containers, never following `/Parent`; 0 when `root` holds nothing.
fn function_nesting(root: Object<'_>) -> u64 {
    let mut deepest = 0u64;
    let mut queue = std::collections::VecDeque::from([(root, 0u64)]);
    let mut seen: std::collections::HashSet<ObjectIdentifier> = Default::default();
    let mut looked = 0usize;
    while let Some((o, depth)) = queue.pop_front() {
        looked += 1;
        if looked > MAX_FUNCTION_SEARCH {
            break;
        }
        deepest = deepest.max(depth);
        let below = |o: &Object<'_>| matches!(o, Object::Dict(_) | Object::Array(_) | Object::Stream(_));
        let dict = match &o {
            Object::Dict(d) => d.clone(),
            Object::Stream(st) => {
                if !seen.insert(st.obj_id()) {
                    continue;
                }
                if st.dict().get::<u32>(FUNCTION_TYPE) == Some(4) {
                    if let Ok(program) = st.decoded_data() {
                        deepest = deepest.max(depth + brace_depth(&program));
                    }
                }
                st.dict().clone()
            }
            Object::Array(a) => {
                queue.extend(a.iter::<Object<'_>>().filter(below).map(|o| (o, depth + 1)));
                continue;
            }
            _ => continue,
        };
        if dict.obj_id().is_some_and(|id| !seen.insert(id)) {
            continue;
        }
        for key in dict.keys() {
            if &*key != PARENT {
                queue.extend(dict.get::<Object<'_>>(key).filter(below).map(|o| (o, depth + 1)));
            }
        }
    }
    deepest
}

/// The deepest nesting of `{` in a PostScript program (comments skipped; Type 4 functions have
/// no strings).
fn brace_depth(program: &[u8]) -> u64 {
    let (mut depth, mut deepest, mut comment) = (0u64, 0u64, false);
    for &b in program {
        match b {
            b'\r' | b'\n' => comment = false,
            _ if comment => {}
            b'%' => comment = true,
            b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Inline images whose end may be ambiguous, at most this many to a content stream (see
/// [`ambiguous_image_ends`]): hayro's work on them is bounded by about 2^8 re-readings of a few
/// operators. No stream of the shared corpus, nor of the test files of pdfplumber, pdfminer.six,
/// PyMuPDF and pypdf on PyPI, has even one (measured 2026-12-03).
pub(crate) const MAX_AMBIGUOUS_IMAGE_ENDS: u64 = 8;

/// Where a content stream must be cut so that hayro's inline-image reader neither recurses
/// without bound nor runs for ever: the offset of the `BI` that starts the inline image with the
/// (MAX+1)-th ambiguous end, and how many ambiguous ends were counted; `None` when there are few.
///
/// hayro-syntax 0.9 (`content::read_inline_image`) ends an inline image's data at an `EI` followed
/// by white space, but when another `EI` comes after it before a new `BI` — with no byte outside a
/// string beyond ASCII in between, which would mark image data — it parses what follows as content
/// to decide, and that parse reads the inline images it meets the same way, recursively. Each such
/// ambiguous end doubles the work: a fuzzed stream of 40 took minutes and one of 6,345 overflowed
/// the stack (a crash no guard can catch in wasm). This walks the bytes as that reader does and
/// counts every `EI` it might have to settle that way (an over-count: it does not check that the
/// `EI` follows a `BI … ID`, nor parse the next image's dictionary beyond its first token).
fn ambiguous_image_ends(data: &[u8]) -> Option<(usize, u64)> {
    let first_bi = find(data, 0, b"BI")?;
    let mut count = 0u64;
    let mut at = first_bi + 2;
    while let Some(ei) = find(data, at, b"EI") {
        at = ei + 2;
        // Only an `EI` followed by white space can end the data (at the very end there is nothing
        // after it to read).
        if !data.get(ei + 2).is_some_and(|&b| is_pdf_space(b)) || !read_on_after(&data[ei + 2..]) {
            continue;
        }
        count += 1;
        if count > MAX_AMBIGUOUS_IMAGE_ENDS {
            let cut = data[..ei].windows(2).rposition(|w| w == b"BI").unwrap_or(0);
            return Some((cut, count));
        }
    }
    None
}

/// Whether hayro, having met a candidate end of an inline image's data, would parse `tail` (what
/// follows it) as content to decide: it does when another `EI` comes before both a `BI` that opens
/// an inline image dictionary and any byte outside a string beyond ASCII.
fn read_on_after(tail: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, &b) in tail.iter().enumerate() {
        if tail[i..].starts_with(b"EI") {
            return true;
        }
        if tail[i..].starts_with(b"BI") {
            let rest = &tail[i + 2..];
            let k = rest.iter().position(|&b| !is_pdf_space(b)).unwrap_or(rest.len());
            if rest[k..].starts_with(b"/") || rest[k..].starts_with(b"ID") {
                return false;
            }
        }
        if depth > 0 {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
        } else if !b.is_ascii() {
            return false;
        } else if b == b'(' {
            depth = 1;
        }
    }
    false
}

fn find(data: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    data.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

/// The end of `op` in `data`, the content it was read from: the operator name is a slice of it
/// unless escaped (then `None`).
pub(crate) fn operator_end(op: &Instruction<'_, '_>, data: &[u8]) -> Option<usize> {
    let name: &[u8] = op.operator;
    let at = (name.as_ptr() as usize).wrapping_sub(data.as_ptr() as usize);
    (at <= data.len() && at + name.len() <= data.len()).then_some(at + name.len())
}

/// PDF white space (ISO 32000-1 §7.2.2).
pub(crate) fn is_pdf_space(b: u8) -> bool {
    matches!(b, 0 | 9 | 10 | 12 | 13 | 32)
}

fn last_name<'b, 'a: 'b>(operands: impl Iterator<Item = &'b Object<'a>>) -> Option<Name<'a>> {
    operands
        .filter_map(|o| match o {
            Object::Name(n) => Some(n.clone()),
            _ => None,
        })
        .last()
}

struct Scan {
    limit: Cost,
    /// Each form costed once; a form still being costed when it is met again (a cycle) is
    /// taken as over budget, since hayro would expand it up to 50 levels deep.
    memo: HashMap<ObjectIdentifier, Option<Cost>>,
    /// The function nesting of a named resource, by (resource dictionary, operator, name): a page
    /// selects the same colour space or graphics state many times.
    named: HashMap<(usize, Vec<u8>, Vec<u8>), u64>,
}

impl Scan {
    /// What one operator adds beyond itself: a form drawn, an image's size.
    fn operator<'a>(&mut self, op: &Instruction<'_, '_>, res: &Resources<'a>, depth: u32) -> Cost {
        match &**op.operator {
            b"Do" => match last_name(op.operands()).and_then(|name| res.get_x_object(&name)) {
                Some(s) => self.form(&s, res, depth),
                None => Cost::default(),
            },
            // A Type3 font's glyphs and a tiling pattern's cell are content streams hayro reads
            // whenever a glyph is shown or the pattern painted: one it would read over and over
            // cuts the page before the operator that selects it.
            b"Tf" => match last_name(op.operands()).and_then(|name| res.get_font(&name)) {
                Some(font) if font.get::<Name<'_>>(SUBTYPE).as_deref() == Some(TYPE3) => self.type3(&font),
                _ => Cost::default(),
            },
            b"scn" | b"SCN" => match last_name(op.operands()).and_then(|name| res.get_pattern(&name)) {
                Some(Object::Stream(cell)) => self.remembered(cell.obj_id(), || {
                    let n = cell.decoded_data().ok().and_then(|d| ambiguous_image_ends(&d)).map_or(0, |(_, n)| n);
                    let nesting = function_nesting(Object::Stream(cell.clone()));
                    Cost { ambiguous_image_ends: n, function_nesting: nesting, ..Default::default() }
                }),
                Some(shading) => self.functions(res.patterns.data(), op, shading),
                None => Cost::default(),
            },
            // Functions (shadings, tint transforms, transfer functions) are parsed when the
            // resource that holds them is used.
            b"sh" => match last_name(op.operands()).and_then(|name| res.get_shading(&name)) {
                Some(shading) => self.functions(res.shadings.data(), op, shading),
                None => Cost::default(),
            },
            b"cs" | b"CS" => match last_name(op.operands()).and_then(|name| res.get_color_space(&name)) {
                Some(space) => self.functions(res.color_spaces.data(), op, space),
                None => Cost::default(),
            },
            b"gs" => match last_name(op.operands()).and_then(|name| res.get_ext_g_state(&name)) {
                Some(state) => self.functions(res.ext_g_states.data(), op, Object::Dict(state)),
                None => Cost::default(),
            },
            b"BI" => Cost {
                function_nesting: op
                    .operands()
                    .find_map(|o| match o {
                        Object::Stream(s) => Some(self.inline_image_functions(s.dict(), res)),
                        _ => None,
                    })
                    .unwrap_or(0),
                largest_image: op
                    .operands()
                    .find_map(|o| match o {
                        Object::Stream(s) => Some(image_pixels(s.dict())),
                        _ => None,
                    })
                    .unwrap_or(0),
                ..Default::default()
            },
            // Every byte of a shown string may be a glyph, and hayro does per-glyph work (font
            // lookups, transforms) whether or not the device keeps it: a glyph is an operator.
            b"Tj" | b"'" | b"\"" | b"TJ" => {
                let shown: u64 = op
                    .operands()
                    .map(|o| match o {
                        Object::String(t) => t.as_bytes().len() as u64,
                        Object::Array(a) => a
                            .iter::<hayro_syntax::object::String<'_>>()
                            .map(|t| t.as_bytes().len() as u64)
                            .sum(),
                        _ => 0,
                    })
                    .sum();
                Cost { operators: shown, text_bytes: shown, ..Default::default() }
            }
            _ => Cost::default(),
        }
    }

    /// What drawing `stream` once costs (nothing when it is not a form: images are one `Do`).
    fn form<'a>(&mut self, stream: &Stream<'a>, outer: &Resources<'a>, depth: u32) -> Cost {
        let dict = stream.dict();
        let subtype = dict.get::<Name<'_>>(SUBTYPE);
        if subtype.as_deref() == Some(IMAGE) {
            let nesting = self.remembered(stream.obj_id(), || Cost {
                function_nesting: function_nesting(Object::Stream(stream.clone())),
                ..Default::default()
            });
            return Cost { largest_image: image_pixels(dict), ..nesting };
        }
        if depth >= MAX_DEPTH || subtype.as_deref() != Some(FORM) {
            return Cost::default();
        }
        let id = stream.obj_id();
        match self.memo.get(&id) {
            Some(Some(c)) => return *c,
            Some(None) => return self.beyond(),
            None => {}
        }
        self.memo.insert(id, None);
        let Ok(data) = stream.decoded_data() else {
            self.memo.insert(id, Some(Cost::default()));
            return Cost::default();
        };
        let own = dict.get::<Dict<'_>>(RESOURCES).map(Resources::new);
        let res = own.as_ref().unwrap_or(outer);
        let mut c = Cost {
            bytes: data.len() as u64,
            ..Default::default()
        };
        // A form is drawn whole or not at all: one hayro would read over and over is not drawn.
        if let Some((_, count)) = ambiguous_image_ends(&data) {
            c.ambiguous_image_ends = count;
            self.memo.insert(id, Some(c));
            return c;
        }
        let mut ops = UntypedIter::new(&data[..]);
        while let Some(op) = ops.next() {
            c = c.add(Cost::operator()).add(self.operator(&op, res, depth + 1));
            if over(c, self.limit) {
                break;
            }
        }
        self.memo.insert(id, Some(c));
        c
    }

    /// `cost` of the object `id` once, remembered (objects met again are not costed again).
    fn remembered(&mut self, id: ObjectIdentifier, cost: impl FnOnce() -> Cost) -> Cost {
        if let Some(Some(c)) = self.memo.get(&id) {
            return *c;
        }
        let c = cost();
        self.memo.insert(id, Some(c));
        c
    }

    /// The function nesting of `resource`, which `op` names in the resource dictionary whose data
    /// is `in_dict` (remembered per name).
    fn functions(&mut self, in_dict: &[u8], op: &Instruction<'_, '_>, resource: Object<'_>) -> Cost {
        let name = last_name(op.operands()).map_or(vec![], |n| n.as_ref().to_vec());
        let key = (in_dict.as_ptr() as usize, (**op.operator).to_vec(), name);
        let nesting = *self.named.entry(key).or_insert_with(|| function_nesting(resource));
        Cost { function_nesting: nesting, ..Default::default() }
    }

    /// An inline image's colour space, given in its dictionary or named in the resources.
    fn inline_image_functions(&mut self, dict: &Dict<'_>, res: &Resources<'_>) -> u64 {
        let named = [b"CS".as_slice(), b"ColorSpace"]
            .iter()
            .find_map(|k| dict.get::<Name<'_>>(*k))
            .and_then(|n| res.get_color_space(&n));
        function_nesting(Object::Dict(dict.clone())).max(named.map_or(0, function_nesting))
    }

    /// A Type3 font's glyph programs: the most ambiguous inline-image ends one of them has.
    fn type3(&mut self, font: &Dict<'_>) -> Cost {
        let worst = |font: &Dict<'_>| {
            let procs = font.get::<Dict<'_>>(CHAR_PROCS).unwrap_or_default();
            let most = procs
                .keys()
                .take(MAX_GLYPH_PROGRAMS)
                .filter_map(|k| procs.get::<Stream<'_>>(k))
                .filter_map(|g| g.decoded_data().ok().and_then(|d| ambiguous_image_ends(&d)))
                .map(|(_, n)| n)
                .max()
                .unwrap_or(0);
            // Its glyphs draw with its own resources, functions included.
            let nesting = font.get::<Dict<'_>>(RESOURCES).map_or(0, |r| function_nesting(Object::Dict(r)));
            Cost { ambiguous_image_ends: most, function_nesting: nesting, ..Default::default() }
        };
        match font.obj_id() {
            Some(id) => self.remembered(id, || worst(font)),
            None => worst(font),
        }
    }

    fn beyond(&self) -> Cost {
        Cost {
            operators: self.limit.operators.saturating_add(1),
            bytes: self.limit.bytes.saturating_add(1),
            ..Default::default()
        }
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use hayro_syntax::Pdf;

    /// Whether reading and full costing decide alike on every page of `file` (FinanceBench), for
    /// budgets from far below to far above its pages' size; returns how many pages were settled
    /// at a glance at the default budget, and how many of those draw a form.
    fn glance_agrees_with_costing(file: &str) -> (usize, usize) {
        let path = format!("{}/../../shared/corpus/financebench/pdfs/{file}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("corpus file {path}: {e}"));
        let pdf = Pdf::new(bytes).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let (mut glanced, mut with_forms) = (0, 0);
        for limit in [500u64, 1_500, 5_000, 20_000, 2_000_000] {
            let s = IngestSettings { max_page_operators: limit, ..IngestSettings::default() };
            for (i, page) in pdf.pages().iter().enumerate() {
                let whole = |p: &Plan| matches!(p, Plan::Whole(_));
                assert_eq!(
                    whole(&plan_reading(page, &s)),
                    whole(&plan(page, &s)),
                    "{file} page {} at max_page_operators = {limit}",
                    i + 1
                );
                if limit == 2_000_000 && within_at_a_glance(page, &s).is_some() {
                    glanced += 1;
                    let content = page.page_stream().unwrap_or(&[]);
                    with_forms += usize::from(count(content, b"Do") > 0 && !page.resources().x_objects.is_empty());
                }
            }
        }
        (glanced, with_forms)
    }

    /// The glance is a bound, never a guess: on real pages, with budgets from far below to far
    /// above their size, reading decides exactly as full costing does, and the glance settles
    /// most pages of an ordinary report without costing them.
    #[test]
    fn the_glance_never_lets_through_a_page_that_costing_would_cut() {
        let (glanced, _) = glance_agrees_with_costing("AMCOR_2023Q4_EARNINGS.pdf");
        assert!(glanced >= 10, "only {glanced} of 14 pages were settled at a glance");
    }

    /// A 10-K that draws a small form on nearly every page (117 of its 120 pages have one) is
    /// settled at a glance too: its forms are costed, its pages' content is not tokenised.
    #[test]
    fn pages_that_draw_small_forms_are_settled_at_a_glance_and_never_let_through_wrongly() {
        let (glanced, with_forms) = glance_agrees_with_costing("VERIZON_2021_10K.pdf");
        assert!(glanced >= 110, "only {glanced} of 120 pages were settled at a glance");
        assert!(with_forms >= 100, "only {with_forms} pages that draw a form were settled at a glance");
    }
}
