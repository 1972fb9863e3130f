//! The native reader: hayro-interpret glyphs, paths and images per page (PDF_NOTES.md), pdf-rs for
//! structure (`structure.rs`). Every page is interpreted on its own; a page that cannot be read costs
//! that page and a warning, never the document.
//!
//! This file shares a document's pages out among reading threads and builds each page from what
//! hayro drew; `collect` is the device that collects what a page's content draws.

use super::layout::{Glyph, Graphics};
use super::{build_page, Extracted, FontFace, Page};
use std::collections::HashMap;
use crate::config::IngestSettings;
use hayro_interpret::kurbo::Rect;
use hayro_interpret::{Context, InterpreterCache, InterpreterSettings, RenderContent, TransformExt};
use hayro_syntax::content::TypedIter;
use hayro_syntax::object::{Array, Dict, MaybeRef, Name, ObjectIdentifier};
use hayro_syntax::Pdf;
use super::budget::Plan;

use super::budget::MAX_GLYPHS;

mod collect;

use collect::{type3_glyphs_named_by_code, Collector, END_OF_CONTENT};

thread_local! {
    /// A page's content with [`END_OF_CONTENT`] after it: one buffer per reading thread, reused
    /// page after page (3M_2022_10K holds 110 KB of content a page).
    static WITH_END: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

pub(super) fn extract(
    data: std::sync::Arc<Vec<u8>>,
    source: &str,
    settings: &IngestSettings,
    threads: usize,
    progress: &mut dyn FnMut(u32, u32),
) -> Extracted {
    // wasm32-unknown-unknown has no threads to spawn: the worker reads on its own one.
    #[cfg(target_arch = "wasm32")]
    let threads = threads.min(1);
    // hayro and pdf-rs read the same bytes, neither a copy of its own (a 10-K is megabytes).
    let bytes: &[u8] = &data;
    if threads <= 1 {
        return read_document(&data, source, settings, progress, || super::structure::read(bytes), None);
    }
    // The calling thread opens the document and then leads (`Pipeline`); the other readers are
    // started first, before it is opened: a thread started once the others run waits for a core
    // they hold (on VERIZON_2021_10K the second reader began 3–4 ms after the first). The first of
    // them reads the outline and page labels (pdf-rs) while hayro opens the file here: neither
    // needs the other until they are attached.
    let threads = threads.min(MAX_READERS);
    let ready = Ready::default();
    std::thread::scope(|scope| {
        // However this thread leaves (a panic included), the helpers are let go: one waiting for a
        // document never opened would keep the scope from ending.
        let _release = Release(&ready);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, PageRead)>();
        let mut helpers = vec![];
        for h in 1..threads {
            let (tx, ready) = (tx.clone(), &ready);
            let started = std::thread::Builder::new().name("clair-read".into()).spawn_scoped(scope, move || {
                let structure = (h == 1).then(|| super::structure::read(bytes));
                if let Some(opened) = ready.wait() {
                    read_pages(opened, false, &tx, settings, source);
                }
                structure
            });
            // A thread the OS refuses is not an error: the others (or this one) read its pages.
            match started {
                Ok(handle) => helpers.push(handle),
                Err(_) => break,
            }
        }
        let on_threads = (!helpers.is_empty()).then_some(OnThreads { ready: &ready, tx, rx });
        let first = (!helpers.is_empty()).then(|| helpers.swap_remove(0));
        let structure = move || match first {
            Some(handle) => handle.join().ok().flatten().unwrap_or_else(super::structure::unreadable),
            None => super::structure::read(bytes),
        };
        read_document(&data, source, settings, progress, structure, on_threads)
    })
}

/// Reading threads at most: they are started before the page count is known, and past a few
/// helpers the one lead's pace bounds the rest (`Pipeline`).
const MAX_READERS: usize = 8;

