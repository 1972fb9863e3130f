//! What the app and the offline report show, computed as plain values from a `RunExport`: the
//! ledger graph's layout (`layout`), the self-contained HTML report (`report`) and the settings
//! dialog's fields (`settings_form`).
//!
//! Invariants: pure functions of the export (same run → same picture, byte for byte); nothing
//! here knows the DOM; every string from a PDF or a model reaches HTML/SVG only through
//! `escape`, so a document containing markup stays inert.

pub mod answer;
pub mod focus;
pub mod layout;
pub mod report;
pub mod settings_form;

#[cfg(test)]
pub(crate) mod fixture;

/// Escape text for HTML/SVG text content and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => o.push(c),
        }
    }
    o
}

/// At most `n` characters, with an ellipsis when cut (on a char boundary, never mid-codepoint).
pub fn truncate(s: &str, n: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() <= n {
        return s;
    }
    let mut o: String = s.chars().take(n.saturating_sub(1)).collect();
    o.push('…');
    o
}
