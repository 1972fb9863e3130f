#!/usr/bin/env python3
"""Held-out folds of the dev corpora: retrieval by company (FinanceBench), tables by document (ICDAR eu).

Usage: scripts/folds.py [--folds 5] [--clair target/release/clair] [--variants offline,static:0.5,...]
                        [--out target/folds] [--skip-tables] [--skip-retrieval]

Folds (deterministic, from the file lists alone):
  FinanceBench: companies in order of falling question count (then name) go one by one to the fold
    with the fewest questions so far (then the lowest index): no company is in two folds.
  ICDAR 2013 eu: documents sorted by name, document i in fold i mod N (a re-annotation such as
    eu-009b scores the same PDF and stays with its letterless name's fold).

Retrieval: every document is ingested once per embedder (`clair ingest`), every question searched
once per variant (`clair search --k 8 --json`), page-hit@8 and MRR of the first gold page exactly as
`../shared/tools/retrieval_hit.py` counts them. A variant is `EMBEDDER[:STATIC_WEIGHT]` (`offline`,
`static:0.5`: the static-embedding corpus searched with that weight on its semantic part). What is
chosen from data is the variant: for a held-out fold it is chosen on the other folds only (best
hit@8, then MRR), and the "all-in" column is the variant chosen on all questions, scored on the same
fold. Everything else the embedders use is either fixed a priori (the static table is distilled
from the encoder alone, the stop list and tokeniser are written rules) or computed from the user's
own document at query time (IDF), never from questions.

Tables: `scripts/score_tables.sh` predictions scored per fold with `../shared/tools/icdar_score.py`.
The table rules are written rules, not fitted per fold: a fold's figure is the same rule set on
that fold's documents, so the spread across folds is what a document not seen shows.

The last lines are the report (markdown table); JSON with every figure goes to OUT/report.json.
"""
import argparse, collections, json, os, re, shlex, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)
ap = argparse.ArgumentParser()
ap.add_argument("--folds", type=int, default=5)
ap.add_argument("--clair", default="target/release/clair")
# The two embedders a user gets: the lexical part alone (no table installed) and the default, the
# semantic part at `retrieval.static_weight` 0.1. Other weights: --variants static:0.05,static:0.2,…
STATIC_VARIANTS = "offline,static:0.1"
ap.add_argument("--variants", default=os.environ.get("FOLD_VARIANTS") or (
    STATIC_VARIANTS if os.path.exists("target/static-embed/minilm-l6-static.bin") else "offline"))
ap.add_argument("--k", type=int, default=8)
ap.add_argument("--out", default="target/folds", help="corpora, predictions and report.json (a corpus there is reused: use a new folder for a new binary)")
ap.add_argument("--skip-tables", action="store_true"); ap.add_argument("--skip-retrieval", action="store_true")
a = ap.parse_args()
shared = "../shared" if os.path.isdir("../shared/corpus") else "/work/shared"
FB = f"{shared}/corpus/financebench"
GT = f"{shared}/corpus/icdar2013"
OUT = a.out
os.makedirs(OUT, exist_ok=True)
report = {"folds": a.folds}


def company_folds(qs, n):
    count = collections.Counter(q["company"] for q in qs)
    load, fold_of = [0] * n, {}
    for c in sorted(count, key=lambda c: (-count[c], c)):
        f = min(range(n), key=lambda i: (load[i], i))
        fold_of[c] = f
        load[f] += count[c]
    return fold_of


def score(ranks):
    """ranks: rank (1-based) of the first gold page in the top k, or None → (hit@k, MRR)."""
    n = max(1, len(ranks))
    return sum(r is not None for r in ranks) / n, sum(1 / r for r in ranks if r) / n


