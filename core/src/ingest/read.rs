//! The native reader: hayro-interpret glyphs, paths and images per page (PDF_NOTES.md), pdf-rs for
//! structure (`structure.rs`). Every page is interpreted on its own; a page that cannot be read costs
//! that page and a warning, never the document.

use super::layout::{Glyph, Graphics};
use super::{build_page, Extracted, FontFace, Page};
use std::collections::HashMap;
use crate::config::IngestSettings;
use hayro_interpret::font::{GlyphRun, OutlineFontData};
use hayro_interpret::hayro_cmap::BfString;
use hayro_interpret::kurbo::{Affine, BezPath, PathEl, Point, Rect, Shape, Vec2};
use hayro_interpret::{
    BlendMode, ClipPath, Context, Device, DrawMode, DrawProps, Image, ImageDrawProps,
    InterpreterCache, InterpreterSettings, RenderContent, SoftMask, TransformExt,
};
use hayro_syntax::content::TypedIter;
use hayro_syntax::object::{Array, Dict, MaybeRef, Name, Object, ObjectIdentifier, String as PdfString};
use hayro_syntax::Pdf;
use super::budget::Plan;

use super::budget::MAX_GLYPHS;

/// Device-side caps (issue 3 deliverable 5): glyphs (`budget::MAX_GLYPHS`) and paths beyond these
/// are not collected, so a dense page costs bounded memory and layout time. What the interpreter
/// may run at all is the per-page budget of `budget.rs` (`max_page_operators`,
/// `max_page_content_bytes`, and twice `MAX_GLYPHS` bytes of shown text).
const MAX_PATHS_KEPT: usize = 20_000;

/// Faces a page may name before the rest share the nameless one (a hostile file can make every
/// run a new font).
const MAX_FACES: usize = 1024;

/// Nested marked-content sequences tracked for `/ActualText`; deeper ones are counted, not kept.
const MAX_MARKED_DEPTH: usize = 256;

struct Collector {
    glyphs: Vec<Glyph>,
    g: Graphics,
    overflow: bool,
    /// The page's faces (`Page::fonts`), in order of first use.
    fonts: Vec<FontFace>,
    /// Face index by font program (its content hash) and emboldening.
    face_ids: HashMap<(u128, bool), u16>,
    /// Face index by the identity of a run's font program (`program_identity`) and emboldening.
    runs_seen: HashMap<(u128, bool), u16>,
    /// The last run's, as most runs follow one in the same face.
    last_run: Option<((u128, bool), u16)>,
    /// The glyphs the last filled run added (`from..to`), so a stroke over them can mark them bold.
    last_fill: (usize, usize),
    /// Marked-content sequences open on the page, innermost last: for one carrying an
    /// `/ActualText` that no enclosing sequence carries, the glyph it starts at and that text.
    marked: Vec<Option<(usize, String)>>,
    /// Sequences opened past `MAX_MARKED_DEPTH`, which are not tracked.
    marked_past_cap: usize,
    /// The page's Type 3 fonts name their glyphs by their codes (`type3_glyphs_named_by_code`).
    type3_by_code: bool,
    /// What the codes of the run being read stand for (`RunMemo`).
    memo: RunMemo,
    /// hayro read the page's content to its end ([`END_OF_CONTENT`] was met).
    read_to_end: bool,
}

/// Put after a page's content: a marked-content sequence (tag [`END_TAG`]) the collector sees only
/// if hayro reads the content to its end.
const END_OF_CONTENT: &[u8] = b"\n/ClairEndOfContent BMC EMC\n";
const END_TAG: &[u8] = b"ClairEndOfContent";

thread_local! {
    /// A page's content with [`END_OF_CONTENT`] after it: one buffer per reading thread, reused
    /// page after page (3M_2022_10K holds 110 KB of content a page).
    static WITH_END: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A glyph's text and advance, remembered within its run (issue 3, speed bar). hayro works both
/// out again for every glyph — a composite font's through CMap ranges, a simple one's through its
/// encoding and the Adobe Glyph List's hash tables — a tenth of one thread's time on Verizon's
/// 10-K (perf: `CMap::lookup_bf_string_inner`, `lookup_cid_code`, `Type0Font::code_advance` under
/// `draw_glyph_run`), where a run is a line of text showing the same codes over and over.
///
/// A run is shown in one font, so within it a code always reads the same. Across runs nothing is
/// kept: hayro exposes no identity of the font dictionary, and dictionaries that share a font
/// program (the same embedded subset, or the same substitute) still give the same code different
/// text through their own encodings and `/ToUnicode` maps (ICDAR `eu-016`'s MyriadPro subsets;
/// keyed by program, "Mar" read as "mar"). Direct-mapped by code; a new run moves `run` on.
struct RunMemo {
    run: u32,
    slots: [Memo; MEMO_SLOTS],
}

const MEMO_SLOTS: usize = 128;

/// One code's reading in a run: `text` is `None` for a glyph without Unicode (a multi-character
/// mapping is not kept: it is looked up each time).
#[derive(Clone, Copy, Default)]
struct Memo {
    run: u32,
    code: u32,
    text: Option<char>,
    advance: f64,
}

impl RunMemo {
    fn new() -> Self {
        RunMemo { run: 1, slots: [Memo::default(); MEMO_SLOTS] }
    }

    /// Start a run: what earlier runs' codes read as no longer counts.
    fn next_run(&mut self) {
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.slots = [Memo::default(); MEMO_SLOTS];
            self.run = 1;
        }
    }

    /// The glyph's text and advance (glyph units), from the memo or from hayro.
    fn read(&mut self, pg: &hayro_interpret::font::Glyph<'_>) -> (Option<BfString>, f64) {
        let code = pg.char_code();
        let slot = &mut self.slots[code as usize % MEMO_SLOTS];
        if slot.run == self.run && slot.code == code {
            return (slot.text.map(BfString::Char), slot.advance);
        }
        let advance = match pg {
            hayro_interpret::font::Glyph::Outline(g) => g.advance_width().unwrap_or(500.0),
            hayro_interpret::font::Glyph::Type3(g) => g.advance_width().unwrap_or(500.0),
        } as f64;
        let text = pg.as_unicode();
        match text {
            Some(BfString::Char(c)) => *slot = Memo { run: self.run, code, text: Some(c), advance },
            None => *slot = Memo { run: self.run, code, text: None, advance },
            Some(BfString::String(_)) => {}
        }
        (text, advance)
    }
}

impl Collector {
    /// A collector filling `glyphs` (empty; a buffer from [`GlyphPool`]).
    fn new(glyphs: Vec<Glyph>) -> Self {
        Collector {
            glyphs,
            g: Graphics::default(),
            overflow: false,
            fonts: Vec::new(),
            face_ids: HashMap::new(),
            runs_seen: HashMap::new(),
            last_run: None,
            last_fill: (0, 0),
            marked: Vec::new(),
            marked_past_cap: 0,
            type3_by_code: false,
            memo: RunMemo::new(),
            read_to_end: false,
        }
    }

