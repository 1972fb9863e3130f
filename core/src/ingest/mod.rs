//! Phase I ingestion (paper §3.2, spec §4): PDF → pages → positioned glyphs → words, lines, blocks in
//! reading order → tables → chunks and corpus documents with deterministic ids.
//!
//! Two parsers, each for what it does well (PDF_NOTES.md): `hayro-interpret` hands over every glyph
//! with its transform and Unicode (ToUnicode, Adobe Glyph List, CID CMaps, embedded substitutes for
//! the 14 standard fonts) and is the same interpreter the worker renders pages with, so highlight
//! boxes line up with the picture by construction; `pdf` (pdf-rs, tolerant parsing) reads what hayro
//! does not expose — the outline (section titles), `/PageLabels` (printed page numbers) and the
//! document title.
//!
//! Layout (`layout`), tables (`tables`), chunking (`chunk`) and documents (`docs`) work on values
//! already extracted and compile without the `pdf` feature, so the browser app can use them.
//!
//! Invariant: nothing here panics on PDF-derived data or hangs on it; whatever could not be read
//! becomes a line in `Extracted::warnings` and the rest of the document still comes through.

#[cfg(feature = "pdf")]
pub(crate) mod budget;
pub mod chunk;
mod docs;
pub mod furniture;
pub mod layout;
#[cfg(feature = "pdf")]
mod read;
#[cfg(feature = "pdf")]
mod repair;
#[cfg(feature = "pdf")]
pub(crate) use read::page_order;
#[cfg(feature = "pdf")]
mod structure;
#[cfg(feature = "pdf")]
mod sections;
#[cfg(feature = "pdf")]
mod headings;
pub mod tables;
pub use tables::notes;
pub mod consensus;
pub mod vision;

/// The version of what reading a PDF produces. A file the library stored with another version is
/// read again when it is dropped again (instead of "already in library"), so improvements reach
/// files read before them. 2: sections from a filing's Item headings and back matter. 3: footnote
/// marks read with their word (tables no longer cut by them); sections from type size. 4: lines
/// keep their typeface; bold headings at the text's size are sections too. 5: a bold heading set
/// close under a paragraph starts the block it heads; a list bullet opens its item; right-to-left
/// text reads in logical order. 6: marked content's `/ActualText` stands for the glyphs it marks;
/// Type 3 glyphs named after their codes read as those characters. 7: a column of running text
/// beside a table is no longer read as its row labels; a table label's marks and second line stay
/// with it beside a larger text column. 8: header rules: a heading ruled off over a group of
/// columns spans them and stays out of the cells below; header lines split where the columns do.
/// 9: a table's footnotes are read with it and go with the rows whose marks point at them.
/// 10: a page set in two columns is read a column at a time; a column headed but empty in a
/// table is a column of its own; more footnotes found (marks set apart, titled stacks).
/// 11: a ruled cell of several lines is one cell (lines with no label of their own stay in the
/// row above; a label set centred beside a cell takes all of it); a mark glued to an amount inside
/// a cell is a mark; a row label wrapped beside two ruled rows spans them; running text set in
/// boxes whose lines run on across the boxes' edges is text, not a grid.
/// 12: a line of figures set a little off its label's baseline is read in the label's row; up to
/// five short label lines in a row keep a table going.
/// 13: a running header or footer line is no table's caption (so such tables link as continued).
/// 14: a currency sign after a dot leader opens the next cell; table documents drop dot leaders;
/// a numbered title line heading the headnote or wrapped title above a table is its caption, and
/// so is the whole sentence that introduces it with a colon; boxed running text that runs on
/// across the boxes' edges into the next sentence, or from a figure, is text, and so is a box of
/// two to four gutterless lines one of which runs on.
/// 15: in such a box a line running on across an edge a word space apart counts whatever case
/// the next word opens with, and a bullet or number hung outside the box is no gutter; a label
/// line closed by a colon is neither a header row nor part of the label under it; a sentence
/// ending in a full stop right above a table is its caption whole, under its heading if any;
/// notes that run on to the top of the next page are the table's (`TableNote::page`); a line of
/// units ("(In millions)") is no caption by itself, but follows the line set over it; a
/// statement's period line follows the statement's title.
/// 16: a line right above a table that ends in a colon introduces it however long it is (prose
/// lines of more than 20 words were passed over for the line before them); a page's two columns
/// are read apart where one holds running text and the other a table under a sentence or two, and
/// a page number in the gutter no longer moves a column's left edge; column headings set up to
/// three lines over a table's first row are its headings, not a table of their own; a label line
/// ending on "of", "and", … runs on into the next line's label whatever its case; a heading
/// that starts right of every label heads the value columns it reaches, not the label column.
/// 17: groups of rows under headings of their own stay one table; a footnote mark raised near its
/// text's size stays in its row; a table longer than `chunk_target_chars` is searched in parts.
pub const READER_VERSION: u32 = 17;

