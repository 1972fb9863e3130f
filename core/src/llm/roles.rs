//! The agent roles and their structured-output contracts.
//!
//! Every chat call is a structured-output call (`response_format: {type: "json_schema"}`) whose
//! schema `name` is the role (foundation issue, "Stable contracts"). The reference made affirmative,
//! judge draft and synthesizer plain-text calls with no fallback (spec §0.3, §12); here every role has
//! a schema, a validator and a conservative default, so a bad answer can never pass silently.
//!
//! The schema is derived from the output type (`#[derive(JsonSchema)]`, bounds as `#[schemars(..)]`
//! attributes; `llm::schema`): the schema sent is its portable form, and every answer is checked
//! against the full derived contract before it becomes the type (issue 39 item 3). Adding a role:
//! derive `JsonSchema` on its output type, and give `Role::schema` the arm `Role::X => wire::<XOut>()`.
//!
//! User-message layouts (spec §2) are part of the contract too — the mock server reads them:
//! - planner: `QUESTION: <q>` then a preview header and lines `- [<source>, p.<page>, <modality>] <text>`
//! - narrative_evidence: `CLAIM: <c>` then blocks `[SPAN i]\n<text>` separated by blank lines
//! - tabular_evidence: `CLAIM: <c>` then blocks `[TABLE i] (page <p>, caption: <cap|none>)\n<text>`
//! - visual_evidence: `CLAIM: <c>` then blocks `[CHART i] (page <p>, type: <t>, caption: <cap|none>)\n<text>`
//! - affirmative: `CLAIM: <c>\n\nEVIDENCE:\n<lines>` (+ `\n\nREPAIR:\n<note>` or `\n\nOBJECTIONS:\n- [sev] cat: detail`)
//! - adversarial: `CLAIM: <c>\n\nEVIDENCE:\n<lines>\n\nAFFIRMATIVE BRIEF:\n<brief>`
//! - entailment: `PREMISE:\n<premise>\n\nHYPOTHESIS:\n<hypothesis>`
//! - judge_draft: `CLAIM: <c>\n\nEVIDENCE:\n<lines in authority order>`
//! - synthesizer: `QUESTION: <q>\n\nAUDITED STATEMENTS:\n- <line>` …
//! - correctness_judge: `QUESTION: <q>\n\nGOLD ANSWER:\n<g>\n\nSYSTEM ANSWER:\n<a>`
//! - faithfulness_judge: `CITED EVIDENCE:\n<lines>\n\nPUBLISHED CLAIM:\n<sentence>`
//! - hyde: `QUESTION: <q>`
//! - ragas_statements: `QUESTION: <q>\n\nANSWER:\n<a>`
//! - ragas_faithfulness: `CONTEXT:\n<contexts>\n\nSTATEMENTS:\n- <s>` …
//! - ragas_answer_relevancy: `ANSWER:\n<a>`
//! - ragas_context_precision: `QUESTION: <q>\n\nCONTEXT:\n<one context>\n\nREFERENCE:\n<gold>`
//! - ragas_context_recall: `QUESTION: <q>\n\nCONTEXT:\n<contexts>\n\nREFERENCE:\n<gold>`
//! - graph_extraction: `CHUNK:\n<text>`
//!
//! Evidence lines are rendered `[<source>, p.<page>] <content>` (spec §1.4 "describe").

use super::schema::{contract_of, portable};
use crate::config::ClaimType;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Planner,
    NarrativeEvidence,
    TabularEvidence,
    VisualEvidence,
    Affirmative,
    Adversarial,
    Entailment,
    JudgeDraft,
    Synthesizer,
    PageVision,
    CorrectnessJudge,
    Hyde,
    /// Evaluation only: does the cited evidence support a published claim (paper Table 3 Faith. Rate)?
    FaithfulnessJudge,
    RagasStatements,
    RagasFaithfulness,
    RagasAnswerRelevancy,
    RagasContextPrecision,
    RagasContextRecall,
    GraphExtraction,
}

