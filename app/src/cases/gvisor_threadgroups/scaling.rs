//! Threads against CPU time in ThreadGroupsAppend over the run's duration: the
//! model (this run's cache regime, and the band from all-hot to all-cold),
//! before and after the fix, beside the seed's measured points with their spread
//! (which lie outside the band, said in the engine's words), and one runsc kill's
//! pause, which the fix leaves as it was.

use slowpath_engine::cases::gvisor_threadgroups::SentryShape;
use slowpath_engine::run::format::duration as format_duration;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct ScalingProps {
    pub run: Rc<Run>,
}

impl PartialEq for ScalingProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
    }
}

#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &ScalingProps) -> Html {
    // The engine's chart, as "Save as SVG" writes it.
    let chart = use_memo(Rc::as_ptr(&props.run) as usize, {
        let run = props.run.clone();
        move |_| run.extras::<SentryShape>().map(|shape| Rc::new(shape.scaling_chart()))
    });
    let Some(shape) = props.run.extras::<SentryShape>() else { return html! {} };
    html! {
        <section class="gv-scaling" aria-label="Scaling">
            <h3>{ format!("CPU time in ThreadGroupsAppend over {} at {} Hz", format_duration(shape.duration_ns), 1_000_000_000 / shape.tick_ns.max(1)) }</h3>
            if let Some(chart) = (*chart).clone() {
                <crate::player::chart::ChartView {chart} testid="gv-scaling-chart" />
            }
            // Wider than a compare side: scrolls, so it must take the keyboard's focus.
            <div class="table-scroll" role="region" aria-label="Scaling figures, model and report" tabindex="0">
            <table class="gv-table">
                <thead><tr><th>{ "threads" }</th><th>{ "before (model)" }</th><th>{ "band: all hot – all cold" }</th><th>{ "reported before" }</th><th>{ "tgids (model)" }</th><th>{ "reported after" }</th><th>{ "one runsc kill: pause + unpause (both)" }</th></tr></thead>
                <tbody>
                    { for shape.scaling.iter().map(|p| {
                        let reported = shape.reported_before.iter().find(|r| r.0 == p.threads)
                            .map(|r| if r.1 == r.2 { format!("{} ms", group_digits(r.1)) } else { format!("{}–{} ms", group_digits(r.1), group_digits(r.2)) })
                            .unwrap_or_else(|| "—".into());
                        let after = if shape.reported_after.iter().any(|r| r.0 == p.threads) { "0 ms" } else { "—" };
                        html! { <tr>
                            <td>{ group_digits(p.threads) }</td>
                            <td>{ format_duration(p.before_ns) }</td>
                            <td>{ format!("{} – {}", format_duration(p.before_hot_ns), format_duration(p.before_cold_ns)) }</td>
                            <td>{ reported }</td>
                            <td>{ format_duration(p.tgids_ns) }</td>
                            <td>{ after }</td>
                            <td>{ format_duration(p.pause_ns) }</td>
                        </tr> }
                    }) }
                </tbody>
            </table>
            </div>
            <p class="gv-note" data-testid="gv-reported-note">{ shape.reported_note() }</p>
            <p class="gv-note" data-testid="gv-closing-note">{ shape.closing_note() }</p>
        </section>
    }
}
