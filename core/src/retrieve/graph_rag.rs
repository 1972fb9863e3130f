//! The Graph-RAG baseline of paper Table 2: an entity graph extracted by the model at indexing,
//! searched from the question's entities at query time.
//!
//! **Indexing.** Each chunk (text chunks and whole tables; not table rows, which repeat their
//! table) goes once through the `graph_extraction` role: its entities and the relations between
//! them. Answers are kept in a `GraphCache` per file, keyed by the chunk's text, like vision
//! answers (`ingest::vision::VisionCache`), so a second build of the same file costs nothing;
//! `estimate` gives the cost of the chunks not yet cached before any call is made.
//!
//! **Graph.** Nodes are entities (lower-cased, whitespace collapsed); a chunk links to the entities
//! extracted from it; relations link entities. Communities are found by label propagation over the
//! relation edges (deterministic: nodes in name order, ties to the smallest label). A community's
//! summary is written from its relations without another model call: its entities, then its most
//! frequent relations as "subject — predicate — object" (GraphRAG's community reports are model
//! written; ours are their extractive skeleton, which keeps the baseline's cost at indexing only).
//!
//! **Query.** The question's entities are the graph's entities named in it (whole words); when it
//! names none, those of the best three chunks of dense search stand in. The
//! neighbourhood is those entities plus everything within `graph_hops` relation hops. A chunk's
//! graph score is the share of the neighbourhood it mentions (question entities count 1, neighbours
//! ½, normalised to [0, 1]); the final score is (1 − w)·blended + w·graph over the blended pool and
//! the neighbourhood's chunks (the reference's 0.7 / 0.3 mix, spec §8.6). The summaries of the
//! communities holding the question's entities take up to `graph_communities` places of the k.

use super::Search;
use crate::config::{Modality, RetrievalSettings, Settings};
use crate::corpus::{Doc, Hit};
use crate::llm::roles::GraphExtractionOut;
use crate::llm::{LlmClient, Transport};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Question entities taken from this many best dense passages when the question names none.
const SEED_PASSAGES: usize = 3;
/// Label-propagation rounds (it settles in a handful on real filings).
const PROPAGATION_ROUNDS: usize = 20;
/// Relations quoted in one community summary.
const SUMMARY_RELATIONS: usize = 12;

/// The system prompt of `graph_extraction` (indexing only).
pub fn prompt(max_entities: usize) -> String {
    format!(
        "Extract a knowledge graph from one chunk of a financial report. List at most {max_entities} entities the chunk names \
         (companies, segments, products, people, financial metrics such as \"net sales\" or \"restructuring liability\", \
         periods, places), each as written in the chunk. List the relations the chunk states between them as \
         subject, predicate, object, using the entity names exactly as listed; the predicate is a short verb phrase \
         (\"reported\", \"increased by\", \"is a segment of\"). Do not infer what the chunk does not say. \
         Return JSON: {{\"entities\": [string], \"relations\": [{{\"subject\", \"predicate\", \"object\"}}]}}."
    )
}

pub fn user_message(doc: &Doc) -> String {
    format!("CHUNK:\n{}", doc.text)
}

/// The chunks that go through extraction: text chunks and whole tables with text.
pub fn chunks(docs: &[Doc]) -> Vec<&Doc> {
    docs.iter()
        .filter(|d| !d.text.trim().is_empty())
        .filter(|d| match d.modality {
            Modality::Text => true,
            Modality::Table => d.table.as_ref().is_none_or(|t| t.row_label.is_none()),
            _ => false,
        })
        .collect()
}

/// Answers of `graph_extraction`, per chunk text (FNV-1a of the text: the same chunk in a second
/// ingest of the file is not asked again).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphCache {
    pub entries: BTreeMap<String, GraphExtractionOut>,
}

fn key(text: &str) -> String {
    crate::hash::fnv64_hex(text.as_bytes())
}

impl GraphCache {
    pub fn get(&self, doc: &Doc) -> Option<&GraphExtractionOut> {
        self.entries.get(&key(&doc.text))
    }
    pub fn insert(&mut self, doc: &Doc, out: GraphExtractionOut) {
        self.entries.insert(key(&doc.text), out);
    }
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{\"entries\": {}}".into())
    }
    pub fn from_json(s: &str) -> Result<GraphCache, String> {
        serde_json::from_str(s).map_err(|e| format!("the graph cache is not readable: {e}"))
    }
}

