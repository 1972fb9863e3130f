//! Deterministic metric derivation: the calculator behind `tool_derived` evidence (paper §3.4–3.5,
//! spec §6.1), with the reference's numerical defects fixed (spec §12):
//!
//! - a relative change is rendered as the value its formula gives (`(4.2 − 4.3) / 4.3 = −0.0233`,
//!   with the percentage alongside), never as 100× the formula;
//! - periods are ordered by their parsed fiscal period (FY2024, 2023-24, Q2 2023, June 2025), not as
//!   strings, and a period is never paired with itself (no fabricated zero changes);
//! - groups of three or more periods give one change per consecutive pair instead of nothing;
//! - numbers keep their sign (`(–) 2,950.86`, `(1,234)`, `−5`) and ranges such as `2021-22` are not
//!   numbers;
//! - a derived metric keeps its metric name, both periods, source, page and the indices of its input
//!   cells, so the ledger can draw `DERIVED_FROM` edges and the metric stays citable.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A numeric observation the calculator may pair: one table cell, or one figure tagged in a passage.
#[derive(Debug, Clone, PartialEq)]
pub struct NumericCell {
    pub source: String,
    pub page: u32,
    /// Metric name (table row label / narrative metric label).
    pub metric: String,
    /// Period label as printed (table column label / narrative period label).
    pub period: String,
    pub value: String,
    pub unit: Option<String>,
    pub confidence: f64,
}

/// Which change a derived metric expresses (the judge's prompt distinguishes the two).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// `cur − prev` between two percentages.
    PercentagePoint,
    /// `(cur − prev) / prev`, a fraction (shown also as a percentage).
    Relative,
}

impl ChangeKind {
    pub fn label(self) -> &'static str {
        match self {
            ChangeKind::PercentagePoint => "Percentage-point change",
            ChangeKind::Relative => "Relative growth",
        }
    }
}

/// A calculator output (spec §6.1), with provenance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    pub metric: String,
    pub kind: ChangeKind,
    pub earlier_period: String,
    pub later_period: String,
    pub earlier_value: f64,
    pub later_value: f64,
    /// The formula's value: percentage points for `PercentagePoint`, a fraction for `Relative`.
    pub value: f64,
    /// `<cur> - <prev>` or `(<cur> - <prev>) / <prev>`.
    pub formula: String,
    /// The value as shown to agents: `+0.40 pp`, or `-0.0233 (-2.33%)` for a relative change.
    pub rendered: String,
    /// Source and page of the later cell (spec §6.1 step 5).
    pub source: String,
    pub page: u32,
    /// min of the inputs' confidences (spec §1.3).
    pub confidence: f64,
    /// Indices of the (earlier, later) input cells in the slice given to `derive_metrics`.
    pub inputs: [usize; 2],
}

impl Derived {
    /// One self-contained line: what was computed, from what, and the result — the formula and the
    /// value after `=` always agree.
    pub fn sentence(&self) -> String {
        format!(
            "{} of {} from {} to {}: {} = {} (inputs {} and {})",
            self.kind.label(),
            self.metric,
            self.earlier_period,
            self.later_period,
            self.formula,
            self.rendered,
            fmt_num(self.earlier_value),
            fmt_num(self.later_value)
        )
    }
}

/// Parse a printed number. Handles thousands separators, currency prefixes, trailing units, leading
/// minus signs of every dash kind and accounting parentheses. A range (`2021-22`, `10–12`) or text
/// with two numbers is not a number.
pub fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    let first_digit = t.find(|c: char| c.is_ascii_digit())?;
    let (prefix, rest) = t.split_at(first_digit);
    let mut negative = false;
    let mut open_paren = false;
    for c in prefix.chars() {
        match c {
            '-' | '−' | '–' | '—' => negative = true,
            '(' => open_paren = true,
            ')' => {}
            '+' | ' ' | '\u{a0}' | '$' | '€' | '£' | '¥' | '৳' | '₹' | '.' => {}
            c if c.is_alphabetic() => {} // "Tk", "Rs", "USD"
            _ => return None,
        }
    }
    // A leading "." belongs to the number (".5").
    let lead_dot = prefix.ends_with('.');
    let mut num = String::new();
    if lead_dot {
        num.push('0');
        num.push('.');
    }
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
        } else if c == ',' {
            // Thousands separator only when followed by exactly three digits.
            let after: Vec<char> = rest[i + 1..].chars().take(4).collect();
            let three = after.len() >= 3 && after[..3].iter().all(|d| d.is_ascii_digit());
            let fourth_digit = after.get(3).is_some_and(|d| d.is_ascii_digit());
            if !three || fourth_digit {
                end = i;
                break;
            }
        } else {
            end = i;
            break;
        }
    }
    let tail = rest[end..].trim_start();
    // "2021-22", "10–12", "3/4": a second number right after a separator means a range, not a value.
    let mut tc = tail.chars();
    if let (Some(a), Some(b)) = (tc.next(), tc.next()) {
        if matches!(a, '-' | '–' | '—' | '/' | '−') && b.is_ascii_digit() {
            return None;
        }
    }
    if tail.starts_with(')') && open_paren {
        negative = true;
    }
    let num = num.trim_end_matches('.');
    if num.matches('.').count() > 1 || num.is_empty() {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    Some(if negative { -v } else { v })
}

