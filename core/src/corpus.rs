//! The retrievable unit: a corpus document (spec §4.6–4.7) and a search hit.
//!
//! Ingestion produces `Doc`s; retrieval indexes them; evidence agents read `Hit`s; citations point
//! back to `source` + `page` + `bboxes`. Ids are deterministic (`<stem>-p<page>-<modality>-c<n>`) so
//! re-ingesting a file replaces, never duplicates.

use crate::config::Modality;
use serde::{Deserialize, Serialize};

/// A box on a page in PDF points, origin top-left, page rotation applied: `[x0, y0, x1, y1]`.
pub type BBox = [f32; 4];

/// The smallest box holding every well-formed box of `boxes`.
pub fn union<'a>(boxes: impl IntoIterator<Item = &'a BBox>) -> Option<BBox> {
    boxes.into_iter().filter(|b| b[2] > b[0] && b[3] > b[1]).fold(None, |acc, b| {
        Some(match acc {
            None => *b,
            Some(a) => [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])],
        })
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ExtractionConfidence {
    #[default]
    High,
    Low,
}

/// Table metadata carried by whole-table and row documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TableMeta {
    pub caption: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Set on per-row documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_label: Option<String>,
    /// Index of the table on its page.
    pub table_index: usize,
    /// Every page's part of a table that runs over several pages, in page order, this one
    /// included (issue 3 deliverable 3, issue 6 deliverable 6); empty for a one-page table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<TablePart>,
    /// The table's footnotes as printed ("(a) As of …"); on a row document, those its cells and
    /// the headers over its figures point at (issue 3 deliverable 4, `ingest::notes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One page's part of a table that continues over several pages: where the viewer goes next.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TablePart {
    pub page: u32,
    pub bbox: BBox,
}

/// Chart metadata (spec §4.6; filled by the vision path).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ChartMeta {
    pub caption: String,
    pub chart_type: String,
    pub series: Vec<String>,
    pub value_readings: Vec<(String, String, String)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Doc {
    /// `<stem>-p<page>-<modality>-c<n>`.
    pub id: String,
    /// File name of the PDF.
    pub source: String,
    /// 1-based physical page.
    pub page: u32,
    /// Printed page label when the PDF defines one (pdf-rs `/PageLabels`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_label: Option<String>,
    /// Section title from the document outline, or a filing's Item heading, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The section was read from headings on the pages (a filing without an outline): shown with
    /// the evidence but not embedded with the text — measured on FinanceBench, embedding these
    /// titles moved hit@8 from 0.831 to 0.800 (`docs/extraction.md`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub section_from_headings: bool,
    pub modality: Modality,
    pub text: String,
    /// Regions of the page this document came from (for highlighting citations).
    #[serde(default)]
    pub bboxes: Vec<BBox>,
    /// Page size in points (width, height) so a viewer can normalise boxes.
    #[serde(default)]
    pub page_size: (f32, f32),
    #[serde(default)]
    pub confidence: ExtractionConfidence,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableMeta>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<ChartMeta>,
}

#[cfg(test)]
impl Doc {
    /// A document as the retrieval tests need it: text only, no boxes, section or table, on a
    /// Letter page.
    pub(crate) fn bare(id: &str, source: &str, page: u32, modality: Modality, text: &str) -> Doc {
        Doc {
            id: id.into(),
            source: source.into(),
            page,
            page_label: None,
            section: None,
            section_from_headings: false,
            modality,
            text: text.into(),
            bboxes: vec![],
            page_size: (612.0, 792.0),
            confidence: ExtractionConfidence::High,
            table: None,
            chart: None,
        }
    }
}

/// A retrieval result: a document plus its blended score (spec §5: the "retrieval confidence" used
/// everywhere downstream).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    pub doc: Doc,
    pub score: f64,
}

/// Deterministic document id (spec §4.7). `n` is unique per (page, modality) by construction of the
/// caller; row documents use `t<table>r<row>` so ids cannot collide (spec §12: the reference's
/// `1000 + 100·t + r` collides at 100 rows).
pub fn doc_id(source: &str, page: u32, modality: Modality, n: &str) -> String {
    let stem = source.strip_suffix(".pdf").or_else(|| source.strip_suffix(".PDF")).unwrap_or(source);
    format!("{stem}-p{page}-{}-c{n}", modality.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn row_document_ids_never_collide_past_one_hundred_rows() {
        let a = doc_id("x.pdf", 3, Modality::Table, "t0r100");
        let b = doc_id("x.pdf", 3, Modality::Table, "t1r0");
        assert_ne!(a, b);
        assert_eq!(doc_id("3M_2018_10K.pdf", 60, Modality::Text, "2"), "3M_2018_10K-p60-text-c2");
    }
}
