//! Content streams hayro would stop reading part-way (issue 3 deliverable 5: a malformed stream
//! costs what is malformed, with a warning, not the rest of the page).
//!
//! hayro-syntax 0.9 (`content::read_instruction`) ends a content stream at the first token it cannot
//! read: a delimiter no token starts with — a `)`, `]` or `>` with nothing open, a `{` or `}`. A
//! writer's stray `]` after a text object thus silently cost every line below it; pdftotext
//! reports the character ("Unknown operator ']'") and reads on. The reader (`read.rs`) puts a
//! marked-content sentinel after each page's content, so it sees when hayro did not read to the
//! end — at no cost on a sound page. Only then is the content lexed here as hayro lexes it, each
//! stray delimiter it would stop at blanked (made a space), and the page read again from the
//! repaired bytes, with a warning that says where.

use super::budget::{is_pdf_space, operator_end};
use hayro_syntax::content::UntypedIter;

/// Stray delimiters blanked on one page at most; past that the rest of the page is not read, as
/// hayro would have it (a stream of nothing but delimiters would otherwise be lexed once per byte).
pub(crate) const MAX_REPAIRS: usize = 64;

/// A page's content with its stray delimiters blanked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repaired {
    pub content: Vec<u8>,
    /// Offset and byte of each delimiter blanked, in order.
    pub strays: Vec<(usize, u8)>,
}

/// `data` with every stray delimiter hayro would stop at blanked, or `None` when hayro reads it to
/// the end (or stops for some other reason, which blanking cannot mend).
pub(crate) fn repair(data: &[u8]) -> Option<Repaired> {
    let mut content: Option<Vec<u8>> = None;
    let mut strays = vec![];
    // Blanked but not yet read past (`>>` is two strays in a row): undone if hayro never gets by.
    let mut pending: Vec<(usize, u8)> = vec![];
    let mut from = 0;
    loop {
        let cur = content.as_deref().unwrap_or(data);
        let end = from + read_end(&cur[from..]);
        if pending.last().is_some_and(|&(at, _)| end > at) {
            strays.append(&mut pending);
            from = end;
        }
        if skip_space_and_comments(cur, end) >= cur.len() || strays.len() + pending.len() >= MAX_REPAIRS {
            break;
        }
        let Some(at) = first_stray(cur, end) else { break };
        let buf = content.get_or_insert_with(|| data.to_vec());
        pending.push((at, buf[at]));
        buf[at] = b' ';
    }
    if let Some(buf) = content.as_mut() {
        for &(at, byte) in &pending {
            buf[at] = byte;
        }
    }
    if strays.is_empty() {
        return None;
    }
    content.map(|content| Repaired { content, strays })
}

/// Where hayro stops reading `data`: the end of the last operator it reads.
fn read_end(data: &[u8]) -> usize {
    let mut ops = UntypedIter::new(data);
    let mut end = 0;
    while let Some(op) = ops.next() {
        if let Some(e) = operator_end(&op, data) {
            end = e;
        }
    }
    end
}

fn is_delimiter(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%')
}

fn skip_space_and_comments(d: &[u8], mut i: usize) -> usize {
    while i < d.len() {
        if is_pdf_space(d[i]) {
            i += 1;
        } else if d[i] == b'%' {
            while i < d.len() && d[i] != b'\n' && d[i] != b'\r' {
                i += 1;
            }
        } else {
            break;
        }
    }
    i
}

