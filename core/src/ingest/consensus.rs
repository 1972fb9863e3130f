//! Table consensus on the vision path (paper §3.2 Eq. 4, spec §4.2–4.3): repeated extractions of a
//! page's tables at temperature 0 can disagree, so up to `max_table_passes` passes are compared
//! pairwise; two that agree make the page's tables high-confidence, otherwise the first pass is kept
//! for provenance but marked low-confidence, which retrieval and the Tabular agent exclude
//! (`ExtractionConfidence::Low`, the same flag as garbled native tables).
//!
//! Departure from the reference: cells and column labels are compared after normalisation
//! (case, whitespace, `$`, thousands separators, `(x)` vs `-x`), not as exact strings — two readings
//! of "$1,234" and "1234" are the same number, and an exact-match rule turns formatting noise into
//! low confidence.

use crate::corpus::ExtractionConfidence;
use crate::llm::roles::VisionTable;

/// A cell as compared: lower case, no whitespace, no `$`/`,`, accounting negatives as `-x`.
pub fn normalise_cell(s: &str) -> String {
    let t: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '$' && *c != ',')
        .flat_map(char::to_lowercase)
        .collect();
    match t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) if inner.chars().any(|c| c.is_ascii_digit()) => format!("-{inner}"),
        _ => t,
    }
}

/// §4.2 A ≈ B: same number of tables; per index-aligned pair the same (normalised) columns and row
/// count, and at least `share` of the zipped cells equal. A pair with no compared cells disagrees.
pub fn tables_agree(a: &[VisionTable], b: &[VisionTable], share: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| table_pair_agrees(x, y, share))
}

fn table_pair_agrees(a: &VisionTable, b: &VisionTable, share: f64) -> bool {
    let cols = |t: &VisionTable| t.columns.iter().map(|c| normalise_cell(c)).collect::<Vec<_>>();
    if cols(a) != cols(b) || a.rows.len() != b.rows.len() {
        return false;
    }
    let (mut equal, mut compared) = (0usize, 0usize);
    for (ra, rb) in a.rows.iter().zip(&b.rows) {
        for (ca, cb) in ra.iter().zip(rb) {
            compared += 1;
            if normalise_cell(ca) == normalise_cell(cb) {
                equal += 1;
            }
        }
    }
    compared > 0 && equal as f64 / compared as f64 >= share
}

/// What the consensus loop does next, given the passes so far (§4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consensus {
    /// Keep pass `keep` (0-based) with this page-level confidence.
    Settled { keep: usize, confidence: ExtractionConfidence },
    /// Ask the model once more.
    AnotherPass,
}

/// §4.2 as a pure function of the passes so far: no tables on pass 1 → nothing to agree on; else the
/// first agreeing pair (1≈2, 1≈3, then 2≈3 keeps pass 2) settles high; with `max_passes` spent and
/// no agreement, pass 1 is kept, low. `max_passes` ≤ 1 means consensus is off (pass 1, high).
pub fn consensus(passes: &[Vec<VisionTable>], share: f64, max_passes: u32) -> Consensus {
    use ExtractionConfidence::{High, Low};
    let Some(first) = passes.first() else { return Consensus::AnotherPass };
    if first.is_empty() || max_passes <= 1 {
        return Consensus::Settled { keep: 0, confidence: High };
    }
    for j in 1..passes.len() {
        for i in 0..j {
            if tables_agree(&passes[i], &passes[j], share) {
                return Consensus::Settled { keep: i, confidence: High };
            }
        }
    }
    if passes.len() as u32 >= max_passes {
        Consensus::Settled { keep: 0, confidence: Low }
    } else {
        Consensus::AnotherPass
    }
}