use crate::corpus::BBox;
use serde::{Deserialize, Serialize};

pub use docs::documents;
pub use layout::Glyph;

/// Everything read from one PDF.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Extracted {
    pub source: String,
    pub pages: Vec<Page>,
    /// What could not be read (a page, a font, the outline …), in words a user can act on.
    pub warnings: Vec<String>,
    pub encrypted: bool,
    pub title: Option<String>,
    pub outline: Vec<OutlineEntry>,
}

/// One entry of the document outline (bookmarks), flattened in document order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutlineEntry {
    pub title: String,
    /// 1-based physical page the entry points at.
    pub page: u32,
    /// Nesting depth, 0 for top level.
    #[serde(default)]
    pub level: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// 1-based physical page number.
    pub page: u32,
    /// Size in points after `/Rotate` is applied.
    pub width: f32,
    pub height: f32,
    /// Printed page label (`/PageLabels`), e.g. "iv" or "F-3".
    pub label: Option<String>,
    /// Title of the outline entry this page falls under, or of the filing's Item heading when the
    /// PDF has no outline (`sections.rs`).
    pub section: Option<String>,
    /// The section was read from headings on the pages, not the PDF's outline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub section_from_headings: bool,
    /// Page text in reading order; blocks separated by blank lines.
    pub text: String,
    pub blocks: Vec<Block>,
    pub tables: Vec<Table>,
    pub signals: PageSignals,
    /// The typefaces the page's text is set in; a [`Span`]'s `font` indexes this list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fonts: Vec<FontFace>,
}

/// A typeface text is set in (issue 3 deliverable 1: glyph runs keep their font), as far as the
/// font program says: the interpreter exposes the name and style of TrueType, OpenType and CID
/// fonts, not of Type 1 and bare CFF fonts or the standard 14 (those read as a face without a
/// name). Text drawn filled and then stroked over itself is the writer's emboldening: `bold`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FontFace {
    /// PostScript name without the subset tag ("ArialMT", not "ABCDEF+ArialMT").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bold: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub italic: bool,
}

/// One line of a text block: where it is, its type size and its runs of one typeface.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextLine {
    /// Points, origin top-left, page rotation applied.
    pub bbox: BBox,
    /// Type size in points (the median of its words').
    pub size: f32,
    /// Words in a row set in the same face; joined by spaces they are the line's text.
    pub spans: Vec<Span>,
}

impl TextLine {
    pub fn text(&self) -> String {
        let mut s = String::new();
        for sp in &self.spans {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&sp.text);
        }
        s
    }
}

/// A text block of `lines` (text, size), each one span in face 0, for tests.
#[cfg(all(test, feature = "pdf"))]
pub(crate) fn text_block(bbox: BBox, lines: &[(&str, f32)]) -> Block {
    let lines: Vec<TextLine> = lines
        .iter()
        .map(|(t, size)| TextLine { bbox, size: *size, spans: vec![Span { text: t.to_string(), font: 0 }] })
        .collect();
    Block { kind: BlockKind::Text, bbox, text: lines.iter().map(TextLine::text).collect::<Vec<_>>().join("\n"), lines }
}

/// Words set in one face: an index into [`Page::fonts`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub text: String,
    pub font: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockKind {
    Text,
    Table,
    Image,
    Chart,
    /// Running header (`furniture`): kept in the page text, left out of prose documents.
    Header,
    /// Running footer or printed page number (`furniture`): as `Header`.
    Footer,
}

