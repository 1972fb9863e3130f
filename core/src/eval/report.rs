//! The evaluation report: configurations side by side like the paper's Tables 2–3, the outcome
//! distribution (Table 7), HRI calibration, retrieval (Table 8), cost and latency, breakdowns by
//! query type / format / difficulty (Tables 10–11), and the SVG figures. Pure: returns
//! `(relative path, contents)` pairs; the shell writes them.
//!
//! Table 2 carries RAGAS's four scores (`eval::ragas`: faithfulness, answer relevancy, context
//! precision and recall, means over the questions that have each) and names the embedder behind
//! answer relevancy; the page-level retrieval metrics are their own table.

use crate::export::csv_field;
use crate::eval::metrics::{aggregate, breakdowns, Aggregate, Breakdown};
use crate::eval::outcome::{Outcome, QuestionResult};
use crate::eval::plot;
use crate::eval::ragas::{self, RagasAggregate};
use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "clair-fin/eval@1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigReport {
    pub name: String,
    /// What the configuration changes (e.g. "w/o CoCV", or the settings file).
    pub description: String,
    pub aggregate: Aggregate,
    pub breakdowns: Vec<Breakdown>,
    /// Table 2: RAGAS means over the configuration's scored questions.
    #[serde(default)]
    pub ragas: RagasAggregate,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub schema: String,
    pub dataset: String,
    /// Retrieval cutoff.
    pub k: usize,
    /// Questions attempted per configuration.
    pub questions: usize,
    pub configs: Vec<ConfigReport>,
    /// Embedder(s) behind answer relevancy, as the scores name them (empty when none was scored).
    #[serde(default)]
    pub embedder: String,
}

/// Aggregate every configuration (`(name, description)`, in table order) over its results.
pub fn summarize(dataset: &str, k: usize, configs: &[(String, String)], results: &[QuestionResult]) -> Summary {
    let mut questions = 0;
    let reports = configs
        .iter()
        .map(|(name, description)| {
            let rs: Vec<&QuestionResult> = results.iter().filter(|r| &r.config == name).collect();
            questions = questions.max(rs.len());
            let ragas = ragas::aggregate(rs.iter().filter_map(|r| r.ragas.as_ref()));
            ConfigReport { name: name.clone(), description: description.clone(), aggregate: aggregate(&rs, k), breakdowns: breakdowns(&rs, k), ragas }
        })
        .collect();
    let mut embedders: Vec<&str> = results.iter().filter_map(|r| r.ragas.as_ref()).map(|g| g.embedder.as_str()).filter(|e| !e.is_empty()).collect();
    embedders.sort_unstable();
    embedders.dedup();
    Summary { schema: SCHEMA.into(), dataset: dataset.into(), k, questions, configs: reports, embedder: embedders.join(", ") }
}

/// `0.783`, or `–` when undefined.
pub fn f3(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "–".into())
}

fn signed(v: Option<f64>) -> String {
    v.map(|x| format!("{x:+.3}")).unwrap_or_else(|| "–".into())
}

fn pct(n: usize, total: usize) -> String {
    if total == 0 {
        "–".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / total as f64)
    }
}

/// A name usable in a file name.
pub fn slug(s: &str) -> String {
    let s: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c.to_ascii_lowercase() } else { '-' }).collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() {
        "x".into()
    } else {
        s
    }
}

