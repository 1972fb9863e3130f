//! Ingestion on real corpus PDFs (issue 3): positioned text, tables, documents, bad input.
#![cfg(feature = "pdf")]

use clair_core::config::{IngestSettings, Modality};
use clair_core::ingest::{self, BlockKind};

mod support;
use support::pdf_of;

const FB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/corpus/financebench/pdfs/"
);
const ICDAR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/corpus/icdar2013/"
);

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("corpus file {path}: {e}"))
}

/// `tests/fixtures/` (its README says where each file comes from).
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/");

/// A fixture read with the default settings.
fn fixture(name: &str) -> ingest::Extracted {
    ingest::extract(&read(&format!("{FIXTURES}{name}")), name, &IngestSettings::default())
}

/// The tables of a one-page fixture set in two columns, as grids, once no table is found across
/// the gutter at `gutter` (points from the left edge).
fn tables_of_two_columns(name: &str, gutter: f32) -> Vec<Vec<Vec<String>>> {
    let ex = fixture(name);
    let p = &ex.pages[0];
    let boxes: Vec<[f32; 4]> = p.tables.iter().map(|t| t.bbox).collect();
    assert!(boxes.iter().all(|b| b[2] < gutter || b[0] > gutter), "a table across the gutter: {boxes:?}");
    p.tables.iter().map(|t| t.grid()).collect()
}

/// The first of the grids that `pred` holds for.
fn grid_where<'g>(grids: &'g [Vec<Vec<String>>], pred: impl Fn(&Vec<Vec<String>>) -> bool) -> &'g Vec<Vec<String>> {
    grids.iter().find(|g| pred(g)).unwrap_or_else(|| panic!("{grids:#?}"))
}

/// JPMorgan's 10-Q for 2023 Q2, read once for all the tests that look at its pages.
fn jpm_2023q2() -> &'static ingest::Extracted {
    static EX: std::sync::OnceLock<ingest::Extracted> = std::sync::OnceLock::new();
    EX.get_or_init(|| {
        let bytes = read(&format!("{FB}JPMORGAN_2023Q2_10Q.pdf"));
        ingest::extract(&bytes, "JPMORGAN_2023Q2_10Q.pdf", &IngestSettings::default())
    })
}

#[test]
fn earnings_release_text_comes_in_reading_order_with_boxes_on_the_page() {
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(
        &bytes,
        "AMCOR_2023Q4_EARNINGS.pdf",
        &IngestSettings::default(),
    );
    assert_eq!(ex.pages.len(), 14);
    let p1 = &ex.pages[0];
    assert!(
        p1.text.contains("Amcor"),
        "{}",
        &p1.text[..p1.text.len().min(300)]
    );
    assert!(!p1.text.contains('\u{FFFD}'));
    for b in &p1.blocks {
        assert!(b.bbox[0] >= -1.0 && b.bbox[1] >= -1.0, "{b:?}");
        assert!(
            b.bbox[2] <= p1.width + 1.0 && b.bbox[3] <= p1.height + 1.0,
            "{b:?}"
        );
    }
    // Reading order: the first text block is above the last one.
    let texts: Vec<_> = p1
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Text)
        .collect();
    assert!(texts.len() > 2);
    assert!(texts[0].bbox[1] < texts[texts.len() - 1].bbox[1]);
}

#[test]
fn outline_titles_become_page_sections() {
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(
        &bytes,
        "AMCOR_2023Q4_EARNINGS.pdf",
        &IngestSettings::default(),
    );
    assert!(!ex.outline.is_empty());
    assert_eq!(ex.pages[0].section.as_deref(), Some("Highlights"));
    assert_eq!(ex.pages[1].section.as_deref(), Some("Financial Results"));
    assert!(ex.pages.iter().all(|p| !p.section_from_headings), "an outline's titles are the PDF's own");
}

/// The sections of `file`, by page (1-based index into the result).
fn sections(file: &str) -> Vec<Option<String>> {
    let ex = ingest::extract(&read(&format!("{FB}{file}")), file, &IngestSettings::default());
    std::iter::once(None).chain(ex.pages.into_iter().map(|p| p.section)).collect()
}

#[test]
fn a_filing_without_an_outline_takes_its_sections_from_its_item_headings() {
    // Amazon 10-K: headings set as "Item 7." in the margin with the title beside it; the contents
    // page (item lines with page numbers) gives none.
    let amazon = ingest::extract(&read(&format!("{FB}AMAZON_2019_10K.pdf")), "AMAZON_2019_10K.pdf", &IngestSettings::default());
    assert!(amazon.pages.iter().all(|p| p.section_from_headings == p.section.is_some()), "marked as read from headings");
    let s = sections("AMAZON_2019_10K.pdf");
    assert_eq!(s[2], None, "the contents page is not a heading");
    assert_eq!(s[3].as_deref(), Some("Part I — Item 1. Business"));
    assert_eq!(s[25].as_deref(), Some("Part II — Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations"));
    assert_eq!(s[73].as_deref(), Some("Part III — Item 14. Principal Accountant Fees and Services"), "the title beside the number, not the sentence below it");
    // Microsoft 10-K: every page carries "PART I / Item 1" as a running header; only "ITEM 1. BUSINESS" is a heading.
    let s = sections("MICROSOFT_2016_10K.pdf");
    assert_eq!(s[3].as_deref(), Some("Part I — Item 1. BUSINESS"));
    assert_eq!(s[40].as_deref(), Some("Part II — Item 7. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS"));
    // Walmart 10-K: the cover's incorporation table names "Part III" before Part I begins.
    let s = sections("WALMART_2020_10K.pdf");
    assert_eq!(s[7].as_deref(), Some("Part I — Item 1. BUSINESS"));
    // A 10-Q's Part II numbers its items from 1 again.
    let s = sections("BESTBUY_2024Q2_10Q.pdf");
    assert_eq!(s[3].as_deref(), Some("Part I — Item 1. Financial Statements"), "a heading read into the top of a statement table");
    assert_eq!(s[24].as_deref(), Some("Part II — Item 1. Legal Proceedings"));
    // Back matter: the F-pages after Part IV, then the exhibit index, signatures and each exhibit;
    // an "Index to Financial Statements" inside Item 8 is not a section of its own.
    let s = sections("NETFLIX_2017_10K.pdf");
    assert_eq!(s[40].as_deref(), Some("Financial Statements"));
    assert_eq!(s[67].as_deref(), Some("Signatures"));
    assert_eq!(s[71].as_deref(), Some("Exhibit 31.1"));
    assert_eq!(sections("3M_2022_10K.pdf")[43].as_deref(), Some("Part II — Item 8. Financial Statements and Supplementary Data"));
    // An 8-K's press release is its exhibit, not the item that lists it.
    let s = sections("JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf");
    assert_eq!(s[2].as_deref(), Some("Item 9.01. Financial Statements and Exhibits"));
    assert_eq!(s[4].as_deref(), Some("Exhibit 99.1"));
    // A press release has neither outline nor items.
    assert!(sections("JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf").iter().all(Option::is_none));
}

/// The sections of an ICDAR document, by page (1-based).
fn report_sections(doc: &str) -> Vec<Option<String>> {
    let ex = ingest::extract(&read(&format!("{ICDAR}{doc}.pdf")), doc, &IngestSettings::default());
    assert!(ex.pages.iter().all(|p| p.section_from_headings == p.section.is_some()), "{doc}: typeset headings are read from headings");
    std::iter::once(None).chain(ex.pages.into_iter().map(|p| p.section)).collect()
}

#[test]
fn a_report_with_neither_outline_nor_items_takes_its_sections_from_larger_type() {
    // eu-014 (a vocational-training report, no bookmarks): one numbered section per page.
    let s = report_sections("eu-014");
    assert_eq!(s[1].as_deref(), Some("10.1. Background information"));
    assert_eq!(s[4].as_deref(), Some("10.4. Funding for training the unemployed and other vulnerable groups"));
    // eu-012: chapter and section, two sizes; a page's section is the last heading on or before it.
    let s = report_sections("eu-012");
    assert_eq!(s[1], None, "the map page comes before any heading");
    assert_eq!(s[2].as_deref(), Some("1. General policy context: framework for the knowledge society — 1.2. Population and demographics"));
    assert_eq!(s[6].as_deref(), Some("2. Education policy: objectives and priorities"));
    // eu-027: a title wrapped with a hyphen is one title, joined.
    assert_eq!(report_sections("eu-027")[2].as_deref(), Some("B Appendix B: Financial Literacy and Stock Market Participation over Deciles of Financial Wealth"));
    // eu-016: the left and right pages' running headers are set large too, but they are not sections.
    assert!(report_sections("eu-016").iter().all(Option::is_none));
}

#[test]
fn bold_headings_at_the_text_size_are_sections_below_larger_ones_and_table_titles_are_not() {
    // eu-013: numbered chapters at 16 pt over bold 12 pt headings in 12 pt regular text.
    let s = report_sections("eu-013");
    assert_eq!(s[2].as_deref(), Some("5.2. Continuing vocational education and training — Polytechnics"));
    assert_eq!(s[3].as_deref(), Some("5.2. Continuing vocational education and training — 5.2.3. Participants"));
    assert_eq!(s[10].as_deref(), Some("6.2. Preservice training for IVET teachers — 6.2.5. Principals"));
    // eu-001: each bold line names the table right under it ("Greenhouse gases"), not a section.
    assert!(report_sections("eu-001").iter().all(Option::is_none));
}

#[test]
fn outline_titles_in_pdf_doc_encoding_keep_their_dashes() {
    let s = sections("JPMORGAN_2021Q1_10Q.pdf");
    assert_eq!(s[2].as_deref(), Some("Part I – Financial information"));
    assert!(s.iter().flatten().all(|t| !t.contains('\u{FFFD}')), "no replacement characters in section titles");
}

#[test]
fn statement_table_keeps_parenthesised_negatives() {
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(
        &bytes,
        "AMCOR_2023Q4_EARNINGS.pdf",
        &IngestSettings::default(),
    );
    let row = ex
        .pages
        .iter()
        .flat_map(|p| p.tables.iter())
        .flat_map(|t| t.grid())
        .find(|r| r.first().is_some_and(|c| c == "Cost of sales"))
        .expect("an income statement row labelled 'Cost of sales'");
    assert_eq!(&row[1..], &["(3,115)", "(2,951)", "(11,724)", "(11,969)"]);
}

#[test]
fn documents_have_unique_ids_boxes_and_row_documents() {
    let s = IngestSettings::default();
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(&bytes, "AMCOR_2023Q4_EARNINGS.pdf", &s);
    let docs = ingest::documents(&ex, &s);
    let mut ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "document ids collide");
    let text: Vec<_> = docs
        .iter()
        .filter(|d| d.modality == Modality::Text)
        .collect();
    assert!(!text.is_empty());
    assert!(
        text.iter()
            .all(|d| !d.bboxes.is_empty() && d.page_size.0 > 0.0),
        "text docs carry boxes"
    );
    assert!(text.iter().all(|d| d.text.len() < 2500));
    let rows: Vec<_> = docs
        .iter()
        .filter(|d| d.id.contains("-table-ct") && d.id.contains('r'))
        .collect();
    assert!(!rows.is_empty(), "row documents exist");
    assert!(rows
        .iter()
        .all(|d| d.table.as_ref().is_some_and(|t| t.row_label.is_some())));
    assert!(docs
        .iter()
        .any(|d| d.id == "AMCOR_2023Q4_EARNINGS-p1-text-c0"));
}

#[test]
fn ruled_and_unruled_tables_are_found_on_icdar_pages() {
    let bytes = read(&format!("{ICDAR}eu-001.pdf"));
    let ex = ingest::extract(&bytes, "eu-001.pdf", &IngestSettings::default());
    let n: usize = ex.pages.iter().map(|p| p.tables.len()).sum();
    // Ground truth: 7 tables on 3 pages.
    assert!((5..=9).contains(&n), "{n} tables");
    let json = ingest::tables_json(&ex);
    let t0 = &json["tables"][0];
    assert!(t0["cells"][0]["row"].is_u64() && t0["bbox"].as_array().is_some_and(|b| b.len() == 4));
}

#[test]
fn extract_json_follows_the_cli_contract() {
    let bytes = read(&format!("{ICDAR}eu-002.pdf"));
    let ex = ingest::extract(&bytes, "eu-002.pdf", &IngestSettings::default());
    let v = ingest::extract_json(&ex);
    assert_eq!(v["source"], "eu-002.pdf");
    let p = &v["pages"][0];
    assert_eq!(p["page"], 1);
    assert!(p["text"].is_string() && p["width"].is_number());
    let kinds = ["text", "table", "image", "chart", "header", "footer"];
    for b in p["blocks"].as_array().into_iter().flatten() {
        assert!(kinds.contains(&b["kind"].as_str().unwrap_or("")));
        assert_eq!(b["bbox"].as_array().map(|a| a.len()), Some(4));
    }
    // Text blocks carry their lines: box, size and spans naming a face in the page's fonts.
    let fonts = p["fonts"].as_array().map_or(0, Vec::len);
    let lines: Vec<&serde_json::Value> =
        p["blocks"].as_array().into_iter().flatten().flat_map(|b| b["lines"].as_array().into_iter().flatten()).collect();
    assert!(fonts > 0 && !lines.is_empty(), "{fonts} fonts, {} lines", lines.len());
    for l in lines {
        assert_eq!(l["bbox"].as_array().map(|a| a.len()), Some(4));
        assert!(l["size"].as_f64().is_some_and(|s| s > 0.0));
        for sp in l["spans"].as_array().into_iter().flatten() {
            assert!(sp["font"].as_u64().is_some_and(|f| (f as usize) < fonts) && sp["text"].is_string());
        }
    }
    // The CLI writes the same contract straight out.
    let mut out = vec![];
    ingest::write_extract_json(&ex, &mut out).expect("written");
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&out).expect("JSON"), v);
}

/// (text of the span that starts with `start`, its face) on page `page`.
fn span_face<'a>(ex: &'a ingest::Extracted, page: usize, start: &str) -> (&'a str, &'a ingest::FontFace) {
    let p = &ex.pages[page - 1];
    p.blocks
        .iter()
        .flat_map(|b| &b.lines)
        .flat_map(|l| &l.spans)
        .find(|s| s.text.starts_with(start))
        .map(|s| (s.text.as_str(), &p.fonts[s.font as usize]))
        .unwrap_or_else(|| panic!("page {page}: no span starts with {start:?}"))
}

#[test]
fn lines_keep_the_typeface_they_are_set_in_and_bold_shows() {
    // Named faces: Arial's bold and regular cuts, the subset tag dropped.
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(&bytes, "AMCOR_2023Q4_EARNINGS.pdf", &IngestSettings::default());
    let (_, head) = span_face(&ex, 1, "Fiscal 2023 Full Year Highlights");
    assert_eq!((head.name.as_deref(), head.bold, head.italic), (Some("Arial-BoldMT"), true, false));
    let (_, body) = span_face(&ex, 1, "• Net sales of $14,694 million");
    assert_eq!((body.name.as_deref(), body.bold), (Some("ArialMT"), false));
    for p in &ex.pages {
        for b in &p.blocks {
            let text: Vec<String> = b.lines.iter().map(|l| l.text()).collect();
            assert!(b.lines.is_empty() || text.join("\n") == b.text, "page {}: lines are not the block's text", p.page);
            assert!(b.lines.iter().flat_map(|l| &l.spans).all(|s| (s.font as usize) < p.fonts.len()));
        }
    }
    // A face named only "CIDFont+F2" is bold by its weight class: General Mills' risk-factor
    // headings, set at the body's size, against the body text.
    let bytes = read(&format!("{FB}GENERALMILLS_2020_10K.pdf"));
    let ex = ingest::extract(&bytes, "GENERALMILLS_2020_10K.pdf", &IngestSettings::default());
    let (_, head) = span_face(&ex, 10, "We may be unable to maintain our profit margins");
    let (_, body) = span_face(&ex, 10, "There has been significant consolidation");
    assert!(head.bold && !body.bold, "{head:?} {body:?}");
    // Text filled and then stroked over itself (the writer's emboldening; the font is a light cut).
    let bytes = read(&format!("{ICDAR}eu-003.pdf"));
    let ex = ingest::extract(&bytes, "eu-003.pdf", &IngestSettings::default());
    let (_, head) = span_face(&ex, 1, "Reclassifications by categories");
    assert_eq!((head.name.as_deref(), head.bold), (Some("FootlightMTLight"), true));
    let (_, title) = span_face(&ex, 1, "Appendix 1");
    assert!(title.bold, "{title:?}");
    let body = ex.pages[0].tables.iter().flat_map(|t| &t.cells).any(|c| c.text.starts_with("Number of member states in"));
    assert!(body, "the table under the heading is read");
}

#[test]
fn a_bold_heading_close_under_a_paragraph_starts_the_block_it_heads() {
    // The auditor's report sets its bold headings as close to the paragraph above as its lines are.
    let bytes = read(&format!("{FB}AMAZON_2019_10K.pdf"));
    let ex = ingest::extract(&bytes, "AMAZON_2019_10K.pdf", &IngestSettings::default());
    let starts: Vec<&str> = ex.pages[34].blocks.iter().filter_map(|b| b.text.lines().next()).collect();
    for heading in ["Opinion on the Financial Statements", "Adoption of New Accounting Standard", "Basis for Opinion", "Critical Audit Matter"] {
        assert!(starts.contains(&heading), "{heading:?} does not start a block: {starts:?}");
    }
    let basis = ex.pages[34].blocks.iter().find(|b| b.text.starts_with("Basis for Opinion")).map(|b| b.text.as_str());
    assert!(basis.is_some_and(|t| t.contains("These consolidated financial statements are the responsibility")), "{basis:?}");
    // A summary of risk factors: the second group's heading is not in the first group's block.
    let bytes = read(&format!("{FB}MGMRESORTS_2020_10K.pdf"));
    let ex = ingest::extract(&bytes, "MGMRESORTS_2020_10K.pdf", &IngestSettings::default());
    let blocks = &ex.pages[15].blocks;
    assert!(blocks.iter().any(|b| b.text == "Risks Related to Our Business"), "{:?}", blocks.iter().map(|b| &b.text).collect::<Vec<_>>());
    assert!(!blocks.iter().any(|b| b.text.starts_with("Our substantial indebtedness") && b.text.contains("Risks Related")));
}

#[test]
fn right_to_left_lines_read_in_logical_order_with_their_numbers_and_brackets() {
    // tests/fixtures/rtl-report.py: Hebrew and Arabic lines set in visual order by an independent
    // bidi implementation; the .txt is each line in logical order.
    let ex = fixture("rtl-report.pdf");
    let want = String::from_utf8(read(&format!("{FIXTURES}rtl-report.txt"))).expect("UTF-8");
    let got: Vec<&str> = ex.pages[0].text.lines().filter(|l| !l.is_empty()).collect();
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w);
    }
    // Spans read in the same order as the text.
    for b in &ex.pages[0].blocks {
        let spans: Vec<String> = b.lines.iter().map(|l| l.spans.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join(" ")).collect();
        assert_eq!(spans.join("\n"), b.text);
    }
}

#[test]
fn actual_text_reads_a_figure_whose_font_maps_its_decimal_point_wrongly() {
    // tests/fixtures/README.md: the bold rows' point maps to " ." in its font's ToUnicode and is
    // put right by /ActualText; without it "11,062.6" reads "11,062 .6" and splits in two cells.
    let ex = fixture("census-arrests-2009.pdf");
    let p = &ex.pages[0];
    let total = p.text.lines().find(|l| l.starts_with("Total . .")).unwrap_or_else(|| panic!("{}", p.text));
    assert!(total.contains("11,062.6  1,540.0  9,522.6"), "{total}");
    assert!(!p.text.contains(" .6") && !p.text.contains(" .9"), "{}", p.text);
    let rows: Vec<Vec<String>> = p.tables.iter().flat_map(|t| t.grid()).collect();
    let violent = rows.iter().find(|r| r.first().is_some_and(|c| c.starts_with("Violent crime"))).unwrap_or_else(|| panic!("{rows:#?}"));
    assert_eq!(violent[1..].iter().filter(|c| !c.is_empty()).collect::<Vec<_>>(), ["467.9", "69.1", "398.8", "380.2", "56.5", "323.7", "87.7", "12.6", "75.2"]);
}

