//! One `Settings` value holds every number of the method (STYLE.md: "numbers from the paper are
//! configuration"). Defaults are the paper's / reference's values (reference-spec §9, §13); each field
//! documents where its default comes from. TOML in and out; unknown keys are rejected so a typo in a
//! settings file is an error the user sees, not a silently ignored value.

use serde::{Deserialize, Serialize};

/// The four claim types of the paper (§3.3; spec §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ClaimType {
    FactNumeric,
    FactTrend,
    CauseAttribution,
    RatioIdentity,
}

impl ClaimType {
    pub const ALL: [ClaimType; 4] = [
        ClaimType::FactNumeric,
        ClaimType::FactTrend,
        ClaimType::CauseAttribution,
        ClaimType::RatioIdentity,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimType::FactNumeric => "FACT_NUMERIC",
            ClaimType::FactTrend => "FACT_TREND",
            ClaimType::CauseAttribution => "CAUSE_ATTRIBUTION",
            ClaimType::RatioIdentity => "RATIO_IDENTITY",
        }
    }
}

/// Evidence modality (spec §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Modality {
    Text,
    Table,
    Chart,
    ToolDerived,
}

impl Modality {
    pub fn as_str(self) -> &'static str {
        match self {
            Modality::Text => "text",
            Modality::Table => "table",
            Modality::Chart => "chart",
            Modality::ToolDerived => "tool_derived",
        }
    }
    pub fn parse(s: &str) -> Option<Modality> {
        match s {
            "text" => Some(Modality::Text),
            "table" => Some(Modality::Table),
            "chart" => Some(Modality::Chart),
            "tool_derived" => Some(Modality::ToolDerived),
            _ => None,
        }
    }
}

/// AEA weights w(τ, m) as an ordered list per claim type (spec §9: the YAML key order matters for
/// first-maximum tie-breaking, so this is a list, not a map).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AuthorityWeights {
    /// AEA weights w(FACT_NUMERIC, m), highest first (paper Table 1: table 0.55, tool-derived 0.30, text 0.10, chart 0.05).
    pub fact_numeric: Vec<(Modality, f64)>,
    /// AEA weights w(FACT_TREND, m) (paper Table 1: chart 0.45, table 0.45, text 0.10).
    pub fact_trend: Vec<(Modality, f64)>,
    /// AEA weights w(CAUSE_ATTRIBUTION, m) (paper Table 1: text 0.75, table 0.25).
    pub cause_attribution: Vec<(Modality, f64)>,
    /// AEA weights w(RATIO_IDENTITY, m) (paper Table 1: tool-derived 0.60, table 0.40).
    pub ratio_identity: Vec<(Modality, f64)>,
}

impl Default for AuthorityWeights {
    fn default() -> Self {
        use Modality::*;
        // Paper Table 1 / spec §9.
        AuthorityWeights {
            fact_numeric: vec![(Table, 0.55), (ToolDerived, 0.30), (Text, 0.10), (Chart, 0.05)],
            fact_trend: vec![(Chart, 0.45), (Table, 0.45), (Text, 0.10)],
            cause_attribution: vec![(Text, 0.75), (Table, 0.25)],
            ratio_identity: vec![(ToolDerived, 0.60), (Table, 0.40)],
        }
    }
}

impl AuthorityWeights {
    pub fn for_type(&self, t: ClaimType) -> &[(Modality, f64)] {
        match t {
            ClaimType::FactNumeric => &self.fact_numeric,
            ClaimType::FactTrend => &self.fact_trend,
            ClaimType::CauseAttribution => &self.cause_attribution,
            ClaimType::RatioIdentity => &self.ratio_identity,
        }
    }
    /// Weight in integer basis points (spec §1.7: keeps the 0.75 threshold comparison exact).
    pub fn bp(&self, t: ClaimType, m: Modality) -> Option<u32> {
        self.for_type(t)
            .iter()
            .find(|(mm, _)| *mm == m)
            .map(|(_, w)| (w * 10_000.0).round() as u32)
    }
    /// The equal-weight table used by the "w/o AEA" ablation.
    pub fn uniform(&self) -> AuthorityWeights {
        fn flat(v: &[(Modality, f64)]) -> Vec<(Modality, f64)> {
            let n = v.len().max(1) as f64;
            v.iter().map(|(m, _)| (*m, 1.0 / n)).collect()
        }
        AuthorityWeights {
            fact_numeric: flat(&self.fact_numeric),
            fact_trend: flat(&self.fact_trend),
            cause_attribution: flat(&self.cause_attribution),
            ratio_identity: flat(&self.ratio_identity),
        }
    }
}

