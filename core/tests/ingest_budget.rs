//! The per-page work budget (issue 3 deliverable 5) on generated pathological PDFs: a page whose
//! content would run for minutes costs that page a warning and a few seconds, and the rest of the
//! document still comes through.
#![cfg(feature = "pdf")]

use clair_core::config::IngestSettings;
use clair_core::ingest;
use std::io::Write;
use std::time::{Duration, Instant};

mod support;
use support::pdf_of;

fn deflate(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let z = deflate(data);
    let mut s = format!("<< {dict} /Length {} /Filter /FlateDecode >>\nstream\n", z.len()).into_bytes();
    s.extend_from_slice(&z);
    s.extend_from_slice(b"\nendstream");
    s
}

const FONT: &str = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/// Two pages: page 1 is `hostile` (content after the text "Read before the flood"), page 2 is plain
/// text. Objects: 1 catalog, 2 pages, 3 font, 4 page 1, 5 its content, 6 page 2, 7 its content,
/// then `extra` (forms).
fn two_pages(hostile: &[u8], xobjects: &str, extra: Vec<Vec<u8>>) -> Vec<u8> {
    two_pages_with(hostile, &format!("/Font << /F1 3 0 R >> /XObject << {xobjects} >>"), extra)
}

/// [`two_pages`] with page 1's resources (the entries of its dictionary) given whole.
fn two_pages_with(hostile: &[u8], resources: &str, extra: Vec<Vec<u8>>) -> Vec<u8> {
    let mut c1 = b"BT /F1 12 Tf 72 720 Td (Read before the flood) Tj ET\n".to_vec();
    c1.extend_from_slice(hostile);
    let mut objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>".to_vec(),
        FONT.as_bytes().to_vec(),
        format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << {resources} >> /Contents 5 0 R >>").into_bytes(),
        stream("", &c1),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>".to_vec(),
        stream("", b"BT /F1 12 Tf 72 720 Td (The second page is intact) Tj ET"),
    ];
    objs.extend(extra);
    pdf_of(&objs)
}

fn budget_warning(ex: &ingest::Extracted) -> Option<&String> {
    ex.warnings.iter().find(|w| w.contains("page 1") && w.contains("ingest.max_page_operators"))
}

/// 7.5 million operators on one page (35 MB decoded from a few hundred KB): cut at the budget, a warning
/// naming the page and the setting, the text before the flood and the next page kept.
#[test]
fn huge_operator_stream_costs_its_page_a_warning_and_seconds_not_minutes() {
    let flood = b"0 0 m 9 9 l S ".repeat(10_000_000 / 4);
    let bytes = two_pages(&flood, "", vec![]);
    let t = Instant::now();
    let ex = ingest::extract(&bytes, "flood.pdf", &IngestSettings::default());
    let took = t.elapsed();
    eprintln!("huge operator stream: extract took {:.2} s, {} bytes of PDF", took.as_secs_f64(), bytes.len());
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let w = budget_warning(&ex).unwrap_or_else(|| panic!("no budget warning in {:?}", ex.warnings));
    assert!(w.contains("max_page_content_bytes"), "{w}");
    assert_eq!(ex.pages.len(), 2);
    assert!(ex.pages[0].text.contains("Read before the flood"), "{}", ex.pages[0].text);
    assert!(ex.pages[1].text.contains("The second page is intact"));
    assert!(ingest::documents(&ex, &IngestSettings::default()).len() >= 2);
    // Raising the setting reads the page whole (and warns no more).
    let s = IngestSettings { max_page_operators: 20_000_000, ..Default::default() };
    let small = two_pages(&b"0 0 m 9 9 l S ".repeat(400_000), "", vec![]);
    assert!(budget_warning(&ingest::extract(&small, "f.pdf", &IngestSettings { max_page_operators: 1_000_000, ..Default::default() })).is_some());
    assert!(budget_warning(&ingest::extract(&small, "f.pdf", &s)).is_none());
}

