#!/usr/bin/env python3
"""Score `clair tables --json` on PDFs whose ground truth is the LaTeX source of each table.

Usage: latex_tables_score.py DATA_DIR PRED_DIR [--per-page] [--half=even|odd]
       latex_tables_score.py --self-test DATA_DIR
  DATA_DIR holds pdfs/N.pdf and ground_truth/N.json, the layout of pdf-parse-bench's data sets (PyPI
  `pdf-parse-bench` 0.4.0, MIT: single pages typeset with pdfLaTeX, each a list of
  {"type": "table"|"text", "data": ...} blocks where a table's data is its `tabular` source).
  PRED_DIR holds N.json per page, the project's table JSON (the one icdar_score.py reads).

The ground truth has no boxes, so detection matches by content, the analogue of ICDAR's box IoU: a
predicted table matches a ground-truth table of the same page when the Jaccard index of their
multisets of normalised words is >= 0.5 (one-to-one, greedy by index). Structure is ICDAR 2013's:
every non-empty cell's nearest non-empty neighbour to the right and below, as (text, text,
direction), pooled per page, micro-averaged. Text is compared normalised to its letters and digits
(NFKC, lower case): LaTeX's math and symbols (\\pm, \\uparrow, ^{...}) print as glyphs a PDF reader
gives as characters outside [a-z0-9], so both sides drop them alike; a symbol set by a command parts
words on both sides (`split_symbols`). Prints per-page figures with
--per-page and, last: detF1=... structF1=... (n=...)
"""
import collections, glob, json, os, re, sys, unicodedata

def norm(s):
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", s or "").lower())

# Commands whose brace arguments print no text (colours, widths, rules, references), and how many.
SKIP_ARGS = {"textcolor": 1, "color": 1, "cellcolor": 1, "rowcolor": 1, "columncolor": 1, "hspace": 1,
             "vspace": 1, "rule": 2, "cline": 1, "cmidrule": 1, "label": 1, "ref": 1, "cite": 1,
             "includegraphics": 1, "setlength": 2, "resizebox": 2, "scalebox": 1, "fontsize": 2,
             "specialrule": 3, "hhline": 1, "phantom": 1, "hphantom": 1, "vphantom": 1, "noalign": 1}
RULES = re.compile(r"\\(hline|toprule|midrule|bottomrule|addlinespace|hdashline|centering|small|"
                   r"footnotesize|scriptsize|tiny|large|normalsize|bfseries|itshape)\b(\[[^\]]*\])?")

def brace(s, i):
    """s[i] == '{' -> (content, index after the matching '}')."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{" and (j == 0 or s[j - 1] != "\\"):
            depth += 1
        elif s[j] == "}" and s[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return s[i + 1:j], j + 1
    return s[i + 1:], len(s)

def split_top(s, sep):
    """Split s at `sep` outside braces, skipping escaped `\\&`."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if c == "\\" and s.startswith(sep, i) and sep == "\\\\" and depth == 0:
            out.append(s[start:i]); i += 2; start = i; continue
        if c == "\\":
            i += 2; continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == sep and depth == 0:
            out.append(s[start:i]); start = i + 1
        i += 1
    out.append(s[start:])
    return out

def text(s):
    """A cell's LaTeX to the words it prints (commands dropped, their text arguments kept)."""
    s = re.sub(r"\\(?:cmidrule|cline)(\([^)]*\))?\{[^}]*\}", " ", s)
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+)\*?", s[i:])
            if not m:
                out.append(" " if s[i + 1:i + 2] in ("\\", ",", ";", " ", "!") else s[i + 1:i + 2]); i += 2; continue
            name = m.group(1); i += m.end()
            if name in ("begin", "end") and i < len(s) and s[i] == "{":  # a nested tabular's frame
                env, i = brace(s, i)
                if name == "begin" and env.startswith("tabular"):
                    i = len(s) - len(re.sub(r"^\s*\[[^\]]*\]", "", s[i:]))
                    if i < len(s) and s[i] == "{":
                        _, i = brace(s, i)
                out.append(" "); continue
            while i < len(s) and s[i] == "[":  # optional arguments: \makebox[2em][c]{...}
                i = s.find("]", i) + 1 or len(s)
            if name == "verb" and i < len(s):  # \verb|text|
                end = s.find(s[i], i + 1)
                end = len(s) if end < 0 else end
                out.append(s[i + 1:end]); i = end + 1; continue
            for _ in range(SKIP_ARGS.get(name, 0)):
                while i < len(s) and s[i] in " [(":  # optional arguments
                    if s[i] == " ":
                        i += 1; continue
                    close = "]" if s[i] == "[" else ")"
                    i = s.find(close, i) + 1 or len(s)
                if i < len(s) and s[i] == "{":
                    _, i = brace(s, i)
            out.append(" ")
        elif c in "{}$^_~":
            out.append(" " if c == "~" else ""); i += 1
        else:
            out.append(c); i += 1
    return " ".join("".join(out).split())