#[test]
fn a_footnote_mark_raised_after_a_rows_last_figure_stays_in_that_row_and_does_not_cut_the_table() {
    // JPM 10-Q p144: "(d)" ("Includes AFS securities associated with the First Republic
    // acquisition") is raised 1.7 em after the last figure of four "Fair value" rows, inside that
    // row's box and over the "%" of the "Average yield" row under it (which an earlier reading
    // took for its row, by the "%"). Read as a line of its own it cut the table into five.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 144).expect("page 144");
    assert_eq!(p.tables.len(), 1, "{:?}", p.tables.iter().map(|t| t.bbox).collect::<Vec<_>>());
    let rows = p.tables[0].grid();
    let yields = rows.iter().filter(|r| r[0].starts_with("Average yield")).count();
    assert_eq!(yields, 12, "{rows:#?}");
    let marked: Vec<&str> = rows.iter().filter_map(|r| r.last().filter(|c| c.ends_with("(d)")).map(|c| c.as_str())).collect();
    assert_eq!(marked, ["85,368 (d)", "24,023 (d)", "8,706 (d)", "203,262 (d)"], "{rows:#?}");
    assert!(rows.iter().filter(|r| r.last().is_some_and(|c| c.ends_with("(d)"))).all(|r| r[0] == "Fair value"), "{rows:#?}");
    assert!(!rows.iter().any(|r| r.iter().filter(|c| !c.is_empty()).eq(["(d)"].iter())), "{rows:#?}");
}

#[test]
fn a_tables_caption_is_never_a_row_of_the_table_above_it() {
    // 3M 10-K p25: the sales-change table sits right under the segment table; the segment
    // table's "Total Company" row was taken for the lower table's caption.
    let bytes = read(&format!("{FB}3M_2022_10K.pdf"));
    let ex = ingest::extract(&bytes, "3M_2022_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 25).expect("page 25");
    assert!(p.tables.len() >= 2);
    assert!(!p.tables[1].caption.contains("34,229"), "{:?}", p.tables[1].caption);
    for p in &ex.pages {
        for (k, t) in p.tables.iter().enumerate() {
            let c = t.caption.trim();
            for (j, o) in p.tables.iter().enumerate().filter(|(j, _)| *j != k) {
                let rows: Vec<String> = o.grid().iter().map(|r| r.iter().filter(|c| !c.is_empty()).cloned().collect::<Vec<_>>().join(" ")).collect();
                assert!(c.is_empty() || !rows.iter().any(|r| r == c), "p{} table {k} caption {c:?} is a row of table {j}", p.page);
            }
        }
    }
}

/// A Type 3 font of filled squares at codes `codes`, each glyph named `name(code)`; object 6 is
/// the glyph procedure.
fn type3_font(codes: &[u8], name: impl Fn(u8) -> String) -> (String, Vec<u8>) {
    let proc_ = b"600 0 0 0 500 700 d1 0 0 500 700 re f";
    let mut diffs = String::new();
    let mut procs = String::new();
    for &c in codes {
        diffs.push_str(&format!("{c} /{} ", name(c)));
        procs.push_str(&format!("/{} 6 0 R ", name(c)));
    }
    let (first, last) = (codes.iter().min().copied().unwrap_or(0), codes.iter().max().copied().unwrap_or(0));
    let widths = vec!["600"; (last - first) as usize + 1].join(" ");
    let font = format!("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << {procs}>> /Encoding << /Type /Encoding /Differences [{diffs}] >> /FirstChar {first} /LastChar {last} /Widths [{widths}] >>");
    let stream = [format!("<< /Length {} >>\nstream\n", proc_.len()).as_bytes(), &proc_[..], b"\nendstream"].concat();
    (font, stream)
}

#[test]
fn type3_glyphs_named_by_their_own_codes_read_as_those_characters() {
    // pymupdf's test_3186.pdf: a report generator's Type 3 fonts name each glyph after its code
    // ("/97" at 97) and carry no ToUnicode; pdftotext reads the code, we read nothing before.
    let text = "Net income 2023";
    let codes: Vec<u8> = text.bytes().collect();
    let content = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
    let (font, proc_) = type3_font(&codes, |c| c.to_string());
    let ex = ingest::extract(&one_page_pdf(content.as_bytes(), "", &font, &[proc_]), "t3.pdf", &IngestSettings::default());
    assert_eq!(ex.pages[0].text.trim(), text);
    // Names that say nothing ("/g12") stay unmapped glyphs: counted, not guessed.
    let (font, proc_) = type3_font(&codes, |c| format!("g{c}"));
    let ex = ingest::extract(&one_page_pdf(content.as_bytes(), "", &font, &[proc_]), "t3.pdf", &IngestSettings::default());
    assert!(ex.pages[0].text.trim().is_empty(), "{:?}", ex.pages[0].text);
    assert!(ex.pages[0].signals.garbled_glyphs >= 10, "{:?}", ex.pages[0].signals);
}

#[test]
fn a_page_the_page_tree_names_twice_is_a_page_each_time_so_later_pages_keep_their_numbers() {
    // pymupdf's 2.pdf shows its page 7 again as page 47; hayro lists a page object once, so the
    // pages after a repeat were numbered one short and citations pointed at the wrong page.
    let content = |t: &str| {
        let c = format!("BT /F1 12 Tf 72 720 Td ({t}) Tj ET");
        [format!("<< /Length {} >>\nstream\n", c.len()).into_bytes(), c.into_bytes(), b"\nendstream".to_vec()].concat()
    };
    let page = |c: u32| format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {c} 0 R >>").into_bytes();
    let bytes = pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [4 0 R 6 0 R 4 0 R 8 0 R] /Count 4 >>".to_vec(),
        HELVETICA.as_bytes().to_vec(),
        page(5),
        content("Cover page"),
        page(7),
        content("Income statement"),
        page(9),
        content("Notes to the statements"),
    ]);
    let ex = ingest::extract(&bytes, "repeat.pdf", &IngestSettings::default());
    let texts: Vec<(u32, &str)> = ex.pages.iter().map(|p| (p.page, p.text.trim())).collect();
    assert_eq!(texts, [(1, "Cover page"), (2, "Income statement"), (3, "Cover page"), (4, "Notes to the statements")]);
    // Page images are numbered the same way.
    let s = IngestSettings::default();
    assert_eq!(clair_core::render::render_page(&bytes, 4, 0.5, &s).map(|r| r.pages), Ok(4));
    let past = clair_core::render::render_page(&bytes, 5, 0.5, &s).map(|r| r.pages);
    assert!(past.as_ref().is_err_and(|e| e.contains("4 page(s)")), "{past:?}");
}

#[test]
fn small_capitals_read_as_the_capitals_their_actual_text_gives() {
    // eu-016 sets its running head and sentence-initial capitals in small caps whose glyphs map to
    // lower case; /ActualText carries the capitals.
    let bytes = read(&format!("{ICDAR}eu-016.pdf"));
    let ex = ingest::extract(&bytes, "eu-016.pdf", &IngestSettings::default());
    let t: String = ex.pages.iter().take(2).map(|p| p.text.as_str()).collect();
    assert!(t.contains("INFORMATION ON SPECIFIC ZOONOSES"), "{t}");
    assert!(t.contains("2006. Out of") && t.contains("Hungary, Ireland, Italy"), "{t}");
}

const HELVETICA: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

/// One page of text in font `font` (object 5, resource /F1) from `content`, with `/Properties`
/// resources `props` (objects: 1 catalog, 2 pages, 3 page, 4 content, 5 font, then `extra`).
fn one_page_pdf(content: &[u8], props: &str, font: &str, extra: &[Vec<u8>]) -> Vec<u8> {
    let mut objs: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /Properties << {props} >> >> /Contents 4 0 R >>").into_bytes(),
        [format!("<< /Length {} >>\nstream\n", content.len()).as_bytes(), content, b"\nendstream"].concat(),
        font.as_bytes().to_vec(),
    ];
    objs.extend_from_slice(extra);
    pdf_of(&objs)
}

#[test]
fn actual_text_stands_for_the_glyphs_it_marks_the_outermost_one_winning() {
    // ISO 32000-1 §14.9.4, each line one case: an inline property list; an empty text (the glyph
    // drawn is not text); a UTF-16 text named in the page's /Properties; a nested ActualText inside an
    // outer one; a marked sequence without ActualText, which changes nothing, then a control
    // character (eu-016 puts BEL over a space), which is no text either.
    let content = b"BT /F1 12 Tf 72 720 Td (Net ) Tj /Span << /ActualText (income) >> BDC (inc) Tj EMC ET
BT /F1 12 Tf 72 700 Td (Revenue) Tj /Span << /ActualText () >> BDC (*) Tj EMC ET
BT /F1 12 Tf 72 680 Td (Fiscal ) Tj /Span /MC0 BDC (fi) Tj EMC (scal) Tj ET
BT /F1 12 Tf 72 660 Td /Span << /ActualText (Total) >> BDC (T) Tj /Span << /ActualText (x) >> BDC (OT) Tj EMC (AL) Tj EMC ET
BT /F1 12 Tf 72 640 Td /P << /MCID 3 >> BDC (Plain) Tj EMC /Span << /ActualText <FEFF0007> >> BDC (!) Tj EMC ET";
    let bytes = one_page_pdf(content, "/MC0 << /ActualText <FEFF00460049> >>", HELVETICA, &[]);
    let ex = ingest::extract(&bytes, "marked.pdf", &IngestSettings::default());
    let lines: Vec<&str> = ex.pages[0].text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines, ["Net income", "Revenue", "Fiscal FIscal", "Total", "Plain"]);
}

#[test]
fn a_stray_delimiter_in_the_content_costs_itself_and_a_warning_not_the_rest_of_the_page() {
    // A writer's stray `]`, `)`, `>>` or `}` between text objects ended hayro's reading of the page
    // (repair.rs); pdftotext reports it and reads on, and so do we, saying where.
    for stray in ["]", ")", ">>", "}"] {
        let content = format!(
            "BT /F1 12 Tf 72 720 Td (Revenue [note] 1,234) Tj ET\n{stray}\nBT /F1 12 Tf 72 700 Td [(Net) -250 (income)] TJ ET"
        );
        let bytes = one_page_pdf(content.as_bytes(), "", HELVETICA, &[]);
        let ex = ingest::extract(&bytes, "stray.pdf", &IngestSettings::default());
        let lines: Vec<&str> = ex.pages[0].text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["Revenue [note] 1,234", "Net income"], "stray {stray}");
        let first = stray.chars().next().unwrap();
        assert!(
            ex.warnings.iter().any(|w| w.contains("stray.pdf page 1") && w.contains(&format!("`{first}`")) && w.contains("the rest was read")),
            "stray {stray}: {:?}",
            ex.warnings
        );
    }
    // A page without one reads as it is, with no warning.
    let bytes = one_page_pdf(b"BT /F1 12 Tf 72 720 Td (a \\) b) Tj ET", "", HELVETICA, &[]);
    let ex = ingest::extract(&bytes, "clean.pdf", &IngestSettings::default());
    assert_eq!(ex.pages[0].text.trim(), "a ) b");
    assert!(ex.warnings.is_empty(), "{:?}", ex.warnings);
}

#[test]
fn truncated_pdf_returns_warning_not_panic() {
    let bytes = read(&format!("{ICDAR}eu-001.pdf"));
    for keep in [0.9, 0.5, 0.2, 0.05] {
        let cut = &bytes[..(bytes.len() as f64 * keep) as usize];
        let ex = ingest::extract(cut, "cut.pdf", &IngestSettings::default());
        assert!(!ex.warnings.is_empty(), "truncated to {keep}: no warning");
    }
}

#[test]
fn byte_flipped_pdfs_never_panic() {
    let s = IngestSettings::default();
    for name in ["eu-001.pdf", "eu-005.pdf"] {
        let bytes = read(&format!("{ICDAR}{name}"));
        let mut seed: u64 = 0x9E3779B97F4A7C15;
        for round in 0..12 {
            let mut b = bytes.clone();
            for _ in 0..(1 + round * 4) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = (seed >> 33) as usize % b.len();
                b[i] ^= (seed >> 13) as u8 | 1;
            }
            let ex = ingest::extract(&b, name, &s);
            let _ = ingest::documents(&ex, &s);
        }
    }
}

#[test]
fn garbage_bytes_give_a_warning_and_no_pages() {
    let s = IngestSettings::default();
    for junk in [
        &b""[..],
        b"%PDF-1.7\n",
        b"hello world, not a pdf",
        &[0u8; 4096],
    ] {
        let ex = ingest::extract(junk, "junk.pdf", &s);
        assert!(ex.pages.is_empty());
        assert!(!ex.warnings.is_empty());
    }
}

/// Every table row on `page` (1-based) of an ICDAR 2013 document, as cell texts.
fn icdar_rows(doc: &str, page: u32) -> Vec<Vec<String>> {
    let bytes = read(&format!("{ICDAR}{doc}.pdf"));
    let ex = ingest::extract(&bytes, doc, &IngestSettings::default());
    ex.pages
        .iter()
        .filter(|p| p.page == page)
        .flat_map(|p| p.tables.iter())
        .flat_map(|t| t.grid())
        .collect()
}

#[test]
fn ruled_grid_without_body_rules_keeps_one_cell_per_figure() {
    // eu-016 p3: the header is ruled into five columns, the body rows are not; each country row
    // must still read as five cells, not one run of text.
    let rows = icdar_rows("eu-016", 3);
    let austria = rows
        .iter()
        .find(|r| r.first().is_some_and(|c| c == "Austria"))
        .expect("a row labelled Austria");
    assert_eq!(austria, &["Austria", "86.2", "13.8", "0", "3,375"]);
}

#[test]
fn tight_value_columns_under_year_headings_stay_apart() {
    // eu-018 p1: `n` and `%Pos` under each year sit 18 pt apart; the year heading over both must
    // not fuse them, and the year is a heading, not a value.
    let rows = icdar_rows("eu-018", 1);
    let austria = rows
        .iter()
        .find(|r| r.first().is_some_and(|c| c == "Austria"))
        .expect("a row labelled Austria");
    assert_eq!(
        austria,
        &["Austria", "Single", "25g", "109", "0.9", "93", "1.1", "89", "1.1", "-", "-", "-", "-"]
    );
}

#[test]
fn value_with_share_is_one_cell_and_rows_stay_rows() {
    // eu-020 p2 "Table 2.2": "1269 (19.9%)" is one value; four faculty rows, not one merged row.
    let rows = icdar_rows("eu-020", 2);
    let sciences: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r.first().is_some_and(|c| c == "Sciences"))
        .collect();
    assert!(sciences
        .iter()
        .any(|r| r.iter().any(|c| c == "1269 (19.9%)")));
    assert!(rows
        .iter()
        .any(|r| r.first().is_some_and(|c| c == "Civil Sciences")));
}

#[test]
fn chart_axes_and_legends_are_not_tables() {
    // eu-011 p2 holds four line charts (tick labels 450 … -50 beside each); p3 the one table.
    let bytes = read(&format!("{ICDAR}eu-011.pdf"));
    let ex = ingest::extract(&bytes, "eu-011", &IngestSettings::default());
    assert!(ex.pages[1].tables.is_empty(), "charts read as tables on p2");
    assert_eq!(ex.pages[2].tables.len(), 1);
}

#[test]
fn captions_stay_outside_the_table_region() {
    // eu-012 p3 "Table 1: Real GDP growth rate …" wraps to a second line; neither line is a row.
    let bytes = read(&format!("{ICDAR}eu-012.pdf"));
    let ex = ingest::extract(&bytes, "eu-012", &IngestSettings::default());
    let t = ex.pages[2]
        .tables
        .iter()
        .find(|t| t.grid().iter().any(|r| r.first().is_some_and(|c| c == "1996")))
        .expect("the GDP table");
    assert!(t.grid().iter().flatten().all(|c| !c.starts_with("Table 1")));
    assert!(t.caption.contains("percentage change") || t.caption.contains("Table 1"));
    assert_eq!(t.n_cols, 4);
}

/// Every table row of a FinanceBench filing, as its non-empty cell texts.
fn filing_rows(file: &str) -> Vec<Vec<String>> {
    let bytes = read(&format!("{FB}{file}"));
    let ex = ingest::extract(&bytes, file, &IngestSettings::default());
    ex.pages
        .iter()
        .flat_map(|p| p.tables.iter())
        .flat_map(|t| t.grid())
        .map(|r| r.into_iter().filter(|c| !c.is_empty()).collect())
        .collect()
}

fn row_labelled<'a>(rows: &'a [Vec<String>], label: &str) -> Option<&'a Vec<String>> {
    rows.iter().find(|r| r.first().is_some_and(|c| c == label))
}

#[test]
fn statement_rows_survive_ruled_blocks_and_long_labels() {
    // 3M 10-K: the equity statement sits above a small ruled table (it must not be replaced by
    // it), and the percent table's cell backgrounds must not cut `%` from its figures.
    let rows = filing_rows("3M_2022_10K.pdf");
    let balance = row_labelled(&rows, "Balance at December 31, 2019").expect("equity statement row");
    assert_eq!(balance.get(1).map(String::as_str), Some("$ 10,126"));
    let cost = rows
        .iter()
        .find(|r| r.first().is_some_and(|c| c == "Cost of sales") && r.iter().any(|c| c == "56.2 %"))
        .expect("cost of sales as a percent of net sales");
    assert_eq!(&cost[1..], &["56.2 %", "53.2 %", "3.0 %"]);
    // Adobe 10-K: a ten-word label beside parenthesised negatives is a row, not prose.
    let rows = filing_rows("ADOBE_2017_10K.pdf");
    let treasury = row_labelled(
        &rows,
        "Treasury stock, at cost (109,572 and 106,580 shares, respectively), net of reissuances",
    )
    .expect("treasury stock row");
    assert_eq!(&treasury[1..], &["(6,084,436)", "(5,132,472)"]);
}

#[test]
fn footnote_markers_stay_with_their_word_and_do_not_split_a_table() {
    // Best Buy 10-Q p9: the "(1)" raised after "Adjustments" was a line of its own and cut the
    // restructuring table in two; it is one table with the marker on its row's label.
    let bytes = read(&format!("{FB}BESTBUY_2024Q2_10Q.pdf"));
    let ex = ingest::extract(&bytes, "BESTBUY_2024Q2_10Q.pdf", &IngestSettings::default());
    let restructuring = ex.pages[8]
        .tables
        .iter()
        .map(|t| t.grid())
        .find(|g| g.iter().any(|r| r[0] == "Cash payments"))
        .expect("restructuring table on p9");
    let labels: Vec<&str> = restructuring.iter().map(|r| r[0].as_str()).collect();
    let adjustments = labels.iter().position(|l| *l == "Adjustments(1)").unwrap_or_else(|| panic!("{labels:?}"));
    assert_eq!(labels.get(adjustments + 1), Some(&"Balances at July 29, 2023"), "{labels:?}");
    assert_eq!(&restructuring[adjustments][1..], &["(15)", "(1)", "(16)"]);
    // J&J's release: markers read with their words, as on the page (and in FinanceBench's gold text).
    let bytes = read(&format!("{FB}JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf"));
    let ex = ingest::extract(&bytes, "JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf", &IngestSettings::default());
    let p2 = &ex.pages[1].text;
    assert!(p2.contains("Operational Sales1,2"), "{}", &p2[..p2.len().min(600)]);
    assert!(p2.contains("Adjusted EPS (diluted)1,4"), "{}", &p2[..p2.len().min(600)]);
}

#[test]
fn a_line_inside_a_table_that_its_cells_leave_out_is_still_in_the_page_text() {
    // JPMorgan 10-Q p6: an infographic read as a table whose grid leaves out the sentence that
    // introduces it; the sentence was lost from the page.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let p6 = &ex.pages[5];
    assert!(!p6.tables.is_empty());
    assert!(p6.text.contains("Selected business metrics for each of the Firm’s four LOBs"), "{}", p6.text);
}

#[test]
fn year_blocks_ruled_edge_to_edge_read_as_one_table() {
    // American Water 10-K p8: customers by class, one shaded block per year.
    let rows = filing_rows("AMERICANWATERWORKS_2020_10K.pdf");
    let residential = row_labelled(&rows, "Residential").expect("residential row");
    assert_eq!(&residential[1..], &["2,948", "236", "2,914", "215", "2,892", "188"]);
}

