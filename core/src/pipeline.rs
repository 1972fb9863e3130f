//! The CLAIR-Fin pipeline, top to bottom like Figure 2 of the paper (§3.3–3.9; spec §0.2):
//!
//! ```text
//! question ─► Planner (claims) ─► for each claim, up to `claim_concurrency` at a time:
//!                                   Narrative ║ Tabular ║ Visual evidence
//!                                   ─► Ledger Guardian (A(c), escalate?)
//!                                   ─► [Affirmative ─► Custody ─► Adversarial ─► rebuttal ≤ ρmax]
//!                                   ─► Judge-Auditor (AEA, docket, draft, entailment, HRI)
//!          ─► Brief Synthesizer ─► answer | partial | abstain
//! ```
//!
//! Claims are independent by design (paper §3.3), so they run concurrently as futures on one thread
//! (`buffered`, no spawning: this runs in a browser). Each claim writes its own ledger fragment with
//! claim-scoped ids; fragments are merged in claim order, so the same model responses give the same
//! ledger whatever the interleaving. Every failure of a model call resolves to the role's
//! conservative default and is written to the ledger; the run itself errs only when nothing could be
//! judged (a rejected key, a wrong URL, a search failure) or the user cancelled.
//!
//! Failed is not abstained (issue 38 item 5): a claim left unpublished after one of its model calls
//! failed was decided by that failure, not by the evidence, and says so (`ClaimReport::failure`);
//! a run with no published claim and at least one such claim is `Failed`, its answer naming what
//! failed once. The call cap is shared out per claim in claim order before the claims run, so which
//! claims get calls under a tight cap does not depend on timing (`LlmClient::reserve_for_claims`).

use crate::agents::adversarial::{self, Review};
use crate::agents::affirmative::{self, BriefInput};
use crate::agents::custody;
use crate::agents::guardian::{self, GuardOutcome, IdGen};
use crate::agents::judge::{self, DebateState, Verdict, VerdictLabel};
use crate::agents::synthesizer::{self, Rephrase};
use crate::agents::{evidence_block, narrative, planner, tabular, visual, AgentEvidence, ClaimTask, Ctx, EvidenceItem};
use crate::config::{ClaimType, Modality, Settings};
use crate::export::{self, Answer, AnswerLine, BriefRecord, ClaimReport, DebateTranscript, EvidenceRef, RunExport, RunFailure, RunMode, RunOutcome, Totals};
use crate::ledger::docket::summarize;
use crate::ledger::{CustodyEvent, CustodyVerdict, Ledger};
use crate::llm::roles::{Attack, JudgeDraftOut, Role};
use crate::llm::{CallRecord, LlmClient, Transport};
use crate::prompts;
use crate::retrieve::Search;
use futures::stream::{self, StreamExt};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

#[cfg(test)]
mod tests;

/// What the UI shows live. Every event carries the running call/token/cost totals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ProgressEvent {
    Started { run_id: String, question: String, totals: Totals },
    /// The planner is done (paper §3.3).
    Planned { claims: Vec<ClaimTask>, notes: Vec<String>, totals: Totals },
    /// A claim entered a phase.
    Claim { claim_id: String, phase: ClaimPhase, totals: Totals },
    Synthesizing { totals: Totals },
    /// `failed`: model calls failed and decided the run (no abstention, issue 38 item 5).
    Finished {
        abstained: bool,
        partial: bool,
        #[serde(default)]
        failed: bool,
        totals: Totals,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum ClaimPhase {
    /// The three evidence agents are retrieving and reading (§3.4).
    Evidence,
    /// The guardian wrote the evidence and decided escalation (§3.5).
    Guardian { evidence: usize, coverage_bp: u32, escalated: bool },
    /// The affirmative is drafting (`round` = rebuttal rounds so far, §3.6).
    Affirmative { stage: String, round: u32 },
    /// A custody check finished (§3.7).
    Custody { stage: String, verdict: CustodyVerdict },
    /// The adversary reviewed a brief (§3.6).
    Adversarial { stage: String, round: u32, high_findings: u32, recommend_abstain: bool },
    /// The judge is auditing (§3.8).
    Audit,
    /// The claim's verdict.
    Judged { label: VerdictLabel, published: bool, reason: String },
}

/// Progress sink shared by concurrently running claims (single-threaded: a short borrow per event).
struct Progress<'p, 'c, 'x, T: Transport> {
    sink: RefCell<&'p mut dyn FnMut(ProgressEvent)>,
    client: &'x LlmClient<'c, T>,
}