    /// ISO 32000-1 §14.9.4: the glyphs a marked-content sequence with `/ActualText` drew read as
    /// that text, not as what their fonts map them to. Writers use it where a font's own mapping
    /// is wrong or partial (a ToUnicode giving `.` as ` .`, so `11,062.6` would read `11,062 .6`),
    /// and for ligatures, hyphens and decorative glyphs. The text takes the drawn glyphs' box,
    /// split evenly between its characters; an empty text removes them. A sequence that drew
    /// nothing has no place on the page and is left out.
    fn apply_actual_text(&mut self, from: usize, text: &str) {
        let Some(first) = self.glyphs.get(from).cloned() else { return };
        let drawn = &self.glyphs[from..];
        let mut b = first.bbox;
        for g in drawn.iter().filter(|g| g.dir == first.dir) {
            b = [b[0].min(g.bbox[0]), b[1].min(g.bbox[1]), b[2].max(g.bbox[2]), b[3].max(g.bbox[3])];
        }
        self.glyphs.truncate(from);
        let room = MAX_GLYPHS.saturating_sub(from);
        // Control characters are no text (writers put BEL over a space); pdftotext drops them too.
        let chars: Vec<char> = text.chars().filter(|&c| !c.is_control() || c.is_whitespace()).take(room).collect();
        let n = chars.len();
        for (k, c) in chars.into_iter().enumerate() {
            let c = fold_symbol_font_code(c);
            self.glyphs.push(Glyph { c, bbox: share_of_box(b, first.dir, n, k), garbled: is_garbage(c), ..first });
        }
        self.last_fill = (self.glyphs.len(), self.glyphs.len());
    }

    /// The index of the face a run is set in, adding it on first sight.
    fn face(&mut self, run: &GlyphRun<'_, '_>, bold: bool) -> u16 {
        let outline = run.glyphs().first().and_then(|pg| match &**pg {
            hayro_interpret::font::Glyph::Outline(g) => Some(g),
            hayro_interpret::font::Glyph::Type3(_) => None,
        });
        let Some(g) = outline else { return self.face_for(None, bold) };
        // Asking the font program for its name and style costs more than reading the run's glyphs,
        // so runs are first matched by their program's identity, which is cheap to get.
        let probe = program_identity(g).map(|id| (id, bold));
        if let (Some(k), Some((last, id))) = (probe, self.last_run) {
            if k == last {
                return id;
            }
        }
        let id = match probe.and_then(|k| self.runs_seen.get(&k)) {
            Some(id) => *id,
            None => self.face_for(g.font_data(), bold),
        };
        if let Some(k) = probe {
            if self.runs_seen.len() < 4 * MAX_FACES {
                self.runs_seen.insert(k, id);
            }
            self.last_run = Some((k, id));
        }
        id
    }

    /// The index of the face for what a font program says (`None`: nothing), adding it on first sight.
    fn face_for(&mut self, data: Option<OutlineFontData>, bold: bool) -> u16 {
        let mut key = (data.as_ref().map_or(0, |d| d.cache_key), bold);
        if let Some(&id) = self.face_ids.get(&key) {
            return id;
        }
        let mut face = match data {
            // Past the cap every new face is the nameless one (added twice more at most).
            Some(_) if self.fonts.len() >= MAX_FACES => {
                key = (0, bold);
                if let Some(&id) = self.face_ids.get(&key) {
                    return id;
                }
                FontFace::default()
            }
            Some(d) => face_of(d.postscript_name.as_deref(), d.weight, d.is_italic),
            None => FontFace::default(),
        };
        face.bold |= bold;
        let id = self.fonts.len() as u16;
        self.fonts.push(face);
        self.face_ids.insert(key, id);
        id
    }

    /// A stroke run drawn exactly over the glyphs the last fill run added is the writer's
    /// emboldening (text render mode 2, or the same text shown twice): those glyphs are bold.
    fn embolden_last_fill(&mut self, run: &GlyphRun<'_, '_>, props: &DrawProps<'_>) {
        let (from, to) = self.last_fill;
        let (Some(first), Some(pg)) = (self.glyphs.get(from).filter(|_| from < to), run.glyphs().first()) else {
            return;
        };
        let o = (props.transform * pg.transform()) * Point::ZERO;
        if (o.x as f32 - first.origin[0]).abs() > 0.01 || (o.y as f32 - first.origin[1]).abs() > 0.01 {
            return;
        }
        let bold = self.face(run, true);
        for g in self.glyphs.iter_mut().take(to).skip(from) {
            g.font = bold;
        }
        self.last_fill = (to, to);
    }

    fn rules_from_path(&mut self, path: &BezPath, t: Affine, stroked: bool) {
        if self.g.hrules.len() + self.g.vrules.len() > MAX_PATHS_KEPT {
            return;
        }
        let bb = (t * path.clone()).bounding_box();
        let (w, h) = (bb.width() as f32, bb.height() as f32);
        if !w.is_finite() || !h.is_finite() {
            return;
        }
        // A thin filled rectangle or a stroked straight segment is a rule.
        if h <= 2.5 && w >= 4.0 {
            self.g
                .hrules
                .push([((bb.y0 + bb.y1) / 2.0) as f32, bb.x0 as f32, bb.x1 as f32]);
            return;
        }
        if w <= 2.5 && h >= 4.0 {
            self.g
                .vrules
                .push([((bb.x0 + bb.x1) / 2.0) as f32, bb.y0 as f32, bb.y1 as f32]);
            return;
        }
        // Stroked polylines/rectangles: each axis-aligned segment is a rule; filled cell
        // backgrounds contribute their edges.
        let mut last = Point::ZERO;
        let mut start = Point::ZERO;
        let mut segs: Vec<(Point, Point)> = vec![];
        for el in path.elements() {
            match *el {
                PathEl::MoveTo(p) => {
                    last = t * p;
                    start = last;
                }
                PathEl::LineTo(p) => {
                    let q = t * p;
                    segs.push((last, q));
                    last = q;
                }
                PathEl::ClosePath => {
                    segs.push((last, start));
                    last = start;
                }
                PathEl::QuadTo(_, p) | PathEl::CurveTo(_, _, p) => {
                    last = t * p;
                }
            }
            if segs.len() > 64 {
                return;
            }
        }
        if !stroked && segs.len() > 5 {
            return;
        }
        for (a, b) in segs {
            let (dx, dy) = ((b.x - a.x).abs(), (b.y - a.y).abs());
            if dy < 1.0 && dx >= 4.0 {
                self.g
                    .hrules
                    .push([a.y as f32, a.x.min(b.x) as f32, a.x.max(b.x) as f32]);
            } else if dx < 1.0 && dy >= 4.0 {
                self.g
                    .vrules
                    .push([a.x as f32, a.y.min(b.y) as f32, a.y.max(b.y) as f32]);
            }
        }
    }
}