#[test]
fn table_continued_on_the_next_page_is_linked_and_reads_with_the_first_parts_columns() {
    // tests/fixtures/continued-table.pdf: "Table 4. Revenue by segment" starts at the bottom of page
    // 1 under a "2022 2021" header and goes on, headerless, at the top of page 2.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/continued-table.pdf");
    let ex = ingest::extract(&read(path), "continued-table.pdf", &IngestSettings::default());
    assert_eq!(ex.pages.len(), 2);
    let (first, second) = (&ex.pages[0].tables[0], &ex.pages[1].tables[0]);
    assert!(!first.continues_from_previous);
    assert!(second.continues_from_previous, "page 2's table continues page 1's");

    let docs = ingest::documents(&ex, &IngestSettings::default());
    let whole = |page: u32| {
        docs.iter()
            .find(|d| d.page == page && d.modality == Modality::Table && d.table.as_ref().is_some_and(|t| t.row_label.is_none()))
            .and_then(|d| d.table.clone())
            .unwrap_or_else(|| panic!("a whole-table document on page {page}"))
    };
    let (t1, t2) = (whole(1), whole(2));
    // Both parts know every part, in page order, with the box each part has on its page.
    let parts: Vec<(u32, [f32; 4])> = t1.parts.iter().map(|p| (p.page, p.bbox)).collect();
    assert_eq!(parts, vec![(1, first.bbox), (2, second.bbox)]);
    assert_eq!(t1.parts, t2.parts);
    // The continuation takes the first part's columns and caption; its first row is data.
    assert_eq!(t2.columns, t1.columns);
    assert!(t1.columns.iter().any(|c| c == "2022"), "columns {:?}", t1.columns);
    assert_eq!(t2.caption, format!("{} (continued)", t1.caption));
    assert_eq!(t2.rows.first().and_then(|r| r.first()).map(String::as_str), Some("Pulmonary Hypertension"));
    let row = docs
        .iter()
        .find(|d| d.table.as_ref().is_some_and(|t| t.row_label.as_deref() == Some("Wound Care")))
        .expect("a row document for Wound Care");
    assert_eq!(row.page, 2);
    assert!(row.text.contains("2022=2,735") && row.text.contains("2021=2,304"), "{}", row.text);
    assert_eq!(row.table.as_ref().map(|t| t.parts.len()), Some(2));
    // The row's box is its own row on page 2 (not shifted by a header row the part does not have).
    let rb = row.bboxes[0];
    assert!(rb[1] >= second.bbox[1] && rb[3] <= second.bbox[3] + 0.5, "row box {rb:?} inside {:?}", second.bbox);
    // Rows sit every 20 pt from a 72 pt baseline; Wound Care's baseline is the third, at 112 pt.
    assert!(rb[1] > 100.0 && rb[3] < 118.0, "Wound Care is the third row: {rb:?}");

    // A one-page table has no parts.
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(&bytes, "AMCOR_2023Q4_EARNINGS.pdf", &IngestSettings::default());
    let docs = ingest::documents(&ex, &IngestSettings::default());
    assert!(docs.iter().filter_map(|d| d.table.as_ref()).all(|t| t.parts.is_empty()));
}

/// The tables found on each page of an ICDAR 2013 document (index 0 is page 1).
fn icdar_tables(doc: &str) -> Vec<Vec<ingest::Table>> {
    let bytes = read(&format!("{ICDAR}{doc}.pdf"));
    let ex = ingest::extract(&bytes, doc, &IngestSettings::default());
    ex.pages.into_iter().map(|p| p.tables).collect()
}

#[test]
fn line_chart_legend_is_not_a_table() {
    // eu-011 p1: "Greece  Spain / Ireland  Italy / Portugal  UK", each name after a coloured stroke.
    assert!(icdar_tables("eu-011")[0].is_empty());
}

#[test]
fn figures_on_stacked_bars_are_not_a_table() {
    // eu-012 p3: a stacked bar chart with its shares printed on the bars, then the GDP table.
    let p3 = &icdar_tables("eu-012")[2];
    assert_eq!(p3.len(), 1, "{:?}", p3.iter().map(|t| t.grid()).collect::<Vec<_>>());
    assert!(p3[0].grid().iter().any(|r| r.first().is_some_and(|c| c == "1996")));
}

#[test]
fn flow_chart_of_boxed_labels_is_not_a_table() {
    // eu-014 p1: "Taxes → State budget → Ministry of Education → …", one box per label.
    assert!(icdar_tables("eu-014")[0].is_empty());
}

#[test]
fn sentence_with_superscripts_is_not_a_table() {
    // eu-023 p3: "3rd -5th year students" under Table 3.4; only the table is a table.
    let p3 = &icdar_tables("eu-023")[2];
    assert_eq!(p3.len(), 1);
    assert!(p3[0].grid()[0][0].starts_with("How often"));
}

#[test]
fn grids_side_by_side_on_a_rotated_page_are_three_tables_in_the_displayed_frame() {
    // eu-015 p2 is printed with /Rotate 90: three ruled country tables side by side. Nothing is
    // read across them, and boxes are in the displayed (landscape) frame, origin top-left.
    let bytes = read(&format!("{ICDAR}eu-015.pdf"));
    let ex = ingest::extract(&bytes, "eu-015", &IngestSettings::default());
    let p2 = &ex.pages[1];
    assert!(p2.width > p2.height, "{} x {}", p2.width, p2.height);
    assert_eq!(p2.tables.len(), 3);
    let first = &p2.tables[0];
    // pdftotext -bbox puts "Spain" (first body row, first table) at x 58, y 101-108.
    assert!((first.bbox[0] - 57.0).abs() < 3.0 && first.bbox[1] < 101.0 && first.bbox[3] > 400.0, "{:?}", first.bbox);
    assert!(p2.tables.iter().all(|t| t.bbox[2] - t.bbox[0] < 130.0));
}

#[test]
fn shaded_two_line_heading_is_one_heading_cell() {
    // eu-001 p1: "to air" over "kg/year" in one shaded heading cell.
    let p1 = &icdar_tables("eu-001")[0];
    assert!(
        p1.iter().flat_map(|t| t.cells.iter()).any(|c| c.text == "to air kg/year"),
        "{:?}",
        p1.iter().map(|t| t.grid()).collect::<Vec<_>>()
    );
}

#[test]
fn running_headers_and_printed_page_numbers_are_furniture_and_label_the_pages() {
    // Nike FY2018 10-K, an EDGAR export without /PageLabels: "Table of Contents" opens every page
    // and the printed number, two behind the physical page, closes it (right under the last
    // paragraph, not at the foot of the sheet).
    let file = "NIKE_2018_10K.pdf";
    let s = IngestSettings::default();
    let ex = ingest::extract(&read(&format!("{FB}{file}")), file, &s);
    let p21 = &ex.pages[20];
    assert_eq!(p21.label.as_deref(), Some("19"));
    let first = p21.blocks.iter().find(|b| !b.text.trim().is_empty()).expect("a block");
    assert_eq!((first.kind, first.text.trim()), (BlockKind::Header, "Table of Contents"));
    let footer = p21.blocks.iter().rev().find(|b| b.kind == BlockKind::Footer).expect("a footer");
    assert_eq!(footer.text.trim(), "19");
    // The page text is the page as printed; prose documents leave the furniture out.
    assert!(p21.text.starts_with("Table of Contents"));
    let docs = ingest::documents(&ex, &s);
    let prose: Vec<_> = docs.iter().filter(|d| d.page == 21 && d.modality == Modality::Text).collect();
    assert!(!prose.is_empty());
    assert!(prose.iter().all(|d| !d.text.contains("Table of Contents")), "{:?}", prose[0].text);
    assert_eq!(prose[0].page_label.as_deref(), Some("19"));
    // Labels run in step with the physical pages wherever two neighbours both have one.
    let labelled: Vec<(u32, i64)> = ex.pages.iter().filter_map(|p| Some((p.page, p.label.as_deref()?.parse().ok()?))).collect();
    assert!(labelled.len() * 10 >= ex.pages.len() * 8, "{} of {} pages labelled", labelled.len(), ex.pages.len());
    for w in labelled.windows(2) {
        if w[1].0 == w[0].0 + 1 {
            assert_eq!(w[1].1, w[0].1 + 1, "labels of pages {} and {}", w[0].0, w[1].0);
        }
    }
}

#[test]
fn trees_that_loop_back_on_themselves_cost_a_warning_not_the_process() {
    // A /PageLabels number tree and a /Names /Dests name tree (walked for the outline entry that
    // names a destination) whose /Kids point at themselves: pdf-rs's own walks recurse until the
    // stack overflows, which kills the process (natively) or the worker (wasm) — no catch_unwind
    // helps. They are walked with a visited set instead.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/crash/");
    for (file, warning) in [("page-labels-cycle.pdf", "page labels could not be read"), ("named-dests-cycle.pdf", "named destinations could not be read")] {
        let ex = ingest::extract(&read(&format!("{dir}{file}")), file, &IngestSettings::default());
        assert_eq!(ex.pages.len(), 1, "{file}");
        assert!(ex.pages[0].text.contains("Revenue was 12.5 million."), "{file}: {}", ex.pages[0].text);
        assert!(ex.warnings.iter().any(|w| w.contains(warning)), "{file}: {:?}", ex.warnings);
    }
}

#[test]
fn cover_page_checkboxes_in_a_symbol_font_read_as_pdftotext_reads_them() {
    // Wingdings, ToUnicode `<0085> <F0A8>`: a private-use code a reader used to drop as unmapped.
    let bytes = read(&format!("{FB}AMCOR_2022_8K_dated-2022-07-01.pdf"));
    let ex = ingest::extract(&bytes, "AMCOR_2022_8K_dated-2022-07-01.pdf", &IngestSettings::default());
    let p1 = &ex.pages[0];
    assert_eq!(p1.signals.garbled_glyphs, 0);
    assert!(p1.text.contains("\u{A8} Written communications pursuant to Rule 425"), "{}", p1.text);
}

#[test]
fn pages_read_on_several_threads_come_out_as_on_one() {
    // The CLI reads pages on every core (issue 3 speed bar); the result, warnings included, must
    // not depend on it. A small work budget gives some pages a warning, so their order is checked too.
    let bytes = read(&format!("{FB}AMCOR_2023Q4_EARNINGS.pdf"));
    let s = IngestSettings { max_page_operators: 1_500, ..IngestSettings::default() };
    let one = ingest::extract_on_threads(bytes.clone(), "AMCOR_2023Q4_EARNINGS.pdf", &s, 1);
    assert_eq!(one.pages.len(), 14);
    let cut = one.warnings.iter().filter(|w| w.contains("per-page work budget")).count();
    assert!(cut >= 2, "the small budget should cut some pages: {:?}", one.warnings);
    // Two threads: the lead interprets, the other builds (`read::Pipeline`); three: two helpers.
    for threads in [2, 3] {
        let many = ingest::extract_on_threads(bytes.clone(), "AMCOR_2023Q4_EARNINGS.pdf", &s, threads);
        assert_eq!(one.warnings, many.warnings, "{threads} threads");
        assert_eq!(ingest::extract_json(&one), ingest::extract_json(&many), "{threads} threads");
        assert_eq!(ingest::tables_json(&one), ingest::tables_json(&many), "{threads} threads");
        assert_eq!(many.pages.iter().map(|p| p.page).collect::<Vec<_>>(), (1..=14).collect::<Vec<u32>>());
    }
}

#[test]
fn a_column_of_text_beside_a_table_is_not_read_as_its_row_labels() {
    // JPMorgan 10-Q p24: the left column is running text, the right column holds the "Selected
    // metrics" table. Their lines share baselines, so the text was read as row labels and cut the
    // table into four pieces; the table's shaded header box stood for the whole table.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 24).expect("page 24");
    assert_eq!(p.tables.len(), 1, "{:?}", p.tables.iter().map(|t| t.bbox).collect::<Vec<_>>());
    let t = &p.tables[0];
    assert!(t.bbox[0] > 300.0, "the table stays in the right column: {:?}", t.bbox);
    let g = t.grid();
    let row = |label: &str| g.iter().filter(|r| r[0] == label).cloned().collect::<Vec<_>>();
    assert_eq!(row("Total assets(a)").len(), 2, "{g:?}");
    assert_eq!(row("Total assets(a)")[0][1..], ["$ 1,355,123", "$ 1,216,558", "11 %"]);
    assert_eq!(row("Headcount")[0][1..], ["62,772", "60,245", "4 %"]);
    assert_eq!(row("Loans held-for-sale and loans at fair value(c)").len(), 2, "{g:?}");
    assert!(!g.concat().iter().any(|c| c.contains("Equity Markets") || c.contains("expense")), "{g:?}");
    // The text column stays text, in its own blocks.
    assert!(p.text.contains("Equity Markets revenue was $3.3 billion, up 47%, driven\nby strong performance"), "{}", p.text);
}

/// The grid row (label, then the rest) of the first table on the page with a row so labelled.
fn row_of(p: &ingest::Page, label: &str) -> Option<(BBoxOf, Vec<String>)> {
    p.tables.iter().find_map(|t| {
        t.grid().into_iter().find(|r| r[0] == label).map(|r| (t.bbox, r[1..].iter().filter(|c| !c.is_empty()).cloned().collect()))
    })
}
type BBoxOf = [f32; 4];

/// One page of a FinanceBench filing, read on its own.
fn fb_page(file: &str, page: u32) -> ingest::Page {
    let bytes = read(&format!("{FB}{file}"));
    let ex = ingest::extract(&bytes, file, &IngestSettings::default());
    ex.pages.into_iter().find(|p| p.page == page).unwrap_or_else(|| panic!("{file} p{page}"))
}

#[test]
fn a_page_set_in_two_columns_reads_the_tables_of_each_column_apart() {
    // JPMorgan 10-Q 2023Q2 p174: Note 16 (deposits, three tables) in the left column, Note 17
    // (leases, two tables) in the right, set on each other's baselines. Read across the page, the
    // deposits table took the right column's sentences as rows and lost its own heading rows, the
    // maturities table took the lease income rows, and the right column's text was hidden in them.
    let p = jpm_2023q2().pages.iter().find(|p| p.page == 174).expect("page 174");
    for t in &p.tables {
        assert!(t.bbox[2] < 300.0 || t.bbox[0] > 310.0, "a table across the gutter: {:?} {:?}", t.bbox, t.grid());
    }
    let (deposits, total) = row_of(p, "Total deposits").expect("the deposits table");
    assert_eq!(total, ["$ 2,398,962", "$ 2,340,179"]);
    let t = p.tables.iter().find(|t| t.bbox == deposits).unwrap();
    let g = t.grid();
    assert!(g[0].contains(&"June 30, 2023".to_string()) && g[0].contains(&"December 31, 2022".to_string()), "{g:?}");
    assert!(!g.concat().iter().any(|c| c.contains("lease")), "{g:?}");
    let (leases, rou) = row_of(p, "Right-of-use assets").expect("the lease table");
    assert!(leases[0] > 310.0, "{leases:?}");
    assert_eq!(rou, ["$ 8,399 (a)", "$ 7,782"]);
    let (maturities, after) = row_of(p, "After 5 years").expect("the maturities table");
    assert!(maturities[2] < 300.0, "{maturities:?}");
    assert_eq!(after, ["533", "214", "747"]);
    // The right column's text is text again, in reading order.
    assert!(p.text.contains("The carrying values of the Firm’s operating leases were as\nfollows:"), "{}", p.text);
}

#[test]
fn a_small_table_under_two_lines_of_text_beside_a_column_of_text_is_read_apart_from_it() {
    // JPMorgan 10-Q 2021Q1 p112: the left column holds two lines that introduce a two-row table
    // ("Other expense"), the right column Note 6's text over the interest income table. The left
    // column is too short for running text of its own; read across the page, its table took the
    // right table's heading lines ("Three months ended", "(in millions)") as cells and the right
    // table lost them. p25: "Selected metrics" (left) took "Investment banking fees" (right) in.
    // Both pages have a page number in the gutter, which is not where the right column starts.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let page = |n: u32| ex.pages.iter().find(|p| p.page == n).expect("page");
    let p = page(112);
    for t in &p.tables {
        assert!(t.bbox[2] < 300.0 || t.bbox[0] > 310.0, "a table across the gutter: {:?} {:?}", t.bbox, t.grid());
    }
    let (legal, row) = row_of(p, "Legal expense").expect("the other expense table");
    assert_eq!(row, ["$ 28", "$ 197"]);
    let other = p.tables.iter().find(|t| t.bbox == legal).unwrap();
    assert_eq!(other.caption, "Other expense — Other expense on the Firm’s Consolidated statements of income included the following:");
    let (interest, row) = row_of(p, "Loans (a)").expect("the interest income table");
    assert_eq!(row, ["$ 10,187", "$ 12,305"]);
    let interest = p.tables.iter().find(|t| t.bbox == interest).unwrap();
    let head = interest.grid()[..interest.header_rows].concat().join(" ");
    assert!(head.contains("Three months ended March 31,") && head.contains("2021"), "{head}");
    assert_eq!(interest.caption, "The following table presents the components of interest income and interest expense.");
    let p = page(25);
    let (metrics, row) = row_of(p, "Total nonaccrual loans").expect("the selected metrics table");
    assert_eq!(row, ["2,108", "1,455", "45"]);
    let metrics = p.tables.iter().find(|t| t.bbox == metrics).unwrap();
    assert!(metrics.bbox[2] < 300.0, "{:?}", metrics.bbox);
    assert!(!metrics.grid().concat().iter().any(|c| c.contains("underwriting")), "{:#?}", metrics.grid());
    assert!(row_of(p, "Advisory").is_some_and(|(b, r)| b[0] > 310.0 && r == ["$ 680", "$ 503", "35 %"]));
}

#[test]
fn column_headings_set_apart_over_the_rows_head_their_table_not_a_table_of_their_own() {
    // Microsoft 2016: headings stacked over each column ("Gross / Carrying / Amount") stand two
    // lines and more above the first row; they were read as a table without a figure, and the
    // table under them had no headings and no caption (p78, p67), or took the headings for its
    // caption (p89, "Declaration Date Per Share Record Date …").
    let p = fb_page("MICROSOFT_2016_10K.pdf", 78);
    let (b, row) = row_of(&p, "Technology-based (a)").expect("the intangible assets table");
    assert_eq!(row[..3], ["$ 5,970", "$ (3,648)", "$ 2,322"]);
    assert_eq!(p.tables.len(), 1, "{:#?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    let t = p.tables.iter().find(|t| t.bbox == b).unwrap();
    assert_eq!(t.caption, "The components of intangible assets, all of which are finite-lived, were as follows:");
    let head = &t.grid()[..t.header_rows];
    assert!(head.iter().any(|r| r.contains(&"Gross Carrying Amount".to_string()) && r.contains(&"Accumulated Amortization".to_string())), "{head:?}");
    let p = fb_page("MICROSOFT_2016_10K.pdf", 89);
    for year in ["2016", "2015"] {
        let caption = format!("In fiscal year {year}, our Board of Directors declared the following dividends:");
        let t = p.tables.iter().find(|t| t.caption == caption).unwrap_or_else(|| panic!("no table captioned {caption:?}"));
        assert_eq!(t.grid()[0][0], "Declaration Date", "{:#?}", t.grid());
    }
}

#[test]
fn a_table_set_across_a_two_column_page_stays_one_table() {
    // JPMorgan 10-Q 2023Q2 p56: the deposits-by-line-of-business table runs across both columns
    // (labels left of the gutter, figures right of it) between two-column text above and below;
    // p16's balance sheet table sits over two columns of text. Each stays one table, header and
    // all. 2021Q1 p38: a label wrapped in the right column ("… at December 31, / 2020  $ 234,844")
    // is that column's row, not a row across the page.
    let p56 = jpm_2023q2().pages.iter().find(|p| p.page == 56).expect("page 56");
    let (_, firm) = row_of(p56, "Total Firm").expect("Total Firm");
    assert_eq!(firm, ["$ 2,398,962", "$ 2,340,179", "$ 2,387,414", "$ 2,532,312", "$ 2,354,131", "$ 2,523,979"]);
    let p16 = jpm_2023q2().pages.iter().find(|p| p.page == 16).expect("page 16");
    let (_, cash) = row_of(p16, "Cash and due from banks").expect("Cash and due from banks");
    assert_eq!(cash, ["$ 26,064", "$ 27,697", "(6) %"]);
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let p38 = ex.pages.iter().find(|p| p.page == 38).expect("page 38");
    let (left, tier1) = row_of(p38, "Standardized/Advanced Tier 1 capital").expect("the left table");
    assert_eq!(tier1, ["$ 237,333", "$ 234,844"]);
    assert!(left[2] < 310.0, "{left:?}");
    // Under a ruled heading box, one row of figures is enough to make the box a heading (p41).
    let p41 = ex.pages.iter().find(|p| p.page == 41).expect("page 41");
    let (_, net) = row_of(p41, "Net Capital").expect("Net Capital");
    assert_eq!(net, ["$ 25,908", "$ 4,966"]);
}

#[test]
fn cells_of_text_side_by_side_in_a_ruled_table_are_not_a_page_of_two_columns() {
    // Verizon 10-K 2021 p64: a ruled table of accounting standards whose description and effect
    // columns are both running text. A rule drawn down the strip between them makes it a table,
    // and each line of a description stays a row beside its date.
    let p = fb_page("VERIZON_2021_10K.pdf", 64);
    let rows: Vec<Vec<String>> = p.tables.iter().flat_map(|t| t.grid()).collect();
    let row = rows.iter().find(|r| r.contains(&"11/1/2021".to_string())).expect("the row dated 11/1/2021");
    assert_eq!(row[0], "In October 2021, the FASB issued ASU 2021-08. The guidance", "{row:?}");
}

#[test]
fn a_heading_over_the_first_figures_that_reaches_left_of_them_heads_their_column_not_the_labels() {
    // The label column reaches to the first value column. Walmart 2018 p34 sets "Total Number of /
    // Shares Repurchased" left of its share counts but right of every label; it was the label
    // column's, and its second line ran into "Fiscal Period" ("Fiscal Period Shares Repurchased").
    let p = fb_page("WALMART_2018_10K.pdf", 34);
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "November 1-30, 2017")).expect("the repurchase table");
    let g = t.grid();
    let head = &g[..t.header_rows];
    assert!(head.iter().any(|r| r[0] == "Fiscal Period" && r[1] == "Shares Repurchased"), "{head:#?}");
    assert!(head.iter().any(|r| r[0].is_empty() && r[1] == "Total Number of"), "{head:#?}");
    assert!(g.iter().any(|r| r[..3] == ["November 1-30, 2017", "6,816,775", "$ 93.00"]), "{g:#?}");
    // Adobe 2015 p92: "Number of / Shares (thousands)" over the option counts.
    let p = fb_page("ADOBE_2015_10K.pdf", 92);
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0].starts_with("Options outstanding"))).expect("the options table");
    assert_eq!(t.grid()[1][..2], ["", "Shares (thousands)"], "{:#?}", t.grid());
}