impl<T: Transport> Progress<'_, '_, '_, T> {
    fn totals(&self) -> Totals {
        Totals::of(&self.client.records())
    }
    fn emit(&self, e: ProgressEvent) {
        (self.sink.borrow_mut())(e);
    }
    fn claim(&self, claim_id: &str, phase: ClaimPhase) {
        self.emit(ProgressEvent::Claim { claim_id: claim_id.to_string(), phase, totals: self.totals() });
    }
}

/// What one claim produced (phases III–VII).
struct ClaimRun {
    task: ClaimTask,
    ledger: Ledger,
    guard: GuardOutcome,
    debate: DebateTranscript,
    verdict: Verdict,
    /// Set when the claim went unpublished after one of its model calls failed.
    failure: Option<String>,
}

/// Answer a question. See the module doc for what is an error and what is a conservative outcome.
pub async fn run<T: Transport, S: Search>(
    question: &str,
    settings: &Settings,
    client: &LlmClient<'_, T>,
    search: &S,
    on_progress: &mut dyn FnMut(ProgressEvent),
) -> Result<RunExport, String> {
    settings.validate()?;
    let question = question.trim();
    if question.is_empty() {
        return Err("the question is empty".into());
    }
    let run_id = export::run_id(question, settings);
    let progress = Progress { sink: RefCell::new(on_progress), client };
    let ctx = Ctx { question, settings, client, search };
    progress.emit(ProgressEvent::Started { run_id: run_id.clone(), question: question.to_string(), totals: progress.totals() });
    if settings.ablations.single_pass() {
        return vanilla_rag(&ctx, run_id, &progress).await;
    }

    // Phase II (§3.3): claim decomposition.
    let plan = planner::plan(&ctx).await?;
    stop_if_unusable(client)?;
    let mut ledger = Ledger::new();
    for n in &plan.notes {
        ledger.note(None, "planner", n.clone());
    }
    progress.emit(ProgressEvent::Planned { claims: plan.claims.clone(), notes: plan.notes.clone(), totals: progress.totals() });
    let ids: Vec<String> = plan.claims.iter().map(|c| c.claim_id.clone()).collect();
    client.reserve_for_claims(&ids, settings.worst_calls_per_claim());

    // Phases III–VII (§3.4–3.8), per claim, concurrently, claim order preserved.
    let runs: Vec<Result<ClaimRun, String>> = stream::iter(plan.claims.iter().map(|c| verify_claim(&ctx, c, &progress)))
        .buffered(settings.pipeline.claim_concurrency.max(1))
        .collect()
        .await;
    let mut runs = runs.into_iter().collect::<Result<Vec<_>, _>>()?;
    mark_failures(&mut runs, &client.records());
    if client.transport().cancelled() {
        return Err("cancelled by the user".into());
    }
    if let Some(f) = client.fatal_error() {
        if !runs.iter().any(|r| r.verdict.published) {
            return Err(f);
        }
    }

    // Phase VIII (§3.9): synthesis.
    progress.emit(ProgressEvent::Synthesizing { totals: progress.totals() });
    let (answer, rephrase) = synthesize(&ctx, &mut ledger, &runs).await;
    let export = build_export(&ctx, run_id, RunMode::ClairFin, ledger, runs, answer, rephrase);
    progress.emit(ProgressEvent::Finished {
        abstained: export.answer.abstained,
        partial: export.answer.partial,
        failed: export.outcome == RunOutcome::Failed,
        totals: export.totals.clone(),
    });
    Ok(export)
}

