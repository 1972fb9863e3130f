//! The run export: everything a run produced, as one versioned, serde-lossless JSON document
//! (`"schema": "clair-fin/run@1"`), plus GraphML (the ledger graph) and CSV (one row per claim).
//! The app, the CLI and the evaluation read and write this one shape (spec §7.3, extended).
//!
//! Invariants: settings are included and never hold an API key (`Settings` has no key field);
//! every published line's citations point at ledger nodes with a source and page; the ledger dump
//! re-imports with `Ledger::from_dump`.

use crate::agents::adversarial::Review;
use crate::agents::entailment::Entailment;
use crate::agents::judge::VerdictLabel;
use crate::agents::synthesizer::Rephrase;
use crate::config::{ClaimType, Modality, Settings};
use crate::corpus::{BBox, TablePart};
use crate::ledger::docket::DocketSummary;
use crate::ledger::{CustodyEvent, DocketEntry, Ledger, LedgerDump, Node};
use crate::llm::CallRecord;
use crate::risk::Hri;
use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "clair-fin/run@1";

/// The JSON Schema of this layout (kept equal to the code by a test).
pub const JSON_SCHEMA: &str = include_str!("export/run.schema.json");

/// A pointer from an answer line to a page region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    pub source: String,
    pub page: u32,
    pub node_id: String,
    #[serde(default)]
    pub bboxes: Vec<BBox>,
    #[serde(default)]
    pub page_size: (f32, f32),
    /// Every page's part of a cited table that runs over several pages (see `Locator`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub table_parts: Vec<TablePart>,
}