#[test]
fn a_sentence_introducing_a_table_is_its_caption_not_its_heading() {
    // Lockheed Martin 10-K 2020 p53: "… commitments are as follows (in millions):" ends the
    // paragraph over the table; a label that ends in a colon is still a row (Walmart 2020 p51).
    let p = fb_page("LOCKHEEDMARTIN_2020_10K.pdf", 53);
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "Total debt")).expect("the table");
    assert_eq!(t.caption, "Payments due under these obligations and commitments are as follows (in millions):");
    assert!(!t.grid().concat().iter().any(|c| c.contains("as follows")), "{:?}", t.grid());
    let p = fb_page("WALMART_2020_10K.pdf", 51);
    assert!(p.tables.iter().any(|t| t.grid().iter().any(|r| r[0] == "Net income per common share:")));
}

#[test]
fn two_rows_of_figures_draw_the_columns_a_heading_centred_over_them_does_not_fuse() {
    // JPM 10-Q 2023Q2 p174: "Six months ended / June 30," is centred over "$ 1,471  $ 1,993";
    // with only two rows of figures the heading drew the columns and fused the two, and the
    // ruled heading box then stood for the whole table. 3M 2022 p80: the postretirement columns.
    let p = jpm_2023q2().pages.iter().find(|p| p.page == 174).expect("page 174");
    let (_, income) = row_of(p, "Operating lease income").expect("the lease income table");
    assert_eq!(income, ["$ 716", "$ 945", "$ 1,471", "$ 1,993"]);
    let (_, depreciation) = row_of(p, "Depreciation expense").expect("its second row");
    assert_eq!(depreciation, ["457", "668", "876", "1,379"]);
    let p80 = fb_page("3M_2022_10K.pdf", 80);
    let (_, rate) = row_of(&p80, "Discount rate").expect("Discount rate");
    assert_eq!(rate, ["5.18 %", "2.89 %", "2.55 %", "4.39 %", "1.80 %", "1.38 %", "5.25 %", "2.88 %", "2.50 %"]);
}

#[test]
fn a_table_column_of_wrapped_text_stays_in_its_table() {
    // Columns that wrap like running text but are the table's own: an exhibit index's
    // descriptions beside "8-K  2.1  4/30/2013" (Best Buy p95, no worded labels beside them), and
    // Boeing's union-agreement statuses (p4, a column heading above and nothing below).
    for (file, page, text) in [
        ("BESTBUY_2019_10K.pdf", 95, "Implementation Agreement, dated April 29, 2013"),
        ("BOEING_2022_10K.pdf", 4, "We have two major agreements expiring in October 2026."),
    ] {
        let bytes = read(&format!("{FB}{file}"));
        let ex = ingest::extract(&bytes, file, &IngestSettings::default());
        let p = ex.pages.iter().find(|p| p.page == page).expect("page");
        let cells: Vec<&str> = p.tables.iter().flat_map(|t| t.cells.iter().map(|c| c.text.as_str())).collect();
        assert!(cells.iter().any(|c| c.contains(text)), "{file} p{page}: {cells:?}");
    }
}

/// A table's header cells on a page: (row, column, columns spanned, text).
fn header_cells(t: &ingest::Table) -> Vec<(usize, usize, usize, String)> {
    t.cells.iter().filter(|c| c.row < t.header_rows).map(|c| (c.row, c.col, c.col_span, c.text.clone())).collect()
}

#[test]
fn a_heading_ruled_off_over_a_group_of_columns_spans_the_group_and_stays_out_of_the_cells_below() {
    // Census table 324 (tests/fixtures/README.md): "Total", "Male" and "Female" each sit over the
    // middle of three columns, a rule under them and vertical rules between the groups. The
    // lines below read "Under 18 / years" and "18 years / and over", the last line's words closer
    // together than a cell gap.
    let ex = fixture("census-arrests-2009.pdf");
    let t = &ex.pages[0].tables[0];
    assert_eq!(t.header_rows, 2, "{:?}", header_cells(t));
    let head = header_cells(t);
    let groups: Vec<(usize, usize, usize, String)> = head.iter().filter(|c| c.0 == 0).cloned().collect();
    assert_eq!(
        groups,
        [(0, 1, 3, "Total".to_string()), (0, 4, 3, "Male".to_string()), (0, 7, 3, "Female".to_string())]
    );
    let below: Vec<&str> = head.iter().filter(|c| c.0 == 1).map(|c| c.3.as_str()).collect();
    let group = ["Total", "Under 18 years", "18 years and over"];
    assert_eq!(below, [&["Offense charged"][..], &group, &group, &group].concat());
}

#[test]
fn a_rule_under_one_header_cell_keeps_its_lines_together_and_bounds_the_columns_it_spans() {
    // Ulta Beauty earnings release p6: "13 Weeks Ended" is ruled off over both periods; each date
    // is ruled off over its amount and percent columns, with a second rule under its own
    // "(Unaudited)" line, which stays in the date's cell.
    let bytes = read(&format!("{FB}ULTABEAUTY_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(&bytes, "ULTABEAUTY_2023Q4_EARNINGS.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 6).expect("page 6");
    let head = header_cells(&p.tables[0]);
    assert_eq!(
        head,
        [
            (0, 1, 4, "13 Weeks Ended".to_string()),
            (1, 1, 2, "January 28, 2023 (Unaudited)".to_string()),
            (1, 3, 2, "January 29, 2022 (Unaudited)".to_string()),
        ]
    );
}

#[test]
fn a_section_label_below_the_rule_under_the_header_opens_the_body() {
    // Amcor 10-Q p8 (cash flows): the first line under the header's rule is the section label
    // "Cash flows from operating activities:", a row of the body, not the second line of
    // "($ in millions)".
    let bytes = read(&format!("{FB}AMCOR_2023Q2_10Q.pdf"));
    let ex = ingest::extract(&bytes, "AMCOR_2023Q2_10Q.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 8).expect("page 8");
    let g = p.tables[0].grid();
    assert!(g.iter().any(|r| r[0] == "($ in millions)" && r[1..] == ["2022", "2021"]), "{g:?}");
    assert!(g.iter().any(|r| r[0] == "Cash flows from operating activities:"), "{g:?}");
}

#[test]
fn a_table_whose_first_header_row_is_one_spanning_heading_is_still_a_table() {
    // Adobe 10-K p95, an exhibit index: "Incorporated by Reference" alone on the first header
    // row, ruled off over four columns, with many wrapped descriptions below. The heading fills
    // the columns it spans; counted as one cell the table read as too sparse and was dropped.
    let bytes = read(&format!("{FB}ADOBE_2022_10K.pdf"));
    let ex = ingest::extract(&bytes, "ADOBE_2022_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 95).expect("page 95");
    let rows: Vec<Vec<String>> = p.tables.iter().flat_map(|t| t.grid()).collect();
    let row = rows.iter().find(|r| r[0] == "10.3E").unwrap_or_else(|| panic!("{rows:?}"));
    assert_eq!(row[2..5], ["8-K", "1/27/21", "10.3"], "{row:?}");
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "10.3E")).expect("table");
    assert!(header_cells(t).iter().any(|c| c.3 == "Incorporated by Reference" && c.2 >= 3), "{:?}", header_cells(t));
}

#[test]
fn a_text_column_beside_one_table_ends_above_the_next_table_in_that_column() {
    // JPMorgan 10-Q p45: the left column's running text stands beside the "Long-term secured
    // funding" table on the right, and further down the same left column holds the "Long-term
    // unsecured funding" table. Reading the page without the text column must not take that
    // table's lines with it, and neither table takes in the other column's text.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 45).expect("page 45");
    let find = |label: &str| {
        p.tables
            .iter()
            .find_map(|t| t.grid().into_iter().find(|r| r[0] == label).map(|r| (t.bbox, r)))
            .unwrap_or_else(|| panic!("{label}: {:?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>()))
    };
    let (right, row) = find("Credit card securitization");
    assert_eq!(row[1..], ["$ —", "$ 1,000", "$ 625", "$ 900"]);
    assert!(right[0] > 300.0, "{right:?}");
    let (left, row) = find("Total long-term unsecured funding – issuance");
    assert_eq!(row[1..], ["$ 13,538", "$ 9,387", "$ 10,495", "$ 9,252"]);
    assert!(left[2] < 310.0, "{left:?}");
}

#[test]
fn a_dollar_sign_opens_the_next_figure_however_tight_the_columns() {
    // Ulta Beauty p7: "$ 737,877" and "$ 431,560" stand a word space apart, and the second dollar
    // sign was read as the end of the first figure ("$ 737,877 $ | 431,560").
    let bytes = read(&format!("{FB}ULTABEAUTY_2023Q4_EARNINGS.pdf"));
    let ex = ingest::extract(&bytes, "ULTABEAUTY_2023Q4_EARNINGS.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 7).expect("page 7");
    let rows: Vec<Vec<String>> = p.tables.iter().flat_map(|t| t.grid()).collect();
    for (label, values) in [("Cash and cash equivalents", ["$ 737,877", "$ 431,560"]), ("Total assets", ["$ 5,370,411", "$ 4,764,379"])] {
        let row = row_labelled(&rows, label).unwrap_or_else(|| panic!("{label}: {rows:?}"));
        assert_eq!(row[1..], values, "{row:?}");
    }
}

#[test]
fn tables_set_side_by_side_in_two_columns_are_read_apart_and_paragraph_ends_are_not_headers() {
    // JPM 10-Q p29: "Selected metrics" and "Selected metrics (continued)" stand in the page's two
    // columns, each with its own labels, header and rows on baselines of its own; one reading
    // across the page interleaved their rows ("(period-end)" beside "Net charge-offs").
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let page = |n: u32| ex.pages.iter().find(|p| p.page == n).expect("page");
    let labels = |t: &ingest::Table| -> Vec<String> { t.grid().iter().map(|r| r[0].clone()).collect() };
    // The table of page `n` with a row labelled `label`.
    let labelled = |n: u32, label: &str| {
        let t = page(n).tables.iter().find(|t| labels(t).iter().any(|l| l == label));
        t.unwrap_or_else(|| panic!("p{n}: no table with a row {label:?}")).clone()
    };
    let p29 = page(29);
    let right = labelled(29, "Net charge-offs/(recoveries)");
    assert!(right.bbox[0] > 0.45 * p29.width, "{:?}", right.bbox);
    let rows = right.grid();
    assert!(rows.iter().any(|r| r == &["Net charge-offs/(recoveries)", "$ 29", "$ 100", "(71) %"]), "{rows:#?}");
    assert!(rows.iter().any(|r| r == &["Total nonaccrual loans", "$ 1,134", "$ 793", "43"]), "{rows:#?}");
    for t in &p29.tables {
        let l = labels(t);
        let mixed = l.iter().any(|x| x == "Total assets") && l.iter().any(|x| x.starts_with("Net charge-off"));
        assert!(!mixed, "p29 table at {:?} holds rows of both tables: {l:?}", t.bbox);
    }
    let left = labelled(29, "Total assets");
    assert!(left.bbox[2] < 0.55 * p29.width, "{:?}", left.bbox);
    assert!(left.grid().iter().any(|r| r == &["Loans retained", "202,975", "232,254", "(13)"]));
    // p38: the CET1 capital table (left) and its rollforward (right), each a table of its own.
    let roll = labelled(38, "Net income applicable to common equity");
    assert!(roll.n_cols <= 3 && !labels(&roll).iter().any(|l| l == "Goodwill"), "{:#?}", roll.grid());
    // p173: the sentence that leads into the table ("… were as follows.") is not its header row.
    let t = labelled(173, "First quarter");
    assert!(t.grid().iter().flatten().all(|c| !c.contains("were as follows")), "{:#?}", t.grid());
}

#[test]
fn a_table_in_the_left_column_reads_on_past_the_lines_of_the_paragraph_beside_it() {
    // JPM 10-Q p142: the loan-sales table fills the left column while the right column's paragraph
    // runs beside it on baselines of its own, one of its lines between every two rows. Each of
    // those lines used to end the table at its header ("(in millions) 2021 2020"), and every row
    // of figures was lost.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let page = |n: u32| ex.pages.iter().find(|p| p.page == n).expect("page");
    // The table of page `n` with a row labelled `label`.
    let labelled = |n: u32, label: &str| {
        let t = page(n).tables.iter().find(|t| t.grid().iter().any(|r| r[0] == label));
        t.unwrap_or_else(|| panic!("p{n}: no table with a row {label:?}")).clone()
    };
    let p142 = page(142);
    let sales = labelled(142, "Carrying value of loans sold");
    let rows = sales.grid();
    for want in [
        ["(in millions)", "2021", "2020"],
        ["Carrying value of loans sold", "$ 23,147", "$ 24,935"],
        ["Proceeds received from loan sales as cash", "16", "9"],
        ["Total proceeds received from loan sales(c)", "$ 22,765", "$ 24,672"],
        ["Gains/(losses) on loan sales(d)(e)", "$ 4", "$ 4"],
    ] {
        assert!(rows.iter().any(|r| r == &want), "p142: no row {want:?} in {rows:#?}");
    }
    // The paragraph beside it is not read into the table, and the table stays in its column.
    assert!(rows.iter().flatten().all(|c| !c.contains("repurchase option")), "{rows:#?}");
    assert!(sales.bbox[2] < 0.55 * p142.width, "{:?}", sales.bbox);
    // p146: the U.S. deposits table beside the leases paragraph, found at all.
    let deposits = labelled(146, "Total deposits in U.S. offices");
    assert!(deposits.grid().iter().any(|r| r == &["Total deposits in U.S. offices", "1,895,995", "1,769,743"]));
}

#[test]
fn side_by_side_tables_too_sparse_to_read_across_are_still_read_one_column_at_a_time() {
    // JPM 10-Q p29: "Selected metrics" beside "Selected metrics (continued)". A small "(a)" two
    // thirds of an em after "59,983" sat on a line of its own and cut the left table in three;
    // folded into its row, the two tables read across the page make a grid too sparse to be a
    // table, and the page lost both until the regions that made no table were also split.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 29).expect("page 29");
    assert_eq!(p.tables.len(), 2, "{:?}", p.tables.iter().map(|t| t.bbox).collect::<Vec<_>>());
    let left = p.tables.iter().find(|t| t.bbox[2] < 0.55 * p.width).expect("a left-hand table");
    let rows = left.grid();
    for want in [
        ["Total assets", "$ 223,583", "$ 247,786", "(10) %"],
        // The mark stays with the figure it marks, in that figure's column.
        ["Middle Market Banking", "$ 59,983 (a)", "$ 60,317", "(1)"],
        // A label wrapped onto a second line with a hanging indent is one label.
        ["Commercial Real Estate Banking", "100,035", "102,799", "(3)"],
        ["Total Commercial Banking loans", "$ 205,859 (a)", "$ 233,366", "(12)"],
        ["Headcount", "11,748", "11,779", "— %"],
    ] {
        assert!(rows.iter().any(|r| r == &want), "p29: no row {want:?} in {rows:#?}");
    }
    assert!(!rows.iter().any(|r| r.iter().filter(|c| !c.is_empty()).eq(["(a)"].iter())), "{rows:#?}");
    let right = p.tables.iter().find(|t| t.bbox[0] > 0.5 * p.width).expect("a right-hand table");
    assert!(right.grid().iter().any(|r| r == &["Total nonperforming assets", "$ 1,158", "$ 817", "42"]));
}

#[test]
fn headings_over_indented_rows_are_not_taken_for_wrapped_labels() {
    // Lockheed Martin 10-K p85: "Net sales by contract type" heads " Fixed-price" and
    // " Cost-reimbursable", indented under it like the second line of a wrapped label.
    let bytes = read(&format!("{FB}LOCKHEEDMARTIN_2020_10K.pdf"));
    let ex = ingest::extract(&bytes, "LOCKHEEDMARTIN_2020_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 85).expect("page 85");
    let rows: Vec<Vec<String>> = p.tables.iter().flat_map(|t| t.grid()).collect();
    assert!(rows.iter().any(|r| r[0] == "Net sales by contract type"), "{rows:#?}");
    assert!(rows.iter().any(|r| r[0] == "Fixed-price" && r.len() > 1 && r[1] == "$ 18,477"), "{rows:#?}");
}

#[test]
fn a_label_line_ending_on_of_or_and_runs_on_into_the_next_lines_label() {
    // Coca-Cola 10-K p82: "Net income from continuing operations attributable to shareowners of"
    // over "The Coca-Cola Company  $ 1,181 …": the second line opens in capitals, but no label
    // ends on "of". NIKE p28 likewise ends a line on "AND".
    let p = fb_page("COCACOLA_2017_10K.pdf", 82);
    let (_, row) = row_of(&p, "Net income from continuing operations attributable to shareowners of The Coca-Cola Company")
        .expect("the wrapped label with its figures");
    assert_eq!(row, ["$ 1,181", "$ 6,527", "$ 7,351"]);
    assert!(row_of(&p, "The Coca-Cola Company").is_none());
    let p = fb_page("NIKE_2018_10K.pdf", 28);
    let (_, row) = row_of(&p, "TOTAL NIKE, INC. EARNINGS BEFORE INTEREST AND TAXES").expect("the wrapped total");
    assert_eq!(row[0], "4,379");
    // CVS 2018 p307: a line that stops inside brackets ("Other comprehensive income (Note").
    let p = fb_page("CVSHEALTH_2018_10K.pdf", 307);
    let (_, row) = row_of(&p, "Other comprehensive income (Note 13)").expect("the label closed on the next line");
    assert!(row.contains(&"53".to_string()), "{row:?}");
    assert!(row_of(&p, "13)").is_none());
}

#[test]
fn small_footnote_marks_after_figures_make_no_columns_of_their_own() {
    // Coca-Cola 10-K p95: superscript note numbers a little after "$ 219" and "$ 2,797" made two
    // columns of their own, empty in every other row.
    let bytes = read(&format!("{FB}COCACOLA_2017_10K.pdf"));
    let ex = ingest::extract(&bytes, "COCACOLA_2017_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 95).expect("page 95");
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "Assets held for sale")).expect("the table");
    let rows = t.grid();
    assert!(rows.iter().any(|r| r == &["Assets held for sale", "$ 219 1", "$ 2,797 3"]), "{rows:#?}");
    assert!(rows.iter().any(|r| r == &["Inventories", "11", "264"]), "{rows:#?}");
}

#[test]
fn a_ruled_body_under_a_header_set_without_rules_keeps_its_header() {
    // Boeing 10-K p108: rules frame the AOCI table's rows but not its five-line column headings;
    // the grid read from the rules won over the whitespace reading and the headings were lost.
    let bytes = read(&format!("{FB}BOEING_2022_10K.pdf"));
    let ex = ingest::extract(&bytes, "BOEING_2022_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 108).expect("page 108");
    assert_eq!(p.tables.len(), 1, "{:?}", p.tables.iter().map(|t| t.bbox).collect::<Vec<_>>());
    let rows = p.tables[0].grid();
    assert!(rows[0].iter().any(|c| c == "Currency Translation Adjustments"), "{rows:#?}");
    assert!(rows.iter().any(|r| r[0] == "Balance at January 1, 2020" && r[1] == "($128)"), "{rows:#?}");
    assert!(rows.iter().any(|r| r[0] == "Balance at December 31, 2022" && r.last().is_some_and(|c| c == "($9,550)")), "{rows:#?}");
}

#[test]
fn a_table_in_the_right_column_is_read_without_the_text_column_beside_it() {
    // JPM 10-Q 2023Q2 p187: the pledged-assets table sits in the right column, its rows between the
    // baselines of the left column's paragraph. Only its last two rows were found, each label
    // joined to a line of that paragraph, and the `(b)` after "FHLBs" was set into "Federal" of the
    // label's first line ("at( bF)ederal").
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 187).expect("page 187");
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "Total pledged assets")).expect("pledged assets table");
    assert!(t.bbox[0] > 300.0, "the table lies in the right column: {:?}", t.bbox);
    let rows = t.grid();
    assert!(rows.iter().any(|r| r == &["(in billions)", "June 30, 2023", "December 31, 2022"]), "{rows:#?}");
    assert!(
        rows.iter().any(|r| r == &["Assets that may be sold or repledged or otherwise used by secured parties", "$ 161.3", "$ 110.8"]),
        "{rows:#?}"
    );
    assert!(rows.iter().any(|r| r == &["Assets pledged at Federal Reserve banks and FHLBs(b)", "621.8", "567.6"]), "{rows:#?}");
    assert!(!rows.iter().flatten().any(|c| c.contains("security interest")), "{rows:#?}");
}

#[test]
fn a_sentence_between_two_tables_ends_the_first() {
    // JPM 10-Q 2023Q2 p171: two goodwill tables in the left column, "The following table presents
    // changes in the carrying amount of goodwill." between them; read without the right column's
    // text, they made one table with the sentence as a row.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 171).expect("page 171");
    assert_eq!(p.tables.len(), 2, "{:?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    let (a, b) = (p.tables[0].grid(), p.tables[1].grid());
    assert!(a.iter().any(|r| r == &["Total goodwill", "$ 52,380", "$ 51,662"]), "{a:#?}");
    assert!(!a.iter().flatten().any(|c| c.contains("following table")), "{a:#?}");
    assert!(b.iter().any(|r| r == &["Balance at beginning of period", "$ 52,144", "$ 50,298", "$ 51,662", "$ 50,315"]), "{b:#?}");
}

#[test]
fn a_date_heading_split_over_two_lines_is_a_heading_not_a_figure() {
    // JPM 10-Q 2023Q2 p154: "December / 31, 2022" heads a column; "31, 2022" was taken for a
    // figure, the ruled box around the headings for a table with figures, and the table under it
    // (nonaccrual loans by state) was dropped.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 154).expect("page 154");
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "California")).expect("the table by state");
    let rows = t.grid();
    assert!(rows.iter().any(|r| r == &["(in millions)", "June 30, 2023", "December 31, 2022"]), "{rows:#?}");
    assert!(rows.iter().any(|r| r == &["Total retained loans", "$ 68,185", "$ 63,192"]), "{rows:#?}");
}

#[test]
fn a_full_width_table_above_two_text_columns_keeps_its_rows() {
    // JPM 10-Q 2021Q1 p62: the ratings table spans the page, two columns of text below it. The
    // left column was followed up into the table through its row labels ("Total", its figures
    // across the gutter) and the rows were cut away with it.
    let bytes = read(&format!("{FB}JPMORGAN_2021Q1_10Q.pdf"));
    let ex = ingest::extract(&bytes, "JPMORGAN_2021Q1_10Q.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 62).expect("page 62");
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "Total")).expect("the ratings table");
    let rows = t.grid();
    assert!(rows.iter().any(|r| r == &["Investment-grade", "$ 32,774", "61 %", "$ 37,013", "63 %"]), "{rows:#?}");
    assert!(rows.iter().any(|r| r == &["Total", "$ 53,445", "100 %", "$ 58,802", "100 %"]), "{rows:#?}");
    assert!(!rows.iter().flatten().any(|c| c.contains("additional collateral")), "{rows:#?}");
}