/// What extracting the uncached chunks would cost, before any call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub chunks: usize,
    pub cached: usize,
    pub calls: usize,
    /// ≈ 4 characters a token, prompt included.
    pub input_tokens: u64,
    /// The output cap per call (an upper bound).
    pub max_output_tokens: u64,
    /// None when the chat model is unpriced.
    pub max_cost_usd: Option<f64>,
}

pub fn estimate(docs: &[Doc], cache: &GraphCache, s: &Settings) -> Estimate {
    let all = chunks(docs);
    let todo: Vec<&&Doc> = all.iter().filter(|d| cache.get(d).is_none()).collect();
    let prompt_chars = prompt(s.retrieval.graph_max_entities).len();
    let input_tokens: u64 = todo.iter().map(|d| ((prompt_chars + user_message(d).len()) as u64).div_ceil(4)).sum();
    let max_output_tokens = todo.len() as u64 * s.budgets.graph_extraction.max_tokens as u64;
    Estimate {
        chunks: all.len(),
        cached: all.len() - todo.len(),
        calls: todo.len(),
        input_tokens,
        max_output_tokens,
        max_cost_usd: s.price(&s.models.chat_model, input_tokens, max_output_tokens),
    }
}

/// Extract every uncached chunk into `cache` (one call each, in document order) and return the
/// failures (one message each) with the calls' totals. A failed call leaves that chunk out of the
/// cache — reachable by dense search only, asked again next time. The client's call budget is the
/// number of chunks to extract (the estimate), not the per-question budget of a run.
pub async fn extract<T: Transport>(docs: &[Doc], cache: &mut GraphCache, transport: &T, settings: &Settings) -> (Vec<String>, crate::export::Totals) {
    let todo: Vec<&Doc> = chunks(docs).into_iter().filter(|d| cache.get(d).is_none()).collect();
    let mut s = settings.clone();
    s.pipeline.max_llm_calls = u32::try_from(todo.len()).unwrap_or(u32::MAX).max(1);
    let client = LlmClient::new(transport, &s);
    let system = prompt(settings.retrieval.graph_max_entities);
    let mut failures = vec![];
    for d in todo {
        if let Some(f) = client.fatal_error() {
            failures.push(format!("{}: not extracted ({f})", d.id));
            continue;
        }
        let o = client.call::<GraphExtractionOut>(Some(&d.id), &system, &user_message(d)).await;
        match o.failure {
            Some(f) => failures.push(format!("{}: {f}", d.id)),
            None => cache.insert(d, o.value),
        }
    }
    (failures, crate::export::Totals::of(&client.records()))
}

/// An entity as a node name: lower case, single spaces, no surrounding punctuation.
pub fn normalise(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase().trim_matches(|c: char| !c.is_alphanumeric()).to_string()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Community {
    pub entities: Vec<String>,
    pub relations: usize,
    /// The extractive summary (see the module doc), as a retrievable document.
    pub doc: Doc,
}

/// The graph of one corpus: entities, the chunks that mention them, relations, communities.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EntityGraph {
    /// Entity name → chunks (indexes into `docs`) that mention it.
    pub mentions: BTreeMap<String, BTreeSet<usize>>,
    /// Entity name → neighbouring entity names (relations, both directions).
    pub neighbours: BTreeMap<String, BTreeSet<String>>,
    /// Entity name → index into `communities`.
    pub community_of: BTreeMap<String, usize>,
    pub communities: Vec<Community>,
    /// The extracted chunks.
    pub docs: Vec<Doc>,
}

impl EntityGraph {
    /// Build from the corpus's documents and the extraction answers; chunks without an answer are
    /// left out of the graph.
    pub fn build(docs: &[Doc], cache: &GraphCache) -> EntityGraph {
        let mut g = EntityGraph::default();
        let mut relations: BTreeMap<(String, String, String), (usize, usize)> = BTreeMap::new();
        for d in chunks(docs) {
            let Some(x) = cache.get(d) else { continue };
            let i = g.docs.len();
            g.docs.push(d.clone());
            let names = x.entities.iter().map(|e| normalise(e)).chain(x.relations.iter().flat_map(|r| [normalise(&r.subject), normalise(&r.object)]));
            for n in names.filter(|n| !n.is_empty()) {
                g.mentions.entry(n).or_default().insert(i);
            }
            for r in &x.relations {
                let (a, b) = (normalise(&r.subject), normalise(&r.object));
                if a.is_empty() || b.is_empty() || a == b {
                    continue;
                }
                g.neighbours.entry(a.clone()).or_default().insert(b.clone());
                g.neighbours.entry(b.clone()).or_default().insert(a.clone());
                relations.entry((a, r.predicate.trim().to_lowercase(), b)).or_insert((0, i)).0 += 1;
            }
        }
        g.communities_from(&relations);
        g
    }