/// Per-role call settings: output-token cap and temperature (spec §9 "Token caps", "Temperatures").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CallBudget {
    /// Output-token cap of this role's model call (spec §9 "Token caps").
    pub max_tokens: u32,
    /// Sampling temperature of this role's model call (spec §9 "Temperatures").
    pub temperature: f32,
}

const fn cb(max_tokens: u32, temperature: f32) -> CallBudget {
    CallBudget { max_tokens, temperature }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Budgets {
    pub planner: CallBudget,
    pub narrative_evidence: CallBudget,
    pub tabular_evidence: CallBudget,
    pub visual_evidence: CallBudget,
    pub affirmative: CallBudget,
    pub adversarial: CallBudget,
    pub judge_draft: CallBudget,
    pub entailment: CallBudget,
    pub synthesizer: CallBudget,
    pub correctness_judge: CallBudget,
    /// Evaluation only (paper Table 3 Faith. Rate): one verdict and a sentence, at T = 0.
    pub faithfulness_judge: CallBudget,
    pub hyde: CallBudget,
    /// RAGAS judge roles (evaluation only; `ragas` runs its judge at T = 0).
    pub ragas_statements: CallBudget,
    pub ragas_faithfulness: CallBudget,
    pub ragas_answer_relevancy: CallBudget,
    pub ragas_context_precision: CallBudget,
    pub ragas_context_recall: CallBudget,
    /// Graph-RAG indexing: entities and relations of one chunk (T = 0 like the reference's extractor).
    pub graph_extraction: CallBudget,
    /// The reference sends vision calls with no cap; we cap generously so a runaway answer has a bound.
    pub page_vision: CallBudget,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            planner: cb(1500, 0.0),
            narrative_evidence: cb(800, 0.0),
            tabular_evidence: cb(600, 0.0),
            visual_evidence: cb(500, 0.0),
            affirmative: cb(700, 0.2),
            adversarial: cb(700, 0.2),
            judge_draft: cb(400, 0.0),
            entailment: cb(300, 0.0),
            synthesizer: cb(900, 0.2),
            correctness_judge: cb(300, 0.0),
            faithfulness_judge: cb(300, 0.0),
            hyde: cb(200, 0.3),
            ragas_statements: cb(600, 0.0),
            ragas_faithfulness: cb(1200, 0.0),
            // `ragas` generates its questions at its default temperature; 0 keeps runs replayable.
            ragas_answer_relevancy: cb(200, 0.0),
            ragas_context_precision: cb(300, 0.0),
            ragas_context_recall: cb(1200, 0.0),
            graph_extraction: cb(800, 0.0),
            page_vision: cb(4096, 0.0),
        }
    }
}

/// Model endpoint and names. The API key is deliberately NOT here: settings are exported and
/// imported as TOML, and the key must never reach a file, an export or a log (ARCHITECTURE.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ModelSettings {
    /// OpenAI-compatible endpoint every model call goes to (OpenAI, a gateway, or a local server).
    pub base_url: String,
    /// Model for every text role: planner, evidence agents, debate, judge, entailment, synthesizer.
    pub chat_model: String,
    /// Model for page images (paper §3.2 vision path) and chart crops.
    pub vision_model: String,
    /// Model that embeds documents and questions for dense retrieval (paper §3.4).
    pub embedding_model: String,
    /// Embedding dimensionality to ask the model for (`dimensions` in the embeddings API, sent
    /// only when set). Unset or 0: the model's own size, learnt from its first answer and kept
    /// with the corpus (Ollama's nomic-embed-text 768, bge-m3 1,024, OpenAI's 3,072).
    pub embedding_dimensions: Option<u32>,
    /// Model requests in flight at once to this endpoint, chat and embeddings together. A request
    /// waiting for a slot has not started: its `pipeline.request_timeout_ms` counts from when it is
    /// sent. 0 = automatic: 1 for a server on this machine (localhost, 127.x.x.x, ::1), which
    /// usually answers one request at a time, else 8.
    pub max_concurrent_requests: usize,
}

impl Default for ModelSettings {
    fn default() -> Self {
        ModelSettings {
            base_url: "https://api.openai.com/v1".into(),
            // Paper/README default (spec §0.3 notes the code used gpt-4o-mini).
            chat_model: "gpt-4o".into(),
            vision_model: "gpt-4o".into(),
            embedding_model: "text-embedding-3-large".into(),
            embedding_dimensions: None,
            max_concurrent_requests: 0,
        }
    }
}