#[test]
fn a_paragraph_of_capitalised_legal_prose_beside_a_table_is_still_running_text() {
    // JPM 10-Q 2023Q2 p52: the TLAC table in the right column, beside a paragraph whose lines
    // mostly open with capitals ("Securities and Use of Proceeds …", "Matters and Issuer …",
    // "Chase’s 2022 Form 10-K …"); it was not taken for running text, and its lines were read
    // into the table as row labels.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 52).expect("page 52");
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "% of RWA")).expect("the TLAC table");
    let rows = t.grid();
    assert!(rows.iter().any(|r| r == &["Total eligible amount", "$ 493.8", "$ 218.2", "$ 486.0", "$ 228.5"]), "{rows:#?}");
    assert!(rows.iter().any(|r| r == &["% of RWA", "28.9 %", "12.8 %", "29.4 %", "13.8 %"]), "{rows:#?}");
    assert!(!rows.iter().flatten().any(|c| c.contains("Unregistered") || c.contains("Preferred stock")), "{rows:#?}");
}

#[test]
fn a_stack_of_wrapped_label_lines_over_aligned_figures_stays_in_the_table() {
    // A row label wrapped over more lines than the three label-only lines a table goes on past
    // (JPM 10-Q 2023Q2 p140: the first row's label runs six lines before its figures). The
    // figures after the stack stand in the header's value columns, so the header, the wrapped
    // label and its figures are one table; the stack alone cut the header off into a table of
    // its own and lost the label's first lines.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 140).expect("page 140");
    let t = p
        .tables
        .iter()
        .find(|t| t.grid().iter().any(|r| r[0].starts_with("Total noncash compensation")))
        .expect("the noncash compensation table");
    let rows = t.grid();
    assert!(rows.iter().any(|r| r[0] == "(in millions)" && r[1..].join(" ") == "2023 2022 2023 2022"), "{rows:#?}");
    assert!(rows.iter().any(|r| r[0].starts_with("Cost of prior grants of restricted stock units")), "{rows:#?}");
}

#[test]
fn groups_of_rows_set_apart_under_headings_of_their_own_are_one_table() {
    // J&J's Q4 2022 release p21: one sales table of six groups ("Pharmaceutical", "COVID-19
    // Vaccine", "Pharmaceutical excluding COVID-19 Vaccine", …), each set apart by a blank line
    // under its heading, every group's figures in the same eleven columns. A blank line followed
    // by a heading cut the table into six, the last five without their column headings.
    let p = fb_page("JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf", 21);
    let grids: Vec<_> = p.tables.iter().map(|t| t.grid()).collect();
    assert_eq!(grids.len(), 1, "{grids:#?}");
    let labels: Vec<&str> = grids[0].iter().map(|r| r[0].as_str()).collect();
    for group in ["Pharmaceutical", "COVID-19 Vaccine", "Pharmaceutical excluding COVID-19 Vaccine"] {
        assert!(labels.contains(&group), "{labels:#?}");
    }
    assert!(labels.iter().any(|l| l.starts_with("Worldwide excluding COVID-19 Vaccine")), "{labels:#?}");
}

#[test]
fn a_long_table_is_searched_in_parts_of_a_chunks_size_each_under_its_caption_and_headings() {
    // J&J's Q4 2022 release p21: the sales table of six row groups (one table, above) prints
    // about 2,500 characters of markdown. In one document it carried every group's words and
    // outranked the pages a question was about; like prose, it is searched in parts of at most
    // `chunk_target_chars`, each a table under the same caption and column headings, together
    // every row once and in order. The row documents are unchanged.
    let s = IngestSettings::default();
    let file = "JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf";
    let ex = ingest::extract(&read(&format!("{FB}{file}")), file, &s);
    let docs = ingest::documents(&ex, &s);
    let page = ex.pages.iter().find(|p| p.page == 21).expect("page 21");
    let table = &page.tables[0];
    let rows: Vec<Vec<String>> = table.grid().into_iter().skip(table.header_rows.max(1)).collect();
    let parts: Vec<_> = docs
        .iter()
        .filter(|d| d.page == 21 && d.table.as_ref().is_some_and(|t| t.table_index == 0 && t.row_label.is_none()))
        .collect();
    assert!(parts.len() >= 2, "{:#?}", parts.iter().map(|d| (&d.id, d.text.len())).collect::<Vec<_>>());
    assert_eq!(parts[0].id, "JOHNSON_JOHNSON_2022Q4_EARNINGS-p21-table-c0");
    let mut seen: Vec<Vec<String>> = vec![];
    for d in &parts {
        let t = d.table.as_ref().expect("table meta");
        assert!(d.text.len() <= s.chunk_target_chars + t.notes.iter().map(|n| n.len() + 1).sum::<usize>() + 1, "{} is {} characters", d.id, d.text.len());
        assert_eq!(t.columns, parts[0].table.as_ref().expect("meta").columns, "each part under the table's column headings");
        assert!(t.columns.iter().any(|c| c.contains("2022")), "{:?}", t.columns);
        assert!(t.caption.is_empty() || d.text.starts_with(&format!("**{}**", t.caption)), "{}", d.text);
        assert_eq!(d.bboxes[0][0], table.bbox[0]);
        seen.extend(t.rows.iter().cloned());
    }
    assert_eq!(seen.len(), rows.len(), "every row once");
    assert!(seen.iter().zip(&rows).all(|(a, b)| a.iter().map(|c| c.trim()).eq(b.iter().map(|c| c.trim()))), "rows in order");
    let row_docs = docs.iter().filter(|d| d.page == 21 && d.table.as_ref().is_some_and(|t| t.table_index == 0 && t.row_label.is_some())).count();
    assert!(row_docs + 3 >= rows.len(), "row documents unchanged: {row_docs} of {} rows", rows.len());
    let mut ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "document ids collide");
}

#[test]
fn a_footnote_mark_raised_near_its_texts_size_stays_in_its_row() {
    // J&J's Q4 2022 release p12: "Medical Device Regulation²", "COVID-19 Vaccine related costs³"
    // and "Tax impact on special item adjustments⁴" carry marks at 6.7 pt beside 7.3 pt text,
    // raised half an em. Too large for a superscript by size, each mark was a row of its own:
    // the reconciliation came out as four tables, "Tax Adjustments" cut off from its rows.
    let p = fb_page("JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf", 12);
    let grids: Vec<_> = p.tables.iter().map(|t| t.grid()).collect();
    assert_eq!(grids.len(), 1, "{grids:#?}");
    let rows = &grids[0];
    assert!(rows.iter().all(|r| !matches!(r[0].trim(), "2" | "3" | "4")), "{rows:#?}");
    let mdr = rows.iter().find(|r| r[0].starts_with("Medical Device Regulation")).expect("the MDR row");
    assert_eq!(mdr[1..].join(" ").split_whitespace().collect::<Vec<_>>(), ["88", "73", "296", "234"], "{rows:#?}");
    assert!(rows.iter().any(|r| r[0] == "Tax Adjustments"), "{rows:#?}");
}

#[test]
fn a_balance_sheet_under_centred_section_headings_is_one_table() {
    // Amcor's 10-Q p7: the balance sheet's "Assets", "Liabilities" and "Shareholders' Equity" are
    // centred over the label column, each over rows in the same two columns of figures. A heading
    // away from the label column ended the table: three tables, the second and third without the
    // column headings that say which figure is which date.
    let p = fb_page("AMCOR_2023Q2_10Q.pdf", 7);
    let t = p
        .tables
        .iter()
        .find(|t| t.grid().iter().any(|r| r[0] == "Total assets"))
        .expect("the balance sheet");
    let labels: Vec<String> = t.grid().iter().map(|r| r[0].clone()).collect();
    assert!(labels.iter().any(|l| l == "Total liabilities"), "{labels:#?}");
    assert!(labels.iter().any(|l| l.starts_with("Total liabilities and shareholders")), "{labels:#?}");
}

#[test]
fn a_contents_page_set_in_columns_is_text_not_a_table() {
    // A filing's contents (p2) and its index of financial statements (p34) are set as columns of
    // titles and right-aligned page numbers; the numbers are page references that rise down the
    // list and no entry carries an amount, so neither is a table. The entries stay in the text.
    for page in [2, 34] {
        let p = fb_page("AMAZON_2019_10K.pdf", page);
        let grids: Vec<_> = p.tables.iter().map(|t| t.grid()).collect();
        assert!(grids.is_empty(), "p{page}: {grids:#?}");
    }
    assert!(fb_page("AMAZON_2019_10K.pdf", 2).text.contains("Risk Factors"));
    assert!(fb_page("AMAZON_2019_10K.pdf", 34).text.contains("Consolidated Statements of Cash Flows"));
}

/// The corpus documents of one page.
fn docs_of_page(ex: &ingest::Extracted, page: u32) -> Vec<clair_core::corpus::Doc> {
    ingest::documents(ex, &IngestSettings::default()).into_iter().filter(|d| d.page == page).collect()
}

#[test]
fn notes_that_run_on_to_the_next_page_are_the_tables_notes_but_are_not_highlighted_on_its_page() {
    // JPM 2023Q2 p65: the consumer credit tables' notes (a)-(g) fill the foot of the page and
    // (h)-(m) open p66. The first table marks "Credit-related notes …(h)": it takes both runs.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 65).expect("page 65");
    let t = p
        .tables
        .iter()
        .find(|t| t.cells.iter().any(|c| c.text.starts_with("Credit-related notes used in credit portfolio management activities(h)")))
        .expect("consumer credit table");
    let marks: Vec<(&str, Option<u32>)> = t.notes.iter().map(|n| (n.mark.as_str(), n.page)).collect();
    let expect: Vec<(&str, Option<u32>)> = ["a", "b", "c", "d", "e", "f", "g"]
        .into_iter()
        .map(|m| (m, None))
        .chain(["h", "i", "j", "k", "l", "m"].into_iter().map(|m| (m, Some(66))))
        .collect();
    assert_eq!(marks, expect, "{:?}", t.notes);
    let h = t.notes.iter().find(|n| n.mark == "h").unwrap();
    assert!(h.text.starts_with("Represents the notional amount of protection obtained through the issuance of credit-related notes"), "{h:?}");
    // The row's document carries the note; its citation highlights the row, not p66's region.
    let docs = docs_of_page(ex, 65);
    let row = docs
        .iter()
        .find(|d| d.table.as_ref().and_then(|m| m.row_label.as_deref()).is_some_and(|l| l.starts_with("Credit-related notes")))
        .expect("row document");
    assert!(row.text.contains("\n(h) Represents the notional amount of protection"), "{}", row.text);
    assert!(!row.bboxes.contains(&h.bbox), "{:?}", row.bboxes);
    // Lockheed Martin 2020 p30: the selected financial data's notes (a)-(d) under it, (e)-(g) on p31.
    let p = fb_page("LOCKHEEDMARTIN_2020_10K.pdf", 30);
    let marks: Vec<String> = p.tables.iter().flat_map(|t| t.notes.iter().map(|n| format!("{}{}", n.mark, n.page.map_or(String::new(), |q| format!("@{q}"))))).collect();
    for m in ["a", "d", "e@31", "g@31"] {
        assert!(marks.iter().any(|x| x == m), "{m}: {marks:?}");
    }
}

#[test]
fn a_tables_footnotes_go_with_the_rows_whose_marks_point_at_them() {
    // JPM 2023Q2 p187: the pledged-assets table marks two rows "(a)" and "(b)"; the notes under it
    // (in the right-hand column, beside a column of running text) qualify those figures.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 187).expect("page 187");
    let t = p.tables.iter().find(|t| t.cells.iter().any(|c| c.text.contains("FHLBs(b)"))).expect("pledged-assets table");
    let marks: Vec<&str> = t.notes.iter().map(|n| n.mark.as_str()).collect();
    assert_eq!(marks, ["a", "b"], "{:?}", t.notes);
    assert!(t.notes[0].text.starts_with("As of June 30, 2023, included $120.0 billion") && t.notes[0].text.ends_with("Refer to Note 28 for additional information."), "{:?}", t.notes[0]);
    // The note ends where its paragraph does: the paragraph after it is not part of it.
    assert!(t.notes[1].text.ends_with("associated with the First Republic acquisition."), "{:?}", t.notes[1]);
    for n in &t.notes {
        assert!(n.bbox[1] >= t.bbox[3] - 1.0 && n.bbox[0] >= t.bbox[0] - 24.0, "note box {:?} not under table {:?}", n.bbox, t.bbox);
    }

    let docs = docs_of_page(ex, 187);
    let row = |label: &str| docs.iter().find(|d| d.table.as_ref().and_then(|m| m.row_label.as_deref()) == Some(label)).unwrap_or_else(|| panic!("row {label}"));
    let fhlb = row("Assets pledged at Federal Reserve banks and FHLBs(b)");
    assert!(fhlb.text.contains("\n(b) As of June 30, 2023, included $23.7 billion of assets pledged to the FHLB"), "{}", fhlb.text);
    assert!(!fhlb.text.contains("$120.0 billion"), "note (a) is not this row's: {}", fhlb.text);
    assert_eq!(fhlb.table.as_ref().map(|m| m.notes.len()), Some(1));
    // The citation highlights the note too: the row's box and the note's.
    assert!(fhlb.bboxes.contains(&t.notes[1].bbox), "{:?}", fhlb.bboxes);
    let total = row("Total pledged assets");
    assert!(!total.text.contains('\n'), "an unmarked row carries no note: {}", total.text);
    // The whole table's document prints every note under the table.
    let whole = docs.iter().find(|d| d.table.as_ref().is_some_and(|m| m.row_label.is_none() && m.rows.iter().any(|r| r.first().is_some_and(|l| l.contains("FHLBs(b)"))))).expect("table document");
    assert!(whole.text.contains("\n(a) As of June 30, 2023") && whole.text.contains("\n(b) As of June 30, 2023"), "{}", whole.text);
}

#[test]
fn a_raised_number_after_a_label_or_a_figure_points_at_the_numbered_note() {
    // Coca-Cola 2017 sets its marks as raised digits: glued to a label ("expenses1", p53) or a
    // space after a figure ("163 1", p60's tax-rate table).
    let bytes = read(&format!("{FB}COCACOLA_2017_10K.pdf"));
    let ex = ingest::extract(&bytes, "COCACOLA_2017_10K.pdf", &IngestSettings::default());
    let docs = docs_of_page(&ex, 53);
    let selling = docs.iter().find(|d| d.table.as_ref().and_then(|m| m.row_label.as_deref()) == Some("Selling and distribution expenses1")).expect("row");
    assert!(selling.text.contains("\n(1) Includes operating expenses as well as general and administrative expenses"), "{}", selling.text);
    let advertising = docs.iter().find(|d| d.table.as_ref().and_then(|m| m.row_label.as_deref()) == Some("Advertising expenses")).expect("row");
    assert!(!advertising.text.contains('\n'), "{}", advertising.text);

    let p60 = ex.pages.iter().find(|p| p.page == 60).expect("page 60");
    let t = p60.tables.iter().find(|t| t.cells.iter().any(|c| c.text == "163 1")).expect("table marking a figure");
    assert!(t.notes.iter().any(|n| n.mark == "1" && n.text.starts_with("The increase is primarily related to")), "{:?}", t.notes);
}