impl Role {
    pub const ALL: [Role; 19] = [
        Role::Planner,
        Role::NarrativeEvidence,
        Role::TabularEvidence,
        Role::VisualEvidence,
        Role::Affirmative,
        Role::Adversarial,
        Role::Entailment,
        Role::JudgeDraft,
        Role::Synthesizer,
        Role::PageVision,
        Role::CorrectnessJudge,
        Role::Hyde,
        Role::FaithfulnessJudge,
        Role::RagasStatements,
        Role::RagasFaithfulness,
        Role::RagasAnswerRelevancy,
        Role::RagasContextPrecision,
        Role::RagasContextRecall,
        Role::GraphExtraction,
    ];
    /// The JSON-schema `name` sent with the call.
    pub fn name(self) -> &'static str {
        match self {
            Role::Planner => "planner",
            Role::NarrativeEvidence => "narrative_evidence",
            Role::TabularEvidence => "tabular_evidence",
            Role::VisualEvidence => "visual_evidence",
            Role::Affirmative => "affirmative",
            Role::Adversarial => "adversarial",
            Role::Entailment => "entailment",
            Role::JudgeDraft => "judge_draft",
            Role::Synthesizer => "synthesizer",
            Role::PageVision => "page_vision",
            Role::CorrectnessJudge => "correctness_judge",
            Role::Hyde => "hyde",
            Role::FaithfulnessJudge => "faithfulness_judge",
            Role::RagasStatements => "ragas_statements",
            Role::RagasFaithfulness => "ragas_faithfulness",
            Role::RagasAnswerRelevancy => "ragas_answer_relevancy",
            Role::RagasContextPrecision => "ragas_context_precision",
            Role::RagasContextRecall => "ragas_context_recall",
            Role::GraphExtraction => "graph_extraction",
        }
    }
    pub fn from_name(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == s)
    }
    /// The JSON schema sent with the role's call: its output type's derived schema in the portable
    /// strict subset (`llm::schema::portable`; every property required, nullable via
    /// `["string","null"]`, no additional properties, bounds in the description).
    pub fn schema(self) -> Value {
        match self {
            Role::Planner => wire::<PlannerOut>(),
            Role::NarrativeEvidence => wire::<NarrativeOut>(),
            Role::TabularEvidence => wire::<TabularOut>(),
            Role::VisualEvidence => wire::<VisualOut>(),
            Role::Affirmative => wire::<AffirmativeOut>(),
            Role::Adversarial => wire::<AdversarialOut>(),
            Role::Entailment => wire::<EntailmentOut>(),
            Role::JudgeDraft => wire::<JudgeDraftOut>(),
            Role::Synthesizer => wire::<SynthesizerOut>(),
            Role::PageVision => wire::<PageVisionOut>(),
            Role::CorrectnessJudge => wire::<CorrectnessOut>(),
            Role::Hyde => wire::<HydeOut>(),
            Role::FaithfulnessJudge => wire::<FaithfulnessOut>(),
            Role::RagasStatements => wire::<RagasStatementsOut>(),
            Role::RagasFaithfulness => wire::<RagasFaithfulnessOut>(),
            Role::RagasAnswerRelevancy => wire::<RagasAnswerRelevancyOut>(),
            Role::RagasContextPrecision => wire::<RagasContextPrecisionOut>(),
            Role::RagasContextRecall => wire::<RagasContextRecallOut>(),
            Role::GraphExtraction => wire::<GraphExtractionOut>(),
        }
    }
}

/// The wire schema of output type `O`.
fn wire<O: JsonSchema>() -> Value {
    portable(&contract_of::<O>())
}