fn table(out: &mut String, header: &[&str], rows: Vec<Vec<String>>) {
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    out.push_str(&format!("|{}\n", header.iter().map(|_| " --- |").collect::<String>()));
    for r in rows {
        let cells: Vec<String> = r.into_iter().map(|c| c.replace('|', "\\|").replace('\n', " ")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push('\n');
}

/// What each Table 3 column means, in one sentence each (also shown by the Evaluate view).
pub const TABLE3_LEGEND: &str = "Faith. Rate: published claims the faithfulness judge (the harness's own check, the same in every configuration) finds supported by the evidence they cite / published claims it judged. Audit pass: claims passing the pipeline's own terminal audit / all claims (– without that audit). Exact Corr.: correct / scored questions. Cov.: non-abstained / scored questions. Deb. Util.: escalated claims debated / all claims (– for w/o ARC and vanilla RAG). AEA Imp.: docket decisions the asymmetric weights changed / decisions (– for w/o AEA). Claim pass: audit-passed / all claims of answered questions (the reference script's \"faithfulness\", spec §8.5). Sel. Acc.: correct / non-abstained. Failed: runs a model failure decided (no outcome, retried on resume), never counted as abstained.";

/// The paper's Table 3, one row per configuration: the Markdown report and the Evaluate view both
/// draw this, so they show the same table.
pub fn table3(s: &Summary) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let header = vec!["Configuration", "Faith. Rate", "Exact Corr.", "Cov.", "Deb. Util.", "AEA Imp.", "Audit pass", "Claim pass", "Sel. Acc.", "Failed", "faithful/judged/published/claims"];
    let rows = s
        .configs
        .iter()
        .map(|c| {
            let a = &c.aggregate;
            vec![
                c.name.clone(),
                f3(a.faithfulness_rate),
                f3(a.exact_correctness),
                f3(a.coverage),
                f3(a.debate_utilization),
                f3(a.aea_impact),
                f3(a.audit_pass_rate),
                f3(a.claim_pass_rate),
                f3(a.selective_accuracy),
                a.failed.to_string(),
                format!("{}/{}/{}/{}", a.faithful_claims, a.measured_claims, a.published_claims, a.claims),
            ]
        })
        .collect();
    (header, rows)
}

/// The Markdown report; `plots` are the SVG file names to link.
pub fn markdown(s: &Summary, plots: &[(String, String)]) -> String {
    let mut o = format!("# CLAIR-Fin evaluation: {}\n\n", s.dataset);
    o.push_str(&format!(
        "{} question(s) per configuration, {} configuration(s), retrieval cutoff k = {}. `–` marks a metric that is undefined for that configuration (empty denominator or constant series), never a zero.\n\n",
        s.questions,
        s.configs.len(),
        s.k
    ));

    o.push_str("## Answer outcomes (Table 7, row 1)\n\n");
    let rows = s
        .configs
        .iter()
        .map(|c| {
            let a = &c.aggregate;
            let mut r = vec![c.name.clone(), a.n.to_string()];
            for out in Outcome::ALL {
                r.push(format!("{} ({})", a.outcomes.get(out), pct(a.outcomes.get(out), a.n)));
            }
            r.push(a.failed.to_string());
            r
        })
        .collect();
    table(&mut o, &["Configuration", "n", "Correct", "Partial", "Incorrect", "Abstained", "Failed runs"], rows);

    o.push_str("## RAGAS (Table 2)\n\n");
    o.push_str(&format!(
        "RAGAS 0.4.3's definitions over the question, the answer without citation markers or abstention sentences, the top-{} documents the configuration's own retrieval finds for the raw question (HyDE: with the hypothetical passage its run wrote; Hierarchical RAG and Graph-RAG: their retrieval), and the gold answer. Faith.: answer statements the contexts support. Ans. Rel.: mean cosine between the question and questions generated from the answer (0 if all noncommittal), embedder: {}. Ctx. Prec.: average precision of per-context relevance verdicts in rank order. Ctx. Recall: gold-answer statements attributable to the contexts. n: questions scored.\n\n",
        s.k,
        if s.embedder.is_empty() { "none (not scored)" } else { s.embedder.as_str() }
    ));
    let rows = s
        .configs
        .iter()
        .map(|c| {
            let g = &c.ragas;
            vec![c.name.clone(), g.n.to_string(), f3(g.faithfulness), f3(g.answer_relevancy), f3(g.context_precision), f3(g.context_recall)]
        })
        .collect();
    table(&mut o, &["Configuration", "n", "Faith.", "Ans. Rel.", "Ctx. Prec.", "Ctx. Recall"], rows);

    o.push_str("## CLAIR-Fin metrics (Table 3)\n\n");
    o.push_str(TABLE3_LEGEND);
    o.push_str("\n\n");
    let (header, rows) = table3(s);
    table(&mut o, &header, rows);

    o.push_str(&format!("## Retrieval (Table 2 / Table 8)\n\nPages of the top-{} documents retrieved for the raw question against the gold evidence pages; questions without gold pages are not scored.\n\n", s.k));
    let k = s.k;
    let rows = s
        .configs
        .iter()
        .map(|c| {
            let r = &c.aggregate.retrieval;
            vec![c.name.clone(), r.n.to_string(), f3(r.hit_at_k), f3(r.mrr), f3(r.recall_at_k)]
        })
        .collect();
    table(&mut o, &["Configuration", "n", format!("Hit@{k}").as_str(), "MRR", format!("Recall@{k}").as_str()], rows);

    o.push_str("## HRI calibration (Table 7, row 5)\n\nOver answered questions with an HRI (max over audited claims). Calibrated: r(HRI, correct) < 0, r(HRI, incorrect) > 0, AUROC > 0.5. The paper reports the first (−0.072); the reference script computes the second.\n\n");
    let rows = s
        .configs
        .iter()
        .map(|c| {
            let h = &c.aggregate.hri;
            vec![c.name.clone(), h.n.to_string(), f3(h.mean_max_hri), signed(h.pearson_with_correct), signed(h.pearson_with_incorrect), f3(h.auroc_incorrect)]
        })
        .collect();
    table(&mut o, &["Configuration", "n", "mean max HRI", "r(HRI, correct)", "r(HRI, incorrect)", "AUROC(incorrect)"], rows);
    for c in &s.configs {
        if c.aggregate.hri.bins.is_empty() {
            continue;
        }
        o.push_str(&format!("HRI bins, {}:\n\n", c.name));
        let rows = c.aggregate.hri.bins.iter().map(|b| vec![format!("{:.1}–{:.1}", b.lo, b.hi), b.n.to_string(), format!("{:.3}", b.mean_hri), format!("{:.3}", b.incorrect_rate), format!("{:.3}", b.correct_rate)]).collect();
        table(&mut o, &["HRI bin", "n", "mean HRI", "incorrect rate", "correct rate"], rows);
    }

    o.push_str("## Cost and latency\n\nRun: the pipeline's own model calls. Eval: correctness judge and faithfulness judge. Latency: wall time of each run.\n\n");
    let rows = s
        .configs
        .iter()
        .map(|c| {
            let k = &c.aggregate.cost;
            let secs = |v: Option<f64>| v.map(|x| format!("{:.2}", x / 1000.0)).unwrap_or_else(|| "–".into());
            vec![
                c.name.clone(),
                k.run_calls.to_string(),
                k.run_failed_calls.to_string(),
                format!("{} / {}", k.run_input_tokens, k.run_output_tokens),
                format!("{:.4}", k.run_cost_usd),
                k.eval_calls.to_string(),
                format!("{:.4}", k.eval_cost_usd),
                format!("{:.1}", k.latency_total_ms / 1000.0),
                secs(k.latency_mean_ms),
                secs(k.latency_p50_ms),
                secs(k.latency_p95_ms),
                if k.unpriced_models.is_empty() { "–".into() } else { k.unpriced_models.join(", ") },
            ]
        })
        .collect();
    table(
        &mut o,
        &["Configuration", "Run calls", "Failed calls", "Tokens in / out", "Run $", "Eval calls", "Eval $", "Total s", "Mean s", "p50 s", "p95 s", "Unpriced models"],
        rows,
    );

    for c in &s.configs {
        for b in &c.breakdowns {
            o.push_str(&format!("## {} by {}\n\n", c.name, b.dimension.title()));
            let rows = b
                .groups
                .iter()
                .map(|(g, a)| {
                    vec![
                        g.clone(),
                        a.n.to_string(),
                        format!("{}/{}/{}/{}", a.outcomes.correct, a.outcomes.partial, a.outcomes.incorrect, a.outcomes.abstained),
                        f3(a.exact_correctness),
                        f3(a.coverage),
                        f3(a.faithfulness_rate),
                        f3(a.debate_utilization),
                        f3(a.retrieval.hit_at_k),
                    ]
                })
                .collect();
            table(&mut o, &[b.dimension.title(), "n", "C/P/I/A", "Exact Corr.", "Cov.", "Faith. Rate", "Deb. Util.", format!("Hit@{}", s.k).as_str()], rows);
        }
    }

    if !plots.is_empty() {
        o.push_str("## Figures\n\n");
        for (file, caption) in plots {
            o.push_str(&format!("![{caption}]({file})\n\n"));
        }
    }
    o.push_str("## Configurations\n\n");
    for c in &s.configs {
        o.push_str(&format!("- **{}**: {}\n", c.name, c.description));
    }
    o
}


fn opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.6}")).unwrap_or_default()
}

