//! A contents list is not a table. A page of contents (a report's, a filing's, an index of
//! exhibits or of financial statements) is set like a two- or three-column table: entry titles at
//! the left, their page numbers aligned at the right, often under a "Page" heading. What tells it
//! from a table is what its figures are: every entry ends on a page reference (`12`, `F-3`, `iv`),
//! the references never fall down the list (a document is listed in its own order), and no entry
//! carries a quantity (an amount, a ratio, a percentage) after its title (a section number such
//! as "2.1" may open it). A table whose last column happens to
//! rise (a count by year) carries quantities elsewhere or has too few entries to pass.

use crate::ingest::furniture::is_page_number;
use crate::ingest::Table;

/// Entries (rows with a title and a last cell) a contents list has at least.
const MIN_ENTRIES: usize = 4;
/// Share of the entries that must end on a page reference (a wrapped title's first line ends on
/// none).
const MIN_PAGE_SHARE: f32 = 0.8;
/// Distinct page references a contents list has at least (a column of ones is no order).
const MIN_DISTINCT_PAGES: usize = 3;

/// The tables of a page without its contents lists: a table that is one, and on a page with one,
/// the other pieces of the same list (a part of the contents set apart by a heading, "PART III"
/// over entries that all end on page 73, is too short to show an order of its own).
pub(super) fn without_contents(tables: Vec<Table>) -> Vec<Table> {
    let list = |t: &Table| contents_list(t, MIN_ENTRIES, MIN_DISTINCT_PAGES);
    if !tables.iter().any(list) {
        return tables;
    }
    tables.into_iter().filter(|t| !contents_list(t, 2, 1)).collect()
}

/// The table is a contents list: its entries end on page references that never fall, and none
/// of its cells is a quantity.
#[cfg(test)]
fn is_contents_list(t: &Table) -> bool {
    contents_list(t, MIN_ENTRIES, MIN_DISTINCT_PAGES)
}

/// `is_contents_list` with at least `min_entries` entries and `min_distinct` distinct pages.
fn contents_list(t: &Table, min_entries: usize, min_distinct: usize) -> bool {
    let mut rows: Vec<Vec<(usize, &str)>> = vec![vec![]; t.n_rows.max(1)];
    for c in &t.cells {
        let text = c.text.trim();
        if !text.is_empty() && c.row < rows.len() {
            rows[c.row].push((c.col, text));
        }
    }
    // An entry may open on its section number ("2.1", "Section 1.01."): the cell a row opens
    // with is its title, and only the cells after it are looked at for quantities.
    let after_title = |c: &&crate::ingest::Cell| t.cells.iter().any(|o| o.row == c.row && o.col < c.col && !o.text.trim().is_empty());
    if t.cells.iter().filter(after_title).any(|c| quantity(&c.text)) {
        return false;
    }
    let (mut entries, mut pages) = (0, vec![]);
    for r in &mut rows {
        r.sort_by_key(|&(col, _)| col);
        // An entry: a title and something after it. Heading rows ("PART II", "Page") have one cell.
        let [.., (_, last)] = r.as_slice() else { continue };
        if r.len() < 2 {
            continue;
        }
        entries += 1;
        // The entry's title is words; a row of figures ending on a small number is a table's.
        let titled = r[..r.len() - 1].iter().any(|(_, t)| t.chars().any(char::is_alphabetic));
        if let Some(p) = page_order(last).filter(|_| titled) {
            pages.push(p);
        }
    }
    let mut distinct = pages.clone();
    distinct.dedup();
    entries >= min_entries
        && pages.len() as f32 >= MIN_PAGE_SHARE * entries as f32
        && distinct.len() >= min_distinct
        && pages.windows(2).all(|w| w[0] <= w[1])
}

/// Where a page reference falls in a document: front matter (roman) first, then numbered pages,
/// then lettered sections (`F-3`) by letter. `None` when the text is no page reference.
fn page_order(s: &str) -> Option<(u8, String, u32)> {
    if !is_page_number(s) {
        return None;
    }
    let s = s.trim();
    if let Ok(n) = s.parse::<u32>() {
        return Some((1, String::new(), n));
    }
    match s.split_once('-') {
        Some((letter, n)) => Some((2, letter.to_string(), n.parse().ok()?)),
        None => Some((0, String::new(), 0)),
    }
}