#[test]
fn a_mark_set_apart_from_its_note_still_opens_it() {
    // Verizon 2021 p83: the "(1)" under the allowance table is a raised mark of its own, a few
    // points left of and above its note's text; the column header carries the mark, so every
    // row with a figure in that column carries the note.
    let bytes = read(&format!("{FB}VERIZON_2021_10K.pdf"));
    let ex = ingest::extract(&bytes, "VERIZON_2021_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 83).expect("page 83");
    let t = p.tables.iter().find(|t| t.cells.iter().any(|c| c.text == "Device Payment Plan Agreement Receivables(1)")).expect("allowance table");
    assert_eq!(t.notes.len(), 1, "{:?}", t.notes);
    assert_eq!(t.notes[0].mark, "1");
    assert_eq!(t.notes[0].text, "Includes allowance for both short-term and long-term device payment plan agreement receivables.");
    let docs = docs_of_page(&ex, 83);
    let opening = docs.iter().find(|d| d.table.as_ref().and_then(|m| m.row_label.as_deref()) == Some("Balance at January 1, 2021")).expect("row");
    assert!(opening.text.contains("\n(1) Includes allowance for both short-term and long-term"), "{}", opening.text);
}

#[test]
fn marks_set_apart_beside_the_lines_of_one_note_block_each_open_their_own_note() {
    // Verizon 2021 p28: "(1)" and "(2)" are raised blocks of their own beside the first and
    // second lines of one block, "As of end of period / Includes certain adjustments / nm - not
    // meaningful"; the third line, back at the marks' margin, is neither note. Boeing 2022 p21:
    // the raised "(1)" is beside the first line of a block that goes on to "(2) On March 21, 2020,
    // …" at the margin. Neither table had notes before (the block started left of the mark).
    let p = fb_page("VERIZON_2021_10K.pdf", 28);
    let t = p.tables.iter().find(|t| t.cells.iter().any(|c| c.text.starts_with("Wireless retail postpaid accounts"))).expect("table");
    let notes: Vec<(&str, &str)> = t.notes.iter().map(|n| (n.mark.as_str(), n.text.as_str())).collect();
    assert_eq!(notes, [("1", "As of end of period"), ("2", "Includes certain adjustments")]);
    let p = fb_page("BOEING_2022_10K.pdf", 21);
    let t = p.tables.iter().find(|t| t.cells.iter().any(|c| c.text == "Purchased (1)")).expect("repurchases table");
    let marks: Vec<&str> = t.notes.iter().map(|n| n.mark.as_str()).collect();
    assert_eq!(marks, ["1", "2"], "{:?}", t.notes);
    assert!(t.notes[0].text.starts_with("A total of 25,742 shares were transferred to us"), "{:?}", t.notes);
    assert!(t.notes[0].text.ends_with("pursuant to a repurchase program."), "{:?}", t.notes);
    assert!(t.notes[1].text.starts_with("On March 21, 2020, the Board of Directors"), "{:?}", t.notes);
}

#[test]
fn the_notes_under_a_summary_of_row_groups_serve_the_whole_summary_and_not_the_table_above() {
    // Walmart 2020 p30: the five-year summary sets its rows in groups ("Operating results",
    // "Financial position(2)", "Unit counts") set apart by blank lines, one table, with notes (1)
    // and (2) under it; "(2)" marks a group heading, "(1)" a row. The repurchase table above the
    // summary keeps its own note (1), not the summary's.
    let bytes = read(&format!("{FB}WALMART_2020_10K.pdf"));
    let ex = ingest::extract(&bytes, "WALMART_2020_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 30).expect("page 30");
    let with = |label: &str| p.tables.iter().find(|t| t.cells.iter().any(|c| c.text.starts_with(label))).unwrap_or_else(|| panic!("table with {label}"));
    let summary = with("Increase (decrease) in calendar comparable sales(1)");
    assert!(std::ptr::eq(summary, with("Financial position(2)")) && std::ptr::eq(summary, with("Unit counts")));
    assert!(summary.notes.iter().any(|n| n.mark == "1" && n.text.starts_with("Comparable sales include sales from stores and clubs")), "{:?}", summary.notes);
    assert!(summary.notes.iter().any(|n| n.mark == "2" && n.text.contains("ASU 2016-02")), "{:?}", summary.notes);
    let repurchases = with("November 1-30, 2019");
    assert_eq!(repurchases.notes.len(), 1, "{:?}", repurchases.notes);
    assert!(repurchases.notes[0].text.starts_with("Represents the approximate dollar value of shares"));
}

#[test]
fn the_notes_under_the_next_table_serve_the_table_above_when_only_its_title_lies_between() {
    // Verizon 2021 p84: the recurring fair values ("Level 1(1)", "Level 2(2)", "Level 3(3)") and,
    // under a one-line title, the nonrecurring ones with the same marks; the notes are printed
    // once, under the second. JPMorgan 2021Q1 p108: one table printed for 2021 and, under its
    // title line again, for 2020, with notes (a) and (b) under the 2020 half.
    let p = fb_page("VERIZON_2021_10K.pdf", 84);
    let recurring = p.tables.iter().find(|t| t.cells.iter().any(|c| c.text == "Level 1(1)")).expect("recurring table");
    let marks: Vec<&str> = recurring.notes.iter().map(|n| n.mark.as_str()).collect();
    assert_eq!(marks, ["1", "2", "3"], "{:?}", recurring.notes);
    assert_eq!(recurring.notes[0].text, "Quoted prices in active markets for identical assets or liabilities.");
    let p = fb_page("JPMORGAN_2021Q1_10Q.pdf", 108);
    let first = p
        .tables
        .iter()
        .find(|t| t.cells.iter().any(|c| c.text.starts_with("Three months ended March 31, 2021")))
        .expect("the 2021 table");
    let marks: Vec<&str> = first.notes.iter().map(|n| n.mark.as_str()).collect();
    assert_eq!(marks, ["a", "b"], "{:?}", first.notes);
}

#[test]
fn a_numbered_line_under_a_table_that_marks_nothing_is_not_its_footnote() {
    // Verizon 2021 p107: "(3) Exhibits" under the list of financial statements is the next item
    // of Item 15, not a note of the table above it.
    let bytes = read(&format!("{FB}VERIZON_2021_10K.pdf"));
    let ex = ingest::extract(&bytes, "VERIZON_2021_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 107).expect("page 107");
    // The list itself is a contents list (titles over page references), read as text.
    assert!(!p.tables.iter().any(|t| t.cells.iter().any(|c| c.text.starts_with("Report of Independent"))));
    assert!(p.text.contains("Report of Independent Registered Public Accounting Firm"));
    assert!(p.blocks.iter().any(|b| b.kind == BlockKind::Text && b.text.starts_with("(3) Exhibits")));
    assert!(p.tables.iter().all(|t| t.notes.is_empty()), "{:?}", p.tables.iter().map(|t| &t.notes).collect::<Vec<_>>());
}

#[test]
fn footnotes_set_out_like_a_table_are_read_as_the_notes_of_the_table_above() {
    // JPM 2023Q2 p85: the VaR table's notes hang their marks in a column of their own, which
    // lined up like a two-column table of "(a) | Diversification benefit represents …".
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 85).expect("page 85");
    assert!(
        !p.tables.iter().any(|t| t.cells.iter().any(|c| c.text.starts_with("Diversification benefit represents"))),
        "the notes are still read as a table"
    );
    let var = p.tables.iter().find(|t| t.cells.iter().any(|c| c.text == "Fixed income")).expect("VaR table");
    let marks: Vec<&str> = var.notes.iter().map(|n| n.mark.as_str()).collect();
    assert_eq!(marks, ["a", "b", "c", "d", "e"], "{:?}", var.notes);
    assert!(var.notes[0].text.starts_with("Diversification benefit represents the difference"), "{:?}", var.notes[0]);
}

#[test]
fn a_table_whose_rows_open_with_a_date_or_a_signature_mark_stays_a_table() {
    // MGM Resorts 2020 p129: "30 June 2020 / … | Not applicable" rows of a covenant table;
    // Verizon 2021 p112: the signature table's "* | Director | February 11, 2022" rows.
    let bytes = read(&format!("{FB}MGMRESORTS_2020_10K.pdf"));
    let ex = ingest::extract(&bytes, "MGMRESORTS_2020_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 129).expect("page 129");
    assert!(p.tables.iter().any(|t| t.cells.iter().any(|c| c.text == "Not applicable")), "covenant table lost");
    let bytes = read(&format!("{FB}VERIZON_2021_10K.pdf"));
    let ex = ingest::extract(&bytes, "VERIZON_2021_10K.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 112).expect("page 112");
    assert!(p.tables.iter().any(|t| t.cells.iter().any(|c| c.text == "Director")), "signature table lost");
}

/// The grid of the table on `p` that has a row labelled `label`.
fn grid_with_row(p: &ingest::Page, label: &str) -> Vec<Vec<String>> {
    p.tables
        .iter()
        .map(|t| t.grid())
        .find(|g| g.iter().any(|r| r[0] == label))
        .unwrap_or_else(|| panic!("no table with a row {label:?} on p{}", p.page))
}

/// The column of the header cell `heading` in `grid`.
fn column_headed(grid: &[Vec<String>], heading: &str) -> Option<usize> {
    grid.iter().find_map(|r| r.iter().position(|c| c == heading))
}

#[test]
fn a_heading_over_a_column_with_no_figures_heads_a_column_of_its_own() {
    // Boeing 2022 p112: "Carrying Amount  Total Fair Value  Level 1  Level 2  Level 3", with
    // figures only under Level 2. "Level 1 Level 2 Level 3" was one heading over the Level 2
    // figures, so a reader could not tell which level they are.
    let g = grid_with_row(&fb_page("BOEING_2022_10K.pdf", 112), "Notes receivable, net");
    let notes = g.iter().find(|r| r[0] == "Notes receivable, net").expect("row");
    let (l1, l2, l3) = ["Level 1", "Level 2", "Level 3"]
        .map(|h| column_headed(&g, h).unwrap_or_else(|| panic!("no column headed {h:?}: {g:?}")))
        .into();
    assert!(l1 < l2 && l2 < l3, "{g:?}");
    assert_eq!((notes[l1].as_str(), notes[l2].as_str(), notes[l3].as_str()), ("", "$403", ""), "{g:?}");
    assert_eq!(notes[column_headed(&g, "Total Fair Value").expect("Total Fair Value")], "$403");
    // Boeing p21: share repurchases, columns (c) and (d) with no figures. Kraft Heinz 2019 p42:
    // "Price" and "Volume/Mix" are filled only in the growth rates further down the page.
    let g = grid_with_row(&fb_page("BOEING_2022_10K.pdf", 21), "Total");
    let total = g.iter().find(|r| r[0] == "Total").expect("row");
    let (b, c, d) = ["(b)", "(c)", "(d)"].map(|h| column_headed(&g, h).unwrap_or_else(|| panic!("{h}: {g:?}"))).into();
    assert!(b < c && c < d, "{g:?}");
    assert_eq!((total[b].as_str(), total[c].as_str(), total[d].as_str()), ("$169.94", "", ""));
    let g = grid_with_row(&fb_page("KRAFTHEINZ_2019_10K.pdf", 42), "Canada");
    let canada = g.iter().find(|r| r[0] == "Canada").expect("row");
    let organic = column_headed(&g, "Organic Net Sales").expect("Organic Net Sales");
    assert_eq!(canada[organic], "1,700");
    for h in ["Price", "Volume/Mix"] {
        let k = column_headed(&g, h).unwrap_or_else(|| panic!("{h}: {g:?}"));
        assert!(k > organic && canada[k].is_empty(), "{h}: {g:?}");
    }
}

#[test]
fn a_heading_set_beside_its_figures_or_a_word_apart_is_not_an_empty_column() {
    // 3M 2022 p35: "International Pension (weighted average)" is set left of the rates it heads;
    // ICDAR eu-026: "Fraction of" over "17.4%" has a wide word space inside. Neither is a column
    // of no figures beside the figures' own.
    let g = grid_with_row(&fb_page("3M_2022_10K.pdf", 35), "Benefit obligation");
    let row = g.iter().find(|r| r[0] == "Benefit obligation").expect("row");
    assert_eq!(row.iter().filter(|c| !c.is_empty()).count(), 4, "{g:?}");
    assert_eq!(g[0].len(), 4, "{g:?}");
    let ex = ingest::extract(&read(&format!("{ICDAR}eu-026.pdf")), "eu-026.pdf", &IngestSettings::default());
    let p = ex.pages.iter().find(|p| p.page == 4).expect("page 4");
    let g = grid_with_row(p, "I/we kept the assets");
    let kept = g.iter().find(|r| r[0] == "I/we kept the assets").expect("row");
    assert_eq!(kept.last().map(String::as_str), Some("17.4%"), "{g:?}");
    assert!(g.iter().flatten().any(|c| c.starts_with("Fraction of")), "{g:?}");
}

#[test]
fn a_heading_set_just_left_of_its_figures_heads_their_column_not_the_labels() {
    // Boeing 2022 p21: the column letter "(a)" is right-aligned over "Total Number of Shares /
    // Purchased(1)", left of where its figures start, and was read as the label column's heading.
    // Ulta Beauty 2023Q4 p9: "January 28, 2023" over the first column of percentages likewise.
    let g = grid_with_row(&fb_page("BOEING_2022_10K.pdf", 21), "Total");
    let total = g.iter().find(|r| r[0] == "Total").expect("row");
    let a = column_headed(&g, "(a)").unwrap_or_else(|| panic!("(a): {g:?}"));
    assert_eq!(total[a], "25,742", "{g:?}");
    assert!(g.iter().all(|r| r[0] != "(a)"), "{g:?}");
    let g = grid_with_row(&fb_page("ULTABEAUTY_2023Q4_EARNINGS.pdf", 9), "Cosmetics");
    let cosmetics = g.iter().find(|r| r[0] == "Cosmetics").expect("row");
    let jan28 = column_headed(&g, "January 28, 2023").unwrap_or_else(|| panic!("{g:?}"));
    let jan29 = column_headed(&g, "January 29, 2022").unwrap_or_else(|| panic!("{g:?}"));
    assert_eq!((cosmetics[jan28].as_str(), cosmetics[jan29].as_str()), ("40%", "41%"), "{g:?}");
}

#[test]
fn a_raised_mark_well_after_its_figure_stays_in_its_row_and_does_not_cut_the_table() {
    // JPMorgan 10-Q 2023Q2 p151: the residential real estate table sets "(l)", "(m)", "(n)"
    // raised 1.7 em after their figures; read as lines of their own they cut the table into
    // five. Verizon 2021 p76: "Floating (1)" cut the long-term debt table into three.
    let p = jpm_2023q2().pages.iter().find(|p| p.page == 151).expect("page 151");
    let g = grid_with_row(p, "Texas");
    for label in ["Equal to or greater than 660", "Total retained loans", "California", "Texas", "All other"] {
        assert!(g.iter().any(|r| r[0] == label), "{label} not in the table: {g:?}");
    }
    let ca = g.iter().find(|r| r[0] == "California").expect("row");
    assert_eq!(ca[1..].iter().filter(|c| !c.is_empty()).cloned().collect::<Vec<_>>(), ["$ 128,038 (n)", "$ 73,112"]);
    assert!(g.iter().all(|r| r[1..].iter().all(|c| !c.starts_with('('))), "a mark as a cell of its own: {g:?}");
    let p = fb_page("VERIZON_2021_10K.pdf", 76);
    let g = grid_with_row(&p, "Verizon Communications");
    for label in ["Alltel Corporation", "Finance lease obligations (alternative)", "Total debt"] {
        let found = g.iter().any(|r| r[0] == label || (label.ends_with("(alternative)") && r[0].starts_with("Finance lease obligations")));
        assert!(found, "{label} not in the table: {g:?}");
    }
}

#[test]
fn a_ruled_cell_of_several_lines_is_one_cell_beside_its_label() {
    // eu-007 p5: each group's row is ruled off, and its cells list the group's brands under the
    // "Total:" line; the brand lines have nothing in the label column and were rows of their own.
    let rows = icdar_rows("eu-007", 5);
    let besnier = rows.iter().find(|r| r.first().is_some_and(|c| c == "Besnier")).expect("a row labelled Besnier");
    assert_eq!(
        besnier,
        &[
            "Besnier",
            "Total: 18.1% Bfpridel (4.4%) Président (13.5%)",
            "Total: 0%",
            "Total: 9.5% Bridélight (5.6%) Bridélice (3.2%) Président (0.7%)"
        ]
    );
    // eu-001 p3: "200 (as" / "BTEX)" set centred on the one line of "Benzene", above and under it.
    let rows = icdar_rows("eu-001", 3);
    for label in ["Benzene", "Toluene"] {
        let row = rows.iter().find(|r| r.first().is_some_and(|c| c == label)).expect(label);
        assert_eq!(row[2..], ["200 (as BTEX)", "200 (as BTEX)"], "{row:?}");
    }
    assert!(rows.iter().all(|r| r.first().is_none_or(|c| !c.is_empty()) || r.iter().all(|c| !c.contains("BTEX"))), "{rows:?}");
    // A ruled grid whose body rows are not ruled still reads a row per label
    // (`ruled_grid_without_body_rules_keeps_one_cell_per_figure`); and a figure's mark in the
    // first line of such a cell still finds its note (Boeing 2022 p111: "$40 - $51 (1)" over
    // "Median $46"; the "(1)" is drawn after the row, so it is a word of its own).
    let p = fb_page("BOEING_2022_10K.pdf", 111);
    let t = p
        .tables
        .iter()
        .find(|t| t.cells.iter().any(|c| c.text.starts_with("Aircraft condition")))
        .expect("the unobservable inputs table");
    assert!(t.cells.iter().any(|c| c.text == "$40 - $51 (1) Median $46"), "{:?}", t.grid());
    let marks: Vec<&str> = t.notes.iter().map(|n| n.mark.as_str()).collect();
    assert_eq!(marks, ["1", "2"], "{:?}", t.notes);
}

#[test]
fn figures_centred_on_a_label_of_two_lines_make_one_row_of_the_label() {
    // eu-001 p1: "Chlorine and inorganic compounds" / "(as HCl)", each line in a box of its own,
    // with "10 000  -  -" centred on the two lines, across the boxes' shared edge.
    let rows = icdar_rows("eu-001", 1);
    for (label, first) in [
        ("Chlorine and inorganic compounds (as HCl)", "10 000"),
        ("Flourine and inorganic compounds (as HF)", "5 000"),
        ("Non-methane volatile organic compounds (NMVOC)", "100 000"),
    ] {
        let row = rows.iter().find(|r| r.first().is_some_and(|c| c == label)).unwrap_or_else(|| panic!("{label}: {rows:?}"));
        assert_eq!(row[1..], [first, "-", "-"], "{row:?}");
    }
    assert!(rows.iter().all(|r| r.first().is_none_or(|c| c != "(as HCl)")), "{rows:?}");
}

#[test]
fn a_row_label_shaded_down_its_count_and_percentage_rows_spans_them() {
    // eu-021 p3: each label's cell has one background down its Count and Percentage rows, and a
    // box behind each line; "Chronic fatigue" wraps onto "syndrome", set between the two rows.
    let bytes = read(&format!("{ICDAR}eu-021.pdf"));
    let ex = ingest::extract(&bytes, "eu-021", &IngestSettings::default());
    let labels: Vec<&ingest::Cell> = ex
        .pages
        .iter()
        .filter(|p| p.page == 3)
        .flat_map(|p| p.tables.iter())
        .flat_map(|t| t.cells.iter())
        .filter(|c| c.col == 0 && c.row > 0)
        .collect();
    for label in ["Allergy problems", "Chronic fatigue syndrome", "Sexually transmitted diseases"] {
        let cell = labels.iter().find(|c| c.text == label).unwrap_or_else(|| panic!("{label}: {labels:?}"));
        assert_eq!(cell.row_span, 2, "{cell:?}");
    }
    assert!(labels.iter().all(|c| c.text != "syndrome"), "{labels:?}");
}

#[test]
fn a_row_label_wrapped_beside_two_ruled_rows_is_one_cell_spanning_them() {
    // eu-021 p7: "Chronic illness and" / "chronic pain" labels a Count and a Percentage row; the
    // label column draws no rule between them. eu-015 p2: "Total EU-12" over "non-EU" are two
    // labels, though the second opens in lower case ("Total EU-12" leaves room for "non-EU").
    let bytes = read(&format!("{ICDAR}eu-021.pdf"));
    let ex = ingest::extract(&bytes, "eu-021", &IngestSettings::default());
    let cell = ex
        .pages
        .iter()
        .filter(|p| p.page == 7)
        .flat_map(|p| p.tables.iter())
        .flat_map(|t| t.cells.iter())
        .find(|c| c.text.starts_with("Chronic illness"))
        .expect("the wrapped label");
    assert_eq!((cell.text.as_str(), cell.row_span), ("Chronic illness and chronic pain", 2));
    let rows = icdar_rows("eu-015", 2);
    assert!(rows.iter().any(|r| r.first().is_some_and(|c| c == "non-EU")), "{rows:?}");
    assert!(rows.iter().any(|r| r.first().is_some_and(|c| c == "Total EU-12")), "{rows:?}");
}

/// No table cell on the page holds `text` (a paragraph's words read as text, not as cells).
fn assert_no_cell_reads(file: &str, page: u32, text: &str) {
    let p = fb_page(file, page);
    assert!(
        p.tables.iter().all(|t| t.cells.iter().all(|c| !c.text.contains(text))),
        "{file} p{page}: {:?}",
        p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>()
    );
}

#[test]
fn running_text_set_in_white_boxes_is_read_as_text_not_as_a_grid() {
    // Lockheed Martin 2020 p46: each run of a paragraph sits on a white box (HTML layout); the
    // boxes' edges made a grid of four paragraphs, read in cell order. The page has two tables,
    // the segments' results, and the paragraphs read in order.
    let p = fb_page("LOCKHEEDMARTIN_2020_10K.pdf", 46);
    assert_eq!(p.tables.len(), 2, "{:?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    assert!(p.tables.iter().all(|t| t.cells.iter().any(|c| c.text == "Net sales")));
    assert!(p.text.contains("Aeronautics’ net sales in 2020 increased $2.6 billion"), "{}", p.text);
    // p47: a paragraph carried over from p46, two of its lines in boxes, one line running on into
    // the next box in lower case and the other into the next sentence ("PAC-3). These").
    let p = fb_page("LOCKHEEDMARTIN_2020_10K.pdf", 47);
    assert_eq!(p.tables.len(), 1, "{:?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    assert!(p.text.contains("for integrated air and missile defense programs"), "{}", p.text);
    // MGM Resorts 2020 p53: a two-line paragraph in two boxes, run on from a figure ("of 5.25%
    // senior notes") and from a word ("amounts outstanding") across the boxes' edges.
    assert_no_cell_reads("MGMRESORTS_2020_10K.pdf", 53, "MGM China issued");
    // p52: three lines in boxes, one running on in lower case ("$162 million"), the others cut a
    // word space apart in upper case ("MGM Cotai") or not at all; no line has a gutter in it.
    let p = fb_page("MGMRESORTS_2020_10K.pdf", 52);
    assert!(p.tables.is_empty(), "{:?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    // p53 again: a three-line paragraph whose indented first line draws the boxes' edge; the
    // next line runs across it a word space apart ("totaling $78 million"), in no case rule.
    assert_no_cell_reads("MGMRESORTS_2020_10K.pdf", 53, "we paid a dividend of $0.15");
    // p109: an exhibit entry's lines in boxes, its number hung outside them ("4.3 Indenture…"):
    // the gap after the number is no gutter of the box.
    assert_no_cell_reads("MGMRESORTS_2020_10K.pdf", 109, "Indenture, dated as of");
    // MGM 2022 p8: a bulleted strategy line in boxes, its bullet outside them.
    assert_no_cell_reads("MGMRESORTS_2022_10K.pdf", 8, "Innovate our gaming entertainment");
    // Best Buy 2023 p26: the MD&A paragraphs under the revenue-mix table likewise.
    assert_no_cell_reads("BESTBUY_2023_10K.pdf", 26, "gross profit rate");
    // A ruled table of text cells stays a table: PepsiCo 2021 p204's "SCHEDULE 1" (a cell's
    // last word set close to the next cell's capital).
    let p = fb_page("PEPSICO_2021_10K.pdf", 204);
    assert!(
        p.tables.iter().any(|t| t.cells.iter().any(|c| c.text == "Mortality Table Factors")),
        "{:?}",
        p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>()
    );
}

#[test]
fn figures_set_a_little_off_their_labels_baseline_stay_in_the_labels_row_and_short_labels_keep_a_table_going() {
    // NIKE 2018 p43 (market risk): "$ 6 … $ 16" sits 2.7 pt above "Principal payments $ 15", a third
    // of an em; the label's row and its figures' row were read as two half rows, and the section's
    // first table was not found at all. Walmart 2020 p66 (accrued liabilities) likewise. NIKE heads
    // each debt with four short label lines ("Interest Rate Risk" … "rate"), which used to end the
    // table (three at most): it is one table under its header of years.
    let p = fb_page("NIKE_2018_10K.pdf", 43);
    assert_eq!(p.tables.len(), 1, "{:?}", p.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    let grid = p.tables[0].grid();
    let header = grid.iter().find(|r| r[0] == "(Dollars in millions)").unwrap_or_else(|| panic!("{grid:?}"));
    assert_eq!(header[1..], ["2019", "2020", "2021", "2022", "2023", "Thereafter", "Total", "Fair Value"]);
    let rows = |label: &str| grid.iter().filter(|r| r[0] == label).map(|r| r[1..].to_vec()).collect::<Vec<_>>();
    let yen = ["$ 6", "$ 6", "$ 3", "$ —", "$ —", "$ —", "$ 15", "$ 16"];
    let dollar = ["$ —", "$ —", "$ —", "$ —", "$ 500", "$ 3,000", "$ 3,500", "$ 3,279"];
    assert_eq!(rows("Principal payments"), [yen, yen, dollar], "{grid:?}");
    let rates = rows("Average interest rate");
    assert_eq!(rates.len(), 3, "{grid:?}");
    assert_eq!(rates[0][..7], ["2.4%", "2.4%", "2.4%", "0.0%", "0.0%", "0.0%", "2.4%"], "{grid:?}");
    assert!(grid.iter().any(|r| r[0] == "Interest Rate Risk"), "{grid:?}");
    let p = fb_page("WALMART_2020_10K.pdf", 66);
    let grid = p.tables.iter().map(|t| t.grid()).find(|g| g.iter().any(|r| r[0].starts_with("Self-insurance"))).expect("accrued liabilities");
    let row = grid.iter().find(|r| r[0].starts_with("Self-insurance")).unwrap();
    assert_eq!(row[1..], ["4,469", "3,979"], "{grid:?}");
}

#[test]
fn a_label_closed_by_a_colon_heads_the_rows_under_it_not_the_header_or_the_next_label() {
    // General Mills 2020 p93: "Other noncurrent liabilities:" over the wrapped label "Accrued
    // compensation and benefits, including …  $ 958.7". Read as a header line, it was stacked
    // onto the label under it, and the row read "Other noncurrent liabilities: Accrued …".
    let p = fb_page("GENERALMILLS_2020_10K.pdf", 93);
    let t = p
        .tables
        .iter()
        .find(|t| t.cells.iter().any(|c| c.text.starts_with("Noncurrent portion of operating lease")))
        .expect("other noncurrent liabilities table");
    let grid = t.grid();
    assert_eq!(t.header_rows, 1, "{grid:?}");
    let section = grid.iter().position(|r| r[0] == "Other noncurrent liabilities:").unwrap_or_else(|| panic!("{grid:?}"));
    assert!(grid[section][1..].iter().all(String::is_empty), "{grid:?}");
    assert!(grid[section + 1][0].starts_with("Accrued compensation and benefits"), "{grid:?}");
    assert_eq!(grid[section + 1][1..], ["$ 958.7", "$ 1,153.3"], "{grid:?}");
    // Adobe 2015 p44: "Revenue impact:" (beside the spanning "Increase/(Decrease)") and "EMEA:"
    // under it are two labels, not one.
    let p = fb_page("ADOBE_2015_10K.pdf", 44);
    let grid = p.tables.iter().map(|t| t.grid()).find(|g| g.iter().any(|r| r[0].starts_with("Total EMEA"))).expect("currency table");
    let at = |label: &str| grid.iter().position(|r| r[0] == label).unwrap_or_else(|| panic!("{label}: {grid:?}"));
    assert_eq!(at("EMEA:"), at("Revenue impact:") + 1, "{grid:?}");
    // 3M 2022 p35: "December 31, 2022 Liability:" under the plans' names is no header row.
    let p = fb_page("3M_2022_10K.pdf", 35);
    let t = p
        .tables
        .iter()
        .find(|t| t.cells.iter().any(|c| c.text == "December 31, 2022 Liability:"))
        .expect("discount rate table");
    assert_eq!(t.header_rows, 1, "{:?}", t.grid());
}

#[test]
fn a_dot_leader_does_not_swallow_the_dollar_sign_of_the_first_figure_and_documents_drop_it() {
    // Adobe's 2015 10-K leads every label to its figures with dots, the first column's `$` set a
    // word space after them: the sign opens the figure's cell (it used to end the label, and the
    // figure under "Fiscal 2015" went missing), and row documents read "Revenue", not the dots.
    let s = IngestSettings::default();
    let bytes = read(&format!("{FB}ADOBE_2015_10K.pdf"));
    let ex = ingest::extract(&bytes, "ADOBE_2015_10K.pdf", &s);
    let p34 = ex.pages.iter().find(|p| p.page == 34).expect("page 34");
    let revenue = p34
        .tables
        .iter()
        .flat_map(|t| t.grid())
        .find(|r| r.first().is_some_and(|c| c.starts_with("Revenue")))
        .expect("the selected financial data's revenue row");
    assert!(!revenue[0].contains('$'), "the label keeps no dollar sign: {revenue:?}");
    assert_eq!(revenue.get(1).map(String::as_str), Some("$ 4,795,511"), "{revenue:?}");
    let docs = ingest::documents(&ex, &s);
    let row = docs
        .iter()
        .filter(|d| d.page == 34)
        .find(|d| d.table.as_ref().is_some_and(|t| t.row_label.as_deref() == Some("Revenue")))
        .expect("a row document labelled plainly 'Revenue'");
    assert!(row.text.contains("Revenue: ") && row.text.contains("$ 4,795,511"), "{}", row.text);
    assert!(
        docs.iter().filter(|d| d.modality == Modality::Table).all(|d| !d.text.contains("....")),
        "no table document carries a dot leader"
    );
}

fn captions(dir: &str, file: &str) -> Vec<(u32, String)> {
    let ex = ingest::extract(&read(&format!("{dir}{file}")), file, &IngestSettings::default());
    ex.pages.iter().flat_map(|p| p.tables.iter().map(move |t| (p.page, t.caption.clone()))).collect()
}

#[test]
fn a_table_titled_above_its_headnote_takes_the_title_for_its_caption() {
    // The line right above a table may end a headnote or a wrapped title; the numbered label line
    // that opens the block is the table's name ("Table 2: Financial Literacy 2007", not "… to
    // three questions on the financial literacy task.").
    let eu026 = captions(ICDAR, "eu-026.pdf");
    assert!(eu026.iter().any(|(_, c)| c == "Table 2: Financial Literacy 2007"), "{eu026:?}");
    // A title wrapped over two lines is read whole.
    let eu006 = captions(ICDAR, "eu-006.pdf");
    assert!(
        eu006.iter().any(|(_, c)| c == "Table 8.13 - National brands, Own brand and low price items shares for supermarkets and hypermarkets"),
        "{eu006:?}"
    );
    // A label alone on its line ("Exhibit 3") is followed by the title it numbers (and the title
    // by the line of units under it).
    let ulta = captions(FB, "ULTABEAUTY_2023Q4_EARNINGS.pdf");
    assert!(ulta.iter().any(|(p, c)| *p == 7 && c == "Exhibit 3 Condensed Consolidated Balance Sheets (In thousands)"), "{ulta:?}");
}

/// One of the tables on page `page` of FinanceBench's `file` has `caption` (each file read once).
fn assert_captioned(file: &str, page: u32, caption: &str) {
    static READ: std::sync::Mutex<Vec<(String, Vec<(u32, String)>)>> = std::sync::Mutex::new(vec![]);
    let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
    if !read.iter().any(|(f, _)| f == file) {
        read.push((file.to_string(), captions(FB, file)));
    }
    let all = &read.iter().find(|(f, _)| f == file).expect("read above").1;
    let on: Vec<&str> = all.iter().filter(|(p, _)| *p == page).map(|(_, c)| c.as_str()).collect();
    assert!(on.contains(&caption), "{file} p{page}: {on:?}");
}

#[test]
fn a_table_introduced_by_a_sentence_takes_the_whole_sentence_for_its_caption() {
    // Adobe 2015 p41: the sentence ending in a colon wraps over two lines; its last line alone
    // ("revenue by reportable segment … (dollars in millions):") named nothing.
    assert_captioned(
        "ADOBE_2015_10K.pdf",
        41,
        "Subscription revenue by reportable segment for fiscal 2015, 2014 and 2013 is as follows (dollars in millions):",
    );
    // 3M 2022 p65: it starts after the previous sentence's full stop on the same line.
    assert_captioned("3M_2022_10K.pdf", 65, "The divestiture-related restructuring actions were recorded in the income statement as follows:");
    // JPMorgan 2021Q1: a sentence that ends in a full stop introduces tables as well; its last
    // line alone read "2020." (p154). A heading set over the sentence names the table too (p111).
    assert_captioned(
        "JPMORGAN_2021Q1_10Q.pdf",
        154,
        "The following table summarizes the derivatives qualifying as guarantees as of March 31, 2021, and December 31, 2020.",
    );
    assert_captioned(
        "JPMORGAN_2021Q1_10Q.pdf",
        111,
        "Investment banking fees — The following table presents the components of investment banking fees.",
    );
    // A line of units names no table: Microsoft 2016 p74's three tables were each captioned
    // "(In millions)"; Amazon's statements likewise, under their titles.
    assert_captioned("MICROSOFT_2016_10K.pdf", 74, "The components of inventories were as follows: (In millions)");
    assert_captioned("MICROSOFT_2016_10K.pdf", 74, "The components of property and equipment were as follows: (In millions)");
    assert_captioned("AMAZON_2019_10K.pdf", 38, "CONSOLIDATED STATEMENTS OF OPERATIONS (in millions, except per share data)");
    // A statement's period line is captioned under the statement's title, over the company's
    // letterhead (PepsiCo 2021 p61: title, "PepsiCo, Inc. and Subsidiaries", period, units).
    assert_captioned(
        "PEPSICO_2021_10K.pdf",
        61,
        "Consolidated Statement of Income Fiscal years ended December 25, 2021, December 26, 2020 and December 28, 2019 (in millions except per share amounts)",
    );
    // Adobe 2022 p94: a line that holds the start of the sentence it ends is the caption whole.
    assert_captioned(
        "ADOBE_2022_10K.pdf",
        94,
        "1. Financial Statements. See Index to Consolidated Financial Statements in Part II, Item 8 of this Form 10-K.",
    );
    // A line of prose is no caption, unless it ends in a colon: Kraft Heinz 2019 p83's one line of
    // 21 words over the table at the top of the page introduces it, and Walmart 2018 p34's last
    // line of its introducing sentence is long too (the sentence before it was the caption).
    assert_captioned(
        "KRAFTHEINZ_2019_10K.pdf",
        83,
        "The fair value of pension plan assets at December 29, 2018 was determined using the following fair value measurements (in millions):",
    );
    assert_captioned(
        "WALMART_2018_10K.pdf",
        34,
        "Share repurchase activity under our share repurchase programs, on a trade date basis, for each month in the quarter ended January 31, 2018 , was as follows:",
    );
}

/// A page's text, read from a whole document once per test binary run (several tests read
/// Boeing's 10-K).
fn page_text(file: &str, page: u32) -> String {
    static DOCS: std::sync::Mutex<Vec<(String, std::sync::Arc<ingest::Extracted>)>> = std::sync::Mutex::new(Vec::new());
    let ex = {
        let mut docs = DOCS.lock().unwrap_or_else(|e| e.into_inner());
        match docs.iter().find(|(f, _)| f == file) {
            Some((_, ex)) => ex.clone(),
            None => {
                let dir = if file.starts_with("eu-") { ICDAR } else { FB };
                let bytes = read(&format!("{dir}{file}"));
                let ex = std::sync::Arc::new(ingest::extract(&bytes, file, &IngestSettings::default()));
                docs.push((file.to_string(), ex.clone()));
                ex
            }
        }
    };
    ex.pages.iter().find(|p| p.page == page).unwrap_or_else(|| panic!("{file} has a page {page}")).text.clone()
}

/// Whether `text` has `words` as consecutive whitespace-separated words.
fn has_words(text: &str, words: &[&str]) -> bool {
    let all: Vec<&str> = text.split_whitespace().collect();
    all.windows(words.len()).any(|w| w == words)
}

#[test]
fn a_gap_wider_than_a_word_space_separates_words_where_no_space_is_drawn() {
    // Adobe's 2017 10-K p60 sets "$" and its figure as separate pieces 0.156 em apart (1.25 pt at
    // 8 pt), and p102 of its 2015 10-K a label and its dot leader 0.151 em apart: words, as
    // MuPDF (0.15 em) and pdftotext (0.1 em) read them and the FinanceBench gold text has them.
    let t = page_text("ADOBE_2017_10K.pdf", 60);
    assert!(has_words(&t, &["$", "3,778,495"]), "{t}");
    assert!(!t.contains("$3,778,495"), "{t}");
    let t = page_text("COCACOLA_2017_10K.pdf", 142);
    assert!(has_words(&t, &["51", "%"]), "{t}");
}

#[test]
fn a_space_the_next_glyph_is_kerned_back_over_separates_words_and_a_stray_space_does_not() {
    // 3M's 10-K p119: the "5" of "was 57 months" starts 0.2 pt left of the space drawn before it.
    let t = page_text("3M_2022_10K.pdf", 119);
    assert!(has_words(&t, &["was", "57", "months"]), "{t}");
    // eu-014 p1: a 12 pt blank of the paragraph behind the figure lies over the "o" of a label's
    // "providers": drawn elsewhere in the content, it separates nothing.
    let t = page_text("eu-014.pdf", 1);
    assert!(has_words(&t, &["Education", "providers,"]), "{t}");
}

#[test]
fn a_row_two_overlapping_tables_share_is_read_once_in_the_page_text() {
    // Boeing's 2022 10-K p4: the union table is found as a header band and a body that both take
    // the IAM row; the page prints it once.
    let t = page_text("BOEING_2022_10K.pdf", 4);
    assert_eq!(t.matches("International Association of Machinists").count(), 1, "{t}");
    assert_eq!(t.matches("20%").count(), 1, "{t}");
}

#[test]
fn a_footnote_mark_joins_its_word_only_when_drawn_with_it() {
    // Boeing's 2022 10-K p115 draws each "(1)" after the row's figures: a word of its own.
    let t = page_text("BOEING_2022_10K.pdf", 115);
    assert!(has_words(&t, &["customers", "(1)"]), "{t}");
    assert!(!t.contains("customers(1)"), "{t}");
    // J&J's release draws "Sales" and its marks in one run: one word, as the gold text has it.
    let t = page_text("JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf", 2);
    assert!(t.split_whitespace().any(|w| w == "Sales1,2"), "{t}");
}

#[test]
fn an_exhibit_index_shaded_every_other_row_is_one_table_with_each_description_whole() {
    // NIKE 2018 p77-p78 and Best Buy's 10-Q p25 shade every other exhibit of the index, each
    // shaded exhibit a box with the index's two column edges, and underline each description (a
    // link). Read box by box, each shaded exhibit whose description wraps was a table of its own
    // (NIKE p77: five, p78: seven), its description cut at the underline into two rows and the
    // unshaded exhibits between them lost. Banded rows are one table; an underline cuts no row.
    let row_of = |t: &clair_core::ingest::Table, number: &str| t.grid().into_iter().find(|r| r[0] == number);
    let p77 = fb_page("NIKE_2018_10K.pdf", 77);
    let index: Vec<_> = p77.tables.iter().filter(|t| row_of(t, "3.1").is_some() || row_of(t, "4.5").is_some()).collect();
    assert_eq!(index.len(), 1, "{:#?}", p77.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    let t = index[0];
    for n in ["3.1", "3.2", "4.1", "4.2", "4.3", "4.4", "4.5", "10.1", "10.2", "10.3", "10.4", "10.5"] {
        assert!(row_of(t, n).is_some(), "exhibit {n} missing: {:#?}", t.grid());
    }
    let third = row_of(t, "4.5").expect("4.5");
    assert!(third[1].starts_with("Third Supplemental Indenture") && third[1].ends_with("21, 2016)."), "{third:?}");
    let p78 = fb_page("NIKE_2018_10K.pdf", 78);
    let index: Vec<_> = p78.tables.iter().filter(|t| row_of(t, "10.6").is_some() || row_of(t, "10.18").is_some()).collect();
    assert_eq!(index.len(), 1, "{:#?}", p78.tables.iter().map(|t| t.grid()).collect::<Vec<_>>());
    for n in ["10.6", "10.7", "10.12", "10.18", "10.19", "23", "31.1", "101.INS", "101.DEF"] {
        assert!(row_of(index[0], n).is_some(), "exhibit {n} missing: {:#?}", index[0].grid());
    }
    // Best Buy paints the unshaded rows white and the first exhibit's box stands apart from them.
    let bb = fb_page("BESTBUY_2024Q2_10Q.pdf", 25);
    let t = bb.tables.iter().find(|t| row_of(t, "31.1").is_some()).expect("the exhibit index");
    let first = row_of(t, "3.1").expect("exhibit 3.1 in the index");
    assert!(first[1].starts_with("Amended and Restated Articles") && first[1].ends_with("June 12, 2020)."), "{first:?}");
    assert!(row_of(t, "3.2").is_some_and(|r| r[1].ends_with("2018).")), "{:#?}", t.grid());
}

#[test]
fn a_statement_shaded_every_other_line_is_still_read_from_its_alignment() {
    // Walmart 2020 p51 shades every other line of its income statement. Its rows are one line
    // each, so the boxes say nothing whitespace does not; read from the boxes, the statement was
    // cut into three tables at its subtotals and lost its column headings.
    let p = fb_page("WALMART_2020_10K.pdf", 51);
    let t = p.tables.iter().find(|t| t.grid().iter().any(|r| r[0] == "Net sales")).expect("the income statement");
    let g = t.grid();
    assert!(g.iter().any(|r| r[0] == "Consolidated net income attributable to Walmart"), "{g:#?}");
    assert!(g.iter().take(t.header_rows.max(1)).any(|r| r.iter().any(|c| c == "2020")), "{g:#?}");
}

#[test]
fn a_paragraph_with_a_box_painted_behind_each_line_is_not_a_table() {
    // Walmart 2020 p34 paints a box behind each line of a paragraph; the boxes' edges run from
    // the line's first word to its last, as an underline does. They are box edges, not
    // underlines: kept, they tell the paragraph for running text.
    let p = fb_page("WALMART_2020_10K.pdf", 34);
    for t in &p.tables {
        let text: String = t.grid().concat().join(" ");
        assert!(!text.contains("We define ROI as"), "{:#?}", t.grid());
    }
    assert!(p.text.contains("We define ROI as"));
}

#[test]
fn an_exhibit_index_whose_descriptions_wrap_is_one_table_with_each_description_whole() {
    // Netflix 2017 p64-p65 sets its exhibit index without rules or shading: a number, a
    // description wrapped over up to four lines, then form, file number, exhibit and date on the
    // description's first line. Each wrapped line stood as a row of one cell, so the grid read as
    // too sparse to be a table: the index was not found, bar two rows at the foot of p64.
    let ex = ingest::extract(&read(&format!("{FB}NETFLIX_2017_10K.pdf")), "NETFLIX_2017_10K.pdf", &IngestSettings::default());
    let page = |n: u32| ex.pages.iter().find(|p| p.page == n).expect("page");
    let row_of = |t: &clair_core::ingest::Table, number: &str| t.grid().into_iter().find(|r| r[0] == number);
    let p64 = page(64);
    let t = p64.tables.iter().find(|t| row_of(t, "3.1").is_some()).expect("the exhibit index on p64");
    let amendment = row_of(t, "3.3").expect("exhibit 3.3");
    assert_eq!(amendment[1], "Certificate of Amendment to the Amended and Restated Certificate of Incorporation", "{amendment:?}");
    assert!(amendment.iter().any(|c| c == "10-Q") && amendment.iter().any(|c| c == "August 2, 2004"), "{amendment:?}");
    assert!(row_of(t, "3.2").is_some() && row_of(t, "4.1").is_some(), "{:#?}", t.grid());
    let p65 = page(65);
    let t = p65.tables.iter().find(|t| row_of(t, "10.9").is_some()).expect("the exhibit index on p65");
    let rights = row_of(t, "10.9").expect("exhibit 10.9");
    assert!(rights[1].starts_with("Registration Rights Agreement, dated as of February 5, 2015, by and among"), "{rights:?}");
}

#[test]
fn tables_in_both_columns_of_a_two_column_page_are_read_apart() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench with nine tables, four in the
    // left column and five in the right, prose between them. The right-hand tables' rows stand
    // on other baselines than the left-hand lines beside them (one to four points off); read as
    // rows across the gutter they made one table of both columns and the prose between.
    let ex = fixture("two-column-tables.pdf");
    let p = &ex.pages[0];
    let boxes: Vec<[f32; 4]> = p.tables.iter().map(|t| t.bbox).collect();
    assert_eq!(p.tables.len(), 9, "{boxes:?}");
    let gutter = 297.6; // the middle of the A4 page, between the columns
    assert!(boxes.iter().all(|b| b[2] < gutter || b[0] > gutter), "a table across the gutter: {boxes:?}");
    let options = p.tables.iter().map(|t| t.grid()).find(|g| g[0] == ["Option", "Mean Number of Iterations"]).expect("the Option table");
    assert_eq!(options.len(), 6, "{options:#?}");
    assert_eq!(options[5], ["Option 5", "41.8125"]);
}

#[test]
fn a_table_across_both_columns_of_a_two_column_page_stays_whole() {
    // JPM 10-Q p56: the deposits table is set across a page whose text runs in two columns above
    // and below it; its rows have figures on both sides of the gutter, on one baseline each.
    let ex = jpm_2023q2();
    let p = ex.pages.iter().find(|p| p.page == 56).expect("page 56");
    assert_eq!(p.tables.len(), 1, "{:?}", p.tables.iter().map(|t| t.bbox).collect::<Vec<_>>());
    let rows = p.tables[0].grid();
    let total = rows.iter().find(|r| r[0] == "Total Firm").unwrap_or_else(|| panic!("{rows:#?}"));
    assert_eq!(total[1..], ["$ 2,398,962", "$ 2,340,179", "$ 2,387,414", "$ 2,532,312", "$ 2,354,131", "$ 2,523,979"]);
}

#[test]
fn a_two_column_page_set_double_spaced_is_read_a_column_at_a_time() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns whose running
    // text is set with about an em between its lines, a table or two in each column. Its sentences
    // carry on from line to line as closely set text does, so the page is read a column at a time;
    // read across the gutter, the tables took the other column's lines for rows.
    let ex = fixture("two-column-double-spaced.pdf");
    let p = &ex.pages[0];
    let boxes: Vec<[f32; 4]> = p.tables.iter().map(|t| t.bbox).collect();
    let gutter = 297.6; // the middle of the A4 page, between the columns
    assert!(p.tables.len() >= 5 && boxes.iter().all(|b| b[2] < gutter || b[0] > gutter), "a table across the gutter: {boxes:?}");
    let demand = p.tables.iter().map(|t| t.grid()).find(|g| g.iter().any(|r| r[0] == "OPF")).expect("the demand table");
    assert!(demand.iter().any(|r| r == &["OPF", "106", "15", "21"]), "{demand:#?}");
    assert!(demand.iter().any(|r| r == &["SSSC-OPF", "11", "51", "23"]), "{demand:#?}");
}

#[test]
fn a_two_column_page_given_mostly_to_tables_is_read_a_column_at_a_time() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns, a table or two
    // in each and only a paragraph or two of text on either side, neither a column's worth. Read
    // across the gutter, the left-hand metrics table and the right-hand case table made rows of
    // four cells together, too sparse a grid for either to be found.
    // The gutter: between the columns (the left ones end by 281, the right ones start at 305).
    let grids = tables_of_two_columns("two-column-little-text.pdf", 295.0);
    let metrics = grid_where(&grids, |g| g[0] == ["Metric", "Value"]);
    assert!(metrics.iter().any(|r| r == &["Overall Accuracy (Video)", "82.57%"]), "{metrics:#?}");
    assert!(metrics.iter().any(|r| r == &["Fatigue / Random Error", "13.4%"]), "{metrics:#?}");
    let cases = grid_where(&grids, |g| g[0] == ["Case ID", "bank_river"]);
    assert!(cases.iter().any(|r| r == &["Top Active Feature", "Feat 948 (Act: 9.00)"]), "{cases:#?}");
}

#[test]
fn rows_of_two_tables_side_by_side_on_one_baseline_are_not_a_row_across() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns with tables at
    // the top of both. A row of the left-hand table ("CIReVL + SoFT (0.7)  23.16 … 19.47", its
    // label and figures one piece) stands near the baseline of the right-hand table's row of
    // figures ("342  4,913 …"); taken for one row across the gutter, it kept the top of the page
    // from being read a column at a time, and the left-hand "Encoder" table was lost.
    // The gutter: between the columns (the left ones end by 281, the right ones start at 315).
    let grids = tables_of_two_columns("two-column-tables-on-one-baseline.pdf", 297.6);
    let encoder = grid_where(&grids, |g| g[0] == ["Encoder", "Cora", "Citeseer", "WikiCS", "DBLP"]);
    assert_eq!(encoder[1], ["GPT-4o", "67.76", "70.30", "57.96", "48.45"]);
    let method = grid_where(&grids, |g| g[0][0] == "Method");
    assert!(method.iter().any(|r| r == &["CIReVL + SoFT (0.7)", "23.16", "23.12", "21.42", "19.47"]), "{method:#?}");
}

#[test]
fn tables_in_both_columns_of_a_page_without_running_text_are_read_apart() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns holding tables
    // only (two lines of text at the foot). With no running text on either side the page was read
    // across the gutter: three tables, each taking rows of both columns. Each column's tables are
    // tables of their own, on baselines of their own.
    // The gutter: between the columns (the left ones end by 284, the right ones start at 312).
    let grids = tables_of_two_columns("two-column-tables-only.pdf", 298.0);
    let ks = grid_where(&grids, |g| g[0].iter().any(|c| c == "Mean KS stat"));
    assert_eq!(ks.len(), 7, "{ks:#?}");
    assert_eq!(ks[6][1..], ["0.3768", "0.00"]);
    let pins = grid_where(&grids, |g| g.iter().any(|r| r[0] == "Residual"));
    assert!(pins.iter().any(|r| r == &["All", "+9.68", "+9.62", "+0.26", "-0.32"]), "{pins:#?}");
}

#[test]
fn a_group_heading_in_a_table_of_one_value_column_keeps_the_groups_in_one_table() {
    // tests/fixtures/README.md (page 034 of pdf-parse-bench): a settings table of one label column
    // and one value column ("Max Tokens | 20,480"), its second group under the heading "Search
    // Tool". A group heading needed the row after it to carry figures in two value columns, which
    // such a table does not have: it was cut at the heading.
    let grids = tables_of_two_columns("two-column-tables-only.pdf", 298.0);
    let settings = grid_where(&grids, |g| g.iter().any(|r| r == &["Max Tokens", "20,480"]));
    assert!(settings.iter().any(|r| r[0] == "Search Tool"), "{settings:#?}");
    assert!(settings.iter().any(|r| r == &["Summarizer Max Tokens", "8,192"]), "{settings:#?}");
}

#[test]
fn two_rows_of_the_other_column_on_one_baseline_by_chance_do_not_make_a_table_across() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns, a long
    // parameter table in the left column beside two tables and a paragraph in the right. Two
    // left-hand rows happened to stand on the baselines of right-hand rows of figures, and two
    // rows across the gutter were enough to keep the page's top half from being read a column at
    // a time: the "Concept" table took in the paragraph beside it, and the "Stanford Cars" table
    // was lost. A table set across the page keeps its rows' two sides in step: of the lines
    // shaped like rows across, most (not two) must be.
    // The gutter: between the columns (the left ones end by 290, the right ones start at 322).
    let grids = tables_of_two_columns("two-column-tables-rows-by-chance.pdf", 306.0);
    let concept = grid_where(&grids, |g| g[0].first().is_some_and(|c| c == "Concept"));
    assert_eq!(concept[1], ["Beach", "30.7", "29.2", "56.7", "95.5", "100"]);
    let cars = grid_where(&grids, |g| g.iter().flatten().any(|c| c.contains("Stanford Cars")));
    assert!(cars.iter().any(|r| r == &["0.02", "63.3", "80.2", "55.1", "67.3", "68.1", "67.0"]), "{cars:#?}");
}

#[test]
fn entries_and_page_numbers_a_steady_distance_off_one_baseline_are_not_two_columns() {
    // PepsiCo 2021 p196, a pension plan's contents: each page number (x 563) stands 2 pt (0.19
    // em) above its entry's baseline (x 33), every line alike. Counted as rows across only on one
    // baseline, the lines were two columns' lines meeting by chance, and the page was read a
    // column at a time: the entries without their page numbers. A row's two sides kept a steady
    // distance apart, under `STEADY_OFFSET_EMS`, are in step.
    let p = fb_page("PEPSICO_2021_10K.pdf", 196);
    for t in &p.tables {
        assert!(t.bbox[2] > 300.0, "the entries read apart from their page numbers: {:?} {:?}", t.bbox, t.grid());
    }
}

#[test]
fn a_label_beside_figures_of_the_other_column_off_its_baseline_is_not_a_row_across() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns, tables in both.
    // A left-hand table's label line ("LPIPS", no figure of its own) overlapped a right-hand row
    // of figures a few points off its baseline, and passed for one row across the gutter: the
    // page was read as one table over both columns. One row stands on one baseline.
    // The gutter: between the columns (the left ones end by 286, the right ones start at 309).
    let grids = tables_of_two_columns("two-column-labels-off-baseline.pdf", 297.6);
    assert!(grids.len() >= 4, "{grids:#?}");
    let records = grid_where(&grids, |g| g[0] == ["Dataset", "Records"]);
    assert!(records.iter().any(|r| r == &["decimal_DoS", "74,663"]), "{records:#?}");
}

#[test]
fn running_text_beside_tables_of_the_other_column_on_lines_of_their_own_is_read_apart() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns, paragraphs and
    // tables in the left one, tables in the right one (a maturity table whose rows open with
    // figures, a matrix), so little text on the right that it was not a column of its own: the
    // page was read across the gutter and the tables of both columns ran together. The lines of
    // the two sides stand on baselines of their own.
    // The gutter: between the columns (the left ones end by 294, the right ones start at 317).
    let grids = tables_of_two_columns("two-column-text-beside-tables.pdf", 305.0);
    let maturity = grid_where(&grids, |g| g[0] == ["Maturity (weeks)", "Rate (%)"]);
    assert!(maturity.iter().any(|r| r == &["52", "3.77"]), "{maturity:#?}");
    let models = grid_where(&grids, |g| g.iter().any(|r| r[0] == "LLaMA3.1"));
    assert!(models.iter().any(|r| r == &["Qwen3", "56.0", "2.77", "55.5", "2.76", "55.4", "2.77"]), "{models:#?}");
}

#[test]
fn tables_whose_rows_open_with_figures_are_tables_of_their_own_in_a_column() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench in two columns, tables in both
    // and no running text beside most of them. A table is a table of its own however its rows
    // open ("1  40.6  61.9", "3  0.444E+03  1.1"): the two sides stand on baselines of their own.
    let ex = fixture("two-column-tables-numbered-rows.pdf");
    let p = &ex.pages[0];
    let gutter = 282.0; // between the columns (the left ones end by 266, the right ones start at 299)
    let grids: Vec<(Vec<Vec<String>>, [f32; 4])> = p.tables.iter().map(|t| (t.grid(), t.bbox)).collect();
    let (task, b) = grids.iter().find(|(g, _)| g.iter().any(|r| r[0] == "Average MTBO")).unwrap_or_else(|| panic!("{grids:#?}"));
    assert!(b[2] < gutter, "{b:?} {task:#?}");
    assert!(task.iter().any(|r| r == &["", "Task 0", "3", "1.079", "0.071"]), "{task:#?}");
    let (mlp, b) = grids.iter().find(|(g, _)| g.iter().any(|r| r[0] == "ReLU MLP")).unwrap_or_else(|| panic!("{grids:#?}"));
    assert!(b[0] > gutter, "{b:?} {mlp:#?}");
    assert!(mlp.iter().any(|r| r == &["ReLU MLP", "0.02", "0.16", "−23.52", "−14.34"]), "{mlp:#?}");
}