/// One row per configuration; undefined metrics are empty cells.
pub fn summary_csv(s: &Summary) -> String {
    let mut o = String::from("config,n,failed,correct,partial,incorrect,abstained,exact_correctness,coverage,selective_accuracy,faithfulness_rate,audit_pass_rate,claim_pass_rate,debate_utilization,aea_impact,hri_n,hri_pearson_correct,hri_pearson_incorrect,hri_auroc_incorrect,retrieval_n,hit_at_k,mrr,recall_at_k,ragas_n,ragas_faithfulness,ragas_answer_relevancy,ragas_context_precision,ragas_context_recall,run_calls,run_cost_usd,eval_calls,eval_cost_usd,latency_total_ms,latency_mean_ms\n");
    for c in &s.configs {
        let a = &c.aggregate;
        let row = [
            csv_field(&c.name),
            a.n.to_string(),
            a.failed.to_string(),
            a.outcomes.correct.to_string(),
            a.outcomes.partial.to_string(),
            a.outcomes.incorrect.to_string(),
            a.outcomes.abstained.to_string(),
            opt(a.exact_correctness),
            opt(a.coverage),
            opt(a.selective_accuracy),
            opt(a.faithfulness_rate),
            opt(a.audit_pass_rate),
            opt(a.claim_pass_rate),
            opt(a.debate_utilization),
            opt(a.aea_impact),
            a.hri.n.to_string(),
            opt(a.hri.pearson_with_correct),
            opt(a.hri.pearson_with_incorrect),
            opt(a.hri.auroc_incorrect),
            a.retrieval.n.to_string(),
            opt(a.retrieval.hit_at_k),
            opt(a.retrieval.mrr),
            opt(a.retrieval.recall_at_k),
            c.ragas.n.to_string(),
            opt(c.ragas.faithfulness),
            opt(c.ragas.answer_relevancy),
            opt(c.ragas.context_precision),
            opt(c.ragas.context_recall),
            a.cost.run_calls.to_string(),
            format!("{:.6}", a.cost.run_cost_usd),
            a.cost.eval_calls.to_string(),
            format!("{:.6}", a.cost.eval_cost_usd),
            format!("{:.1}", a.cost.latency_total_ms),
            opt(a.cost.latency_mean_ms),
        ];
        o.push_str(&row.join(","));
        o.push('\n');
    }
    o
}

