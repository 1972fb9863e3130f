//! Role contracts as JSON Schema: derived from the output types, made portable, and enforced.
//!
//! One source: each role's output type derives `schemars::JsonSchema`, bounds included
//! (`#[schemars(range(min = 0.0, max = 1.0))]`). From it come
//! - the **contract** (`contract_of`): the derived schema with subschemas inlined. Every answer is
//!   checked against it (`check`) before it becomes the Rust type, so the validator enforces every
//!   type, enum, required field and bound the schema states — the schema, the validator and the
//!   type cannot drift (issue 39 item 3);
//! - the **wire schema** (`portable`): the contract narrowed to the subset that OpenAI strict
//!   structured outputs, llama.cpp's json-schema-to-grammar (so Ollama and llama-server),
//!   node-llama-cpp's `createGrammarForJsonSchema` and vLLM's guided decoding all accept
//!   (`PORTABLE_KEYWORDS`; rationale in docs/providers.md, "Structured outputs"). Bounds outside
//!   that subset are stated in the field's `description` for the model and stay enforced by
//!   `check`.
//!
//! The wire schema may only narrow the contract: whatever a grammar-enforcing server lets through
//! still passes `check`.

use serde_json::{json, Map, Value};

/// The only keywords a wire schema may use. Everything else is either rejected by one of the
/// target servers or silently ignored by one (which makes a schema promise a server does not keep):
/// `minimum`/`maximum` (node-llama-cpp ignores them; llama.cpp enforces them on integers only),
/// `minLength`/`maxLength`/`pattern`/`format` (not in every server's subset), `anyOf`/`oneOf`
/// (OpenAI strict mode and llguidance take only `anyOf`, node-llama-cpp only `oneOf`),
/// `$ref`/`$defs` (inlined instead), `title`/`default`/`$schema` (noise).
pub const PORTABLE_KEYWORDS: &[&str] = &["type", "properties", "required", "additionalProperties", "items", "enum", "description"];

const PRIMITIVES: &[&str] = &["string", "number", "integer", "boolean"];

/// The derived schema of `T` with every subschema inlined (no `$ref`).
pub fn contract_of<T: schemars::JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let mut v = settings.into_generator().into_root_schema_for::<T>().to_value();
    if let Some(m) = v.as_object_mut() {
        m.remove("$defs");
    }
    v
}

/// `contract` in the portable strict subset: every object closed (`additionalProperties: false`)
/// with every property required, enums of constants as `enum`, a nullable list as a list (an empty
/// list means none: node-llama-cpp reads a `["array", "null"]` type list as null only), bounds and
/// formats moved into the description.
pub fn portable(contract: &Value) -> Value {
    let Value::Object(m) = contract else { return contract.clone() };
    // Doc comments are for this code's readers; what the model is told about a field is in the
    // role's prompt. Only the bounds are described (below).
    let mut out = Map::new();
    let mut bounds: Vec<String> = vec![];
    // An enum written as alternatives of constants (schemars does this for documented variants).
    if let Some(alts) = m.get("oneOf").or_else(|| m.get("anyOf")).and_then(Value::as_array) {
        let consts: Option<Vec<Value>> = alts.iter().map(|a| a.get("const").cloned().or_else(|| a.get("enum").and_then(|e| e.as_array()).filter(|e| e.len() == 1).map(|e| e[0].clone()))).collect();
        if let Some(c) = consts {
            if c.iter().all(Value::is_string) {
                return json!({"type": "string", "enum": c});
            }
        }
    }
    for (k, v) in m {
        match k.as_str() {
            "type" => {
                let t = match v {
                    // Option<Vec<_>> / Option<struct>: the non-null member alone (see above).
                    Value::Array(ts) if ts.len() == 2 && ts.contains(&json!("null")) => {
                        let other = ts.iter().find(|t| *t != "null").cloned().unwrap_or(Value::Null);
                        if other.as_str().is_some_and(|o| PRIMITIVES.contains(&o)) {
                            v.clone()
                        } else {
                            other
                        }
                    }
                    _ => v.clone(),
                };
                out.insert(k.clone(), t);
            }
            "properties" => {
                let props: Map<String, Value> = v.as_object().map(|p| p.iter().map(|(n, s)| (n.clone(), portable(s))).collect()).unwrap_or_default();
                out.insert("required".into(), json!(props.keys().collect::<Vec<_>>()));
                out.insert("additionalProperties".into(), json!(false));
                out.insert(k.clone(), Value::Object(props));
            }
            "items" => {
                out.insert(k.clone(), portable(v));
            }
            "enum" => {
                out.insert(k.clone(), v.clone());
            }
            "const" => {
                out.insert("enum".into(), json!([v]));
            }
            "minimum" => bounds.push(format!("at least {}", num(v))),
            "maximum" => bounds.push(format!("at most {}", num(v))),
            "exclusiveMinimum" => bounds.push(format!("more than {}", num(v))),
            "exclusiveMaximum" => bounds.push(format!("less than {}", num(v))),
            "minLength" => bounds.push(format!("at least {} characters", num(v))),
            "maxLength" => bounds.push(format!("at most {} characters", num(v))),
            "minItems" => bounds.push(format!("at least {} items", num(v))),
            "maxItems" => bounds.push(format!("at most {} items", num(v))),
            // Kept as-is so the subset test names them if a type ever produces them.
            "anyOf" | "oneOf" | "allOf" | "$ref" | "pattern" | "patternProperties" | "prefixItems" | "not" => {
                out.insert(k.clone(), v.clone());
            }
            // Dropped: documentation and annotations no server needs.
            _ => {}
        }
    }
    if m.get("type") == Some(&json!("object")) && !out.contains_key("properties") {
        out.insert("properties".into(), json!({}));
        out.insert("required".into(), json!([]));
        out.insert("additionalProperties".into(), json!(false));
    }
    if !bounds.is_empty() {
        // "at least 0, at most 1" reads better as a range.
        let text = match (m.get("minimum"), m.get("maximum"), bounds.len()) {
            (Some(lo), Some(hi), 2) => format!("from {} to {}", num(lo), num(hi)),
            _ => bounds.join(", "),
        };
        out.insert("description".into(), json!(text));
    }
    Value::Object(out)
}