    /// Label propagation over the relation edges; a community with at least one relation gets a
    /// summary document.
    fn communities_from(&mut self, relations: &BTreeMap<(String, String, String), (usize, usize)>) {
        let names: Vec<&String> = self.neighbours.keys().collect();
        let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let mut label: Vec<usize> = (0..names.len()).collect();
        for _ in 0..PROPAGATION_ROUNDS {
            let mut changed = false;
            for (i, n) in names.iter().enumerate() {
                let mut count: BTreeMap<usize, usize> = BTreeMap::new();
                for m in &self.neighbours[*n] {
                    *count.entry(label[index[m]]).or_default() += 1;
                }
                // Most frequent neighbouring label; ties to the smallest (BTreeMap order + max_by stability).
                if let Some(best) = count.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(l, _)| *l) {
                    if best != label[i] {
                        label[i] = best;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut groups: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (i, n) in names.iter().enumerate() {
            groups.entry(label[i]).or_default().push((*n).clone());
        }
        for members in groups.into_values() {
            let set: BTreeSet<&String> = members.iter().collect();
            let mut rels: Vec<(&(String, String, String), &(usize, usize))> = relations.iter().filter(|((a, _, b), _)| set.contains(a) && set.contains(b)).collect();
            if rels.is_empty() {
                continue;
            }
            rels.sort_by(|x, y| y.1 .0.cmp(&x.1 .0).then_with(|| x.0.cmp(y.0)));
            // The page most of the community's relations were read on stands for it in citations.
            let mut pages: BTreeMap<usize, usize> = BTreeMap::new();
            for (_, (n, chunk)) in &rels {
                *pages.entry(*chunk).or_default() += n;
            }
            let anchor = pages.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(c, _)| *c).unwrap_or(0);
            let base = &self.docs[anchor];
            let id = self.communities.len();
            let mut text = format!("Community of {} entities: {}.", members.len(), members.join(", "));
            text.push_str(" Relations: ");
            text.push_str(&rels.iter().take(SUMMARY_RELATIONS).map(|((a, p, b), _)| format!("{a} — {p} — {b}")).collect::<Vec<_>>().join("; "));
            text.push('.');
            let stem = base.id.split("-p").next().unwrap_or("doc").to_string();
            let doc = Doc {
                id: format!("{stem}-community-{id}"),
                section: Some(format!("Graph community {id}")),
                section_from_headings: false,
                modality: Modality::Text,
                text,
                // A summary has no place on the page: cite the page, highlight nothing.
                bboxes: vec![],
                table: None,
                chart: None,
                ..base.clone()
            };
            for m in &members {
                self.community_of.insert(m.clone(), id);
            }
            self.communities.push(Community { entities: members, relations: rels.len(), doc });
        }
    }

    /// The graph's entities named in `question` (whole words, case-insensitive).
    pub fn entities_in(&self, question: &str) -> Vec<String> {
        let q = format!(" {} ", question.to_lowercase().chars().map(|c| if c.is_alphanumeric() { c } else { ' ' }).collect::<String>().split_whitespace().collect::<Vec<_>>().join(" "));
        self.mentions
            .keys()
            .filter(|e| e.chars().filter(|c| c.is_alphanumeric()).count() >= 2)
            .filter(|e| {
                let words = e.chars().map(|c| if c.is_alphanumeric() { c } else { ' ' }).collect::<String>();
                let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
                !words.is_empty() && q.contains(&format!(" {words} "))
            })
            .cloned()
            .collect()
    }

    /// Entities within `hops` relation hops of `seeds` (seeds excluded).
    pub fn neighbourhood(&self, seeds: &[String], hops: usize) -> BTreeSet<String> {
        let mut seen: BTreeSet<String> = seeds.iter().cloned().collect();
        let mut frontier: Vec<String> = seeds.to_vec();
        for _ in 0..hops {
            let mut next = vec![];
            for e in &frontier {
                for n in self.neighbours.get(e).into_iter().flatten() {
                    if seen.insert(n.clone()) {
                        next.push(n.clone());
                    }
                }
            }
            frontier = next;
        }
        seeds.iter().for_each(|s| {
            seen.remove(s);
        });
        seen
    }
}

/// Graph-RAG retrieval for `question` (see the module doc). Errs when the search has no entity
/// graph: the baseline cannot run without its indexing step.
pub async fn retrieve<S: Search>(search: &S, question: &str, k: usize, s: &RetrievalSettings) -> Result<Vec<Hit>, String> {
    let g = search.entity_graph().ok_or("Graph-RAG needs the corpus's entity graph (graph_extraction at indexing); this index has none")?;
    let pool = search.search(question, k * s.pool_factor.max(1), None).await?;
    Ok(rank(g, question, pool, k, s))
}

/// The pure part of `retrieve`: rank the pool and the neighbourhood's chunks.
pub fn rank(g: &EntityGraph, question: &str, pool: Vec<Hit>, k: usize, s: &RetrievalSettings) -> Vec<Hit> {
    let mut seeds = g.entities_in(question);
    if seeds.is_empty() {
        // The question names no entity of the graph: those of the passages dense search finds first.
        let top: BTreeSet<&str> = pool.iter().take(SEED_PASSAGES).map(|h| h.doc.id.as_str()).collect();
        seeds = g.mentions.iter().filter(|(_, cs)| cs.iter().any(|c| top.contains(g.docs[*c].id.as_str()))).map(|(e, _)| e.clone()).collect();
    }
    let near = g.neighbourhood(&seeds, s.graph_hops);
    let mut graph: BTreeMap<usize, f64> = BTreeMap::new();
    for (e, w) in seeds.iter().map(|e| (e, 1.0)).chain(near.iter().map(|e| (e, 0.5))) {
        for c in g.mentions.get(e).into_iter().flatten() {
            *graph.entry(*c).or_default() += w;
        }
    }
    let top = graph.values().cloned().fold(0.0, f64::max);
    let mut scored: BTreeMap<String, Hit> = BTreeMap::new();
    let w = s.graph_weight;
    for h in pool {
        let gs = g.docs.iter().position(|d| d.id == h.doc.id).and_then(|i| graph.get(&i)).map(|v| v / top).unwrap_or(0.0);
        let score = (1.0 - w) * h.score + w * gs;
        scored.insert(h.doc.id.clone(), Hit { doc: h.doc, score });
    }
    for (c, v) in &graph {
        let d = &g.docs[*c];
        scored.entry(d.id.clone()).or_insert_with(|| Hit { doc: d.clone(), score: w * v / top });
    }
    let mut hits: Vec<Hit> = scored.into_values().collect();
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.doc.id.cmp(&b.doc.id)));

