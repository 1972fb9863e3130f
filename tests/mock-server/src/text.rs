//! Small, deterministic text helpers shared by the role answers: content words, numbers,
//! citation markers, evidence lines and the section layout the agents send (core/src/llm/roles.rs).

use std::collections::BTreeSet;

const STOPWORDS: &[&str] = &[
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "is", "was", "were", "are", "be", "been",
    "being", "what", "how", "which", "who", "whom", "when", "where", "why", "did", "does", "do", "by", "with", "as",
    "from", "that", "this", "these", "those", "it", "its", "their", "there", "than", "then", "into", "over", "per",
    "has", "have", "had", "not", "no", "but", "if", "so", "such", "can", "could", "would", "should", "will", "about",
    "also", "any", "all", "each", "our", "we", "you", "they", "he", "she", "his", "her", "them", "us", "i", "me",
    "my", "up", "out", "much", "many", "more", "most", "other", "some", "year", "years", "company", "companies",
];

pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.contains(&w)
}

/// Light normalisation so that "revenues" meets "revenue".
pub fn norm_word(w: &str) -> String {
    let mut w = w.to_lowercase();
    if w.ends_with("'s") {
        w.truncate(w.len() - 2);
    }
    if w.len() > 4 && w.ends_with("ies") {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.truncate(w.len() - 1);
    }
    w
}

/// Alphabetic word tokens (letters, apostrophes inside), original case.
pub fn raw_words(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    for ch in s.chars() {
        if ch.is_alphanumeric() || (ch == '\'' && !cur.is_empty()) || (ch == '&' && !cur.is_empty()) {
            cur.push(ch);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|w| w.trim_end_matches('\'').to_string()).filter(|w| !w.is_empty()).collect()
}

/// Normalised content words: no stopwords, at least one letter, length ≥ 2.
pub fn content_words(s: &str) -> Vec<String> {
    raw_words(s)
        .into_iter()
        .filter(|w| w.chars().any(|c| c.is_alphabetic()))
        .map(|w| norm_word(&w))
        .filter(|w| w.chars().count() >= 2 && !is_stopword(w))
        .collect()
}

pub fn content_set(s: &str) -> BTreeSet<String> {
    content_words(s).into_iter().collect()
}

/// How many of `a`'s content words occur in `b`'s.
pub fn overlap(a: &BTreeSet<String>, b: &BTreeSet<String>) -> usize {
    a.iter().filter(|w| b.contains(*w)).count()
}

/// A number found in text.
#[derive(Debug, Clone, PartialEq)]
pub struct Num {
    /// As printed (digits with separators, without sign or currency).
    pub text: String,
    pub value: f64,
    /// Decimal places as printed.
    pub decimals: usize,
    /// Byte offsets in the source string.
    pub start: usize,
    pub end: usize,
}

impl Num {
    pub fn is_year(&self) -> bool {
        self.decimals == 0 && !self.text.contains(',') && (1900.0..=2100.0).contains(&self.value)
    }
}

/// Every number: runs of digits with `,` thousands separators and an optional decimal part.
pub fn numbers(s: &str) -> Vec<Num> {
    let b = s.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            let mut j = i;
            let mut decimals = 0;
            let mut seen_dot = false;
            while j < b.len() {
                if b[j].is_ascii_digit() {
                    if seen_dot {
                        decimals += 1;
                    }
                    j += 1;
                } else if b[j] == b','
                    && !seen_dot
                    && b.len() >= j + 4
                    && b[j + 1..j + 4].iter().all(u8::is_ascii_digit)
                    && (j + 4 >= b.len() || !b[j + 4].is_ascii_digit())
                {
                    j += 1;
                } else if b[j] == b'.' && !seen_dot && j + 1 < b.len() && b[j + 1].is_ascii_digit() {
                    seen_dot = true;
                    j += 1;
                } else {
                    break;
                }
            }
            let text = &s[start..j];
            let clean: String = text.chars().filter(|c| *c != ',').collect();
            if let Ok(value) = clean.parse::<f64>() {
                out.push(Num { text: text.to_string(), value, decimals, start, end: j });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

pub fn same_number(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// `[source, p.N]` markers: (byte start, byte end) of each.
pub fn citation_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut i = 0;
    while let Some(off) = s[i..].find('[') {
        let start = i + off;
        match s[start..].find(']') {
            Some(len) => {
                let inner = &s[start + 1..start + len];
                if is_citation_inner(inner) {
                    out.push((start, start + len + 1));
                }
                i = start + len + 1;
            }
            None => break,
        }
    }
    out
}

fn is_citation_inner(inner: &str) -> bool {
    match inner.rfind(", p.") {
        Some(k) => {
            let page = inner[k + 4..].trim();
            !page.is_empty() && page.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '–') && k > 0
        }
        None => false,
    }
}

pub fn citations(s: &str) -> Vec<String> {
    citation_spans(s).into_iter().map(|(a, b)| s[a..b].to_string()).collect()
}

pub fn strip_citations(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (a, b) in citation_spans(s) {
        out.push_str(&s[last..a]);
        last = b;
    }
    out.push_str(&s[last..]);
    collapse_ws(&out)
}

pub fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One rendered evidence line `[<source>, p.<page>] <content>`.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceLine {
    /// The marker, verbatim (`[file.pdf, p.3]`), or empty when the line had none.
    pub citation: String,
    pub content: String,
}

/// Parse an evidence block; lines without a leading marker continue the previous line.
pub fn evidence_lines(block: &str) -> Vec<EvidenceLine> {
    let mut out: Vec<EvidenceLine> = vec![];
    for line in block.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let t = t.strip_prefix("- ").unwrap_or(t);
        let lead = citation_spans(t).into_iter().next().filter(|(a, _)| *a == 0);
        match lead {
            Some((_, b)) => out.push(EvidenceLine { citation: t[..b].to_string(), content: t[b..].trim().to_string() }),
            None => match out.last_mut() {
                Some(prev) => {
                    prev.content.push(' ');
                    prev.content.push_str(t);
                }
                None => out.push(EvidenceLine { citation: String::new(), content: t.to_string() }),
            },
        }
    }
    out.retain(|l| !l.content.is_empty() || !l.citation.is_empty());
    out
}

/// True when an evidence block is empty or only says there is no evidence.
pub fn is_no_evidence(block: &str) -> bool {
    let t = block.trim();
    if t.is_empty() {
        return true;
    }
    let lower = t.to_lowercase();
    let placeholder = ["no evidence", "no supporting evidence", "(none)", "none", "no relevant evidence", "nothing retrieved"];
    citation_spans(t).is_empty() && (placeholder.iter().any(|p| lower.starts_with(p) || lower.trim_matches(|c| c == '(' || c == ')' || c == '.') == *p) || lower.len() < 80 && lower.contains("no evidence"))
}

/// The text of a section introduced by a line `HEADER:` (or `HEADER: value` on the same line),
/// up to the next known section header or the end.
pub fn section(text: &str, header: &str, all_headers: &[&str]) -> Option<String> {
    let mut lines = text.lines().enumerate();
    let mut start_val = None;
    let mut start_line = 0;
    for (i, line) in lines.by_ref() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix(header) {
            if let Some(rest) = rest.strip_prefix(':') {
                start_val = Some(rest.trim().to_string());
                start_line = i + 1;
                break;
            }
        }
    }
    let first = start_val?;
    let mut out = vec![];
    if !first.is_empty() {
        out.push(first);
    }
    for line in text.lines().skip(start_line) {
        let t = line.trim_start();
        if all_headers.iter().any(|h| t.starts_with(h) && t[h.len()..].starts_with(':')) {
            break;
        }
        out.push(line.to_string());
    }
    Some(out.join("\n").trim().to_string())
}

