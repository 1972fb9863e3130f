//! The agent roles and their structured-output contracts.
//!
//! Every chat call is a structured-output call (`response_format: {type: "json_schema"}`) whose
//! schema `name` is the role (foundation issue, "Stable contracts"). The reference made affirmative,
//! judge draft and synthesizer plain-text calls with no fallback (spec §0.3, §12); here every role has
//! a schema, a validator and a conservative default, so a bad answer can never pass silently.
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
//! - hyde: `QUESTION: <q>`
//! - ragas_statements: `QUESTION: <q>\n\nANSWER:\n<a>`
//! - ragas_faithfulness: `CONTEXT:\n<contexts>\n\nSTATEMENTS:\n- <s>` …
//! - ragas_answer_relevancy: `ANSWER:\n<a>`
//! - ragas_context_precision: `QUESTION: <q>\n\nCONTEXT:\n<one context>\n\nREFERENCE:\n<gold>`
//! - ragas_context_recall: `QUESTION: <q>\n\nCONTEXT:\n<contexts>\n\nREFERENCE:\n<gold>`
//! - graph_extraction: `CHUNK:\n<text>`
//!
//! Evidence lines are rendered `[<source>, p.<page>] <content>` (spec §1.4 "describe").

use crate::config::ClaimType;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

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
    RagasStatements,
    RagasFaithfulness,
    RagasAnswerRelevancy,
    RagasContextPrecision,
    RagasContextRecall,
    GraphExtraction,
}