/// One row per (configuration, question).
pub fn results_csv(results: &[QuestionResult], k: usize) -> String {
    let mut o = String::from("config,item_id,doc,query_type,format,difficulty,outcome,error,claims,published_claims,faithful_claims,debated_claims,max_hri,docket_decisions,docket_changed,gold_pages,retrieved_pages,hit_at_k,reciprocal_rank,ragas_faithfulness,ragas_answer_relevancy,ragas_context_precision,ragas_context_recall,run_calls,run_cost_usd,eval_calls,latency_ms,question,answer,judge_rationale\n");
    for r in results {
        let pages = |p: &[u32]| p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
        let ret = crate::eval::metrics::page_retrieval(&r.retrieved_pages, &r.gold_pages, k);
        let row = [
            csv_field(&r.config),
            csv_field(&r.item_id),
            csv_field(r.doc.as_deref().unwrap_or("")),
            csv_field(r.query_type.as_deref().unwrap_or("")),
            csv_field(r.format.as_deref().unwrap_or("")),
            csv_field(r.difficulty.as_deref().unwrap_or("")),
            r.outcome.map(|o| o.as_str()).unwrap_or("").to_string(),
            csv_field(r.error.as_deref().unwrap_or("")),
            r.claims.len().to_string(),
            r.claims.iter().filter(|c| c.published).count().to_string(),
            r.claims.iter().filter(|c| c.faithful == Some(true)).count().to_string(),
            r.claims.iter().filter(|c| c.escalated).count().to_string(),
            r.max_hri().map(|h| format!("{h:.3}")).unwrap_or_default(),
            r.docket_decisions.to_string(),
            r.docket_changed.to_string(),
            pages(&r.gold_pages),
            pages(&r.retrieved_pages[..r.retrieved_pages.len().min(k)]),
            ret.map(|x| (x.0 as u8).to_string()).unwrap_or_default(),
            ret.map(|x| format!("{:.4}", x.1)).unwrap_or_default(),
            opt(r.ragas.as_ref().and_then(|g| g.faithfulness)),
            opt(r.ragas.as_ref().and_then(|g| g.answer_relevancy)),
            opt(r.ragas.as_ref().and_then(|g| g.context_precision)),
            opt(r.ragas.as_ref().and_then(|g| g.context_recall)),
            r.run_totals.calls.to_string(),
            format!("{:.6}", r.run_totals.cost_usd),
            r.eval_totals.calls.to_string(),
            format!("{:.1}", r.latency_ms),
            csv_field(&r.question),
            csv_field(&r.answer),
            csv_field(&r.judge_rationale),
        ];
        o.push_str(&row.join(","));
        o.push('\n');
    }
    o
}