/// "Billion laughs" with form XObjects: X9 draws X8 ten times, … , X0 draws a line: 10⁹ operators
/// from a few hundred bytes. The `Do` is not followed, the page keeps its text, and it is quick.
#[test]
fn form_xobject_fan_out_is_not_expanded_and_the_page_keeps_its_text() {
    let first = 8; // objects 8.. are the forms X0..X9
    let mut forms = vec![];
    for k in 0..10 {
        let (content, res) = if k == 0 {
            (b"0 0 m 100 100 l S".to_vec(), String::new())
        } else {
            (format!("/X{} Do ", k - 1).repeat(10).into_bytes(), format!("/Resources << /XObject << /X{} {} 0 R >> >>", k - 1, first + k - 1))
        };
        forms.push(stream(&format!("/Type /XObject /Subtype /Form /BBox [0 0 612 792] {res}"), &content));
    }
    let bytes = two_pages(b"/X9 Do\nBT /F1 12 Tf 72 600 Td (After the forms) Tj ET", &format!("/X9 {} 0 R", first + 9), forms);
    let t = Instant::now();
    let ex = ingest::extract(&bytes, "laughs.pdf", &IngestSettings::default());
    let took = t.elapsed();
    eprintln!("form fan-out: extract took {:.3} s", took.as_secs_f64());
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let w = budget_warning(&ex).unwrap_or_else(|| panic!("no budget warning in {:?}", ex.warnings));
    assert!(w.contains("operators"), "{w}");
    assert!(ex.pages[0].text.contains("Read before the flood"));
    assert!(ex.pages[1].text.contains("The second page is intact"));
    // The viewer refuses to draw the page rather than spend hours on it, and draws page 2.
    let e = clair_core::render::render_page(&bytes, 1, 0.5, &IngestSettings::default()).unwrap_err();
    assert!(e.contains("too complex to draw"), "{e}");
    assert!(clair_core::render::render_page(&bytes, 2, 0.5, &IngestSettings::default()).is_ok());
}

/// Two forms that draw each other twice: followed blindly that is 2⁵⁰ draws before hayro's nesting
/// limit stops it. It must neither hang nor cost the page its text.
#[test]
fn forms_drawing_each_other_do_not_hang() {
    let form = |other: &str, id: u32| {
        stream(
            &format!("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /{other} {id} 0 R >> >>"),
            format!("0 0 m 1 1 l S /{other} Do /{other} Do").as_bytes(),
        )
    };
    let bytes = two_pages(b"/A Do", "/A 8 0 R", vec![form("B", 9), form("A", 8)]);
    let t = Instant::now();
    let ex = ingest::extract(&bytes, "cycle.pdf", &IngestSettings::default());
    eprintln!("form cycle: extract took {:.3} s, warnings {:?}", t.elapsed().as_secs_f64(), ex.warnings);
    assert!(t.elapsed() < Duration::from_secs(10));
    assert!(ex.pages[0].text.contains("Read before the flood"));
    assert!(ex.pages[1].text.contains("The second page is intact"));
}

/// A text flood: 1.2 million glyphs of shown strings on one page, within the operator budget. The
/// reader keeps 200,000 glyphs of a page, so the page is cut after twice that many bytes of text
/// rather than interpreted to the end: the warning says so, the page starts with what came first,
/// and the next page is intact.
#[test]
fn a_text_flood_is_cut_after_the_glyphs_the_reader_keeps() {
    let line = format!("BT /F1 1 Tf 10 10 Td ({}) Tj ET\n", "x".repeat(1_000));
    let flood = line.repeat(1_200).into_bytes();
    let bytes = two_pages(&flood, "", vec![]);
    let t = Instant::now();
    let ex = ingest::extract(&bytes, "text-flood.pdf", &IngestSettings::default());
    let took = t.elapsed();
    eprintln!("text flood: extract took {:.2} s", took.as_secs_f64());
    let w = ex
        .warnings
        .iter()
        .find(|w| w.contains("page 1") && w.contains("more than 200000 glyphs"))
        .unwrap_or_else(|| panic!("no glyph warning in {:?}", ex.warnings));
    assert!(w.contains("bytes of shown text"), "cut by the budget, not only dropped by the reader: {w}");
    assert!(budget_warning(&ex).is_none(), "the operator budget was not what cut it: {:?}", ex.warnings);
    assert!(ex.pages[0].text.contains("Read before the flood"));
    assert!(ex.pages[1].text.contains("The second page is intact"));
    assert!(took < Duration::from_secs(60), "took {took:?}");
}