/// The first delimiter from `i` on that no token starts and nothing open closes (ISO 32000-1
/// §7.2.2, §7.3), among the operands before the next operator; `None` when an operator, an
/// unterminated string or the end comes first.
fn first_stray(d: &[u8], mut i: usize) -> Option<usize> {
    // Open arrays (`[`) and dictionaries (`<<`), innermost last.
    let mut open: Vec<u8> = vec![];
    loop {
        i = skip_space_and_comments(d, i);
        let &b = d.get(i)?;
        match b {
            b'(' => {
                let mut depth = 0usize;
                loop {
                    match *d.get(i)? {
                        b'\\' => i += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            b'<' if d.get(i + 1) == Some(&b'<') => {
                open.push(b'<');
                i += 2;
            }
            b'<' => i += d[i..].iter().position(|&c| c == b'>')? + 1,
            b'>' if d.get(i + 1) == Some(&b'>') && open.last() == Some(&b'<') => {
                open.pop();
                i += 2;
            }
            b'[' => {
                open.push(b'[');
                i += 1;
            }
            b']' if open.last() == Some(&b'[') => {
                open.pop();
                i += 1;
            }
            b')' | b'>' | b']' | b'{' | b'}' => return Some(i),
            _ => {
                let start = i;
                i += 1;
                while i < d.len() && !is_pdf_space(d[i]) && !is_delimiter(d[i]) {
                    i += 1;
                }
                // A token that is not a name, number or keyword operand is an operator: hayro
                // read up to it, so what stopped it is not a stray delimiter.
                let t = &d[start..i];
                let operand = b == b'/'
                    || t.iter().all(|c| matches!(c, b'0'..=b'9' | b'.' | b'+' | b'-'))
                    || matches!(t, b"true" | b"false" | b"null");
                if !operand && open.is_empty() {
                    return None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(content: &[u8]) -> Vec<u8> {
        repair(content).map(|r| r.content).unwrap_or_else(|| content.to_vec())
    }

    #[test]
    fn a_stray_delimiter_between_text_objects_is_blanked_and_the_rest_is_read() {
        for stray in [&b"]"[..], b")", b">>", b"}", b"{", b">"] {
            let mut content = b"BT /F1 12 Tf 72 700 Td (first [x] (y) <41>) Tj ET\n".to_vec();
            content.extend_from_slice(stray);
            content.extend_from_slice(b"\nBT /F1 12 Tf 72 680 Td [(second) -250 (line)] TJ ET");
            let r = repair(&content).expect("repaired");
            assert_eq!(r.strays.len(), stray.len(), "{:?}", String::from_utf8_lossy(stray));
            let at = b"BT /F1 12 Tf 72 700 Td (first [x] (y) <41>) Tj ET\n".len();
            assert_eq!(r.strays[0], (at, stray[0]));
            // hayro now reads the whole stream: the last operator is the final ET.
            assert_eq!(read_end(&r.content), r.content.len());
        }
    }

    #[test]
    fn a_well_formed_stream_is_left_as_it_is() {
        let content = b"q BT /F1 12 Tf 72 700 Td (a \\) b \\( c) Tj [(d) 10 (e)] TJ <414243> Tj ET Q\n\
                        /P << /MCID 0 /Alt (x]) >> BDC EMC % a comment ] )\n1 0 0 1 0 0 cm";
        assert_eq!(repair(content), None);
        assert_eq!(text_of(content), content.to_vec());
    }

    #[test]
    fn a_stream_that_stops_for_another_reason_is_not_touched() {
        // Operands with no operator after them: nothing to blank.
        assert_eq!(repair(b"BT (a) Tj ET 1 2"), None);
        // An unterminated string: hayro stops inside it, and so does the lexing.
        assert_eq!(repair(b"BT (a) Tj ET (never closed ] Tj"), None);
    }

    #[test]
    fn blanking_stops_after_the_cap() {
        // Strays one after another between text objects: each is blanked up to the cap, and the
        // page is read up to the first one past it.
        let content: Vec<u8> = b"BT (a) Tj ET ]\n".repeat(100).into_iter().chain(b"BT (b) Tj ET".iter().copied()).collect();
        let r = repair(&content).expect("repaired");
        assert_eq!(r.strays.len(), MAX_REPAIRS);
        let end = read_end(&r.content);
        assert_eq!(end, MAX_REPAIRS * 15 + 12, "read up to the text object before the 65th stray");
        // A run of strays longer than the cap is never read past: nothing is blanked.
        let run: Vec<u8> = b"BT (a) Tj ET ".iter().chain([b']'; 200].iter()).chain(b" BT (b) Tj ET").copied().collect();
        assert_eq!(repair(&run), None);
    }
}