/// A cheap identity of a glyph's font program: the first 128-bit value its identifier feeds a
/// hasher (hayro-font hashes the program by its content hash, then the glyph). Only a cache key —
/// the face itself always comes from `font_data` — so if that changes, runs are just matched less.
fn program_identity(g: &hayro_interpret::font::OutlineGlyph) -> Option<u128> {
    struct First(Option<u128>);
    impl std::hash::Hasher for First {
        fn write(&mut self, _: &[u8]) {}
        fn write_u128(&mut self, v: u128) {
            self.0.get_or_insert(v);
        }
        fn finish(&self) -> u64 {
            0
        }
    }
    let mut h = First(None);
    std::hash::Hash::hash(&g.identifier(), &mut h);
    h.0
}

/// A face from what the font program says: its PostScript name without the subset tag, bold from
/// its weight class (600 and up) or its name, italic from its style or its name.
fn face_of(postscript_name: Option<&str>, weight: Option<u32>, italic: bool) -> FontFace {
    let name = postscript_name.map(|n| match n.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => rest,
        _ => n,
    });
    let lower = name.map(str::to_ascii_lowercase).unwrap_or_default();
    let named = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    FontFace {
        bold: weight.is_some_and(|w| w >= 600) || named(&["bold", "black", "heavy", "demi"]),
        italic: italic || named(&["italic", "oblique"]),
        name: name.filter(|n| !n.is_empty()).map(str::to_string),
    }
}

/// Whether every Type 3 font of the page without a ToUnicode names each glyph after its own code
/// (`/97` at code 97, `/232` at 232 — a report generator's fonts in pymupdf's `test_3186.pdf`).
/// Such names are no glyph names the Adobe Glyph List knows, so hayro gives those glyphs no
/// Unicode; pdftotext reads each code as the WinAnsi character it numbers, and so do we then. A
/// page with any other unmapped Type 3 font keeps its glyphs unmapped (counted as garbled).
fn type3_glyphs_named_by_code(res: &hayro_syntax::page::Resources<'_>) -> bool {
    let mut any = false;
    for name in res.fonts.keys().take(MAX_FACES) {
        let Some(font) = res.fonts.get::<Dict<'_>>(name.as_ref()) else { continue };
        let type3 = font.get::<Name<'_>>(b"Subtype").is_some_and(|n| n.as_ref() == b"Type3");
        if !type3 || font.contains_key(b"ToUnicode") {
            continue;
        }
        let Some(diffs) = font
            .get::<Dict<'_>>(b"Encoding")
            .and_then(|e| e.get::<Array<'_>>(b"Differences"))
        else {
            return false;
        };
        let mut code: i64 = -1;
        for o in diffs.iter::<Object<'_>>().take(512) {
            match o {
                Object::Number(n) => code = n.as_i64(),
                Object::Name(n) => {
                    if n.as_str().parse::<i64>().ok() != Some(code) {
                        return false;
                    }
                    code += 1;
                }
                _ => return false,
            }
        }
        any = true;
    }
    any
}

/// The WinAnsiEncoding character of a one-byte code (ISO 32000-1 Annex D.2); none for control
/// codes and the five codes it leaves undefined.
fn win_ansi(code: u32) -> Option<char> {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\0', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{02C6}', '\u{2030}', '\u{0160}',
        '\u{2039}', '\u{0152}', '\0', '\u{017D}', '\0', '\0', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\0', '\u{017E}', '\u{0178}',
    ];
    match code {
        0x20..=0x7E | 0xA0..=0xFF => char::from_u32(code),
        0x80..=0x9F => Some(HIGH[(code - 0x80) as usize]).filter(|&c| c != '\0'),
        _ => None,
    }
}

/// The `k`-th of `n` equal parts of a glyph box `b`, along the reading direction `dir`.
fn share_of_box(b: [f32; 4], dir: u8, n: usize, k: usize) -> [f32; 4] {
    let (n, k) = (n.max(1) as f32, k as f32);
    match dir {
        0 | 2 => {
            let w = (b[2] - b[0]) / n;
            let x0 = if dir == 0 { b[0] + w * k } else { b[2] - w * (k + 1.0) };
            [x0, b[1], x0 + w, b[3]]
        }
        _ => {
            let h = (b[3] - b[1]) / n;
            let y0 = if dir == 1 { b[1] + h * k } else { b[3] - h * (k + 1.0) };
            [b[0], y0, b[2], y0 + h]
        }
    }
}

fn glyph_dir(ex: Vec2) -> u8 {
    if ex.x.abs() >= ex.y.abs() {
        if ex.x >= 0.0 {
            0
        } else {
            2
        }
    } else if ex.y > 0.0 {
        1
    } else {
        3
    }
}

/// Symbol fonts (Wingdings, Symbol) are TrueType fonts with a (3,0) cmap, whose codes live at
/// U+F020–F0FF; many writers put those private-use values into the ToUnicode map (the checkboxes of
/// 10-K cover pages: Wingdings `<0085> <F0A8>`). pdftotext folds them back to the one-byte code
/// (`Yes x No o`); so do we, rather than drop the glyph as unmapped (`scripts/check_unicode.sh`).
fn fold_symbol_font_code(c: char) -> char {
    match c as u32 {
        u @ 0xF020..=0xF0FF => char::from_u32(u - 0xF000).unwrap_or(c),
        _ => c,
    }
}

fn is_garbage(c: char) -> bool {
    let u = c as u32;
    u < 32 && !c.is_whitespace()
        || u == 127
        || c == '\u{FFFD}'
        || (0xE000..=0xF8FF).contains(&u)
        || (0xF0000..=0x10FFFF).contains(&u)
}

