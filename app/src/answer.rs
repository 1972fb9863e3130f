//! The answer, once: the synthesized text with each citation a button where it stands
//! (`clair_core::view::answer`), hovering shows the cited section and printed page; a claim's
//! abstention line is marked abstained (or failed) in place. Under it the claims, each opening its
//! details.

use crate::state::{use_app, AppState, Pane};
use crate::viewer::Target;
use clair_core::export::{Citation, RunExport, RunOutcome};
use clair_core::view::answer::{hover, paragraphs, Piece};
use leptos::prelude::*;

/// Open a citation in the viewer, zoomed onto its boxes.
pub fn open_citation(app: AppState, c: Citation, highlight: Option<String>) {
    app.pane.set(Pane::Page);
    app.viewer.open_cited(Target { source: c.source, page: c.page, boxes: c.bboxes, page_size: c.page_size, highlight, parts: c.table_parts });
}

/// The text of a cited ledger node as it should appear on the page (a passage, or a cell's value).
fn cited_text(run: &RunExport, node_id: &str) -> Option<String> {
    use clair_core::ledger::graph::NodeKind;
    let node = run.ledger.nodes.iter().find(|n| n.node_id == node_id)?;
    match &node.kind {
        NodeKind::TextSpan { text, .. } => Some(text.clone()),
        NodeKind::TableCell { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// Select a claim and bring its details into view.
pub fn select_claim(app: AppState, claim_id: String) {
    app.selected.set(Some(claim_id));
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("claim-details")) {
        el.scroll_into_view();
    }
}

#[component]
pub fn AnswerView() -> impl IntoView {
    let app = use_app();
    move || app.run.get().map(|r| answer(app, r))
}

fn answer(app: AppState, r: RunExport) -> impl IntoView {
    // A failed run (model calls failed) is not an abstention: its own banner and class.
    let (outcome, badge) = r.banner();
    let cls = match outcome {
        RunOutcome::Answered => "answer",
        RunOutcome::Partial => "answer partial",
        RunOutcome::Abstained => "answer abstained",
        RunOutcome::Failed => "answer failed",
    };
    let t = &r.totals;
    let cost = format!("{} model calls · {} tokens · ${:.4}{}", t.calls, t.input_tokens + t.output_tokens, t.cost_usd,
        if t.unpriced_models.is_empty() { "" } else { " + unpriced" });
    let paras = paragraphs(&r).into_iter().map(|p| {
        let (cls, tag) = (p.class(), p.tag());
        let pieces = p.pieces.into_iter().map(|piece| match piece {
            Piece::Text(t) => view! { <span>{t}</span> }.into_any(),
            Piece::Cite { label, citation, place } => {
                let h = cited_text(&r, &citation.node_id);
                let title = hover(&citation, place.as_deref());
                view! {
                    // The visible label is the accessible name (WCAG 2.5.3); the title adds the place.
                    <button class="citation" type="button" title=title
                        on:click=move |_| open_citation(app, citation.clone(), h.clone())>{label}</button>
                }
                .into_any()
            }
        }).collect_view();
        view! { <p class=cls>{tag.map(|t| view! { <strong class="line-standing">{t}</strong> })}{pieces}</p> }
    }).collect_view();
    let claims = r.claims.clone();
    let n = claims.len();
    let selected = app.selected;
    view! {
        <section id="answer" class=cls aria-label="Answer">
            <p class="badge">{badge}</p>
            <div class="answer-text">{paras}</div>
            <h3 class="claims-heading">{format!("Claims ({n})")}</h3>
            <ol class="claims">
                <For each=move || claims.clone() key=|c| c.claim_id.clone() children=move |c| {
                    let id = c.claim_id.clone();
                    let id2 = id.clone();
                    let label = c.label.as_str();
                    let hri = c.hri.as_ref().map(|h| format!(" · HRI {:.3}", h.value)).unwrap_or_default();
                    view! {
                        <li>
                            <button class="claim-link" data-claim=id.clone() aria-pressed=move || (selected.get().as_deref() == Some(id.as_str())).to_string()
                                on:click=move |_| select_claim(app, id2.clone())>
                                <span class=format!("verdict v-{label}")>{label}</span>
                                <span class="claim-meta">{format!("{} · {}{hri}", c.claim_id, c.claim_type.as_str())}</span>
                                <span class="claim-text">{c.text.clone()}</span>
                            </button>
                        </li>
                    }
                } />
            </ol>
            <p class="muted totals">{cost}</p>
        </section>
    }
}