/// §4.3: a section row ("1. Agriculture") whose values equal a sub-item row's ("a) Crops") values
/// means a total was copied from a sub-row — the table cannot be trusted as evidence.
pub fn duplicate_section_total(t: &VisionTable) -> bool {
    fn marked(cell: &str, number: bool) -> bool {
        let c = cell.trim_start();
        let lead: String = c.chars().take_while(|ch| if number { ch.is_ascii_digit() } else { ch.is_ascii_alphabetic() }).collect();
        let ok_lead = if number { !lead.is_empty() } else { lead.chars().count() == 1 };
        let rest = &c[lead.len()..];
        ok_lead && (rest.starts_with(". ") || rest.starts_with(") "))
    }
    let values = |r: &Vec<String>| -> Vec<String> { r.iter().skip(1).map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect() };
    let first = |r: &Vec<String>| r.first().cloned().unwrap_or_default();
    let sections: Vec<Vec<String>> = t.rows.iter().filter(|r| marked(&first(r), true)).map(values).collect();
    let subs: Vec<Vec<String>> = t.rows.iter().filter(|r| marked(&first(r), false)).map(values).collect();
    sections.iter().any(|s| !s.is_empty() && subs.iter().any(|u| u == s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ExtractionConfidence::{High, Low};

    fn t(columns: &[&str], rows: &[&[&str]]) -> VisionTable {
        VisionTable {
            caption: None,
            columns: columns.iter().map(|s| s.to_string()).collect(),
            rows: rows.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect(),
        }
    }

    /// AMCOR's Q4 2023 income statement, as a vision pass would read it.
    fn income() -> VisionTable {
        t(
            &["($ million)", "2022", "2023"],
            &[&["Net sales", "14,544", "14,694"], &["Cost of sales", "(11,724)", "(11,969)"], &["Gross profit", "2,820", "2,725"], &["Operating income", "1,239", "1,508"]],
        )
    }

    #[test]
    fn equal_tables_agree_even_when_formatting_differs() {
        let mut b = income();
        b.rows[0][1] = "$14544".into();
        b.rows[1][2] = "-11,969".into();
        assert!(tables_agree(&[income()], &[b], 0.8));
    }

    #[test]
    fn a_table_read_with_its_values_shifted_one_column_disagrees() {
        let mut b = income();
        for r in &mut b.rows {
            let v = r.remove(1);
            r.push(v);
        }
        assert!(!tables_agree(&[income()], &[b], 0.8));
    }

    #[test]
    fn a_table_read_with_a_different_row_count_disagrees() {
        let mut b = income();
        b.rows.pop();
        assert!(!tables_agree(&[income()], &[b], 0.8));
        assert!(!tables_agree(&[income()], &[income(), income()], 0.8), "different table counts");
    }

    #[test]
    fn one_misread_cell_in_twelve_still_agrees_but_three_do_not() {
        let mut one = income();
        one.rows[3][2] = "1,580".into();
        assert!(tables_agree(&[income()], &[one.clone()], 0.8), "11/12 = 0.92 ≥ 0.8");
        let mut three = one;
        three.rows[0][1] = "14,454".into();
        three.rows[2][2] = "2,752".into();
        assert!(!tables_agree(&[income()], &[three], 0.8), "9/12 = 0.75 < 0.8");
    }

    #[test]
    fn consensus_follows_the_two_of_three_rule() {
        let a = vec![income()];
        let mut b = income();
        b.rows.pop();
        let b = vec![b];
        assert_eq!(consensus(std::slice::from_ref(&a), 0.8, 3), Consensus::AnotherPass);
        assert_eq!(consensus(&[a.clone(), a.clone()], 0.8, 3), Consensus::Settled { keep: 0, confidence: High });
        assert_eq!(consensus(&[a.clone(), b.clone()], 0.8, 3), Consensus::AnotherPass);
        assert_eq!(consensus(&[a.clone(), b.clone(), a.clone()], 0.8, 3), Consensus::Settled { keep: 0, confidence: High });
        assert_eq!(consensus(&[b.clone(), a.clone(), a.clone()], 0.8, 3), Consensus::Settled { keep: 1, confidence: High }, "2≈3 keeps pass 2");
        let mut c = income();
        c.columns[0] = "Item".into();
        assert_eq!(consensus(&[a.clone(), b, vec![c]], 0.8, 3), Consensus::Settled { keep: 0, confidence: Low });
        assert_eq!(consensus(&[vec![]], 0.8, 3), Consensus::Settled { keep: 0, confidence: High }, "no tables, nothing to agree on");
        assert_eq!(consensus(&[a], 0.8, 1), Consensus::Settled { keep: 0, confidence: High }, "consensus off");
    }

    #[test]
    fn a_section_total_copied_from_its_sub_row_is_flagged() {
        let bad = t(&["Sector", "FY24", "FY25"], &[&["1. Agriculture", "2.7", "1.2"], &["a) Crops", "2.7", "1.2"], &["b) Livestock", "3.4", "4.2"]]);
        assert!(duplicate_section_total(&bad));
        let good = t(&["Sector", "FY24", "FY25"], &[&["1. Agriculture", "6.3", "0.6"], &["a) Crops", "2.7", "1.2"], &["b) Livestock", "3.4", "4.2"]]);
        assert!(!duplicate_section_total(&good));
        assert!(!duplicate_section_total(&income()), "no section rows at all");
    }
}
