//! Page images for the viewer: one PDF page rasterised to PNG with hayro (the same parser family
//! ingest reads glyphs with), so a citation can be shown on the page it came from.
//!
//! Coordinates: the pixmap covers `page.render_dimensions()` (points, rotation applied) scaled by
//! `scale`, origin top-left — the same space ingest writes `bbox`es in (`ingest::Page`), so a
//! viewer draws a cited box at `bbox × scale` or, scale-free, at `bbox / page_size` as fractions.

use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_syntax::Pdf;
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::{render, PixmapSettings, RenderCache, RenderSettings};

/// The largest pixmap side we produce: hayro's canvas is u16, and a huge page must not exhaust
/// the worker's memory (a 1.5× A0 poster would be ~5000 px).
pub const MAX_SIDE_PX: f32 = 4000.0;

#[derive(Debug, Clone, PartialEq)]
pub struct RenderedPage {
    pub png: Vec<u8>,
    pub width_px: u32,
    pub height_px: u32,
    /// The page in points (rotation applied): the space citation bboxes are in.
    pub page_size: (f32, f32),
    /// The scale actually used (smaller than asked when the page is huge).
    pub scale: f32,
    /// Pages in the document, for next/previous.
    pub pages: u32,
}

/// Render 1-based `page` of a PDF at `scale` pixels per point. Errors are messages a user can read.
pub fn render_page(bytes: &[u8], page: u32, scale: f32) -> Result<RenderedPage, String> {
    let pdf = Pdf::new(bytes.to_vec()).map_err(|e| format!("the PDF could not be opened for rendering ({e:?})"))?;
    render_pdf_page(&pdf, page, scale)
}

/// As `render_page`, on an already parsed document (the worker keeps it between renders).
pub fn render_pdf_page(pdf: &Pdf, page: u32, scale: f32) -> Result<RenderedPage, String> {
    let pages = pdf.pages();
    let total = pages.len() as u32;
    let Some(p) = page.checked_sub(1).and_then(|i| pages.get(i as usize)) else {
        return Err(format!("the document has {total} page(s); there is no page {page}"));
    };
    let (w, h) = p.render_dimensions();
    if !(w > 0.0 && h > 0.0) {
        return Err(format!("page {page} has no size"));
    }
    let scale = scale.clamp(0.1, 8.0).min(MAX_SIDE_PX / w.max(h));
    let cache = RenderCache::new();
    let settings = InterpreterSettings { warning_sink: std::sync::Arc::new(|_| {}), ..Default::default() };
    let pixmap_settings = PixmapSettings { x_scale: scale, y_scale: scale, bg_color: WHITE };
    let pixmap = run_guarded(|| render(p, &cache, &settings, &RenderSettings::default(), &pixmap_settings))
        .ok_or_else(|| format!("page {page} could not be drawn (the renderer gave up on its contents)"))?;
    let (width_px, height_px) = (pixmap.width() as u32, pixmap.height() as u32);
    let png = pixmap.into_png().map_err(|e| format!("page {page} could not be encoded as PNG: {e}"))?;
    Ok(RenderedPage { png, width_px, height_px, page_size: (w, h), scale, pages: total })
}

/// Natively a renderer panic costs only this image; in wasm a panic aborts whatever we do.
fn run_guarded<T>(f: impl FnOnce() -> T) -> Option<T> {
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

    fn corpus_pdf(name: &str) -> Option<Vec<u8>> {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/financebench/pdfs").join(name);
        std::fs::read(p).ok()
    }

    /// Decode the PNG header (width, height at bytes 16..24) and count non-white pixels by
    /// inflating nothing: we re-render and inspect the pixmap instead, so the test needs no decoder.
    fn png_size(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
        let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        (be(&png[16..20]), be(&png[20..24]))
    }

    #[test]
    fn cited_page_renders_at_one_and_a_half_points_per_pixel_and_is_not_blank() {
        let Some(bytes) = corpus_pdf("JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf") else {
            eprintln!("corpus not available; skipping");
            return;
        };
        let r = render_page(&bytes, 1, 1.5).expect("page 1 renders");
        let (w, h) = png_size(&r.png);
        assert_eq!((w, h), (r.width_px, r.height_px));
        // This filing is A4 (595 × 842 pt); the image is the page at 1.5 px per point.
        assert_eq!((r.page_size.0.round(), r.page_size.1.round()), (595.0, 842.0));
        assert_eq!((w, h), ((r.page_size.0 * 1.5) as u32, (r.page_size.1 * 1.5) as u32));
        assert!(r.pages >= 2, "page count reported: {}", r.pages);

        // Not blank: the page has text, so a real share of pixels is not white.
        let pdf = Pdf::new(bytes.clone()).unwrap();
        let pages = pdf.pages();
        let pm = render(
            &pages[0],
            &RenderCache::new(),
            &InterpreterSettings::default(),
            &RenderSettings::default(),
            &PixmapSettings { x_scale: 1.5, y_scale: 1.5, bg_color: WHITE },
        );
        let px = pm.data_as_u8_slice();
        let dark = px.chunks(4).filter(|c| c[0] < 160 && c[1] < 160 && c[2] < 160).count();
        let share = dark as f64 / (px.len() / 4) as f64;
        assert!(share > 0.005 && share < 0.5, "dark-pixel share {share:.4} looks like a blank or black page");
        // And the PNG is a real compressed image, not a stub.
        assert!(r.png.len() > 5_000, "png is {} bytes", r.png.len());
    }

    #[test]
    fn a_page_past_the_end_is_an_error_naming_the_page_count() {
        let Some(bytes) = corpus_pdf("AMCOR_2022_8K_dated-2022-07-01.pdf") else { return };
        let e = render_page(&bytes, 999, 1.5).unwrap_err();
        assert!(e.contains("there is no page 999"), "{e}");
        assert!(render_page(b"not a pdf", 1, 1.5).is_err());
    }
}
