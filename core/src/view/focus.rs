//! Where the page viewer looks when a citation is opened: the zoom at which the cited region fills
//! a good part of the viewer, and the scroll offsets that centre it. The viewer's zoom is the shown
//! page's width as a fraction of the viewer's width (1.0 = fit width), so these are functions of
//! the region's share of the page and the viewer's shape only — the same for portrait, landscape
//! and rotated pages, whose boxes are measured against the page as shown (ingest's convention).

use crate::corpus::BBox;

/// The share of the viewer's width (and height) the cited region is zoomed to fill.
pub const FILL: f64 = 0.6;
/// Zoom limits: never smaller than the whole width, never so large the render is mush.
pub const MIN_ZOOM: f64 = 1.0;
pub const MAX_ZOOM: f64 = 4.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Focus {
    /// The shown page's width over the viewer's width.
    pub zoom: f64,
    /// Scroll offsets in CSS pixels that centre the region (clamped to the page).
    pub left: f64,
    pub top: f64,
}

/// The smallest box holding every well-formed box, clamped to the page; None when there is none.
pub fn union(boxes: &[BBox], page: (f32, f32)) -> Option<BBox> {
    let (pw, ph) = page;
    boxes
        .iter()
        .filter(|b| b.iter().all(|v| v.is_finite()) && b[2] > b[0] && b[3] > b[1])
        .map(|b| [b[0].max(0.0), b[1].max(0.0), b[2].min(pw), b[3].min(ph)])
        .filter(|b| b[2] > b[0] && b[3] > b[1])
        .reduce(|a, b| [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])])
}

/// The zoom and scroll that bring the cited `boxes` into view in a `viewport` (width, height in
/// CSS pixels) showing a page of `page` points. None when the page or the viewer has no size or
/// nothing is cited.
pub fn on_region(boxes: &[BBox], page: (f32, f32), viewport: (f64, f64)) -> Option<Focus> {
    let (pw, ph) = (page.0 as f64, page.1 as f64);
    let (cw, ch) = viewport;
    if !(pw > 0.0 && ph > 0.0 && cw > 0.0 && ch > 0.0) {
        return None;
    }
    let r = union(boxes, page)?;
    let (fx, fy) = ((r[2] - r[0]) as f64 / pw, (r[3] - r[1]) as f64 / ph);
    // Region width on screen = fx·zoom·cw; height = fy·zoom·cw·ph/pw. Both at most FILL of the viewer.
    let by_width = FILL / fx;
    let by_height = FILL * ch * pw / (fy * cw * ph);
    let zoom = by_width.min(by_height).clamp(MIN_ZOOM, MAX_ZOOM);
    let (w, h) = (zoom * cw, zoom * cw * ph / pw);
    let (cx, cy) = ((r[0] + r[2]) as f64 / 2.0 / pw * w, (r[1] + r[3]) as f64 / 2.0 / ph * h);
    let left = (cx - cw / 2.0).clamp(0.0, (w - cw).max(0.0));
    let top = (cy - ch / 2.0).clamp(0.0, (h - ch).max(0.0));
    Some(Focus { zoom, left, top })
}