fn num(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        Some(f) => format!("{f}"),
        None => v.to_string(),
    }
}

/// Where `schema` leaves the portable subset, as `path: problem` lines (empty = portable). Checks
/// keywords, closed objects with every property required, and type lists (`[primitive, "null"]`).
pub fn portability_problems(schema: &Value) -> Vec<String> {
    let mut out = vec![];
    walk_portable(schema, "#", &mut out);
    out
}

fn walk_portable(s: &Value, path: &str, out: &mut Vec<String>) {
    let Some(m) = s.as_object() else {
        out.push(format!("{path}: a schema must be an object"));
        return;
    };
    for k in m.keys() {
        if !PORTABLE_KEYWORDS.contains(&k.as_str()) {
            out.push(format!("{path}: keyword {k:?} is outside the portable subset"));
        }
    }
    match m.get("type") {
        Some(Value::String(t)) if PRIMITIVES.contains(&t.as_str()) || t == "object" || t == "array" || t == "null" => {}
        Some(Value::Array(ts)) => {
            let ok = ts.len() == 2 && ts.contains(&json!("null")) && ts.iter().any(|t| t.as_str().is_some_and(|t| PRIMITIVES.contains(&t)));
            if !ok {
                out.push(format!("{path}: type list {ts:?} is not [primitive, \"null\"]"));
            }
        }
        Some(t) => out.push(format!("{path}: unknown type {t}")),
        None if m.contains_key("enum") => {}
        None => out.push(format!("{path}: no type")),
    }
    if let Some(e) = m.get("enum") {
        if !e.as_array().is_some_and(|e| !e.is_empty() && e.iter().all(Value::is_string)) {
            out.push(format!("{path}: enum must be a non-empty list of strings"));
        }
    }
    if m.get("type") == Some(&json!("object")) {
        let props = m.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = m.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if m.get("additionalProperties") != Some(&json!(false)) {
            out.push(format!("{path}: object without additionalProperties: false"));
        }
        match props {
            None => out.push(format!("{path}: object without properties")),
            Some(p) => {
                for (name, sub) in p {
                    if !required.contains(&name.as_str()) {
                        out.push(format!("{path}/properties/{name}: not required (strict mode needs every property required; use a nullable type)"));
                    }
                    walk_portable(sub, &format!("{path}/properties/{name}"), out);
                }
                if required.len() != p.len() {
                    out.push(format!("{path}: required lists {} names for {} properties", required.len(), p.len()));
                }
            }
        }
    }
    if m.get("type") == Some(&json!("array")) {
        match m.get("items") {
            Some(i) => walk_portable(i, &format!("{path}/items"), out),
            None => out.push(format!("{path}: array without items")),
        }
    }
}

/// Check `v` against `contract`: every keyword the contract states is enforced here, and a keyword
/// this checker does not know is itself an error (so a new attribute on an output type cannot
/// leave a bound unenforced). Errors name the path and the rule, for the call's failure reason.
pub fn check(v: &Value, contract: &Value) -> Result<(), String> {
    check_at(v, contract, "answer")
}