def cell_parts(cell):
    """-> (col_span, row_span, text) of one `&`-separated cell."""
    cell = cell.strip()
    cols, rows = 1, 1
    while True:
        m = re.match(r"\\(?:rowcolor|cellcolor|columncolor)\s*(?:\[[^\]]*\])?\s*\{[^}]*\}\s*", cell)
        if m:  # a colour before the cell's content
            cell = cell[m.end():]
            continue
        m = re.match(r"\\multicolumn\s*\{(\d+)\}\s*", cell)
        if m:
            cols = int(m.group(1)); rest = cell[m.end():]
            _, j = brace(rest, rest.index("{")) if "{" in rest else ("", 0)
            rest = rest[j:].lstrip()
            cell = brace(rest, 0)[0] if rest.startswith("{") else rest
            continue
        m = re.match(r"\\multirow\s*(?:\[[^\]]*\])?\s*\{(-?\d+)\}\s*(\[[^\]]*\])?\s*\{[^}]*\}\s*(\[[^\]]*\])?\s*", cell)
        if m:
            rows = max(1, abs(int(m.group(1)))); rest = cell[m.end():]
            cell = brace(rest, 0)[0] if rest.startswith("{") else rest
            continue
        break
    return cols, rows, text(cell)

def gt_cells(src):
    """A `tabular` source -> cells [(r0, c0, r1, c1, text)] on the grid it prints."""
    m = re.search(r"\\begin\{(tabular[x*]?)\}", src)
    body = src[m.end():] if m else src
    # [position], then {width} for tabularx and tabular*, then {column spec}.
    body = re.sub(r"^\s*\[[^\]]*\]", "", body)
    for _ in range(2 if m and m.group(1) != "tabular" else 1):
        body = body.lstrip()
        if body.startswith("{"):
            body = body[brace(body, 0)[1]:]
    body = body.split("\\end{tabular")[0]
    body = re.sub(r"(?<!\\)%[^\n]*", "", body)  # comments
    body = body.replace("\\tabularnewline", "\\\\")
    body = RULES.sub(" ", body)
    cells, covered, r = [], set(), 0
    for row in split_top(body, "\\\\"):
        row = re.sub(r"^\s*\[[^\]]*\]", "", row)  # \\[2pt]
        parts = split_top(row, "&")
        if len(parts) == 1 and not norm(text(parts[0])):
            continue  # a rule-only line
        c = 0
        for part in parts:
            cols, rows, t = cell_parts(part)
            if t or not any((r, cc) in covered for cc in range(c, c + cols)):
                cells.append((r, c, r + rows - 1, c + cols - 1, t))
            for rr in range(r + 1, r + rows):
                for cc in range(c, c + cols):
                    covered.add((rr, cc))
            c += cols
        r += 1
    return cells

def relations(cells):
    """cells: [(r0,c0,r1,c1,text)] -> Counter of ICDAR 2013 adjacency relations (icdar_score.py's)."""
    grid = {}
    for i, (r0, c0, r1, c1, _) in enumerate(cells):
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                grid[(r, c)] = i
    if not grid:
        return collections.Counter()
    maxr = max(r for r, _ in grid); maxc = max(c for _, c in grid)

    def nearest(i, positions):
        """The text of the first non-empty cell other than `i` along `positions`, if any."""
        for pos in positions:
            j = grid.get(pos)
            if j is not None and j != i and norm(cells[j][4]):
                return norm(cells[j][4])
        return None

    rel = set()  # a spanning cell may reach the same neighbour along several rows/cols: once
    for i, (r0, c0, r1, c1, t) in enumerate(cells):
        a = norm(t)
        if not a:
            continue
        right = (nearest(i, ((r, c) for c in range(c1 + 1, maxc + 1))) for r in range(r0, r1 + 1))
        below = (nearest(i, ((r, c) for r in range(r1 + 1, maxr + 1))) for c in range(c0, c1 + 1))
        rel.update((a, b, "H") for b in right if b)
        rel.update((a, b, "V") for b in below if b)
    return collections.Counter(dict.fromkeys(rel, 1))

def split_symbols(t):
    """A printed symbol that only a command sets (±, ×, →, ✓) parts words as the command parts them in
    the source, where `text` prints it as a space: "12.8\\%$\\pm$7.0\\%" is the words 12.8% and 7.0%,
    and so is the "12.8%±7.0%" a reader gives. The minus sign U+2212 is math mode's "-" (10^{-2}
    prints 10−2) and parts nothing. A relation or operator typed as itself (= + < >) is set with
    space around it in math ("$T=4$" prints "T = 4"), so it parts words on both sides."""
    return "".join(" " if c in "=+<>" or ord(c) > 127 and c != "\u2212" and unicodedata.category(c).startswith("S") else c for c in t)