/// A claim left unpublished after one of its model calls failed was decided by that failure, not
/// by the evidence (issue 38 item 5): the documents were not fully heard on it.
fn mark_failures(runs: &mut [ClaimRun], records: &[CallRecord]) {
    for r in runs.iter_mut().filter(|r| !r.verdict.published) {
        let mine: Vec<CallRecord> = records.iter().filter(|c| c.claim_id.as_deref() == Some(r.task.claim_id.as_str())).cloned().collect();
        r.failure = export::describe_failures(&mine);
    }
}

/// The line of a claim a model failure decided: no figure (like an abstention line) and no claim
/// about the documents. The failure itself is named once, in the answer's text.
pub fn failed_line(claim_text: &str) -> String {
    format!("On \"{}\": not checked, because a model call for this point failed.", synthesizer::mask_numbers(claim_text.trim()))
}

fn stop_if_unusable<T: Transport>(client: &LlmClient<'_, T>) -> Result<(), String> {
    if client.transport().cancelled() {
        return Err("cancelled by the user".into());
    }
    match client.fatal_error() {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// Phases III–VII for one claim.
async fn verify_claim<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, task: &ClaimTask, progress: &Progress<'_, '_, '_, T>) -> Result<ClaimRun, String> {
    let cid = task.claim_id.as_str();
    let mut ledger = Ledger::new();
    ledger.add_node(guardian::claim_node(task, ctx.question));

    // Phase III (§3.4): three evidence agents in parallel.
    progress.claim(cid, ClaimPhase::Evidence);
    let hyde = ctx.hyde_passage(Some(cid), &task.text).await;
    let (text, table, chart) =
        futures::join!(narrative::run(ctx, task, hyde.as_deref()), tabular::run(ctx, task, hyde.as_deref()), visual::run(ctx, task, hyde.as_deref()));
    let (text, table, chart) = (text?, table?, chart?);
    if ctx.client.transport().cancelled() {
        return Err("cancelled by the user".into());
    }
    for (agent, ev) in [("narrative_evidence", &text), ("tabular_evidence", &table), ("visual_evidence", &chart)] {
        if let Some(f) = &ev.failure {
            ledger.note(Some(cid), agent, format!("call failed, no evidence used from it: {f}"));
        }
        for d in &ev.dropped {
            ledger.note(Some(cid), agent, d.clone());
        }
    }

    // Phase IV (§3.5): fusion, coverage, escalation.
    let mut ids = IdGen::for_claim(cid);
    let guard = guardian::run(&mut ledger, &mut ids, task, &text, &table, &chart, ctx.settings);
    let support = ledger.support(cid);
    progress.claim(cid, ClaimPhase::Guardian { evidence: support.len(), coverage_bp: guard.coverage_bp, escalated: guard.escalate });
    let lines: Vec<String> = support.iter().filter_map(|(id, _)| ledger.node(id).map(|n| n.describe())).collect();
    let evidence = evidence_block(&lines);

    // Phases V–VI (§3.6–3.7): debate with custody checks, only for escalated claims.
    let (debate, state) = if guard.escalate { debate(ctx, &mut ledger, task, &evidence, progress).await } else { Default::default() };

    // Phase VII (§3.8): terminal audit.
    progress.claim(cid, ClaimPhase::Audit);
    let verdict = judge::audit(ctx, &mut ledger, task, &state).await;
    progress.claim(cid, ClaimPhase::Judged { label: verdict.label, published: verdict.published, reason: verdict.reason.clone() });
    Ok(ClaimRun { task: task.clone(), ledger, guard, debate, verdict, failure: None })
}

/// The Adaptive Rebuttal Cycle with Chain-of-Custody checks (paper §3.6–3.7; spec §0.2 routing):
/// affirmative → custody (one repair per claim, across all rounds) → adversarial → rebuttal while a
/// `high` finding stands and ρ < ρmax; an abstain recommendation ends the debate (a veto at the
/// judge). Ablations: w/o CoCV skips custody, w/o ARC ends after the first (custody-checked) draft
/// with no adversarial call, fixed rounds always runs ρmax rebuttals.
async fn debate<T: Transport, S: Search>(
    ctx: &Ctx<'_, '_, T, S>,
    ledger: &mut Ledger,
    task: &ClaimTask,
    evidence: &str,
    progress: &Progress<'_, '_, '_, T>,
) -> (DebateTranscript, DebateState) {
    let cid = task.claim_id.as_str();
    let p = &ctx.settings.pipeline;
    let ab = &ctx.settings.ablations;
    let mut tr = DebateTranscript::default();
    let mut st = DebateState::default();
    let mut repair_note: Option<String> = None;
    let mut objections: Option<Vec<Attack>> = None;
    loop {
        let (input, stage) = match (&repair_note, &objections) {
            (Some(n), _) => (BriefInput::Repair(n), "repair".to_string()),
            (None, Some(a)) => {
                tr.rebuttal_rounds += 1;
                (BriefInput::Rebuttal(a), format!("rebuttal {}", tr.rebuttal_rounds))
            }
            (None, None) => (BriefInput::Initial, "initial".to_string()),
        };
        progress.claim(cid, ClaimPhase::Affirmative { stage: stage.clone(), round: tr.rebuttal_rounds });
        let (brief, failure) = affirmative::brief(ctx, cid, &task.text, evidence, input).await;
        if let Some(f) = &failure {
            ledger.note(Some(cid), "affirmative", format!("{stage}: call failed, empty brief: {f}"));
        }
        tr.briefs.push(BriefRecord { stage: stage.clone(), text: brief.clone(), failure });
        repair_note = None;

        if !ab.no_cocv {
            let e = custody::check(ctx, cid, evidence, &brief).await;
            let detail = e.failure.clone().map(|f| format!("entailment call failed: {f}")).unwrap_or_else(|| e.rationale.clone());
            let verdict = if e.passes(p.custody_threshold) {
                CustodyVerdict::Valid
            } else if tr.repairs < p.max_repair_attempts {
                tr.repairs += 1;
                repair_note = Some(custody::repair_note(&e));
                CustodyVerdict::Repaired
            } else {
                CustodyVerdict::Broken
            };
            ledger.custody_log.push(CustodyEvent { claim_id: cid.to_string(), stage: stage.clone(), verdict, confidence: e.confidence, detail });
            progress.claim(cid, ClaimPhase::Custody { stage: stage.clone(), verdict });
            match verdict {
                CustodyVerdict::Valid => {}
                CustodyVerdict::Repaired => continue,
                CustodyVerdict::Broken => {
                    st.custody_broken = true;
                    break;
                }
            }
        }

        // w/o ARC (App. A.1): the escalated claim goes to audit after this one (custody-checked)
        // draft — no adversarial call, no rebuttal, no veto.
        if ab.no_arc {
            break;
        }
        let review: Review = adversarial::review(ctx, cid, &task.text, evidence, &brief, &stage).await;
        if let Some(f) = &review.failure {
            ledger.note(Some(cid), "adversarial", format!("{stage}: call failed, abstaining (fail closed): {f}"));
        }
        st.n_high = review.n_high();
        st.recommend_abstain = review.recommend_abstain;
        progress.claim(
            cid,
            ClaimPhase::Adversarial { stage, round: tr.rebuttal_rounds, high_findings: st.n_high, recommend_abstain: st.recommend_abstain },
        );
        let attacks = review.attacks.clone();
        tr.reviews.push(review);
        if st.recommend_abstain {
            break;
        }
        let again = if ab.fixed_rounds {
            tr.rebuttal_rounds < p.max_debate_rounds
        } else {
            st.n_high > 0 && tr.rebuttal_rounds < p.max_debate_rounds
        };
        if !again {
            break;
        }
        objections = Some(attacks);
    }
    st.repairs = tr.repairs;
    (tr, st)
}

/// Phase VIII: lines, checked rephrase, abstention.
async fn synthesize<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, ledger: &mut Ledger, runs: &[ClaimRun]) -> (Answer, Rephrase) {
    // Merge the claim fragments in claim order: deterministic ids and order.
    for r in runs {
        ledger.merge(r.ledger.clone());
    }
    let pairs: Vec<(ClaimTask, Verdict)> = runs.iter().map(|r| (r.task.clone(), r.verdict.clone())).collect();
    let mut lines = synthesizer::lines(ledger, &pairs);
    let failed: Vec<bool> = runs.iter().map(|r| r.failure.is_some()).collect();
    if !failed.contains(&true) {
        let (answer, rephrase) = synthesizer::compose(ctx, lines).await;
        if let Rephrase::Rejected { reason } = &rephrase {
            ledger.note(None, "synthesizer", format!("rephrase rejected, raw audited lines used: {reason}"));
        }
        return (answer, rephrase);
    }
    for (l, r) in lines.iter_mut().zip(runs) {
        if r.failure.is_some() {
            l.text = failed_line(&r.task.text);
        }
    }
    let message = export::describe_failures(&ctx.client.records()).unwrap_or_else(|| "a model call failed".into());
    let failed_text: Vec<String> = lines.iter().zip(&failed).filter(|(_, f)| **f).map(|(l, _)| l.text.clone()).collect();
    if !lines.iter().any(|l| l.published) {
        // A failed run: no abstention sentence, the failure named once, then each claim's line.
        let body: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
        let text = format!("No answer: {message}.\n{}", body.join("\n"));
        let answer = Answer { text, abstained: false, partial: false, lines };
        return (answer, Rephrase::Skipped { reason: "the run failed: no claim was checked to the end".into() });
    }
    // Partial: the checked claims are composed as usual; the failed ones follow, then the failure.
    let heard: Vec<AnswerLine> = lines.iter().zip(&failed).filter(|(_, f)| !**f).map(|(l, _)| l.clone()).collect();
    let (composed, rephrase) = synthesizer::compose(ctx, heard).await;
    if let Rephrase::Rejected { reason } = &rephrase {
        ledger.note(None, "synthesizer", format!("rephrase rejected, raw audited lines used: {reason}"));
    }
    let text = format!("{}\n{}\nNot checked because {message}.", composed.text, failed_text.join("\n"));
    (Answer { text, abstained: false, partial: true, lines }, rephrase)
}