/// The document as the reading threads share it (`Pipeline`), once the calling thread opened it.
struct Opened {
    pdf: Pdf,
    /// `page_order`: hayro's page index for each page of the document.
    order: Vec<usize>,
    pipeline: Pipeline<Interpreted>,
    /// Every thread caches fonts and decoded objects of its own (hayro's cache is `Rc`); the font
    /// files they are built on are inflated once for all (hayro patched: vendor/PATCHES.md).
    font_files: hayro_interpret::font::SharedFontFiles,
    glyph_pool: GlyphPool,
}

/// Where helpers wait for the document: `Some` once it is open, `None` when it could not be (or
/// the thread opening it gave up).
#[derive(Default)]
struct Ready {
    opened: std::sync::OnceLock<Option<Opened>>,
    /// Taken by `open` after it sets `opened`, so a helper never misses the signal.
    signal: (std::sync::Mutex<()>, std::sync::Condvar),
}

impl Ready {
    /// Hand the document (or its absence) to the helpers; the first call decides.
    fn open(&self, opened: Option<Opened>) -> Option<&Opened> {
        let first = self.opened.get_or_init(|| opened).as_ref();
        let (lock, changed) = &self.signal;
        drop(lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        changed.notify_all();
        first
    }

    fn wait(&self) -> Option<&Opened> {
        let (lock, changed) = &self.signal;
        let mut guard = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            if let Some(opened) = self.opened.get() {
                return opened.as_ref();
            }
            guard = changed.wait(guard).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// Lets the helpers go when dropped (`extract`).
struct Release<'a>(&'a Ready);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.open(None);
    }
}

/// The calling thread's end of reading on threads: where helpers wait for the document, and the
/// channel pages come back on.
struct OnThreads<'a> {
    ready: &'a Ready,
    tx: std::sync::mpsc::Sender<(usize, PageRead)>,
    rx: std::sync::mpsc::Receiver<(usize, PageRead)>,
}

/// One reading thread's share of the pages (`Pipeline`), each sent back as it is done.
fn read_pages(o: &Opened, lead: bool, tx: &std::sync::mpsc::Sender<(usize, PageRead)>, settings: &IngestSettings, source: &str) {
    let pages = o.pdf.pages();
    let cache = InterpreterCache::with_font_files(&o.font_files);
    while let Some(job) = o.pipeline.next(lead) {
        let (i, read) = match job {
            Job::Build(i, read) => (i, build(read, &o.glyph_pool, settings, source)),
            Job::Interpret(i) => {
                match interpret_page(&o.pdf, &pages[o.order[i]], i as u32 + 1, &cache, &o.glyph_pool, settings, source) {
                    // The lead hands its pages over to be built; a helper builds its own.
                    Ok(read) if lead => {
                        o.pipeline.hand_over(i, read);
                        continue;
                    }
                    Ok(read) => (i, build(read, &o.glyph_pool, settings, source)),
                    Err(skipped) => (i, skipped),
                }
            }
        };
        if tx.send((i, read)).is_err() {
            break;
        }
    }
}

