//! A 2-D map of every sentence (PCA of the embeddings, computed in the
//! worker): points coloured by article, the centroid, the summary's
//! sentences numbered.

use super::state::{AppState, Outcome};
use crate::app::present::{article_label, shorten, title_of};
use leptos::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

const WIDTH: f32 = 640.0;
const HEIGHT: f32 = 420.0;
const MARGIN: f32 = 24.0;

#[component]
pub fn ClusterMap() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || match state.result.get() {
        Some(outcome) if !outcome.result.projection.points.is_empty() => view! { <MapView outcome=outcome/> }.into_any(),
        _ => view! { <p class="empty-state">"After summarizing, this tab maps every sentence by meaning."</p> }.into_any(),
    }
}

/// Maps projection coordinates into the SVG box, keeping the aspect ratio.
struct Frame {
    min: [f32; 2],
    scale: f32,
    offset: [f32; 2],
}

impl Frame {
    fn around(points: &[[f32; 2]]) -> Self {
        let mut min = [f32::INFINITY; 2];
        let mut max = [f32::NEG_INFINITY; 2];
        for p in points {
            for axis in 0..2 {
                min[axis] = min[axis].min(p[axis]);
                max[axis] = max[axis].max(p[axis]);
            }
        }
        let span = [(max[0] - min[0]).max(1e-6), (max[1] - min[1]).max(1e-6)];
        let scale = ((WIDTH - 2.0 * MARGIN) / span[0]).min((HEIGHT - 2.0 * MARGIN) / span[1]);
        let offset = [(WIDTH - span[0] * scale) / 2.0, (HEIGHT - span[1] * scale) / 2.0];
        Self { min, scale, offset }
    }

    /// SVG coordinates; y grows downwards on screen.
    fn place(&self, p: [f32; 2]) -> (f32, f32) {
        let x = self.offset[0] + (p[0] - self.min[0]) * self.scale;
        let y = HEIGHT - (self.offset[1] + (p[1] - self.min[1]) * self.scale);
        (x, y)
    }
}

#[component]
fn MapView(outcome: Arc<Outcome>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let result = &outcome.result;
    let projection = &result.projection;
    let mut all = projection.points.clone();
    all.push(projection.centroid);
    all.extend(projection.query.iter().chain(&projection.unsteered_centroid));
    let frame = Arc::new(Frame::around(&all));
    let candidates: HashSet<usize> = result.summary.candidates.iter().copied().collect();
    let points = projection
        .points
        .iter()
        .enumerate()
        .map(|(id, &p)| {
            let (x, y) = frame.place(p);
            let s = &result.sentences[id];
            let choice = if result.summary.pinned.contains(&id) {
                " pinned"
            } else if result.summary.struck.contains(&id) {
                " struck"
            } else {
                ""
            };
            let class = format!("point doc-{}{}{choice}", s.doc % 10, if candidates.contains(&id) { "" } else { " excluded" });
            // Sentences outside the summary languages still shape the centroid.
            let context = if outcome.settings.accepts_language(&s.lang) { String::new() } else { format!(" (context: {})", crate::segment::language_name(&s.lang)) };
            let label = format!("{}·{}: {}{context}", article_label(s.doc), s.index + 1, shorten(&s.text, 120));
            view! {
                <circle class=class cx=format!("{x:.1}") cy=format!("{y:.1}") r="4">
                    <title>{label}</title>
                </circle>
            }
        })
        .collect_view();
    let picked = {
        let (outcome, frame) = (outcome.clone(), frame.clone());
        move || {
            let shown = state.shown.get().map(|s| s.sentences).unwrap_or_default();
            shown
                .into_iter()
                .enumerate()
                .map(|(n, id)| {
                    let (x, y) = frame.place(outcome.result.projection.points[id]);
                    let doc = outcome.result.sentences[id].doc;
                    view! {
                        <g class=format!("picked doc-{}", doc % 10)>
                            <circle cx=format!("{x:.1}") cy=format!("{y:.1}") r="9"></circle>
                            <text x=format!("{x:.1}") y=format!("{:.1}", y + 3.5) text-anchor="middle">{(n + 1).to_string()}</text>
                        </g>
                    }
                })
                .collect_view()
        }
    };
    let (cx, cy) = frame.place(projection.centroid);
    let steering = result.summary.centroid.steering.as_ref().zip(projection.query.zip(projection.unsteered_centroid));
    let steering_caption = steering.map(|(s, _)| {
        format!(" The question (diamond) moved the centroid by {:.0}° (weight {:.2}) from where the articles alone put it (faint cross).", s.degrees_moved(), s.weight)
    });
    let steering_marks = steering.map(|(_, (query, before))| {
        let ((qx, qy), (bx, by)) = (frame.place(query), frame.place(before));
        view! {
            <g class="steering" data-testid="map-query">
                <path class="unsteered" d=format!("M{:.1} {:.1}l8 8m0 -8l-8 8", bx - 4.0, by - 4.0)></path>
                <line x1=format!("{bx:.1}") y1=format!("{by:.1}") x2=format!("{cx:.1}") y2=format!("{cy:.1}")></line>
                <path class="query" d=format!("M{qx:.1} {:.1}l7 7l-7 7l-7 -7z", qy - 7.0)><title>"The question"</title></path>
                <text x=format!("{:.1}", qx + 10.0) y=format!("{:.1}", qy + 4.0)>"question"</text>
            </g>
        }
    });
    let legend = outcome
        .documents
        .iter()
        .enumerate()
        .map(|(doc, d)| {
            view! {
                <li class=format!("doc-{}", doc % 10)>
                    <span class="swatch" aria-hidden="true"></span>
                    {format!("{} {}", article_label(doc), shorten(&title_of(d), 48))}
                </li>
            }
        })
        .collect_view();
    let explained = format!(
        "Horizontal axis: {:.0}% of the variation between sentences; vertical: {:.0}%. Nearby points say similar things.",
        projection.explained[0] * 100.0,
        projection.explained[1] * 100.0
    );
    let description = format!(
        "Map of {} sentences from {} articles; numbered circles are the summary's sentences, the cross is the centroid.",
        result.sentences.len(),
        outcome.documents.len()
    );
    view! {
        <figure class="map">
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=description>
                <g class="points">{points}</g>
                <g class="centroid">
                    <path d=format!("M{:.1} {:.1}l12 12m0 -12l-12 12", cx - 6.0, cy - 6.0)></path>
                    <text x=format!("{:.1}", cx + 10.0) y=format!("{:.1}", cy - 8.0)>"centroid"</text>
                </g>
                {steering_marks}
                <g class="picked-layer">{picked}</g>
            </svg>
            <figcaption>
                <ul class="legend-list">{legend}</ul>
                <p class="hint">{explained}" Faded points were not candidates."<span data-testid="map-steering">{steering_caption}</span></p>
            </figcaption>
        </figure>
    }
}