#[test]
fn justified_text_stretched_after_a_full_stop_is_not_a_row_of_cells() {
    // tests/fixtures/README.md: a pdfLaTeX page of pdf-parse-bench whose justified paragraphs
    // stretch the space after a full stop past the gap that cuts a line into cells ("Share red
    // future be play instead.  Suggest"). The paragraph over the right-hand table read as its
    // first rows.
    let ex = fixture("justified-text-over-a-table.pdf");
    let p = &ex.pages[0];
    let cells: Vec<String> = p.tables.iter().flat_map(|t| t.grid()).flatten().collect();
    assert!(!cells.iter().any(|c| c.contains("Suggest") || c.contains("Share red future")), "{cells:#?}");
    let grids: Vec<Vec<Vec<String>>> = p.tables.iter().map(|t| t.grid()).collect();
    let x = grid_where(&grids, |g| g.iter().any(|r| r[0] == "pz"));
    assert!(x.iter().any(|r| r == &["pz", "16.5", "–4.59", "4.65", "–4.53"]), "{x:#?}");
}

#[test]
fn a_group_heading_set_off_by_rules_from_its_rows_keeps_the_groups_in_one_table() {
    // tests/fixtures/README.md: a 6.8 pt table of four groups ("UMAP + Random Forest", "XGBoost (no
    // Dim. Reduction)", …), each under a centred heading with a rule above and below it, so the
    // heading stands 1.55 lines over its group's first row. Past 1.5 lines it was not read as a
    // group heading: the table ended at the first one, and the one-row groups were lost.
    let ex = fixture("groups-under-headings-between-rules.pdf");
    let grids: Vec<Vec<Vec<String>>> = ex.pages[0].tables.iter().map(|t| t.grid()).collect();
    let g = grid_where(&grids, |g| g.iter().any(|r| r[0] == "Dim. Reduction"));
    let firsts: Vec<&str> = g.iter().map(|r| r[0].as_str()).collect();
    for label in ["UMAP + Random Forest", "XGBoost (no Dim. Reduction)", "Random Forest (no Dim. Reduction)"] {
        assert!(firsts.iter().any(|f| f.contains(label)) || g.iter().flatten().any(|c| c == label), "{label}: {g:#?}");
    }
    assert_eq!(firsts.iter().filter(|f| **f == "None").count(), 3, "{g:#?}");
    assert!(g.iter().any(|r| r[0] == "UMAP" && r[1] == "Random Forest"), "{g:#?}");
}

