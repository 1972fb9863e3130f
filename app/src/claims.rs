//! The claim panel: everything the run recorded about one claim, in the paper's order — type and
//! verdict, coverage and escalation (§3.5), the Authority Docket (§3.8), the HRI and its four terms,
//! the evidence with scores and modality (§3.4), the debate transcript (§3.6), custody (§3.7) and
//! the model calls with tokens and cost. All of it comes from the `RunExport`; nothing is
//! recomputed here, so an imported run shows exactly what was recorded.

use crate::viewer::{Target, Viewer};
use clair_core::export::{ClaimReport, RunExport};
use leptos::prelude::*;

fn pct(bp: u32) -> String {
    format!("{:.2}", bp as f64 / 10_000.0)
}

fn modality(m: Option<clair_core::config::Modality>) -> &'static str {
    m.map(|m| m.as_str()).unwrap_or("none")
}

/// Open the page an evidence node (or citation) points at, with its boxes.
pub fn open_node(viewer: Viewer, node: &clair_core::ledger::Node) {
    use clair_core::ledger::NodeKind;
    let Some((source, page)) = node.source_page() else { return };
    let l = node.locator().cloned().unwrap_or_default();
    let highlight = match &node.kind {
        NodeKind::TextSpan { text, .. } => Some(text.clone()),
        NodeKind::TableCell { value, .. } => Some(value.clone()),
        NodeKind::ChartRegion { description, .. } => Some(description.clone()),
        _ => None,
    };
    viewer.open_cited(Target { source: source.to_string(), page, boxes: l.bboxes, page_size: l.page_size, highlight, parts: l.table_parts });
}

#[component]
pub fn ClaimPanel(run: RwSignal<Option<RunExport>>, selected: RwSignal<Option<String>>, viewer: Viewer) -> impl IntoView {
    let claim = Memo::new(move |_| {
        let id = selected.get()?;
        run.with(|r| r.as_ref()?.claims.iter().find(|c| c.claim_id == id).cloned())
    });
    view! {
        <section id="claim-details" class="panel claim-panel" aria-label="Claim details" tabindex="-1">
            <h2>"Claim details"</h2>
            {move || match claim.get() {
                None => view! { <p class="hint">"Choose a claim in the answer or the ledger graph to see how it was checked."</p> }.into_any(),
                Some(c) => details(c, viewer).into_any(),
            }}
        </section>
    }
}