/// A region of the page in reading order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub kind: BlockKind,
    /// Points, origin top-left, page rotation applied.
    pub bbox: BBox,
    pub text: String,
    /// A text block's lines (its `text`, line by line) with their boxes, sizes and faces; empty for
    /// tables and pictures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<TextLine>,
}

/// Spec §4.1: the signals that route a page to the vision path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageSignals {
    /// Share of non-whitespace characters that are control characters, unmapped glyphs or
    /// private-use code points (§4.1 garbled test, widened to what a glyph-level reader can see).
    pub garbled_share: f64,
    /// How many glyphs that share counts: they are left out of the page text, so this is where an
    /// unmapped glyph shows (`scripts/check_unicode.sh` compares it with pdftotext's text).
    #[serde(default)]
    pub garbled_glyphs: usize,
    /// Vector drawing paths on the page (§4.1 chart signal).
    pub drawing_paths: usize,
    /// Largest share of the page area covered by one raster image (§4.1 image signal).
    pub image_area_share: f64,
    /// §4.1 step 5 negated: garbled text, a chart signal or an image signal.
    pub needs_vision: bool,
    /// Which of the three signals fired (§4.1 steps 2–4); `needs_vision` is their disjunction on a
    /// non-empty page (`vision::route_page`).
    #[serde(default)]
    pub garbled: bool,
    #[serde(default)]
    pub chart: bool,
    #[serde(default)]
    pub image: bool,
    /// The native text layer is usable (non-empty and not garbled): prose stays native (§4.1 step 7).
    #[serde(default)]
    pub text_ok: bool,
    /// Union of the page's non-rule drawings, page space: the chart's region when the vision model
    /// does not give one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawing_region: Option<BBox>,
}

/// One table cell; rows and columns are 0-based.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
    pub row_span: usize,
    pub col_span: usize,
    pub text: String,
    pub bbox: BBox,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub bbox: BBox,
    pub cells: Vec<Cell>,
    pub caption: String,
    /// The table goes on from the last table of the previous page (same columns, no caption).
    pub continues_from_previous: bool,
    pub n_rows: usize,
    pub n_cols: usize,
    /// Rows that are header rows (0-based, at the top).
    pub header_rows: usize,
    /// Found from ruling lines rather than from text alignment alone.
    pub ruled: bool,
    /// The footnotes set under the table whose marks its cells carry (`notes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<TableNote>,
}

/// A footnote of a table: its mark as cells carry it ("a" for "(a)", "1" for a raised 1, "*"), its
/// text without the mark, and where it is on the page (points, origin top-left).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableNote {
    pub mark: String,
    pub text: String,
    pub bbox: BBox,
    /// The page the note is printed on when it is not the table's: a run of notes carried over
    /// to the top of the next page (`notes::attach_carried_over`). `bbox` is on that page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
}

impl TableNote {
    /// The note as printed: "(a) As of …", "* Not meaningful", or a general note's text alone.
    pub fn printed(&self) -> String {
        if self.mark.is_empty() {
            self.text.clone()
        } else if self.mark.chars().all(char::is_alphanumeric) {
            format!("({}) {}", self.mark, self.text)
        } else {
            format!("{} {}", self.mark, self.text)
        }
    }
}

impl Table {
    /// The table as a dense grid of cell texts (spanning cells repeat only in their first slot).
    pub fn grid(&self) -> Vec<Vec<String>> {
        let mut g = vec![vec![String::new(); self.n_cols]; self.n_rows];
        for c in &self.cells {
            if let Some(slot) = g.get_mut(c.row).and_then(|r| r.get_mut(c.col)) {
                *slot = c.text.clone();
            }
        }
        g
    }
}

/// Read a PDF. Never panics and never hangs; unreadable pages become warnings.
#[cfg(feature = "pdf")]
pub fn extract(bytes: &[u8], source: &str, settings: &crate::config::IngestSettings) -> Extracted {
    read::extract(std::sync::Arc::new(bytes.to_vec()), source, settings, 1, &mut |_, _| {})
}

/// As [`extract`], reading pages on up to `threads` threads (natively; the output is the same as
/// on one). The CLI uses every core (`CLAIR_THREADS` limits it); the browser worker has one thread.
/// The file's bytes are handed over: the readers share them rather than each copying them.
#[cfg(feature = "pdf")]
pub fn extract_on_threads(
    bytes: Vec<u8>,
    source: &str,
    settings: &crate::config::IngestSettings,
    threads: usize,
) -> Extracted {
    read::extract(std::sync::Arc::new(bytes), source, settings, threads, &mut |_, _| {})
}