/// [`extract`] once the document's structure is being read: `structure` hands it over (waiting
/// for it when it is read on a thread of its own), and is called once. With `on_threads`, helpers
/// wait to read pages beside this thread.
fn read_document(
    data: &std::sync::Arc<Vec<u8>>,
    source: &str,
    settings: &IngestSettings,
    progress: &mut dyn FnMut(u32, u32),
    structure: impl FnOnce() -> super::structure::Structure,
    on_threads: Option<OnThreads<'_>>,
) -> Extracted {
    let mut ex = Extracted {
        source: source.to_string(),
        ..Default::default()
    };
    // The structure's warnings come first, as when it was read before the pages.
    // `page_of` numbers the page objects outline entries point at (none when no page was read).
    let take_structure = |ex: &mut Extracted, structure: super::structure::Structure, page_of: &HashMap<(u64, u64), u32>| {
        ex.encrypted |= structure.encrypted;
        ex.title = structure.title.clone();
        ex.outline = structure.outline(page_of);
        ex.warnings.splice(0..0, structure.warnings.iter().cloned());
        structure
    };

    let pdf = match Pdf::new(data.clone()) {
        Ok(p) => p,
        Err(e) => {
            if let Some(t) = &on_threads {
                t.ready.open(None);
            }
            match e {
                hayro_syntax::LoadPdfError::Decryption(e) => {
                    ex.encrypted = true;
                    ex.warnings.push(format!(
                        "{source}: the file is encrypted and does not open with an empty user password ({e:?}); \
                         remove the password and load it again"
                    ));
                }
                hayro_syntax::LoadPdfError::Invalid => ex.warnings.push(format!(
                    "{source}: not a readable PDF (no usable cross-reference table or page tree)"
                )),
            }
            take_structure(&mut ex, structure(), &HashMap::new());
            return ex;
        }
    };
    let order = page_order(&pdf);
    let total = order.len() as u32;
    let mut font_warnings = 0usize;
    let mut keep = |ex: &mut Extracted, r: PageRead| {
        ex.warnings.extend(r.warnings);
        font_warnings += usize::from(r.unmapped);
        let number = r.page.page;
        ex.pages.push(r.page);
        progress(number, total);
    };
    let opened = Opened {
        pipeline: Pipeline::new(order.len()),
        pdf,
        order,
        font_files: Default::default(),
        glyph_pool: GlyphPool::default(),
    };
    let o = match on_threads {
        // Pages are independent until the whole-document passes below, so they are read on this
        // thread and the helpers, sharing the work as `Pipeline` says; results are put back in page
        // order (the output is the same as on one thread) and progress is reported in that order.
        Some(OnThreads { ready, tx, rx }) => {
            let Some(o) = ready.open(Some(opened)) else {
                return ex;
            };
            read_pages(o, true, &tx, settings, source);
            drop(tx);
            let mut done: Vec<Option<PageRead>> = (0..o.order.len()).map(|_| None).collect();
            let mut at = 0;
            for (i, r) in rx {
                if let Some(slot) = done.get_mut(i) {
                    *slot = Some(r);
                }
                while let Some(r) = done.get_mut(at).and_then(Option::take) {
                    keep(&mut ex, r);
                    at += 1;
                }
            }
            o
        }
        None => {
            let pages = opened.pdf.pages();
            let cache = InterpreterCache::with_font_files(&opened.font_files);
            for (i, &k) in opened.order.iter().enumerate() {
                keep(&mut ex, read_page(&opened.pdf, &pages[k], i as u32 + 1, &cache, &opened.glyph_pool, settings, source));
            }
            &opened
        }
    };
    if font_warnings > 0 {
        ex.warnings.push(format!(
            "{source}: {font_warnings} page(s) have glyphs without a Unicode mapping"
        ));
    }
    // Each page object's number, the last where the tree shows one twice (as pdf-rs numbered them).
    let pages = o.pdf.pages();
    let page_of: HashMap<(u64, u64), u32> = o
        .order
        .iter()
        .enumerate()
        .filter_map(|(i, &k)| {
            let id = pages[k].raw().obj_id()?;
            Some(((u64::from(id.obj_number), u64::try_from(id.gen_number).ok()?), i as u32 + 1))
        })
        .collect();
    let structure = take_structure(&mut ex, structure(), &page_of);
    super::structure::attach(&mut ex, &structure);
    super::furniture::mark(&mut ex.pages);
    // After furniture is marked: running headers repeat item numbers without being headings.
    super::sections::attach_filing_items(&mut ex.pages);
    // A report with neither: its headings, by type size.
    super::headings::attach_typeset_headings(&mut ex.pages);
    super::tables::link_continuations(&mut ex.pages);
    super::notes::attach_carried_over(&mut ex.pages);
    ex
}

/// How pages are shared out among reading threads (issue 3, speed bar). A page is read in two
/// halves: hayro interprets it ([`interpret_page`]), and we build its layout, tables and signals
/// ([`build`]). hayro caches fonts and decoded objects per thread (its cache is `Rc`), so every
/// thread that interprets pages builds again the fonts they share (their files are inflated once,
/// vendor/PATCHES.md) and decodes again the objects — on a 10-K whose halves two threads read,
/// more work than one thread does. So one thread, the lead,
/// interprets the pages in order from the front with one warm cache and hands them over; the
/// other threads build what it hands over, and only when nothing is waiting do they interpret a
/// page themselves, the last one left, and build it. Our half is lighter than hayro's, so on two
/// cores the lead interprets most of the document and the second thread builds most of it, and
/// no thread idles while pages are left. The lead builds too when `MAX_WAITING` pages wait (their
/// glyphs are held until built) and, at the end, whatever is still waiting.
struct Pipeline<T>(std::sync::Mutex<Waiting<T>>);