impl<'a> Device<'a> for Collector {
    fn draw_path(&mut self, path: &BezPath, props: DrawProps<'a>, mode: &DrawMode) {
        if matches!(mode, DrawMode::Invisible) {
            return;
        }
        self.g.paths += 1;
        if self.g.path_boxes.len() < MAX_PATHS_KEPT {
            let bb = (props.transform * path.clone()).bounding_box();
            let (w, h) = (bb.x1 - bb.x0, bb.y1 - bb.y0);
            // Thin paths are rules (tables draw those); the chart region is made of the rest.
            if bb.x0.is_finite() && bb.y1.is_finite() && w >= 1.5 && h >= 1.5 {
                let b = [bb.x0 as f32, bb.y0 as f32, bb.x1 as f32, bb.y1 as f32];
                self.g.path_boxes.push(b);
                if matches!(mode, DrawMode::Fill(_) | DrawMode::FillAndStroke(..)) {
                    self.g.fills.push(b);
                }
            }
        }
        self.rules_from_path(path, props.transform, matches!(mode, DrawMode::Stroke(_)));
    }
    fn draw_rect(&mut self, rect: &Rect, props: DrawProps<'a>, mode: &DrawMode) {
        self.draw_path(&rect.to_path(0.1), props, mode);
    }
    fn push_clip_path(&mut self, _: &ClipPath) {}
    fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {}
    fn draw_glyph_run(&mut self, run: &GlyphRun<'_, 'a>, props: DrawProps<'a>, mode: &DrawMode) {
        // PDF_NOTES.md: stroke-only runs are the outline of text already filled (else glyphs twice).
        if matches!(mode, DrawMode::Stroke(_)) {
            self.embolden_last_fill(run, &props);
            return;
        }
        let font = self.face(run, false);
        let from = self.glyphs.len();
        self.last_fill = (from, from);
        self.memo.next_run();
        self.glyphs.reserve(run.glyphs().len().min(MAX_GLYPHS.saturating_sub(from)));
        for pg in run.glyphs() {
            if self.glyphs.len() >= MAX_GLYPHS {
                self.overflow = true;
                return;
            }
            let t = props.transform * pg.transform();
            let o = t * Point::ZERO;
            let ex = t * Point::new(1.0, 0.0) - o;
            let ey = t * Point::new(0.0, 1.0) - o;
            // Glyph space is 1000 units per em (hayro scales by 1/UNITS_PER_EM).
            // (Not `hypot`: libm's careful version is a fifth of this loop, for scales that never
            // come near overflow.)
            let size = ((ey.x * ey.x + ey.y * ey.y).sqrt() * 1000.0) as f32;
            if !size.is_finite() || !o.x.is_finite() || !o.y.is_finite() || size <= 0.0 {
                continue;
            }
            let (text, adv) = self.memo.read(pg);
            let adv = if adv.is_finite() && adv > 0.0 {
                adv
            } else {
                250.0
            };
            // Box: advance along the baseline, 0.2 em below to 0.8 em above it (fonts' own ascent and
            // descent are not exposed; this is what pdftotext-style layout needs).
            let corners = [
                o + ey * -200.0,
                o + ey * 800.0,
                o + ex * adv + ey * -200.0,
                o + ex * adv + ey * 800.0,
            ];
            let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
            for p in corners {
                b[0] = b[0].min(p.x as f32);
                b[1] = b[1].min(p.y as f32);
                b[2] = b[2].max(p.x as f32);
                b[3] = b[3].max(p.y as f32);
            }
            let dir = glyph_dir(ex);
            let origin = [o.x as f32, o.y as f32];
            let mut push = |c: char, bbox| {
                // ToUnicode `<0000>` says "no text" (writers map .notdef, drawn as a space, there):
                // nothing to read, as pdftotext has it, rather than a garbled control character.
                if c == '\0' {
                    return;
                }
                let c = fold_symbol_font_code(c);
                let garbled = is_garbage(c);
                self.glyphs.push(Glyph {
                    c,
                    bbox,
                    origin,
                    size,
                    dir,
                    garbled,
                    font,
                });
            };
            match text {
                Some(BfString::Char(c)) => push(c, b),
                Some(BfString::String(s)) => {
                    // A multi-character mapping (ligatures) splits the box between its characters.
                    let n = s.chars().count();
                    for (k, c) in s.chars().enumerate() {
                        push(c, share_of_box(b, dir, n, k));
                    }
                }
                None => match &**pg {
                    hayro_interpret::font::Glyph::Type3(_) if self.type3_by_code => {
                        push(win_ansi(pg.char_code()).unwrap_or('\u{FFFD}'), b)
                    }
                    _ => push('\u{FFFD}', b),
                },
            }
        }
        self.last_fill = (from, self.glyphs.len());
    }
    fn draw_image(&mut self, image: Image<'a, '_>, props: ImageDrawProps<'a>) {
        let (w, h) = (image.width() as f64, image.height() as f64);
        let bb = (props.transform * Rect::new(0.0, 0.0, w, h).to_path(0.1)).bounding_box();
        if bb.x0.is_finite() && bb.y1.is_finite() && self.g.images.len() < 10_000 {
            self.g
                .images
                .push([bb.x0 as f32, bb.y0 as f32, bb.x1 as f32, bb.y1 as f32]);
        }
    }
    fn pop_clip(&mut self) {}
    fn pop_transparency_group(&mut self) {}
    fn begin_marked_content(&mut self, tag: &[u8], properties: Option<&Dict<'_>>) {
        if tag == END_TAG {
            self.read_to_end = true;
        }
        if self.marked.len() >= MAX_MARKED_DEPTH {
            self.marked_past_cap += 1;
            return;
        }
        // Only the outermost ActualText counts: it already stands for everything inside it.
        let outer = self.marked.iter().any(Option::is_some);
        let actual = properties
            .filter(|_| !outer)
            .and_then(|p| p.get::<PdfString<'_>>(b"ActualText"))
            .map(|t| super::structure::text_string(t.as_bytes()));
        self.marked.push(actual.map(|t| (self.glyphs.len(), t)));
    }
    fn end_marked_content(&mut self) {
        if self.marked_past_cap > 0 {
            self.marked_past_cap -= 1;
            return;
        }
        if let Some(Some((from, text))) = self.marked.pop() {
            self.apply_actual_text(from, &text);
        }
    }
}

pub(super) fn extract(
    data: std::sync::Arc<Vec<u8>>,
    source: &str,
    settings: &IngestSettings,
    threads: usize,
    progress: &mut dyn FnMut(u32, u32),
) -> Extracted {
    // wasm32-unknown-unknown has no threads to spawn: the worker reads on its own one.
    #[cfg(target_arch = "wasm32")]
    let threads = threads.min(1);
    // hayro and pdf-rs read the same bytes, neither a copy of its own (a 10-K is megabytes).
    let bytes: &[u8] = &data;
    if threads <= 1 {
        return read_document(&data, source, settings, progress, || super::structure::read(bytes), None);
    }
    // The calling thread opens the document and then leads (`Pipeline`); the other readers are
    // started first, before it is opened: a thread started once the others run waits for a core
    // they hold (on VERIZON_2021_10K the second reader began 3–4 ms after the first). The first of
    // them reads the outline and page labels (pdf-rs) while hayro opens the file here: neither
    // needs the other until they are attached.
    let threads = threads.min(MAX_READERS);
    let ready = Ready::default();
    std::thread::scope(|scope| {
        // However this thread leaves (a panic included), the helpers are let go: one waiting for a
        // document never opened would keep the scope from ending.
        let _release = Release(&ready);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, PageRead)>();
        let mut helpers = vec![];
        for h in 1..threads {
            let (tx, ready) = (tx.clone(), &ready);
            let started = std::thread::Builder::new().name("clair-read".into()).spawn_scoped(scope, move || {
                let structure = (h == 1).then(|| super::structure::read(bytes));
                if let Some(opened) = ready.wait() {
                    read_pages(opened, false, &tx, settings, source);
                }
                structure
            });
            // A thread the OS refuses is not an error: the others (or this one) read its pages.
            match started {
                Ok(handle) => helpers.push(handle),
                Err(_) => break,
            }
        }
        let on_threads = (!helpers.is_empty()).then_some(OnThreads { ready: &ready, tx, rx });
        let first = (!helpers.is_empty()).then(|| helpers.swap_remove(0));
        let structure = move || match first {
            Some(handle) => handle.join().ok().flatten().unwrap_or_else(super::structure::unreadable),
            None => super::structure::read(bytes),
        };
        read_document(&data, source, settings, progress, structure, on_threads)
    })
}

