//! Prose chunking (spec §4.5): sentence splitting with abbreviation protection, then 1,000-character
//! chunks with a 2-sentence overlap.
//!
//! One fix over the reference (spec §12): `etc.` is not protected. The reference keeps accumulating
//! after "etc.", so a sentence ending in "etc." never splits from the next one; since a split is only
//! ever considered before an uppercase letter, digit or quote, "etc." followed by one of those is a
//! sentence end far more often than not.

/// §4.5 protected abbreviations (the reference's 22 minus `etc.`).
const PROTECTED: [&str; 21] = [
    "mr.", "mrs.", "dr.", "vs.", "e.g.", "i.e.", "no.", "fig.", "approx.", "dec.", "jan.", "feb.",
    "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.",
];

/// §4.5: split after `.`, `!`, `?` + whitespace when the next character is an uppercase ASCII letter,
/// a digit or a quote; re-join pieces whose last token is a protected abbreviation. Whitespace inside
/// a sentence is collapsed to single spaces (page text carries line breaks).
///
/// Beyond the reference, which knew only English: a capital of any alphabet (Cyrillic, Greek,
/// accented Latin) starts a sentence too, and so does a letter of a script without capitals
/// (Hebrew, Arabic), after the Arabic question mark and full stop as well — otherwise a Hebrew or
/// Arabic report's page was one sentence, and a chunk.
pub fn split_sentences(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut pieces: Vec<String> = vec![];
    let mut cur = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        cur.push(c);
        if matches!(c, '.' | '!' | '?' | '\u{061F}' | '\u{06D4}') && i + 1 < chars.len() && chars[i + 1].is_whitespace() {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if let Some(&n) = chars.get(j) {
                if n.is_uppercase() || caseless_letter(n) || n.is_ascii_digit() || matches!(n, '"' | '\'' | '“') {
                    pieces.push(std::mem::take(&mut cur));
                    i = j;
                    continue;
                }
            }
        }
        i += 1;
    }
    pieces.push(cur);

    let mut out: Vec<String> = vec![];
    let mut acc = String::new();
    for p in pieces {
        let p = p.split_whitespace().collect::<Vec<_>>().join(" ");
        if p.is_empty() {
            continue;
        }
        if acc.is_empty() {
            acc = p;
        } else {
            acc.push(' ');
            acc.push_str(&p);
        }
        let last = acc.split_whitespace().last().unwrap_or("").to_lowercase();
        if PROTECTED.contains(&last.as_str()) {
            continue;
        }
        out.push(std::mem::take(&mut acc));
    }
    if !acc.is_empty() {
        out.push(acc);
    }
    out
}

/// A letter of a script without capitals, so any of its words may start a sentence: Hebrew,
/// Arabic (with Syriac and Thaana), CJK, Thai.
fn caseless_letter(c: char) -> bool {
    c.is_alphabetic()
        && matches!(c as u32, 0x0590..=0x08FF | 0x0E00..=0x0E7F | 0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7AF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// §4.5 chunk assembly: running length counts each sentence as len + 1; before adding a sentence,
/// if the chunk is non-empty and would pass `target`, emit it and restart from its last `overlap`
/// sentences. Chunks can exceed `target` (long sentences, overlap + next sentence) — as specified.
pub fn chunk_sentences(sents: &[String], target: usize, overlap: usize) -> Vec<String> {
    let mut chunks = vec![];
    let mut cur: Vec<&String> = vec![];
    let mut len = 0usize;
    for s in sents {
        let n = s.chars().count();
        if !cur.is_empty() && len + n + 1 > target {
            chunks.push(join(&cur));
            let keep = cur.len().saturating_sub(overlap);
            cur.drain(..keep);
            len = cur.iter().map(|s| s.chars().count() + 1).sum();
        }
        cur.push(s);
        len += n + 1;
    }
    if !cur.is_empty() {
        chunks.push(join(&cur));
    }
    chunks
}

fn join(v: &[&String]) -> String {
    v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_do_not_end_sentences_but_etc_does() {
        let s = split_sentences(
            "Revenue rose vs. Last year. See Fig. 3 for details. Costs, taxes etc. Were flat.",
        );
        assert_eq!(
            s,
            vec![
                "Revenue rose vs. Last year.",
                "See Fig. 3 for details.",
                "Costs, taxes etc.",
                "Were flat."
            ]
        );
    }

    #[test]
    fn sentences_split_only_before_capitals_digits_and_quotes() {
        let s = split_sentences(
            "It was 3.5 per cent. and rising. 2019 was better! \"Good\" said he? yes.",
        );
        assert_eq!(
            s,
            vec![
                "It was 3.5 per cent. and rising.",
                "2019 was better!",
                "\"Good\" said he? yes."
            ]
        );
    }

    #[test]
    fn sentences_of_other_alphabets_and_caseless_scripts_split_too() {
        assert_eq!(split_sentences("Выручка выросла. Прибыль упала."), vec!["Выручка выросла.", "Прибыль упала."]);
        assert_eq!(split_sentences("הרווח גדל. ההכנסות ירדו."), vec!["הרווח גדל.", "ההכנסות ירדו."]);
        assert_eq!(split_sentences("هل ارتفع الربح؟ نعم ارتفع."), vec!["هل ارتفع الربح؟", "نعم ارتفع."]);
        // Still not before a lower-case word.
        assert_eq!(split_sentences("Prix env. élevé."), vec!["Prix env. élevé."]);
    }

    #[test]
    fn chunks_overlap_by_two_sentences_and_respect_the_target() {
        let sents: Vec<String> = (0..30)
            .map(|i| format!("Sentence number {i} has some words in it."))
            .collect();
        let chunks = chunk_sentences(&sents, 200, 2);
        assert!(chunks.len() > 3);
        for w in chunks.windows(2) {
            let prev: Vec<&str> = w[0].split(". ").collect();
            let tail = prev[prev.len() - 1];
            assert!(w[1].contains(tail.trim_end_matches('.')), "{w:?}");
        }
        assert!(chunks.iter().all(|c| c.len() <= 200 + 60));
    }
}