/// [`Pipeline`]'s state: the pages `front..back` (indices into the document's order) are not yet
/// interpreted; `waiting` are interpreted by the lead and not yet built, in the lead's order.
struct Waiting<T> {
    front: usize,
    back: usize,
    waiting: std::collections::VecDeque<(usize, T)>,
}

/// A reading thread's next piece of work: interpret page `i` (index into the document's order), or
/// build page `i` that the lead interpreted.
enum Job<T> {
    Interpret(usize),
    Build(usize, T),
}

/// Pages the lead may leave interpreted and unbuilt before it builds one itself.
const MAX_WAITING: usize = 8;

impl<T> Pipeline<T> {
    fn new(pages: usize) -> Self {
        Pipeline(std::sync::Mutex::new(Waiting { front: 0, back: pages, waiting: Default::default() }))
    }

    /// The next job for the lead (`lead`) or for another thread; `None` when that thread is done.
    /// A helper that finds nothing to build and nothing to interpret is done: a page the lead is
    /// interpreting then is built by the lead.
    fn next(&self, lead: bool) -> Option<Job<T>> {
        let mut w = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let build_first = !lead || w.waiting.len() >= MAX_WAITING || w.front >= w.back;
        if build_first {
            if let Some((i, read)) = w.waiting.pop_front() {
                return Some(Job::Build(i, read));
            }
        }
        if w.front >= w.back {
            return None;
        }
        if lead {
            w.front += 1;
            Some(Job::Interpret(w.front - 1))
        } else {
            w.back -= 1;
            Some(Job::Interpret(w.back))
        }
    }

    /// The lead's interpreted page `i`, to be built by whichever thread comes for it first.
    fn hand_over(&self, i: usize, read: T) {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).waiting.push_back((i, read));
    }
}

/// Which of hayro's pages (`pdf.pages()`) shows as each page of the document, in order. hayro
/// lists a page object once even where the page tree names it twice (pymupdf's `2.pdf` shows its
/// page 7 again as page 47), so every page after the repeat would be numbered one short of what a
/// viewer and pdftotext show, and citations and page images would point at the wrong page. The
/// tree is walked here as written (ISO 32000-1 §7.7.3.2; a cycle through its `Pages` nodes is cut);
/// when every page object it names is one hayro read, that is the order. Otherwise hayro's own
/// order stands.
pub(crate) fn page_order(pdf: &Pdf) -> Vec<usize> {
    const MAX_PAGES: usize = 100_000;
    let pages = pdf.pages();
    let own: Vec<usize> = (0..pages.len()).collect();
    let xref = pdf.xref();
    let Some(root) = xref.get::<Dict<'_>>(xref.root_id()).and_then(|c| c.get_ref(b"Pages")) else {
        return own;
    };
    let root: ObjectIdentifier = root.into();
    let mut named: Vec<ObjectIdentifier> = vec![];
    let mut seen_nodes = std::collections::HashSet::new();
    let mut stack = vec![root];
    let mut nodes_read = 0usize;
    // Depth first with kids in order: each node's kids are pushed in reverse.
    while let Some(node) = stack.pop() {
        nodes_read += 1;
        if nodes_read > MAX_PAGES || named.len() > MAX_PAGES {
            return own;
        }
        let Some(dict) = xref.get::<Dict<'_>>(node) else { continue };
        let is_node = dict.get::<Name<'_>>(b"Type").is_some_and(|t| t.as_ref() == b"Pages") && dict.contains_key(b"Kids");
        if !is_node {
            named.push(node);
            continue;
        }
        // A `Pages` node met again is a cycle (or a shared subtree): its pages are listed once.
        if !seen_nodes.insert(node) {
            continue;
        }
        let Some(kids) = dict.get::<Array<'_>>(b"Kids") else { continue };
        let mut refs = vec![];
        for kid in kids.raw_iter() {
            match kid {
                MaybeRef::Ref(r) => refs.push(ObjectIdentifier::from(r)),
                // A page written inline has no object number to match hayro's by.
                MaybeRef::NotRef(_) => return own,
            }
        }
        stack.extend(refs.into_iter().rev());
    }
    if named.len() <= pages.len() {
        return own;
    }
    let index: HashMap<ObjectIdentifier, usize> =
        (0..pages.len()).filter_map(|i| Some((pages[i].raw().obj_id()?, i))).collect();
    named.iter().map(|r| index.get(r).copied()).collect::<Option<Vec<usize>>>().unwrap_or(own)
}

