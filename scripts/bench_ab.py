#!/usr/bin/env python3
"""Time readers side by side on one PDF (issue 3 speed work): each run N times, in turn.

    scripts/bench_ab.py [-n N] PDF BIN [BIN ...]

A BIN is a `clair` binary (run as `BIN extract PDF --json`) or pdftotext (any path ending in
`pdftotext`, run as `pdftotext PDF -`); output is discarded. The readers alternate run by run, so
a burst of load elsewhere hits all of them alike. Prints min, first quartile and median wall time
per reader in milliseconds, and each reader's median against the first one's. Use it for
before/after comparisons of one change (an old and a new binary) and for one file's ratio against
pdftotext; `scripts/bench_extract.sh` is the bar over every 100+-page FinanceBench PDF.
Exits non-zero when a reader fails.
"""
import statistics
import subprocess
import sys
import time


def main(argv):
    n = 20
    if len(argv) >= 2 and argv[0] == "-n":
        n, argv = int(argv[1]), argv[2:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pdf, readers = argv[0], argv[1:]
    times = {r: [] for r in readers}
    for _ in range(n):
        for r in readers:
            cmd = [r, pdf, "-"] if r.endswith("pdftotext") else [r, "extract", pdf, "--json"]
            t0 = time.perf_counter()
            done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t = time.perf_counter() - t0
            if done.returncode != 0:
                print(f"failed: {' '.join(cmd)} (exit {done.returncode})", file=sys.stderr)
                return 1
            times[r].append(t)
    base = statistics.median(times[readers[0]])
    for r in readers:
        v = sorted(times[r])
        med = statistics.median(v)
        print(f"{r:40s} min {v[0] * 1e3:8.2f}  p25 {v[len(v) // 4] * 1e3:8.2f}  median {med * 1e3:8.2f} ms"
              f"  ({base / med:.2f}× the first's speed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
