#!/usr/bin/env python3
"""How much of a Milvus collection its searches reach (docs/scale.md, "what does not scale yet").

    python3 scripts/milvus_recall_probe.py PORT COLLECTION

Reads every row of COLLECTION (≤ 16,384: a query's cap) with its vector, then compares Milvus's
answers with the exact squared-L2 scan over those rows: how many rows a search with a large limit
reaches, the overlap of the top 256 (unfiltered, and tables only as the client filters them), and
recall@32 (the client's pool for k = 8) over 20 queries, each a stored table row's vector.
Standard library only; the exact scan is pure Python (≈ 1 min for 7,000 rows of 1,024).
"""
import json
import random
import sys
import urllib.request

port, coll = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}/v1/vector"


def post(path, body):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    reply = json.loads(urllib.request.urlopen(req).read())
    if reply.get("code") not in (0, 200):
        sys.exit(f"{path}: {reply}")
    return reply["data"]


rows = post("/query", {"collectionName": coll, "filter": "id >= 0", "outputFields": ["id", "vector", "modality", "low"], "limit": 16384})
is_table = lambda r: r["modality"] == "table" and not r["low"]
print(f"{coll}: {len(rows)} rows, {sum(map(is_table, rows))} tables")


def d2(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b))


def search(v, limit, filt=None):
    body = {"collectionName": coll, "vector": v, "limit": limit, "outputFields": ["id"]}
    if filt:
        body["filter"] = filt
    return [h["id"] for h in post("/search", body)]


def within(got, ranked_rows, n, q):
    """Answered rows as near as the exact n-th (rows at equal distance are interchangeable)."""
    if not ranked_rows:
        return 0
    bound = d2(ranked_rows[min(n, len(ranked_rows)) - 1]["vector"], q) + 1e-6
    dist = {r["id"]: d2(r["vector"], q) for r in ranked_rows}
    return sum(1 for i in got if dist.get(i, float("inf")) <= bound)


v = next(r for r in rows if is_table(r))["vector"]
ranked = sorted(rows, key=lambda r: d2(r["vector"], v))
reach = search(v, min(len(rows), 16384))
print(f"a search with limit {len(rows)} answers {len(reach)} rows")
for label, filt, keep in [("unfiltered", None, lambda r: True), ("tables", 'modality == "table" and low == false', is_table)]:
    exact = [r for r in ranked if keep(r)]
    got = search(v, 256, filt)
    print(f"{label}: top 256 answered {len(got)} rows, {within(got, exact, 256, v)} of them among the exact {min(256, len(exact))}")

random.seed(5)
queries = random.sample([r for r in rows if is_table(r)], 20)
found = 0
for q in queries:
    exact = sorted(rows, key=lambda r: d2(r["vector"], q["vector"]))
    found += within(search(q["vector"], 32), exact, 32, q["vector"])
print(f"recall@32 over {len(queries)} queries (ties counted as found): {found / (32 * len(queries)):.3f}")