impl ModelSettings {
    /// `max_concurrent_requests` with 0 resolved: a local model server (llama.cpp, Ollama, a
    /// node-llama-cpp server) decodes one request at a time, so requests sent beside it only queue
    /// there and time out while they wait (issue 39 item 6); a hosted API serves many at once.
    pub fn effective_max_concurrent_requests(&self) -> usize {
        match self.max_concurrent_requests {
            0 if is_local_url(&self.base_url) => 1,
            0 => 8,
            n => n,
        }
    }
}

/// True when `url`'s host is this machine: `localhost` (or a name under it), 127.0.0.0/8, `::1`.
pub fn is_local_url(url: &str) -> bool {
    let rest = url.trim().split_once("://").map_or(url.trim(), |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::Ipv4Addr>().is_ok_and(|a| a.is_loopback())
        || host.parse::<std::net::Ipv6Addr>().is_ok_and(|a| a.is_loopback())
}

/// USD per 1M tokens (spec §6.5). A model with no entry is "unpriced", never 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PriceEntry {
    /// Model name as sent to the endpoint.
    pub model: String,
    /// USD per million input tokens.
    pub input_per_m: f64,
    /// USD per million output tokens.
    pub output_per_m: f64,
}

fn default_pricing() -> Vec<PriceEntry> {
    let p = |m: &str, i: f64, o: f64| PriceEntry { model: m.into(), input_per_m: i, output_per_m: o };
    vec![
        p("gpt-4o", 2.50, 10.00),
        p("gpt-4o-mini", 0.15, 0.60),
        p("text-embedding-3-large", 0.13, 0.0),
    ]
}

/// Retrieval settings (spec §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RetrievalSettings {
    /// Documents in the planner's wording preview (spec §2.1: 12, no modality filter).
    pub k_preview: usize,
    /// Text passages retrieved per claim for the narrative evidence agent (spec §2.2).
    pub k_narrative: usize,
    /// Table documents retrieved per claim for the tabular evidence agent (spec §2.3).
    pub k_tabular: usize,
    /// Chart documents retrieved per claim for the visual evidence agent (spec §2.4).
    pub k_visual: usize,
    /// Candidate pool = pool_factor · k.
    pub pool_factor: usize,
    /// Weight of the vector score in the blended score (spec §5: 0.65·v + 0.35·ℓ).
    pub dense_weight: f64,
    /// Weight of the lexical-overlap score in the blended score (spec §5).
    pub lexical_weight: f64,
    /// Characters of each planner-preview document shown to the planner.
    pub preview_chars: usize,
    /// Vectors in one modality at which the worker builds an HNSW graph for it in a background
    /// worker (queries are answered exactly until it is swapped in); 0 = never. The default is
    /// where the exact scan's p99 in the browser would pass ≈ 15 ms (docs/retrieval-bench.md).
    pub hnsw_min_vectors: usize,
    /// Milliseconds without a document added or removed before a graph is (re)built.
    pub hnsw_debounce_ms: u64,
    /// At most this many hits from one page in a result list; the next-best documents of the
    /// blended pool fill the freed places (the pool stays pool_factor · k). 0 = no cap, the
    /// reference's behaviour. Not in the paper: one statement page yields a table document plus one
    /// document per row, which otherwise fill a whole top-k with near-copies of one page. 1 (each
    /// hit a different page) ranks the gold page higher on every held-out FinanceBench fold than 2
    /// (docs/retrieval-bench.md, "Held-out folds").
    pub max_hits_per_page: usize,
    /// Hierarchical RAG baseline (Table 2): passages of this many best sections rank first (the
    /// reference's top 2 section summaries).
    pub hierarchical_sections: usize,
    /// A section's score is the mean of its best this-many passage scores in the candidate pool
    /// (missing ones count 0): a section is relevant when several of its passages are.
    pub hierarchical_section_evidence: usize,
    /// Pages per window standing in for a section where a document has no outline or headings
    /// (the reference's 5-page windows).
    pub hierarchical_window_pages: u32,
    /// Graph-RAG baseline (Table 2): final score = (1 − w) · blended score + w · graph score (the
    /// reference's 0.7 / 0.3).
    pub graph_weight: f64,
    /// Relation hops from the question's entities that count as its neighbourhood.
    pub graph_hops: usize,
    /// Community summaries added to the retrieved passages (within k).
    pub graph_communities: usize,
    /// Entities asked for per chunk at indexing (the reference's ≤ 15 per page).
    pub graph_max_entities: usize,
    /// Weight of the static-embedding (semantic) part of an offline query vector, the lexical
    /// part having 1 − this; used only with a corpus embedded with a static table
    /// (`retrieve::static_embed`). Not in the paper: measured on the FinanceBench folds
    /// (docs/retrieval-bench.md), where it adds page hits but costs one fold more than the
    /// lexical embedder alone.
    pub static_weight: f64,
    /// Structural prior: added to the blended score of every document on a primary-statement
    /// page — a page whose first lines carry a balance sheet's, income statement's or cash flow
    /// statement's title and which holds a table — and the nearest document of each such page
    /// joins the candidate pool; 0 = off (the reference). Not in the paper: the statements hold
    /// the line items most numeric questions are answered from, but a statement page is one long
    /// table whose many line items dilute its similarity to any one question and whose short row
    /// documents share few words with it (docs/retrieval-bench.md, "Failure analysis").
    pub statement_prior: f64,
    /// With `statement_prior`: apply it only to statement pages whose heading or column headers
    /// carry a fiscal year the question names (off: measured no better on the held-out folds).
    pub statement_prior_needs_year: bool,
    /// Added on top of `statement_prior` to the documents of a statement page when the question
    /// asks about that statement: names its title, or a line item or ratio computed from it (the
    /// concept list's balance-sheet, income-statement and cash-flow items: "inventory turnover"
    /// asks about the balance sheet and the income statement). 0 = the plain prior. Not in the
    /// paper: a question naming "gross margin" or "DPO" is answered from the statement that
    /// prints its inputs, whose rows share few of the question's words (docs/retrieval-bench.md,
    /// "The matched statement prior").
    pub statement_prior_matched: f64,
    /// With `statement_prior`: the statement pages that join the candidate pool are those among
    /// this many documents on statement pages nearest the question (each page with its nearest);
    /// 0 = every statement page. Not in the paper: it bounds the prior's cost on a large library,
    /// whose statement-page search otherwise returns every flagged row (docs/scale.md); a 10-K has
    /// a few hundred such documents (the 3M 2022 10-K 207), so one filing's search is unchanged.
    pub statement_pool: usize,
}

