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
    /// `numerator / denominator` for one period (paper §3.5: the RATIO_IDENTITY constraint is met
    /// only by a ratio computed from the cited figures). `later_value` is the numerator,
    /// `earlier_value` the denominator, and both periods are the ratio's period.
    Ratio,
}

impl ChangeKind {
    pub fn label(self) -> &'static str {
        match self {
            ChangeKind::PercentagePoint => "Percentage-point change",
            ChangeKind::Relative => "Relative growth",
            ChangeKind::Ratio => "Ratio",
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
        if self.kind == ChangeKind::Ratio {
            return format!("{}: {} = {}", self.heading(), self.formula, self.rendered);
        }
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

impl Derived {
    /// What was computed, without the arithmetic: `Relative growth of Net sales from 2017 to 2018`,
    /// `Ratio Gross profit / Net sales for 2018`.
    pub fn heading(&self) -> String {
        heading(self.kind, &self.metric, &self.earlier_period, &self.later_period)
    }
}

/// See `Derived::heading`; shared with the ledger's derived-metric node.
pub fn heading(kind: ChangeKind, metric: &str, earlier: &str, later: &str) -> String {
    match kind {
        ChangeKind::Ratio if earlier.is_empty() => format!("Ratio {metric}"),
        ChangeKind::Ratio => format!("Ratio {metric} for {earlier}"),
        _ => format!("{} of {metric} from {earlier} to {later}", kind.label()),
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

/// A printed figure read with its scale and precision, so two sources can be compared ("$1.2
/// billion" and "1,200" in a table "in millions" are the same figure; "32.8 billion" agrees with
/// 32,765 million within its printed rounding).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The value in base units when `scale_known`, else as printed.
    pub value: f64,
    /// Half the last printed digit's step, in the same units as `value` (the rounding the printed
    /// form allows: "1.2 billion" ± 0.05 billion, "1,200" ± 0.5).
    pub half_step: f64,
    /// Whether the value or its unit named a scale (thousand, million, billion, crore, …).
    pub scale_known: bool,
    /// A percentage (or percentage points): never compared with an amount.
    pub percent: bool,
}

/// Scale words as printed in values and units ("$ millions", "in thousands", "USD bn", "Tk crore").
fn scale_of(word: &str) -> Option<f64> {
    Some(match word {
        "thousand" | "thousands" | "k" | "000s" | "000" => 1e3,
        "lakh" | "lakhs" | "lac" => 1e5,
        "million" | "millions" | "mn" | "mm" | "m" | "mio" => 1e6,
        "crore" | "crores" | "cr" => 1e7,
        "billion" | "billions" | "bn" | "b" => 1e9,
        "trillion" | "trillions" | "tn" => 1e12,
        _ => return None,
    })
}

/// Digits printed after the decimal point of the first number in `s` ("1,200.50" → 2).
fn printed_decimals(s: &str) -> u32 {
    let Some(start) = s.find(|c: char| c.is_ascii_digit()) else { return 0 };
    let run: String = s[start..].chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',').collect();
    run.split_once('.').map(|(_, f)| f.chars().take_while(|c| c.is_ascii_digit()).count() as u32).unwrap_or(0)
}

/// Read a value string (and its unit, if given apart) as a `Figure`. None when there is no number.
pub fn figure(value: &str, unit: Option<&str>) -> Option<Figure> {
    let v = parse_number(value)?;
    let text = format!("{value} {}", unit.unwrap_or("")).to_lowercase();
    let percent = text.contains('%') || text.contains("percent") || text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == "pp" || w == "bps");
    // The words after the number, then the unit's: the first scale word found decides.
    let after_number = value.find(|c: char| c.is_ascii_digit()).map(|i| &value[i..]).unwrap_or("");
    let words = format!("{after_number} {}", unit.unwrap_or("")).to_lowercase();
    let scale = words
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .find_map(scale_of);
    // "1.2bn", "$32.8B": a scale letter glued to the digits.
    let glued = after_number
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',')
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .map(str::to_lowercase)
        .and_then(|w| scale_of(&w));
    let scale = if percent { None } else { glued.or(scale) };
    let half = 0.5 * 10f64.powi(-(printed_decimals(value) as i32));
    let k = scale.unwrap_or(1.0);
    Some(Figure { value: v * k, half_step: half * k, scale_known: scale.is_some(), percent })
}

