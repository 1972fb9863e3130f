//! Captions (spec §4.1 step 5: regions exclude captions and notes; a table keeps its caption): a
//! caption, title or note line ("Table 3.4: …", "Source: …") is never one of a table's rows, and
//! the line right above a table names it — with the title line heading its headnote, the whole
//! sentence that introduces it, a statement's title over its period line, or the line set over a
//! line of units ("(In millions)").

use crate::ingest::layout::{Line, Word};
use crate::ingest::Table;
use crate::corpus::BBox;

/// The first word of a caption line, lower-cased (see `is_caption`): a label, followed by its
/// number ("Table 3.4"), or a note's lead-in, followed by a colon ("Source:").
const LABEL_WORDS: [&str; 7] = ["table", "figure", "fig", "chart", "exhibit", "graph", "box"];
const NOTE_WORDS: [&str; 4] = ["source", "sources", "note", "notes"];

/// A caption, title or note line ("Table 3.4: …", "Figure 2", "Source: …", "Notes: …") frames a
/// table and is never one of its rows (§4.1 step 5: regions exclude captions and notes).
pub(super) fn is_caption(line: &Line) -> bool {
    // The line's first word (in reading order) is one of its words: a line with none of these
    // words is not joined up to look.
    let caption_word = |w: &Word| {
        let w = w.text.trim_end_matches([':', '.']);
        LABEL_WORDS.iter().chain(&NOTE_WORDS).any(|c| w.eq_ignore_ascii_case(c))
    };
    if !line.words.iter().any(caption_word) {
        return false;
    }
    let t = line.text();
    let mut words = t.split_whitespace();
    let first = words
        .next()
        .unwrap_or("")
        .trim_end_matches([':', '.'])
        .to_lowercase();
    let second = words.next().unwrap_or("");
    let numbered = second
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c.is_ascii_uppercase() && second.len() <= 4);
    if LABEL_WORDS.contains(&first.as_str()) {
        numbered
    } else if NOTE_WORDS.contains(&first.as_str()) {
        t.split_whitespace().next().is_some_and(|w| w.ends_with(':'))
    } else {
        false
    }
}

/// Captions: a short line right above the table, not one of another table's rows.
pub(super) fn caption(tables: &mut [Table], lines: &[&Line]) {
    let boxes: Vec<BBox> = tables.iter().map(|t| t.bbox).collect();
    for (k, t) in tables.iter_mut().enumerate() {
        // A line across the table's columns that is not one of another table's rows.
        let over = |l: &Line| {
            let cy = (l.bbox[1] + l.bbox[3]) / 2.0;
            let in_other =
                boxes.iter().enumerate().any(|(j, b)| j != k && cy > b[1] && cy < b[3] && l.fx0 < b[2] && l.fx1 > b[0]);
            l.fx1 > t.bbox[0] && l.fx0 < t.bbox[2] && !in_other
        };
        // A line of prose is no caption, unless it ends by introducing what follows ("…
        // measurements (in millions):"), however long.
        let ends_in_colon = |l: &Line| l.words.last().is_some_and(|w| w.text.ends_with(':'));
        let above = lines
            .iter()
            .filter(|l| l.fbot <= t.bbox[1] + 0.5 && t.bbox[1] - l.fbot < 3.0 * l.size && (l.words.len() <= 20 || ends_in_colon(l)) && over(l))
            .max_by(|a, b| a.fbot.total_cmp(&b.fbot));
        if let Some(l) = above {
            // A line of units ("(In millions)") names no table: the caption is what is set over it,
            // with the units after it.
            let units_over = |u: &Line| over(u) && u.fbot > l.ftop - UNITS_LEADING_EMS * u.size.max(l.size);
            let (l, units) = match is_units_line(l).then(|| set_above(&lines, l, f32::MAX, &units_over)).flatten() {
                Some(up) => (up, Some(l.text())),
                None => (*l, None),
            };
            let caption = titled_caption(&lines, l, &over)
                .or_else(|| introducing_sentence(&lines, l, &over))
                .or_else(|| titled_period(&lines, l, &over))
                .unwrap_or_else(|| l.text());
            t.caption = match units {
                Some(u) => format!("{caption} {u}"),
                None => caption,
            };
        }
    }
}