impl Default for RetrievalSettings {
    fn default() -> Self {
        RetrievalSettings {
            k_preview: 12,
            k_narrative: 8,
            k_tabular: 6,
            k_visual: 5,
            pool_factor: 4,
            dense_weight: 0.65,
            lexical_weight: 0.35,
            preview_chars: 300,
            hnsw_min_vectors: 20_000,
            hnsw_debounce_ms: 2000,
            max_hits_per_page: 1,
            hierarchical_sections: 2,
            hierarchical_section_evidence: 3,
            hierarchical_window_pages: 5,
            graph_weight: 0.3,
            graph_hops: 1,
            graph_communities: 2,
            graph_max_entities: 15,
            static_weight: 0.1,
            statement_prior: 0.02,
            statement_prior_needs_year: false,
            statement_prior_matched: 0.1,
            statement_pool: 512,
        }
    }
}

/// Ingestion settings (spec §4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct IngestSettings {
    /// Target characters per text chunk (spec §4.4; chunks may exceed it by a sentence), and the
    /// most a table document holds: a longer table is searched in parts within it, each under
    /// the table's caption and column headings (its row documents are unchanged).
    pub chunk_target_chars: usize,
    /// Sentences a chunk repeats from the end of the previous one (spec §4.4).
    pub chunk_overlap_sentences: usize,
    /// A page's text is garbled when control characters exceed this share of its non-space characters (spec §4.1).
    pub garbled_share: f64,
    /// Vector drawing paths at which a page carries a chart signal (spec §4.1).
    pub chart_min_paths: usize,
    /// Share of the page an embedded image must cover to count as an image signal (spec §4.1).
    pub image_min_area_share: f64,
    /// Resolution at which a page is rendered for the vision model (spec §4.1).
    pub render_dpi: u32,
    /// Share of equal cells at which two vision passes over a table agree (spec §4.2).
    pub table_agreement_share: f64,
    /// Vision passes over a page's tables before they are kept with low confidence (spec §4.2).
    pub max_table_passes: u32,
    /// Which pages go to the vision model (paper §3.2: the flagged ones). Off by default because
    /// every call is paid and needs an endpoint; `clair ingest --vision flagged` turns it on.
    pub vision_mode: VisionMode,
    /// Cost estimate before a vision run: input tokens one page image costs (gpt-4o high detail at
    /// 768 px on the short side: 85 + 4 tiles × 170).
    pub vision_image_tokens: u64,
    /// Cost estimate: output tokens expected per vision call (prose + tables + charts as JSON).
    pub vision_output_tokens: u64,
    /// Per-page work budget: content-stream operators one page may run, a form XObject's operators
    /// counted every time it is drawn and each byte of shown text as one more. Beyond it the page keeps what was read before and gets a
    /// warning; raise it for a page that really is that dense. The densest page of the corpus runs
    /// ≈ 110,000 (a 10-K's financial statements); two million is read in about a second.
    pub max_page_operators: u64,
    /// Per-page work budget: bytes of decoded content one page may read, its content streams plus
    /// every form XObject each time it is drawn. Beyond it, as for `max_page_operators`. The
    /// corpus' largest page reads ≈ 1 MB.
    pub max_page_content_bytes: u64,
}

