//! The OpenAI-compatible wire format: request bodies and response parsing. Pure functions, so the
//! same bytes go out from the browser and the CLI, and the mock server can be tested against them.

use super::{Role, Usage};
use serde_json::{json, Value};

/// One chat request, before serialisation.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest<'a> {
    pub model: &'a str,
    pub role: Role,
    pub system: &'a str,
    pub user: &'a str,
    pub max_tokens: u32,
    pub temperature: f32,
    /// A page image for the vision role (`data:image/png;base64,...`).
    pub image_data_url: Option<&'a str>,
}

/// Standard base64 with padding (RFC 4648 §4): page images travel as `data:` URLs in vision calls.
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn chat_body(req: &ChatRequest) -> String {
    let user_content = match req.image_data_url {
        Some(url) => json!([
            {"type": "text", "text": req.user},
            {"type": "image_url", "image_url": {"url": url}}
        ]),
        None => json!(req.user),
    };
    json!({
        "model": req.model,
        "messages": [
            {"role": "system", "content": req.system},
            {"role": "user", "content": user_content}
        ],
        "temperature": req.temperature,
        "max_tokens": req.max_tokens,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": req.role.name(), "strict": true, "schema": req.role.schema()}
        }
    })
    .to_string()
}

/// What a 200 response to a chat call contained.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatReply {
    pub content: String,
    pub finish_reason: String,
    pub usage: Usage,
    /// The model name the server reports (may be a dated snapshot).
    pub model: Option<String>,
}

/// Parse the body of a successful chat completion. Errors name what was wrong.
pub fn parse_chat_reply(body: &str) -> Result<ChatReply, String> {
    let v: Value = serde_json::from_str(body).map_err(|e| format!("response is not JSON: {e}"))?;
    let choice = v
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| "response has no choices".to_string())?;
    let msg = choice.get("message").ok_or_else(|| "response choice has no message".to_string())?;
    if let Some(refusal) = msg.get("refusal").and_then(Value::as_str) {
        if !refusal.is_empty() {
            return Err(format!("model refused: {refusal}"));
        }
    }
    let content = msg.get("content").and_then(Value::as_str).unwrap_or("").to_string();
    let finish_reason = choice.get("finish_reason").and_then(Value::as_str).unwrap_or("").to_string();
    let usage = usage_of(&v);
    let model = v.get("model").and_then(Value::as_str).map(str::to_string);
    Ok(ChatReply { content, finish_reason, usage, model })
}

fn usage_of(v: &Value) -> Usage {
    let u = v.get("usage");
    let get = |k: &str| u.and_then(|u| u.get(k)).and_then(Value::as_u64).unwrap_or(0);
    Usage { input_tokens: get("prompt_tokens"), output_tokens: get("completion_tokens") }
}

/// The error message an API returned, if the body is the usual `{"error": {"message": ...}}`.
pub fn api_error_message(body: &str) -> Option<String> {
    let v: Value = serde_json::from_str(body).ok()?;
    v.get("error")?.get("message")?.as_str().map(str::to_string)
}

pub fn embeddings_body(model: &str, inputs: &[String], dimensions: Option<u32>) -> String {
    let mut b = json!({"model": model, "input": inputs, "encoding_format": "float"});
    if let Some(d) = dimensions {
        b["dimensions"] = json!(d);
    }
    b.to_string()
}

/// Parse an embeddings response into vectors ordered by `index`.
pub fn parse_embeddings(body: &str, expected: usize) -> Result<(Vec<Vec<f32>>, Usage), String> {
    let v: Value = serde_json::from_str(body).map_err(|e| format!("embeddings response is not JSON: {e}"))?;
    let data = v.get("data").and_then(Value::as_array).ok_or("embeddings response has no data")?;
    let mut out: Vec<Option<Vec<f32>>> = vec![None; expected];
    for (i, item) in data.iter().enumerate() {
        let idx = item.get("index").and_then(Value::as_u64).map(|x| x as usize).unwrap_or(i);
        let emb = item
            .get("embedding")
            .and_then(Value::as_array)
            .ok_or("embedding item has no vector")?
            .iter()
            .map(|x| x.as_f64().map(|f| f as f32).ok_or("embedding holds a non-number"))
            .collect::<Result<Vec<f32>, _>>()?;
        if idx >= expected {
            return Err(format!("embedding index {idx} out of range ({expected} inputs)"));
        }
        out[idx] = Some(emb);
    }
    let vecs = out
        .into_iter()
        .enumerate()
        .map(|(i, v)| v.ok_or(format!("embedding for input {i} missing")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((vecs, usage_of(&v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Page images reach the vision model as `data:` URLs: RFC 4648's own test vectors, and every
    /// byte value (the high bits a PNG is full of) in the standard alphabet with padding.
    #[test]
    fn base64_is_rfc4648_standard_with_padding() {
        for (raw, enc) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] {
            assert_eq!(base64(raw.as_bytes()), enc);
        }
        assert_eq!(base64(&[0xfb, 0xff, 0xbf]), "+/+/");
        assert_eq!(base64(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]), "iVBORw0KGgo=");
    }

    #[test]
    fn chat_body_names_the_schema_after_the_role() {
        let b = chat_body(&ChatRequest {
            model: "gpt-4o",
            role: Role::Entailment,
            system: "s",
            user: "u",
            max_tokens: 300,
            temperature: 0.0,
            image_data_url: None,
        });
        let v: Value = serde_json::from_str(&b).unwrap();
        assert_eq!(v["response_format"]["type"], "json_schema");
        assert_eq!(v["response_format"]["json_schema"]["name"], "entailment");
        assert_eq!(v["max_tokens"], 300);
    }

    #[test]
    fn truncated_reply_reports_length_finish_reason() {
        let r = parse_chat_reply(r#"{"model":"m","choices":[{"message":{"content":"{\"a\":"},"finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":7}}"#).unwrap();
        assert_eq!(r.finish_reason, "length");
        assert_eq!(r.usage, Usage { input_tokens: 5, output_tokens: 7 });
    }

    #[test]
    fn embeddings_are_reordered_by_index() {
        let (v, _) = parse_embeddings(r#"{"data":[{"index":1,"embedding":[2.0]},{"index":0,"embedding":[1.0]}]}"#, 2).unwrap();
        assert_eq!(v, vec![vec![1.0], vec![2.0]]);
        assert!(parse_embeddings(r#"{"data":[{"index":0,"embedding":[1.0]}]}"#, 2).is_err());
    }
}