/// The viewer draws with the user's budget, as reading does: a page beyond a lowered budget is
/// refused with the settings to raise named, and drawn once they are raised.
#[test]
fn the_renderer_draws_within_the_users_budget_not_a_fixed_one() {
    let strokes = b"0 0 m 9 9 l S ".repeat(5_000);
    let bytes = two_pages(&strokes, "", vec![]);
    let low = IngestSettings { max_page_operators: 5_000, ..Default::default() };
    assert!(budget_warning(&ingest::extract(&bytes, "strokes.pdf", &low)).is_some(), "reading is cut at this budget");
    let e = clair_core::render::render_page(&bytes, 1, 0.5, &low).unwrap_err();
    assert!(e.contains("too complex to draw") && e.contains("ingest.max_page_operators = 5000") && e.contains("raise ingest.max_page_operators"), "{e}");
    assert!(clair_core::render::render_page(&bytes, 2, 0.5, &low).is_ok(), "a page within the budget is drawn");
    let raised = IngestSettings { max_page_operators: 50_000, ..Default::default() };
    assert!(budget_warning(&ingest::extract(&bytes, "strokes.pdf", &raised)).is_none());
    let r = clair_core::render::render_page(&bytes, 1, 0.5, &raised).expect("drawn once the budget is raised");
    assert_eq!(r.pages, 2);
}

/// `n` inline images as the fuzzer left them (seed 1796245000, input 1045): each image's data is
/// followed by a few operators and a stray `EI`, so hayro cannot tell where the data ends without
/// reading on — and reads the next images the same way, recursively.
fn tangled_images(n: usize) -> Vec<u8> {
    let mut c = b"q ".to_vec();
    for _ in 0..n {
        c.extend_from_slice(b"BI /W 4 /H 1 /BPC 8 /CS /G ID \x01\x02x\x01 EI T* h 0x\x01\x02x EI ");
    }
    c.extend_from_slice(b"Q\nBT /F1 12 Tf 72 600 Td (After the images) Tj ET\n");
    c
}

/// Extract on a thread with the stack a wasm worker has (1 MiB), where an overflow is a crash no
/// guard can catch.
fn extract_on_a_small_stack(bytes: Vec<u8>, name: &'static str) -> (ingest::Extracted, Duration) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let t = Instant::now();
            let ex = ingest::extract(&bytes, name, &IngestSettings::default());
            (ex, t.elapsed())
        })
        .expect("a thread")
        .join()
        .expect("extract returned")
}

fn tangle_warning(ex: &ingest::Extracted) -> Option<&String> {
    ex.warnings.iter().find(|w| w.contains("page 1") && w.contains("inline images whose data has no clear end"))
}