/// §4.1: which pages the vision path sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VisionMode {
    /// Native extraction only; flagged pages keep their native documents.
    #[default]
    Off,
    /// The paper's rule: garbled text, a chart signal or an image signal.
    Flagged,
    /// Every non-empty page (expensive; for scans and measurement).
    All,
}

impl VisionMode {
    pub fn parse(s: &str) -> Option<VisionMode> {
        match s {
            "off" => Some(VisionMode::Off),
            "flagged" => Some(VisionMode::Flagged),
            "all" => Some(VisionMode::All),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            VisionMode::Off => "off",
            VisionMode::Flagged => "flagged",
            VisionMode::All => "all",
        }
    }
}

impl Default for IngestSettings {
    fn default() -> Self {
        IngestSettings {
            chunk_target_chars: 1000,
            chunk_overlap_sentences: 2,
            garbled_share: 0.15,
            chart_min_paths: 15,
            image_min_area_share: 0.05,
            render_dpi: 300,
            table_agreement_share: 0.8,
            max_table_passes: 3,
            vision_mode: VisionMode::Off,
            vision_image_tokens: 765,
            vision_output_tokens: 1200,
            max_page_operators: 2_000_000,
            max_page_content_bytes: 64 << 20,
        }
    }
}

/// Orchestration, debate, custody, audit and risk settings (spec §1.7, §2, §13).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PipelineSettings {
    /// Paper: 1–8 claims (the reference code allows 12).
    pub max_claims: usize,
    /// Escalate to debate when coverage A(c) is below this (paper §3.5).
    pub fast_path_threshold: f64,
    /// ρmax, rebuttal rounds per claim (paper §3.6).
    pub max_debate_rounds: u32,
    /// Custody repairs per claim (spec §2.7).
    pub max_repair_attempts: u32,
    /// CoCV grounding bar (entails ∧ γ ≥ this).
    pub custody_threshold: f64,
    /// Terminal audit bar.
    pub entailment_threshold: f64,
    /// s(c) at or above which a passed claim is StronglySupported.
    pub strong_support_threshold: f64,
    /// HRI weights (paper §3.8): γ, s, repair, high-severity attacks; attacks saturate at `hri_attack_saturation`.
    pub hri_weights: [f64; 4],
    /// High-severity attacks at which the HRI's attack term saturates (paper §3.8, spec §6.4).
    pub hri_attack_saturation: u32,
    /// Claims processed concurrently; they are independent by design (the reference runs them one by one).
    pub claim_concurrency: usize,
    /// Cap on model calls per question; 0 = derived from these settings (`Settings::call_cap`):
    /// max_claims × the worst case of one claim + planner + synthesizer, so under default settings
    /// the cap never decides an outcome. A lower cap is shared out per claim, in claim order, before
    /// the claims run (`LlmClient::reserve_for_claims`), so which claims still get calls does not
    /// depend on network timing. (The reference declares 40 but never enforces it, spec §0.2.)
    pub max_llm_calls: u32,
    /// Retries of a failed model call (429/5xx/timeout) before the role's conservative default.
    pub max_retries: u32,
    /// First back-off before retrying a failed model call; doubles with every retry.
    pub retry_base_ms: u64,
    /// A model call that has not answered within this many milliseconds fails (and is retried).
    pub request_timeout_ms: u64,
    /// Two figures for one metric and period conflict (a CONTRADICTS edge, and the claim goes to
    /// debate whatever its coverage, paper §3.5) when they differ by more than their printed
    /// rounding plus this share of the larger. Scales are read first: "$1.2 billion" and "1,200"
    /// in millions are one figure. Not in the paper, which names the rule but no tolerance.
    pub conflict_tolerance: f64,
    /// A ratio computed from two cited figures meets a RATIO_IDENTITY claim's stated value when
    /// they differ by no more than the stated figure's printed rounding plus this share (paper
    /// §3.5 constraint node). Not in the paper.
    pub ratio_tolerance: f64,
    /// When an answer is cut off at its output-token cap (`finish_reason = length`), the one retry
    /// asks for a brief answer with the role's cap (`budgets.<role>.max_tokens`) times this; a
    /// second cut-off answer takes the role's conservative default. At least 1.
    pub length_retry_factor: f64,
    /// Planned claims whose normalised words (case, punctuation, number formatting) overlap at
    /// least this much (Jaccard: shared words / all words) are one claim, verified once; claims
    /// that state different numbers or years are never merged. 1 merges only claims whose words
    /// are the same.
    pub claim_merge_similarity: f64,
}