/// One page as read: the page, its warnings, and whether it has glyphs without Unicode.
struct PageRead {
    page: Page,
    warnings: Vec<String>,
    unmapped: bool,
}

/// A page hayro has read, before its layout is built: what [`build`] needs, owned, so that
/// another thread can build it ([`Pipeline`]).
struct Interpreted {
    number: u32,
    width: f32,
    height: f32,
    glyphs: Vec<Glyph>,
    g: Graphics,
    fonts: Vec<FontFace>,
    warnings: Vec<String>,
    unmapped: bool,
}

/// Interpret one page within the work budget and build it (layout, tables, signals). A panic in
/// the interpreter costs this page only (natively; see [`run_page`]).
fn read_page<'a>(
    pdf: &'a Pdf,
    page: &hayro_syntax::page::Page<'a>,
    number: u32,
    cache: &InterpreterCache<'a>,
    pool: &GlyphPool,
    settings: &IngestSettings,
    source: &str,
) -> PageRead {
    match interpret_page(pdf, page, number, cache, pool, settings, source) {
        Ok(read) => build(read, pool, settings, source),
        Err(skipped) => skipped,
    }
}

/// The first half of [`read_page`]: hayro reads the page's content into glyphs and graphics. A
/// page the interpreter could not read comes back as `Err`, already a (blank) page with its warning.
fn interpret_page<'a>(
    pdf: &'a Pdf,
    page: &hayro_syntax::page::Page<'a>,
    number: u32,
    cache: &InterpreterCache<'a>,
    pool: &GlyphPool,
    settings: &IngestSettings,
    source: &str,
) -> Result<Interpreted, PageRead> {
    let (width, height) = page.render_dimensions();
    let outcome = run_page(|| {
        let context = |render_content| {
            let settings_i = InterpreterSettings {
                warning_sink: std::sync::Arc::new(|_| {}),
                render_content,
                ..Default::default()
            };
            let initial = page.initial_transform(true).to_kurbo();
            Context::new(initial, Rect::new(0.0, 0.0, width as f64, height as f64), cache, pdf.xref(), settings_i)
        };
        // The page's content (or `content` in its place), then its annotations: what
        // `interpret_page` does, with a marked-content sentinel after the content so that the
        // collector sees whether hayro read it to the end (a stray delimiter stops it: repair.rs).
        let read = |content: &[u8], plan: &Plan| {
            let mut dev = Collector::new(pool.take());
            dev.type3_by_code = type3_glyphs_named_by_code(page.resources());
            match plan {
                Plan::Whole(_) => {
                    let mut ctx = context(RenderContent::ANNOTATIONS);
                    WITH_END.with(|buf| {
                        let mut with_end = buf.borrow_mut();
                        with_end.clear();
                        with_end.extend_from_slice(content);
                        with_end.extend_from_slice(END_OF_CONTENT);
                        hayro_interpret::interpret(TypedIter::new(&with_end), page.resources(), &mut ctx, &mut dev);
                    });
                    hayro_interpret::interpret_page(page, &mut ctx, &mut dev);
                }
                Plan::Cut { content_end, .. } => {
                    let ops = TypedIter::new(&content[..(*content_end).min(content.len())]);
                    hayro_interpret::interpret(ops, page.resources(), &mut context(RenderContent::all()), &mut dev);
                    dev.read_to_end = true;
                }
            }
            dev
        };
        let own = page.page_stream().unwrap_or(&[]);
        let plan = super::budget::plan_reading(page, settings);
        let dev = read(own, &plan);
        if dev.read_to_end {
            return (dev, plan, None);
        }
        // hayro stopped part-way: read the page again with its stray delimiters blanked, costed anew
        // (costing stopped where hayro did).
        match super::repair::repair(own) {
            Some(r) => {
                let plan = super::budget::plan_content(page, &r.content, settings);
                (read(&r.content, &plan), plan, Some(r.strays))
            }
            None => (dev, plan, None),
        }
    });
    let mut warnings = vec![];
    let Some((dev, plan, strays)) = outcome else {
        warnings.push(format!("{source} page {number}: the page could not be interpreted and was skipped"));
        return Err(PageRead {
            page: Page { page: number, width, height, ..Default::default() },
            warnings,
            unmapped: false,
        });
    };
    if let Some(strays) = strays {
        let (at, byte) = strays[0];
        warnings.push(format!(
            "{source} page {number}: {} stray delimiter(s) in the page's content stream (the first, `{}`, at byte {at}), \
             where the PDF library would have stopped reading the page; they were skipped and the rest was read",
            strays.len(),
            char::from(byte)
        ));
    }
    if let Plan::Cut { cost, .. } = plan {
        let (reason, settable) = cost.cut_reason(settings);
        let rest = if settable {
            "only what comes before was read — raise those settings to read the whole page"
        } else {
            "the rest of the page was not read"
        };
        warnings.push(format!("{source} page {number}: {reason}; {rest}"));
    }
    if dev.overflow {
        warnings.push(format!(
            "{source} page {number}: more than {MAX_GLYPHS} glyphs; the rest of the page was not read"
        ));
    }
    let unmapped = dev.glyphs.iter().any(|g| g.c == '\u{FFFD}');
    let Collector { glyphs, g, fonts, .. } = dev;
    Ok(Interpreted { number, width, height, glyphs, g, fonts, warnings, unmapped })
}

