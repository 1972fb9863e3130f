//! The answer as the app shows it: once, as the synthesized text, with each citation label standing
//! where the text puts it and resolved to the citation it names (paper §3.9: the brief synthesizer
//! may rephrase and reorder, but every label stays with the statement it supports, spec §7.2's
//! check). A paragraph that is one of the claims' abstention lines is marked as such, and as failed
//! when that claim was decided by a model failure, so it reads as what it is in place.
//!
//! Pure: the shells draw the pieces (text as text nodes, a citation as a button); nothing here
//! knows the DOM.

use crate::export::{Citation, RunExport};

/// One run of the answer text.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    /// A label `[source, p.N]` in the text and the citation it names. `place` is the cited node's
    /// section and printed page (for a hover), when the ledger knows them.
    Cite { label: String, citation: Citation, place: Option<String> },
}

/// What a paragraph of the answer is.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// Published text (or a lead that is no claim's line).
    Stated,
    /// A claim's abstention line: the evidence did not support it.
    Abstained { claim_id: String },
    /// A claim's abstention line where a model failure, not the evidence, decided (issue 38 item 5).
    Failed { claim_id: String, why: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Paragraph {
    pub standing: Standing,
    pub pieces: Vec<Piece>,
}

impl Paragraph {
    /// The paragraph's class in the app and the report: an abstained or failed line is marked.
    pub fn class(&self) -> &'static str {
        match self.standing {
            Standing::Stated => "answer-para",
            Standing::Abstained { .. } => "answer-para abstained-line",
            Standing::Failed { .. } => "answer-para failed-line",
        }
    }

    /// The words that open an abstained or failed line, so it reads as such in place. What failed
    /// is said once, in the answer's lead and the claim's details, not here.
    pub fn tag(&self) -> Option<String> {
        match &self.standing {
            Standing::Stated => None,
            Standing::Abstained { claim_id } => Some(format!("Abstained ({claim_id}): ")),
            Standing::Failed { claim_id, .. } => Some(format!("Failed ({claim_id}): ")),
        }
    }
}

/// What hovering a citation says: the file and page, then the section and printed page.
pub fn hover(citation: &Citation, place: Option<&str>) -> String {
    match place {
        Some(pl) => format!("{}, page {} · {pl}", citation.source, citation.page),
        None => format!("{}, page {}", citation.source, citation.page),
    }
}

/// The answer text split into paragraphs (its lines) and pieces.
pub fn paragraphs(run: &RunExport) -> Vec<Paragraph> {
    run.answer
        .text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| Paragraph { standing: standing(run, line), pieces: pieces(run, line) })
        .collect()
}

fn standing(run: &RunExport, line: &str) -> Standing {
    let Some(l) = run.answer.lines.iter().find(|l| !l.published && !l.text.trim().is_empty() && l.text.trim() == line) else {
        return Standing::Stated;
    };
    let failure = run.claims.iter().find(|c| c.claim_id == l.claim_id).and_then(|c| c.failure.clone());
    match failure {
        Some(why) => Standing::Failed { claim_id: l.claim_id.clone(), why },
        None => Standing::Abstained { claim_id: l.claim_id.clone() },
    }
}

/// The citation a label names. Several cited nodes on one page share a label (the synthesizer
/// writes each label once, spec §7.1), so the label stands for all of them: the first one's node,
/// with every one's boxes, so the viewer outlines each cited region on that page.
fn resolve(run: &RunExport, label: &str) -> Option<Citation> {
    let mut same = run.answer.lines.iter().flat_map(|l| &l.citations).filter(|c| crate::agents::synthesizer::label(c) == label);
    let mut first = same.next()?.clone();
    for c in same {
        for b in &c.bboxes {
            if !first.bboxes.contains(b) {
                first.bboxes.push(*b);
            }
        }
    }
    Some(first)
}