/// 40 such images took hayro minutes (the work doubles with each) and 6,345 overflowed the stack.
/// The page is read up to them, with a warning; the next page is intact; the viewer refuses to draw
/// the page rather than hang.
#[test]
fn inline_images_without_a_clear_end_cost_the_rest_of_their_page_not_minutes_or_the_stack() {
    for n in [40, 6_345] {
        let bytes = two_pages(&tangled_images(n), "", vec![]);
        let (ex, took) = extract_on_a_small_stack(bytes.clone(), "tangled.pdf");
        eprintln!("{n} tangled inline images: extract took {:.3} s", took.as_secs_f64());
        assert!(took < Duration::from_secs(10), "took {took:?}");
        let w = tangle_warning(&ex).unwrap_or_else(|| panic!("no warning in {:?}", ex.warnings));
        assert!(w.contains("the rest of the page was not read"), "{w}");
        assert!(ex.pages[0].text.contains("Read before the flood"), "{}", ex.pages[0].text);
        assert!(!ex.pages[0].text.contains("After the images"));
        assert!(ex.pages[1].text.contains("The second page is intact"));
        let e = clair_core::render::render_page(&bytes, 1, 0.5, &IngestSettings::default()).unwrap_err();
        assert!(e.contains("too complex to draw") && e.contains("no clear end"), "{e}");
        assert!(clair_core::render::render_page(&bytes, 2, 0.5, &IngestSettings::default()).is_ok());
    }
    // A few are read whole: hayro settles them quickly.
    let (ex, _) = extract_on_a_small_stack(two_pages(&tangled_images(8), "", vec![]), "few.pdf");
    assert!(tangle_warning(&ex).is_none(), "{:?}", ex.warnings);
    assert!(ex.pages[0].text.contains("After the images"), "{}", ex.pages[0].text);
}

/// The same images inside a form, a Type3 glyph and a tiling pattern: each is a content stream
/// hayro reads when it is drawn. The page is cut before the operator that would draw it.
#[test]
fn tangled_inline_images_in_forms_glyphs_and_patterns_are_not_drawn() {
    let form = stream("/Type /XObject /Subtype /Form /BBox [0 0 612 792]", &tangled_images(6_345));
    let glyph = stream("", &[b"0 0 d0 ".as_slice(), &tangled_images(6_345)].concat());
    let type3 = b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [1 0 0 1 0 0] /CharProcs << /g 9 0 R >> /Encoding << /Differences [65 /g] >> /FirstChar 65 /LastChar 65 /Widths [1] >>".to_vec();
    let cell = stream("/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >>", &tangled_images(6_345));
    let cases: [(&str, &[u8]); 3] = [
        ("form", b"/X Do\n"),
        ("Type3 glyph", b"BT /T3 12 Tf 72 500 Td (A) Tj ET\n"),
        ("tiling pattern", b"/Pattern cs /P scn 0 0 100 100 re f\n"),
    ];
    for (what, draw) in cases {
        let mut hostile = draw.to_vec();
        hostile.extend_from_slice(b"BT /F1 12 Tf 72 400 Td (After the drawing) Tj ET\n");
        // Objects 8 the form, 9 the glyph program, 10 the Type3 font, 11 the pattern.
        let resources = "/Font << /F1 3 0 R /T3 10 0 R >> /XObject << /X 8 0 R >> /Pattern << /P 11 0 R >>";
        let bytes = two_pages_with(&hostile, resources, vec![form.clone(), glyph.clone(), type3.clone(), cell.clone()]);
        let (ex, took) = extract_on_a_small_stack(bytes.clone(), "drawn.pdf");
        eprintln!("{what}: extract took {:.3} s, warnings {:?}", took.as_secs_f64(), ex.warnings);
        let e = clair_core::render::render_page(&bytes, 1, 0.5, &IngestSettings::default()).unwrap_err();
        assert!(e.contains("no clear end"), "{what}: {e}");
        assert!(took < Duration::from_secs(10), "{what}: took {took:?}");
        assert!(tangle_warning(&ex).is_some(), "{what}: {:?}", ex.warnings);
        assert!(ex.pages[0].text.contains("Read before the flood"), "{what}: {}", ex.pages[0].text);
        assert!(ex.pages[1].text.contains("The second page is intact"), "{what}");
    }
}