impl Default for PipelineSettings {
    fn default() -> Self {
        PipelineSettings {
            max_claims: 8,
            fast_path_threshold: 0.75,
            max_debate_rounds: 2,
            max_repair_attempts: 1,
            custody_threshold: 0.5,
            entailment_threshold: 0.5,
            strong_support_threshold: 0.5,
            hri_weights: [0.40, 0.25, 0.20, 0.15],
            hri_attack_saturation: 3,
            claim_concurrency: 4,
            max_llm_calls: 0,
            max_retries: 3,
            retry_base_ms: 500,
            request_timeout_ms: 60_000,
            conflict_tolerance: 0.005,
            ratio_tolerance: 0.005,
            length_retry_factor: 2.0,
            claim_merge_similarity: 0.8,
        }
    }
}

/// Ablations and baselines as settings (paper §6; issue "pipeline" item 4).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Ablations {
    /// w/o AEA ("uniform weighting", paper App. A.1): equal weights where AEA decides between
    /// modalities — the Judge-Auditor's authority argmax m*, s(c), its evidence order and the
    /// docket. Coverage A(c) and escalation keep the weight table (`Settings::authority_weights`).
    pub no_aea: bool,
    /// w/o CoCV: no custody check between affirmative and adversarial.
    pub no_cocv: bool,
    /// w/o ARC (paper App. A.1: "routing every escalated claim to audit after one draft"): one
    /// affirmative draft (custody-checked), no adversarial call, no rebuttal, no adversarial veto.
    pub no_arc: bool,
    /// w/o terminal audit: the judge's draft is published without the entailment call.
    pub no_terminal_audit: bool,
    /// Vanilla single-pass RAG: retrieve for the question, one answer call, no ledger checks.
    pub vanilla_rag: bool,
    /// HyDE: dense search uses a hypothetical passage; lexical term still from the query.
    pub hyde: bool,
    /// Fixed-round debate: always ρmax rebuttal rounds regardless of findings.
    pub fixed_rounds: bool,
    /// Hierarchical RAG (Table 2): single-pass like vanilla RAG, retrieval ranks sections, then
    /// passages within the best sections (`retrieve::hierarchical`).
    pub hierarchical_rag: bool,
    /// Graph-RAG (Table 2): single-pass like vanilla RAG, retrieval from the question's entity
    /// neighbourhood plus community summaries (`retrieve::graph_rag`).
    pub graph_rag: bool,
}

impl Ablations {
    /// The single-pass retrieve-then-answer baselines share one path (`pipeline::vanilla_rag`);
    /// only their retrieval differs.
    pub fn single_pass(&self) -> bool {
        self.vanilla_rag || self.hierarchical_rag || self.graph_rag
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub models: ModelSettings,
    pub pipeline: PipelineSettings,
    pub retrieval: RetrievalSettings,
    pub ingest: IngestSettings,
    pub budgets: Budgets,
    pub weights: AuthorityWeights,
    pub ablations: Ablations,
    /// USD per million tokens per model, for the cost shown with each run (spec §6.5); a model
    /// without an entry is reported as unpriced, never as free.
    pub pricing: Vec<PriceEntry>,
    /// RAGAS scoring in the evaluation harness (`eval::ragas`).
    pub ragas: RagasSettings,
}

/// RAGAS's own numbers (paper Table 2 used the `ragas` defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RagasSettings {
    /// Questions generated from the answer for answer relevancy (ragas's `strictness`, 3).
    pub relevancy_questions: usize,
}

impl Default for RagasSettings {
    fn default() -> Self {
        RagasSettings { relevancy_questions: 3 }
    }
}