    // Community summaries of the question's entities, most question entities first.
    let mut by: BTreeMap<usize, usize> = BTreeMap::new();
    for e in &seeds {
        if let Some(c) = g.community_of.get(e) {
            *by.entry(*c).or_default() += 1;
        }
    }
    let mut comms: Vec<(usize, usize)> = by.into_iter().collect();
    comms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let summaries: Vec<Hit> = comms.into_iter().take(s.graph_communities.min(k)).map(|(c, n)| Hit { doc: g.communities[c].doc.clone(), score: n as f64 / seeds.len().max(1) as f64 }).collect();
    hits.truncate(k - summaries.len());
    hits.extend(summaries);
    hits
}

/// A search that carries its corpus's entity graph (what the Graph-RAG row searches).
pub struct WithGraph<'g, S: Search> {
    pub search: S,
    pub graph: &'g EntityGraph,
}

impl<S: Search> Search for WithGraph<'_, S> {
    async fn search(&self, query: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search.search(query, k, modality).await
    }
    async fn search_hyde(&self, query: &str, passage: &str, k: usize, modality: Option<Modality>) -> Result<Vec<Hit>, String> {
        self.search.search_hyde(query, passage, k, modality).await
    }
    fn entity_graph(&self) -> Option<&EntityGraph> {
        Some(self.graph)
    }
}

#[cfg(test)]
mod tests;