/// Sentences of a passage (split after . ! ? followed by whitespace).
pub fn sentences(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // Bullets and semicolon-separated list items end a sentence too (press-release highlights).
        if matches!(c, '•' | '▪' | '●') {
            let t = cur.trim().to_string();
            if !t.is_empty() {
                out.push(t);
            }
            cur.clear();
            continue;
        }
        cur.push(c);
        if matches!(c, '.' | '!' | '?') {
            let next_ws = chars.get(i + 1).map(|n| n.is_whitespace()).unwrap_or(true);
            let after = chars[i + 1..].iter().find(|n| !n.is_whitespace());
            let prev_digit = i > 0 && chars[i - 1].is_ascii_digit();
            let next_digit = chars.get(i + 1).map(|n| n.is_ascii_digit()).unwrap_or(false);
            let starts_new = after.map(|n| n.is_uppercase() || n.is_ascii_digit() || *n == '"' || *n == '\'' || *n == '[').unwrap_or(true);
            if next_ws && starts_new && !(prev_digit && next_digit) {
                let t = cur.trim().to_string();
                if !t.is_empty() {
                    out.push(t);
                }
                cur.clear();
            }
        }
    }
    let t = cur.trim().to_string();
    if !t.is_empty() {
        out.push(t);
    }
    out
}

/// Approximate tokens: ceil(chars / 4), at least 1.
pub fn approx_tokens(chars: usize) -> u64 {
    (chars as u64).div_ceil(4).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullets_split_sentences_and_decimals_do_not() {
        let s = sentences("Highlights • Sales grew 7.0% - 8.0%; figures exclude X • Company secured $13.2 billion in cash proceeds");
        assert_eq!(s, vec!["Highlights", "Sales grew 7.0% - 8.0%; figures exclude X", "Company secured $13.2 billion in cash proceeds"]);
    }

    #[test]
    fn numbers_keep_separators_and_decimals() {
        let n = numbers("Revenue was $1,234.5 million in FY2022, up 12%; (2,000) and 3M");
        let v: Vec<f64> = n.iter().map(|n| n.value).collect();
        assert_eq!(v, vec![1234.5, 2022.0, 12.0, 2000.0, 3.0]);
        assert!(n[1].is_year());
    }

    #[test]
    fn citations_are_found_and_stripped() {
        let s = "Revenue rose [3M_2022_10K.pdf, p.12] and fell [a, b] [x.pdf, p.3].";
        assert_eq!(citations(s), vec!["[3M_2022_10K.pdf, p.12]", "[x.pdf, p.3]"]);
        assert_eq!(strip_citations(s), "Revenue rose and fell [a, b] .");
    }

    #[test]
    fn evidence_lines_parse_marker_and_continuations() {
        let l = evidence_lines("[a.pdf, p.1] First line\ncontinued\n[b.pdf, p.2] Revenue / FY2022 = 5");
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].content, "First line continued");
        assert_eq!(l[1].citation, "[b.pdf, p.2]");
    }

    #[test]
    fn sections_stop_at_next_header() {
        let t = "CLAIM: x y\n\nEVIDENCE:\n[a, p.1] z\n\nAFFIRMATIVE BRIEF:\nbrief";
        let h = ["CLAIM", "EVIDENCE", "AFFIRMATIVE BRIEF"];
        assert_eq!(section(t, "CLAIM", &h).unwrap(), "x y");
        assert_eq!(section(t, "EVIDENCE", &h).unwrap(), "[a, p.1] z");
        assert_eq!(section(t, "AFFIRMATIVE BRIEF", &h).unwrap(), "brief");
    }
}
