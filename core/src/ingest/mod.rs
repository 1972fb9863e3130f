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
//! Layout (`layout`), tables (`table`), chunking (`chunk`) and documents (`docs`) work on values
//! already extracted and compile without the `pdf` feature, so the browser app can use them.
//!
//! Invariant: nothing here panics on PDF-derived data or hangs on it; whatever could not be read
//! becomes a line in `Extracted::warnings` and the rest of the document still comes through.

#[cfg(feature = "pdf")]
pub(crate) mod budget;
pub mod chunk;
mod docs;
mod figure;
pub mod furniture;
pub mod layout;
#[cfg(feature = "pdf")]
mod read;
#[cfg(feature = "pdf")]
mod structure;
#[cfg(feature = "pdf")]
mod sections;
#[cfg(feature = "pdf")]
mod headings;
mod ruled;
pub mod table;
pub mod consensus;
pub mod vision;

/// The version of what reading a PDF produces. A file the library stored with another version is
/// read again when it is dropped again (instead of "already in library"), so improvements reach
/// files read before them. 2: sections from a filing's Item headings and back matter. 3: footnote
/// marks read with their word (tables no longer cut by them); sections from type size.
pub const READER_VERSION: u32 = 3;

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
    /// Font size (points) of each line of `text`, for finding headings while the file is read
    /// (`headings`); not stored or exported.
    #[serde(skip)]
    pub line_sizes: Vec<f32>,
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
    read::extract(bytes, source, settings, 1, &mut |_, _| {})
}

/// As [`extract`], reading pages on up to `threads` threads (natively; the output is the same as
/// on one). The CLI uses every core (`CLAIR_THREADS` limits it); the browser worker has one thread.
#[cfg(feature = "pdf")]
pub fn extract_on_threads(
    bytes: &[u8],
    source: &str,
    settings: &crate::config::IngestSettings,
    threads: usize,
) -> Extracted {
    read::extract(bytes, source, settings, threads, &mut |_, _| {})
}

/// As [`extract`], calling `progress(done, total)` after each page (the worker reports it to the UI).
#[cfg(feature = "pdf")]
pub fn extract_with_progress(
    bytes: &[u8],
    source: &str,
    settings: &crate::config::IngestSettings,
    progress: &mut dyn FnMut(u32, u32),
) -> Extracted {
    read::extract(bytes, source, settings, 1, progress)
}

/// The `clair extract --json` contract: points, origin top-left, 1-based pages, text in reading order.
pub fn extract_json(ex: &Extracted) -> serde_json::Value {
    let pages: Vec<serde_json::Value> = ex
        .pages
        .iter()
        .map(|p| {
            serde_json::json!({
                "page": p.page,
                "width": p.width,
                "height": p.height,
                "label": p.label,
                "section": p.section,
                "text": p.text,
                "blocks": p.blocks,
                "signals": p.signals,
            })
        })
        .collect();
    serde_json::json!({
        "source": ex.source,
        "title": ex.title,
        "encrypted": ex.encrypted,
        "warnings": ex.warnings,
        "pages": pages,
    })
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
    glyphs: Vec<Glyph>,
    graphics: &layout::Graphics,
    settings: &crate::config::IngestSettings,
) -> Page {
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
    let tables = table::detect(&lay, graphics, width, height);
    let (blocks, text) =
        layout::blocks_with_tables(&lay, &tables, graphics, width, height, settings);
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(c: char, x: f32) -> Glyph {
        Glyph { c, bbox: [x, 90.0, x + 6.0, 100.0], origin: [x, 98.0], size: 10.0, dir: 0, garbled: c == '\u{FFFD}' }
    }

    #[test]
    fn an_unmapped_glyph_is_left_out_of_the_text_and_counted_in_the_signals() {
        let glyphs = vec![glyph('N', 10.0), glyph('\u{FFFD}', 16.0), glyph('o', 22.0)];
        let p = build_page(1, 200.0, 200.0, glyphs, &layout::Graphics::default(), &crate::config::IngestSettings::default());
        assert!(!p.text.contains('\u{FFFD}'), "{:?}", p.text);
        assert!(p.text.contains('N') && p.text.contains('o'), "{:?}", p.text);
        assert_eq!(p.signals.garbled_glyphs, 1);
        assert!((p.signals.garbled_share - 1.0 / 3.0).abs() < 1e-9);
    }
}