/// Inline images with a clear end are read as they are, however many: 5,000 strips of binary or
/// hexadecimal data (a scanned page drawn in bands), with the text after them.
#[test]
fn many_inline_images_with_a_clear_end_are_read_whole() {
    for (filter, data) in [("", b"\xff\x00\x10\x80".as_slice()), ("/F /AHx", b"FF0010E8>".as_slice())] {
        let mut c = vec![];
        for i in 0..5_000 {
            c.extend_from_slice(format!("q 600 0 0 1 0 {} cm BI /W 4 /H 1 /BPC 8 /CS /G {filter} ID ", i % 790).as_bytes());
            c.extend_from_slice(data);
            c.extend_from_slice(b" EI Q\n");
        }
        c.extend_from_slice(b"BT /F1 12 Tf 72 600 Td (After the images) Tj ET\n");
        let (ex, _) = extract_on_a_small_stack(two_pages(&c, "", vec![]), "strips.pdf");
        assert!(ex.warnings.iter().all(|w| !w.contains("page 1")), "{filter}: {:?}", ex.warnings);
        assert!(ex.pages[0].text.contains("After the images"), "{filter}: {}", ex.pages[0].text);
    }
}

/// The fuzz reproducer itself (`tests/fixtures/crash/inline-images-without-end.pdf`: 6,345 such
/// images in a mutated content stream, with a broken xref offset), on a wasm-sized stack.
#[test]
fn the_fuzzed_file_whose_inline_images_overflowed_the_stack_reads_with_a_warning() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/crash/inline-images-without-end.pdf");
    let (ex, took) = extract_on_a_small_stack(std::fs::read(path).expect("fixture"), "inline-images-without-end.pdf");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert!(tangle_warning(&ex).is_some(), "{:?}", ex.warnings);
    assert!(ex.pages[0].text.contains("Revenue 2023 1,234.5"), "{}", ex.pages[0].text);
}

/// A PostScript (Type 4) function with its procedures nested `depth` deep.
fn postscript_function(depth: usize) -> Vec<u8> {
    let program = ["{ ".repeat(depth), "dup ".into(), "} ".repeat(depth)].concat();
    stream("/FunctionType 4 /Domain [0 1] /Range [0 1]", program.as_bytes())
}

fn nesting_warning(ex: &ingest::Extracted) -> Option<&String> {
    ex.warnings.iter().find(|w| w.contains("page 1") && w.contains("function or colour space nested"))
}

/// Page 1 `draw`s with the resources `resources`, objects 8.. being `extra`; extracted on a
/// wasm-sized stack within 10 s, the text before the drawing and page 2 always kept.
fn drawn_with(what: &str, draw: &str, resources: &str, extra: Vec<Vec<u8>>) -> (Vec<u8>, ingest::Extracted) {
    let hostile = format!("{draw}\nBT /F1 12 Tf 72 400 Td (After the drawing) Tj ET\n");
    let bytes = two_pages_with(hostile.as_bytes(), resources, extra);
    let (ex, took) = extract_on_a_small_stack(bytes.clone(), "nested.pdf");
    assert!(took < Duration::from_secs(10), "{what}: took {took:?}");
    assert!(ex.pages[0].text.contains("Read before the flood"), "{what}: {}", ex.pages[0].text);
    assert!(ex.pages[1].text.contains("The second page is intact"), "{what}");
    (bytes, ex)
}