/// Order call records deterministically: planner (and its HyDE call) first, then each claim's
/// calls in claim order (evidence agents in a fixed order, the rest as made), then the rest.
fn ordered_calls(records: Vec<CallRecord>, claims: &[ClaimTask]) -> Vec<CallRecord> {
    let n = claims.len();
    let key = |r: &CallRecord| -> (usize, u8) {
        let group = match &r.claim_id {
            Some(id) => claims.iter().position(|c| &c.claim_id == id).map(|i| i + 1).unwrap_or(n + 1),
            None if r.role == Role::Synthesizer.name() => n + 1,
            None => 0,
        };
        let sub = match Role::from_name(&r.role) {
            Some(Role::Hyde) => 0,
            Some(Role::NarrativeEvidence) => 1,
            Some(Role::TabularEvidence) => 2,
            Some(Role::VisualEvidence) => 3,
            _ => 4,
        };
        (group, sub)
    };
    let mut v = records;
    v.sort_by_key(|r| key(r));
    v
}

fn build_export<T: Transport, S: Search>(
    ctx: &Ctx<'_, '_, T, S>,
    run_id: String,
    mode: RunMode,
    ledger: Ledger,
    runs: Vec<ClaimRun>,
    answer: Answer,
    rephrase: Rephrase,
) -> RunExport {
    let tasks: Vec<ClaimTask> = runs.iter().map(|r| r.task.clone()).collect();
    let calls = ordered_calls(ctx.client.records(), &tasks);
    let claims = runs
        .into_iter()
        .map(|r| {
            let cid = r.task.claim_id.clone();
            let evidence = r
                .ledger
                .support(&cid)
                .into_iter()
                .filter_map(|(id, score)| ledger.node(&id).map(|n| EvidenceRef { modality: n.modality(), node: n.clone(), score }))
                .collect();
            let citations = answer.lines.iter().find(|l| l.claim_id == cid).map(|l| l.citations.clone()).unwrap_or_default();
            ClaimReport {
                claim_id: cid.clone(),
                text: r.task.text.clone(),
                claim_type: r.task.claim_type,
                fallback: r.task.fallback,
                label: r.verdict.label,
                published: r.verdict.published,
                audit_passed: r.verdict.audit_passed,
                reason: r.verdict.reason.clone(),
                winning_modality: r.verdict.winning_modality,
                s: r.verdict.s,
                coverage_bp: r.guard.coverage_bp,
                escalated: r.guard.escalate,
                escalation_reason: r.guard.reason.clone(),
                hri: r.verdict.hri.clone(),
                answer_fragment: r.verdict.answer_fragment.clone(),
                evidence,
                debate: r.debate,
                custody: r.ledger.custody_log.clone(),
                docket: r.ledger.docket.first().cloned(),
                citations,
                terminal_entailment: r.verdict.entailment.clone(),
                calls: calls.iter().filter(|c| c.claim_id.as_deref() == Some(cid.as_str())).cloned().collect(),
                failure: r.failure.clone(),
            }
        })
        .collect::<Vec<ClaimReport>>();
    let decided: Vec<String> = claims.iter().filter(|c| c.failure.is_some()).map(|c| c.claim_id.clone()).collect();
    let totals = Totals::of(&calls);
    let failure = (!decided.is_empty()).then(|| RunFailure {
        message: export::describe_failures(&calls).unwrap_or_else(|| "a model call failed".into()),
        failed_calls: totals.failed_calls,
        calls: calls.iter().filter(|c| c.role != "embeddings").count() as u32,
        claims: decided,
    });
    let published = claims.iter().any(|c| c.published);
    let outcome = match (published, &failure) {
        (false, Some(_)) => RunOutcome::Failed,
        (false, None) => RunOutcome::Abstained,
        (true, _) if answer.partial => RunOutcome::Partial,
        (true, _) => RunOutcome::Answered,
    };
    let dump = ledger.dump();
    RunExport {
        schema_version: export::SCHEMA.to_string(),
        run_id,
        question: ctx.question.to_string(),
        mode,
        settings: ctx.settings.clone(),
        answer,
        rephrase,
        claims,
        docket_summary: summarize(&dump.authority_docket),
        ledger: dump,
        totals,
        calls,
        outcome,
        failure,
    }
}