/// Whether two printed figures for the same metric and period state the same value: they differ
/// by no more than the coarser one's printed rounding plus `rel_tol` of the larger. A figure whose scale is not
/// printed may be in units, thousands, millions or billions (a table's scale usually sits in its
/// caption). None when they are not comparable (a percentage against an amount).
pub fn figures_agree(a: &Figure, b: &Figure, rel_tol: f64) -> Option<bool> {
    if a.percent != b.percent {
        return None;
    }
    // The coarser figure's rounding: "$32.8 billion" covers 32,750–32,850 million.
    let close = |x: f64, hx: f64, y: f64, hy: f64| (x - y).abs() <= hx.max(hy) + rel_tol * x.abs().max(y.abs()) + 1e-9 * x.abs().max(y.abs()).max(1.0);
    if a.scale_known == b.scale_known || a.percent {
        return Some(close(a.value, a.half_step, b.value, b.half_step));
    }
    let (known, bare) = if a.scale_known { (a, b) } else { (b, a) };
    Some([1.0, 1e3, 1e6, 1e9].iter().any(|k| close(known.value, known.half_step, bare.value * k, bare.half_step * k)))
}

/// A ratio of two figures of one period (paper §3.5, RATIO_IDENTITY; spec §6.1's `ratio`, which the
/// reference never called). Figures whose scales are both printed are compared in base units;
/// otherwise as printed. None when the denominator is zero or either value is not a number.
pub fn ratio(cells: &[NumericCell], numerator: usize, denominator: usize) -> Option<Derived> {
    let (n, d) = (cells.get(numerator)?, cells.get(denominator)?);
    let (fnum, fden) = (figure(&n.value, n.unit.as_deref())?, figure(&d.value, d.unit.as_deref())?);
    let (pn, pd) = (parse_number(&n.value)?, parse_number(&d.value)?);
    let (num, den) = if fnum.scale_known && fden.scale_known { (fnum.value, fden.value) } else { (pn, pd) };
    if den == 0.0 || !den.is_finite() || !num.is_finite() {
        return None;
    }
    let r = num / den;
    Some(Derived {
        metric: format!("{} / {}", n.metric.trim(), d.metric.trim()),
        kind: ChangeKind::Ratio,
        earlier_period: n.period.trim().to_string(),
        later_period: n.period.trim().to_string(),
        earlier_value: pd,
        later_value: pn,
        value: r,
        formula: format!("{} / {}", fmt_num(pn), fmt_num(pd)),
        rendered: format!("{} ({}%)", fixed(r, 4), fixed(r * 100.0, 2)),
        source: n.source.clone(),
        page: n.page,
        confidence: n.confidence.min(d.confidence),
        inputs: [numerator, denominator],
    })
}

/// Every number written in a text with its printed precision and whether a percent sign or word
/// follows it (absolute values; years included — callers skip them with `is_year`; numbers that
/// are part of a name such as "3M", "Q2" or "10-K" left out).
pub fn printed_numbers(text: &str) -> Vec<(f64, u32, bool)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let mut s = String::new();
        while i < chars.len() && (chars[i].is_ascii_digit() || ((chars[i] == ',' || chars[i] == '.') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()))) {
            if chars[i] != ',' {
                s.push(chars[i]);
            }
            i += 1;
        }
        // Part of a name, not a figure: "3M", "Q2", "FY2018", "10-K".
        let glued_before = start > 0 && chars[start - 1].is_alphabetic();
        let glued_after = chars.get(i).is_some_and(|c| c.is_alphabetic() && !matches!(c, 'x' | 'X'))
            || (chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|c| c.is_alphabetic()));
        if glued_before || glued_after {
            continue;
        }
        let rest: String = chars[i..].iter().take(9).collect::<String>().to_lowercase();
        let percent = rest.trim_start().starts_with('%') || rest.trim_start().starts_with("percent");
        if let Ok(v) = s.parse::<f64>() {
            out.push((v, s.split_once('.').map(|(_, f)| f.len() as u32).unwrap_or(0), percent));
        }
    }
    out
}