def retrieval():
    qs = [json.loads(l) for l in open(f"{FB}/questions.jsonl") if l.strip()]
    qs = [q for q in qs if os.path.exists(f"{FB}/pdfs/{q['doc_name']}.pdf")]
    fold_of = company_folds(qs, a.folds)
    variants = [v.strip() for v in a.variants.split(",") if v.strip()]
    ranks = {}  # variant -> [rank per question]
    for v in variants:
        emb, _, weight = v.partition(":")
        cdir = f"{OUT}/corpora-{emb}"
        os.makedirs(cdir, exist_ok=True)
        rs = []
        for q in qs:
            doc = q["doc_name"]
            corpus = f"{cdir}/{doc}.json"
            if not os.path.exists(corpus):
                subprocess.run(shlex.split(a.clair) + ["ingest", f"{FB}/pdfs/{doc}.pdf", "-o", corpus, "--embedder", emb],
                               capture_output=True, timeout=900, check=True)
            cmd = shlex.split(a.clair) + ["search", corpus, q["question"], "--k", str(a.k), "--json"]
            if weight:
                cmd += ["--static-weight", weight]
            out = subprocess.run(cmd, capture_output=True, timeout=300)
            try:
                pages = [h["page"] for h in json.loads(out.stdout)["hits"]][: a.k]
            except Exception:
                print(f"{q['financebench_id']} ({v}): {out.stderr.decode()[:200]}", file=sys.stderr)
                pages = []
            gold = {e["evidence_page_num"] + 1 for e in q["evidence"]}
            rs.append(next((i + 1 for i, p in enumerate(pages) if p in gold), None))
        ranks[v] = rs
        print(f"{v}: all questions hit@{a.k}={score(rs)[0]:.3f} mrr={score(rs)[1]:.3f}", file=sys.stderr)

    def best(idx):
        return max(variants, key=lambda v: (score([ranks[v][i] for i in idx]), -variants.index(v)))

    everything = list(range(len(qs)))
    chosen_all = best(everything)
    rows, held_ranks, all_ranks = [], [], []
    for f in range(a.folds):
        test = [i for i in everything if fold_of[qs[i]["company"]] == f]
        train = [i for i in everything if fold_of[qs[i]["company"]] != f]
        chosen = best(train)
        h = [ranks[chosen][i] for i in test]
        al = [ranks[chosen_all][i] for i in test]
        held_ranks += h; all_ranks += al
        rows.append({"fold": f, "questions": len(test),
                     "companies": sorted({qs[i]["company"] for i in test}),
                     "variant_held_out": chosen, "held_out": score(h), "variant_all_in": chosen_all, "all_in": score(al),
                     "per_variant": {v: score([ranks[v][i] for i in test]) for v in variants}})
    report["retrieval"] = {"variants": variants, "chosen_all_in": chosen_all, "folds": rows,
                           "held_out": score(held_ranks), "all_in": score(all_ranks),
                           "per_variant_all": {v: score(ranks[v]) for v in variants}}


def tables():
    docs = sorted(p[: -len("-str.xml")] for p in os.listdir(GT) if p.endswith("-str.xml"))
    pred = f"{OUT}/icdar-pred"
    env = dict(os.environ, CLAIR=a.clair)
    subprocess.run(["scripts/score_tables.sh", GT, pred], env=env, capture_output=True, check=True)
    base = sorted({re.sub(r"[a-z]$", "", d) for d in docs})
    fold_of = {b: i % a.folds for i, b in enumerate(base)}
    scorer = f"{shared}/tools/icdar_score.py"

    def run(ds):
        out = subprocess.run(["python3", scorer, GT, pred] + ds, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        m = re.search(r"detF1=([0-9.]+) structF1=([0-9.]+)", out)
        return float(m.group(1)), float(m.group(2))

    allin = run(docs)
    rows = []
    for f in range(a.folds):
        ds = [d for d in docs if fold_of[re.sub(r"[a-z]$", "", d)] == f]
        rows.append({"fold": f, "documents": ds, "det_f1_struct_f1": run(ds)})
    report["tables"] = {"all_in": allin, "folds": rows}


if not a.skip_retrieval:
    retrieval()
if not a.skip_tables:
    tables()
json.dump(report, open(f"{OUT}/report.json", "w"), indent=1)

print(f"| fold | held-out questions (companies) | page-hit@{a.k} / MRR held-out | all-in | ICDAR eu docs | det F1 / struct F1 |")
print("|---|---|---|---|---|---|")
for f in range(a.folds):
    r = report.get("retrieval", {}).get("folds", [{}] * a.folds)[f]
    t = report.get("tables", {}).get("folds", [{}] * a.folds)[f]
    ret = f"{r['held_out'][0]:.3f} / {r['held_out'][1]:.3f} ({r['variant_held_out']})" if r else "—"
    alin = f"{r['all_in'][0]:.3f} / {r['all_in'][1]:.3f}" if r else "—"
    qn = f"{r['questions']} ({len(r['companies'])})" if r else "—"
    tb = f"{t['det_f1_struct_f1'][0]:.3f} / {t['det_f1_struct_f1'][1]:.3f}" if t else "—"
    print(f"| {f} | {qn} | {ret} | {alin} | {len(t.get('documents', [])) if t else '—'} | {tb} |")
if "retrieval" in report:
    r = report["retrieval"]
    print(f"| all | {sum(x['questions'] for x in r['folds'])} | {r['held_out'][0]:.3f} / {r['held_out'][1]:.3f} (pooled held-out) "
          f"| {r['all_in'][0]:.3f} / {r['all_in'][1]:.3f} ({r['chosen_all_in']}) | ", end="")
else:
    print("| all | — | — | — | ", end="")
if "tables" in report:
    t = report["tables"]
    print(f"{sum(len(x['documents']) for x in t['folds'])} | {t['all_in'][0]:.3f} / {t['all_in'][1]:.3f} (all-in) |")
else:
    print("— | — |")