/// Every report file: `report.md`, `summary.json`, `summary.csv`, `results.csv`, `plots/*.svg`.
pub fn files(s: &Summary, results: &[QuestionResult]) -> Vec<(String, String)> {
    let mut plots: Vec<(String, String, String)> = vec![];
    if s.configs.len() > 1 {
        let groups = s.configs.iter().map(|c| (c.name.clone(), c.aggregate.outcomes.clone())).collect::<Vec<_>>();
        plots.push(("plots/outcomes-by-config.svg".into(), "Outcomes by configuration".into(), plot::outcome_bars("Outcomes by configuration", &groups)));
    }
    for c in &s.configs {
        let name = slug(&c.name);
        for b in &c.breakdowns {
            let title = format!("Outcomes by {} — {}", b.dimension.title(), c.name);
            let groups = b.groups.iter().map(|(g, a)| (g.clone(), a.outcomes.clone())).collect::<Vec<_>>();
            plots.push((format!("plots/outcomes-{name}-by-{}.svg", b.dimension.slug()), title.clone(), plot::outcome_bars(&title, &groups)));
        }
        if c.breakdowns.is_empty() {
            let title = format!("Outcomes — {}", c.name);
            plots.push((format!("plots/outcomes-{name}.svg"), title.clone(), plot::outcome_bars(&title, &[(c.name.clone(), c.aggregate.outcomes.clone())])));
        }
        let title = format!("HRI reliability — {}", c.name);
        plots.push((format!("plots/reliability-{name}.svg"), title.clone(), plot::reliability(&title, &c.aggregate.hri.bins)));
    }
    let links: Vec<(String, String)> = plots.iter().map(|(f, t, _)| (f.clone(), t.clone())).collect();
    let mut out = vec![
        ("report.md".to_string(), markdown(s, &links)),
        ("summary.json".to_string(), serde_json::to_string_pretty(s).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))),
        ("summary.csv".to_string(), summary_csv(s)),
        ("results.csv".to_string(), results_csv(results, s.k)),
    ];
    out.extend(plots.into_iter().map(|(f, _, svg)| (f, svg)));
    out
}
