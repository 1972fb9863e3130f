//! Page images for the viewer: one PDF page rasterised to PNG with hayro (the same parser family
//! ingest reads glyphs with), so a citation can be shown on the page it came from.
//!
//! Coordinates: the pixmap covers `page.render_dimensions()` (points, rotation applied) scaled by
//! `scale`, origin top-left — the same space ingest writes `bbox`es in (`ingest::Page`), so a
//! viewer draws a cited box at `bbox × scale` or, scale-free, at `bbox / page_size` as fractions.

use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_syntax::Pdf;
use crate::corpus::BBox;
use crate::config::IngestSettings;
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::vello_cpu::color::PremulRgba8;
use hayro::vello_cpu::Pixmap;
use hayro::{render, PixmapSettings, RenderCache, RenderSettings};

/// The largest pixmap side we produce: hayro's canvas is u16, and a huge page must not exhaust
/// the worker's memory (a 1.5× A0 poster would be ~5000 px).
pub const MAX_SIDE_PX: f32 = 4000.0;

/// The largest image (declared width × height) a page may draw: hayro sizes its decode buffers
/// from the declared width before looking at the data, so `/Width 4294967295` on a 10-byte image
/// asks for gigabytes and aborts the process (found by tests/fuzz_ingest.rs). 2²⁸ pixels is a
/// 16,000 × 16,000 scan; the corpus' largest image is far below.
pub const MAX_IMAGE_PIXELS: u64 = 1 << 28;

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
/// `budget`: the user's ingestion settings, whose per-page work budget (`max_page_operators`,
/// `max_page_content_bytes`) bounds drawing as it bounds reading — a page the user raised the
/// budget to read is drawn too, and one reading had to cut is refused rather than drawn for hours.
pub fn render_page(bytes: &[u8], page: u32, scale: f32, budget: &IngestSettings) -> Result<RenderedPage, String> {
    let pdf = Pdf::new(bytes.to_vec()).map_err(|e| format!("the PDF could not be opened for rendering ({e:?})"))?;
    render_pdf_page(&pdf, page, scale, budget)
}

/// As `render_page`, on an already parsed document (the worker keeps it between renders).
pub fn render_pdf_page(pdf: &Pdf, page: u32, scale: f32, budget: &IngestSettings) -> Result<RenderedPage, String> {
    let (pixmap, page_size, scale, pages) = pixmap_of(pdf, page, scale, budget)?;
    let (width_px, height_px) = (pixmap.width() as u32, pixmap.height() as u32);
    let png = pixmap.into_png().map_err(|e| format!("page {page} could not be encoded as PNG: {e}"))?;
    Ok(RenderedPage { png, width_px, height_px, page_size, scale, pages })
}

/// A cited region on its own (issue 6 deliverable 7: the offline report embeds these): the page
/// rendered at `scale`, cut to `bbox` (points, top-left origin, as citations carry them) widened
/// by `margin` points of context, with the region outlined. `page_size` of the result is the
/// crop's size in points.
pub fn render_pdf_crop(pdf: &Pdf, page: u32, bbox: BBox, scale: f32, margin: f32, budget: &IngestSettings) -> Result<RenderedPage, String> {
    let (full, (w, h), scale, pages) = pixmap_of(pdf, page, scale, budget)?;
    let valid = bbox.iter().all(|v| v.is_finite()) && bbox[2] > bbox[0] && bbox[3] > bbox[1];
    if !valid || bbox[0] >= w || bbox[1] >= h || bbox[2] <= 0.0 || bbox[3] <= 0.0 {
        return Err(format!("the region {bbox:?} is not on page {page}"));
    }
    let px = |v: f32, max: u16| ((v * scale).round().max(0.0) as u32).min(max as u32) as u16;
    let (x0, y0) = (px(bbox[0] - margin, full.width()), px(bbox[1] - margin, full.height()));
    let (x1, y1) = (px(bbox[2] + margin, full.width()), px(bbox[3] + margin, full.height()));
    let (cw, ch) = (x1.saturating_sub(x0).max(1), y1.saturating_sub(y0).max(1));
    let mut crop = Pixmap::new(cw, ch);
    for y in 0..ch {
        for x in 0..cw {
            crop.set_pixel(x, y, full.sample((x0 + x).min(full.width() - 1), (y0 + y).min(full.height() - 1)));
        }
    }
    // The outline: 2 px just outside the region, in the viewer's highlight colour.
    let ink = PremulRgba8 { r: 214, g: 150, b: 0, a: 255 };
    let (rx0, ry0) = (px(bbox[0], full.width()).saturating_sub(x0) as i32 - 2, px(bbox[1], full.height()).saturating_sub(y0) as i32 - 2);
    let (rx1, ry1) = (px(bbox[2], full.width()).saturating_sub(x0) as i32 + 1, px(bbox[3], full.height()).saturating_sub(y0) as i32 + 1);
    let mut dot = |x: i32, y: i32| {
        if x >= 0 && y >= 0 && (x as u16) < cw && (y as u16) < ch {
            crop.set_pixel(x as u16, y as u16, ink);
        }
    };
    for t in 0..2 {
        for x in rx0..=rx1 {
            dot(x, ry0 + t);
            dot(x, ry1 - t);
        }
        for y in ry0..=ry1 {
            dot(rx0 + t, y);
            dot(rx1 - t, y);
        }
    }
    let png = crop.into_png().map_err(|e| format!("page {page} could not be encoded as PNG: {e}"))?;
    Ok(RenderedPage { png, width_px: cw as u32, height_px: ch as u32, page_size: (cw as f32 / scale, ch as f32 / scale), scale, pages })
}

