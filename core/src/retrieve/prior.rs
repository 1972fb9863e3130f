//! The structural prior (not in the paper; `retrieval.statement_prior`): where a filing answers
//! numeric questions, read from the pages themselves.
//!
//! The primary financial statements — balance sheet, income statement, cash flow statement — hold
//! the line items most numeric questions are computed from, and a filing prints each under its
//! title at the top of the page. Yet lexically such a page loses to prose: one long table of every
//! line item is a little similar to every question and very similar to none, and its row documents
//! are short, so they share few of a question's words (the reference's overlap ℓ is a share of
//! the question's terms). The prior lifts every document of a statement page by a small constant
//! and makes the page a candidate whatever its distance. A page counts as a statement page from
//! its own text alone: a statement title (the concept list's titles, as US GAAP filings word them)
//! in its first lines, and a table on it — a page that merely refers to "the consolidated balance
//! sheets" in prose does not print one. No question, no company and no dev file is named here.

use super::embed::{fiscal_years, page_heading, OfflineEmbedder};
use crate::config::Modality;
use crate::corpus::Doc;
use std::collections::{BTreeSet, HashMap};

/// One page of a corpus, as the prior sees it.
#[derive(Debug, Clone, Default)]
pub struct PageProfile {
    /// Its documents (corpus indices).
    pub members: Vec<usize>,
    /// A primary statement's title in its first lines and a table on it.
    pub statement: bool,
    /// Which statements it is taken for (`BALANCE_SHEET` | `INCOME_STATEMENT` | `CASH_FLOWS`): those
    /// its title names, when it stands in its document's statement block or the document has none
    /// (`statement_block`); 0 when it is not a statement page or stands outside the block.
    pub kinds: u8,
    /// Fiscal years its heading and its tables' column headers name.
    pub years: BTreeSet<u32>,
}

/// The pages of a corpus: each document's page and each page's profile.
#[derive(Debug, Clone, Default)]
pub struct PageIndex {
    /// `page_of[i]`: index into `pages` of document i's (source, page).
    pub page_of: Vec<usize>,
    pub pages: Vec<PageProfile>,
}

impl PageIndex {
    pub fn build(docs: &[Doc]) -> PageIndex {
        let mut slot: HashMap<(&str, u32), usize> = HashMap::new();
        let mut pages: Vec<PageProfile> = vec![];
        let page_of = docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let p = *slot.entry((d.source.as_str(), d.page)).or_insert_with(|| {
                    pages.push(PageProfile::default());
                    pages.len() - 1
                });
                pages[p].members.push(i);
                p
            })
            .collect();
        let e = OfflineEmbedder::default();
        for p in pages.iter_mut() {
            let members: Vec<&Doc> = p.members.iter().map(|&i| &docs[i]).collect();
            // The page's heading as the embedder takes it (`embedding_inputs`): the start of its
            // first text document, else of its first document.
            let first = members.iter().find(|d| d.modality == Modality::Text && d.text.trim().len() >= 20).or(members.first());
            let heading = first.map(|d| page_heading(&d.text)).unwrap_or_default();
            let has_table = members.iter().any(|d| d.modality == Modality::Table || d.table.is_some());
            p.years = fiscal_years(&heading);
            for t in members.iter().filter_map(|d| d.table.as_ref()) {
                p.years.extend(fiscal_years(&t.columns.join(" ")));
            }
            p.kinds = if has_table { statement_kinds(&e, &heading) } else { 0 };
            p.statement = p.kinds != 0;
        }
        // Per document, the statement pages in page order; outside the statement block a page
        // keeps the prior but is not taken for the statements its title names.
        let mut by_source: HashMap<&str, Vec<(u32, usize)>> = HashMap::new();
        for (&(source, page), &p) in &slot {
            if pages[p].statement {
                by_source.entry(source).or_default().push((page, p));
            }
        }
        for mut run in by_source.into_values() {
            run.sort_unstable();
            let titled: Vec<(u32, u8)> = run.iter().map(|&(page, p)| (page, pages[p].kinds)).collect();
            if let Some((first, last)) = statement_block(&titled) {
                for &(page, p) in &run {
                    if page < first || page > last {
                        pages[p].kinds = 0;
                    }
                }
            }
        }
        PageIndex { page_of, pages }
    }

    /// What the prior adds to document `i`'s blended score for `question` (`question_kinds` of
    /// it in `kinds`, the fiscal years it names in `years`): `statement_prior` on a statement
    /// page, plus `statement_prior_matched` when the page is a statement the question asks about.
    pub fn lift(&self, i: usize, kinds: u8, years: &BTreeSet<u32>, s: &crate::config::RetrievalSettings) -> f64 {
        self.page_of.get(i).and_then(|&p| self.pages.get(p)).map_or(0.0, |p| page_lift(p.statement, p.kinds, &p.years, kinds, years, s))
    }

    /// Whether the prior lifts document `i` for a question naming `years` (`needs_year`: only
    /// when the page's heading or column headers carry one of them).
    pub fn lifts(&self, i: usize, years: &BTreeSet<u32>, needs_year: bool) -> bool {
        self.page_of.get(i).and_then(|&p| self.pages.get(p)).is_some_and(|p| page_lifts(p.statement, &p.years, years, needs_year))
    }
}