/// Reading threads at most: they are started before the page count is known, and past a few
/// helpers the one lead's pace bounds the rest (`Pipeline`).
const MAX_READERS: usize = 8;

/// The document as the reading threads share it (`Pipeline`), once the calling thread opened it.
struct Opened {
    pdf: Pdf,
    /// `page_order`: hayro's page index for each page of the document.
    order: Vec<usize>,
    pipeline: Pipeline<Interpreted>,
    /// Every thread caches fonts and decoded objects of its own (hayro's cache is `Rc`); the font
    /// files they are built on are inflated once for all (hayro patched: vendor/PATCHES.md).
    font_files: hayro_interpret::font::SharedFontFiles,
    glyph_pool: GlyphPool,
}

/// Where helpers wait for the document: `Some` once it is open, `None` when it could not be (or
/// the thread opening it gave up).
#[derive(Default)]
struct Ready {
    opened: std::sync::OnceLock<Option<Opened>>,
    /// Taken by `open` after it sets `opened`, so a helper never misses the signal.
    signal: (std::sync::Mutex<()>, std::sync::Condvar),
}

impl Ready {
    /// Hand the document (or its absence) to the helpers; the first call decides.
    fn open(&self, opened: Option<Opened>) -> Option<&Opened> {
        let first = self.opened.get_or_init(|| opened).as_ref();
        let (lock, changed) = &self.signal;
        drop(lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        changed.notify_all();
        first
    }

    fn wait(&self) -> Option<&Opened> {
        let (lock, changed) = &self.signal;
        let mut guard = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            if let Some(opened) = self.opened.get() {
                return opened.as_ref();
            }
            guard = changed.wait(guard).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// Lets the helpers go when dropped (`extract`).
struct Release<'a>(&'a Ready);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.open(None);
    }
}

/// The calling thread's end of reading on threads: where helpers wait for the document, and the
/// channel pages come back on.
struct OnThreads<'a> {
    ready: &'a Ready,
    tx: std::sync::mpsc::Sender<(usize, PageRead)>,
    rx: std::sync::mpsc::Receiver<(usize, PageRead)>,
}

/// One reading thread's share of the pages (`Pipeline`), each sent back as it is done.
fn read_pages(o: &Opened, lead: bool, tx: &std::sync::mpsc::Sender<(usize, PageRead)>, settings: &IngestSettings, source: &str) {
    let pages = o.pdf.pages();
    let cache = InterpreterCache::with_font_files(&o.font_files);
    while let Some(job) = o.pipeline.next(lead) {
        let (i, read) = match job {
            Job::Build(i, read) => (i, build(read, &o.glyph_pool, settings, source)),
            Job::Interpret(i) => {
                match interpret_page(&o.pdf, &pages[o.order[i]], i as u32 + 1, &cache, &o.glyph_pool, settings, source) {
                    // The lead hands its pages over to be built; a helper builds its own.
                    Ok(read) if lead => {
                        o.pipeline.hand_over(i, read);
                        continue;
                    }
                    Ok(read) => (i, build(read, &o.glyph_pool, settings, source)),
                    Err(skipped) => (i, skipped),
                }
            }
        };
        if tx.send((i, read)).is_err() {
            break;
        }
    }
}

/// [`extract`] once the document's structure is being read: `structure` hands it over (waiting
/// for it when it is read on a thread of its own), and is called once. With `on_threads`, helpers
/// wait to read pages beside this thread.
fn read_document(
    data: &std::sync::Arc<Vec<u8>>,
    source: &str,
    settings: &IngestSettings,
    progress: &mut dyn FnMut(u32, u32),
    structure: impl FnOnce() -> super::structure::Structure,
    on_threads: Option<OnThreads<'_>>,
) -> Extracted {
    let mut ex = Extracted {
        source: source.to_string(),
        ..Default::default()
    };
    // The structure's warnings come first, as when it was read before the pages.
    // `page_of` numbers the page objects outline entries point at (none when no page was read).
    let take_structure = |ex: &mut Extracted, structure: super::structure::Structure, page_of: &HashMap<(u64, u64), u32>| {
        ex.encrypted |= structure.encrypted;
        ex.title = structure.title.clone();
        ex.outline = structure.outline(page_of);
        ex.warnings.splice(0..0, structure.warnings.iter().cloned());
        structure
    };

    let pdf = match Pdf::new(data.clone()) {
        Ok(p) => p,
        Err(e) => {
            if let Some(t) = &on_threads {
                t.ready.open(None);
            }
            match e {
                hayro_syntax::LoadPdfError::Decryption(e) => {
                    ex.encrypted = true;
                    ex.warnings.push(format!(
                        "{source}: the file is encrypted and does not open with an empty user password ({e:?}); \
                         remove the password and load it again"
                    ));
                }
                hayro_syntax::LoadPdfError::Invalid => ex.warnings.push(format!(
                    "{source}: not a readable PDF (no usable cross-reference table or page tree)"
                )),
            }
            take_structure(&mut ex, structure(), &HashMap::new());
            return ex;
        }
    };
    let order = page_order(&pdf);
    let total = order.len() as u32;
    let mut font_warnings = 0usize;
    let mut keep = |ex: &mut Extracted, r: PageRead| {
        ex.warnings.extend(r.warnings);
        font_warnings += usize::from(r.unmapped);
        let number = r.page.page;
        ex.pages.push(r.page);
        progress(number, total);
    };
    let opened = Opened {
        pipeline: Pipeline::new(order.len()),
        pdf,
        order,
        font_files: Default::default(),
        glyph_pool: GlyphPool::default(),
    };
    let o = match on_threads {
        // Pages are independent until the whole-document passes below, so they are read on this
        // thread and the helpers, sharing the work as `Pipeline` says; results are put back in page
        // order (the output is the same as on one thread) and progress is reported in that order.
        Some(OnThreads { ready, tx, rx }) => {
            let Some(o) = ready.open(Some(opened)) else {
                return ex;
            };
            read_pages(o, true, &tx, settings, source);
            drop(tx);
            let mut done: Vec<Option<PageRead>> = (0..o.order.len()).map(|_| None).collect();
            let mut at = 0;
            for (i, r) in rx {
                if let Some(slot) = done.get_mut(i) {
                    *slot = Some(r);
                }
                while let Some(r) = done.get_mut(at).and_then(Option::take) {
                    keep(&mut ex, r);
                    at += 1;
                }
            }
            o
        }
        None => {
            let pages = opened.pdf.pages();
            let cache = InterpreterCache::with_font_files(&opened.font_files);
            for (i, &k) in opened.order.iter().enumerate() {
                keep(&mut ex, read_page(&opened.pdf, &pages[k], i as u32 + 1, &cache, &opened.glyph_pool, settings, source));
            }
            &opened
        }
    };
    if font_warnings > 0 {
        ex.warnings.push(format!(
            "{source}: {font_warnings} page(s) have glyphs without a Unicode mapping"
        ));
    }
    // Each page object's number, the last where the tree shows one twice (as pdf-rs numbered them).
    let pages = o.pdf.pages();
    let page_of: HashMap<(u64, u64), u32> = o
        .order
        .iter()
        .enumerate()
        .filter_map(|(i, &k)| {
            let id = pages[k].raw().obj_id()?;
            Some(((u64::from(id.obj_number), u64::try_from(id.gen_number).ok()?), i as u32 + 1))
        })
        .collect();
    let structure = take_structure(&mut ex, structure(), &page_of);
    super::structure::attach(&mut ex, &structure);
    super::furniture::mark(&mut ex.pages);
    // After furniture is marked: running headers repeat item numbers without being headings.
    super::sections::attach_filing_items(&mut ex.pages);
    // A report with neither: its headings, by type size.
    super::headings::attach_typeset_headings(&mut ex.pages);
    super::tables::link_continuations(&mut ex.pages);
    super::notes::attach_carried_over(&mut ex.pages);
    ex
}