#[test]
fn a_table_of_phrases_between_rules_is_read_as_a_table() {
    // tests/fixtures/README.md: a booktabs table of datasets (Dataset | Target | Description) whose
    // cells are phrases and names, no figure, its column rules stopping short of every rule. A
    // line whose second cell is a phrase of six words or more was no row, so the table was lost.
    let ex = fixture("text-table-between-rules.pdf");
    let grids: Vec<Vec<Vec<String>>> = ex.pages[0].tables.iter().map(|t| t.grid()).collect();
    assert!(grid_where(&grids, |g| g.iter().flatten().any(|c| c == "McPAT-Calib-CompGroup")).iter().any(|r| r.contains(&"771".to_string())), "{grids:#?}");
    let g = grid_where(&grids, |g| g.iter().flatten().any(|c| c == "Description"));
    assert!(g.iter().any(|r| r.contains(&"Dataset".to_string()) && r.contains(&"Target".to_string())), "{g:#?}");
    for (target, description) in [("WTI", "West Texas Intermediate Crude Oil Price"), ("USD CNY", "Exchange Rate of United States of America Dollar to Chinese Yuan")] {
        assert!(g.iter().any(|r| r.contains(&target.to_string()) && r.contains(&description.to_string())), "{target}: {g:#?}");
    }
}

#[test]
fn a_list_in_a_ruled_box_is_no_table_of_phrases() {
    // Best Buy's 2019 10-K p67: the costs making up cost of goods sold, a bulleted list in a box of
    // rules. Each item is a bullet and a phrase a gutter apart, like a row of two cells; an item
    // hung on a bullet is a list's, not a row's.
    let p = fb_page("BESTBUY_2019_10K.pdf", 67);
    let cells: Vec<String> = p.tables.iter().flat_map(|t| t.grid()).flatten().collect();
    assert!(!cells.iter().any(|c| c.contains("Markdowns") || c.contains("Physical inventory losses")), "{cells:#?}");
}

#[test]
fn a_frame_round_the_headings_of_a_table_of_figures_adds_no_line_above_it() {
    // JPMorgan's 2021 Q1 10-Q p26: the Markets revenue table's headings ("Three months ended March
    // 31," over "Fixed Income Markets …") sit between a rule above and a rule under them, figures
    // right under that rule. Read as a frame of phrase rows, the headings became rows and the
    // table took in the last line of the paragraph above it, set in the page's two columns.
    let p = fb_page("JPMORGAN_2021Q1_10Q.pdf", 26);
    let grids: Vec<Vec<Vec<String>>> = p.tables.iter().map(|t| t.grid()).collect();
    let g = grid_where(&grids, |g| g.iter().any(|r| r[0] == "Principal transactions"));
    assert!(!g.iter().flatten().any(|c| c.contains("executing new transactions")), "{g:#?}");
    assert!(g[0].iter().any(|c| c == "Three months ended March 31,"), "{g:#?}");
}

#[test]
fn a_statement_section_heading_over_its_rows_keeps_the_statement_one_table() {
    // Ulta Beauty's Q4 2023 release p7: the balance sheet's "Commitments and contingencies" stands
    // 1.5–2 lines over the equity rows under it; the statement was cut there, its last two rows
    // (the totals) a table of their own under that heading as a caption.
    let p = fb_page("ULTABEAUTY_2023Q4_EARNINGS.pdf", 7);
    let grids: Vec<Vec<Vec<String>>> = p.tables.iter().map(|t| t.grid()).collect();
    let g = grid_where(&grids, |g| g.iter().any(|r| r[0] == "Total current assets"));
    assert!(g.iter().any(|r| r[0] == "Total liabilities and stockholders’ equity"), "{g:#?}");
}

#[test]
fn a_grid_parted_by_double_rules_is_one_table() {
    // tests/fixtures/README.md: a pdfLaTeX grid (`\hline\hline` under its header and between two
    // groups of rows) whose column rules stop at one stroke of each double rule or the other. The
    // header and each group read as a lattice of their own: three tables, the header lost.
    let ex = fixture("grid-parted-by-double-rules.pdf");
    let grids: Vec<Vec<Vec<String>>> = ex.pages[0].tables.iter().map(|t| t.grid()).collect();
    let g = grid_where(&grids, |g| g.iter().flatten().any(|c| c == "10729"));
    assert_eq!(g[0][0], "Data", "{g:#?}");
    assert_eq!(g[0].len(), 9, "{g:#?}");
    let firsts: Vec<&str> = g.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(firsts, ["Data", "all", "all", "all", "all"], "{g:#?}");
    assert!(g.iter().flatten().any(|c| c == "3755"), "{g:#?}");
}