/// The prior's rule for one page, wherever its profile is kept (a corpus's `PageIndex`, a
/// library row's flag): whether it lifts the page for a question naming `years`.
pub fn page_lifts(statement: bool, page_years: &BTreeSet<u32>, years: &BTreeSet<u32>, needs_year: bool) -> bool {
    statement && (!needs_year || page_years.iter().any(|y| years.contains(y)))
}

/// What the prior adds to a page's documents for a question asking about the statements `kinds`
/// and naming `years`: `statement_prior`, plus `statement_prior_matched` on a statement asked about.
pub fn page_lift(statement: bool, page_kinds: u8, page_years: &BTreeSet<u32>, kinds: u8, years: &BTreeSet<u32>, s: &crate::config::RetrievalSettings) -> f64 {
    if s.statement_prior <= 0.0 || !page_lifts(statement, page_years, years, s.statement_prior_needs_year) {
        return 0.0;
    }
    s.statement_prior + if page_kinds & kinds != 0 { s.statement_prior_matched } else { 0.0 }
}

/// The most pages between two statement pages of one statement block: the pages of the statements
/// no title of the three names (comprehensive income, shareholders' equity) stand between them.
pub const STATEMENT_BLOCK_GAP: u32 = 3;

/// A document's statement block: the first run of its statement pages (`(page, kinds)`, in page
/// order), each at most `STATEMENT_BLOCK_GAP` pages after the one before, whose titles name all
/// three primary statements; its first and last page, `None` when no run does.
///
/// Not in the paper. A filing prints its primary statements together, once (Regulation S-X
/// Article 3; Item 8 of a 10-K, Part I Item 1 of a 10-Q), but statement titles also head other
/// tables: a cash flow summary in the discussion of liquidity, condensed consolidating statements
/// of guarantors, parent-only schedules and quarterly data in the notes. A question asking for a
/// balance-sheet figure is answered from the block; the other pages stay candidates under the plain
/// prior (docs/retrieval-bench.md, "The statement block").
pub fn statement_block(pages: &[(u32, u8)]) -> Option<(u32, u32)> {
    let all = BALANCE_SHEET | INCOME_STATEMENT | CASH_FLOWS;
    let mut start = 0;
    let mut kinds = 0;
    for (i, &(page, k)) in pages.iter().enumerate() {
        if i > start && page > pages[i - 1].0 + STATEMENT_BLOCK_GAP {
            start = i;
            kinds = 0;
        }
        kinds |= k;
        if kinds & all == all {
            // The run goes on while its pages keep within the gap.
            let mut end = i;
            while end + 1 < pages.len() && pages[end + 1].0 <= pages[end].0 + STATEMENT_BLOCK_GAP {
                end += 1;
            }
            return Some((pages[start].0, pages[end].0));
        }
    }
    None
}

/// Whether a heading carries a primary statement's title: the balance sheet, the income statement
/// or the cash flow statement, in any of the wordings the concept list gives them.
pub fn names_a_statement(e: &OfflineEmbedder, heading: &str) -> bool {
    statement_kinds(e, heading) != 0
}

pub const BALANCE_SHEET: u8 = 1;
pub const INCOME_STATEMENT: u8 = 2;
pub const CASH_FLOWS: u8 = 4;

/// The statements whose titles a heading carries, as a set of `BALANCE_SHEET`, `INCOME_STATEMENT`
/// and `CASH_FLOWS`.
pub fn statement_kinds(e: &OfflineEmbedder, heading: &str) -> u8 {
    let f = e.features(heading);
    [("#balance_sheet", BALANCE_SHEET), ("#income_statement", INCOME_STATEMENT), ("#cash_flow_statement", CASH_FLOWS)]
        .iter()
        .filter(|(k, _)| f.contains_key(*k))
        .fold(0, |m, (_, b)| m | b)
}

