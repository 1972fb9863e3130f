#!/usr/bin/env python3
"""Where a Milvus REST v1 insert spends its time (docs/scale.md, "Where the time goes").

Sends synthetic rows shaped as the offline embedder's (1,024 dimensions, ~230 non-zero, a 2.5 kB
document) in alternating rounds and reads the server's CPU time from /proc/PID/stat around each:
vectors printed as f64 digits against the compact form `milvus::doc_row` writes, then 256 against
1,024 rows a request. Standard library only.

    scripts/milvus.sh serve
    python3 scripts/milvus_insert_probe.py PORT $(pgrep -f "milvus run standalone")
"""
import json, random, struct, sys, time, urllib.request

port, pid = int(sys.argv[1]), int(sys.argv[2])
base = f"http://127.0.0.1:{port}/v1/vector"


def post(path, body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=300).read())


def cpu():
    f = open(f"/proc/{pid}/stat").read().split()
    return (int(f[13]) + int(f[14])) / 100


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def shortest(x):
    for p in range(1, 10):
        s = "%.*g" % (p, x)
        if f32(float(s)) == x:
            return s
    return repr(x)


coll = f"probe_{random.randrange(10**6)}"
post("/collections/create", {"collectionName": coll, "dimension": 1024, "metricType": "L2", "primaryField": "id", "vectorField": "vector"})
random.seed(7)
text = " ".join(random.choice(["revenue", "net", "sales", "segment", "million", "2022", "operating", "income"]) for _ in range(330))


def vector(f64_digits):
    v = [0.0] * 1024
    for _ in range(230):
        v[random.randrange(1024)] = f32(random.random() * 0.2 - 0.1)
    if f64_digits:  # what an f32 printed through serde_json::Value looks like
        return "[" + ",".join(repr(x) for x in v) + "]"
    return "[" + ",".join("0" if x == 0 else shortest(x) for x in v) + "]"


def body(n, f64_digits):
    rows = []
    for i in range(n):
        meta = json.dumps({"doc_id": f"d{i}", "source": "s.pdf", "page": 3, "modality": "text", "low": False, "file_hash": "h", "doc": json.dumps({"id": f"d{i}", "text": text})})
        rows.append('{"vector":' + vector(f64_digits) + "," + meta[1:])
    return ('{"collectionName":"%s","data":[' % coll + ",".join(rows) + "]}").encode()


def compare(label, variants, rounds=3, rows=2048):
    total = {name: [0.0, 0.0] for name, _, _ in variants}
    for _ in range(rounds):
        for name, n, f64_digits in variants:
            bodies = [body(n, f64_digits) for _ in range(rows // n)]
            c, t = cpu(), time.time()
            for b in bodies:
                r = post("/insert", b)
                assert r.get("code") == 200, r
            total[name][0] += time.time() - t
            total[name][1] += cpu() - c
    for name, (wall, server) in total.items():
        print(f"{label}: {name}: {rounds * rows / wall:.0f} rows/s, server CPU {server / (rounds * rows) * 1000:.2f} ms a row")


compare("vector digits", [("f64-printed", 256, True), ("compact", 256, False)])
compare("rows a request", [("256", 256, False), ("1024", 1024, False)])