/// The phrases a statement's period line opens with, under the statement's title.
const PERIOD_OPENINGS: [&str; 8] =
    ["for the", "years ended", "year ended", "fiscal years ended", "fiscal year ended", "three months ended", "six months ended", "nine months ended"];

/// A statement's period line ("For the Years Ended December 28, 2019, December 29, 2018 and
/// December 30, 2017") under its title ("Consolidated Statements of Comprehensive Income"): the
/// title set close over it, then the period. `None` when `line` is no period line (a sentence
/// ends in a full stop or a colon) or no short heading is set over it.
fn titled_period(lines: &[&Line], line: &Line, keep: &dyn Fn(&Line) -> bool) -> Option<String> {
    let text = line.text();
    let lower = text.to_lowercase();
    if !PERIOD_OPENINGS.iter().any(|p| lower.starts_with(p)) || text.ends_with(['.', ':']) {
        return None;
    }
    let heading = |t: &&Line| is_run_in_heading(t) && !is_units_line(t);
    let mut title = set_close_above(lines, line, keep).filter(heading)?;
    // The company's letterhead between them ("PepsiCo, Inc. and Subsidiaries") names no table.
    if is_entity_name(&title.text()) {
        title = set_close_above(lines, title, keep).filter(heading)?;
    }
    Some(format!("{} {text}", title.text()))
}

/// Words a line of units may have ("(in millions, except per share data)").
const UNITS_WORDS: usize = 8;

/// A line that only gives the table's units: short and wholly in parentheses ("(In millions)",
/// "(Dollars in thousands)").
fn is_units_line(line: &Line) -> bool {
    let t = line.text();
    let t = t.trim();
    line.words.len() <= UNITS_WORDS && t.starts_with('(') && t.ends_with(')') && t[1..t.len() - 1].find([')', '(']).is_none()
}

/// Lines of a headnote above a table that a title line may head ("Table 324. Arrests by Sex and
/// Age: 2009" over four lines of "[In thousands … See text]").
const HEADNOTE_LINES: usize = 6;

/// The table's title when the line right above it (`nearest`) ends a closely set block — a
/// headnote — that opens with a numbered label line ("Table 324. …"): that line, and the lines
/// of the title it wraps onto before the headnote's bracket. `None` when the block has no such
/// line (the nearest line is the caption, as before).
fn titled_caption(lines: &[&Line], nearest: &Line, over: &dyn Fn(&Line) -> bool) -> Option<String> {
    // A sentence that introduces the table ("… are listed below:") is what it says of it.
    if nearest.words.last().is_some_and(|w| w.text.ends_with(':')) {
        return None;
    }
    let mut block = vec![nearest];
    while block.len() <= HEADNOTE_LINES {
        let cur = block[block.len() - 1];
        if is_label_caption(cur) {
            break;
        }
        block.push(set_close_above(lines, cur, over)?);
    }
    let top = block.len() - 1;
    if top == 0 || !is_label_caption(block[top]) {
        return None;
    }
    // "Figure 2.4 illustrates …" is a sentence that names a figure, not a title.
    let after_label = block[top].words.get(2).and_then(|w| w.text.chars().next());
    if after_label.is_some_and(char::is_lowercase) {
        return None;
    }
    let mut title = block[top].text();
    // The title goes on under its label line when that line is the label alone ("Exhibit 1")
    // or is set full (the title wrapped).
    let widest = block.iter().map(|l| l.fx1 - l.fx0).fold(0.0, f32::max);
    let wrapped = block[top].words.len() <= 2 || block[top].fx1 - block[top].fx0 >= 0.8 * widest;
    let mut taken = 0;
    for l in block[..top].iter().rev() {
        let t = l.text();
        if !wrapped || taken == 2 || t.starts_with(['[', '(']) {
            break;
        }
        // A statement's letterhead names the company ("Ulta Beauty, Inc.") over the statement's
        // title: the source names it already, and on every statement it would match every query
        // that names the company.
        if is_entity_name(&t) {
            continue;
        }
        title.push(' ');
        title.push_str(&t);
        taken += 1;
    }
    Some(title)
}

