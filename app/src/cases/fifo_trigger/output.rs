//! The writer's output: its last lines as the run reaches them, and what the
//! reporter's `grep -v '= 0'` shows of it beside his own thirteen lines, with the
//! unbroken run of slow writes that the filter hides. Every figure comes from the
//! run (`FifoCase`: the writes, the filtered lines, the bursts, the slice).

use slowpath_engine::cases::fifo_trigger::grep::dt_line;
use slowpath_engine::cases::fifo_trigger::FifoCase;
use slowpath_engine::kernel::sched::o1::MAX_BONUS;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use std::rc::Rc;
use yew::prelude::*;

/// The writer's output shows this many lines, ending at the current time.
const OUTPUT_LINES: usize = 12;

/// The writer's stderr: the last lines printed up to now.
pub fn output(case: &FifoCase, printed: usize) -> Html {
    let from = printed.saturating_sub(OUTPUT_LINES);
    html! {
        <figure class="fifo-output" data-testid="writer-output">
            <figcaption>{ format!("The writer's output (simulated): {} line{} so far", group_digits(printed as u64), if printed == 1 { "" } else { "s" }) }</figcaption>
            <ol class="fifo-terminal" start={(from + 1).to_string()} aria-label="Last lines printed by the writer">
                if printed == 0 { <li class="muted fifo-empty">{ "(nothing yet)" }</li> }
                { for (from..printed).map(|k| {
                    let dt = case.write_dt_ns[k];
                    html! {
                        <li class={classes!((dt >= case.slow_ns).then_some("slow"))} key={k}>
                            <span class="fifo-write-number" aria-hidden="true">{ format!("#{}", k + 1) }</span>
                            { dt_line(dt) }
                        </li>
                    }
                }) }
            </ol>
        </figure>
    }
}

#[derive(Properties, Clone)]
pub struct GrepProps {
    pub case: Rc<FifoCase>,
    /// Lines the writer has printed at the current position.
    pub printed: usize,
}

impl PartialEq for GrepProps {
    // The case is static for a run: the same Rc is the same data.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.case, &other.case) && self.printed == other.printed
    }
}

/// The reporter's lines beside this run's through the same filter, with the fast
/// lines it hid on demand, and the unbroken run it cannot show.
#[function_component(ReporterGrep)]
pub fn reporter_grep(props: &GrepProps) -> Html {
    let show_hidden = use_state(|| false);
    let case = &props.case;
    if case.kernel == "2.4.24" {
        return html! {
            <figure class="fifo-output reported" data-testid="reported-output">
                <figcaption>{ "Reported on 2.4.24" }</figcaption>
                <p class="fifo-model-note">
                    { "\"Output lines from the writer are scrolling past in a constant high pace, and the numbers \
                       are always fractions of a millisecond.\" The reporter printed to his terminal; this model \
                       has only the two programs, and does not reproduce it (see the notes at the end of the stage)." }
                </p>
            </figure>
        };
    }
    let on_toggle = {
        let show_hidden = show_hidden.clone();
        Callback::from(move |_: MouseEvent| show_hidden.set(!*show_hidden))
    };
    let rows = case.reported_dt_ms.len().max(case.grep_lines.len());
    let run_of = |following: usize| 1 + following as u64;
    let first_run = case.bursts.first().map(|b| run_of(b.following.len()));
    let longest = case.bursts.iter().map(|b| run_of(b.following.len())).max();
    let slice_ns = case.slice_ns.first().copied().unwrap_or(0);
    html! {
        <figure class="fifo-output reported" data-testid="reported-output">
            <figcaption>
                { "What the reporter's grep shows. He ran " }<code>{ "./a.out 2>&1 | grep -v '= 0'" }</code>
                { ", which hides every line under 1 ms; this run's lines through the same filter are beside his." }
            </figcaption>
            <div class="table-scroll" role="region" aria-label="Reported lines and this run's lines through grep" tabindex="0">
            <table class="fifo-grep" data-testid="grep-table">
                <thead><tr>
                    <th scope="col">{ "line" }</th>
                    <th scope="col">{ "reported on 2.6.1" }</th>
                    <th scope="col">{ "this run, through grep" }</th>
                </tr></thead>
                <tbody>
                    { for (0..rows).map(|k| {
                        let ours = case.grep_lines.get(k);
                        let hidden = ours.map_or(0, |line| line.hidden_before);
                        let pending = ours.is_some_and(|line| line.write as usize > props.printed);
                        html! {
                            <>
                                if *show_hidden && hidden > 0 {
                                    <tr class="fifo-grep-hidden" data-testid="grep-hidden">
                                        <td></td><td></td>
                                        <td>{ format!("… {} fast line{} hidden …", group_digits(hidden), if hidden == 1 { "" } else { "s" }) }</td>
                                    </tr>
                                }
                                <tr>
                                    <th scope="row">{ k + 1 }</th>
                                    <td class="slow">{ case.reported_dt_ms.get(k).map(|ms| format!("dt = {ms} ms")).unwrap_or_default() }</td>
                                    <td class={classes!("slow", pending.then_some("pending"))}
                                        title={pending.then_some("not printed yet at this point of the run")}>
                                        { ours.map(|line| format!("{} (write #{})", dt_line(line.dt_ns), group_digits(line.write))).unwrap_or_else(|| "—".into()) }
                                    </td>
                                </tr>
                            </>
                        }
                    }) }
                </tbody>
            </table>
            </div>
            <button type="button" class="fifo-compare-toggle" data-testid="grep-toggle"
                aria-pressed={(*show_hidden).to_string()} onclick={on_toggle}>
                { if *show_hidden { "Hide the fast lines again" } else { "Show where grep hid fast lines" } }
            </button>
            <p class="fifo-model-note" data-testid="unbroken-note">
                <strong>{ "Unbroken runs. " }</strong>
                { match (first_run, longest) {
                    (Some(first), Some(longest)) => format!(
                        "In this run the first burst is {} slow write{} in a row, and the longest run is {}. ",
                        group_digits(first), if first == 1 { "" } else { "s" }, group_digits(longest)),
                    _ => "This run has no slow write. ".to_string(),
                } }
                if case.kernel == super::eevdf::TODAY_KERNEL {
                    { "On today's kernel a slow write lasts the listener's EEVDF turn, up to the tick that finds its \
                       slice used, not a 100 ms timeslice; and EEVDF has no sleep average: who preempts whom follows \
                       from the lag each task has kept and its slice protection." }
                } else {
                    { format!("The reported lines look like one burst, but grep hides any fast lines between them \
                        (in this run, hundreds). At equal nice, 2.6.1 cannot give twelve unbroken slow writes: each one-slice write costs \
                        the listener a whole slice of run time ({}, one bonus step of sleep_avg: {} / {MAX_BONUS}), and \
                        its select() sleeps, microseconds each, earn almost nothing back; once its priority is no better \
                        than the writer's, its wakeup no longer preempts the writer, and the fast lines resume.",
                        format::duration(slice_ns), format::duration(case.max_sleep_avg_ns)) }
                }
            </p>
        </figure>
    }
}
