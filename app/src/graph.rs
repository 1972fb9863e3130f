//! The ledger graph, drawn from core's deterministic layout (`clair_core::view::layout`): shape and
//! colour by node kind, line style by relation, each claim's verdict and HRI on its node. Drag to
//! pan, wheel or buttons to zoom; every node is focusable (Tab) and opens with Enter or a click —
//! a claim opens the claim panel, evidence and source pages open the page viewer.

use crate::viewer::{Target, Viewer};
use clair_core::export::RunExport;
use clair_core::view::layout::{layout, GraphLayout, LaidNode};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Clone, Copy, PartialEq)]
struct View {
    tx: f64,
    ty: f64,
    k: f64,
}

#[component]
pub fn LedgerGraph(run: RwSignal<Option<RunExport>>, selected: RwSignal<Option<String>>, viewer: Viewer) -> impl IntoView {
    let graph = Memo::new(move |_| run.with(|r| r.as_ref().map(layout)));
    let view_t = RwSignal::new(View { tx: 0.0, ty: 0.0, k: 1.0 });
    let frame: NodeRef<leptos::html::Div> = NodeRef::new();
    // Drag state: where the pointer went down, and whether it moved enough to be a pan (a click
    // that ends a pan must not open a node).
    let drag: StoredValue<Option<(f64, f64, View)>> = StoredValue::new(None);
    let moved = StoredValue::new(false);

    let fit = move || {
        let (Some(g), Some(el)) = (graph.get_untracked(), frame.get_untracked()) else { return };
        let (w, h) = (el.client_width().max(200) as f64, el.client_height().max(200) as f64);
        let k = (w / g.width).min(h / g.height).clamp(0.15, 1.0);
        view_t.set(View { tx: (w - g.width * k) / 2.0, ty: (h - g.height * k).max(0.0) / 2.0, k });
    };
    // Fit whenever a new run is shown.
    Effect::new(move |_| {
        if graph.with(|g| g.is_some()) {
            request_animation_frame(fit);
        }
    });
    // The graph shares the right pane with the page: shown again, it refits to its frame (a run
    // that arrived while it was hidden was fitted to no size).
    let pane = crate::state::use_app().pane;
    Effect::new(move |_| {
        if pane.get() == crate::state::Pane::Graph {
            request_animation_frame(fit);
        }
    });
    // A new window size (a phone turned, a window resized) refits the graph to its frame. One
    // listener for the component's life, removed with it.
    let on_resize = window_event_listener(leptos::ev::resize, move |_| fit());
    on_cleanup(move || on_resize.remove());
    // Wheel zoom around the pointer. Attached by hand as non-passive so it can stop the page from
    // scrolling (a delegated listener would be passive); the frame is mounted once, and the
    // listener is removed when the effect is disposed.
    Effect::new(move |_| {
        let Some(el) = frame.get() else { return };
        let target = el.clone();
        let on_wheel = Closure::<dyn FnMut(web_sys::WheelEvent)>::new(move |ev: web_sys::WheelEvent| {
            ev.prevent_default();
            let r = target.get_bounding_client_rect();
            let (px, py) = (ev.client_x() as f64 - r.left(), ev.client_y() as f64 - r.top());
            let factor = if ev.delta_y() < 0.0 { 1.15 } else { 1.0 / 1.15 };
            view_t.update(|v| zoom_at(v, factor, px, py));
        });
        let opts = web_sys::AddEventListenerOptions::new();
        opts.set_passive(false);
        let _ = el.add_event_listener_with_callback_and_add_event_listener_options("wheel", on_wheel.as_ref().unchecked_ref(), &opts);
        let held = send_wrapper::SendWrapper::new((el, on_wheel));
        on_cleanup(move || {
            let (el, on_wheel) = held.take();
            let _ = el.remove_event_listener_with_callback("wheel", on_wheel.as_ref().unchecked_ref());
        });
    });

    let zoom_button = move |factor: f64| {
        let (w, h) = frame.get_untracked().map(|el| (el.client_width() as f64, el.client_height() as f64)).unwrap_or((600.0, 400.0));
        view_t.update(|v| zoom_at(v, factor, w / 2.0, h / 2.0));
    };

    let activate = move |n: &LaidNode| {
        if n.kind == "claim" {
            selected.set(n.claim_id.clone());
            if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("claim-details")) {
                el.scroll_into_view();
            }
        } else if n.kind == "source" {
            if let (Some(s), Some(p)) = (n.source.clone(), n.page) {
                viewer.open(Target::page(s, p));
            }
        } else if let Some(node) = run.with_untracked(|r| r.as_ref().and_then(|r| r.ledger.nodes.iter().find(|x| x.node_id == n.id).cloned())) {
            if node.source_page().is_some() {
                crate::claims::open_node(viewer, &node);
            } else {
                selected.set(Some(node.claim_id.clone()));
            }
        }
    };

    view! {
        <section id="ledger-graph" class="panel graph-panel" aria-label="Ledger graph">
            <h2>"Ledger graph"</h2>
            {move || graph.get().is_none().then(|| view! { <p class="hint">"Ask a question or import a run to see its ledger: claims, the evidence behind them, and the pages it came from."</p> })}
            <div class="graph-tools" role="toolbar" aria-label="Graph tools" hidden=move || graph.with(|g| g.is_none())>
                <button class="button" aria-label="Zoom in" on:click=move |_| zoom_button(1.25)>"+"</button>
                <button class="button" aria-label="Zoom out" on:click=move |_| zoom_button(0.8)>"−"</button>
                <button class="button" aria-label="Fit graph" on:click=move |_| fit()>"Fit"</button>
                <span class="muted">"Drag to pan, wheel to zoom, Tab to a node and Enter to open it."</span>
            </div>
            <div class="graph-frame" node_ref=frame hidden=move || graph.with(|g| g.is_none())
                on:pointerdown=move |ev| {
                    if ev.button() != 0 { return }
                    moved.set_value(false);
                    drag.set_value(Some((ev.client_x() as f64, ev.client_y() as f64, view_t.get_untracked())));
                }
                on:pointermove=move |ev| {
                    let Some((x0, y0, v0)) = drag.get_value() else { return };
                    let (dx, dy) = (ev.client_x() as f64 - x0, ev.client_y() as f64 - y0);
                    if dx.abs() + dy.abs() > 4.0 { moved.set_value(true); }
                    if moved.get_value() { view_t.set(View { tx: v0.tx + dx, ty: v0.ty + dy, k: v0.k }); }
                }
                on:pointerup=move |_| drag.set_value(None)
                on:pointerleave=move |_| drag.set_value(None)
            >
                <svg class="graph-svg" width="100%" height="100%">
                    <g transform=move || { let v = view_t.get(); format!("translate({:.1},{:.1}) scale({:.4})", v.tx, v.ty, v.k) }>
                        {move || graph.get().map(|g| draw(g, selected, activate, moved))}
                    </g>
                </svg>
            </div>
            <ul class="legend" hidden=move || graph.with(|g| g.is_none())>
                <li><span class="key n-claim"></span>"claim (colour = verdict)"</li>
                <li><span class="key n-text_span"></span>"text passage"</li>
                <li><span class="key n-table_cell"></span>"table cell"</li>
                <li><span class="key n-chart_region"></span>"chart region"</li>
                <li><span class="key n-derived_metric"></span>"derived metric"</li>
                <li><span class="key n-constraint_check"></span>"constraint check"</li>
                <li><span class="key n-source"></span>"source page"</li>
                <li><span class="line e-SUPPORTS"></span>"supports"</li>
                <li><span class="line e-CONTRADICTS"></span>"contradicts"</li>
                <li><span class="line e-VIOLATES_CONSTRAINT"></span>"violates constraint"</li>
                <li><span class="line e-SAME_AS"></span>"same as"</li>
                <li><span class="line e-DERIVED_FROM"></span>"derived from"</li>
            </ul>
        </section>
    }
}

