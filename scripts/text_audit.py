#!/usr/bin/env python3
"""Three-way page-text audit: `clair extract` against pdftotext and PyMuPDF on every page.

Usage: scripts/text_audit.py [--clair target/release/clair] [--pdfs DIR ...] [--examples N]
  Needs PyMuPDF (`python3 -m venv /tmp/pmu && /tmp/pmu/bin/pip install pymupdf`, then run this
  with /tmp/pmu/bin/python). Defaults: every PDF of ../shared/corpus/financebench/pdfs and
  ../shared/corpus/icdar2013.

FinanceBench's gold page text is PyMuPDF's `page.get_text()` (on the 71 dev gold pages it scores
1.000 against gold wherever the gold comes from the same file), so agreement with PyMuPDF is the
page-text figure's proxy on pages without gold. Tokens as `../shared/tools/text_fidelity.py` makes
them (NFKC, ASCII-folded, lower-cased, split at whitespace); bag-of-token F1 between each pair of
readers per page. Every token where ours differs from PyMuPDF is counted. Then, per page, the
tokens where pdftotext and PyMuPDF agree and we do not are put in classes: a token of ours that
is two or more of theirs run together ("joined"), one of theirs we split ("split"), and what is
left over (ours only / ours lacking). Prints the means, the counts and the class table (tokens and
pages), and with --examples N the first N examples of each class.
"""
import argparse, collections, glob, json, os, re, subprocess, sys, unicodedata

try:
    import pymupdf
except ImportError:
    sys.exit("text_audit.py needs PyMuPDF: python3 -m venv /tmp/pmu && /tmp/pmu/bin/pip install pymupdf")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.path.join(ROOT, "..", "shared") if os.path.isdir(os.path.join(ROOT, "..", "shared", "corpus")) else "/work/shared"
ap = argparse.ArgumentParser()
ap.add_argument("--clair", default=os.path.join(ROOT, "target/release/clair"))
ap.add_argument("--pdfs", nargs="*", default=[f"{shared}/corpus/financebench/pdfs", f"{shared}/corpus/icdar2013"])
ap.add_argument("--examples", type=int, default=0)
a = ap.parse_args()


def toks(s):
    return unicodedata.normalize("NFKC", s).encode("ascii", "ignore").decode().lower().split()


def f1(ca, cb):
    n = sum(ca.values()) + sum(cb.values())
    return 1.0 if n == 0 else 2 * sum((ca & cb).values()) / n


def pieces(w, pool, left=4):
    """`w` as 2–4 tokens of `pool` run together, or None."""
    for i in range(1, len(w)):
        head, rest = w[:i], w[i:]
        if pool[head] <= 0:
            continue
        if pool[rest] > 0 and (rest != head or pool[head] > 1):
            return [head, rest]
        if left > 2:
            pool[head] -= 1
            r = pieces(rest, pool, left - 1)
            pool[head] += 1
            if r:
                return [head] + r
    return None


def kind(parts):
    if any(re.search(r"\.{3,}", p) for p in parts):
        return "dot leaders"
    if any(p in ("$", "€", "£") for p in parts):
        return "currency sign and figure"
    if "%" in parts:
        return "figure and %"
    if any(re.fullmatch(r"\(\w{1,2}\)|\*+|\d{1,2}", p) for p in parts[1:]) or re.fullmatch(r"\(\w{1,2}\)", parts[0]):
        return "footnote mark"
    if any(re.fullmatch(r"[=<>+\-–—/]", p) for p in parts):
        return "operator or dash"
    if any(re.fullmatch(r"[_\-]{2,}", p) for p in parts):
        return "rule characters"
    if all(p.isalpha() for p in parts):
        return "letters"
    return "other"


def single(t):
    if re.fullmatch(r"[xor]", t):
        return "checkbox letter"
    if any(ord(c) < 32 for c in t):
        return "control character"
    return "text"


means = collections.defaultdict(list)
classes, pages, examples = collections.Counter(), collections.defaultdict(set), collections.defaultdict(list)
odd = 0
# Every token where ours differs from PyMuPDF (missing or extra, whatever pdftotext reads) and the
# pages that have one: the distance to the gold's extractor, beyond the three-way classes.
off_mu, off_mu_pages = 0, 0
for d in a.pdfs:
    for pdf in sorted(glob.glob(os.path.join(d, "*.pdf"))):
        name = os.path.basename(pdf)[:-4]
        out = subprocess.run([a.clair, "extract", pdf, "--json"], capture_output=True, timeout=600)
        ours = {p["page"]: p.get("text", "") for p in json.loads(out.stdout)["pages"]}
        pt = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, timeout=600).stdout.decode(errors="replace").split("\f")
        mu = [p.get_text() for p in pymupdf.open(pdf)]
        for n in sorted(ours):
            o = collections.Counter(toks(ours[n]))
            t = collections.Counter(toks(pt[n - 1] if n - 1 < len(pt) else ""))
            m = collections.Counter(toks(mu[n - 1] if n - 1 < len(mu) else ""))
            om, ot, tm = f1(o, m), f1(o, t), f1(t, m)
            for k, v in (("ours~pymupdf", om), ("ours~pdftotext", ot), ("pdftotext~pymupdf", tm)):
                means[k].append(v)
            odd += tm - max(om, ot) > 0.0005
            diff = sum((o - m).values()) + sum((m - o).values())
            off_mu += diff; off_mu_pages += diff > 0
            lack, extra = (t & m) - o, o - (t | m)
            for e in sorted(extra.elements(), key=len, reverse=True):
                if extra[e] > 0 and (s := pieces(e, lack)):
                    lack.subtract(s); extra[e] -= 1
                    k = "joined: " + kind(s); classes[k] += len(s); pages[k].add((name, n)); examples[k].append(f"{name} p{n}: {e} ← {' '.join(s)}")
            for l in sorted(lack.elements(), key=len, reverse=True):
                if lack[l] > 0 and (s := pieces(l, extra)):
                    extra.subtract(s); lack[l] -= 1
                    k = "split: " + kind(s); classes[k] += 1; pages[k].add((name, n)); examples[k].append(f"{name} p{n}: {l} → {' '.join(s)}")
            for e in (+extra).elements():
                k = "ours only: " + single(e); classes[k] += 1; pages[k].add((name, n)); examples[k].append(f"{name} p{n}: {e}")
            for l in (+lack).elements():
                k = "ours lacking: " + single(l); classes[k] += 1; pages[k].add((name, n)); examples[k].append(f"{name} p{n}: {l}")
n = len(means["ours~pymupdf"])
print(f"pages {n}  " + "  ".join(f"{k} {sum(v) / n:.4f}" for k, v in means.items()))
print(f"pages where pdftotext and PyMuPDF agree better with each other than either with ours: {odd}")
print(f"tokens where ours differs from PyMuPDF: {off_mu} on {off_mu_pages} pages")
print(f"tokens where the two agree and ours differs: {sum(classes.values())}")
print("| class | tokens | pages |\n|---|---|---|")
for k, v in classes.most_common():
    print(f"| {k} | {v} | {len(pages[k])} |")
for k in classes:
    for e in examples[k][: a.examples]:
        print(f"  {k}: {e}")
