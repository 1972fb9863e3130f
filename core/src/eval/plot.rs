//! The report's two figures as SVG strings (no plotting dependency, no fonts to embed): outcomes as
//! stacked bars per group, and the HRI reliability diagram. Deterministic output, so reports diff.

use crate::eval::metrics::{HriBin, OutcomeCounts};
use crate::eval::outcome::Outcome;

const COLORS: [(&str, Outcome); 4] = [("#2e7d32", Outcome::Correct), ("#f9a825", Outcome::Partial), ("#c62828", Outcome::Incorrect), ("#78909c", Outcome::Abstained)];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

/// Horizontal 100 % stacked bars, one per group, segments Correct / Partial / Incorrect / Abstained,
/// each labelled with its count. A group with no scored question gets an empty outline.
pub fn outcome_bars(title: &str, groups: &[(String, OutcomeCounts)]) -> String {
    let (left, width, bar_h, gap, top) = (190.0, 460.0, 22.0, 10.0, 48.0);
    let h = top + groups.len() as f64 * (bar_h + gap) + 40.0;
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"{h}\" viewBox=\"0 0 700 {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<title>{}</title>\n<rect width=\"700\" height=\"{h}\" fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
        esc(title),
        esc(title)
    );
    for (i, (c, out)) in COLORS.iter().enumerate() {
        let x = left + i as f64 * 115.0;
        o.push_str(&format!("<rect x=\"{x}\" y=\"28\" width=\"10\" height=\"10\" fill=\"{c}\"/><text x=\"{}\" y=\"37\">{}</text>\n", x + 14.0, out.title()));
    }
    for (gi, (name, counts)) in groups.iter().enumerate() {
        let y = top + gi as f64 * (bar_h + gap);
        let total = counts.total();
        o.push_str(&format!("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} (n={total})</text>\n", left - 6.0, y + 15.0, esc(&clip(name, 22))));
        o.push_str(&format!("<rect x=\"{left}\" y=\"{y}\" width=\"{width}\" height=\"{bar_h}\" fill=\"none\" stroke=\"#ccc\"/>\n"));
        if total == 0 {
            continue;
        }
        let mut x = left;
        for (c, out) in COLORS {
            let n = counts.get(out);
            if n == 0 {
                continue;
            }
            let w = width * n as f64 / total as f64;
            o.push_str(&format!("<rect x=\"{x:.1}\" y=\"{y}\" width=\"{w:.1}\" height=\"{bar_h}\" fill=\"{c}\"><title>{}: {n}</title></rect>\n", out.title()));
            if w >= 18.0 {
                o.push_str(&format!("<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" fill=\"white\">{n}</text>\n", x + w / 2.0, y + 15.0));
            }
            x += w;
        }
    }
    o.push_str("</svg>\n");
    o
}

/// Reliability diagram: mean max-HRI per bin (x) against the observed incorrect rate (y), marker
/// area by count, with the diagonal for reference. HRI is a risk index, not a probability, so the
/// diagonal is a guide: a useful HRI rises left to right.
pub fn reliability(title: &str, bins: &[HriBin]) -> String {
    let (x0, y0, w, h) = (60.0, 40.0, 400.0, 300.0);
    let px = |v: f64| x0 + v.clamp(0.0, 1.0) * w;
    let py = |v: f64| y0 + h - v.clamp(0.0, 1.0) * h;
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"520\" height=\"400\" viewBox=\"0 0 520 400\" font-family=\"sans-serif\" font-size=\"12\">\n<title>{}</title>\n<rect width=\"520\" height=\"400\" fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
        esc(title),
        esc(title)
    );
    o.push_str(&format!("<rect x=\"{x0}\" y=\"{y0}\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"#888\"/>\n"));
    for t in 0..=5 {
        let v = t as f64 / 5.0;
        o.push_str(&format!("<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{v:.1}</text>\n", px(v), y0 + h + 16.0));
        o.push_str(&format!("<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{v:.1}</text>\n", x0 - 6.0, py(v) + 4.0));
    }
    o.push_str(&format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">max HRI of the answer (bin mean)</text>\n", x0 + w / 2.0, y0 + h + 34.0));
    o.push_str(&format!("<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">observed incorrect rate</text>\n", y0 + h / 2.0, y0 + h / 2.0));
    o.push_str(&format!("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#aaa\" stroke-dasharray=\"4 4\"/>\n", px(0.0), py(0.0), px(1.0), py(1.0)));
    if bins.is_empty() {
        o.push_str(&format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">no answered question has an HRI: undefined</text>\n", x0 + w / 2.0, y0 + h / 2.0));
    } else {
        let pts: Vec<String> = bins.iter().map(|b| format!("{:.1},{:.1}", px(b.mean_hri), py(b.incorrect_rate))).collect();
        o.push_str(&format!("<polyline points=\"{}\" fill=\"none\" stroke=\"#c62828\"/>\n", pts.join(" ")));
        let max_n = bins.iter().map(|b| b.n).max().unwrap_or(1).max(1) as f64;
        for b in bins {
            let r = 3.0 + 7.0 * (b.n as f64 / max_n).sqrt();
            o.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r:.1}\" fill=\"#c62828\" fill-opacity=\"0.7\"><title>HRI {:.1}–{:.1}: n={}, incorrect {:.0}%</title></circle>\n<text x=\"{:.1}\" y=\"{:.1}\">n={}</text>\n",
                px(b.mean_hri),
                py(b.incorrect_rate),
                b.lo,
                b.hi,
                b.n,
                b.incorrect_rate * 100.0,
                px(b.mean_hri) + r + 2.0,
                py(b.incorrect_rate) - 2.0,
                b.n
            ));
        }
    }
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_bars_label_each_segment_and_escape_names() {
        let g = vec![("a<b".to_string(), OutcomeCounts { correct: 2, partial: 1, incorrect: 0, abstained: 1 }), ("empty".to_string(), OutcomeCounts::default())];
        let s = outcome_bars("Outcomes", &g);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("a&lt;b (n=4)") && s.contains("empty (n=0)"));
        assert!(s.contains("<title>Correct: 2</title>") && s.contains("<title>Abstained: 1</title>"));
        assert!(!s.contains("Incorrect: 0"));
    }

    #[test]
    fn reliability_without_bins_says_undefined() {
        assert!(reliability("HRI", &[]).contains("undefined"));
        let b = HriBin { lo: 0.2, hi: 0.3, n: 3, mean_hri: 0.25, incorrect_rate: 1.0 / 3.0, correct_rate: 0.0 };
        let s = reliability("HRI", &[b]);
        assert!(s.contains("<circle") && s.contains("n=3"));
    }
}