/// How pages are shared out among reading threads (issue 3, speed bar). A page is read in two
/// halves: hayro interprets it ([`interpret_page`]), and we build its layout, tables and signals
/// ([`build`]). hayro caches fonts and decoded objects per thread (its cache is `Rc`), so every
/// thread that interprets pages builds again the fonts they share (their files are inflated once,
/// vendor/PATCHES.md) and decodes again the objects — on a 10-K whose halves two threads read,
/// more work than one thread does. So one thread, the lead,
/// interprets the pages in order from the front with one warm cache and hands them over; the
/// other threads build what it hands over, and only when nothing is waiting do they interpret a
/// page themselves, the last one left, and build it. Our half is lighter than hayro's, so on two
/// cores the lead interprets most of the document and the second thread builds most of it, and
/// no thread idles while pages are left. The lead builds too when `MAX_WAITING` pages wait (their
/// glyphs are held until built) and, at the end, whatever is still waiting.
struct Pipeline<T>(std::sync::Mutex<Waiting<T>>);

/// [`Pipeline`]'s state: the pages `front..back` (indices into the document's order) are not yet
/// interpreted; `waiting` are interpreted by the lead and not yet built, in the lead's order.
struct Waiting<T> {
    front: usize,
    back: usize,
    waiting: std::collections::VecDeque<(usize, T)>,
}

/// A reading thread's next piece of work: interpret page `i` (index into the document's order), or
/// build page `i` that the lead interpreted.
enum Job<T> {
    Interpret(usize),
    Build(usize, T),
}

/// Pages the lead may leave interpreted and unbuilt before it builds one itself.
const MAX_WAITING: usize = 8;

impl<T> Pipeline<T> {
    fn new(pages: usize) -> Self {
        Pipeline(std::sync::Mutex::new(Waiting { front: 0, back: pages, waiting: Default::default() }))
    }

    /// The next job for the lead (`lead`) or for another thread; `None` when that thread is done.
    /// A helper that finds nothing to build and nothing to interpret is done: a page the lead is
    /// interpreting then is built by the lead.
    fn next(&self, lead: bool) -> Option<Job<T>> {
        let mut w = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let build_first = !lead || w.waiting.len() >= MAX_WAITING || w.front >= w.back;
        if build_first {
            if let Some((i, read)) = w.waiting.pop_front() {
                return Some(Job::Build(i, read));
            }
        }
        if w.front >= w.back {
            return None;
        }
        if lead {
            w.front += 1;
            Some(Job::Interpret(w.front - 1))
        } else {
            w.back -= 1;
            Some(Job::Interpret(w.back))
        }
    }

    /// The lead's interpreted page `i`, to be built by whichever thread comes for it first.
    fn hand_over(&self, i: usize, read: T) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).waiting.push_back((i, read));
    }
}

/// Which of hayro's pages (`pdf.pages()`) shows as each page of the document, in order. hayro
/// lists a page object once even where the page tree names it twice (pymupdf's `2.pdf` shows its
/// page 7 again as page 47), so every page after the repeat would be numbered one short of what a
/// viewer and pdftotext show, and citations and page images would point at the wrong page. The
/// tree is walked here as written (ISO 32000-1 §7.7.3.2; a cycle through its `Pages` nodes is cut);
/// when every page object it names is one hayro read, that is the order. Otherwise hayro's own
/// order stands.
pub(crate) fn page_order(pdf: &Pdf) -> Vec<usize> {
    const MAX_PAGES: usize = 100_000;
    let pages = pdf.pages();
    let own: Vec<usize> = (0..pages.len()).collect();
    let xref = pdf.xref();
    let Some(root) = xref.get::<Dict<'_>>(xref.root_id()).and_then(|c| c.get_ref(b"Pages")) else {
        return own;
    };
    let root: ObjectIdentifier = root.into();
    let mut named: Vec<ObjectIdentifier> = vec![];
    let mut seen_nodes = std::collections::HashSet::new();
    let mut stack = vec![root];
    let mut nodes_read = 0usize;
    // Depth first with kids in order: each node's kids are pushed in reverse.
    while let Some(node) = stack.pop() {
        nodes_read += 1;
        if nodes_read > MAX_PAGES || named.len() > MAX_PAGES {
            return own;
        }
        let Some(dict) = xref.get::<Dict<'_>>(node) else { continue };
        let is_node = dict.get::<Name<'_>>(b"Type").is_some_and(|t| t.as_ref() == b"Pages") && dict.contains_key(b"Kids");
        if !is_node {
            named.push(node);
            continue;
        }
        // A `Pages` node met again is a cycle (or a shared subtree): its pages are listed once.
        if !seen_nodes.insert(node) {
            continue;
        }
        let Some(kids) = dict.get::<Array<'_>>(b"Kids") else { continue };
        let mut refs = vec![];
        for kid in kids.raw_iter() {
            match kid {
                MaybeRef::Ref(r) => refs.push(ObjectIdentifier::from(r)),
                // A page written inline has no object number to match hayro's by.
                MaybeRef::NotRef(_) => return own,
            }
        }
        stack.extend(refs.into_iter().rev());
    }
    if named.len() <= pages.len() {
        return own;
    }
    let index: HashMap<ObjectIdentifier, usize> =
        (0..pages.len()).filter_map(|i| Some((pages[i].raw().obj_id()?, i))).collect();
    named.iter().map(|r| index.get(r).copied()).collect::<Option<Vec<usize>>>().unwrap_or(own)
}