fn type_matches(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        _ => false,
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

fn check_at(v: &Value, s: &Value, path: &str) -> Result<(), String> {
    let Some(m) = s.as_object() else {
        return if s == &json!(true) { Ok(()) } else { Err(format!("{path}: the contract is not a schema")) };
    };
    for (k, rule) in m {
        match k.as_str() {
            "type" => {
                let ok = match rule {
                    Value::String(t) => type_matches(v, t),
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(|t| type_matches(v, t)),
                    _ => false,
                };
                if !ok {
                    return Err(format!("{path} is {}, not of type {rule}", short(v)));
                }
            }
            "enum" => {
                if !rule.as_array().is_some_and(|e| e.contains(v)) {
                    return Err(format!("{path} is {}, not one of {rule}", short(v)));
                }
            }
            "const" => {
                if v != rule {
                    return Err(format!("{path} is {}, not {rule}", short(v)));
                }
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                if let (Some(x), Some(b)) = (v.as_f64(), rule.as_f64()) {
                    let ok = match k.as_str() {
                        "minimum" => x >= b,
                        "maximum" => x <= b,
                        "exclusiveMinimum" => x > b,
                        _ => x < b,
                    };
                    if !ok {
                        return Err(format!("{path} is {x}, outside its bound {k} {b}"));
                    }
                }
            }
            "minLength" | "maxLength" => {
                if let (Some(t), Some(b)) = (v.as_str(), rule.as_u64()) {
                    let n = t.chars().count() as u64;
                    if (k == "minLength" && n < b) || (k == "maxLength" && n > b) {
                        return Err(format!("{path} has {n} characters, outside its bound {k} {b}"));
                    }
                }
            }
            "minItems" | "maxItems" => {
                if let (Some(a), Some(b)) = (v.as_array(), rule.as_u64()) {
                    let n = a.len() as u64;
                    if (k == "minItems" && n < b) || (k == "maxItems" && n > b) {
                        return Err(format!("{path} has {n} items, outside its bound {k} {b}"));
                    }
                }
            }
            "properties" => {
                if let (Some(o), Some(props)) = (v.as_object(), rule.as_object()) {
                    for (name, sub) in props {
                        if let Some(x) = o.get(name) {
                            check_at(x, sub, &format!("{path}.{name}"))?;
                        }
                    }
                }
            }
            "required" => {
                if let Some(o) = v.as_object() {
                    for name in rule.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        if !o.contains_key(name) {
                            return Err(format!("{path} lacks the required field {name:?}"));
                        }
                    }
                }
            }
            "additionalProperties" => {
                if let Some(o) = v.as_object() {
                    let known = m.get("properties").and_then(Value::as_object);
                    for (name, x) in o {
                        if known.is_some_and(|p| p.contains_key(name)) {
                            continue;
                        }
                        match rule {
                            Value::Bool(false) => return Err(format!("{path} has the unknown field {name:?}")),
                            Value::Bool(true) => {}
                            sub => check_at(x, sub, &format!("{path}.{name}"))?,
                        }
                    }
                }
            }
            "items" => {
                if let Some(a) = v.as_array() {
                    for (i, x) in a.iter().enumerate() {
                        check_at(x, rule, &format!("{path}[{i}]"))?;
                    }
                }
            }
            "anyOf" | "oneOf" => {
                let alts = rule.as_array().map(Vec::as_slice).unwrap_or(&[]);
                let matching = alts.iter().filter(|a| check_at(v, a, path).is_ok()).count();
                if matching == 0 || (k == "oneOf" && matching > 1) {
                    return Err(format!("{path} is {}, which matches {matching} of its {} alternatives", short(v), alts.len()));
                }
            }
            "format" => {
                // schemars names the Rust integer width; serde enforces it when the answer becomes
                // the type, but the bound is stated, so it is checked here too.
                let range: Option<(f64, f64)> = match rule.as_str() {
                    Some("uint8") => Some((0.0, u8::MAX as f64)),
                    Some("uint16") => Some((0.0, u16::MAX as f64)),
                    Some("uint32") | Some("uint") => Some((0.0, u32::MAX as f64)),
                    Some("uint64") => Some((0.0, u64::MAX as f64)),
                    Some("int8") => Some((i8::MIN as f64, i8::MAX as f64)),
                    Some("int16") => Some((i16::MIN as f64, i16::MAX as f64)),
                    Some("int32") | Some("int") => Some((i32::MIN as f64, i32::MAX as f64)),
                    Some("int64") => Some((i64::MIN as f64, i64::MAX as f64)),
                    Some("float") | Some("double") => None,
                    _ => return Err(format!("{path}: the contract's format {rule} is not enforced by this checker")),
                };
                if let (Some((lo, hi)), Some(x)) = (range, v.as_f64()) {
                    if x < lo || x > hi {
                        return Err(format!("{path} is {x}, outside the {rule} range"));
                    }
                }
            }
            // Annotations: they state nothing about the value.
            "description" | "title" | "$schema" | "default" | "examples" => {}
            other => return Err(format!("{path}: the contract keyword {other:?} is not enforced by this checker")),
        }
    }
    Ok(())
}

