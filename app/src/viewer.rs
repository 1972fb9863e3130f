//! The page viewer: the cited page rendered by the worker (hayro → PNG) with the cited regions
//! boxed over it, next/previous page and zoom — and below it the page's extracted text, the
//! accessible alternative (and the fallback when the PDF is not loaded, e.g. an imported run).

use crate::worker;
use clair_core::config::Settings;
use clair_core::corpus::{BBox, TablePart};
use clair_core::protocol::{FromWorker, Section, ToWorker};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Pixels per point the worker renders at; zoom scales the shown image, not the render.
const RENDER_SCALE: f32 = 1.5;

/// Points added around a cited region when it is outlined.
const BOX_PAD: f32 = 2.5;

#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub source: String,
    pub page: u32,
    /// Cited regions in points, origin top-left (ingest's convention).
    pub boxes: Vec<BBox>,
    /// The page size the boxes were measured against; (0, 0) when unknown.
    pub page_size: (f32, f32),
    /// Text of the cited evidence, marked in the page text.
    pub highlight: Option<String>,
    /// Every page's part of a cited table that runs over several pages (empty otherwise): the
    /// viewer offers them and outlines the part on whichever of those pages is shown.
    pub parts: Vec<TablePart>,
}

impl Target {
    /// A page with nothing cited on it.
    pub fn page(source: String, page: u32) -> Self {
        Target { source, page, boxes: vec![], page_size: (0.0, 0.0), highlight: None, parts: vec![] }
    }