/// One page as read: the page, its warnings, and whether it has glyphs without Unicode.
struct PageRead {
    page: Page,
    warnings: Vec<String>,
    unmapped: bool,
}

/// A page hayro has read, before its layout is built: what [`build`] needs, owned, so that
/// another thread can build it ([`Pipeline`]).
struct Interpreted {
    number: u32,
    width: f32,
    height: f32,
    glyphs: Vec<Glyph>,
    g: Graphics,
    fonts: Vec<FontFace>,
    warnings: Vec<String>,
    unmapped: bool,
}

/// Interpret one page within the work budget and build it (layout, tables, signals). A panic in
/// the interpreter costs this page only (natively; see [`run_page`]).
fn read_page<'a>(
    pdf: &'a Pdf,
    page: &hayro_syntax::page::Page<'a>,
    number: u32,
    cache: &InterpreterCache<'a>,
    pool: &GlyphPool,
    settings: &IngestSettings,
    source: &str,
) -> PageRead {
    match interpret_page(pdf, page, number, cache, pool, settings, source) {
        Ok(read) => build(read, pool, settings, source),
        Err(skipped) => skipped,
    }
}

/// The first half of [`read_page`]: hayro reads the page's content into glyphs and graphics. A
/// page the interpreter could not read comes back as `Err`, already a (blank) page with its warning.
fn interpret_page<'a>(
    pdf: &'a Pdf,
    page: &hayro_syntax::page::Page<'a>,
    number: u32,
    cache: &InterpreterCache<'a>,
    pool: &GlyphPool,
    settings: &IngestSettings,
    source: &str,
) -> Result<Interpreted, PageRead> {
    let (width, height) = page.render_dimensions();
    let outcome = run_page(|| {
        let context = |render_content| {
            let settings_i = InterpreterSettings {
                warning_sink: std::sync::Arc::new(|_| {}),
                render_content,
                ..Default::default()
            };
            let initial = page.initial_transform(true).to_kurbo();
            Context::new(initial, Rect::new(0.0, 0.0, width as f64, height as f64), cache, pdf.xref(), settings_i)
        };
        // The page's content (or `content` in its place), then its annotations: what
        // `interpret_page` does, with a marked-content sentinel after the content so that the
        // collector sees whether hayro read it to the end (a stray delimiter stops it: repair.rs).
        let read = |content: &[u8], plan: &Plan| {
            let mut dev = Collector::new(pool.take());
            dev.type3_by_code = type3_glyphs_named_by_code(page.resources());
            match plan {
                Plan::Whole(_) => {
                    let mut ctx = context(RenderContent::ANNOTATIONS);
                    WITH_END.with(|buf| {
                        let mut with_end = buf.borrow_mut();
                        with_end.clear();
                        with_end.extend_from_slice(content);
                        with_end.extend_from_slice(END_OF_CONTENT);
                        hayro_interpret::interpret(TypedIter::new(&with_end), page.resources(), &mut ctx, &mut dev);
                    });
                    hayro_interpret::interpret_page(page, &mut ctx, &mut dev);
                }
                Plan::Cut { content_end, .. } => {
                    let ops = TypedIter::new(&content[..(*content_end).min(content.len())]);
                    hayro_interpret::interpret(ops, page.resources(), &mut context(RenderContent::all()), &mut dev);
                    dev.read_to_end = true;
                }
            }
            dev
        };
        let own = page.page_stream().unwrap_or(&[]);
        let plan = super::budget::plan_reading(page, settings);
        let dev = read(own, &plan);
        if dev.read_to_end {
            return (dev, plan, None);
        }
        // hayro stopped part-way: read the page again with its stray delimiters blanked, costed anew
        // (costing stopped where hayro did).
        match super::repair::repair(own) {
            Some(r) => {
                let plan = super::budget::plan_content(page, &r.content, settings);
                (read(&r.content, &plan), plan, Some(r.strays))
            }
            None => (dev, plan, None),
        }
    });
    let mut warnings = vec![];
    let Some((dev, plan, strays)) = outcome else {
        warnings.push(format!("{source} page {number}: the page could not be interpreted and was skipped"));
        return Err(PageRead {
            page: Page { page: number, width, height, ..Default::default() },
            warnings,
            unmapped: false,
        });
    };
    if let Some(strays) = strays {
        let (at, byte) = strays[0];
        warnings.push(format!(
            "{source} page {number}: {} stray delimiter(s) in the page's content stream (the first, `{}`, at byte {at}), \
             where the PDF library would have stopped reading the page; they were skipped and the rest was read",
            strays.len(),
            char::from(byte)
        ));
    }
    if let Plan::Cut { cost, .. } = plan {
        let (reason, settable) = cost.cut_reason(settings);
        let rest = if settable {
            "only what comes before was read — raise those settings to read the whole page"
        } else {
            "the rest of the page was not read"
        };
        warnings.push(format!("{source} page {number}: {reason}; {rest}"));
    }
    if dev.overflow {
        warnings.push(format!(
            "{source} page {number}: more than {MAX_GLYPHS} glyphs; the rest of the page was not read"
        ));
    }
    let unmapped = dev.glyphs.iter().any(|g| g.c == '\u{FFFD}');
    let Collector { glyphs, g, fonts, .. } = dev;
    Ok(Interpreted { number, width, height, glyphs, g, fonts, warnings, unmapped })
}

/// The second half of [`read_page`]: the page's layout, tables and signals from what hayro read.
fn build(read: Interpreted, pool: &GlyphPool, settings: &IngestSettings, source: &str) -> PageRead {
    let Interpreted { number, width, height, mut glyphs, g, fonts, mut warnings, unmapped } = read;
    // Our own page building is guarded too: on a reading thread an escaped panic would take the
    // whole document (and natively the process) with it.
    let page = run_page(|| build_page(number, width, height, &mut glyphs, fonts, &g, settings)).unwrap_or_else(|| {
        warnings.push(format!("{source} page {number}: the page's layout could not be built and was skipped"));
        Page { page: number, width, height, ..Default::default() }
    });
    pool.give(glyphs);
    PageRead { page, warnings, unmapped }
}

/// Glyph buffers given back once their page is built, for the next pages to fill: a 10-K page's
/// glyphs are some 100 KB, and fresh memory for every page cost a page fault per 4 KiB of it
/// (perf, `-e page-faults`: a fifth of `clair extract`'s faults on VERIZON_2021_10K). Shared by
/// the reading threads, since the lead's pages are built on the others.
#[derive(Default)]
struct GlyphPool(std::sync::Mutex<Vec<Vec<Glyph>>>);

