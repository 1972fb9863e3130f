#!/usr/bin/env python3
"""Table detection against a second reader: `clair tables --json` and PyMuPDF `find_tables`.

Usage: scripts/pmu_agree.py [--clair target/release/clair] [--pdfs DIR] [--list]
  Needs PyMuPDF (`python3 -m venv /tmp/pmu && /tmp/pmu/bin/pip install pymupdf`, then run this
  with /tmp/pmu/bin/python).

No registry ships table-region ground truth for filings, so detection on them is audited where two
readers disagree (docs/tables.md, "Audit against PyMuPDF on filings"). PyMuPDF reads drawn rules;
we read rules, fills and whitespace. On the 13 FinanceBench filings of that audit (467 pages) this
prints how many tables each finds and how many they both find: a table of ours matching one of
PyMuPDF's on the same page at IoU >= 0.5, each matched once. With --list, the pages where they
disagree, for reading.
"""
import argparse, json, os, subprocess, sys

try:
    import pymupdf
except ImportError:
    sys.exit("pmu_agree.py needs PyMuPDF: python3 -m venv /tmp/pmu && /tmp/pmu/bin/pip install pymupdf")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.path.join(ROOT, "..", "shared") if os.path.isdir(os.path.join(ROOT, "..", "shared", "corpus")) else "/work/shared"
FILES = """FOOTLOCKER_2022_8K_dated-2022-05-20 FOOTLOCKER_2022_8K_dated_2022-08-19 AMCOR_2022_8K_dated-2022-07-01
JOHNSON_JOHNSON_2023_8K_dated-2023-08-30 AMCOR_2023Q4_EARNINGS JOHNSON_JOHNSON_2022Q4_EARNINGS PEPSICO_2023Q1_EARNINGS
ULTABEAUTY_2023Q4_EARNINGS AMCOR_2023Q2_10Q BESTBUY_2024Q2_10Q NETFLIX_2017_10K NIKE_2018_10K COSTCO_2021_10K""".split()
ap = argparse.ArgumentParser()
ap.add_argument("--clair", default=os.path.join(ROOT, "target/release/clair"))
ap.add_argument("--pdfs", default=f"{shared}/corpus/financebench/pdfs")
ap.add_argument("--list", action="store_true")
a = ap.parse_args()


def iou(p, q):
    ix = max(0.0, min(p[2], q[2]) - max(p[0], q[0]))
    iy = max(0.0, min(p[3], q[3]) - max(p[1], q[1]))
    union = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - ix * iy
    return ix * iy / union if union > 0 else 0.0


ours_n = theirs_n = both = 0
for f in FILES:
    pdf = os.path.join(a.pdfs, f + ".pdf")
    out = subprocess.run([a.clair, "tables", pdf, "--json"], capture_output=True, text=True, check=True).stdout
    ours = [(t["page"], t["bbox"]) for t in json.loads(out)["tables"]]
    doc = pymupdf.open(pdf)
    theirs = [(i + 1, list(t.bbox)) for i, page in enumerate(doc) for t in page.find_tables().tables]
    ours_n += len(ours)
    theirs_n += len(theirs)
    used, apart = set(), set()
    for page, box in ours:
        j = next((j for j, (p, b) in enumerate(theirs) if p == page and j not in used and iou(box, b) >= 0.5), None)
        if j is None:
            apart.add(page)
        else:
            used.add(j)
            both += 1
    apart |= {p for j, (p, _) in enumerate(theirs) if j not in used}
    if a.list and apart:
        print(f"{f}: pages {sorted(apart)}")
print(f"tables both find: {both} (ours {ours_n}, PyMuPDF {theirs_n}) on {len(FILES)} filings")