/// The second half of [`read_page`]: the page's layout, tables and signals from what hayro read.
fn build(read: Interpreted, pool: &GlyphPool, settings: &IngestSettings, source: &str) -> PageRead {
    let Interpreted { number, width, height, mut glyphs, g, fonts, mut warnings, unmapped } = read;
    // Our own page building is guarded too: on a reading thread an escaped panic would take the
    // whole document (and natively the process) with it.
    let page = run_page(|| build_page(number, width, height, &mut glyphs, fonts, &g, settings)).unwrap_or_else(|| {
        warnings.push(format!("{source} page {number}: the page's layout could not be built and was skipped"));
        Page { page: number, width, height, ..Default::default() }
    });
    pool.give(glyphs);
    PageRead { page, warnings, unmapped }
}

/// Glyph buffers given back once their page is built, for the next pages to fill: a 10-K page's
/// glyphs are some 100 KB, and fresh memory for every page cost a page fault per 4 KiB of it
/// (perf, `-e page-faults`: a fifth of `clair extract`'s faults on VERIZON_2021_10K). Shared by
/// the reading threads, since the lead's pages are built on the others.
#[derive(Default)]
struct GlyphPool(std::sync::Mutex<Vec<Vec<Glyph>>>);

impl GlyphPool {
    /// Buffers kept at most, and the most glyphs a kept buffer holds (larger ones are freed).
    const KEPT: usize = 4;
    const KEPT_GLYPHS: usize = 1 << 16;

    fn take(&self) -> Vec<Glyph> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop().unwrap_or_default()
    }

    fn give(&self, mut glyphs: Vec<Glyph>) {
        if glyphs.capacity() == 0 || glyphs.capacity() > Self::KEPT_GLYPHS {
            return;
        }
        glyphs.clear();
        let mut kept = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() < Self::KEPT {
            kept.push(glyphs);
        }
    }
}