/// Every keyword `contract` uses is one `check` enforces or an annotation (for the test that walks
/// every role).
pub fn unenforced_keywords(contract: &Value) -> Vec<String> {
    const KNOWN: &[&str] = &[
        "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems",
        "properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "format", "description", "title", "$schema", "default", "examples",
    ];
    let mut out = vec![];
    fn walk(s: &Value, path: &str, out: &mut Vec<String>) {
        let Some(m) = s.as_object() else { return };
        for (k, v) in m {
            if !KNOWN.contains(&k.as_str()) {
                out.push(format!("{path}: {k}"));
            }
            match k.as_str() {
                "properties" => {
                    for (n, sub) in v.as_object().into_iter().flatten() {
                        walk(sub, &format!("{path}/properties/{n}"), out);
                    }
                }
                "items" | "additionalProperties" => walk(v, &format!("{path}/{k}"), out),
                "anyOf" | "oneOf" => {
                    for (i, sub) in v.as_array().into_iter().flatten().enumerate() {
                        walk(sub, &format!("{path}/{k}/{i}"), out);
                    }
                }
                _ => {}
            }
        }
    }
    walk(contract, "#", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_form_closes_objects_and_moves_bounds_into_the_description() {
        let contract = json!({"$schema": "x", "title": "T", "type": "object", "description": "doc comment",
            "properties": {"c": {"type": "number", "format": "double", "minimum": 0.0, "maximum": 1.0},
                "n": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
                "r": {"type": ["array", "null"], "items": {"type": "number", "format": "float"}},
                "e": {"oneOf": [{"const": "a", "description": "A"}, {"const": "b"}]}},
            "required": ["c"]});
        let p = portable(&contract);
        assert_eq!(p["additionalProperties"], false);
        assert_eq!(p["required"], json!(["c", "e", "n", "r"]));
        assert_eq!(p["properties"]["c"], json!({"type": "number", "description": "from 0 to 1"}));
        assert_eq!(p["properties"]["n"], json!({"type": ["integer", "null"], "description": "at least 0"}));
        assert_eq!(p["properties"]["r"], json!({"type": "array", "items": {"type": "number"}}));
        assert_eq!(p["properties"]["e"], json!({"type": "string", "enum": ["a", "b"]}));
        assert!(portability_problems(&p).is_empty(), "{:?}", portability_problems(&p));
    }

    #[test]
    fn portability_check_names_each_construct_outside_the_subset() {
        let s = json!({"type": "object", "properties": {
            "a": {"type": "number", "minimum": 0},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "c": {"type": ["array", "null"], "items": {"type": "string"}},
            "d": {"type": "object", "properties": {"x": {"type": "string"}}, "required": []}},
            "required": ["a", "b", "c"], "additionalProperties": false});
        let p = portability_problems(&s).join("\n");
        for needle in ["\"minimum\"", "\"anyOf\"", "type list", "properties/d: not required", "/properties/d: object without additionalProperties", "properties/d/properties/x: not required"] {
            assert!(p.contains(needle), "missing {needle:?} in\n{p}");
        }
    }

    #[test]
    fn checker_enforces_types_enums_bounds_and_closed_objects() {
        let c = json!({"type": "object", "properties": {
            "label": {"type": "string", "enum": ["a", "b"]},
            "p": {"type": "number", "minimum": 0.0, "maximum": 1.0},
            "xs": {"type": "array", "items": {"type": "integer", "format": "uint8"}}},
            "required": ["label", "p", "xs"], "additionalProperties": false});
        assert!(check(&json!({"label": "a", "p": 1.0, "xs": [0, 255]}), &c).is_ok());
        for (bad, why) in [
            (json!({"label": "c", "p": 0.5, "xs": []}), "not one of"),
            (json!({"label": "a", "p": 1.11, "xs": []}), "maximum 1"),
            (json!({"label": "a", "p": -0.1, "xs": []}), "minimum 0"),
            (json!({"label": "a", "p": "0.5", "xs": []}), "not of type"),
            (json!({"label": "a", "xs": []}), "required field \"p\""),
            (json!({"label": "a", "p": 0.5, "xs": [], "extra": 1}), "unknown field \"extra\""),
            (json!({"label": "a", "p": 0.5, "xs": [256]}), "answer.xs[0]"),
        ] {
            let e = check(&bad, &c).unwrap_err();
            assert!(e.contains(why), "{bad} → {e}");
        }
        assert!(check(&json!(1), &json!({"multipleOf": 2})).unwrap_err().contains("not enforced"), "an unknown rule is never silently passed");
    }
}