/// The retrieval of a single-pass baseline other than vanilla RAG (Hierarchical, Graph-RAG; paper
/// Table 2), or None for the plain blended search. Also the evaluation's context snapshot for those
/// rows: the reference evaluated each retrieval baseline on the contexts its own retrieval found.
pub async fn single_pass_retrieval<S: Search>(question: &str, settings: &Settings, search: &S, k: usize) -> Result<Option<Vec<crate::corpus::Hit>>, String> {
    let a = &settings.ablations;
    if a.hierarchical_rag {
        Ok(Some(crate::retrieve::hierarchical::retrieve(search, question, k, &settings.retrieval).await?))
    } else if a.graph_rag {
        Ok(Some(crate::retrieve::graph_rag::retrieve(search, question, k, &settings.retrieval).await?))
    } else {
        Ok(None)
    }
}

/// The vanilla single-pass RAG baseline (paper Table 2): retrieve for the question, one answer
/// call, no claims, no debate, no custody, no audit. Recorded in the same export shape, with the
/// answer marked `Unaudited`.
async fn vanilla_rag<T: Transport, S: Search>(ctx: &Ctx<'_, '_, T, S>, run_id: String, progress: &Progress<'_, '_, '_, T>) -> Result<RunExport, String> {
    let task = ClaimTask { claim_id: "claim-1".into(), text: ctx.question.to_string(), claim_type: ClaimType::CauseAttribution, fallback: false };
    let cid = task.claim_id.as_str();
    progress.claim(cid, ClaimPhase::Evidence);
    let hyde = ctx.hyde_passage(Some(cid), ctx.question).await;
    let hits = match single_pass_retrieval(ctx.question, ctx.settings, ctx.search, ctx.settings.retrieval.k_narrative).await? {
        Some(hits) => hits,
        None => ctx.retrieve(ctx.question, ctx.settings.retrieval.k_narrative, None, hyde.as_deref()).await?,
    };
    let mut ledger = Ledger::new();
    ledger.add_node(guardian::claim_node(&task, ctx.question));
    let mut lists = [AgentEvidence::default(), AgentEvidence::default(), AgentEvidence::default()];
    for h in &hits {
        let mut item = EvidenceItem::from_hit(h, h.doc.modality, h.doc.text.clone());
        let slot = match h.doc.modality {
            Modality::Table => {
                let label = h.doc.table.as_ref().map(|t| t.row_label.clone().unwrap_or_else(|| t.caption.clone())).unwrap_or_default();
                item.row_label = Some(if label.is_empty() { "table".into() } else { label });
                item.col_label = Some(String::new());
                item.value = Some(h.doc.text.clone());
                1
            }
            Modality::Chart => 2,
            _ => {
                item.modality = Modality::Text;
                0
            }
        };
        lists[slot].items.push(item);
    }
    let mut ids = IdGen::for_claim(cid);
    let mut guard = guardian::run(&mut ledger, &mut ids, &task, &lists[0], &lists[1], &lists[2], ctx.settings);
    guard.escalate = false;
    guard.reason = "single-pass baseline: no escalation, debate, custody or audit".into();
    let support = ledger.support(cid);
    let lines: Vec<String> = support.iter().filter_map(|(id, _)| ledger.node(id).map(|n| n.describe())).collect();
    let block = evidence_block(&lines);
    progress.claim(cid, ClaimPhase::Audit);
    let o = ctx.client.call::<JudgeDraftOut>(Some(cid), prompts::VANILLA, &judge::user_message(ctx.question, &block)).await;
    stop_if_unusable(ctx.client)?;
    let sentence = o.value.sentence.trim().to_string();
    let verdict = if o.failure.is_some() || o.value.insufficient || sentence.is_empty() || hits.is_empty() {
        Verdict::insufficient(o.failure.map(|f| format!("answer call failed: {f}")).unwrap_or_else(|| "the model found the evidence insufficient".into()), None, 0.0)
    } else {
        let ids: Vec<String> = support.iter().map(|(id, _)| id.clone()).collect();
        Verdict {
            label: VerdictLabel::Unaudited,
            published: true,
            audit_passed: false,
            reason: "single-pass baseline: published without checks".into(),
            winning_modality: None,
            s: 0.0,
            gamma: None,
            hri: None,
            citations: judge::used_evidence(&ledger, &ids, &sentence),
            answer_fragment: sentence,
            entailment: None,
        }
    };
    progress.claim(cid, ClaimPhase::Judged { label: verdict.label, published: verdict.published, reason: verdict.reason.clone() });
    let mut run = ClaimRun { task: task.clone(), ledger, guard, debate: DebateTranscript::default(), verdict, failure: None };
    mark_failures(std::slice::from_mut(&mut run), &ctx.client.records());
    let mut merged = Ledger::new();
    merged.merge(run.ledger.clone());
    let mut lines = synthesizer::lines(&merged, &[(run.task.clone(), run.verdict.clone())]);
    let published = lines.iter().any(|l| l.published);
    let answer = if let Some(message) = &run.failure {
        lines[0].text = failed_line(&run.task.text);
        Answer { text: format!("No answer: {message}.\n{}", lines[0].text), abstained: false, partial: false, lines }
    } else if published {
        Answer { text: lines.iter().map(|l| l.text.clone()).collect::<Vec<_>>().join("\n"), abstained: false, partial: false, lines }
    } else {
        Answer { text: format!("{}\n{}", synthesizer::ALL_ABSTAINED, lines[0].text), abstained: true, partial: false, lines }
    };
    let rephrase = Rephrase::Skipped { reason: "single-pass baseline".into() };
    let export = build_export(ctx, run_id, RunMode::VanillaRag, merged, vec![run], answer, rephrase);
    progress.emit(ProgressEvent::Finished {
        abstained: export.answer.abstained,
        partial: false,
        failed: export.outcome == RunOutcome::Failed,
        totals: export.totals.clone(),
    });
    Ok(export)
}