/// A parsed reporting period. Ordering key is the end of the period in months since year 0, so
/// "2023-24" (fiscal year ending 2024) equals FY2024 and precedes "Q2 2025".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "granularity")]
pub enum FiscalPeriod {
    Year { year: i32 },
    Half { year: i32, half: u8 },
    Quarter { year: i32, quarter: u8 },
    Month { year: i32, month: u8 },
}

impl FiscalPeriod {
    /// End of the period, in months.
    pub fn end_key(self) -> i64 {
        let (y, m) = match self {
            FiscalPeriod::Year { year } => (year, 12),
            FiscalPeriod::Half { year, half } => (year, 6 * half as i32),
            FiscalPeriod::Quarter { year, quarter } => (year, 3 * quarter as i32),
            FiscalPeriod::Month { year, month } => (year, month as i32),
        };
        y as i64 * 12 + m as i64
    }
    fn granularity_rank(self) -> u8 {
        match self {
            FiscalPeriod::Month { .. } => 0,
            FiscalPeriod::Quarter { .. } => 1,
            FiscalPeriod::Half { .. } => 2,
            FiscalPeriod::Year { .. } => 3,
        }
    }
}

impl PartialOrd for FiscalPeriod {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for FiscalPeriod {
    fn cmp(&self, other: &Self) -> Ordering {
        self.end_key().cmp(&other.end_key()).then(self.granularity_rank().cmp(&other.granularity_rank()))
    }
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

fn expand_year(y: u32, digits: usize) -> Option<i32> {
    match digits {
        4 if (1900..=2100).contains(&y) => Some(y as i32),
        2 => Some(2000 + y as i32),
        _ => None,
    }
}

/// Tokenise into alphanumeric runs, remembering which separator preceded each run.
fn tokens(s: &str) -> Vec<(char, String)> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut sep = ' ';
    let mut last_sep = ' ';
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            if cur.is_empty() {
                sep = last_sep;
            }
            cur.push(c.to_ascii_lowercase());
        } else {
            if !cur.is_empty() {
                out.push((sep, std::mem::take(&mut cur)));
            }
            last_sep = c;
        }
    }
    if !cur.is_empty() {
        out.push((sep, cur));
    }
    // Split letter-digit joins like "fy2024", "q2", "2q23", "h1".
    let mut split = vec![];
    for (sep, t) in out {
        let mut parts: Vec<String> = vec![];
        for c in t.chars() {
            match parts.last_mut() {
                Some(p) if p.chars().last().is_some_and(|l| l.is_ascii_digit() == c.is_ascii_digit()) => p.push(c),
                _ => parts.push(c.to_string()),
            }
        }
        for (i, p) in parts.into_iter().enumerate() {
            split.push((if i == 0 { sep } else { '\0' }, p));
        }
    }
    split
}

