//! The settings dialog as plain values: every setting of `config::Settings` as one field (dotted
//! path, current value, the paper's default, the doc comment that explains it), and the one way to
//! change a field, which re-validates the whole `Settings`.
//!
//! Why generic: the dialog must offer every threshold, weight, k, token cap, temperature, model name
//! and ablation (issue "app" item 2; paper numbers are configuration, STYLE.md). Walking the serde
//! form of `Settings` means a setting added to `config.rs` appears in the dialog, the TOML export
//! and this list without a second place to update. The help text is the field's own doc comment,
//! carried by the `JsonSchema` derive on the settings types (`descriptions`), so there is one
//! description per setting.

use crate::config::Settings;
use serde_json::Value;
use std::collections::BTreeMap;

/// How a field is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Bool,
    Integer,
    Number,
    Text,
    /// An optional number (`embedding_dimensions`): empty means "not set".
    OptionalInteger,
    /// Lists and tables (HRI weights, AEA weights, pricing) edited as JSON.
    Json,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Dotted path, e.g. `pipeline.fast_path_threshold`, as in the TOML file.
    pub path: String,
    /// The top-level section (`models`, `pipeline`, `retrieval`, …).
    pub section: String,
    pub kind: FieldKind,
    /// The current value as the user edits it (`true`, `0.75`, `gpt-4o`, `[0.4, 0.25, 0.2, 0.15]`).
    pub value: String,
    /// The paper's default in the same form.
    pub default: String,
    /// The setting's doc comment from `config.rs` (`descriptions`).
    pub help: Option<String>,
}

impl Field {
    pub fn is_default(&self) -> bool {
        self.value == self.default
    }
}

/// The sections in the order the dialog shows them.
pub const SECTIONS: &[&str] = &["models", "ablations", "pipeline", "retrieval", "ingest", "weights", "budgets", "pricing"];

/// Every setting of `s`, in dialog order, with the paper default beside it.
pub fn fields(s: &Settings) -> Vec<Field> {
    let cur = serde_json::to_value(s).unwrap_or(Value::Null);
    let def = serde_json::to_value(Settings::paper()).unwrap_or(Value::Null);
    let mut out = vec![];
    for section in SECTIONS {
        let (Some(c), d) = (cur.get(section), def.get(section)) else { continue };
        walk(section, section, c, d, &mut out);
    }
    out
}

fn walk(section: &str, path: &str, cur: &Value, def: Option<&Value>, out: &mut Vec<Field>) {
    // Objects nest (budgets.planner.max_tokens); every other value is a leaf.
    if let Value::Object(m) = cur {
        for (k, v) in m {
            walk(section, &format!("{path}.{k}"), v, def.and_then(|d| d.get(k)), out);
        }
        return;
    }
    let kind = match (cur, def) {
        (Value::Bool(_), _) => FieldKind::Bool,
        (Value::Number(n), _) if n.is_f64() => FieldKind::Number,
        (Value::Number(_), Some(Value::Number(d))) if d.is_f64() => FieldKind::Number,
        (Value::Number(_), Some(Value::Null)) | (Value::Null, _) => FieldKind::OptionalInteger,
        (Value::Number(_), _) => FieldKind::Integer,
        (Value::String(_), _) => FieldKind::Text,
        _ => FieldKind::Json,
    };
    out.push(Field {
        path: path.to_string(),
        section: section.to_string(),
        kind,
        value: render(cur),
        default: def.map(render).unwrap_or_default(),
        help: help_for(path),
    });
}