/// hayro reads functions and colour spaces recursively: one stack frame per brace of a PostScript
/// (Type 4) function, per link of a chain of stitching functions or of `/Indexed` spaces. 100,000
/// braces, or chains of 20,000, overflowed the stack while reading the page's text. The page is
/// read up to the operator that would use them, with a warning, and the viewer refuses it; the
/// same resources of ordinary depth are used as they are.
#[test]
fn functions_and_colour_spaces_nested_past_the_stack_cost_the_rest_of_their_page() {
    let shading = b"<< /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 612 0] /Function 9 0 R >>".to_vec();
    let stitched = |n: usize| -> Vec<Vec<u8>> {
        let mut o: Vec<Vec<u8>> = (0..n)
            .map(|i| format!("<< /FunctionType 3 /Domain [0 1] /Functions [{} 0 R] /Bounds [] /Encode [0 1] >>", 10 + i).into_bytes())
            .collect();
        o.push(b"<< /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>".to_vec());
        o
    };
    let indexed = |n: usize| -> Vec<Vec<u8>> {
        let mut o: Vec<Vec<u8>> = (0..n).map(|i| format!("[/Indexed {} 0 R 1 <0000>]", 10 + i).into_bytes()).collect();
        o.push(b"/DeviceGray".to_vec());
        o
    };
    // Object 8 is the resource the page names; what it holds starts at object 9.
    type Case = (&'static str, &'static str, &'static str, Box<dyn Fn(usize) -> Vec<Vec<u8>>>);
    let cases: Vec<Case> = vec![
        ("PostScript function in a shading", "/S sh", "/Shading << /S 8 0 R >>", Box::new({
            let shading = shading.clone();
            move |n| vec![shading.clone(), postscript_function(n)]
        })),
        ("PostScript tint transform", "/C cs 0.5 scn 0 0 100 100 re f", "/ColorSpace << /C 8 0 R >>", Box::new(|n| {
            vec![b"[/Separation /Spot /DeviceGray 9 0 R]".to_vec(), postscript_function(n)]
        })),
        ("stitching functions", "/S sh", "/Shading << /S 8 0 R >>", Box::new(move |n| [vec![shading.clone()], stitched(n)].concat())),
        ("indexed colour spaces", "/C cs 0 sc 0 0 100 100 re f", "/ColorSpace << /C 8 0 R >>", Box::new(move |n| {
            [vec![b"[/Indexed 9 0 R 1 <0000>]".to_vec()], indexed(n)].concat()
        })),
    ];
    for (what, draw, named, objects) in cases {
        let resources = format!("/Font << /F1 3 0 R >> {named}");
        let deep = if what.starts_with("PostScript") { 100_000 } else { 20_000 };
        let (bytes, ex) = drawn_with(what, draw, &resources, objects(deep));
        assert!(nesting_warning(&ex).is_some(), "{what}: {:?}", ex.warnings);
        assert!(!ex.pages[0].text.contains("After the drawing"), "{what}");
        let e = clair_core::render::render_page(&bytes, 1, 0.5, &IngestSettings::default()).unwrap_err();
        assert!(e.contains("function or colour space nested"), "{what}: {e}");

        let (_, ex) = drawn_with(what, draw, &resources, objects(3));
        assert!(ex.warnings.iter().all(|w| !w.contains("page 1")), "{what}: {:?}", ex.warnings);
        assert!(ex.pages[0].text.contains("After the drawing"), "{what}: {}", ex.pages[0].text);
    }
}

/// A composite font's `W` (and `W2`) may give a range of CIDs one width: `[0 4294967294 500]`
/// named four billion CIDs, and the reader used to store each (minutes and gigabytes). The page
/// reads in moments, with its text.
#[test]
fn a_font_whose_widths_name_four_billion_cids_reads_in_moments() {
    for widths in ["/W [0 4294967294 500]", "/W2 [0 4294967294 1000 500 880]"] {
        let font = |id: u32| {
            format!(
                "<< /Type /Font /Subtype /Type0 /BaseFont /Helvetica /Encoding /Identity-H /DescendantFonts [{id} 0 R] \
                 /ToUnicode {} 0 R >>",
                id + 1
            )
        };
        let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def \
                    1 begincodespacerange <0000> <FFFF> endcodespacerange \
                    1 beginbfrange <0041> <005A> <0041> endbfrange endcmap end end";
        let bytes = two_pages_with(
            b"BT /F2 12 Tf 72 600 Td <0048004900470048> Tj ET",
            "/Font << /F1 3 0 R /F2 8 0 R >>",
            vec![
                font(9).into_bytes(),
                format!(
                    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Helvetica \
                     /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> {widths} >>"
                )
                .into_bytes(),
                stream("", cmap.as_bytes()),
            ],
        );
        let t = Instant::now();
        let ex = ingest::extract(&bytes, "widths.pdf", &IngestSettings::default());
        let took = t.elapsed();
        eprintln!("{widths}: extract took {:.3} s", took.as_secs_f64());
        assert!(took < Duration::from_secs(5), "{widths}: {took:?}");
        assert!(ex.pages[0].text.contains("HIGH"), "{widths}: {:?}", ex.pages[0].text);
        assert!(ex.pages[1].text.contains("The second page is intact"));
    }
}

/// The process's peak resident memory so far in MB (Linux; `None` elsewhere).
fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Page 1 draws `hostile` with `resources` and objects 8.. (`extra`); the page's text, the next
/// page and the process come through in moments and well under a gigabyte.
fn reads_in_moments(what: &str, hostile: &[u8], resources: &str, extra: Vec<Vec<u8>>) {
    let bytes = two_pages_with(hostile, resources, extra);
    let t = Instant::now();
    let ex = ingest::extract(&bytes, "hostile.pdf", &IngestSettings::default());
    let took = t.elapsed();
    eprintln!("{what}: extract took {:.3} s, peak RSS {:?} MB", took.as_secs_f64(), peak_rss_mb());
    assert!(took < Duration::from_secs(2), "{what}: {took:?}");
    assert!(peak_rss_mb().is_none_or(|mb| mb < 1_500), "{what}: peak RSS {:?} MB", peak_rss_mb());
    assert!(ex.pages[0].text.contains("Read before the flood"), "{what}: {:?}", ex.pages[0].text);
    assert!(ex.pages[1].text.contains("The second page is intact"), "{what}");
}

/// Objects the helper found (session 28): a few bytes of a file that sized work or memory from a
/// number in it. Each is bounded in the vendored hayro crates (vendor/PATCHES.md).
#[test]
fn a_shading_or_function_that_names_a_huge_mesh_or_table_reads_in_moments() {
    let shading = "/Font << /F1 3 0 R >> /Shading << /Sh0 8 0 R >>";
    // A lattice mesh of no vertices per row: rows of nothing, pushed forever.
    reads_in_moments(
        "lattice, VerticesPerRow 0",
        b"/Sh0 sh",
        shading,
        vec![stream(
            "/ShadingType 5 /ColorSpace /DeviceRGB /BitsPerCoordinate 8 /BitsPerComponent 8 /VerticesPerRow 0 \
             /Decode [0 612 0 792 0 1 0 1 0 1]",
            &(0..40).collect::<Vec<u8>>(),
        )],
    );
    // A Coons mesh of 1-bit coordinates over 20 MB of zeros: a patch per 30 bits (3 GB before).
    reads_in_moments(
        "Coons mesh of zeros",
        b"/Sh0 sh",
        shading,
        vec![stream(
            "/ShadingType 6 /ColorSpace /DeviceGray /BitsPerCoordinate 1 /BitsPerComponent 1 /BitsPerFlag 2 \
             /Decode [0 612 0 792 0 1]",
            &vec![0; 20 << 20],
        )],
    );
    // A sampled tint function of 1-bit samples over 40 MB: an f32 per bit (3 GB before).
    let bytes = 40usize << 20;
    reads_in_moments(
        "sampled function, 1-bit samples",
        b"/CS0 cs 0.5 scn 0 0 10 10 re f",
        "/Font << /F1 3 0 R >> /ColorSpace << /CS0 [/Separation /Spot /DeviceRGB 8 0 R] >>",
        vec![stream(
            &format!("/FunctionType 0 /Domain [0 1] /Range [0 1 0 1 0 1] /Size [{}] /BitsPerSample 1", bytes * 8 / 3),
            &vec![0; bytes],
        )],
    );
}

#[test]
fn a_simple_font_whose_first_code_is_a_billion_reads_in_moments() {
    for subtype in ["TrueType", "Type1"] {
        reads_in_moments(
            subtype,
            b"BT /F2 12 Tf 72 600 Td (more) Tj ET",
            "/Font << /F1 3 0 R /F2 8 0 R >>",
            vec![format!(
                "<< /Type /Font /Subtype /{subtype} /BaseFont /Helvetica /FirstChar 1000000000 /LastChar 1000000000 /Widths [500] >>"
            )
            .into_bytes()],
        );
    }
}

/// A content stream whose predictor rows are 35 trillion columns long: hayro sized a buffer from
/// `/Columns` alone and the allocation failure aborted the process (no `catch_unwind` helps).
#[test]
fn a_predictor_row_longer_than_the_data_costs_that_stream_not_the_process() {
    let data = deflate(b"\x00BT /F1 12 Tf 72 600 Td (predicted) Tj ET");
    let mut content = format!(
        "<< /Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 5 /BitsPerComponent 8 /Columns 35184372088832 >> \
         /Length {} >>\nstream\n",
        data.len()
    )
    .into_bytes();
    content.extend_from_slice(&data);
    content.extend_from_slice(b"\nendstream");
    let objs = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>".to_vec(),
        FONT.as_bytes().to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>".to_vec(),
        content,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>".to_vec(),
        stream("", b"BT /F1 12 Tf 72 720 Td (The second page is intact) Tj ET"),
    ];
    let ex = ingest::extract(&pdf_of(&objs), "predictor.pdf", &IngestSettings::default());
    assert_eq!(ex.pages.len(), 2);
    assert!(ex.pages[1].text.contains("The second page is intact"));
}