/// Whether a computed ratio `r` is the figure a claim states as `(value, decimals, percent)`:
/// as a fraction ("0.42"), a multiple ("1.5x") or a percentage ("42.1%"), within the stated
/// figure's printed rounding plus `rel_tol`.
pub fn ratio_matches(r: f64, stated: (f64, u32, bool), rel_tol: f64) -> bool {
    let (x, dp, percent) = stated;
    let half = 0.5 * 10f64.powi(-(dp as i32));
    let close = |y: f64| (y - x).abs() <= half + rel_tol * x.abs().max(y.abs()) + 1e-12;
    let r = r.abs();
    if percent {
        close(r * 100.0)
    } else {
        close(r) || close(r * 100.0)
    }
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
    fn figures_compare_across_printed_scales_and_rounding() {
        let f = |v: &str, u: Option<&str>| figure(v, u).unwrap_or_else(|| panic!("{v} is a figure"));
        let agree = |a: Figure, b: Figure| figures_agree(&a, &b, 0.005);
        // "$1.2 billion" and "1,200" in a table in millions are one figure; so is a bare "1,200"
        // whose table prints its scale only in the caption.
        assert_eq!(agree(f("$1.2 billion", None), f("1,200", Some("$ millions"))), Some(true));
        assert_eq!(agree(f("$1.2bn", None), f("1,200", None)), Some(true));
        // 32,765 million rounds to $32.8 billion; 31.2 billion is another figure.
        assert_eq!(agree(f("$32.8 billion", None), f("32,765", Some("millions"))), Some(true));
        assert_eq!(agree(f("$31.2 billion", None), f("32,765", Some("millions"))), Some(false));
        assert_eq!(agree(f("1,300", Some("USD mn")), f("$1.2 billion", None)), Some(false));
        assert_eq!(agree(f("32,000", None), f("32,765", None)), Some(false));
        assert_eq!(agree(f("4.2%", None), f("4.3", Some("percent"))), Some(false));
        // A percentage is never compared with an amount.
        assert_eq!(agree(f("4.2%", None), f("4.2", None)), None);
        assert!(f("(1,234)", Some("Tk crore")).scale_known && f("(1,234)", Some("Tk crore")).value == -1.234e10);
    }

    #[test]
    fn ratio_divides_numerator_by_denominator_of_one_period() {
        let cells = [cell("Gross profit", "2018", "13,800", Some("$ millions")), cell("Net sales", "2018", "$32.765 billion", None)];
        let r = ratio(&cells, 0, 1).unwrap();
        assert_eq!((r.kind, r.inputs), (ChangeKind::Ratio, [0, 1]));
        assert!((r.value - 13_800.0 / 32_765.0).abs() < 1e-12, "scales read before dividing: {}", r.value);
        assert_eq!(r.sentence(), "Ratio Gross profit / Net sales for 2018: 13800 / 32.765 = 0.4212 (42.12%)");
        assert!(ratio_matches(r.value, (42.1, 1, true), 0.005));
        assert!(ratio_matches(r.value, (0.42, 2, false), 0.005));
        assert!(!ratio_matches(r.value, (45.0, 0, true), 0.005));
        assert!(ratio(&[cell("A", "2018", "1", None), cell("B", "2018", "0", None)], 0, 1).is_none(), "no division by zero");
    }

    #[test]
    fn zero_base_gives_no_relative_change_but_keeps_pp() {
        let d = derive_metrics(&[cell("Rate", "FY2023", "0", Some("percent")), cell("Rate", "FY2024", "1.5", Some("percent"))]);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].rendered, "+1.50 pp");
    }
}