def words(cells):
    return collections.Counter(w for *_, t in cells for w in map(norm, split_symbols(t).split()) if w)

def jaccard(a, b):
    union = sum((a | b).values())
    return sum((a & b).values()) / union if union else 0.0

def pred_cells(t):
    cells = []
    for c in t.get("cells", []):
        try:
            r0, c0 = int(c["row"]), int(c["col"])
            cells.append((r0, c0, r0 + int(c.get("row_span", 1)) - 1, c0 + int(c.get("col_span", 1)) - 1, str(c.get("text", ""))))
        except (KeyError, TypeError, ValueError):
            pass
    return cells

def self_test(data):
    """The scorer against itself: each ground truth scored as a prediction gives 1.000 / 1.000, and
    words part where a command's glyph stands in the printed cell as the command parts them in the
    source. Exits non-zero on a failure."""
    def cells_as_pred(c):
        return {"cells": [{"row": r0, "col": c0, "row_span": r1 - r0 + 1, "col_span": c1 - c0 + 1, "text": t} for r0, c0, r1, c1, t in c]}
    for gt_path in sorted(glob.glob(os.path.join(data, "ground_truth", "*.json"))):
        gts = [gt_cells(b["data"]) for b in json.load(open(gt_path)) if b.get("type") == "table"]
        for c in gts:
            p = pred_cells(cells_as_pred(c))
            assert jaccard(words(c), words(p)) == 1.0 and relations(c) == relations(p), gt_path
    printed = {"12.8%±7.0%": r"12.8\%$\pm$7.0\%", "3×3": r"3$\times$3", "10−2": r"$10^{-2}$", "a + b": r"$a+b$",
               "T = 4 → T = 3": r"$T=4 \rightarrow T=3$"}
    for shown, source in printed.items():
        assert words([(0, 0, 0, 0, shown)]) == words([(0, 0, 0, 0, text(source))]), (shown, source)
    print("self-test passed")

def main():
    if sys.argv[1:2] == ["--self-test"]:
        return self_test(sys.argv[2])
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    per_page = "--per-page" in sys.argv
    data, pred_dir = args[0], args[1]
    D, S = collections.Counter(), collections.Counter()
    pages = sorted(glob.glob(os.path.join(data, "ground_truth", "*.json")))
    # --half even|odd: the pages with an even or odd number, to look at one half and judge on the other.
    half = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--half=")), None)
    if half:
        pages = [p for p in pages if int(os.path.basename(p)[:-5]) % 2 == (half == "odd")]
    for gt_path in pages:
        name = os.path.basename(gt_path)[:-5]
        gts = [gt_cells(b["data"]) for b in json.load(open(gt_path)) if b.get("type") == "table"]
        try:
            pred = [pred_cells(t) for t in json.load(open(os.path.join(pred_dir, name + ".json")))["tables"]]
        except (OSError, ValueError, KeyError):
            pred = []
        gw, pw = [words(c) for c in gts], [words(c) for c in pred]
        pairs = sorted(((jaccard(g, p), gi, pi) for gi, g in enumerate(gw) for pi, p in enumerate(pw)), reverse=True)
        used_g, used_p, hit = set(), set(), 0
        for v, gi, pi in pairs:
            if v >= 0.5 and gi not in used_g and pi not in used_p:
                used_g.add(gi); used_p.add(pi); hit += 1
        D["tp"] += hit; D["gt"] += len(gts); D["pred"] += len(pred)
        g_rel, p_rel = collections.Counter(), collections.Counter()
        for c in gts:
            g_rel += relations(c)
        for c in pred:
            p_rel += relations(c)
        tp = sum((g_rel & p_rel).values())
        S["tp"] += tp; S["gt"] += sum(g_rel.values()); S["pred"] += sum(p_rel.values())
        if per_page:
            print(f"{name}: tables gt {len(gts)} pred {len(pred)} matched {hit}; relations gt {sum(g_rel.values())} pred {sum(p_rel.values())} tp {tp}")
    def prf(c):
        p = c["tp"] / c["pred"] if c["pred"] else 0.0; r = c["tp"] / c["gt"] if c["gt"] else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)
    dp, dr, df = prf(D); sp, sr, sf = prf(S)
    print(f"detection: P={dp:.3f} R={dr:.3f} F1={df:.3f}  (gt {D['gt']}, pred {D['pred']})")
    print(f"structure: P={sp:.3f} R={sr:.3f} F1={sf:.3f}  (gt rel {S['gt']}, pred rel {S['pred']})")
    print(f"detF1={df:.3f} structF1={sf:.3f} (n={len(pages)})")

if __name__ == "__main__":
    main()