/// Work done again on every use: `sh` and `gs` rebuilt a shading or transfer function over a
/// 1 MB sampled function each time (20,000 uses in 2 KB of content: minutes); stitching
/// functions naming the next one twice were built once per path (2^30); a CMap saying `usecmap`
/// 100,000 times parsed the named CMap as often.
#[test]
fn work_repeated_on_every_use_of_one_object_reads_in_moments() {
    let samples = stream("/FunctionType 0 /Domain [0 1] /Range [0 1] /Size [1048576] /BitsPerSample 8", &vec![0; 1 << 20]);
    reads_in_moments(
        "20,000 sh of one shading",
        &b"/Sh0 sh\n".repeat(20_000),
        "/Font << /F1 3 0 R >> /Shading << /Sh0 8 0 R >>",
        vec![b"<< /ShadingType 2 /ColorSpace /DeviceGray /Coords [0 0 612 0] /Function 9 0 R >>".to_vec(), samples.clone()],
    );
    reads_in_moments(
        "20,000 gs of one transfer function",
        &b"/GS0 gs\n".repeat(20_000),
        "/Font << /F1 3 0 R >> /ExtGState << /GS0 8 0 R >>",
        vec![b"<< /Type /ExtGState /TR 9 0 R >>".to_vec(), samples],
    );
    let depth = 30;
    let mut stitched: Vec<Vec<u8>> = (0..depth)
        .map(|i| {
            let next = 8 + i + 1;
            format!("<< /FunctionType 3 /Domain [0 1] /Functions [{next} 0 R {next} 0 R] /Bounds [0.5] /Encode [0 1 0 1] >>")
                .into_bytes()
        })
        .collect();
    stitched.push(b"<< /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>".to_vec());
    reads_in_moments(
        "stitching functions naming the next one twice",
        b"/CS0 cs 0.5 scn 0 0 10 10 re f",
        "/Font << /F1 3 0 R >> /ColorSpace << /CS0 [/Separation /Spot /DeviceGray 8 0 R] >>",
        stitched,
    );
    let cmap = format!(
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap {}\
         1 begincodespacerange <00> <FF> endcodespacerange endcmap end end",
        "/Adobe-Japan1-UCS2 usecmap\n".repeat(100_000)
    );
    reads_in_moments(
        "100,000 usecmap",
        b"BT /F2 12 Tf 72 600 Td (more) Tj ET",
        "/Font << /F1 3 0 R /F2 8 0 R >>",
        vec![b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 9 0 R >>".to_vec(), stream("", cmap.as_bytes())],
    );
}