/// Parse a period label: `FY2024`, `FY24`, `fiscal 2024`, `2024`, `2024 Actual`, `2023-24`,
/// `FY2023-24`, `2023/2024`, `Q2 2023`, `2Q23`, `Q2 FY2023`, `H1 2024`, `June 2025`, `Jun-25`,
/// `June 30, 2025`, `2025-06`.
pub fn parse_period(label: &str) -> Option<FiscalPeriod> {
    let toks = tokens(label);
    let num = |t: &str| -> Option<(u32, usize)> { t.parse::<u32>().ok().map(|v| (v, t.len())) };
    let mut quarter: Option<u8> = None;
    let mut half: Option<u8> = None;
    let mut month: Option<u8> = None;
    let mut years: Vec<(i32, char, usize)> = vec![]; // (year, separator, digits)
    let mut i = 0;
    while i < toks.len() {
        let (sep, t) = (&toks[i].0, toks[i].1.as_str());
        let next = toks.get(i + 1).map(|x| x.1.as_str());
        if (t == "q" || t == "h") && next.and_then(num).is_some_and(|(v, l)| l == 1 && v >= 1) {
            let v = num(next.unwrap_or("")).map(|x| x.0).unwrap_or(0) as u8;
            if t == "q" && v <= 4 {
                quarter = Some(v);
            } else if t == "h" && v <= 2 {
                half = Some(v);
            }
            i += 2;
            continue;
        }
        if let Some((v, l)) = num(t) {
            // "2Q23" / "1H24"
            if l == 1 && (next == Some("q") || next == Some("h")) {
                if next == Some("q") && (1..=4).contains(&v) {
                    quarter = Some(v as u8);
                } else if next == Some("h") && (1..=2).contains(&v) {
                    half = Some(v as u8);
                }
                i += 2;
                continue;
            }
            if l == 4 && v > 1900 && v <= 2100 {
                years.push((v as i32, *sep, 4));
            } else if l == 2 {
                // A two-digit year only in a year context: after FY/Q/month, or as the second half
                // of a range; a bare day-of-month (June 30) is two digits too.
                let prev_is_fy = i > 0 && matches!(toks[i - 1].1.as_str(), "fy" | "q" | "h");
                let after_year = years.len() == 1 && matches!(*sep, '-' | '–' | '/' | '—');
                // "2023-24" is a fiscal range; "2025-06" is a month.
                let in_range = after_year && v as i32 == (years[0].0 + 1) % 100;
                if after_year && !in_range && years[0].2 == 4 && (1..=12).contains(&v) && month.is_none() {
                    month = Some(v as u8);
                    i += 1;
                    continue;
                }
                let after_month_or_quarter = month.is_some() || quarter.is_some() || half.is_some();
                if prev_is_fy || in_range || (after_month_or_quarter && !is_day(t, next)) {
                    if let Some(y) = expand_year(v, 2) {
                        years.push((y, *sep, 2));
                    }
                }
            } else if l == 6 && (t.starts_with("19") || t.starts_with("20")) {
                // "202506"
                let y: i32 = t[..4].parse().ok()?;
                let m: u8 = t[4..].parse().ok()?;
                if (1..=12).contains(&m) {
                    years.push((y, *sep, 4));
                    month = Some(m);
                }
            }
            i += 1;
            continue;
        }
        if t.len() >= 3 {
            if let Some(m) = MONTHS.iter().position(|m| t.starts_with(m)) {
                // "march", "mar", but not "marketing"
                let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"][m];
                if t.len() == 3 || full.starts_with(t) || (t == "sept") {
                    month = Some(m as u8 + 1);
                }
            }
        }
        i += 1;
    }
    if years.is_empty() {
        return None;
    }
    // A fiscal range "2023-24" / "2023/2024" names the year it ends in.
    let year = if years.len() >= 2 && years[1].0 == years[0].0 + 1 { years[1].0 } else { years[0].0 };
    Some(if let Some(q) = quarter {
        FiscalPeriod::Quarter { year, quarter: q }
    } else if let Some(h) = half {
        FiscalPeriod::Half { year, half: h }
    } else if let Some(m) = month {
        FiscalPeriod::Month { year, month: m }
    } else {
        FiscalPeriod::Year { year }
    })
}

fn is_day(t: &str, next: Option<&str>) -> bool {
    // "June 30, 2025": a 1–2 digit number followed by a four-digit year is a day.
    t.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d)) && next.is_some_and(|n| n.len() == 4 && n.parse::<u32>().is_ok())
}

fn is_percent(unit: &Option<String>) -> bool {
    unit.as_deref().is_some_and(|u| u.contains('%') || u.to_lowercase().contains("percent"))
}

fn fmt_num(v: f64) -> String {
    // Shortest exact form: 6439, 4.2, -0.5.
    let s = format!("{v}");
    s
}