/// Natively a panic inside the interpreter costs the page (`catch_unwind`); in wasm a panic aborts
/// the instance whatever we do, which the worker's supervisor handles (issue 3 deliverable 5).
fn run_page<T>(f: impl FnOnce() -> T) -> Option<T> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
    }
    #[cfg(target_arch = "wasm32")]
    {
        Some(f())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glyph_buffer_given_back_comes_out_empty_with_its_room_and_huge_ones_are_not_kept() {
        let pool = GlyphPool::default();
        assert_eq!(pool.take().capacity(), 0, "an empty pool gives a new buffer");
        let g = Glyph { c: 'x', bbox: [0.0; 4], origin: [0.0; 2], size: 10.0, dir: 0, garbled: false, font: 0 };
        let mut used = Vec::with_capacity(3000);
        used.extend(std::iter::repeat_n(g.clone(), 2500));
        pool.give(used);
        let again = pool.take();
        assert!(again.is_empty() && again.capacity() >= 3000, "{} glyphs, room for {}", again.len(), again.capacity());
        pool.give(Vec::with_capacity(GlyphPool::KEPT_GLYPHS + 1));
        assert_eq!(pool.take().capacity(), 0, "a buffer past the cap is freed, not kept");
        for _ in 0..GlyphPool::KEPT + 2 {
            pool.give(vec![g.clone()]);
        }
        assert_eq!(pool.0.lock().unwrap().len(), GlyphPool::KEPT);
    }

    /// What a job is, for comparing: ('i', page) to interpret, ('b', page) to build.
    fn job(j: Option<Job<()>>) -> Option<(char, usize)> {
        j.map(|j| match j {
            Job::Interpret(i) => ('i', i),
            Job::Build(i, ()) => ('b', i),
        })
    }

    #[test]
    fn the_lead_interprets_from_the_front_and_the_others_build_its_pages_or_interpret_from_the_back() {
        let p = Pipeline::<()>::new(20);
        assert_eq!(job(p.next(true)), Some(('i', 0)));
        // Nothing handed over yet: a helper interprets the last page itself (and builds it).
        assert_eq!(job(p.next(false)), Some(('i', 19)));
        p.hand_over(0, ());
        assert_eq!(job(p.next(true)), Some(('i', 1)), "the lead goes on interpreting");
        p.hand_over(1, ());
        assert_eq!(job(p.next(false)), Some(('b', 0)), "a helper builds what the lead handed over, in order");
        assert_eq!(job(p.next(false)), Some(('b', 1)));
        assert_eq!(job(p.next(false)), Some(('i', 18)));
        // The lead leaves at most MAX_WAITING pages unbuilt before it builds one itself.
        for i in 2..2 + MAX_WAITING {
            assert_eq!(job(p.next(true)), Some(('i', i)));
            p.hand_over(i, ());
        }
        assert_eq!(job(p.next(true)), Some(('b', 2)));
        assert_eq!(job(p.next(true)), Some(('i', 2 + MAX_WAITING)));
        p.hand_over(2 + MAX_WAITING, ());
        // A helper builds everything waiting before it interprets again.
        let built: Vec<_> = (0..MAX_WAITING).map(|_| job(p.next(false))).collect();
        assert_eq!(built, (3..=2 + MAX_WAITING).map(|i| Some(('b', i))).collect::<Vec<_>>());
        assert_eq!(job(p.next(false)), Some(('i', 17)));
        // The lead interprets the pages between, then builds what is still waiting, and is done;
        // a helper with nothing to build and nothing to interpret is done.
        let rest: Vec<_> = std::iter::from_fn(|| {
            let j = job(p.next(true));
            if let Some(('i', i)) = j {
                p.hand_over(i, ());
            }
            j
        })
        .collect();
        let expected: Vec<_> =
            (3 + MAX_WAITING..17).map(|i| ('i', i)).chain((3 + MAX_WAITING..17).map(|i| ('b', i))).collect();
        assert_eq!(rest, expected, "every page is interpreted once and built once");
        assert_eq!(job(p.next(false)), None);
        assert_eq!(job(Pipeline::<()>::new(0).next(true)), None);
    }
}
