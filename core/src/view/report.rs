//! The offline report: one self-contained HTML file (inline CSS and SVG, no script, no external
//! resource) with the answer, each claim's verdict, evidence, debate, custody, docket, HRI and model
//! calls, the ledger graph drawn from the same layout the app uses, and — when the PDFs are at hand —
//! crops of the cited page regions as `data:` images. It opens from disk, prints, and is safe to
//! mail: all document and model text is escaped.

use super::answer::{hover, paragraphs, Piece};
use super::layout::{layout, GraphLayout};
use super::{escape, truncate};
use crate::corpus::{union, BBox};
use crate::export::{Citation, ClaimReport, RunExport};
use crate::ledger::NodeKind;
use crate::llm::wire::base64;

const CSS: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;max-width:1100px;margin:24px auto;padding:0 16px}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:28px;border-bottom:1px solid #d9dee7}h3{font-size:1rem;margin:18px 0 6px}
table{border-collapse:collapse;width:100%;margin:6px 0}td,th{border:1px solid #d9dee7;padding:4px 6px;text-align:left;vertical-align:top;font-size:.85rem}
.muted{color:#5b6475}.ok{color:#1b7f4b}.bad{color:#b3261e}.warn{color:#a86400}
.answer{border-left:4px solid #1b7f4b;padding:4px 12px}.answer-para{margin:4px 0}.abstained-line,.failed-line{color:#b3261e}
cite.citation{font-style:normal;color:#1f5fbf;white-space:nowrap}
.crop{margin:6px 0 10px}.crop img{max-width:100%;border:1px solid #d9dee7}.crop figcaption{font-size:.8rem;color:#5b6475}
.claim{border:1px solid #d9dee7;border-radius:8px;padding:8px 14px;margin:12px 0}
.graph{overflow:auto;border:1px solid #d9dee7;border-radius:8px}
.graph text{font:11px system-ui,sans-serif;fill:#1d2330}
.n-claim{fill:#e8f0fe;stroke:#1f5fbf}.n-claim.v-InsufficientEvidence{fill:#fdecea;stroke:#b3261e}.n-claim.v-StronglySupported{fill:#e6f4ea;stroke:#1b7f4b}
.n-text_span{fill:#fff;stroke:#5b6475}.n-table_cell{fill:#fff8e1;stroke:#a86400}.n-chart_region{fill:#f3e8fd;stroke:#7b1fa2}
.n-derived_metric{fill:#e0f7fa;stroke:#00796b}.n-constraint_check{fill:#eceff1;stroke:#455a64}.n-source{fill:#fafafa;stroke:#9aa3b2}
.e{fill:none;stroke:#9aa3b2;stroke-width:1.2}.e-SUPPORTS{stroke:#1b7f4b}.e-SAME_AS{stroke-dasharray:6 4}
.e-VIOLATES_CONSTRAINT{stroke:#b3261e;stroke-dasharray:3 3}.e-DERIVED_FROM{stroke:#00796b;stroke-dasharray:1 3}
.e-CONTRADICTS{stroke:#b3261e;stroke-width:2.2}.e-ON_PAGE{stroke:#d0d5dd}
";

/// Page crops the report embeds at most (each ~20–80 KB of PNG): the cited regions of the answer
/// lines first, then the other pages of cited tables that run over several pages.
pub const MAX_CROPS: usize = 24;

/// One cited region rendered on its own (by the worker, or natively by `clair`), as PNG.
#[derive(Debug, Clone, PartialEq)]
pub struct Crop {
    pub source: String,
    pub page: u32,
    pub bbox: BBox,
    pub png: Vec<u8>,
}

/// The regions the report wants crops of: every citation where the answer shows it (the box around
/// all of its boxes: a prose chunk has one per block, and a label shared by several cited regions
/// on a page stands for all of them, `view::answer`) and every part of a cited table on another
/// page, once each, at most `MAX_CROPS`.
pub fn crop_requests(run: &RunExport) -> Vec<(String, u32, BBox)> {
    let mut out: Vec<(String, u32, BBox)> = vec![];
    let mut push = |s: &str, p: u32, b: BBox| {
        if out.len() < MAX_CROPS && !out.iter().any(|(s2, p2, b2)| s2 == s && *p2 == p && b2 == &b) {
            out.push((s.to_string(), p, b));
        }
    };
    let cites: Vec<Citation> = paragraphs(run)
        .into_iter()
        .flat_map(|p| p.pieces)
        .filter_map(|piece| match piece {
            Piece::Cite { citation, .. } => Some(citation),
            Piece::Text(_) => None,
        })
        .collect();
    for c in &cites {
        if let Some(b) = union(&c.bboxes) {
            push(&c.source, c.page, b);
        }
    }
    for c in &cites {
        for part in c.table_parts.iter().filter(|p| p.page != c.page) {
            push(&c.source, part.page, part.bbox);
        }
    }
    out
}

/// The whole report as one HTML document, without page crops.
pub fn html_report(run: &RunExport) -> String {
    html_report_with_crops(run, &[])
}

/// The whole report with the given crops embedded as `data:` images under the answer line (and
/// the table part) they show — still one file that opens offline.
pub fn html_report_with_crops(run: &RunExport, crops: &[Crop]) -> String {
    let mut o = String::with_capacity(64 * 1024);
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    o.push_str(&format!("<title>CLAIR-Fin report — {}</title><style>{CSS}</style></head><body>\n", escape(&truncate(&run.question, 80))));
    o.push_str(&format!("<h1>CLAIR-Fin report</h1><p class=\"muted\">Run <code>{}</code> · schema {}</p>\n", escape(&run.run_id), escape(&run.schema_version)));
    o.push_str(&format!("<h2>Question</h2><p>{}</p>\n", escape(&run.question)));

    let (outcome, badge) = run.banner();
    let cls = match outcome {
        crate::export::RunOutcome::Answered => "ok",
        crate::export::RunOutcome::Partial => "warn",
        crate::export::RunOutcome::Abstained | crate::export::RunOutcome::Failed => "bad",
    };
    // The answer as the app shows it (`view::answer`, issue 43 item 6): the synthesized text once,
    // each citation label where the text puts it, an abstained or failed line marked in place, and
    // the crops of a paragraph's cited regions under that paragraph.
    o.push_str(&format!("<h2>Answer</h2><p class=\"{cls}\"><strong>{badge}</strong></p><div class=\"answer\" id=\"answer-text\">"));
    let crop_of = |s: &str, p: u32, b: &BBox| crops.iter().find(|c| c.source == s && c.page == p && &c.bbox == b);
    for p in paragraphs(run) {
        o.push_str(&format!("<p class=\"{}\">", p.class()));
        if let Some(tag) = p.tag() {
            o.push_str(&format!("<strong class=\"line-standing\">{}</strong>", escape(&tag)));
        }
        let mut shown: Vec<&Crop> = vec![];
        let mut figures = String::new();
        for piece in &p.pieces {
            match piece {
                Piece::Text(t) => o.push_str(&escape(t)),
                Piece::Cite { label, citation: c, place } => {
                    o.push_str(&format!("<cite class=\"citation\" title=\"{}\">{}</cite>", escape(&hover(c, place.as_deref())), escape(label)));
                    let here = union(&c.bboxes).and_then(|b| crop_of(&c.source, c.page, &b)).map(|k| (k, "cited region"));
                    let parts = c.table_parts.iter().filter(|t| t.page != c.page).filter_map(|t| crop_of(&c.source, t.page, &t.bbox)).map(|k| (k, "the cited table continues here"));
                    for (crop, what) in here.into_iter().chain(parts) {
                        if !shown.iter().any(|k| std::ptr::eq(*k, crop)) {
                            shown.push(crop);
                            figure(&mut figures, crop, what);
                        }
                    }
                }
            }
        }
        o.push_str("</p>");
        o.push_str(&figures);
    }
    o.push_str("</div>\n");

    let t = &run.totals;
    let cost = if t.unpriced_models.is_empty() { format!("${:.4}", t.cost_usd) } else { format!("${:.4} + unpriced ({})", t.cost_usd, escape(&t.unpriced_models.join(", "))) };
    o.push_str(&format!(
        "<p class=\"muted\">{} model calls ({} fell back to the conservative default) · {} input + {} output tokens · {cost}</p>\n",
        t.calls, t.failed_calls, t.input_tokens, t.output_tokens
    ));

    o.push_str("<h2>Claims</h2><table><tr><th>Claim</th><th>Type</th><th>Verdict</th><th>Published</th><th>Coverage</th><th>HRI</th></tr>");
    for c in &run.claims {
        o.push_str(&format!(
            "<tr><td><a href=\"#{}\">{}</a> {}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td></tr>",
            escape(&c.claim_id),
            escape(&c.claim_id),
            escape(&c.text),
            c.claim_type.as_str(),
            c.label.as_str(),
            if c.published { "yes" } else { "no" },
            c.coverage_bp as f64 / 10_000.0,
            c.hri.as_ref().map(|h| format!("{:.3}", h.value)).unwrap_or_else(|| "—".into())
        ));
    }
    o.push_str("</table>\n");

    o.push_str("<h2>Ledger graph</h2>\n");
    o.push_str(&svg(&layout(run)));
    for c in &run.claims {
        claim_section(&mut o, c);
    }
    o.push_str("<p class=\"muted\">Generated offline by CLAIR-Fin from the run export; contains no API key.</p></body></html>\n");
    o
}

/// A crop as an embedded image with its provenance as caption and alternative text.
fn figure(o: &mut String, crop: &Crop, what: &str) {
    let label = format!("{}, p.{} — {what}", crop.source, crop.page);
    o.push_str(&format!(
        "<figure class=\"crop\"><img src=\"data:image/png;base64,{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
        base64(&crop.png),
        escape(&label),
        escape(&label)
    ));
}

fn claim_section(o: &mut String, c: &ClaimReport) {
    o.push_str(&format!("<section class=\"claim\" id=\"{}\"><h2>{} — {}</h2>", escape(&c.claim_id), escape(&c.claim_id), escape(&c.text)));
    o.push_str(&format!(
        "<p><strong>{}</strong> · {} · {} · {}</p><p class=\"muted\">{}</p>",
        c.label.as_str(),
        c.claim_type.as_str(),
        if c.published { "published" } else { "not published" },
        if c.audit_passed { "audit passed" } else { "audit not passed" },
        escape(&c.reason)
    ));
    o.push_str(&format!(
        "<p>Coverage A(c) = {:.2} · {} ({})</p>",
        c.coverage_bp as f64 / 10_000.0,
        if c.escalated { "escalated to debate" } else { "fast path" },
        escape(&c.escalation_reason)
    ));
    if let Some(d) = &c.docket {
        let m = |x: Option<crate::config::Modality>| x.map(|m| m.as_str()).unwrap_or("none");
        let confs: Vec<String> = d.modality_confidences.iter().map(|(m, v)| format!("{} {v:.2}", m.as_str())).collect();
        o.push_str(&format!(
            "<h3>Authority docket</h3><p>AEA winner: <strong>{}</strong> (s = {:.2}) · equal-weight winner: {} · {} · confidences: {}</p>",
            m(d.asymmetric_winner),
            d.s,
            m(d.uniform_winner),
            if d.asymmetry_changed_outcome { "the asymmetric prior changed the outcome" } else { "same outcome either way" },
            escape(&confs.join(", "))
        ));
    }
    if let Some(h) = &c.hri {
        o.push_str(&format!(
            "<h3>Hallucination Risk Index</h3><table><tr><th>HRI</th><th>entailment w₁(1−γ)</th><th>authority w₂(1−s)</th><th>repair w₃ρ</th><th>attacks w₄n</th></tr><tr><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td></tr></table>",
            h.value, h.entailment_term, h.authority_term, h.repair_term, h.attack_term
        ));
    }
    o.push_str("<h3>Evidence</h3><table><tr><th>Node</th><th>Modality</th><th>Score</th><th>Where</th><th>Content</th></tr>");
    for e in &c.evidence {
        let place = e.node.place().unwrap_or_default();
        // A table cell's footnotes under its content, as printed under the table.
        let notes: String = match &e.node.kind {
            NodeKind::TableCell { notes, .. } => notes.iter().map(|n| format!("<br><small class=\"note\">{}</small>", escape(n))).collect(),
            _ => String::new(),
        };
        o.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{}</td><td>{}{}</td></tr>",
            escape(&e.node.node_id),
            e.modality.map(|m| m.as_str()).unwrap_or("—"),
            e.score,
            escape(&place),
            escape(&e.node.describe()),
            notes
        ));
    }
    o.push_str("</table>");
    if !c.debate.briefs.is_empty() || !c.debate.reviews.is_empty() {
        o.push_str(&format!("<h3>Debate</h3><p class=\"muted\">{} rebuttal round(s), {} repair(s)</p>", c.debate.rebuttal_rounds, c.debate.repairs));
        for b in &c.debate.briefs {
            o.push_str(&format!("<p><strong>Affirmative ({})</strong>: {}</p>", escape(&b.stage), escape(&b.text)));
            for r in c.debate.reviews.iter().filter(|r| r.stage == b.stage) {
                review(o, r);
            }
        }
        for r in c.debate.reviews.iter().filter(|r| !c.debate.briefs.iter().any(|b| b.stage == r.stage)) {
            review(o, r);
        }
    }
    if !c.custody.is_empty() {
        o.push_str("<h3>Chain of custody</h3><ul>");
        for e in &c.custody {
            o.push_str(&format!("<li>{}: {:?} (γ = {:.2}) — {}</li>", escape(&e.stage), e.verdict, e.confidence, escape(&e.detail)));
        }
        o.push_str("</ul>");
    }
    if !c.calls.is_empty() {
        o.push_str("<h3>Model calls</h3><table><tr><th>Role</th><th>Model</th><th>Tokens in/out</th><th>Cost</th><th>Latency</th></tr>");
        for r in &c.calls {
            o.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{} / {}</td><td>{}</td><td>{:.0} ms</td></tr>",
                escape(&r.role),
                escape(&r.model),
                r.usage.input_tokens,
                r.usage.output_tokens,
                r.cost_usd.map(|c| format!("${c:.5}")).unwrap_or_else(|| "unpriced".into()),
                r.latency_ms
            ));
        }
        o.push_str("</table>");
    }
    o.push_str("</section>\n");
}

fn review(o: &mut String, r: &crate::agents::adversarial::Review) {
    o.push_str(&format!("<p><strong>Adversary ({})</strong>{}</p><ul>", escape(&r.stage), if r.recommend_abstain { " — recommends abstaining" } else { "" }));
    for a in &r.attacks {
        o.push_str(&format!(
            "<li>[{}] <em>{}</em>: {}</li>",
            escape(&format!("{:?}", a.severity).to_lowercase()),
            escape(&format!("{:?}", a.category)),
            escape(&a.detail)
        ));
    }
    o.push_str("</ul>");
}

/// The ledger graph as a static SVG (the app draws the same layout interactively).
pub fn svg(g: &GraphLayout) -> String {
    let mut o = format!(
        "<div class=\"graph\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" viewBox=\"0 0 {:.1} {:.1}\" role=\"img\" aria-label=\"Ledger graph\">",
        g.width, g.height, g.width, g.height
    );
    for e in &g.edges {
        o.push_str(&format!("<path class=\"e e-{}\" d=\"{}\"><title>{} → {} ({})</title></path>", escape(&e.relation), e.d, escape(&e.from), escape(&e.to), escape(&e.relation)));
    }
    for n in &g.nodes {
        let v = n.verdict.as_deref().map(|v| format!(" v-{}", escape(v))).unwrap_or_default();
        o.push_str(&format!("<g class=\"node\"><title>{}</title><path class=\"n-{}{v}\" d=\"{}\"/>", escape(&n.title), escape(&n.kind), n.shape));
        for (i, line) in n.lines.iter().enumerate() {
            o.push_str(&format!("<text x=\"{:.1}\" y=\"{:.1}\">{}</text>", n.x + 12.0, n.y + 18.0 + 16.0 * i as f64, escape(line)));
        }
        o.push_str("</g>");
    }
    o.push_str("</svg></div>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::fixture;

    #[test]
    fn report_shows_answer_claims_and_the_graph_offline() {
        let run = fixture::run(3, 6);
        let html = html_report(&run);
        assert!(html.starts_with("<!DOCTYPE html>"));
        // The fixture's text has no labels: it is printed whole, as the app shows it.
        assert!(html.contains(&escape(run.answer.text.trim())), "the answer's text present");
        for c in &run.claims {
            assert!(html.contains(&format!("id=\"{}\"", c.claim_id)), "a section per claim");
        }
        assert!(html.contains("InsufficientEvidence") && html.contains("Supported"));
        assert!(html.contains("AEA winner: <strong>table</strong>"));
        assert!(html.contains("[high] <em>FyTemporal</em>: fiscal year not stated"), "debate attacks listed");
        // One graph shape per ledger node plus one per cited page.
        let g = layout(&run);
        assert_eq!(html.matches("<g class=\"node\">").count(), g.nodes.len());
        assert!(g.nodes.len() > run.ledger.nodes.len());
        // Self-contained: no script, no external stylesheet, image or font.
        assert!(!html.to_lowercase().contains("<script"));
        assert!(!html.contains("src=") || !html.contains("src=\"http"));
        assert!(!html.contains("<link"));
        assert!(!html.contains("url("));
        assert!(!html.contains("@import"));
    }

    /// The answer block of a report: from the answer heading to the model-call totals.
    fn answer_block(html: &str) -> &str {
        let start = html.find("<h2>Answer</h2>").expect("answer heading");
        let end = html[start..].find("model calls (").expect("totals") + start;
        &html[start..end]
    }

    /// The citation labels of an answer block, in the order printed.
    fn printed_labels(block: &str) -> Vec<String> {
        block.split("<cite class=\"citation\"").skip(1).map(|c| c[c.find('>').unwrap() + 1..c.find("</cite>").unwrap()].to_string()).collect()
    }

    /// The paragraph of an answer block that holds `needle`.
    fn paragraph_with<'a>(block: &'a str, needle: &str) -> &'a str {
        let p = block.split("<p class=\"answer-para").find(|p| p.contains(needle)).unwrap_or_else(|| panic!("no paragraph holds {needle}"));
        &p[..p.find("</p>").unwrap()]
    }

    /// A partial answer as the synthesizer writes it (spec §7.1): each published line ends with its
    /// citation labels, an unpublished line is the abstention sentence, and the text is a lead
    /// sentence followed by the lines.
    fn partial_answer() -> RunExport {
        let mut run = fixture::run(4, 3);
        for l in run.answer.lines.iter_mut() {
            if l.published {
                let labels: Vec<String> = l.citations.iter().map(crate::agents::synthesizer::label).collect();
                l.text = format!("{} {}", l.text, labels.join(" "));
            } else {
                // Numbers are masked in this sentence: name the claims apart in words.
                let name = if l.claim_id.ends_with('2') { "gross margin" } else { "operating margin" };
                l.text = crate::agents::synthesizer::abstention_line(name);
            }
        }
        run.answer.text = std::iter::once(LEAD.to_string()).chain(run.answer.lines.iter().map(|l| l.text.clone())).collect::<Vec<_>>().join("\n");
        assert!(run.answer.lines.iter().filter(|l| l.published).count() >= 2 && run.answer.lines.len() >= 4);
        run
    }
    const LEAD: &str = "Some figures could not be verified.";

    #[test]
    fn each_sentence_of_the_answer_is_printed_once_with_its_citations_where_they_stand() {
        let run = partial_answer();
        let html = html_report(&run);
        let block = answer_block(&html);
        assert_eq!(block.matches(&escape(LEAD)).count(), 1, "the lead once");
        for l in &run.answer.lines {
            let sentence = escape(l.statement());
            assert!(!sentence.is_empty());
            assert_eq!(block.matches(&sentence).count(), 1, "printed once: {sentence}");
            for c in &l.citations {
                let label = escape(&crate::agents::synthesizer::label(c));
                // Where it stands: in the line's own paragraph, after its statement.
                let para = paragraph_with(block, &sentence);
                assert!(para.find(&sentence) < para.find(&label), "{label} after its sentence");
            }
        }
        // Every label of the text is a citation, in the text's order, none lost and none doubled:
        // the same citations the app draws as buttons (`view::answer::paragraphs`).
        let app: Vec<String> = paragraphs(&run).into_iter().flat_map(|p| p.pieces).filter_map(|x| match x {
            Piece::Cite { label, .. } => Some(escape(&label)),
            Piece::Text(_) => None,
        }).collect();
        let in_text = run.answer.lines.iter().flat_map(|l| &l.citations).count();
        assert_eq!(app.len(), in_text);
        assert_eq!(printed_labels(block), app);
    }

    #[test]
    fn an_abstained_or_failed_line_reads_as_such_where_it_stands() {
        let mut run = partial_answer();
        let line = run.answer.lines.iter().find(|l| !l.published).unwrap().clone();
        let sentence = escape(line.statement());
        let html = html_report(&run);
        let para = paragraph_with(answer_block(&html), &sentence);
        assert!(para.starts_with(" abstained-line\"><strong class=\"line-standing\">Abstained ("), "{para}");
        assert!(para.contains(&format!("Abstained ({})", line.claim_id)));

        run.claims.iter_mut().find(|c| c.claim_id == line.claim_id).unwrap().failure = Some("HTTP 500".into());
        let html = html_report(&run);
        let para = paragraph_with(answer_block(&html), &sentence);
        assert!(para.starts_with(" failed-line\"><strong class=\"line-standing\">Failed ("), "{para}");
        // A stated paragraph carries no mark.
        assert!(!paragraph_with(answer_block(&html), &escape(LEAD)).contains("line-standing"));
    }

    #[test]
    fn markup_in_a_pdf_passage_is_shown_as_text() {
        let run = fixture::run(1, 3);
        let html = html_report(&run);
        assert!(html.contains("Net sales rose &lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"), "escaped");
        assert!(!html.contains(fixture::MARKUP));
        assert!(!html.contains("<img"));
    }

    #[test]
    fn the_report_never_contains_the_api_key() {
        // The export has no key field at all; a key-looking string in the question is just text.
        let mut run = fixture::run(1, 2);
        run.question = "What were net sales?".into();
        let html = html_report(&run);
        assert!(!html.contains("sk-"));
        assert!(!html.to_lowercase().contains("api_key"));
    }

    #[test]
    fn crops_of_cited_regions_and_continued_table_parts_are_embedded_under_the_paragraph_citing_them() {
        let mut run = fixture::run(2, 3);
        let line = run.answer.lines.iter().position(|l| l.citations.iter().any(|c| !c.bboxes.is_empty())).expect("a boxed citation");
        let c = &mut run.answer.lines[line].citations[0];
        let part = crate::corpus::TablePart { page: c.page + 1, bbox: [72.0, 60.0, 520.0, 200.0] };
        c.table_parts = vec![crate::corpus::TablePart { page: c.page, bbox: c.bboxes[0] }, part];
        // A prose citation carries one box per block: the crop holds them all.
        c.bboxes = vec![[80.0, 300.0, 400.0, 320.0], [72.0, 330.0, 300.0, 360.0], [0.0, 0.0, 0.0, 0.0]];
        let (source, page, bbox) = (c.source.clone(), c.page, [72.0, 300.0, 400.0, 360.0]);
        // The answer's text carries the line's citation label, where the report shows the crop.
        let label = crate::agents::synthesizer::label(c);
        run.answer.text = format!("Net sales were reported {label}.\nAnother paragraph.");

        let wanted = crop_requests(&run);
        assert_eq!(wanted[0], (source.clone(), page, bbox), "the first citation's region first");
        assert!(wanted.contains(&(source.clone(), page + 1, part.bbox)), "the table's other part too");
        assert_eq!(wanted.iter().filter(|w| w.1 == page && w.2 == bbox).count(), 1, "each region once");
        assert!(wanted.len() <= MAX_CROPS);

        let png = b"\x89PNG\r\n\x1a\nfake-but-opaque".to_vec();
        let crops = vec![
            Crop { source: source.clone(), page, bbox, png: png.clone() },
            Crop { source: source.clone(), page: page + 1, bbox: part.bbox, png: png.clone() },
        ];
        let html = html_report_with_crops(&run, &crops);
        let data = format!("data:image/png;base64,{}", base64(&png));
        assert_eq!(html.matches(&data).count(), 2, "both crops embedded");
        assert!(html.contains(&format!("alt=\"{}, p.{} — cited region\"", escape(&source), page)));
        assert!(html.contains(&format!("{}, p.{} — the cited table continues here", escape(&source), page + 1)));
        // Under the paragraph that cites them, before the next one.
        let after = &html[html.find("Net sales were reported").unwrap()..html.find("Another paragraph").unwrap()];
        assert_eq!(after.matches(&data).count(), 2);
        // Still self-contained: the only image sources are data: URLs.
        assert!(html.matches("src=\"").count() == html.matches("src=\"data:image/png;base64,").count());
        assert!(!html.to_lowercase().contains("<script"));
        // Without crops the report has no images at all.
        assert!(!html_report(&run).contains("<img"));
    }
}