/// The legal forms that end a company's name.
const LEGAL_FORMS: [&str; 15] = [
    "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc", "lp", "plc", "n.v", "ag", "se", "s.a",
];

/// A short line that is a company's name: it ends in a legal form ("Ulta Beauty, Inc."), or in
/// one and its subsidiaries ("PepsiCo, Inc. and Subsidiaries").
fn is_entity_name(t: &str) -> bool {
    let t = t.trim();
    let lower = t.to_lowercase();
    let t = ["and subsidiaries", "and its subsidiaries"]
        .iter()
        .find_map(|s| lower.ends_with(s).then(|| &t[..t.len() - s.len()]))
        .unwrap_or(t);
    let words: Vec<&str> = t.split_whitespace().collect();
    words.len() <= 6
        && words
            .last()
            .is_some_and(|w| LEGAL_FORMS.contains(&w.trim_end_matches('.').trim_end_matches(',').to_lowercase().as_str()))
}

/// The line set right above `cur` in the same block (less than 0.8 em of leading between them)
/// among those `keep` accepts.
fn set_close_above<'a>(lines: &[&'a Line], cur: &Line, keep: &dyn Fn(&Line) -> bool) -> Option<&'a Line> {
    set_above(lines, cur, 0.8 * cur.size, keep)
}

/// The line set right above `cur`, less than `leading` points above it, among those `keep`
/// accepts.
fn set_above<'a>(lines: &[&'a Line], cur: &Line, leading: f32, keep: &dyn Fn(&Line) -> bool) -> Option<&'a Line> {
    lines
        .iter()
        .copied()
        .filter(|l| l.fbot <= cur.ftop + 0.5 && cur.ftop - l.fbot < leading && keep(l))
        .max_by(|a, b| a.fbot.total_cmp(&b.fbot))
}

/// How far over a line of units (in ems of the larger type) the line it qualifies may be set: a
/// blank line's worth ("The components of inventories were as follows:" over "(In millions)").
const UNITS_LEADING_EMS: f32 = 1.5;

/// Lines of a paragraph above a table that the sentence introducing it may span.
const INTRO_LINES: usize = 4;

/// The sentence that introduces the table, when the line right above it ends one: with a colon
/// ("… The following table presents the effects of derivatives on our Consolidated Statements of
/// Earnings for fiscal 2017 and 2016:") or a full stop ("The table below sets forth … consumer
/// loans, excluding credit card, by class."). From the sentence's start, up to `INTRO_LINES`
/// closely set lines up, rather than its last line alone, and from the last sentence's start on
/// that line ("measurement purposes. We calculate ARR as follows:"). `None` when the line ends
/// neither way or is the whole sentence; and, after a full stop, when the sentence's start is not
/// within reach (a long paragraph's last line is then the caption, as before).
fn introducing_sentence(lines: &[&Line], nearest: &Line, over: &dyn Fn(&Line) -> bool) -> Option<String> {
    let last = nearest.words.last()?.text.trim_end_matches(['"', '”', '’', ')']);
    let colon = last.ends_with(':');
    if !colon && !last.ends_with('.') {
        return None;
    }
    let mut block = vec![nearest];
    // The block reached the paragraph's first line (no line set close above it), and the heading
    // set over it, if any.
    let mut top = false;
    let mut heading: Option<&Line> = None;
    while block.len() < INTRO_LINES {
        let cur = block[block.len() - 1];
        if sentence_start(&cur.text()).is_some() {
            break;
        }
        let Some(next) = set_close_above(lines, cur, over) else {
            top = true;
            break;
        };
        if opens_sentence_under(cur, next) {
            top = true;
            heading = is_run_in_heading(next).then_some(next);
            break;
        }
        block.push(next);
    }
    // After a full stop, a line that holds the sentence's start is the caption as it is (its
    // first sentence is as much the table's: "1. Financial Statements. See Index …").
    if !colon && block.len() == 1 {
        return None;
    }
    let text = block.iter().rev().map(|l| l.text()).collect::<Vec<_>>().join(" ");
    match sentence_start(&text) {
        Some(k) => Some(text[k..].to_string()),
        // The paragraph opens the sentence: the lines from its first, if there are several, under
        // their heading ("Pension Plans — The fair values for the pension plans … are as follows:").
        None if block.len() > 1 && (colon || top && text.starts_with(char::is_uppercase)) || heading.is_some() => {
            Some(match heading.map(|h| h.text()) {
                Some(h) if h.ends_with(':') => format!("{h} {text}"),
                Some(h) => format!("{h} — {text}"),
                None => text,
            })
        }
        None => None,
    }
}

