//! Tables continued across a page break (issue 3 deliverable 3): the first table of a page that
//! goes on from the last one of the page before is marked so.

use crate::ingest::Page;

/// A table at the top of a page with the same column count as the last table of the previous page
/// and no caption of its own continues it (issue 3 deliverable 3).
pub fn link_continuations(pages: &mut [Page]) {
    for i in 1..pages.len() {
        let prev = pages[i - 1]
            .tables
            .last()
            .map(|t| (t.n_cols, t.bbox[3] > 0.55 * pages[i - 1].height));
        let h = pages[i].height;
        if let (Some((cols, prev_low)), Some(first)) = (prev, pages[i].tables.first_mut()) {
            if prev_low
                && first.n_cols == cols
                && first.bbox[1] < 0.35 * h
                && first.header_rows == 0
            {
                first.continues_from_previous = true;
            }
        }
    }
}