impl Citation {
    /// The citation for a ledger node, if the node has a source and page.
    pub fn of(ledger: &Ledger, node_id: &str) -> Option<Citation> {
        let n = ledger.node(node_id)?;
        let (source, page) = n.source_page()?;
        let l = n.locator().cloned().unwrap_or_default();
        Some(Citation { source: source.to_string(), page, node_id: node_id.to_string(), bboxes: l.bboxes, page_size: l.page_size, table_parts: l.table_parts })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerLine {
    pub claim_id: String,
    /// False for an abstention line.
    pub published: bool,
    pub text: String,
    pub citations: Vec<Citation>,
}

impl AnswerLine {
    /// The line without the citation labels it ends with (spec §7.1 appends `[source, p.N]` to
    /// each published line), for views that print each citation where it stands instead — so a
    /// citation is not shown twice either.
    pub fn statement(&self) -> &str {
        let mut rest = self.text.trim_end();
        let mut labels: Vec<String> = vec![];
        for l in self.citations.iter().map(crate::agents::synthesizer::label) {
            if !labels.contains(&l) {
                labels.push(l);
            }
        }
        for l in labels.iter().rev() {
            match rest.strip_suffix(l.as_str()) {
                Some(r) => rest = r.trim_end(),
                None => break,
            }
        }
        rest
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The final text (the checked rephrase, or the raw lines).
    pub text: String,
    /// No claim was published (paper §3.9).
    pub abstained: bool,
    /// Some claims were published and some were not.
    pub partial: bool,
    pub lines: Vec<AnswerLine>,
}

/// A support node as the claim report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceRef {
    pub node: Node,
    pub modality: Option<Modality>,
    /// score(u, c): the retrieval confidence on its SUPPORTS edge.
    pub score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BriefRecord {
    /// `initial`, `repair`, `rebuttal <n>`.
    pub stage: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DebateTranscript {
    pub briefs: Vec<BriefRecord>,
    pub reviews: Vec<Review>,
    /// ρ: rebuttal rounds used.
    pub rebuttal_rounds: u32,
    /// Custody repairs used.
    pub repairs: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimReport {
    pub claim_id: String,
    pub text: String,
    pub claim_type: ClaimType,
    pub fallback: bool,
    pub label: VerdictLabel,
    pub published: bool,
    pub audit_passed: bool,
    /// Why the claim ended as it did.
    pub reason: String,
    pub winning_modality: Option<Modality>,
    /// s(c).
    pub s: f64,
    /// A(c) in basis points.
    pub coverage_bp: u32,
    pub escalated: bool,
    pub escalation_reason: String,
    /// Only for published, audited claims; carries its four weighted terms.
    pub hri: Option<Hri>,
    pub answer_fragment: String,
    pub evidence: Vec<EvidenceRef>,
    pub debate: DebateTranscript,
    pub custody: Vec<CustodyEvent>,
    pub docket: Option<DocketEntry>,
    pub citations: Vec<Citation>,
    pub terminal_entailment: Option<Entailment>,
    /// Model calls made for this claim, in order.
    pub calls: Vec<CallRecord>,
    /// Set when the claim went unpublished after one of its model calls failed (HTTP errors after
    /// retries, a timeout, an answer still invalid after its retry, the call cap): the verdict was
    /// decided by that failure, not by the evidence. Names what failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub calls: u32,
    /// Calls that ended with the conservative default.
    pub failed_calls: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Cost of the priced calls.
    pub cost_usd: f64,
    /// Models with no pricing entry (their cost is unknown, not 0).
    pub unpriced_models: Vec<String>,
}

impl Totals {
    pub fn of(records: &[CallRecord]) -> Totals {
        let mut t = Totals::default();
        for r in records {
            t.calls += 1;
            t.failed_calls += r.failure.is_some() as u32;
            t.input_tokens += r.usage.input_tokens;
            t.output_tokens += r.usage.output_tokens;
            match r.cost_usd {
                Some(c) => t.cost_usd += c,
                None => {
                    if !t.unpriced_models.contains(&r.model) {
                        t.unpriced_models.push(r.model.clone());
                    }
                }
            }
        }
        t.cost_usd = (t.cost_usd * 1e6).round() / 1e6;
        t
    }
}

/// How a run ended, as the user is told (issue 38 item 5: failed is not abstained).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Every claim was published.
    #[default]
    Answered,
    /// Some claims were published, some were not (on the evidence or after a model failure).
    Partial,
    /// No claim was published, and every claim was decided on the evidence (paper §3.9).
    Abstained,
    /// No claim was published, and at least one was decided by a model failure: the documents
    /// were not heard, so this is no abstention.
    Failed,
}

impl RunOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            RunOutcome::Answered => "answered",
            RunOutcome::Partial => "partial",
            RunOutcome::Abstained => "abstained",
            RunOutcome::Failed => "failed",
        }
    }
}

/// What failed in a run whose model calls failed: one message for the user, and the claims the
/// failure decided.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFailure {
    /// E.g. "the model endpoint failed: 5 of 5 calls returned HTTP 500 (server error)".
    pub message: String,
    pub failed_calls: u32,
    /// Chat calls of the run (embeddings excluded).
    pub calls: u32,
    /// Claims whose verdict the failure decided (`ClaimReport::failure`).
    pub claims: Vec<String>,
}

/// How the model calls of a run failed, in one sentence, or None when none failed. Failures are
/// grouped by kind — "returned HTTP 500 (server error)", "timed out", "answered with invalid
/// output", "were not made: the call cap was reached" — largest group first.
pub fn describe_failures(records: &[CallRecord]) -> Option<String> {
    let chat: Vec<&CallRecord> = records.iter().filter(|r| r.role != "embeddings").collect();
    let mut groups: Vec<(String, u32)> = vec![];
    for r in &chat {
        let Some(f) = &r.failure else { continue };
        let kind = failure_kind(f);
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => groups.push((kind, 1)),
        }
    }
    if groups.is_empty() {
        return None;
    }
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let total = chat.len();
    let parts: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(i, (k, n))| if i == 0 { format!("{n} of {total} calls {k}") } else { format!("{n} {k}") })
        .collect();
    Some(format!("the model endpoint failed: {}", parts.join(", ")))
}

/// The kind of a call failure, as a predicate of "N calls …".
fn failure_kind(reason: &str) -> String {
    if let Some(code) = reason.split("HTTP ").nth(1).map(|t| t.chars().take_while(|c| c.is_ascii_digit()).collect::<String>()).filter(|c| c.len() == 3) {
        let class = match code.as_bytes()[0] {
            b'5' => "server error",
            _ if code == "429" => "rate limited",
            _ => "request refused",
        };
        return format!("returned HTTP {code} ({class})");
    }
    let r = reason.to_lowercase();
    if r.contains("did not answer within") || r.contains("timed out") {
        "timed out".into()
    } else if r.contains("call budget") {
        "were not made: the call cap was reached".into()
    } else if r.contains("could not reach") {
        "could not reach the endpoint".into()
    } else if r.contains("cut off") {
        "were cut off at the output-token cap".into()
    } else if r.contains("schema") || r.contains("unreadable") {
        "answered with invalid output".into()
    } else if r.starts_with("not called") {
        "were not sent after a fatal error".into()
    } else if r.contains("cancelled") {
        "were cancelled".into()
    } else {
        "failed".into()
    }
}

