//! What a page's content draws, collected for reading (hayro-interpret's `Device`, PDF_NOTES.md):
//! glyphs with their Unicode, box, direction and face; horizontal and vertical rules; image boxes.
//! Marked content's `/ActualText` stands for the glyphs it marks (ISO 32000-1 §14.9.4), a stroke
//! over a filled run is emboldening, symbol-font codes read as pdftotext reads them. Capped per
//! page (issue 3 deliverable 5) so a hostile page costs bounded memory.

use crate::ingest::layout::{Glyph, Graphics};
use crate::ingest::FontFace;
use crate::ingest::budget::MAX_GLYPHS;
use std::collections::HashMap;
use hayro_interpret::font::{GlyphRun, OutlineFontData};
use hayro_interpret::hayro_cmap::BfString;
use hayro_interpret::kurbo::{Affine, BezPath, PathEl, Point, Rect, Shape, Vec2};
use hayro_interpret::{BlendMode, ClipPath, Device, DrawMode, DrawProps, Image, ImageDrawProps, SoftMask};
use hayro_syntax::object::{Array, Dict, Name, Object, String as PdfString};

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

pub(super) struct Collector {
    pub(super) glyphs: Vec<Glyph>,
    pub(super) g: Graphics,
    pub(super) overflow: bool,
    /// The page's faces (`Page::fonts`), in order of first use.
    pub(super) fonts: Vec<FontFace>,
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
    pub(super) type3_by_code: bool,
    /// What the codes of the run being read stand for (`RunMemo`).
    memo: RunMemo,
    /// hayro read the page's content to its end ([`END_OF_CONTENT`] was met).
    pub(super) read_to_end: bool,
}

/// Put after a page's content: a marked-content sequence (tag [`END_TAG`]) the collector sees only
/// if hayro reads the content to its end.
pub(super) const END_OF_CONTENT: &[u8] = b"\n/ClairEndOfContent BMC EMC\n";

const END_TAG: &[u8] = b"ClairEndOfContent";

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
    pub(super) fn new(glyphs: Vec<Glyph>) -> Self {
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
pub(super) fn type3_glyphs_named_by_code(res: &hayro_syntax::page::Resources<'_>) -> bool {
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
            .map(|t| crate::ingest::structure::text_string(t.as_bytes()));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_content_sentinel_opens_a_sequence_with_the_tag_the_collector_looks_for() {
        let text = std::str::from_utf8(END_OF_CONTENT).unwrap();
        let tag = std::str::from_utf8(END_TAG).unwrap();
        assert_eq!(text.split_whitespace().collect::<Vec<_>>(), [&format!("/{tag}")[..], "BMC", "EMC"]);
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