impl GlyphPool {
    /// Buffers kept at most, and the most glyphs a kept buffer holds (larger ones are freed).
    const KEPT: usize = 4;
    const KEPT_GLYPHS: usize = 1 << 16;

    fn take(&self) -> Vec<Glyph> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop().unwrap_or_default()
    }

    fn give(&self, mut glyphs: Vec<Glyph>) {
        if glyphs.capacity() == 0 || glyphs.capacity() > Self::KEPT_GLYPHS {
            return;
        }
        glyphs.clear();
        let mut kept = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() < Self::KEPT {
            kept.push(glyphs);
        }
    }
}

/// Natively a panic inside the interpreter costs the page (`catch_unwind`); in wasm a panic aborts
/// the instance whatever we do, which the worker's supervisor handles (issue 3 deliverable 5).
fn run_page<T>(f: impl FnOnce() -> T) -> Option<T> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
    }
    #[cfg(target_arch = "wasm32")]
    {
        Some(f())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glyph_buffer_given_back_comes_out_empty_with_its_room_and_huge_ones_are_not_kept() {
        let pool = GlyphPool::default();
        assert_eq!(pool.take().capacity(), 0, "an empty pool gives a new buffer");
        let g = Glyph { c: 'x', bbox: [0.0; 4], origin: [0.0; 2], size: 10.0, dir: 0, garbled: false, font: 0 };
        let mut used = Vec::with_capacity(3000);
        used.extend(std::iter::repeat_n(g.clone(), 2500));
        pool.give(used);
        let again = pool.take();
        assert!(again.is_empty() && again.capacity() >= 3000, "{} glyphs, room for {}", again.len(), again.capacity());
        pool.give(Vec::with_capacity(GlyphPool::KEPT_GLYPHS + 1));
        assert_eq!(pool.take().capacity(), 0, "a buffer past the cap is freed, not kept");
        for _ in 0..GlyphPool::KEPT + 2 {
            pool.give(vec![g.clone()]);
        }
        assert_eq!(pool.0.lock().unwrap().len(), GlyphPool::KEPT);
    }

    #[test]
    fn the_end_of_content_sentinel_opens_a_sequence_with_the_tag_the_collector_looks_for() {
        let text = std::str::from_utf8(END_OF_CONTENT).unwrap();
        let tag = std::str::from_utf8(END_TAG).unwrap();
        assert_eq!(text.split_whitespace().collect::<Vec<_>>(), [&format!("/{tag}")[..], "BMC", "EMC"]);
    }

    /// What a job is, for comparing: ('i', page) to interpret, ('b', page) to build.
    fn job(j: Option<Job<()>>) -> Option<(char, usize)> {
        j.map(|j| match j {
            Job::Interpret(i) => ('i', i),
            Job::Build(i, ()) => ('b', i),
        })
    }

    #[test]
    fn the_lead_interprets_from_the_front_and_the_others_build_its_pages_or_interpret_from_the_back() {
        let p = Pipeline::<()>::new(20);
        assert_eq!(job(p.next(true)), Some(('i', 0)));
        // Nothing handed over yet: a helper interprets the last page itself (and builds it).
        assert_eq!(job(p.next(false)), Some(('i', 19)));
        p.hand_over(0, ());
        assert_eq!(job(p.next(true)), Some(('i', 1)), "the lead goes on interpreting");
        p.hand_over(1, ());
        assert_eq!(job(p.next(false)), Some(('b', 0)), "a helper builds what the lead handed over, in order");
        assert_eq!(job(p.next(false)), Some(('b', 1)));
        assert_eq!(job(p.next(false)), Some(('i', 18)));
        // The lead leaves at most MAX_WAITING pages unbuilt before it builds one itself.
        for i in 2..2 + MAX_WAITING {
            assert_eq!(job(p.next(true)), Some(('i', i)));
            p.hand_over(i, ());
        }
        assert_eq!(job(p.next(true)), Some(('b', 2)));
        assert_eq!(job(p.next(true)), Some(('i', 2 + MAX_WAITING)));
        p.hand_over(2 + MAX_WAITING, ());
        // A helper builds everything waiting before it interprets again.
        let built: Vec<_> = (0..MAX_WAITING).map(|_| job(p.next(false))).collect();
        assert_eq!(built, (3..=2 + MAX_WAITING).map(|i| Some(('b', i))).collect::<Vec<_>>());
        assert_eq!(job(p.next(false)), Some(('i', 17)));
        // The lead interprets the pages between, then builds what is still waiting, and is done;
        // a helper with nothing to build and nothing to interpret is done.
        let rest: Vec<_> = std::iter::from_fn(|| {
            let j = job(p.next(true));
            if let Some(('i', i)) = j {
                p.hand_over(i, ());
            }
            j
        })
        .collect();
        let expected: Vec<_> =
            (3 + MAX_WAITING..17).map(|i| ('i', i)).chain((3 + MAX_WAITING..17).map(|i| ('b', i))).collect();
        assert_eq!(rest, expected, "every page is interpreted once and built once");
        assert_eq!(job(p.next(false)), None);
        assert_eq!(job(Pipeline::<()>::new(0).next(true)), None);
    }

    #[test]
    fn a_face_is_named_without_its_subset_tag_and_bold_or_italic_from_its_weight_or_name() {
        let f = face_of(Some("ABCDEF+Arial-BoldMT"), Some(400), false);
        assert_eq!((f.name.as_deref(), f.bold, f.italic), (Some("Arial-BoldMT"), true, false));
        let f = face_of(Some("CIDFont+F2"), Some(700), false);
        assert_eq!((f.name.as_deref(), f.bold), (Some("CIDFont+F2"), true), "not a six-capital subset tag");
        let f = face_of(Some("TimesNewRomanPS-ItalicMT"), Some(400), false);
        assert!(!f.bold && f.italic);
        let f = face_of(Some("Frutiger-Roman"), Some(500), true);
        assert!(!f.bold && f.italic, "medium is not bold; the style says italic");
        assert_eq!(face_of(None, None, false), FontFace::default());
        assert_eq!(face_of(Some(""), None, false).name, None);
    }

    #[test]
    fn symbol_font_codes_read_as_pdftotext_reads_them_and_other_private_use_stays_garbage() {
        // Wingdings checkboxes of a 10-K cover page, mapped by ToUnicode into U+F0xx.
        assert_eq!(fold_symbol_font_code('\u{F078}'), 'x');
        assert_eq!(fold_symbol_font_code('\u{F0A8}'), '\u{A8}');
        assert!(!is_garbage(fold_symbol_font_code('\u{F06F}')));
        assert!(is_garbage(fold_symbol_font_code('\u{E000}')));
        assert!(is_garbage(fold_symbol_font_code('\u{F01F}')), "a control code stays garbage");
        assert_eq!(fold_symbol_font_code('A'), 'A');
    }
}