/// Page `page` rasterised: the pixmap, the page size in points, the scale used, the page count.
fn pixmap_of(pdf: &Pdf, page: u32, scale: f32, budget: &IngestSettings) -> Result<(Pixmap, (f32, f32), f32, u32), String> {
    let pages = pdf.pages();
    // Numbered as ingestion numbers them (a page the tree repeats counts each time).
    let order = crate::ingest::page_order(pdf);
    let total = order.len() as u32;
    let Some(p) = page.checked_sub(1).and_then(|i| order.get(i as usize)).and_then(|&k| pages.get(k)) else {
        return Err(format!("the document has {total} page(s); there is no page {page}"));
    };
    let (w, h) = p.render_dimensions();
    if !(w > 0.0 && h > 0.0) {
        return Err(format!("page {page} has no size"));
    }
    // The per-page work budget of ingestion (ingest/budget.rs): a page reading had to cut would
    // keep the renderer busy as long.
    match crate::ingest::budget::plan(p, budget) {
        crate::ingest::budget::Plan::Cut { cost, .. } => {
            let (reason, settable) = cost.cut_reason(budget);
            let raise = if settable { "; raise ingest.max_page_operators and ingest.max_page_content_bytes in Settings to draw it" } else { "" };
            return Err(format!("page {page} is too complex to draw: {reason}{raise}"));
        }
        crate::ingest::budget::Plan::Whole(cost) if cost.largest_image > MAX_IMAGE_PIXELS => {
            return Err(format!(
                "page {page} could not be drawn: it has an image declared {} pixels large (at most {MAX_IMAGE_PIXELS})",
                cost.largest_image
            ))
        }
        _ => {}
    }
    let scale = scale.clamp(0.1, 8.0).min(MAX_SIDE_PX / w.max(h));
    let cache = RenderCache::new();
    let settings = InterpreterSettings { warning_sink: std::sync::Arc::new(|_| {}), ..Default::default() };
    let pixmap_settings = PixmapSettings { x_scale: scale, y_scale: scale, bg_color: WHITE };
    let pixmap = run_guarded(|| render(p, &cache, &settings, &RenderSettings::default(), &pixmap_settings))
        .ok_or_else(|| format!("page {page} could not be drawn (the renderer gave up on its contents)"))?;
    if pixmap.width() == 0 || pixmap.height() == 0 {
        return Err(format!("page {page} rendered to an empty image"));
    }
    Ok((pixmap, (w, h), scale, total))
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
        let r = render_page(&bytes, 1, 1.5, &IngestSettings::default()).expect("page 1 renders");
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
        let e = render_page(&bytes, 999, 1.5, &IngestSettings::default()).unwrap_err();
        assert!(e.contains("there is no page 999"), "{e}");
        assert!(render_page(b"not a pdf", 1, 1.5, &IngestSettings::default()).is_err());
    }

    #[test]
    fn a_cited_region_crop_is_the_region_with_its_margin_outlined_and_not_blank() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/continued-table.pdf");
        let pdf = Pdf::new(std::fs::read(path).expect("fixture")).unwrap();
        // Page 1's part of "Table 4" as ingest boxes it.
        let bbox = [72.0, 447.0, 525.0, 697.0];
        let r = render_pdf_crop(&pdf, 1, bbox, 1.5, 10.0, &IngestSettings::default()).expect("the crop renders");
        assert_eq!(png_size(&r.png), (r.width_px, r.height_px));
        assert_eq!((r.width_px, r.height_px), (((525.0f32 + 10.0) * 1.5).round() as u32 - ((72.0f32 - 10.0) * 1.5).round() as u32, ((697.0f32 + 10.0) * 1.5).round() as u32 - ((447.0f32 - 10.0) * 1.5).round() as u32));
        let pm = Pixmap::from_png(std::io::Cursor::new(&r.png)).expect("a PNG that decodes");
        // The outline runs 2 px outside the region: 15 px of margin at 1.5×, minus 2.
        let ink = pm.sample(13, pm.height() / 2);
        assert_eq!((ink.r, ink.g, ink.b), (214, 150, 0), "left edge outlined");
        assert_eq!(pm.sample(5, pm.height() / 2).r, 255, "the margin outside the outline is page");
        // Inside: the table's text, so a real share of dark pixels.
        let dark = (20..pm.height() - 20).flat_map(|y| (20..pm.width() - 20).map(move |x| (x, y))).filter(|&(x, y)| pm.sample(x, y).r < 128).count();
        assert!(dark > 500, "{dark} dark pixels in the table region");
        // A region off the page is an error, not an empty image.
        assert!(render_pdf_crop(&pdf, 1, [700.0, 900.0, 800.0, 950.0], 1.5, 10.0, &IngestSettings::default()).unwrap_err().contains("not on page 1"));
        assert!(render_pdf_crop(&pdf, 1, [f32::NAN, 0.0, 10.0, 10.0], 1.5, 10.0, &IngestSettings::default()).is_err());
    }
}