impl Settings {
    /// Paper defaults, with the pricing table filled in.
    pub fn paper() -> Settings {
        Settings { pricing: default_pricing(), ..Default::default() }
    }

    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_else(|e| format!("# settings could not be written: {e}\n"))
    }

    /// Parse a settings file. Missing sections take the paper defaults; unknown keys are an error.
    pub fn from_toml(s: &str) -> Result<Settings, String> {
        let mut v: Settings = toml::from_str(s).map_err(|e| format!("settings file is not valid: {e}"))?;
        if v.pricing.is_empty() {
            v.pricing = default_pricing();
        }
        v.validate()?;
        Ok(v)
    }

    /// Weights for coverage A(c) and escalation (paper §3.5): the weight table in every
    /// configuration. The w/o-AEA ablation does not touch them (see `authority_weights`).
    pub fn effective_weights(&self) -> AuthorityWeights {
        self.weights.clone()
    }

    /// Weights where AEA decides between modalities (paper §3.8: m*, s(c), the judge's evidence
    /// order, the docket): equal weights under the w/o-AEA ablation ("uniform weighting", App. A.1).
    pub fn authority_weights(&self) -> AuthorityWeights {
        if self.ablations.no_aea {
            self.weights.uniform()
        } else {
            self.weights.clone()
        }
    }

    /// Model calls one claim can make at most (spec §0.2): three evidence agents (+ HyDE), then the
    /// debate — 1 + ρmax + repairs affirmative briefs, a custody check after each, 1 + ρmax
    /// adversarial reviews — then the judge's draft and its entailment.
    pub fn worst_calls_per_claim(&self) -> u32 {
        let p = &self.pipeline;
        let briefs = 1 + p.max_debate_rounds + p.max_repair_attempts;
        3 + self.ablations.hyde as u32 + briefs + briefs + (1 + p.max_debate_rounds) + 2
    }

    /// The per-question call cap in force: `pipeline.max_llm_calls`, or when that is 0,
    /// max_claims × `worst_calls_per_claim` + planner + synthesizer (+ the planner's HyDE call).
    /// Paper defaults: 8 × 16 + 2 = 130.
    pub fn call_cap(&self) -> u32 {
        match self.pipeline.max_llm_calls {
            0 => (self.pipeline.max_claims as u32).saturating_mul(self.worst_calls_per_claim()).saturating_add(2 + self.ablations.hyde as u32),
            n => n,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        let p = &self.pipeline;
        if p.max_claims == 0 {
            return Err("pipeline.max_claims must be at least 1".into());
        }
        for (name, v) in [
            ("pipeline.fast_path_threshold", p.fast_path_threshold),
            ("pipeline.custody_threshold", p.custody_threshold),
            ("pipeline.entailment_threshold", p.entailment_threshold),
            ("pipeline.strong_support_threshold", p.strong_support_threshold),
            ("pipeline.conflict_tolerance", p.conflict_tolerance),
            ("pipeline.ratio_tolerance", p.ratio_tolerance),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("{name} must be between 0 and 1 (got {v})"));
            }
        }
        if p.claim_concurrency == 0 {
            return Err("pipeline.claim_concurrency must be at least 1".into());
        }
        if !(p.length_retry_factor >= 1.0 && p.length_retry_factor <= 16.0) {
            return Err(format!("pipeline.length_retry_factor must be between 1 and 16 (got {})", p.length_retry_factor));
        }
        if !(p.claim_merge_similarity > 0.0 && p.claim_merge_similarity <= 1.0) {
            return Err(format!("pipeline.claim_merge_similarity must be above 0 and at most 1 (got {})", p.claim_merge_similarity));
        }
        let r = &self.retrieval;
        if r.pool_factor == 0 {
            return Err("retrieval.pool_factor must be at least 1".into());
        }
        if r.hierarchical_sections == 0 || r.hierarchical_section_evidence == 0 || r.hierarchical_window_pages == 0 {
            return Err("retrieval.hierarchical_sections, hierarchical_section_evidence and hierarchical_window_pages must be at least 1".into());
        }
        if self.ragas.relevancy_questions == 0 {
            return Err("ragas.relevancy_questions must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&r.statement_prior) {
            return Err(format!("retrieval.statement_prior must be between 0 and 1 (got {})", r.statement_prior));
        }
        if !(0.0..=1.0).contains(&r.statement_prior_matched) {
            return Err(format!("retrieval.statement_prior_matched must be between 0 and 1 (got {})", r.statement_prior_matched));
        }
        if !(0.0..=1.0).contains(&r.static_weight) {
            return Err(format!("retrieval.static_weight must be between 0 and 1 (got {})", r.static_weight));
        }
        if !(0.0..=1.0).contains(&r.graph_weight) {
            return Err(format!("retrieval.graph_weight must be between 0 and 1 (got {})", r.graph_weight));
        }
        Ok(())
    }

    /// USD cost of a call, or None when the model is unpriced (spec §6.5: exact key, else the longest
    /// key K such that the model name starts with `K-`, which covers dated snapshots).
    pub fn price(&self, model: &str, input_tokens: u64, output_tokens: u64) -> Option<f64> {
        let entry = self.pricing.iter().find(|e| e.model == model).or_else(|| {
            self.pricing
                .iter()
                .filter(|e| model.starts_with(&format!("{}-", e.model)))
                .max_by_key(|e| e.model.len())
        })?;
        Some((input_tokens as f64 * entry.input_per_m + output_tokens as f64 * entry.output_per_m) / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_defaults_round_trip_through_toml() {
        let s = Settings::paper();
        let t = s.to_toml();
        let back = Settings::from_toml(&t).expect("round trip");
        assert_eq!(s, back);
        assert!(t.contains("fast_path_threshold = 0.75"));
    }

    #[test]
    fn unknown_settings_key_is_rejected_with_its_name() {
        let err = Settings::from_toml("[pipeline]\nfast_path_treshold = 0.5\n").unwrap_err();
        assert!(err.contains("fast_path_treshold"), "{err}");
    }

    #[test]
    fn partial_settings_file_keeps_paper_defaults() {
        let s = Settings::from_toml("[pipeline]\nmax_debate_rounds = 3\n").unwrap();
        assert_eq!(s.pipeline.max_debate_rounds, 3);
        assert_eq!(s.pipeline.fast_path_threshold, 0.75);
        assert_eq!(s.pricing.len(), 3);
    }

    #[test]
    fn dated_snapshot_is_priced_and_unknown_model_is_unpriced() {
        let s = Settings::paper();
        let c = s.price("gpt-4o-mini-2024-07-18", 1_000_000, 1_000_000).unwrap();
        assert!((c - 0.75).abs() < 1e-9, "{c}");
        let c = s.price("gpt-4o-2024-08-06", 1_000_000, 0).unwrap();
        assert!((c - 2.50).abs() < 1e-9);
        assert_eq!(s.price("llama3:8b", 10, 10), None);
    }

    #[test]
    fn automatic_request_limit_is_one_for_a_server_on_this_machine() {
        let limit = |url: &str| ModelSettings { base_url: url.into(), ..Default::default() }.effective_max_concurrent_requests();
        for local in ["http://localhost:8080/v1", "http://127.0.0.1:11434/v1", "http://[::1]:8000/v1", "http://LOCALHOST/v1", "http://user@127.0.0.2:1/v1"] {
            assert_eq!(limit(local), 1, "{local}");
        }
        for remote in ["https://api.openai.com/v1", "http://10.0.0.5:8080/v1", "https://localhost.example.com/v1", "https://127.example.org/v1"] {
            assert_eq!(limit(remote), 8, "{remote}");
        }
        let set = ModelSettings { base_url: "http://localhost:8080/v1".into(), max_concurrent_requests: 3, ..Default::default() };
        assert_eq!(set.effective_max_concurrent_requests(), 3, "an explicit limit wins");
    }

    #[test]
    fn robustness_settings_are_validated() {
        assert!(Settings::from_toml("[pipeline]\nlength_retry_factor = 0.5\n").unwrap_err().contains("length_retry_factor"));
        assert!(Settings::from_toml("[pipeline]\nclaim_merge_similarity = 0.0\n").unwrap_err().contains("claim_merge_similarity"));
        let s = Settings::from_toml("[models]\nmax_concurrent_requests = 2\n[pipeline]\nlength_retry_factor = 3.0\n").unwrap();
        assert_eq!((s.models.max_concurrent_requests, s.pipeline.length_retry_factor), (2, 3.0));
    }

    #[test]
    fn weights_in_basis_points_are_exact() {
        let w = AuthorityWeights::default();
        assert_eq!(w.bp(ClaimType::CauseAttribution, Modality::Text), Some(7500));
        assert_eq!(w.bp(ClaimType::CauseAttribution, Modality::Chart), None);
    }

    #[test]
    fn default_call_cap_covers_the_worst_case_of_every_claim() {
        let s = Settings::paper();
        // 3 evidence + 4 briefs + 4 custody checks + 3 reviews + draft + entailment = 16 per claim.
        assert_eq!(s.worst_calls_per_claim(), 16);
        assert_eq!(s.call_cap(), 8 * 16 + 2);
        let mut s = s;
        s.pipeline.max_llm_calls = 12;
        assert_eq!(s.call_cap(), 12, "a user-set cap is kept");
    }

    #[test]
    fn without_aea_only_the_authority_decision_is_uniform() {
        let mut s = Settings::paper();
        s.ablations.no_aea = true;
        assert_eq!(s.effective_weights(), AuthorityWeights::default(), "coverage keeps the table");
        assert_eq!(s.authority_weights().bp(ClaimType::FactNumeric, Modality::Table), Some(2500));
    }
}