/// Round to `dp` decimals and print without a trailing "-0".
fn fixed(v: f64, dp: usize) -> String {
    let s = format!("{v:.dp$}");
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// Derive changes from numeric cells (spec §6.1, fixed per §12). Cells are grouped by
/// (source, page, metric); within a group, cells whose period cannot be parsed are skipped, duplicate
/// periods keep their first cell, and each consecutive pair in period order gives a percentage-point
/// change (when either unit is a percentage) and a relative change (unless the earlier value is 0).
pub fn derive_metrics(cells: &[NumericCell]) -> Vec<Derived> {
    let mut groups: Vec<((String, u32, String), Vec<usize>)> = vec![];
    for (i, c) in cells.iter().enumerate() {
        let metric = c.metric.trim();
        if metric.is_empty() {
            continue;
        }
        let key = (c.source.clone(), c.page, metric.to_string());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let mut out = vec![];
    for ((_, _, metric), idx) in groups {
        let mut dated: Vec<(FiscalPeriod, usize, f64)> = vec![];
        for i in idx {
            let (Some(p), Some(v)) = (parse_period(&cells[i].period), parse_number(&cells[i].value)) else {
                continue;
            };
            // No pairing of a period with itself (spec §12): restatements keep the first value.
            if dated.iter().any(|(q, _, _)| *q == p) {
                continue;
            }
            dated.push((p, i, v));
        }
        dated.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        for w in dated.windows(2) {
            let (ei, prev) = (w[0].1, w[0].2);
            let (li, cur) = (w[1].1, w[1].2);
            let (e, l) = (&cells[ei], &cells[li]);
            let confidence = e.confidence.min(l.confidence);
            let base = |kind, value, formula: String, rendered: String| Derived {
                metric: metric.clone(),
                kind,
                earlier_period: e.period.trim().to_string(),
                later_period: l.period.trim().to_string(),
                earlier_value: prev,
                later_value: cur,
                value,
                formula,
                rendered,
                source: l.source.clone(),
                page: l.page,
                confidence,
                inputs: [ei, li],
            };
            if is_percent(&e.unit) || is_percent(&l.unit) {
                let pp = cur - prev;
                let sign = if pp > 0.0 { "+" } else { "" };
                out.push(base(
                    ChangeKind::PercentagePoint,
                    pp,
                    format!("{} - {}", fmt_num(cur), fmt_num(prev)),
                    format!("{sign}{} pp", fixed(pp, 2)),
                ));
            }
            if prev != 0.0 {
                let g = (cur - prev) / prev;
                out.push(base(
                    ChangeKind::Relative,
                    g,
                    format!("({} - {}) / {}", fmt_num(cur), fmt_num(prev), fmt_num(prev)),
                    format!("{} ({}%)", fixed(g, 4), fixed(g * 100.0, 2)),
                ));
            }
        }
    }
    out
}

/// Every number written in a text, as absolute values ("6,439" → 6439, "-2.33%" → 2.33). Used to
/// check that a composed answer states no figure that is not in an audited line (spec §7.2, §12),
/// and to find which evidence a drafted sentence actually used.
pub fn numbers_in(text: &str) -> Vec<f64> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let mut s = String::new();
            while i < chars.len()
                && (chars[i].is_ascii_digit() || ((chars[i] == ',' || chars[i] == '.') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())))
            {
                if chars[i] != ',' {
                    s.push(chars[i]);
                }
                i += 1;
            }
            if let Ok(v) = s.parse::<f64>() {
                out.push(v);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// A four-digit number that reads as a calendar year.
pub fn is_year(v: f64) -> bool {
    v.fract() == 0.0 && (1900.0..=2100.0).contains(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(metric: &str, period: &str, value: &str, unit: Option<&str>) -> NumericCell {
        NumericCell {
            source: "3M_2018_10K.pdf".into(),
            page: 60,
            metric: metric.into(),
            period: period.into(),
            value: value.into(),
            unit: unit.map(str::to_string),
            confidence: 0.8,
        }
    }

    #[test]
    fn relative_change_rendered_as_its_formula_value() {
        let d = derive_metrics(&[cell("CPI inflation", "FY2024", "4.3", Some("%")), cell("CPI inflation", "FY2025", "4.2", Some("%"))]);
        let rel = d.iter().find(|d| d.kind == ChangeKind::Relative).unwrap();
        assert_eq!(rel.formula, "(4.2 - 4.3) / 4.3");
        // The number right after "=" is what the formula evaluates to (a fraction), not 100× it.
        assert!(rel.sentence().contains("(4.2 - 4.3) / 4.3 = -0.0233 (-2.33%)"), "{}", rel.sentence());
        assert!((rel.value - (-0.1 / 4.3)).abs() < 1e-12);
        let pp = d.iter().find(|d| d.kind == ChangeKind::PercentagePoint).unwrap();
        assert_eq!(pp.rendered, "-0.10 pp");
        assert_eq!(pp.formula, "4.2 - 4.3");
        // Provenance survives: name, periods, source, page, inputs.
        assert_eq!((rel.metric.as_str(), rel.earlier_period.as_str(), rel.later_period.as_str()), ("CPI inflation", "FY2024", "FY2025"));
        assert_eq!((rel.source.as_str(), rel.page, rel.inputs), ("3M_2018_10K.pdf", 60, [0, 1]));
    }

    #[test]
    fn ten_k_sales_growth_is_computed_from_thousands_separated_cells() {
        let d = derive_metrics(&[cell("Net sales", "2018", "32,765", Some("$ millions")), cell("Net sales", "2017", "31,657", None)]);
        assert_eq!(d.len(), 1, "no pp change for non-percent units");
        assert_eq!(d[0].formula, "(32765 - 31657) / 31657");
        assert_eq!(d[0].rendered, "0.0350 (3.50%)");
        assert_eq!(d[0].inputs, [1, 0], "earlier period first, whatever the input order");
    }

    #[test]
    fn fiscal_periods_order_numerically() {
        let p = |s: &str| parse_period(s).unwrap_or_else(|| panic!("{s} did not parse"));
        assert_eq!(p("FY2024"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(p("FY24"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(p("2023-24"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(p("FY2023-24"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(p("2023/2024"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(p("2024 Actual"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(p("Q2 2023"), FiscalPeriod::Quarter { year: 2023, quarter: 2 });
        assert_eq!(p("2Q23"), FiscalPeriod::Quarter { year: 2023, quarter: 2 });
        assert_eq!(p("June 2025"), FiscalPeriod::Month { year: 2025, month: 6 });
        assert_eq!(p("June 30, 2025"), FiscalPeriod::Month { year: 2025, month: 6 });
        assert_eq!(p("Jul-24"), FiscalPeriod::Month { year: 2024, month: 7 });
        assert_eq!(p("2025-06"), FiscalPeriod::Month { year: 2025, month: 6 });
        assert_eq!(p("FY2023/24"), FiscalPeriod::Year { year: 2024 });
        assert_eq!(parse_period("Industry"), None);
        // String order would put "July 2024" after "June 2025" and "2023-24" after "2023".
        let mut v = vec![p("June 2025"), p("July 2024"), p("FY2024"), p("2022-23"), p("Q2 2023")];
        v.sort();
        assert_eq!(v, vec![p("Q2 2023"), p("2022-23"), p("July 2024"), p("FY2024"), p("June 2025")]);
        assert!(p("2023-24") == p("FY2024"));
        assert!(p("July 2024") < p("June 2025"));
        assert!(p("Q2 2023") < p("FY2023"));
        assert!(p("2022-23") < p("Q2 2024"));
    }

    #[test]
    fn same_period_restatements_are_never_paired() {
        let d = derive_metrics(&[
            cell("Inflation", "June 2025", "8.48", Some("%")),
            cell("Inflation", "June 2025", "8.48", Some("%")),
            cell("Inflation", "2025-06", "8.48", Some("%")),
        ]);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn three_periods_give_consecutive_changes_in_period_order() {
        let d = derive_metrics(&[
            cell("Revenue", "FY2025", "130", None),
            cell("Revenue", "FY2023", "100", None),
            cell("Revenue", "2023-24", "120", None),
        ]);
        let pairs: Vec<(&str, &str)> = d.iter().map(|d| (d.earlier_period.as_str(), d.later_period.as_str())).collect();
        assert_eq!(pairs, vec![("FY2023", "2023-24"), ("2023-24", "FY2025")]);
    }

    #[test]
    fn numbers_keep_signs_and_ranges_are_not_numbers() {
        assert_eq!(parse_number("(–) 2,950.86"), Some(-2950.86));
        assert_eq!(parse_number("(1,234)"), Some(-1234.0));
        assert_eq!(parse_number("−5.2%"), Some(-5.2));
        assert_eq!(parse_number("$6,439 million"), Some(6439.0));
        assert_eq!(parse_number("Tk 1,200.5"), Some(1200.5));
        assert_eq!(parse_number("2021-22"), None);
        assert_eq!(parse_number("10–12"), None);
        assert_eq!(parse_number("-"), None);
        assert_eq!(parse_number("n/a"), None);
        assert_eq!(parse_number("1,2345"), Some(1.0));
    }

    #[test]
    fn zero_base_gives_no_relative_change_but_keeps_pp() {
        let d = derive_metrics(&[cell("Rate", "FY2023", "0", Some("percent")), cell("Rate", "FY2024", "1.5", Some("percent"))]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rendered, "+1.50 pp");
    }
}