fn zoom_at(v: &mut View, factor: f64, px: f64, py: f64) {
    let k = (v.k * factor).clamp(0.1, 4.0);
    let f = k / v.k;
    v.tx = px - (px - v.tx) * f;
    v.ty = py - (py - v.ty) * f;
    v.k = k;
}

fn draw(g: GraphLayout, selected: RwSignal<Option<String>>, activate: impl Fn(&LaidNode) + Copy + 'static, moved: StoredValue<bool>) -> impl IntoView {
    let edges = g.edges.into_iter().map(|e| {
        let title = format!("{} → {}: {}{}", e.from, e.to, e.relation, e.score.map(|s| format!(" ({s:.2})")).unwrap_or_default());
        view! { <path class=format!("e e-{}", e.relation) d=e.d><title>{title}</title></path> }
    }).collect_view();
    let nodes = g.nodes.into_iter().map(|n| {
        let mut cls = format!("node n-{}", n.kind);
        if let Some(v) = &n.verdict {
            cls.push_str(&format!(" v-{v}"));
        }
        let id = n.id.clone();
        let claim = n.claim_id.clone();
        let is_claim = n.kind == "claim";
        let lines = n.lines.iter().enumerate().map(|(i, l)| {
            let (x, y) = (n.x + 12.0, n.y + 18.0 + 16.0 * i as f64);
            view! { <text x=format!("{x:.1}") y=format!("{y:.1}") class=if i == 0 { "l1" } else { "l2" }>{l.clone()}</text> }
        }).collect_view();
        let (n1, n2) = (n.clone(), n.clone());
        view! {
            <g class=cls tabindex="0" role="button" data-id=id data-kind=n.kind.clone() aria-label=clair_core::view::truncate(&n.title, 140)
                class:selected=move || is_claim && selected.get() == claim
                on:click=move |_| if !moved.get_value() { activate(&n1) }
                on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); activate(&n2) }
            >
                <title>{n.title.clone()}</title>
                <path class="shape" d=n.shape.clone()></path>
                {lines}
            </g>
        }
    }).collect_view();
    view! { <g class="edges">{edges}</g><g class="nodes">{nodes}</g> }
}