/// How the answer was produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunMode {
    /// The full method (possibly with mechanism ablations; see `settings.ablations`).
    ClairFin,
    /// Single-pass retrieve-then-answer baseline.
    VanillaRag,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunExport {
    /// Always `clair-fin/run@1` for this layout.
    #[serde(rename = "schema")]
    pub schema_version: String,
    /// Derived from a hash of the question and the settings: the same inputs give the same id.
    pub run_id: String,
    pub question: String,
    pub mode: RunMode,
    pub settings: Settings,
    pub answer: Answer,
    pub rephrase: Rephrase,
    pub claims: Vec<ClaimReport>,
    pub ledger: LedgerDump,
    pub docket_summary: DocketSummary,
    /// Every model call of the run, planner first, then claim by claim, then the synthesizer.
    pub calls: Vec<CallRecord>,
    pub totals: Totals,
    /// How the run ended. Exports written before this field derive it from `answer` on reading.
    #[serde(default)]
    pub outcome: RunOutcome,
    /// What failed, when model calls failed and decided at least one claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<RunFailure>,
}

impl RunExport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"export failed: {e}\"}}"))
    }

    /// Read an export back, refusing other schema versions with a clear message.
    pub fn from_json(s: &str) -> Result<RunExport, String> {
        let v: serde_json::Value = serde_json::from_str(s).map_err(|e| format!("not a JSON run export: {e}"))?;
        match v.get("schema").and_then(|x| x.as_str()) {
            Some(SCHEMA) => {}
            Some(other) => return Err(format!("unsupported run export schema `{other}` (this build reads `{SCHEMA}`)")),
            None => return Err("not a CLAIR-Fin run export (no `schema` field)".into()),
        }
        let had_outcome = v.get("outcome").is_some();
        let mut run: RunExport = serde_json::from_value(v).map_err(|e| format!("run export does not match `{SCHEMA}`: {e}"))?;
        if !had_outcome {
            run.outcome = if run.answer.abstained {
                RunOutcome::Abstained
            } else if run.answer.partial {
                RunOutcome::Partial
            } else {
                RunOutcome::Answered
            };
        }
        Ok(run)
    }

    /// The banner over the answer (app and offline report): the outcome and one sentence for it.
    /// A failed run's banner does not repeat the failure, which the answer's text names.
    pub fn banner(&self) -> (RunOutcome, &'static str) {
        let text = match self.outcome {
            RunOutcome::Answered => "Every published claim passed the entailment audit",
            RunOutcome::Partial => "Partial answer: some claims could not be verified",
            RunOutcome::Abstained => "Abstained: the documents did not support an answer",
            RunOutcome::Failed => "Failed: the model did not answer, so the documents were not checked",
        };
        (self.outcome, text)
    }
}

/// Run id from the question and the settings (FNV-1a, 64 bit): caller-independent and stable.
pub fn run_id(question: &str, settings: &Settings) -> String {
    use crate::hash::{fnv64, fnv64_more};
    let h = fnv64_more(fnv64_more(fnv64(question.as_bytes()), &[0]), settings.to_toml().as_bytes());
    format!("run-{h:016x}")
}

/// XML text and attribute escaping (control characters dropped): the same rule as the HTML views.
use crate::view::escape as xml_escape;

