#!/usr/bin/env bash
# Unmapped glyphs against pdftotext (issue 3): on every page of the ICDAR 2013 and FinanceBench
# PDFs, count garbage — U+FFFD, private-use code points (U+E000–F8FF, planes 15–16) and control
# characters other than whitespace — in what `clair extract PDF --json` read on the page and in
# pdftotext's text of the same page. A page where ours has any and pdftotext has none is a failure:
# the glyphs had a Unicode value a reader can find.
#
# Our page text never shows such a glyph: the layout leaves garbage glyphs out of the text and counts
# them in `signals.garbled_glyphs` (the numerator of `garbled_share`, §4.1). So ours is that count
# plus any garbage left in the text; counting the text alone would always give 0.
#
#   scripts/check_unicode.sh [PDF_DIR]...
#
# PDF_DIRs default to ../shared/corpus/icdar2013 and ../shared/corpus/financebench/pdfs. CLAIR
# overrides the binary (default target/release/clair, built if missing). Lists every failing page
# (with the code points), then totals; the last line is the figure. Exits non-zero on any failure.
#
# pdftotext runs once per document and its output is split at the form feed it ends each page with:
# the same text as `pdftotext -f N -l N` page by page, without parsing the file once per page.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- ../shared/corpus/icdar2013 ../shared/corpus/financebench/pdfs
  [ -d "$1" ] || set -- /work/shared/corpus/icdar2013 /work/shared/corpus/financebench/pdfs
fi
CLAIR="${CLAIR:-target/release/clair}"
if [ ! -x "$CLAIR" ]; then
  CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release --locked -p clair-cli
fi
command -v pdftotext >/dev/null || { echo "pdftotext missing (apt-get install poppler-utils)" >&2; exit 2; }

python3 - "$CLAIR" "$@" <<'PY'
import glob, json, os, subprocess, sys

clair, dirs = sys.argv[1], sys.argv[2:]

def garbage(text):
    """The code points core's `read::is_garbage` calls garbage: U+FFFD, private use, controls."""
    return [c for c in text if c == "\ufffd" or "\ue000" <= c <= "\uf8ff" or ord(c) >= 0xF0000
            or (ord(c) < 32 and c not in "\t\n\x0b\x0c\r") or ord(c) == 127]

pages = ours_glyphs = ours_pages = theirs_glyphs = theirs_pages = both_pages = 0
failures, unreadable = [], []
for d in dirs:
    for pdf in sorted(glob.glob(os.path.join(d, "*.pdf"))):
        name = os.path.basename(pdf)
        r = subprocess.run([clair, "extract", pdf, "--json"], capture_output=True)
        ours = {p["page"]: p for p in json.loads(r.stdout)["pages"]} if r.returncode == 0 else {}
        theirs = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True).stdout.decode("utf-8", "replace").split("\f")
        # pdftotext ends every page with a form feed: the piece after the last one is not a page.
        theirs = theirs[:-1] if len(theirs) > 1 else theirs
        for n, their_text in enumerate(theirs, start=1):
            if n not in ours:
                unreadable.append(f"{name} p{n}")
                continue
            pages += 1
            in_text = garbage(ours[n]["text"])
            dropped = ours[n]["signals"].get("garbled_glyphs", 0)
            g, t = len(in_text) + dropped, garbage(their_text)
            ours_glyphs += g; ours_pages += bool(g)
            theirs_glyphs += len(t); theirs_pages += bool(t)
            both_pages += bool(g) and bool(t)
            if g and not t:
                failures.append(f"{name} p{n}: {g} ({dropped} left out of the text, {len(in_text)} in it)")

for f in failures:
    print("FAIL", f)
if unreadable:
    print(f"{len(unreadable)} page(s) pdftotext reads and clair returned none of: {', '.join(unreadable[:20])}")
print(f"pages checked {pages}: clair {ours_glyphs} garbage glyphs (U+FFFD, private use, controls) on {ours_pages} pages, "
      f"pdftotext {theirs_glyphs} on {theirs_pages} pages ({both_pages} pages with both); "
      f"{len(failures)} page(s) with ours only")
sys.exit(1 if failures or unreadable else 0)
PY