/// The zoom that shows the whole page: fit width, or less when the page is taller than the viewer.
pub fn whole_page(page: (f32, f32), viewport: (f64, f64)) -> f64 {
    let (pw, ph) = (page.0 as f64, page.1 as f64);
    let (cw, ch) = viewport;
    if !(pw > 0.0 && ph > 0.0 && cw > 0.0 && ch > 0.0) {
        return 1.0;
    }
    (ch / (cw * ph / pw)).clamp(0.1, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LETTER: (f32, f32) = (612.0, 792.0);
    const LANDSCAPE: (f32, f32) = (792.0, 612.0);
    const VIEWER: (f64, f64) = (600.0, 700.0);

    /// The region's size and position on screen for a focus: (left, top, width, height) in px
    /// relative to the viewer's visible area.
    fn on_screen(b: BBox, page: (f32, f32), f: Focus) -> (f64, f64, f64, f64) {
        let w = f.zoom * VIEWER.0;
        let h = w * page.1 as f64 / page.0 as f64;
        let sx = w / page.0 as f64;
        let sy = h / page.1 as f64;
        (b[0] as f64 * sx - f.left, b[1] as f64 * sy - f.top, (b[2] - b[0]) as f64 * sx, (b[3] - b[1]) as f64 * sy)
    }

    fn assert_in_view_and_large(b: BBox, page: (f32, f32)) {
        let f = on_region(&[b], page, VIEWER).expect("a focus");
        let (x, y, w, h) = on_screen(b, page, f);
        assert!(x >= -0.5 && y >= -0.5 && x + w <= VIEWER.0 + 0.5 && y + h <= VIEWER.1 + 0.5, "region in view: {x},{y},{w},{h} at {f:?}");
        let share = (w / VIEWER.0).max(h / VIEWER.1);
        assert!(share >= FILL - 1e-6 || f.zoom == MAX_ZOOM, "region fills a good part of the viewer: {share:.2} at {f:?}");
    }

    #[test]
    fn a_small_cell_on_a_portrait_page_is_zoomed_to_fill_and_centred() {
        assert_in_view_and_large([400.0, 600.0, 460.0, 612.0], LETTER);
    }

    #[test]
    fn a_row_on_a_landscape_statement_page_is_zoomed_and_in_view() {
        // A wide, short row near the bottom right: the case the fit-width view made unreadable.
        assert_in_view_and_large([300.0, 520.0, 760.0, 534.0], LANDSCAPE);
    }

    #[test]
    fn a_page_rotated_to_landscape_uses_its_shown_size() {
        // Boxes are measured against the page as shown, so a rotated portrait page is a landscape one.
        let b = [40.0, 40.0, 200.0, 60.0];
        assert_in_view_and_large(b, LANDSCAPE);
        assert_ne!(on_region(&[b], LANDSCAPE, VIEWER), on_region(&[b], LETTER, VIEWER));
    }

    #[test]
    fn every_box_of_a_table_citation_is_in_view_together() {
        let row = [72.0, 300.0, 540.0, 312.0];
        let note = [72.0, 380.0, 300.0, 390.0];
        let f = on_region(&[row, note], LETTER, VIEWER).unwrap();
        for b in [row, note] {
            let (x, y, w, h) = on_screen(b, LETTER, f);
            assert!(x >= -0.5 && y >= -0.5 && x + w <= VIEWER.0 + 0.5 && y + h <= VIEWER.1 + 0.5, "{b:?} in view");
        }
    }

    #[test]
    fn a_region_as_large_as_the_page_keeps_fit_width() {
        let f = on_region(&[[0.0, 0.0, 612.0, 792.0]], LETTER, VIEWER).unwrap();
        assert_eq!(f.zoom, MIN_ZOOM);
        assert_eq!(f.left, 0.0, "a page as wide as the viewer does not scroll sideways");
        assert!(f.top <= 776.5 - VIEWER.1, "the scroll stays on the page");
    }

    #[test]
    fn a_tiny_region_stops_at_the_largest_zoom() {
        let f = on_region(&[[300.0, 300.0, 301.0, 301.0]], LETTER, VIEWER).unwrap();
        assert_eq!(f.zoom, MAX_ZOOM);
    }

    #[test]
    fn nothing_cited_or_no_size_gives_no_focus() {
        assert_eq!(on_region(&[], LETTER, VIEWER), None);
        assert_eq!(on_region(&[[10.0, 10.0, 5.0, 20.0]], LETTER, VIEWER), None, "a degenerate box");
        assert_eq!(on_region(&[[f32::NAN, 1.0, 2.0, 3.0]], LETTER, VIEWER), None);
        assert_eq!(on_region(&[[1.0, 1.0, 20.0, 20.0]], (0.0, 0.0), VIEWER), None);
        assert_eq!(on_region(&[[1.0, 1.0, 20.0, 20.0]], LETTER, (0.0, 0.0)), None);
    }

    #[test]
    fn fit_page_shows_the_whole_page_in_the_viewer() {
        let z = whole_page(LETTER, VIEWER);
        let h = z * VIEWER.0 * 792.0 / 612.0;
        assert!(h <= VIEWER.1 + 0.5 && z <= 1.0);
        // A landscape page fits by width.
        assert_eq!(whole_page(LANDSCAPE, VIEWER), 1.0);
    }
}