/// Words a heading set on a line of its own over a paragraph may have.
const HEADING_WORDS: usize = 8;

/// A heading over a paragraph: a short line of words that ends no sentence ("Nonaccrual loans",
/// "NOTE 14: INCOME TAXES", "Derivative Impact on the Statements of Income:"); not a line of
/// years or figures ("2017 2016 2015").
fn is_run_in_heading(line: &Line) -> bool {
    let words = line.words.iter().filter(|w| w.text.starts_with(char::is_alphabetic)).count();
    line.words.len() <= HEADING_WORDS
        && words * 2 > line.words.len()
        && line.words.last().is_some_and(|w| !w.text.ends_with(['.', '?', '!', ';', ',']))
}

/// `line` opens a sentence (or a paragraph) under the line set close `above` it: it starts with
/// a capital, and the line above ends a sentence, or is set in another face (a heading in bold:
/// "Nonaccrual loans" over "The following table provides …"), or stops short of it by four ems
/// or more (a heading, or a paragraph's last line).
fn opens_sentence_under(line: &Line, above: &Line) -> bool {
    let (Some(first), Some(end)) = (line.words.first(), above.words.last()) else { return false };
    first.text.starts_with(char::is_uppercase)
        && (end.text.trim_end_matches(['"', '”', '’', ')']).ends_with(['.', '?', '!', ':'])
            || end.font != first.font
            || above.fx1 < line.fx1 - 4.0 * line.size)
}

/// Where the last sentence of `text` starts: after the last full stop (or `?`/`!`, a closing
/// quote or bracket allowed) followed by a space and a capital, unless the stop ends an
/// abbreviation ("U.S. Dollar", "No. 5").
fn sentence_start(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut found = None;
    for (i, _) in text.match_indices(' ') {
        let next_upper = text[i + 1..].chars().next().is_some_and(char::is_uppercase);
        if !next_upper || i == 0 {
            continue;
        }
        let before = text[..i].trim_end_matches(['"', '”', '’', ')']);
        if !before.ends_with(['.', '?', '!']) {
            continue;
        }
        let word = before[..before.len() - 1].rsplit(' ').next().unwrap_or("");
        let abbreviation = word.chars().count() == 1 && word.chars().all(char::is_alphabetic)
            || word.contains('.')
            || ["No", "Nos", "Inc", "Co", "Corp", "Ltd", "Mr", "Ms", "Dr", "vs", "St"].contains(&word);
        if !abbreviation && b.get(i + 1).is_some() {
            found = Some(i + 1);
        }
    }
    found
}

/// A caption line that is a numbered label ("Table 3.4 …"), not a note ("Source: …").
fn is_label_caption(line: &Line) -> bool {
    is_caption(line)
        && line
            .words
            .first()
            .is_some_and(|w| LABEL_WORDS.contains(&w.text.trim_end_matches([':', '.']).to_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_sentence_starts_after_a_full_stop_but_not_after_an_abbreviation() {
        let t = "in fiscal 2017. The following table presents";
        assert_eq!(sentence_start(t).map(|k| &t[k..]), Some("The following table presents"));
        assert_eq!(sentence_start("the U.S. Dollar equivalents follow:"), None);
        assert_eq!(sentence_start("under Note No. 5 Follows"), None);
        let t = "as noted.” Amounts were:";
        assert_eq!(sentence_start(t).map(|k| &t[k..]), Some("Amounts were:"));
        assert_eq!(sentence_start("no stop here at All"), None);
    }
}