fn pieces(run: &RunExport, line: &str) -> Vec<Piece> {
    let mut out = vec![];
    let mut text = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(len) = rest[open..].find(']') else { break };
        let label = &rest[open..open + len + 1];
        match resolve(run, label) {
            Some(citation) => {
                text.push_str(&rest[..open]);
                if !text.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut text)));
                }
                let place = run.ledger.nodes.iter().find(|n| n.node_id == citation.node_id).and_then(|n| n.place());
                out.push(Piece::Cite { label: label.to_string(), citation, place });
                rest = &rest[open + len + 1..];
            }
            // Brackets that name no citation stay text.
            None => {
                text.push_str(&rest[..open + 1]);
                rest = &rest[open + 1..];
            }
        }
    }
    text.push_str(rest);
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::NodeKind;
    use crate::view::fixture;

    fn cites(p: &Paragraph) -> Vec<String> {
        p.pieces.iter().filter_map(|x| match x {
            Piece::Cite { label, .. } => Some(label.clone()),
            _ => None,
        }).collect()
    }

    fn text_of(p: &Paragraph) -> String {
        p.pieces.iter().map(|x| match x {
            Piece::Text(t) => t.clone(),
            Piece::Cite { label, .. } => label.clone(),
        }).collect()
    }

    #[test]
    fn every_label_in_the_text_becomes_the_citation_it_names_where_it_stands() {
        let mut run = fixture::run(3, 3);
        let first = run.answer.lines.iter().find(|l| l.published).unwrap().clone();
        let c = first.citations[0].clone();
        let label = crate::agents::synthesizer::label(&c);
        run.answer.text = format!("Sales rose {label} to a record.");
        let ps = paragraphs(&run);
        assert_eq!(ps.len(), 1);
        assert_eq!(text_of(&ps[0]), run.answer.text, "nothing of the text is lost or doubled");
        assert!(matches!(&ps[0].pieces[0], Piece::Text(t) if t == "Sales rose "));
        match &ps[0].pieces[1] {
            Piece::Cite { citation, .. } => assert_eq!(citation, &c),
            other => panic!("expected the citation, got {other:?}"),
        }
        assert!(matches!(&ps[0].pieces[2], Piece::Text(t) if t == " to a record."));
    }

    #[test]
    fn the_answer_is_shown_once_one_paragraph_per_text_line() {
        let mut run = fixture::run(2, 3);
        let labels: Vec<String> = run.answer.lines.iter().flat_map(|l| &l.citations).map(crate::agents::synthesizer::label).collect();
        run.answer.text = format!("First {}.\n\nSecond {}.", labels[0], labels[labels.len() - 1]);
        let ps = paragraphs(&run);
        assert_eq!(ps.len(), 2);
        assert_eq!(cites(&ps[0]), vec![labels[0].clone()]);
        assert_eq!(cites(&ps[1]), vec![labels[labels.len() - 1].clone()]);
    }

    #[test]
    fn a_label_shared_by_several_cited_regions_on_one_page_opens_all_of_them() {
        let mut run = fixture::run(1, 3);
        let line = run.answer.lines.iter_mut().find(|l| l.published).unwrap();
        let mut other = line.citations[0].clone();
        other.node_id = "another-node".into();
        other.bboxes = vec![[10.0, 500.0, 200.0, 520.0]];
        line.citations.push(other);
        let c = line.citations[0].clone();
        run.answer.text = format!("Figure {}.", crate::agents::synthesizer::label(&c));
        let ps = paragraphs(&run);
        match &ps[0].pieces[1] {
            Piece::Cite { citation, .. } => {
                assert_eq!(citation.node_id, c.node_id);
                assert!(citation.bboxes.contains(&[10.0, 500.0, 200.0, 520.0]), "the other region is outlined too");
                assert!(c.bboxes.iter().all(|b| citation.bboxes.contains(b)));
            }
            other => panic!("expected the citation, got {other:?}"),
        }
    }

    #[test]
    fn brackets_that_name_no_citation_stay_text() {
        let mut run = fixture::run(1, 2);
        run.answer.text = "A note [see below] and [UNKNOWN.pdf, p.3] and an unclosed [ bracket".into();
        let ps = paragraphs(&run);
        assert!(cites(&ps[0]).is_empty());
        assert_eq!(text_of(&ps[0]), run.answer.text);
    }

    #[test]
    fn an_abstention_line_reads_as_abstained_and_a_failed_claims_line_as_failed() {
        let mut run = fixture::run(2, 2);
        let unpublished = run.answer.lines.iter().find(|l| !l.published).unwrap().clone();
        run.answer.text = format!("Stated part.\n{}", unpublished.text);
        let ps = paragraphs(&run);
        assert_eq!(ps[0].standing, Standing::Stated);
        assert_eq!(ps[1].standing, Standing::Abstained { claim_id: unpublished.claim_id.clone() });

        let claim = run.claims.iter_mut().find(|c| c.claim_id == unpublished.claim_id).unwrap();
        claim.failure = Some("HTTP 500".into());
        let ps = paragraphs(&run);
        assert_eq!(ps[1].standing, Standing::Failed { claim_id: unpublished.claim_id, why: "HTTP 500".into() });
    }

    #[test]
    fn a_citation_carries_its_section_and_printed_page_for_the_hover() {
        let mut run = fixture::run(1, 3);
        let c = run.answer.lines.iter().flat_map(|l| &l.citations).next().unwrap().clone();
        let node = run.ledger.nodes.iter_mut().find(|n| n.node_id == c.node_id).unwrap();
        match &mut node.kind {
            NodeKind::TextSpan { locator, .. } | NodeKind::TableCell { locator, .. } | NodeKind::ChartRegion { locator, .. } => {
                locator.section = Some("Item 7. MD&A".into());
                locator.page_label = Some("F-3".into());
            }
            _ => panic!("a cited node has a locator"),
        }
        run.answer.text = crate::agents::synthesizer::label(&c);
        let ps = paragraphs(&run);
        match &ps[0].pieces[0] {
            Piece::Cite { place, .. } => assert_eq!(place.as_deref(), Some("Item 7. MD&A · printed p. F-3")),
            other => panic!("expected the citation, got {other:?}"),
        }
    }
}