/// The statements a question asks about: those it names by title, and those on which the US-GAAP
/// line items it names, or the inputs of the ratios it names, are reported ("inventory turnover"
/// is computed from the balance sheet and the income statement; `embed::item_statement`).
pub fn question_kinds(question: &str) -> u8 {
    use crate::retrieve::embed::{item_statement, Statement};
    // The concept phrases are stemmed once; a query only reads them.
    static EMBEDDER: std::sync::OnceLock<OfflineEmbedder> = std::sync::OnceLock::new();
    let f = EMBEDDER.get_or_init(OfflineEmbedder::default).features(question);
    f.keys().fold(0, |m, k| {
        m | match k.as_str() {
            "#balance_sheet" => BALANCE_SHEET,
            "#income_statement" => INCOME_STATEMENT,
            "#cash_flow_statement" => CASH_FLOWS,
            _ => match item_statement(k) {
                Some(Statement::BalanceSheet) => BALANCE_SHEET,
                Some(Statement::IncomeStatement) => INCOME_STATEMENT,
                Some(Statement::CashFlows) => CASH_FLOWS,
                None => 0,
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::doc_id;

    fn doc(page: u32, modality: Modality, n: &str, text: &str) -> Doc {
        Doc::bare(&doc_id("acme.pdf", page, modality, n), "acme.pdf", page, modality, text)
    }

    #[test]
    fn a_statement_page_is_its_title_in_the_first_lines_and_a_table() {
        let docs = vec![
            doc(37, Modality::Text, "0", "CONSOLIDATED STATEMENTS OF OPERATIONS (in millions) Years ended December 31, 2022 2021"),
            doc(37, Modality::Table, "t0", "Net sales | 34,229 | 35,355"),
            // Prose that names a statement, but prints none.
            doc(52, Modality::Text, "0", "The consolidated balance sheets present fairly, in all material respects, the financial position."),
            // A note with a table but no statement title.
            doc(60, Modality::Text, "0", "Note 8. Leases. Maturities of lease liabilities as of December 31, 2022"),
            doc(60, Modality::Table, "t0", "2023 | 1,200"),
            // The statement of comprehensive income is not the income statement (ASC 220).
            doc(38, Modality::Text, "0", "CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME (in millions) Net income 5,777"),
            doc(38, Modality::Table, "t0", "Net income | 5,777"),
        ];
        let idx = PageIndex::build(&docs);
        let statement: Vec<u32> = (0..docs.len()).filter(|&i| idx.lifts(i, &BTreeSet::new(), false)).map(|i| docs[i].page).collect();
        assert_eq!(statement, [37, 37], "both documents of the statement page, nothing else");
        assert_eq!(idx.pages[idx.page_of[0]].years, BTreeSet::from([2021, 2022]));
        // With `statement_prior_needs_year`, the question's year must be among the page's.
        assert!(idx.lifts(0, &BTreeSet::from([2022]), true));
        assert!(!idx.lifts(0, &BTreeSet::from([2019]), true));
    }

    #[test]
    fn the_statement_block_is_the_first_run_of_statement_pages_that_names_all_three() {
        let (b, i, c) = (BALANCE_SHEET, INCOME_STATEMENT, CASH_FLOWS);
        // A cash flow summary in the discussion of liquidity, then the statements (an equity
        // statement between the balance sheet and the cash flows), then condensed consolidating
        // statements of the guarantors, all three titles on one page.
        let filing = [(51, c), (59, b), (60, i), (63, c), (64, c), (90, b | i | c), (95, b)];
        assert_eq!(statement_block(&filing), Some((59, 64)));
        // One page naming all three is a block of its own when nothing comes before.
        assert_eq!(statement_block(&filing[4..]), Some((90, 90)));
        // Statements spread wider than the gap make no block: every page keeps its title's kinds.
        assert_eq!(statement_block(&[(10, b), (14, i), (18, c)]), None);
        assert_eq!(statement_block(&[(10, b), (11, i)]), None);
        assert_eq!(statement_block(&[]), None);
    }

    #[test]
    fn a_statement_page_outside_the_block_keeps_the_prior_but_not_its_title_kinds() {
        let statement = |page: u32, title: &str| {
            [doc(page, Modality::Text, "0", &format!("ACME INC. {title} (in millions)")), doc(page, Modality::Table, "t0", "Total | 1,200 | 1,100")]
        };
        let docs: Vec<Doc> = [
            statement(30, "CONSOLIDATED STATEMENTS OF CASH FLOWS"),
            statement(50, "CONSOLIDATED STATEMENTS OF OPERATIONS"),
            statement(51, "CONSOLIDATED BALANCE SHEETS"),
            statement(53, "CONSOLIDATED STATEMENTS OF CASH FLOWS"),
            statement(90, "CONDENSED CONSOLIDATING BALANCE SHEETS"),
        ]
        .concat();
        let idx = PageIndex::build(&docs);
        let kinds = |page: u32| idx.pages.iter().find(|p| docs[p.members[0]].page == page).map(|p| (p.statement, p.kinds));
        assert_eq!(kinds(50), Some((true, INCOME_STATEMENT)));
        assert_eq!(kinds(51), Some((true, BALANCE_SHEET)));
        assert_eq!(kinds(53), Some((true, CASH_FLOWS)));
        assert_eq!(kinds(30), Some((true, 0)), "a cash flow summary before the block");
        assert_eq!(kinds(90), Some((true, 0)), "condensed consolidating statements after it");
        // Another document's pages are read on their own: no block there, the title's kinds stay.
        let other: Vec<Doc> = docs.iter().filter(|d| d.page == 90).map(|d| Doc { source: "other.pdf".into(), ..d.clone() }).collect();
        let all = [docs.clone(), other].concat();
        let idx = PageIndex::build(&all);
        let other_kinds: Vec<u8> = idx.pages.iter().filter(|p| all[p.members[0]].source == "other.pdf").map(|p| p.kinds).collect();
        assert_eq!(other_kinds, [BALANCE_SHEET]);
    }
}