/// An amount, a ratio or a percentage: a currency sign, a percent sign, or digits grouped or
/// with decimals (`1,234`, `4.5`) — what a table carries and a contents list does not.
fn quantity(s: &str) -> bool {
    let c: Vec<char> = s.chars().collect();
    s.contains(['$', '€', '£', '%'])
        || c.windows(3).any(|w| w[0].is_ascii_digit() && matches!(w[1], ',' | '.') && w[2].is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Cell;

    fn table(rows: &[&[&str]]) -> Table {
        let mut cells = vec![];
        for (r, row) in rows.iter().enumerate() {
            for (c, text) in row.iter().enumerate() {
                let (x, y) = (40.0 + 200.0 * c as f32, 100.0 + 12.0 * r as f32);
                cells.push(Cell { row: r, col: c, row_span: 1, col_span: 1, text: text.to_string(), bbox: [x, y, x + 150.0, y + 10.0] });
            }
        }
        let n_cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        Table {
            bbox: [40.0, 100.0, 600.0, 100.0 + 12.0 * rows.len() as f32],
            cells,
            caption: String::new(),
            continues_from_previous: false,
            n_rows: rows.len(),
            n_cols,
            header_rows: 0,
            ruled: false,
            notes: vec![],
        }
    }

    #[test]
    fn a_contents_page_laid_out_in_columns_is_not_a_table() {
        let t = table(&[
            &["", "", "Page"],
            &["PART I", "", ""],
            &["Item 1.", "Business", "3"],
            &["Item 1A.", "Risk Factors", "17"],
            &["Item 1B.", "Unresolved Staff Comments", "26"],
            &["Item 2.", "Properties", "26"],
            &["PART II", "", ""],
            &["Item 7.", "Management's Discussion and Analysis", "31"],
            &["Item 8.", "Financial Statements and Supplementary Data", "F-1"],
        ]);
        assert!(is_contents_list(&t));
    }

    #[test]
    fn a_part_of_the_contents_on_its_page_goes_with_the_list() {
        let list = table(&[
            &["Item 1.", "Business", "3"],
            &["Item 1A.", "Risk Factors", "17"],
            &["Item 2.", "Properties", "26"],
            &["Item 7.", "Management's Discussion and Analysis", "31"],
        ]);
        let part = table(&[&["PART III", "", ""], &["Item 10.", "Directors", "73"], &["Item 11.", "Executive Compensation", "73"]]);
        let figures = table(&[&["Revenue", "1,234"], &["Cost", "567"]]);
        assert!(!is_contents_list(&part), "alone, two entries on one page show no order");
        let kept = without_contents(vec![list, part.clone(), figures.clone()]);
        assert_eq!(kept, vec![figures.clone()]);
        assert_eq!(without_contents(vec![part.clone(), figures.clone()]), vec![part, figures]);
    }

    #[test]
    fn the_contents_of_an_agreement_numbered_by_section_is_a_contents_list() {
        let t = table(&[
            &["ARTICLE I.", "DEFINITIONS", "3"],
            &["Section 1.01.", "Definitions", "3"],
            &["ARTICLE II.", "TRANSFER OF ASSETS", "20"],
            &["Section 2.01.", "Purchase and Sale", "20"],
            &["Section 2.02.", "Excluded Assets", "24"],
        ]);
        assert!(is_contents_list(&t));
    }

    #[test]
    fn a_table_whose_last_column_rises_but_carries_amounts_is_a_table() {
        let t = table(&[
            &["", "2021", "2022"],
            &["Stores at year end", "1,204", "1,250"],
            &["Employees (thousands)", "12", "14"],
            &["Distribution centres", "15", "17"],
            &["Countries", "20", "24"],
        ]);
        assert!(!is_contents_list(&t));
    }

    #[test]
    fn counts_that_fall_down_the_column_are_not_page_references() {
        let by_year = table(&[&["2019", "3"], &["2020", "5"], &["2021", "8"], &["2022", "13"], &["2023", "21"]]);
        assert!(!is_contents_list(&by_year));
        let t = table(&[
            &["Region", "Sites"],
            &["North", "41"],
            &["South", "17"],
            &["East", "26"],
            &["West", "9"],
        ]);
        assert!(!is_contents_list(&t));
    }
}