/// The ledger as GraphML (nodes with type, claim, label, source, page; edges with relation, score).
pub fn to_graphml(run: &RunExport) -> String {
    let mut o = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n");
    for (id, for_, name, ty) in [
        ("d0", "node", "node_type", "string"),
        ("d1", "node", "claim_id", "string"),
        ("d2", "node", "label", "string"),
        ("d3", "node", "source", "string"),
        ("d4", "node", "page", "int"),
        ("d5", "edge", "relation", "string"),
        ("d6", "edge", "score", "double"),
    ] {
        o.push_str(&format!("  <key id=\"{id}\" for=\"{for_}\" attr.name=\"{name}\" attr.type=\"{ty}\"/>\n"));
    }
    o.push_str(&format!("  <graph id=\"{}\" edgedefault=\"directed\">\n", xml_escape(&run.run_id)));
    for n in &run.ledger.nodes {
        o.push_str(&format!("    <node id=\"{}\">\n", xml_escape(&n.node_id)));
        o.push_str(&format!("      <data key=\"d0\">{}</data>\n", n.type_name()));
        o.push_str(&format!("      <data key=\"d1\">{}</data>\n", xml_escape(&n.claim_id)));
        o.push_str(&format!("      <data key=\"d2\">{}</data>\n", xml_escape(&n.content())));
        if let Some((s, p)) = n.source_page() {
            o.push_str(&format!("      <data key=\"d3\">{}</data>\n      <data key=\"d4\">{p}</data>\n", xml_escape(s)));
        }
        o.push_str("    </node>\n");
    }
    for (i, e) in run.ledger.edges.iter().enumerate() {
        o.push_str(&format!(
            "    <edge id=\"e{i}\" source=\"{}\" target=\"{}\">\n      <data key=\"d5\">{}</data>\n",
            xml_escape(&e.source),
            xml_escape(&e.target),
            e.relation.as_str()
        ));
        if let Some(s) = e.score {
            o.push_str(&format!("      <data key=\"d6\">{s}</data>\n"));
        }
        o.push_str("    </edge>\n");
    }
    o.push_str("  </graph>\n</graphml>\n");
    o
}

/// One CSV field, quoted as RFC 4180 asks (only when it holds a comma, quote or line break; quotes
/// doubled). Shared by every CSV the core writes (claims here, the evaluation report's summary and
/// results). Not the `csv` crate: its writer wants an `io::Write` and brings its own quoting rules
/// for one four-line function whose output the tests pin.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row per claim.
pub fn claims_csv(run: &RunExport) -> String {
    let mut o = String::from(
        "run_id,claim_id,claim_type,text,label,published,audit_passed,winning_modality,s,coverage_bp,escalated,rebuttal_rounds,repairs,hri,hri_entailment,hri_authority,hri_repair,hri_attack,citations,reason,answer_fragment\n",
    );
    for c in &run.claims {
        let (h, a, b, r, k) = match &c.hri {
            Some(h) => (
                h.value.to_string(),
                h.entailment_term.to_string(),
                h.authority_term.to_string(),
                h.repair_term.to_string(),
                h.attack_term.to_string(),
            ),
            None => Default::default(),
        };
        let cites: Vec<String> = c.citations.iter().map(|x| format!("{} p.{}", x.source, x.page)).collect();
        let row = [
            run.run_id.clone(),
            c.claim_id.clone(),
            c.claim_type.as_str().to_string(),
            c.text.clone(),
            c.label.as_str().to_string(),
            c.published.to_string(),
            c.audit_passed.to_string(),
            c.winning_modality.map(|m| m.as_str().to_string()).unwrap_or_default(),
            c.s.to_string(),
            c.coverage_bp.to_string(),
            c.escalated.to_string(),
            c.debate.rebuttal_rounds.to_string(),
            c.debate.repairs.to_string(),
            h,
            a,
            b,
            r,
            k,
            cites.join("; "),
            c.reason.clone(),
            c.answer_fragment.clone(),
        ];
        let fields: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
        o.push_str(&fields.join(","));
        o.push('\n');
    }
    o
}

#[cfg(test)]
mod csv_tests {
    use super::csv_field;

    #[test]
    fn csv_fields_are_quoted_only_when_they_hold_a_separator_quote_or_line_break() {
        assert_eq!(csv_field("Net sales"), "Net sales");
        assert_eq!(csv_field("34,229"), "\"34,229\"");
        assert_eq!(csv_field("the \"adjusted\" figure"), "\"the \"\"adjusted\"\" figure\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field("cr\r"), "\"cr\r\"");
        assert_eq!(csv_field(""), "");
    }
}