fn render(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        // f32 settings (temperatures) reach JSON widened to f64: show 0.2, not 0.20000000298023224.
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() && ((x as f32) as f64) == x => format!("{}", x as f32),
            _ => n.to_string(),
        },
        Value::Bool(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// `s` with the field at `path` set from what the user typed; an error names the field and says
/// what it accepts. The result is validated as a whole (`Settings::validate`).
pub fn set_field(s: &Settings, path: &str, raw: &str) -> Result<Settings, String> {
    let field = fields(s).into_iter().find(|f| f.path == path).ok_or_else(|| format!("unknown setting `{path}`"))?;
    let raw_t = raw.trim();
    let value = match field.kind {
        FieldKind::Bool => Value::Bool(match raw_t {
            "true" => true,
            "false" => false,
            _ => return Err(format!("{path} is true or false (got {raw_t:?})")),
        }),
        FieldKind::Integer => Value::from(raw_t.parse::<u64>().map_err(|_| format!("{path} must be a whole number ≥ 0 (got {raw_t:?})"))?),
        FieldKind::OptionalInteger if raw_t.is_empty() => Value::Null,
        FieldKind::OptionalInteger => Value::from(raw_t.parse::<u64>().map_err(|_| format!("{path} must be a whole number, or empty for “not set” (got {raw_t:?})"))?),
        FieldKind::Number => {
            let x = raw_t.parse::<f64>().map_err(|_| format!("{path} must be a number (got {raw_t:?})"))?;
            if !x.is_finite() {
                return Err(format!("{path} must be a finite number"));
            }
            Value::from(x)
        }
        FieldKind::Text => Value::String(raw_t.to_string()),
        FieldKind::Json => serde_json::from_str(raw_t).map_err(|e| format!("{path} must be JSON like {}: {e}", field.default))?,
    };
    let mut whole = serde_json::to_value(s).map_err(|e| e.to_string())?;
    let mut slot = &mut whole;
    for key in path.split('.') {
        slot = match slot {
            Value::Object(m) => m.entry(key.to_string()).or_insert(Value::Null),
            _ => return Err(format!("unknown setting `{path}`")),
        };
    }
    *slot = value;
    let next: Settings = serde_json::from_value(whole).map_err(|e| format!("{path}: {}", plain_serde_error(&e.to_string())))?;
    next.validate()?;
    Ok(next)
}

fn plain_serde_error(e: &str) -> String {
    e.split(" at line ").next().unwrap_or(e).to_string()
}

/// Every setting's description, keyed by dotted path (`pipeline.fast_path_threshold`): the field's
/// doc comment in `config.rs`, carried into the JSON schema by `#[derive(schemars::JsonSchema)]`
/// (a field's doc comment becomes its `description`). One description per setting, written once,
/// beside the field; lines are joined with single spaces as the dialog shows them.
pub fn descriptions() -> BTreeMap<String, String> {
    let schema = schemars::schema_for!(Settings);
    let root = schema.as_value();
    let mut out = BTreeMap::new();
    collect_descriptions(root, root, "", &mut out);
    out
}

fn collect_descriptions(root: &Value, node: &Value, path: &str, out: &mut BTreeMap<String, String>) {
    // A struct-typed field is a `$ref` into `$defs` (its own description sits beside the ref).
    let node = match node.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => root.get("$defs").and_then(|d| d.get(name)).unwrap_or(node),
        None => node,
    };
    let Some(props) = node.get("properties").and_then(Value::as_object) else { return };
    for (key, field) in props {
        let p = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        if let Some(d) = field.get("description").and_then(Value::as_str) {
            out.insert(p.clone(), d.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        collect_descriptions(root, field, &p, out);
    }
}

fn help_for(path: &str) -> Option<String> {
    // Computed once per process: the schema is the same for every call.
    static DESCRIPTIONS: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    DESCRIPTIONS.get_or_init(descriptions).get(path).cloned()
}

/// Group `fields` by section, in `SECTIONS` order (for the dialog's headings).
pub fn by_section(fields: &[Field]) -> Vec<(&'static str, Vec<&Field>)> {
    SECTIONS.iter().map(|s| (*s, fields.iter().filter(|f| f.section == *s).collect::<Vec<_>>())).filter(|(_, v)| !v.is_empty()).collect()
}

/// A one-line summary of what differs from the paper (shown on the Settings button's tooltip and
/// recorded with a run): `pipeline.claim_concurrency = 2, ablations.no_cocv = true`.
pub fn changes(s: &Settings) -> Vec<String> {
    fields(s).into_iter().filter(|f| !f.is_default()).map(|f| format!("{} = {}", f.path, if f.value.is_empty() { "not set" } else { &f.value })).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_appears_once_with_the_paper_default() {
        let f = fields(&Settings::paper());
        let paths: Vec<&str> = f.iter().map(|x| x.path.as_str()).collect();
        for p in [
            "models.base_url",
            "models.chat_model",
            "models.vision_model",
            "models.embedding_model",
            "models.embedding_dimensions",
            "pipeline.fast_path_threshold",
            "pipeline.max_debate_rounds",
            "pipeline.claim_concurrency",
            "pipeline.hri_weights",
            "retrieval.dense_weight",
            "retrieval.k_narrative",
            "ingest.chunk_target_chars",
            "ingest.max_page_operators",
            "ingest.max_page_content_bytes",
            "budgets.planner.max_tokens",
            "budgets.entailment.temperature",
            "weights.fact_numeric",
            "ablations.no_cocv",
            "ablations.fixed_rounds",
            "pricing",
        ] {
            assert_eq!(paths.iter().filter(|x| **x == p).count(), 1, "{p} in {paths:?}");
        }
        assert!(f.iter().all(Field::is_default), "paper settings differ from paper defaults");
        let fp = f.iter().find(|x| x.path == "pipeline.fast_path_threshold").unwrap();
        assert_eq!((fp.kind, fp.value.as_str()), (FieldKind::Number, "0.75"));
        assert_eq!(f.iter().find(|x| x.path == "ablations.no_aea").unwrap().kind, FieldKind::Bool);
        assert_eq!(f.iter().find(|x| x.path == "pipeline.max_claims").unwrap().kind, FieldKind::Integer);
        assert_eq!(f.iter().find(|x| x.path == "models.embedding_dimensions").unwrap().kind, FieldKind::OptionalInteger);
        assert_eq!(f.iter().find(|x| x.path == "pipeline.hri_weights").unwrap().kind, FieldKind::Json);
        let t = f.iter().find(|x| x.path == "budgets.planner.temperature").unwrap();
        assert!(t.value.len() <= 4, "temperatures read as typed: {}", t.value);
        // Sections come in dialog order, models first.
        assert_eq!(f[0].section, "models");
    }

    #[test]
    fn help_text_is_the_settings_doc_comment() {
        let f = fields(&Settings::paper());
        let help = |p: &str| f.iter().find(|x| x.path == p).and_then(|x| x.help.clone()).unwrap_or_default();
        assert!(help("ablations.no_cocv").contains("custody"), "{}", help("ablations.no_cocv"));
        assert!(help("pipeline.claim_concurrency").contains("concurrently"));
        assert!(help("retrieval.max_hits_per_page").contains("page"));
        assert!(help("models.embedding_dimensions").contains("dimensionality"));
        assert!(help("ingest.max_page_operators").contains("work budget"));
        // A multi-line doc comment reads as one paragraph.
        assert!(help("models.embedding_dimensions").starts_with("Embedding dimensionality to ask the model for (`dimensions` in the embeddings API, sent only when set)."));
        assert!(!help("models.embedding_dimensions").contains('\n'));
        // Nested settings (a role's call budget) carry their own field's comment.
        assert!(help("budgets.planner.max_tokens").contains("Output-token cap"), "{}", help("budgets.planner.max_tokens"));
    }

    #[test]
    fn every_setting_the_dialog_shows_has_a_description() {
        let missing: Vec<String> = fields(&Settings::paper())
            .into_iter()
            .filter(|f| f.help.as_deref().is_none_or(|h| h.trim().is_empty()))
            .map(|f| f.path)
            .collect();
        assert!(missing.is_empty(), "settings without a doc comment in config.rs: {missing:?}");
    }

    /// The derive carries each field's doc comment verbatim: every `///` comment on a field of a
    /// settings struct in `config.rs` (read here, in the test, as the independent witness) equals
    /// the schema's description of that field, whitespace aside.
    #[test]
    fn descriptions_match_the_doc_comments_in_config_rs() {
        const SOURCE: &str = include_str!("../config.rs");
        let schema = schemars::schema_for!(Settings);
        let root = schema.as_value();
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut strukt: Option<&str> = None;
        let mut doc: Vec<&str> = vec![];
        let mut checked = 0;
        for line in SOURCE.lines() {
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("pub struct ") {
                strukt = rest.split(|c: char| !c.is_alphanumeric() && c != '_').next();
                doc.clear();
            } else if t == "}" {
                strukt = None;
            } else if let Some(d) = t.strip_prefix("///") {
                doc.push(d);
            } else if let (Some(name), Some(rest)) = (strukt, t.strip_prefix("pub ")) {
                let field = rest.split(':').next().unwrap_or("").trim();
                let def = if name == "Settings" { Some(root) } else { root.get("$defs").and_then(|d| d.get(name)) };
                if let Some(def) = def {
                    let got = def.pointer(&format!("/properties/{field}/description")).and_then(Value::as_str);
                    let want = (!doc.is_empty()).then(|| norm(&doc.join(" ")));
                    assert_eq!(got.map(norm), want, "{name}.{field}");
                    checked += 1;
                }
                doc.clear();
            } else if !t.starts_with("#[") {
                doc.clear();
            }
        }
        assert!(checked > 80, "only {checked} settings fields compared");
        // And the dialog shows exactly these descriptions.
        let d = descriptions();
        for f in fields(&Settings::paper()) {
            assert_eq!(f.help.as_ref(), d.get(&f.path), "{}", f.path);
        }
    }

    #[test]
    fn a_changed_field_round_trips_and_is_listed_as_a_change() {
        let s = set_field(&Settings::paper(), "pipeline.fast_path_threshold", "0.8").unwrap();
        assert_eq!(s.pipeline.fast_path_threshold, 0.8);
        let s = set_field(&s, "ablations.no_cocv", "true").unwrap();
        assert!(s.ablations.no_cocv);
        let s = set_field(&s, "budgets.planner.max_tokens", "900").unwrap();
        assert_eq!(s.budgets.planner.max_tokens, 900);
        let s = set_field(&s, "models.embedding_dimensions", "256").unwrap();
        assert_eq!(s.models.embedding_dimensions, Some(256));
        let s = set_field(&s, "pipeline.hri_weights", "[0.5, 0.2, 0.2, 0.1]").unwrap();
        assert_eq!(s.pipeline.hri_weights, [0.5, 0.2, 0.2, 0.1]);
        assert_eq!(
            changes(&s),
            vec![
                "models.embedding_dimensions = 256",
                "ablations.no_cocv = true",
                "pipeline.fast_path_threshold = 0.8",
                "pipeline.hri_weights = [0.5,0.2,0.2,0.1]",
                "budgets.planner.max_tokens = 900",
            ]
        );
        // The TOML export carries the change and reads back to the same settings.
        assert_eq!(Settings::from_toml(&s.to_toml()).unwrap(), s);
        let cleared = set_field(&s, "models.embedding_dimensions", "").unwrap();
        assert_eq!(cleared.models.embedding_dimensions, None);
    }

    #[test]
    fn bad_values_are_refused_with_the_field_and_what_it_accepts() {
        let s = Settings::paper();
        let e = set_field(&s, "pipeline.fast_path_threshold", "1.5").unwrap_err();
        assert!(e.contains("pipeline.fast_path_threshold") && e.contains("between 0 and 1"), "{e}");
        let e = set_field(&s, "pipeline.max_claims", "-3").unwrap_err();
        assert!(e.contains("whole number"), "{e}");
        let e = set_field(&s, "ablations.hyde", "yes").unwrap_err();
        assert!(e.contains("true or false"), "{e}");
        let e = set_field(&s, "pipeline.hri_weights", "[0.5, 0.5]").unwrap_err();
        assert!(e.contains("pipeline.hri_weights"), "{e}");
        let e = set_field(&s, "retrieval.dense_weight", "NaN").unwrap_err();
        assert!(e.contains("finite") || e.contains("number"), "{e}");
        assert!(set_field(&s, "pipeline.no_such_thing", "1").unwrap_err().contains("unknown setting"));
    }
}
