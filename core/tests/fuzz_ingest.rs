//! The parser's fuzz harness (issue 3 deliverable 5). `cargo fuzz` needs a nightly toolchain, so this
//! is the stable equivalent: a `harness = false` test that mutates real PDFs and feeds them to the
//! path the worker and the CLI take — `ingest::extract` + `ingest::documents` + the JSON contracts,
//! and for one input in eight a page render (`render::render_page`).
//!
//! ```text
//! cargo test -p clair-core --test fuzz_ingest          # smoke run: 250 inputs / 35 s, fails on any crash
//! scripts/fuzz.sh [SECONDS] [SEED]                     # the real run, release build
//! fuzz_ingest --replay FILE.pdf                        # one reproducer, in process, with details
//! ```
//!
//! Inputs run in child processes (this binary again, `--child`), so a process death — abort, stack
//! overflow, out of memory — and a hang (no answer within `--timeout` seconds) are caught as well as
//! panics; the parent then re-creates the killing input (inputs are a pure function of the run seed
//! and the input number) and saves it.
//!
//! What counts as a crash: a panic that escapes the target; a panic in our own code even when a guard
//! catches it (our code must not panic on PDF data at all); a child death; a hang. Panics inside
//! dependencies (hayro-*, pdf-rs) that the per-page and structure guards catch are counted apart as
//! `caught`: natively they cost a page or the outline, in wasm they abort the worker, so the first
//! reproducer of each site is kept in `target/fuzz/caught/`. Crash reproducers go to
//! `target/fuzz/crashes/`. The last line printed is the summary:
//! `executions=N crashes=K hangs=H unique=U seconds=S caught=C caught_unique=D`.
//!
//! Mutations aim past the first flate error: byte flips, truncation, splicing two files, token edits
//! (numbers, names, `endobj`/`endstream` removed, `startxref` and xref offsets broken, `[[[[`/`<<<<`
//! nesting), and — the one that reaches the interpreter and the font parsers — a FlateDecode stream
//! inflated, its content edited (operators, operands, huge counts, repeated runs, deep `q` nesting,
//! raw byte flips for fonts and object streams), deflated again with `/Length` fixed.

#[cfg(feature = "pdf")]
fn main() {
    fuzz::main()
}

#[cfg(not(feature = "pdf"))]
fn main() {
    eprintln!("fuzz_ingest: the `pdf` feature is off; nothing to fuzz");
}

#[cfg(feature = "pdf")]
mod fuzz {
    use clair_core::config::IngestSettings;
    use clair_core::ingest;
    use std::collections::BTreeMap;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    struct Args {
        /// Stop after this many seconds (the smoke run also stops at `execs`).
        seconds: f64,
        execs: u64,
        seed: u64,
        /// Per-input time limit; longer is a hang.
        timeout: f64,
        /// Inputs per child process.
        batch: u64,
        /// Largest seed file taken from the corpus.
        max_seed_kb: u64,
        /// Stack of the thread the target runs on (the worker's wasm stack is 1 MiB).
        stack_kb: usize,
        /// Address-space cap of a child, so a decompression bomb dies as a crash, not the machine.
        mem_mb: u64,
        out: PathBuf,
        child: Option<(u64, u64)>,
        replay: Vec<PathBuf>,
    }