impl Role {
    pub const ALL: [Role; 18] = [
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
    /// The JSON schema of the role's answer (OpenAI strict structured outputs: every property
    /// required, nullable via `["string","null"]`, no additional properties).
    pub fn schema(self) -> Value {
        let s = |v: Value| v;
        let nstr = json!({"type": ["string", "null"]});
        match self {
            Role::Planner => obj(json!({
                "claims": {"type": "array", "items": obj(json!({
                    "text": {"type": "string"},
                    "claim_type": {"type": "string", "enum": ["FACT_NUMERIC", "FACT_TREND", "CAUSE_ATTRIBUTION", "RATIO_IDENTITY"]}
                }))}
            })),
            Role::NarrativeEvidence => obj(json!({
                "tags": {"type": "array", "items": obj(json!({
                    "span_index": {"type": "integer"},
                    "hedge_type": {"type": "string", "enum": ["fact", "hedge", "attribution"]},
                    "metric_label": nstr, "period_label": nstr, "value": nstr, "unit": nstr
                }))}
            })),
            Role::TabularEvidence => obj(json!({
                "cells": {"type": "array", "items": obj(json!({
                    "table_index": {"type": "integer"},
                    "row_label": {"type": "string"}, "col_label": {"type": "string"},
                    "value": {"type": "string"}, "unit": nstr
                }))}
            })),
            Role::VisualEvidence => obj(json!({
                "findings": {"type": "array", "items": obj(json!({
                    "chart_index": {"type": "integer"},
                    "relevant": {"type": "boolean"},
                    "finding": {"type": "string"}
                }))}
            })),
            Role::Affirmative => obj(json!({"brief": {"type": "string"}})),
            Role::Adversarial => obj(json!({
                "attacks": {"type": "array", "items": obj(json!({
                    "category": {"type": "string", "enum": ["numeric", "scope", "fy_temporal", "causal_overclaim", "citation_gap", "visual_over_precision"]},
                    "detail": {"type": "string"},
                    "severity": {"type": "string", "enum": ["low", "medium", "high"]}
                }))},
                "recommend_abstain": {"type": "boolean"}
            })),
            Role::Entailment => obj(json!({
                "label": {"type": "string", "enum": ["entails", "neutral", "contradicts"]},
                "confidence": {"type": "number"},
                "rationale": {"type": "string"}
            })),
            Role::JudgeDraft => obj(json!({
                "insufficient": {"type": "boolean"},
                "sentence": {"type": "string"}
            })),
            Role::Synthesizer => obj(json!({"answer": {"type": "string"}})),
            Role::PageVision => obj(json!({
                "prose_text": {"type": "string"},
                "tables": {"type": "array", "items": obj(json!({
                    "caption": nstr,
                    "columns": {"type": "array", "items": {"type": "string"}},
                    "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
                }))},
                "charts": {"type": "array", "items": obj(json!({
                    "caption": nstr,
                    "chart_type": {"type": "string", "enum": ["bar", "line", "pie", "area", "scatter", "combo", "other"]},
                    "axis_labels": {"type": "string"},
                    "series": {"type": "array", "items": {"type": "string"}},
                    "trend_description": {"type": "string"},
                    "value_readings": {"type": "array", "items": obj(json!({
                        "series": {"type": "string"}, "period": {"type": "string"}, "approx_value": {"type": "string"}
                    }))},
                    "region": {"type": ["array", "null"], "items": {"type": "number"}}
                }))}
            })),
            Role::CorrectnessJudge => obj(json!({
                "label": {"type": "string", "enum": ["correct", "partial", "incorrect"]},
                "rationale": {"type": "string"}
            })),
            Role::Hyde => s(obj(json!({"passage": {"type": "string"}}))),
            Role::RagasStatements => obj(json!({"statements": {"type": "array", "items": {"type": "string"}}})),
            Role::RagasFaithfulness => obj(json!({
                "verdicts": {"type": "array", "items": obj(json!({
                    "statement": {"type": "string"}, "reason": {"type": "string"}, "verdict": {"type": "integer", "enum": [0, 1]}
                }))}
            })),
            Role::RagasAnswerRelevancy => obj(json!({"question": {"type": "string"}, "noncommittal": {"type": "integer", "enum": [0, 1]}})),
            Role::RagasContextPrecision => obj(json!({"reason": {"type": "string"}, "verdict": {"type": "integer", "enum": [0, 1]}})),
            Role::RagasContextRecall => obj(json!({
                "classifications": {"type": "array", "items": obj(json!({
                    "statement": {"type": "string"}, "reason": {"type": "string"}, "attributed": {"type": "integer", "enum": [0, 1]}
                }))}
            })),
            Role::GraphExtraction => obj(json!({
                "entities": {"type": "array", "items": {"type": "string"}},
                "relations": {"type": "array", "items": obj(json!({
                    "subject": {"type": "string"}, "predicate": {"type": "string"}, "object": {"type": "string"}
                }))}
            })),
        }
    }
}

/// A strict object schema over the given properties (all required).
fn obj(props: Value) -> Value {
    let required: Vec<String> = props.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

// ---- Role outputs. `deny_unknown_fields` + `validate()` = the schema check (fail closed). ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedClaim {
    pub text: String,
    pub claim_type: ClaimType,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannerOut {
    pub claims: Vec<PlannedClaim>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HedgeType {
    Fact,
    Hedge,
    Attribution,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpanTag {
    pub span_index: i64,
    pub hedge_type: HedgeType,
    pub metric_label: Option<String>,
    pub period_label: Option<String>,
    pub value: Option<String>,
    pub unit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NarrativeOut {
    pub tags: Vec<SpanTag>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellPick {
    pub table_index: i64,
    pub row_label: String,
    pub col_label: String,
    pub value: String,
    pub unit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TabularOut {
    pub cells: Vec<CellPick>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartFinding {
    pub chart_index: i64,
    /// Spec §12: the reference stored "this chart is not relevant" findings as evidence. The model
    /// must now say whether the chart is about the claim; irrelevant findings are dropped.
    pub relevant: bool,
    pub finding: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct VisualOut {
    pub findings: Vec<ChartFinding>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AffirmativeOut {
    pub brief: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackCategory {
    Numeric,
    Scope,
    FyTemporal,
    CausalOverclaim,
    CitationGap,
    VisualOverPrecision,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Low,
    Medium,
    High,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub category: AttackCategory,
    pub detail: String,
    pub severity: Severity,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdversarialOut {
    pub attacks: Vec<Attack>,
    pub recommend_abstain: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntailmentLabel {
    Entails,
    Neutral,
    Contradicts,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntailmentOut {
    pub label: EntailmentLabel,
    pub confidence: f64,
    pub rationale: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeDraftOut {
    pub insufficient: bool,
    pub sentence: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SynthesizerOut {
    pub answer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisionTable {
    pub caption: Option<String>,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueReading {
    pub series: String,
    pub period: String,
    pub approx_value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisionChart {
    pub caption: Option<String>,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageVisionOut {
    pub prose_text: String,
    pub tables: Vec<VisionTable>,
    pub charts: Vec<VisionChart>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorrectnessLabel {
    Correct,
    Partial,
    Incorrect,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorrectnessOut {
    pub label: CorrectnessLabel,
    pub rationale: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HydeOut {
    pub passage: String,
}

/// A role's answer type: knows its role, checks what serde cannot (ranges, non-empty text), and
/// names its conservative default — the value used when the call fails for good (spec §0.3, fixed
/// per §12 so that every failure resolves conservatively).
pub trait RoleOutput: serde::de::DeserializeOwned + Serialize + Sized {
    const ROLE: Role;
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
impl RoleOutput for HydeOut {
    const ROLE: Role = Role::Hyde;
    fn conservative_default() -> Self {
        HydeOut { passage: String::new() }
    }
}

// ---- RAGAS judge roles (issue 38 item 3; Es et al. 2024, `ragas` 0.4.3 prompts in our words). ----
// A failed call leaves the metric undefined (`eval::ragas` checks `failure`); the defaults below
// are the fail-closed values a caller sees if it reads the value anyway: nothing supported.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RagasStatementsOut {
    pub statements: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RagasVerdict {
    pub statement: String,
    pub reason: String,
    pub verdict: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RagasFaithfulnessOut {
    pub verdicts: Vec<RagasVerdict>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RagasAnswerRelevancyOut {
    pub question: String,
    pub noncommittal: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RagasContextPrecisionOut {
    pub reason: String,
    pub verdict: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RagasAttribution {
    pub statement: String,
    pub reason: String,
    pub attributed: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
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

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Relation {
    pub subject: String,
    pub predicate: String,
    pub object: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
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
        let e: EntailmentOut = serde_json::from_str(r#"{"label":"entails","confidence":1.5,"rationale":"x"}"#).unwrap();
        assert!(e.validate().is_err());
    }

    #[test]
    fn extra_field_in_model_answer_is_rejected() {
        assert!(serde_json::from_str::<HydeOut>(r#"{"passage":"p","extra":1}"#).is_err());
    }
}