/// As [`extract`], calling `progress(done, total)` after each page (the worker reports it to the UI).
#[cfg(feature = "pdf")]
pub fn extract_with_progress(
    bytes: &[u8],
    source: &str,
    settings: &crate::config::IngestSettings,
    progress: &mut dyn FnMut(u32, u32),
) -> Extracted {
    read::extract(std::sync::Arc::new(bytes.to_vec()), source, settings, 1, progress)
}

/// The `clair extract --json` contract: points, origin top-left, 1-based pages, text in reading order.
/// The value is read back from the written text, so it holds the numbers a reader of the CLI's
/// output gets (an `f32` written shortest, not widened to `f64`).
pub fn extract_json(ex: &Extracted) -> serde_json::Value {
    serde_json::to_string(&ExtractJson::of(ex))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(serde_json::Value::Null)
}

/// [`extract_json`] written straight out, without building the value or the text first (the CLI's
/// path: a 10-K's blocks, lines and spans are megabytes of JSON).
pub fn write_extract_json(ex: &Extracted, out: impl std::io::Write) -> Result<(), String> {
    serde_json::to_writer(out, &ExtractJson::of(ex)).map_err(|e| e.to_string())
}

/// What `clair extract --json` prints, borrowed from the extraction.
#[derive(Serialize)]
struct ExtractJson<'a> {
    source: &'a str,
    title: &'a Option<String>,
    encrypted: bool,
    warnings: &'a [String],
    pages: Vec<PageJson<'a>>,
}

#[derive(Serialize)]
struct PageJson<'a> {
    page: u32,
    width: f32,
    height: f32,
    label: &'a Option<String>,
    section: &'a Option<String>,
    text: &'a str,
    blocks: &'a [Block],
    #[serde(skip_serializing_if = "<[FontFace]>::is_empty")]
    fonts: &'a [FontFace],
    signals: &'a PageSignals,
}

impl<'a> ExtractJson<'a> {
    fn of(ex: &'a Extracted) -> Self {
        ExtractJson {
            source: &ex.source,
            title: &ex.title,
            encrypted: ex.encrypted,
            warnings: &ex.warnings,
            pages: ex
                .pages
                .iter()
                .map(|p| PageJson {
                    page: p.page,
                    width: p.width,
                    height: p.height,
                    label: &p.label,
                    section: &p.section,
                    text: &p.text,
                    blocks: &p.blocks,
                    fonts: &p.fonts,
                    signals: &p.signals,
                })
                .collect(),
        }
    }
}

/// The `clair tables --json` contract (0-based rows/cols, points, origin top-left).
pub fn tables_json(ex: &Extracted) -> serde_json::Value {
    let mut tables = vec![];
    for p in &ex.pages {
        for t in &p.tables {
            let cells: Vec<serde_json::Value> = t
                .cells
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "row": c.row, "col": c.col, "row_span": c.row_span, "col_span": c.col_span,
                        "text": c.text, "bbox": c.bbox,
                    })
                })
                .collect();
            tables.push(serde_json::json!({
                "page": p.page,
                "bbox": t.bbox,
                "caption": t.caption,
                "continues_from_previous": t.continues_from_previous,
                "header_rows": t.header_rows,
                "cells": cells,
                "notes": t.notes,
            }));
        }
    }
    serde_json::json!({ "source": ex.source, "tables": tables })
}