    fn args() -> Args {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut a = Args {
            // The smoke run of `cargo test` (debug build, a shared machine): a real hang never
            // answers, so a generous limit costs nothing and keeps a loaded CI machine quiet.
            seconds: 35.0,
            execs: 250,
            seed: 1,
            timeout: 30.0,
            batch: 100,
            max_seed_kb: 160,
            stack_kb: 2048,
            mem_mb: 4096,
            out: manifest.join("../target/fuzz"),
            child: None,
            replay: vec![],
        };
        let v: Vec<String> = std::env::args().skip(1).collect();
        let num = |i: usize| -> f64 { v.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0.0) };
        let mut i = 0;
        // Unknown arguments (`--quiet`, a test-name filter from `cargo test`) are ignored.
        while i < v.len() {
            match v[i].as_str() {
                "--seconds" => {
                    a.seconds = num(i);
                    a.execs = u64::MAX;
                    i += 1;
                }
                "--execs" => {
                    a.execs = num(i) as u64;
                    i += 1;
                }
                "--seed" => {
                    a.seed = num(i) as u64;
                    i += 1;
                }
                "--timeout" => {
                    a.timeout = num(i);
                    i += 1;
                }
                "--batch" => {
                    a.batch = (num(i) as u64).max(1);
                    i += 1;
                }
                "--max-seed-kb" => {
                    a.max_seed_kb = num(i) as u64;
                    i += 1;
                }
                "--stack-kb" => {
                    a.stack_kb = num(i) as usize;
                    i += 1;
                }
                "--mem-mb" => {
                    a.mem_mb = num(i) as u64;
                    i += 1;
                }
                "--out" => {
                    a.out = PathBuf::from(v.get(i + 1).cloned().unwrap_or_default());
                    i += 1;
                }
                "--child" => {
                    a.child = Some((num(i) as u64, v.get(i + 2).and_then(|s| s.parse().ok()).unwrap_or(0)));
                    i += 2;
                }
                "--replay" => {
                    a.replay.push(PathBuf::from(v.get(i + 1).cloned().unwrap_or_default()));
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
        a
    }

    pub fn main() {
        let a = args();
        if !a.replay.is_empty() {
            return replay(&a);
        }
        let seeds = seeds(a.max_seed_kb);
        match a.child {
            Some((start, count)) => child(&a, &seeds, start, count),
            None => parent(&a, &seeds),
        }
    }

    // ---------------------------------------------------------------- seeds

    struct Seed {
        name: String,
        bytes: Vec<u8>,
    }

    /// `../shared/corpus` relative to the repository root, else /work/shared/corpus (as
    /// scripts/score_tables.sh resolves it): every ICDAR 2013 PDF and the FinanceBench PDFs up to
    /// `max_kb`. A tiny built-in PDF keeps the harness useful without the corpus.
    fn seeds(max_kb: u64) -> Vec<Seed> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
        let root = if root.is_dir() { root } else { PathBuf::from("/work/shared/corpus") };
        let mut out = vec![Seed { name: "builtin-tiny.pdf".into(), bytes: tiny_pdf() }];
        for (dir, cap) in [("icdar2013", u64::MAX), ("financebench/pdfs", max_kb * 1024)] {
            let Ok(rd) = std::fs::read_dir(root.join(dir)) else { continue };
            let mut files: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdf")))
                .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= cap))
                .collect();
            files.sort();
            for p in files {
                if let Ok(bytes) = std::fs::read(&p) {
                    let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
                    out.push(Seed { name, bytes });
                }
            }
        }
        out
    }

    /// One page of text in a FlateDecode stream, with a correct xref.
    fn tiny_pdf() -> Vec<u8> {
        let content = b"BT /F1 12 Tf 72 720 Td (Revenue 2023 1,234.5) Tj 0 -14 Td [(Net) -250 (income)] TJ ET 72 700 m 300 700 l S 72 650 200 20 re f";
        let z = deflate(content);
        let mut objs: Vec<Vec<u8>> = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".to_vec(),
        ];
        let mut s = format!("<< /Length {} /Filter /FlateDecode >>\nstream\n", z.len()).into_bytes();
        s.extend_from_slice(&z);
        s.extend_from_slice(b"\nendstream");
        objs.push(s);
        objs.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
        let mut pdf = b"%PDF-1.7\n".to_vec();
        let mut offsets = vec![];
        for (k, o) in objs.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend_from_slice(format!("{} 0 obj\n", k + 1).as_bytes());
            pdf.extend_from_slice(o);
            pdf.extend_from_slice(b"\nendobj\n");
        }
        let xref = pdf.len();
        pdf.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1).as_bytes());
        for o in offsets {
            pdf.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
        }
        pdf.extend_from_slice(
            format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objs.len() + 1).as_bytes(),
        );
        pdf
    }

    fn deflate(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        let _ = e.write_all(b);
        e.finish().unwrap_or_default()
    }

    /// Inflate at most `cap` bytes; None when the data is not zlib.
    fn inflate(b: &[u8], cap: u64) -> Option<Vec<u8>> {
        let mut out = vec![];
        flate2::read::ZlibDecoder::new(b).take(cap).read_to_end(&mut out).ok()?;
        (!out.is_empty()).then_some(out)
    }

    // ---------------------------------------------------------------- mutations

    /// splitmix64: inputs are a pure function of (run seed, input number), so a killing input can
    /// be re-created by the parent.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            if n == 0 {
                0
            } else {
                (self.next() % n as u64) as usize
            }
        }
        fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
            &v[self.below(v.len())]
        }
        fn chance(&mut self, one_in: usize) -> bool {
            self.below(one_in) == 0
        }
    }

    const INTERESTING: &[&str] = &[
        "0", "-1", "1", "-0", "255", "256", "65535", "65536", "2147483647", "2147483648", "-2147483649",
        "4294967295", "4294967296", "9999999999", "99999999999999999999999", "1e38", "3.5e38", "-3.5e38",
        ".000001", "0.0", "-.5", "1000000", "16777216", "123456789012",
    ];

    const NAMES: &[&str] = &[
        "Length", "Filter", "FlateDecode", "LZWDecode", "ASCII85Decode", "ASCIIHexDecode", "RunLengthDecode",
        "DCTDecode", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "DecodeParms", "Predictor", "Columns",
        "Colors", "BitsPerComponent", "Kids", "Parent", "Type", "Page", "Pages", "Count", "Font", "XObject",
        "Form", "Image", "Resources", "Contents", "W", "Index", "Prev", "Size", "Root", "Encrypt", "ObjStm",
        "XRef", "N", "First", "Subtype", "Width", "Height", "ColorSpace", "ICCBased", "Indexed", "Pattern",
        "Separation", "DeviceN", "Widths", "FirstChar", "LastChar", "ToUnicode", "DescendantFonts",
        "Encoding", "Differences", "FontFile", "FontFile2", "FontFile3", "CIDToGIDMap", "Type0", "Type3",
        "CharProcs", "FontMatrix", "Matrix", "BBox", "MediaBox", "CropBox", "Rotate", "Annots", "AP",
        "Outlines", "First", "Last", "Next", "Dest", "PageLabels", "Nums", "SMask", "Mask", "Decode",
        "Shading", "Function", "Domain", "Range", "Group", "ExtGState", "Identity-H", "WinAnsiEncoding",
    ];

    const TOKENS: &[&[u8]] = &[
        b"endobj", b"endstream", b"stream", b" obj", b"xref", b"trailer", b"startxref", b">>", b"<<", b"]", b" R",
    ];

    const OPS: &[(&str, usize)] = &[
        ("q", 0), ("Q", 0), ("cm", 6), ("re", 4), ("m", 2), ("l", 2), ("c", 6), ("v", 4), ("h", 0), ("S", 0),
        ("f", 0), ("f*", 0), ("B", 0), ("n", 0), ("W", 0), ("W n", 0), ("BT", 0), ("ET", 0), ("Td", 2),
        ("TD", 2), ("Tm", 6), ("T*", 0), ("Tc", 1), ("Tw", 1), ("Tz", 1), ("TL", 1), ("Ts", 1), ("Tr", 1),
        ("w", 1), ("J", 1), ("j", 1), ("M", 1), ("d", 0), ("g", 1), ("G", 1), ("rg", 3), ("RG", 3), ("k", 4),
        ("K", 4), ("sc", 3), ("scn", 4), ("d0", 2), ("d1", 6), ("BMC", 0), ("EMC", 0), ("BX", 0), ("EX", 0),
    ];

    /// Random operators with random operands, plus the ones that take names, strings and arrays.
    fn random_ops(r: &mut Rng) -> Vec<u8> {
        let mut s = String::new();
        for _ in 0..1 + r.below(20) {
            match r.below(10) {
                0 => s.push_str(&format!("/{} {} Tf ", r.pick(&["F1", "F2", "TT0", "C2_0", "Fx"]), r.pick(INTERESTING))),
                1 => s.push_str(&format!("({}) Tj ", "A".repeat(r.below(64)))),
                2 => s.push_str(&format!("[(a) {} (b) -{}] TJ ", r.pick(INTERESTING), r.below(9999))),
                3 => s.push_str(&format!("/{} Do ", r.pick(&["Im0", "Fm0", "X1", "Im1", "Fm1", "P0"]))),
                4 => s.push_str(&format!("/{} gs ", r.pick(&["GS0", "GS1", "R7"]))),
                5 => s.push_str(&format!("/{} cs /{} CS ", r.pick(NAMES), r.pick(NAMES))),
                6 => s.push_str(&format!("/{} sh ", r.pick(&["Sh0", "Sh1"]))),
                7 => s.push_str(&format!(
                    "BI /W {} /H {} /BPC 8 /CS /RGB ID {} EI ",
                    r.pick(INTERESTING),
                    r.pick(INTERESTING),
                    "\u{1}\u{2}x".repeat(r.below(30))
                )),
                _ => {
                    let (op, n) = *r.pick(OPS);
                    for _ in 0..n {
                        let v = if r.chance(3) { r.pick(INTERESTING).to_string() } else { format!("{}", r.below(800) as i64 - 50) };
                        s.push_str(&v);
                        s.push(' ');
                    }
                    s.push_str(op);
                    s.push(' ');
                }
            }
        }
        s.into_bytes()
    }

    /// Position of a random occurrence of `pat` (searching forward from a random start, wrapping).
    fn find_from(b: &[u8], pat: &[u8], start: usize) -> Option<usize> {
        if pat.is_empty() || b.len() < pat.len() {
            return None;
        }
        let last = b.len() - pat.len();
        let start = start.min(last);
        (start..=last).chain(0..start).find(|&i| &b[i..i + pat.len()] == pat)
    }

    fn replace_number(b: &mut Vec<u8>, r: &mut Rng) -> bool {
        let start = r.below(b.len());
        let Some(i) = (start..b.len()).chain(0..start).find(|&i| b[i].is_ascii_digit()) else { return false };
        let mut s = i;
        while s > 0 && (b[s - 1].is_ascii_digit() || b[s - 1] == b'.' || b[s - 1] == b'-') {
            s -= 1;
        }
        let mut e = i;
        while e < b.len() && (b[e].is_ascii_digit() || b[e] == b'.') {
            e += 1;
        }
        b.splice(s..e, r.pick(INTERESTING).bytes());
        true
    }

    fn replace_name(b: &mut Vec<u8>, r: &mut Rng) -> bool {
        let Some(i) = find_from(b, b"/", r.below(b.len())) else { return false };
        let mut e = i + 1;
        while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'-' || b[e] == b'_') {
            e += 1;
        }
        b.splice(i + 1..e, r.pick(NAMES).bytes());
        true
    }

    /// Mutations that work on any bytes (file or decoded stream).
    fn mutate_bytes(b: &mut Vec<u8>, r: &mut Rng, other: &[u8]) -> &'static str {
        if b.is_empty() {
            b.extend_from_slice(&other[..other.len().min(64)]);
            return "fill";
        }
        match r.below(9) {
            0 | 1 => {
                for _ in 0..1 + r.below(16) {
                    let i = r.below(b.len());
                    b[i] = if r.chance(2) { b[i] ^ (1 << r.below(8)) } else { r.next() as u8 };
                }
                "flip"
            }
            2 => {
                b.truncate(r.below(b.len()));
                "truncate"
            }
            3 => {
                let (x, y) = (r.below(b.len()), r.below(other.len()));
                b.truncate(x);
                b.extend_from_slice(&other[y..]);
                "splice"
            }
            4 => {
                replace_number(b, r);
                "number"
            }
            5 => {
                replace_name(b, r);
                "name"
            }
            6 => {
                // Deep nesting: arrays, dictionaries, strings, or an operator run.
                let n = *r.pick(&[64usize, 1_000, 10_000, 100_000]);
                let units: [&[u8]; 5] = [b"[", b"<<", b"(", b"q ", b"<< /A "];
                let unit = *r.pick(&units);
                let at = r.below(b.len());
                let run: Vec<u8> = unit.iter().copied().cycle().take(unit.len() * n).collect();
                b.splice(at..at, run);
                "nesting"
            }
            7 => {
                // Duplicate a chunk many times (huge counts, repeated objects or operators).
                let s = r.below(b.len());
                let len = 1 + r.below(2048.min(b.len() - s));
                let chunk = b[s..s + len].to_vec();
                let times = 2 + r.below((1_000_000 / len).clamp(1, 5_000));
                let at = r.below(b.len());
                let run: Vec<u8> = chunk.iter().copied().cycle().take(len * times).collect();
                b.splice(at..at, run);
                "repeat"
            }
            _ => {
                let at = r.below(b.len());
                let len = r.below(256).min(b.len() - at);
                b.drain(at..at + len);
                "delete"
            }
        }
    }

    /// Mutations of PDF syntax.
    fn mutate_syntax(b: &mut Vec<u8>, r: &mut Rng) -> &'static str {
        if b.is_empty() {
            return "empty";
        }
        match r.below(3) {
            0 => {
                let t = *r.pick(TOKENS);
                if let Some(i) = find_from(b, t, r.below(b.len())) {
                    b.drain(i..i + t.len());
                }
                "drop-token"
            }
            1 => {
                // startxref points elsewhere.
                if let Some(i) = find_from(b, b"startxref", b.len().saturating_sub(1024)) {
                    let mut s = i + 9;
                    while s < b.len() && b[s].is_ascii_whitespace() {
                        s += 1;
                    }
                    let mut e = s;
                    while e < b.len() && b[e].is_ascii_digit() {
                        e += 1;
                    }
                    let v = if r.chance(2) { r.pick(INTERESTING).to_string() } else { r.below(b.len()).to_string() };
                    b.splice(s..e, v.bytes());
                }
                "startxref"
            }
            _ => {
                // An xref table entry's offset (10 digits, then the generation, then n/f).
                if let Some(i) = find_from(b, b" 00000 n", r.below(b.len())) {
                    if i >= 10 {
                        let v = format!("{:010}", r.below(b.len() + 100));
                        b.splice(i - 10..i, v.bytes());
                    }
                }
                "xref-offset"
            }
        }
    }

    /// Inflate one FlateDecode stream, edit what it decodes to, deflate it again, fix /Length.
    fn mutate_stream(b: &mut Vec<u8>, r: &mut Rng, other: &[u8]) -> Option<&'static str> {
        let start = r.below(b.len());
        // The `stream` keyword (not `endstream`), then EOL.
        let mut at = start;
        let (ds, kw) = loop {
            let i = find_from(b, b"stream", at)?;
            if i >= 3 && &b[i - 3..i] == b"end" {
                at = if i + 6 >= b.len() { 0 } else { i + 6 };
                if at == start {
                    return None;
                }
                continue;
            }
            let mut d = i + 6;
            if b.get(d) == Some(&b'\r') {
                d += 1;
            }
            if b.get(d) == Some(&b'\n') {
                d += 1;
            }
            break (d, i);
        };
        let de = ds + find_from(&b[ds..], b"endstream", 0)?;
        let mut raw_end = de;
        while raw_end > ds && matches!(b[raw_end - 1], b'\r' | b'\n') {
            raw_end -= 1;
        }
        let mut data = inflate(&b[ds..raw_end], 16 << 20)?;
        let what = match r.below(8) {
            0 | 1 => {
                let at = r.below(data.len() + 1);
                data.splice(at..at, random_ops(r));
                "stream-ops"
            }
            2 => {
                // A huge count: one slice of the content repeated (a pathological content stream).
                let s = r.below(data.len());
                let len = 1 + r.below(512.min(data.len() - s));
                let times = 1 + r.below(20_000);
                let mut run: Vec<u8> = data[s..s + len].iter().copied().cycle().take(len * times).collect();
                run.push(b' ');
                let at = r.below(data.len() + 1);
                data.splice(at..at, run);
                "stream-repeat"
            }
            3 => {
                for _ in 0..1 + r.below(8) {
                    replace_number(&mut data, r);
                }
                "stream-numbers"
            }
            4 => {
                for _ in 0..1 + r.below(4) {
                    replace_name(&mut data, r);
                }
                "stream-names"
            }
            _ => mutate_bytes(&mut data, r, other),
        };
        let z = deflate(&data);
        b.splice(ds..raw_end, z.iter().copied());
        // /Length of the dictionary before `stream`: direct or indirect, replaced by the new value.
        let dict_from = kw.saturating_sub(4096);
        if let Some(rel) = b[dict_from..kw].windows(7).rposition(|w| w == b"/Length") {
            let s = dict_from + rel + 7;
            let mut e = s;
            while e < kw && b[e].is_ascii_whitespace() {
                e += 1;
            }
            let mut toks = 0;
            let mut end = e;
            // `N` or `N G R`
            let mut j = e;
            while j < kw && toks < 3 {
                let t0 = j;
                while j < kw && b[j].is_ascii_alphanumeric() {
                    j += 1;
                }
                if j == t0 {
                    break;
                }
                toks += 1;
                let tok = &b[t0..j];
                if toks == 1 || (toks == 3 && tok == b"R") {
                    end = j;
                }
                while j < kw && b[j] == b' ' {
                    j += 1;
                }
            }
            b.splice(s..end, format!(" {}", z.len()).bytes());
        }
        Some(what)
    }

    /// Input `i` of the run: one seed, one to four stacked mutations.
    fn make_input(seeds: &[Seed], run_seed: u64, i: u64) -> (Vec<u8>, String, bool) {
        let mut r = Rng(run_seed ^ i.wrapping_mul(0xD1B54A32D192ED03));
        r.next();
        let seed = &seeds[r.below(seeds.len())];
        let other = &seeds[r.below(seeds.len())].bytes;
        let mut b = seed.bytes.clone();
        let mut how = vec![seed.name.clone()];
        let most = if r.chance(2) { 1 } else { 4 };
        for _ in 0..1 + r.below(most) {
            let w = match r.below(10) {
                0..=4 => mutate_stream(&mut b, &mut r, other).unwrap_or_else(|| mutate_bytes(&mut b, &mut r, other)),
                5 | 6 => mutate_syntax(&mut b, &mut r),
                _ => mutate_bytes(&mut b, &mut r, other),
            };
            how.push(w.to_string());
        }
        let render = r.chance(8);
        (b, how.join("+"), render)
    }

    // ---------------------------------------------------------------- the target

    /// The native path of the worker and the CLI. Also asserts what a caller relies on.
    fn target(bytes: &[u8], render: bool) {
        let s = IngestSettings::default();
        let ex = ingest::extract(bytes, "fuzz.pdf", &s);
        for (k, p) in ex.pages.iter().enumerate() {
            assert_eq!(p.page as usize, k + 1, "pages come numbered 1..n");
        }
        let docs = ingest::documents(&ex, &s);
        std::hint::black_box(docs.len());
        let _ = serde_json::to_string(&ingest::extract_json(&ex));
        let _ = serde_json::to_string(&ingest::tables_json(&ex));
        if render {
            let n = ex.pages.len().clamp(1, 3) as u32;
            let page = 1 + (bytes.len() as u32 % n);
            let _ = clair_core::render::render_page(bytes, page, 0.5, &s);
        }
    }

    #[derive(Clone)]
    struct PanicRecord {
        location: String,
        message: String,
    }

    static PANICS: Mutex<Vec<PanicRecord>> = Mutex::new(Vec::new());

    /// Every panic is recorded, also those a guard inside `extract` catches.
    fn install_hook() {
        std::panic::set_hook(Box::new(|info| {
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
            let p = info.payload();
            let message = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-string panic)".into());
            if let Ok(mut v) = PANICS.lock() {
                v.push(PanicRecord { location, message });
            }
        }));
    }

    /// Our code or a dependency (registry crates and the standard library).
    fn in_dependency(location: &str) -> bool {
        location.contains("/registry/src/") || location.starts_with("/rustc/") || location.starts_with("library/")
    }

    fn one_line(s: &str) -> String {
        s.replace(['\n', '\r', '\t'], " ").chars().take(300).collect()
    }

    /// Run the target on a thread with the configured stack; the panics it raised, and whether one
    /// escaped.
    fn run(bytes: Vec<u8>, render: bool, stack_kb: usize) -> (Vec<PanicRecord>, bool) {
        if let Ok(mut v) = PANICS.lock() {
            v.clear();
        }
        let h = std::thread::Builder::new()
            .stack_size(stack_kb * 1024)
            .spawn(move || std::panic::catch_unwind(|| target(&bytes, render)).is_err())
            .expect("spawn the target thread");
        let escaped = h.join().unwrap_or(true);
        let panics = PANICS.lock().map(|v| v.clone()).unwrap_or_default();
        (panics, escaped)
    }

    fn child(a: &Args, seeds: &[Seed], start: u64, count: u64) {
        #[cfg(unix)]
        unsafe {
            let cap = (a.mem_mb as libc::rlim_t) << 20;
            let lim = libc::rlimit { rlim_cur: cap, rlim_max: cap };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
        }
        install_hook();
        let out = std::io::stdout();
        for i in start..start + count {
            let (bytes, _, render) = make_input(seeds, a.seed, i);
            {
                let mut o = out.lock();
                let _ = writeln!(o, "@@B {i}");
                let _ = o.flush();
            }
            let t = Instant::now();
            let (panics, escaped) = run(bytes, render, a.stack_kb);
            let mut o = out.lock();
            for (k, p) in panics.iter().enumerate() {
                // The last panic is the one that escaped, when one did.
                let kind = if escaped && k + 1 == panics.len() { "escaped" } else { "caught" };
                let _ = writeln!(o, "@@P {i} {kind} {}\t{}", p.location, one_line(&p.message));
            }
            let _ = writeln!(o, "@@E {i} {}", t.elapsed().as_micros());
            let _ = o.flush();
        }
    }

    // ---------------------------------------------------------------- the parent

    #[derive(Default)]
    struct Site {
        kind: String,
        message: String,
        count: u64,
        reproducer: String,
        crash: bool,
    }

    enum Line {
        Begin(u64),
        Panic(u64, bool, String, String),
        End(u64, u64),
    }

    fn parse_line(l: &str) -> Option<Line> {
        let rest = l.strip_prefix("@@")?;
        let mut it = rest.splitn(3, ' ');
        let tag = it.next()?;
        let i: u64 = it.next()?.parse().ok()?;
        match tag {
            "B" => Some(Line::Begin(i)),
            "E" => Some(Line::End(i, it.next()?.trim().parse().ok()?)),
            "P" => {
                let rest = it.next()?;
                let (kind, rest) = rest.split_once(' ')?;
                let (loc, msg) = rest.split_once('\t').unwrap_or((rest, ""));
                Some(Line::Panic(i, kind == "escaped", loc.to_string(), msg.to_string()))
            }
            _ => None,
        }
    }

    fn parent(a: &Args, seeds: &[Seed]) {
        let t0 = Instant::now();
        let crashes_dir = a.out.join("crashes");
        let caught_dir = a.out.join("caught");
        let _ = std::fs::create_dir_all(&crashes_dir);
        let _ = std::fs::create_dir_all(&caught_dir);
        let exe = std::env::current_exe().expect("the harness binary");
        eprintln!(
            "fuzz: {} seeds, seed={}, timeout={}s, stack={} KiB, up to {} inputs / {}s; reproducers in {}",
            seeds.len(),
            a.seed,
            a.timeout,
            a.stack_kb,
            a.execs,
            a.seconds,
            a.out.display()
        );
        let mut sites: BTreeMap<String, Site> = BTreeMap::new();
        let (mut execs, mut hangs) = (0u64, 0u64);
        // Inputs that crashed, and inputs on which a guard caught a dependency panic.
        let mut crashed = std::collections::BTreeSet::<u64>::new();
        let mut caught_in = std::collections::BTreeSet::<u64>::new();
        let mut slowest = (0u64, 0u64);
        let mut next = 0u64;
        let save = |dir: &Path, tag: &str, i: u64| -> String {
            let (bytes, how, render) = make_input(seeds, a.seed, i);
            let p = dir.join(format!("{tag}-seed{}-input{i}.pdf", a.seed));
            let _ = std::fs::write(&p, &bytes);
            let _ = std::fs::write(p.with_extension("txt"), format!("mutations: {how}\nrender: {render}\n"));
            p.display().to_string()
        };
        let note = |sites: &mut BTreeMap<String, Site>, key: String, kind: &str, msg: &str, crash: bool, i: u64| {
            let site = sites.entry(key.clone()).or_default();
            site.count += 1;
            if crash && site.count > 1 {
                // Every crashing input is kept (they are rare); the site lists its first.
                let tag = if key == "hang" { "hang" } else { "crash" };
                eprintln!("fuzz: {kind} again at input {i}: {}", save(&crashes_dir, tag, i));
            }
            if site.count == 1 {
                site.kind = kind.into();
                site.message = msg.into();
                site.crash = crash;
                let tag: String = key.rsplit('/').next().unwrap_or("x").chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
                site.reproducer = save(if crash { &crashes_dir } else { &caught_dir }, &tag, i);
                eprintln!("fuzz: new {kind} at {key}: {msg}\n      reproducer {}", site.reproducer);
            }
        };
        'run: while execs < a.execs && t0.elapsed().as_secs_f64() < a.seconds {
            let count = a.batch.min(a.execs - execs);
            let mut child = Command::new(&exe)
                .args(["--child", &next.to_string(), &count.to_string()])
                .args(["--seed", &a.seed.to_string(), "--stack-kb", &a.stack_kb.to_string()])
                .args(["--max-seed-kb", &a.max_seed_kb.to_string(), "--mem-mb", &a.mem_mb.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn a child");
            let (tx, rx) = mpsc::channel::<Option<String>>();
            let stdout = child.stdout.take().expect("child stdout");
            std::thread::spawn(move || {
                for l in BufReader::new(stdout).lines() {
                    let Ok(l) = l else { break };
                    if tx.send(Some(l)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(None);
            });
            let stderr = child.stderr.take().expect("child stderr");
            let err_tail = std::thread::spawn(move || {
                let mut buf = vec![];
                let _ = BufReader::new(stderr).take(1 << 20).read_to_end(&mut buf);
                let s = String::from_utf8_lossy(&buf).into_owned();
                s[s.len().saturating_sub(400)..].to_string()
            });
            let mut current: Option<u64> = None;
            let mut last_done = next.wrapping_sub(1);
            let mut started = Instant::now();
            loop {
                let left = Duration::from_secs_f64(a.timeout).saturating_sub(started.elapsed());
                match rx.recv_timeout(if current.is_some() { left } else { Duration::from_secs(60) }) {
                    Ok(Some(l)) => match parse_line(&l) {
                        Some(Line::Begin(i)) => {
                            current = Some(i);
                            started = Instant::now();
                        }
                        Some(Line::Panic(i, escaped, loc, msg)) => {
                            let ours = !in_dependency(&loc);
                            let crash = escaped || ours;
                            if crash {
                                crashed.insert(i);
                            } else {
                                caught_in.insert(i);
                            }
                            let kind = if escaped { "escaped panic" } else if ours { "panic in our code (caught)" } else { "dependency panic (caught)" };
                            note(&mut sites, loc, kind, &msg, crash, i);
                        }
                        Some(Line::End(i, us)) => {
                            execs += 1;
                            current = None;
                            last_done = i;
                            if us > slowest.0 {
                                slowest = (us, i);
                            }
                            if t0.elapsed().as_secs_f64() >= a.seconds {
                                let _ = child.kill();
                                let _ = child.wait();
                                next = i + 1;
                                break 'run;
                            }
                        }
                        None => {}
                    },
                    Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // The child is gone: done with its batch, or died on `current`.
                        let status = child.wait().map(|s| format!("{s}")).unwrap_or_default();
                        if let Some(i) = current {
                            crashed.insert(i);
                            execs += 1;
                            let tail = one_line(&err_tail.join().unwrap_or_default());
                            note(&mut sites, format!("death: {status}"), "process death", &tail, true, i);
                            next = i + 1;
                        } else {
                            next = last_done.wrapping_add(1);
                        }
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        if let Some(i) = current {
                            hangs += 1;
                            crashed.insert(i);
                            execs += 1;
                            note(&mut sites, "hang".into(), "hang", &format!("no answer within {} s", a.timeout), true, i);
                            next = i + 1;
                        } else {
                            next = last_done.wrapping_add(1);
                        }
                        break;
                    }
                }
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        eprintln!("fuzz: slowest input {} ({:.2} s)", slowest.1, slowest.0 as f64 / 1e6);
        for (k, s) in &sites {
            eprintln!("fuzz: {:>6} × {} at {k}: {}\n       {}", s.count, s.kind, s.message, s.reproducer);
        }
        let (crashes, caught) = (crashed.len(), caught_in.len());
        let unique = sites.values().filter(|s| s.crash).count();
        let caught_unique = sites.values().filter(|s| !s.crash).count();
        println!(
            "executions={execs} crashes={crashes} hangs={hangs} unique={unique} seconds={secs:.0} caught={caught} caught_unique={caught_unique} seed={} next_input={next}",
            a.seed
        );
        if crashes > 0 {
            std::process::exit(1);
        }
    }

    fn replay(a: &Args) {
        install_hook();
        let mut bad = false;
        for p in &a.replay {
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let t = Instant::now();
            let s = IngestSettings::default();
            let (panics, escaped) = run(bytes.clone(), true, a.stack_kb);
            let ex = ingest::extract(&bytes, &p.display().to_string(), &s);
            println!("{}: {:.2} s, {} page(s), escaped={escaped}", p.display(), t.elapsed().as_secs_f64(), ex.pages.len());
            for w in &ex.warnings {
                println!("  warning: {w}");
            }
            for q in &panics {
                println!("  panic at {}: {}", q.location, q.message);
                bad |= !in_dependency(&q.location);
            }
            bad |= escaped;
        }
        if bad {
            std::process::exit(1);
        }
    }
}