fn details(c: ClaimReport, viewer: Viewer) -> impl IntoView {
    let verdict_cls = format!("verdict v-{}", c.label.as_str());
    let docket = c.docket.clone().map(|d| {
        let confs: Vec<String> = d.modality_confidences.iter().map(|(m, v)| format!("{} {v:.2}", m.as_str())).collect();
        view! {
            <h3>"Authority docket (AEA)"</h3>
            <dl class="facts">
                <dt>"AEA winner"</dt><dd class="aea-winner">{format!("{} (s = {:.2})", modality(d.asymmetric_winner), d.s)}</dd>
                <dt>"Equal-weight winner"</dt><dd class="uniform-winner">{modality(d.uniform_winner)}</dd>
                <dt>"Effect of the prior"</dt><dd>{if d.asymmetry_changed_outcome { "changed the outcome" } else { "same outcome either way" }}</dd>
                <dt>"Confidences"</dt><dd>{confs.join(", ")}</dd>
            </dl>
        }
    });
    let hri = match c.hri.clone() {
        Some(h) => view! {
            <h3>"Hallucination Risk Index"</h3>
            <p class="hri"><strong class="hri-value">{format!("HRI {:.3}", h.value)}</strong></p>
            <table class="hri-terms">
                <tr><th scope="row">"Entailment w₁(1 − γ)"</th><td>{format!("{:.3}", h.entailment_term)}</td><td class="muted">{format!("γ = {:.2}", h.gamma)}</td></tr>
                <tr><th scope="row">"Authority w₂(1 − s)"</th><td>{format!("{:.3}", h.authority_term)}</td><td class="muted">{format!("s = {:.2}", h.s)}</td></tr>
                <tr><th scope="row">"Repair w₃·ρ"</th><td>{format!("{:.3}", h.repair_term)}</td><td class="muted">{format!("{} repair(s)", h.repairs)}</td></tr>
                <tr><th scope="row">"Attacks w₄·n"</th><td>{format!("{:.3}", h.attack_term)}</td><td class="muted">{format!("{} high", h.n_high)}</td></tr>
            </table>
        }.into_any(),
        None => view! { <p class="muted">"No HRI: only published, audited claims get one."</p> }.into_any(),
    };
    // Keyed by ledger node: a claim's evidence list is drawn once per claim.
    let evidence_items = c.evidence.clone();
    let evidence_row = move |e: clair_core::export::EvidenceRef| {
        let node = e.node.clone();
        let citable = node.source_page().is_some();
        let label = node.describe();
        let mut meta = format!("{} · score {:.3}", modality(e.modality), e.score);
        // Where in the report: the section and the printed page (issue 3 deliverable 1).
        if let Some(place) = node.place() {
            meta.push_str(&format!(" · {place}"));
        }
        // A table cell's footnotes, as printed under its table (issue 3 deliverable 4).
        let notes = match &node.kind {
            clair_core::ledger::NodeKind::TableCell { notes, .. } => notes.clone(),
            _ => vec![],
        };
        let notes = notes.into_iter().map(|n| view! { <span class="evidence-note">{n}</span> }).collect_view();
        view! {
            <li class="evidence-item">
                <button class="evidence" disabled=!citable title=if citable { "Open the page" } else { "No page to open" }
                    on:click=move |_| open_node(viewer, &node)>
                    <span class="evidence-meta">{meta}</span>
                    <span class="evidence-text">{label}</span>
                    {notes}
                </button>
            </li>
        }
    };
    let debate = &c.debate;
    let transcript = debate.briefs.iter().map(|b| {
        let reviews = debate.reviews.iter().filter(|r| r.stage == b.stage).cloned().map(review).collect_view();
        let who = if b.stage.starts_with("rebuttal") { "Rebuttal" } else { "Affirmative brief" };
        view! {
            <li class="turn brief">
                <p class="speaker">{format!("{who} ({})", b.stage)}</p>
                <p class="speech">{b.text.clone()}</p>
                {b.failure.clone().map(|f| view! { <p class="note">{format!("call failed: {f}")}</p> })}
            </li>
            {reviews}
        }
    }).collect_view();
    let orphan_reviews = debate.reviews.iter().filter(|r| !debate.briefs.iter().any(|b| b.stage == r.stage)).cloned().map(review).collect_view();
    let custody = c.custody.iter().map(|e| view! {
        <li>{format!("{}: {:?} (γ = {:.2}) — {}", e.stage, e.verdict, e.confidence, e.detail)}</li>
    }).collect_view();
    let calls = c.calls.iter().map(|r| view! {
        <tr>
            <td>{r.role.clone()}</td>
            <td>{r.model.clone()}</td>
            <td>{format!("{} / {}", r.usage.input_tokens, r.usage.output_tokens)}</td>
            <td>{r.cost_usd.map(|c| format!("${c:.5}")).unwrap_or_else(|| "unpriced".into())}</td>
            <td>{format!("{:.0} ms{}", r.latency_ms, if r.attempts > 1 { format!(" · {} tries", r.attempts) } else { String::new() })}</td>
            <td>{r.failure.clone().unwrap_or_default()}</td>
        </tr>
    }).collect_view();
    let totals = clair_core::export::Totals::of(&c.calls);
    let entail = c.terminal_entailment.clone().map(|e| view! {
        <p>{format!("Terminal audit: {:?}, γ = {:.2} — {}", e.label, e.confidence, e.rationale)}</p>
    });
    view! {
        <h3 class="claim-title">{format!("{}: {}", c.claim_id, c.text)}</h3>
        <dl class="facts">
            <dt>"Type"</dt><dd class="claim-type">{c.claim_type.as_str()}{if c.fallback { " (fallback plan)" } else { "" }}</dd>
            <dt>"Verdict"</dt><dd><span class=verdict_cls>{c.label.as_str()}</span>
                {format!(" · {} · {}", if c.published { "published" } else { "not published" }, if c.audit_passed { "audit passed" } else { "audit not passed" })}</dd>
            <dt>"Why"</dt><dd>{c.reason.clone()}</dd>
            // Decided by a model failure, not by the evidence (issue 38 item 5).
            {c.failure.clone().map(|f| view! { <dt>"Model failure"</dt><dd class="claim-failure">{format!("not decided by the evidence: {f}")}</dd> })}
            <dt>"Coverage A(c)"</dt><dd class="coverage">{pct(c.coverage_bp)}</dd>
            <dt>"Escalation"</dt><dd>{format!("{} — {}", if c.escalated { "escalated to debate" } else { "fast path" }, c.escalation_reason)}</dd>
            <dt>"Winning modality"</dt><dd>{format!("{} (s = {:.2})", modality(c.winning_modality), c.s)}</dd>
        </dl>
        {docket}
        {hri}
        {entail}
        <h3>{format!("Evidence ({})", c.evidence.len())}</h3>
        <ul class="evidence-list">
            <For each=move || evidence_items.clone() key=|e| e.node.node_id.clone() children=evidence_row />
        </ul>
        <h3>"Debate"</h3>
        <p class="muted">{format!("{} rebuttal round(s), {} custody repair(s)", debate.rebuttal_rounds, debate.repairs)}</p>
        <ol class="transcript">{transcript}{orphan_reviews}</ol>
        <h3>"Chain of custody"</h3>
        <ul class="custody">{custody}</ul>
        <h3>"Model calls"</h3>
        <p class="muted">{format!("{} call(s), {} input + {} output tokens, ${:.5}", totals.calls, totals.input_tokens, totals.output_tokens, totals.cost_usd)}</p>
        <div class="table-scroll" tabindex="0" aria-label="Model calls">
            <table class="calls">
                <thead><tr><th>"Role"</th><th>"Model"</th><th>"Tokens in / out"</th><th>"Cost"</th><th>"Latency"</th><th>"Failure"</th></tr></thead>
                <tbody>{calls}</tbody>
            </table>
        </div>
    }
}

fn review(r: clair_core::agents::adversarial::Review) -> impl IntoView {
    let attacks = r.attacks.iter().map(|a| {
        let sev = format!("{:?}", a.severity).to_lowercase();
        view! {
            <li class=format!("attack sev-{sev}")>
                <span class="severity">{sev.clone()}</span>" "
                <span class="category">{format!("{:?}", a.category)}</span>": "
                {a.detail.clone()}
            </li>
        }
    }).collect_view();
    view! {
        <li class="turn review">
            <p class="speaker">{format!("Adversary ({}){}", r.stage, if r.recommend_abstain { " — recommends abstaining" } else { "" })}</p>
            {if r.attacks.is_empty() { Some(view! { <p class="speech">"No attacks."</p> }) } else { None }}
            <ul class="attacks">{attacks}</ul>
            {r.failure.clone().map(|f| view! { <p class="note">{format!("call failed: {f}")}</p> })}
        </li>
    }
}