/// Turn glyphs and drawing facts of one page into a [`Page`] (layout, tables, signals). Shared by the
/// native reader and any other glyph source.
pub fn build_page(
    number: u32,
    width: f32,
    height: f32,
    glyphs: &mut Vec<Glyph>,
    fonts: Vec<FontFace>,
    graphics: &layout::Graphics,
    settings: &crate::config::IngestSettings,
) -> Page {
    // Text set wholly off the page is never seen (a viewer shows the page box only), so it is not
    // the page's text either: pdftotext leaves it out too.
    glyphs.retain(|g| g.bbox[2] > -1.0 && g.bbox[0] < width + 1.0 && g.bbox[3] > -1.0 && g.bbox[1] < height + 1.0);
    let garbled = glyphs.iter().filter(|g| g.garbled).count();
    let visible = glyphs
        .iter()
        .filter(|g| g.garbled || !g.c.is_whitespace())
        .count();
    let garbled_share = if visible == 0 {
        0.0
    } else {
        garbled as f64 / visible as f64
    };
    let area = (width as f64 * height as f64).max(1.0);
    let image_area_share = graphics
        .images
        .iter()
        .map(|b| {
            let x0 = b[0].max(0.0);
            let y0 = b[1].max(0.0);
            let x1 = b[2].min(width);
            let y1 = b[3].min(height);
            ((x1 - x0).max(0.0) as f64 * (y1 - y0).max(0.0) as f64) / area
        })
        .fold(0.0, f64::max);
    let lay = layout::lay_out(glyphs, width, height);
    let tables = tables::detect(&lay, graphics, width, height);
    let (blocks, text) =
        layout::blocks_with_tables(&lay, &tables, &fonts, graphics, width, height, settings);
    let mut tables = tables;
    notes::attach(&mut tables, &blocks);
    let route = vision::route_page(
        &vision::PageFacts {
            has_text: !text.trim().is_empty(),
            garbled_share,
            drawing_paths: graphics.paths,
            image_area_share,
            has_images: !graphics.images.is_empty(),
        },
        settings,
    );
    // A chart pasted as an image is that image (the largest one, when it trips the image signal);
    // a chart drawn as vector paths is where the non-rule paths are.
    let largest_image = graphics
        .images
        .iter()
        .copied()
        .max_by(|a, b| ((a[2] - a[0]) * (a[3] - a[1])).total_cmp(&((b[2] - b[0]) * (b[3] - b[1]))));
    let drawing_region = match largest_image {
        Some(img) if route.image => vision::drawing_region(&[img], width, height),
        _ => None,
    }
    .or_else(|| vision::drawing_region(&graphics.path_boxes, width, height));
    Page {
        page: number,
        width,
        height,
        label: None,
        section: None,
        section_from_headings: false,
        text,
        blocks,
        tables,
        signals: PageSignals {
            garbled_share,
            garbled_glyphs: garbled,
            drawing_paths: graphics.paths,
            image_area_share,
            needs_vision: route.needs_vision(),
            garbled: route.garbled,
            chart: route.chart,
            image: route.image,
            text_ok: route.text_ok,
            drawing_region,
        },
        fonts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(c: char, x: f32) -> Glyph {
        Glyph { c, bbox: [x, 90.0, x + 6.0, 100.0], origin: [x, 98.0], size: 10.0, dir: 0, garbled: c == '\u{FFFD}', font: 0 }
    }

    #[test]
    fn an_unmapped_glyph_is_left_out_of_the_text_and_counted_in_the_signals() {
        let mut glyphs = vec![glyph('N', 10.0), glyph('\u{FFFD}', 16.0), glyph('o', 22.0)];
        let p = build_page(1, 200.0, 200.0, &mut glyphs, vec![FontFace::default()], &layout::Graphics::default(), &crate::config::IngestSettings::default());
        assert!(!p.text.contains('\u{FFFD}'), "{:?}", p.text);
        assert!(p.text.contains('N') && p.text.contains('o'), "{:?}", p.text);
        assert_eq!(p.signals.garbled_glyphs, 1);
        assert!((p.signals.garbled_share - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn text_set_off_the_page_is_not_its_text() {
        // "In" on the page, "Out" beyond its right edge, "Up" above its top (a writer's hidden
        // label: ImageMagick sets "Background" above a 4-point page).
        let mut glyphs = vec![glyph('I', 10.0), glyph('n', 16.0), glyph('O', 210.0), glyph('u', 216.0), glyph('t', 222.0)];
        glyphs.extend([glyph('U', 60.0), glyph('p', 66.0)].map(|g| Glyph { bbox: [g.bbox[0], -40.0, g.bbox[2], -30.0], origin: [g.origin[0], -32.0], ..g }));
        let p = build_page(1, 200.0, 200.0, &mut glyphs, vec![FontFace::default()], &layout::Graphics::default(), &crate::config::IngestSettings::default());
        assert_eq!(p.text, "In");
    }
}