// ---- Role outputs. The derived contract (`llm::schema::check`), `deny_unknown_fields` and `validate()`
// together are the answer check (fail closed). ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlannedClaim {
    pub text: String,
    pub claim_type: ClaimType,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlannerOut {
    pub claims: Vec<PlannedClaim>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HedgeType {
    Fact,
    Hedge,
    Attribution,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpanTag {
    pub span_index: i64,
    pub hedge_type: HedgeType,
    pub metric_label: Option<String>,
    pub period_label: Option<String>,
    pub value: Option<String>,
    pub unit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct NarrativeOut {
    pub tags: Vec<SpanTag>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CellPick {
    pub table_index: i64,
    pub row_label: String,
    pub col_label: String,
    pub value: String,
    pub unit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct TabularOut {
    pub cells: Vec<CellPick>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartFinding {
    pub chart_index: i64,
    /// Spec §12: the reference stored "this chart is not relevant" findings as evidence. The model
    /// must now say whether the chart is about the claim; irrelevant findings are dropped.
    pub relevant: bool,
    pub finding: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct VisualOut {
    pub findings: Vec<ChartFinding>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct AffirmativeOut {
    pub brief: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttackCategory {
    Numeric,
    Scope,
    FyTemporal,
    CausalOverclaim,
    CitationGap,
    VisualOverPrecision,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Low,
    Medium,
    High,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub category: AttackCategory,
    pub detail: String,
    pub severity: Severity,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdversarialOut {
    pub attacks: Vec<Attack>,
    pub recommend_abstain: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntailmentLabel {
    Entails,
    Neutral,
    Contradicts,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntailmentOut {
    pub label: EntailmentLabel,
    /// Issue 39: a small model answered 1.11; the bound is part of the contract.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: f64,
    pub rationale: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JudgeDraftOut {
    pub insufficient: bool,
    pub sentence: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SynthesizerOut {
    pub answer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VisionTable {
    pub caption: Option<String>,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueReading {
    pub series: String,
    pub period: String,
    pub approx_value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VisionChart {
    pub caption: Option<String>,
    /// The chart kinds the vision prompt names (spec §4.1).
    #[schemars(extend("enum" = ["bar", "line", "pie", "area", "scatter", "combo", "other"]))]
    pub chart_type: String,
    pub axis_labels: String,
    pub series: Vec<String>,
    pub trend_description: String,
    pub value_readings: Vec<ValueReading>,
    /// Where the chart is on the page as fractions `[x0, y0, x1, y1]`, origin top-left (so a chart
    /// citation highlights the chart, not the page). Not in the reference's schema.
    #[serde(default)]
    pub region: Option<Vec<f32>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PageVisionOut {
    pub prose_text: String,
    pub tables: Vec<VisionTable>,
    pub charts: Vec<VisionChart>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CorrectnessLabel {
    Correct,
    Partial,
    Incorrect,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CorrectnessOut {
    pub label: CorrectnessLabel,
    pub rationale: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FaithfulnessLabel {
    Supported,
    NotSupported,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaithfulnessOut {
    pub label: FaithfulnessLabel,
    pub rationale: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HydeOut {
    pub passage: String,
}

/// A role's answer type: knows its role, checks what serde cannot (ranges, non-empty text), and
/// names its conservative default — the value used when the call fails for good (spec §0.3, fixed
/// per §12 so that every failure resolves conservatively).
pub trait RoleOutput: serde::de::DeserializeOwned + Serialize + JsonSchema + Sized {
    const ROLE: Role;
    /// The schema every answer is checked against: derived from the type, bounds included.
    fn contract() -> Value {
        contract_of::<Self>()
    }
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    /// The fail-closed default. Never a value that lets a claim pass.
    fn conservative_default() -> Self;
}

impl RoleOutput for PlannerOut {
    const ROLE: Role = Role::Planner;
    fn validate(&self) -> Result<(), String> {
        if self.claims.iter().any(|c| c.text.trim().is_empty()) {
            return Err("a planned claim has empty text".into());
        }
        Ok(())
    }
    /// Empty: the planner agent substitutes its fallback claim (the question itself).
    fn conservative_default() -> Self {
        PlannerOut { claims: vec![] }
    }
}
impl RoleOutput for NarrativeOut {
    const ROLE: Role = Role::NarrativeEvidence;
    fn conservative_default() -> Self {
        NarrativeOut::default()
    }
}
impl RoleOutput for TabularOut {
    const ROLE: Role = Role::TabularEvidence;
    fn conservative_default() -> Self {
        TabularOut::default()
    }
}
impl RoleOutput for VisualOut {
    const ROLE: Role = Role::VisualEvidence;
    fn conservative_default() -> Self {
        VisualOut::default()
    }
}
impl RoleOutput for AffirmativeOut {
    const ROLE: Role = Role::Affirmative;
    /// Empty brief: custody fails it without a model call (spec §2.7 "empty draft").
    fn conservative_default() -> Self {
        AffirmativeOut::default()
    }
}
impl RoleOutput for AdversarialOut {
    const ROLE: Role = Role::Adversarial;
    /// Spec §12: the reference failed open here (no attacks, no abstain). Failing closed means the
    /// adversary, when it cannot be heard, recommends abstaining.
    fn conservative_default() -> Self {
        AdversarialOut { attacks: vec![], recommend_abstain: true }
    }
}
impl RoleOutput for EntailmentOut {
    const ROLE: Role = Role::Entailment;
    /// The [0, 1] bound is in the contract; this repeats it for values built in code (NaN).
    fn validate(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.confidence) || self.confidence.is_nan() {
            return Err(format!("entailment confidence {} is outside [0, 1]", self.confidence));
        }
        Ok(())
    }
    fn conservative_default() -> Self {
        EntailmentOut { label: EntailmentLabel::Neutral, confidence: 0.0, rationale: "entailment call did not complete".into() }
    }
}
impl RoleOutput for JudgeDraftOut {
    const ROLE: Role = Role::JudgeDraft;
    fn validate(&self) -> Result<(), String> {
        if !self.insufficient && self.sentence.trim().is_empty() {
            return Err("judge draft is empty but not marked insufficient".into());
        }
        Ok(())
    }
    fn conservative_default() -> Self {
        JudgeDraftOut { insufficient: true, sentence: String::new() }
    }
}
impl RoleOutput for SynthesizerOut {
    const ROLE: Role = Role::Synthesizer;
    /// Empty: the synthesizer keeps the raw audited lines.
    fn conservative_default() -> Self {
        SynthesizerOut { answer: String::new() }
    }
}
impl RoleOutput for PageVisionOut {
    const ROLE: Role = Role::PageVision;
    fn conservative_default() -> Self {
        PageVisionOut { prose_text: String::new(), tables: vec![], charts: vec![] }
    }
}
impl RoleOutput for CorrectnessOut {
    const ROLE: Role = Role::CorrectnessJudge;
    fn conservative_default() -> Self {
        CorrectnessOut { label: CorrectnessLabel::Incorrect, rationale: "correctness call did not complete".into() }
    }
}
impl RoleOutput for FaithfulnessOut {
    const ROLE: Role = Role::FaithfulnessJudge;
    fn validate(&self) -> Result<(), String> {
        if self.rationale.trim().is_empty() {
            return Err("faithfulness verdict without a rationale".into());
        }
        Ok(())
    }
    /// Not entailed: a verdict that could not be had never counts a claim as faithful.
    fn conservative_default() -> Self {
        FaithfulnessOut { label: FaithfulnessLabel::NotSupported, rationale: "faithfulness call did not complete".into() }
    }
}
impl RoleOutput for HydeOut {
    const ROLE: Role = Role::Hyde;
    fn conservative_default() -> Self {
        HydeOut { passage: String::new() }
    }
}

// ---- RAGAS judge roles (issue 38 item 3; Es et al. 2024, `ragas` 0.4.3 prompts in our words). ----
// A failed call leaves the metric undefined (`eval::ragas` checks `failure`); the defaults below
// are the fail-closed values a caller sees if it reads the value anyway: nothing supported.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasStatementsOut {
    pub statements: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasVerdict {
    pub statement: String,
    pub reason: String,
    #[schemars(range(max = 1))]
    pub verdict: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasFaithfulnessOut {
    pub verdicts: Vec<RagasVerdict>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasAnswerRelevancyOut {
    pub question: String,
    #[schemars(range(max = 1))]
    pub noncommittal: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasContextPrecisionOut {
    pub reason: String,
    #[schemars(range(max = 1))]
    pub verdict: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasAttribution {
    pub statement: String,
    pub reason: String,
    #[schemars(range(max = 1))]
    pub attributed: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RagasContextRecallOut {
    pub classifications: Vec<RagasAttribution>,
}

fn binary(name: &str, v: u8) -> Result<(), String> {
    if v > 1 {
        return Err(format!("{name} must be 0 or 1, not {v}"));
    }
    Ok(())
}

impl RoleOutput for RagasStatementsOut {
    const ROLE: Role = Role::RagasStatements;
    fn validate(&self) -> Result<(), String> {
        if self.statements.iter().any(|s| s.trim().is_empty()) {
            return Err("an empty statement".into());
        }
        Ok(())
    }
    fn conservative_default() -> Self {
        RagasStatementsOut::default()
    }
}
impl RoleOutput for RagasFaithfulnessOut {
    const ROLE: Role = Role::RagasFaithfulness;
    fn validate(&self) -> Result<(), String> {
        self.verdicts.iter().try_for_each(|v| binary("verdict", v.verdict))
    }
    fn conservative_default() -> Self {
        RagasFaithfulnessOut::default()
    }
}
impl RoleOutput for RagasAnswerRelevancyOut {
    const ROLE: Role = Role::RagasAnswerRelevancy;
    fn validate(&self) -> Result<(), String> {
        binary("noncommittal", self.noncommittal)
    }
    /// Noncommittal with no question: the answer counts as evasive.
    fn conservative_default() -> Self {
        RagasAnswerRelevancyOut { question: String::new(), noncommittal: 1 }
    }
}
impl RoleOutput for RagasContextPrecisionOut {
    const ROLE: Role = Role::RagasContextPrecision;
    fn validate(&self) -> Result<(), String> {
        binary("verdict", self.verdict)
    }
    fn conservative_default() -> Self {
        RagasContextPrecisionOut { reason: "context precision call did not complete".into(), verdict: 0 }
    }
}
impl RoleOutput for RagasContextRecallOut {
    const ROLE: Role = Role::RagasContextRecall;
    fn validate(&self) -> Result<(), String> {
        self.classifications.iter().try_for_each(|c| binary("attributed", c.attributed))
    }
    fn conservative_default() -> Self {
        RagasContextRecallOut::default()
    }
}

// ---- Graph-RAG indexing (issue 38 item 4): entities and relations of one chunk. ----

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Relation {
    pub subject: String,
    pub predicate: String,
    pub object: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphExtractionOut {
    pub entities: Vec<String>,
    pub relations: Vec<Relation>,
}

impl RoleOutput for GraphExtractionOut {
    const ROLE: Role = Role::GraphExtraction;
    fn validate(&self) -> Result<(), String> {
        if self.relations.iter().any(|r| r.subject.trim().is_empty() || r.object.trim().is_empty()) {
            return Err("a relation without a subject or object".into());
        }
        Ok(())
    }
    /// Nothing extracted: the chunk is reachable by dense search only.
    fn conservative_default() -> Self {
        GraphExtractionOut::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::llm::client::parse_output;
    use crate::llm::schema::{check, portability_problems, unenforced_keywords};

    #[test]
    fn every_role_schema_is_within_the_portable_strict_subset() {
        for r in Role::ALL {
            let problems = portability_problems(&r.schema());
            assert!(problems.is_empty(), "{} schema leaves the subset (docs/providers.md):\n{}", r.name(), problems.join("\n"));
        }
    }

    /// Each role's contract and conservative default, by output type (the list `Role::schema` keeps).
    fn contracts() -> Vec<(Role, Value, Value)> {
        fn one<O: RoleOutput>() -> (Role, Value, Value) {
            (O::ROLE, O::contract(), serde_json::to_value(O::conservative_default()).unwrap())
        }
        vec![
            one::<PlannerOut>(),
            one::<NarrativeOut>(),
            one::<TabularOut>(),
            one::<VisualOut>(),
            one::<AffirmativeOut>(),
            one::<AdversarialOut>(),
            one::<EntailmentOut>(),
            one::<JudgeDraftOut>(),
            one::<SynthesizerOut>(),
            one::<PageVisionOut>(),
            one::<CorrectnessOut>(),
            one::<HydeOut>(),
            one::<FaithfulnessOut>(),
            one::<RagasStatementsOut>(),
            one::<RagasFaithfulnessOut>(),
            one::<RagasAnswerRelevancyOut>(),
            one::<RagasContextPrecisionOut>(),
            one::<RagasContextRecallOut>(),
            one::<GraphExtractionOut>(),
        ]
    }

    #[test]
    fn the_schema_sent_is_derived_from_the_output_type_and_the_checker_enforces_all_of_it() {
        let all = contracts();
        assert_eq!(all.iter().map(|(r, ..)| *r).collect::<Vec<_>>(), Role::ALL.to_vec());
        for (r, contract, default) in all {
            assert_eq!(r.schema(), portable(&contract), "{}: the wire schema is the contract's portable form", r.name());
            assert_eq!(unenforced_keywords(&contract), Vec::<String>::new(), "{}: a contract keyword the checker does not enforce", r.name());
            // Narrowing only: the conservative default passes both the contract and (modulo a null list) the wire form.
            check(&default, &contract).unwrap_or_else(|e| panic!("{} default breaks its contract: {e}", r.name()));
        }
    }

    #[test]
    fn entailment_schema_declares_the_confidence_bounds_the_validator_enforces() {
        let contract = EntailmentOut::contract();
        let c = &contract["properties"]["confidence"];
        assert_eq!((c["minimum"].as_f64(), c["maximum"].as_f64()), (Some(0.0), Some(1.0)));
        let sent = Role::Entailment.schema();
        assert_eq!(sent["properties"]["confidence"]["description"], "from 0 to 1", "the bound reaches the model");
        assert_eq!(sent["properties"]["label"]["enum"], serde_json::json!(["entails", "neutral", "contradicts"]));
        // The issue's answer: 1.11 fails, naming the bound; the edges pass.
        let e = parse_output::<EntailmentOut>(r#"{"label":"entails","confidence":1.11,"rationale":"x"}"#).unwrap_err();
        assert!(e.contains("confidence") && e.contains("maximum 1"), "{e}");
        assert!(parse_output::<EntailmentOut>(r#"{"label":"entails","confidence":1,"rationale":"x"}"#).is_ok());
        assert!(parse_output::<EntailmentOut>(r#"{"label":"neutral","confidence":0.0,"rationale":"x"}"#).is_ok());
    }

    #[test]
    fn nullable_fields_stay_nullable_and_a_nullable_list_is_sent_as_a_list() {
        let s = Role::PageVision.schema();
        let chart = &s["properties"]["charts"]["items"]["properties"];
        assert_eq!(chart["caption"]["type"], serde_json::json!(["string", "null"]));
        assert_eq!(chart["region"]["type"], "array", "node-llama-cpp reads [\"array\", \"null\"] as null only");
        // The contract still takes null (the answer type is Option<Vec<f32>>).
        let ok = r#"{"prose_text":"","tables":[],"charts":[{"caption":null,"chart_type":"bar","axis_labels":"","series":[],"trend_description":"","value_readings":[],"region":null}]}"#;
        assert!(parse_output::<PageVisionOut>(ok).is_ok());
    }

    #[test]
    fn every_role_name_round_trips_and_has_strict_object_schema() {
        for r in Role::ALL {
            assert_eq!(Role::from_name(r.name()), Some(r));
            let s = r.schema();
            assert_eq!(s["type"], "object");
            assert_eq!(s["additionalProperties"], false);
            let props = s["properties"].as_object().unwrap();
            assert_eq!(s["required"].as_array().unwrap().len(), props.len());
        }
    }

    #[test]
    fn adversarial_default_fails_closed() {
        assert!(AdversarialOut::conservative_default().recommend_abstain);
    }

    #[test]
    fn entailment_confidence_out_of_range_is_a_schema_error() {
        assert!(parse_output::<EntailmentOut>(r#"{"label":"entails","confidence":1.5,"rationale":"x"}"#).is_err());
        let e: EntailmentOut = serde_json::from_str(r#"{"label":"entails","confidence":1.5,"rationale":"x"}"#).unwrap();
        assert!(e.validate().is_err(), "a value built around the checker is still refused");
    }

    #[test]
    fn extra_field_in_model_answer_is_rejected() {
        assert!(serde_json::from_str::<HydeOut>(r#"{"passage":"p","extra":1}"#).is_err());
        assert!(parse_output::<HydeOut>(r#"{"passage":"p","extra":1}"#).unwrap_err().contains("unknown field"));
    }
}