    /// The same cited table shown on another page: that page's part is outlined (against the
    /// rendered page's size), or nothing when the table has no part there.
    fn on_page(&self, page: u32) -> Self {
        let boxes = self.parts.iter().filter(|p| p.page == page).map(|p| p.bbox).collect();
        Target { source: self.source.clone(), page, boxes, page_size: (0.0, 0.0), highlight: None, parts: self.parts.clone() }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Image {
    Loading,
    /// `label`: the page's printed number when it differs from its position in the file.
    Ready { url: String, width_px: u32, height_px: u32, page_size: (f32, f32), pages: u32, label: Option<String> },
    Unavailable(String),
}

#[derive(Clone, Copy)]
pub struct Viewer {
    pub target: RwSignal<Option<Target>>,
    pub image: RwSignal<Image>,
    pub text: RwSignal<Option<Result<String, String>>>,
    pub zoom: RwSignal<f64>,
    /// The user's settings: pages are drawn within their per-page work budget.
    settings: RwSignal<Settings>,
    /// The shown document's sections (outline titles and first pages), fetched once per document.
    pub sections: RwSignal<Option<(String, Vec<Section>)>>,
    /// A citation was opened: once its page is drawn, zoom onto the cited boxes.
    focus_pending: RwSignal<bool>,
    /// Files of the library on a server (issue 42): their pages are drawn only once the PDF is
    /// added here; until then the viewer says so and shows the cited text.
    pub library: RwSignal<Vec<String>>,
}

impl Viewer {
    pub fn new(settings: RwSignal<Settings>) -> Self {
        Viewer { target: RwSignal::new(None), image: RwSignal::new(Image::Loading), text: RwSignal::new(None), zoom: RwSignal::new(1.0), settings, sections: RwSignal::new(None), focus_pending: RwSignal::new(false), library: RwSignal::new(vec![]) }
    }

    /// A file was read again under `source`'s name (a different PDF may now carry it): what the
    /// viewer holds of the old one — its section list and the shown page — is fetched afresh.
    pub fn document_replaced(self, source: &str) {
        if self.sections.with_untracked(|s| s.as_ref().is_some_and(|(of, _)| of == source)) {
            self.sections.set(None);
        }
        if let Some(t) = self.target.get_untracked().filter(|t| t.source == source) {
            self.show(t);
        }
    }

    /// Show `t`: render its page and fetch its text (both from the worker).
    pub fn open(self, t: Target) {
        self.show(t);
        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("viewer")) {
            el.scroll_into_view();
        }
    }

    /// Show a cited target and, once its page is drawn, zoom so the cited region fills a good part
    /// of the viewer and scroll it into view (`clair_core::view::focus`). Other ways of changing
    /// page (prev/next, sections, table parts) keep the zoom the user has.
    pub fn open_cited(self, t: Target) {
        self.focus_pending.set(!t.boxes.is_empty());
        self.open(t);
    }

    /// The page's scrolling frame and its visible size in CSS pixels.
    fn frame() -> Option<(web_sys::Element, (f64, f64))> {
        let el = web_sys::window()?.document()?.get_element_by_id("page-scroll")?;
        let size = (el.client_width() as f64, el.client_height() as f64);
        Some((el, size))
    }

    /// The size the target's boxes are measured in: their own page size, else the rendered page's.
    fn page_points(self) -> Option<(Target, (f32, f32))> {
        let t = self.target.get_untracked()?;
        let Image::Ready { page_size, .. } = self.image.get_untracked() else { return None };
        let size = if t.page_size.0 > 0.0 && t.page_size.1 > 0.0 { t.page_size } else { page_size };
        Some((t, size))
    }

    /// Zoom onto the shown target's boxes (after `open_cited`).
    fn focus_region(self) {
        let (Some((t, size)), Some((el, viewport))) = (self.page_points(), Self::frame()) else { return };
        let Some(f) = clair_core::view::focus::on_region(&t.boxes, size, viewport) else { return };
        self.zoom.set(f.zoom);
        // The new width is laid out on the next frame; scroll then.
        request_animation_frame(move || {
            el.set_scroll_left(f.left.round() as i32);
            el.set_scroll_top(f.top.round() as i32);
        });
    }

    /// "Fit page": the whole page in view.
    pub fn fit_page(self) {
        let (Some((_, size)), Some((el, viewport))) = (self.page_points(), Self::frame()) else { return };
        self.zoom.set(clair_core::view::focus::whole_page(size, viewport));
        el.set_scroll_left(0);
        el.set_scroll_top(0);
    }

    /// Render and fetch `t` without moving the user's scroll position.
    fn show(self, t: Target) {
        let (source, page) = (t.source.clone(), t.page);
        self.target.set(Some(t));
        self.set_image(Image::Loading);
        self.text.set(None);
        if self.sections.with_untracked(|s| s.as_ref().is_none_or(|(of, _)| *of != source)) {
            self.sections.set(None);
            let source = source.clone();
            spawn_local(async move {
                // A document without an outline (or a failed request) simply has no section list.
                if let FromWorker::Sections { sections, .. } = worker::request(ToWorker::Sections { id: worker::next_id(), source: source.clone() }, None).await {
                    if self.target.get_untracked().is_some_and(|t| t.source == source) {
                        self.sections.set(Some((source, sections)));
                    }
                }
            });
        }
        spawn_local(async move {
            let budget = self.settings.get_untracked().ingest;
            let msg = ToWorker::RenderPage { id: worker::next_id(), source: source.clone(), page, scale: RENDER_SCALE, budget };
            let img = match worker::request(msg, None).await {
                FromWorker::PageImage { png, width_px, height_px, page_size, pages, label, .. } => match png_url(&png) {
                    Some(url) => Image::Ready { url, width_px, height_px, page_size, pages, label: label.filter(|l| *l != page.to_string()) },
                    None => Image::Unavailable("the page image could not be shown".into()),
                },
                FromWorker::Failed { error, .. } => Image::Unavailable(error),
                other => Image::Unavailable(format!("unexpected worker reply: {other:?}")),
            };
            // A later click may have moved on; only the current target's image is shown.
            if self.target.get_untracked().is_some_and(|t| t.source == source && t.page == page) {
                self.set_image(img);
            } else if let Image::Ready { url, .. } = img {
                let _ = web_sys::Url::revoke_object_url(&url);
            }
            let text = match worker::request(ToWorker::PageText { id: worker::next_id(), source: source.clone(), page }, None).await {
                FromWorker::PageText { text, .. } => Ok(text),
                FromWorker::Failed { error, .. } => Err(error),
                other => Err(format!("unexpected worker reply: {other:?}")),
            };
            if self.target.get_untracked().is_some_and(|t| t.source == source && t.page == page) {
                self.text.set(Some(text));
            }
        });
    }

    fn set_image(self, img: Image) {
        if let Image::Ready { url, .. } = self.image.get_untracked() {
            let _ = web_sys::Url::revoke_object_url(&url);
        }
        self.image.set(img);
    }

    /// Another page of the same document (the cited table's part outlined if it has one there).
    pub fn go(self, delta: i32) {
        let Some(t) = self.target.get_untracked() else { return };
        let pages = match self.image.get_untracked() {
            Image::Ready { pages, .. } => pages,
            _ => u32::MAX,
        };
        let page = (t.page as i64 + delta as i64).clamp(1, pages as i64) as u32;
        if page != t.page {
            self.open(t.on_page(page));
        }
    }
}

fn png_url(png: &[u8]) -> Option<String> {
    let arr = js_sys::Uint8Array::from(png);
    let parts = js_sys::Array::of1(&arr);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/png");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

#[component]
pub fn PageViewer(viewer: Viewer) -> impl IntoView {
    let Viewer { target, image, text, zoom, sections, focus_pending, .. } = viewer;
    // A cited page just drawn: bring its region into view (once per citation click).
    Effect::new(move |_| {
        if matches!(image.get(), Image::Ready { .. }) && focus_pending.get_untracked() {
            focus_pending.set(false);
            request_animation_frame(move || viewer.focus_region());
        }
    });
    view! {
        <section id="viewer" class="panel viewer" aria-label="Page viewer">
            <h2>"Page viewer"</h2>
            {move || match target.get() {
                None => view! { <p class="hint">"Click a citation or an evidence item to see the cited page, or “view” beside a document."</p> }.into_any(),
                Some(t) => {
                    let pages = move || match image.get() { Image::Ready { pages, .. } => Some(pages), _ => None };
                    let page = t.page;
                    view! {
                        <h3 id="viewer-page">{format!("{}, page {}", t.source, t.page)}
                            {move || match image.get() {
                                Image::Ready { label: Some(l), .. } => Some(view! { <span class="printed-page">{format!(" · printed page {l}")}</span> }),
                                _ => None,
                            }}
                        </h3>
                        {section_nav(viewer, sections, t.source.clone(), t.page)}
                        <div class="viewer-tools" role="toolbar" aria-label="Page tools">
                            <button class="button" aria-label="Previous page" disabled=move || page <= 1 on:click=move |_| viewer.go(-1)>"‹ Previous"</button>
                            <button class="button" aria-label="Next page" disabled=move || pages().is_some_and(|n| page >= n) on:click=move |_| viewer.go(1)>"Next ›"</button>
                            <span class="muted">{move || pages().map(|n| format!("{page} / {n}")).unwrap_or_default()}</span>
                            <button class="button" aria-label="Zoom out" on:click=move |_| zoom.update(|z| *z = (*z / 1.25).max(0.4))>"−"</button>
                            <span class="muted zoom-level">{move || format!("{:.0}%", zoom.get() * 100.0)}</span>
                            <button class="button" aria-label="Zoom in" on:click=move |_| zoom.update(|z| *z = (*z * 1.25).min(4.0))>"+"</button>
                            <button class="button" aria-label="Fit width" on:click=move |_| zoom.set(1.0)>"Fit width"</button>
                            <button class="button" aria-label="Fit page" on:click=move |_| viewer.fit_page()>"Fit page"</button>
                        </div>
                        {table_parts(viewer, &t)}
                        {
                            let t = t.clone();
                            move || match image.get() {
                                Image::Loading => view! { <p class="hint" id="page-loading">"Rendering the page…"</p> }.into_any(),
                                Image::Unavailable(_) if viewer.library.with(|l| l.contains(&t.source)) => view! {
                                    <p class="note" id="page-on-server">{format!("{} is in the library on the server: add that PDF here (Add PDFs) to see this page drawn. The cited text is below.", t.source)}</p>
                                }.into_any(),
                                Image::Unavailable(why) => view! { <p class="note" id="page-unavailable">{format!("No page image: {why}")}</p> }.into_any(),
                                Image::Ready { url, width_px, height_px, page_size, .. } => {
                                    // Boxes are in points against the page size they were measured on.
                                    let (pw, ph) = if t.page_size.0 > 0.0 && t.page_size.1 > 0.0 { t.page_size } else { page_size };
                                    let shown: Vec<_> = t.boxes.iter().filter(|b| b[2] > b[0] && b[3] > b[1]).collect();
                                    let n = shown.len();
                                    let boxes = shown.into_iter().enumerate().map(|(i, b)| {
                                        let pct = |v: f32, of: f32| format!("{:.3}%", (v / of * 100.0).clamp(0.0, 100.0));
                                        // The outline sits just outside the region so it never strikes through glyphs.
                                        let b = [(b[0] - BOX_PAD).max(0.0), (b[1] - BOX_PAD).max(0.0), (b[2] + BOX_PAD).min(pw), (b[3] + BOX_PAD).min(ph)];
                                        let style = format!("left:{};top:{};width:{};height:{}", pct(b[0], pw), pct(b[1], ph), pct(b[2] - b[0], pw), pct(b[3] - b[1], ph));
                                        // Focusable so a keyboard user can step through a table citation's boxes
                                        // (the browser scrolls a focused box into view).
                                        view! { <div class="cited-box" style=style tabindex="0" role="img" aria-label=format!("Cited region {} of {n}", i + 1)></div> }
                                    }).collect_view();
                                    let alt = format!("{}, page {} (rendered){}", t.source, t.page, if t.boxes.is_empty() { "" } else { ", cited region outlined" });
                                    view! {
                                        <div class="page-scroll" id="page-scroll" tabindex="0" aria-label="Page image (scrolls when zoomed)">
                                            <div class="page-frame" style:width=move || format!("{:.0}%", zoom.get() * 100.0)>
                                                <img id="page-image" src=url alt=alt width=width_px height=height_px />
                                                {boxes}
                                            </div>
                                        </div>
                                    }.into_any()
                                }
                            }
                        }
                        <h4 class="page-text-heading">"Page text"</h4>
                        {
                            let t = t.clone();
                            move || match text.get() {
                                None => view! { <pre class="page-text" tabindex="0" aria-label="Page text">"…"</pre> }.into_any(),
                                Some(Ok(s)) => view! { <pre class="page-text" tabindex="0" aria-label="Page text">{highlighted(&s, t.highlight.as_deref())}</pre> }.into_any(),
                                Some(Err(why)) => view! {
                                    <div class="page-text">
                                        <p class="note">{why}</p>
                                        {t.highlight.clone().map(|h| view! { <p>"Cited text: "<mark id="cited">{h}</mark></p> })}
                                    </div>
                                }.into_any(),
                            }
                        }
                    }.into_any()
                }
            }}
        </section>
    }
}

/// "Section: …" with a list of the document's sections (its outline) to jump to; the section the
/// shown page falls in is selected. Nothing for a document without an outline.
fn section_nav(viewer: Viewer, sections: RwSignal<Option<(String, Vec<Section>)>>, source: String, page: u32) -> impl IntoView {
    move || {
        let list = sections.with(|s| s.as_ref().filter(|(of, _)| *of == source).map(|(_, l)| l.clone()))?;
        if list.is_empty() {
            return None;
        }
        let current = list.iter().rposition(|s| s.page <= page);
        let src = source.clone();
        let options = list.iter().enumerate().map(|(i, s)| {
            view! { <option value=i.to_string() selected=current == Some(i)>{format!("{} (p. {})", s.title, s.page)}</option> }
        }).collect_view();
        let pages: Vec<u32> = list.iter().map(|s| s.page).collect();
        Some(view! {
            <label class="viewer-sections">"Section "
                <select id="viewer-sections" aria-label="Go to section"
                    on:change=move |ev| {
                        let to = event_target_value(&ev).parse::<usize>().ok().and_then(|i| pages.get(i).copied());
                        if let Some(p) = to {
                            viewer.open(Target::page(src.clone(), p));
                        }
                    }>
                    {current.is_none().then(|| view! { <option value="" selected=true>"(before the first section)"</option> })}
                    {options}
                </select>
            </label>
        })
    }
}

/// "Table on pages 4–5": one button per part of a cited table that runs over several pages; the
/// shown page's part is marked current.
fn table_parts(viewer: Viewer, t: &Target) -> Option<impl IntoView> {
    if t.parts.len() < 2 {
        return None;
    }
    let (first, last) = (t.parts[0].page, t.parts[t.parts.len() - 1].page);
    let here = t.page;
    let buttons = t.parts.iter().map(|part| {
        let p = part.page;
        let current = p == here;
        let to = t.on_page(p);
        view! {
            <button class="button" aria-label=format!("Table part on page {p}") aria-current=current.then_some("page")
                disabled=current on:click=move |_| viewer.open(to.clone())>{format!("p. {p}")}</button>
        }
    }).collect_view();
    Some(view! {
        <p class="table-parts" id="table-parts" role="group" aria-label="Table parts">
            <span>{format!("The cited table runs over pages {first}–{last}: ")}</span>
            {buttons}
        </p>
    })
}

/// The page text with the cited passage marked. Text is inserted as text nodes, never as HTML, so
/// a PDF containing markup stays inert.
fn highlighted(text: &str, needle: Option<&str>) -> impl IntoView {
    let needle = needle.map(str::trim).filter(|n| n.len() >= 3);
    let pos = needle.and_then(|n| {
        let probe: String = n.chars().take(60).collect();
        text.find(probe.as_str()).map(|i| (i, (i + n.len()).min(text.len())))
    });
    match pos {
        Some((a, mut b)) => {
            while !text.is_char_boundary(b) {
                b -= 1;
            }
            view! { {text[..a].to_string()}<mark id="cited">{text[a..b].to_string()}</mark>{text[b..].to_string()} }.into_any()
        }
        None => view! { {text.to_string()} }.into_any(),
    }
}
