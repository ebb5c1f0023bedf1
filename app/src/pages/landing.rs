use crate::components::case_list;
use yew::prelude::*;

/// `#/`: the cases first, so that the first screen shows them, then what slowpath is.
pub fn landing_page() -> Html {
    html! {
        <>
            <section class="hero" aria-labelledby="landing-title">
                <h1 id="landing-title" class="hero-title">{ "slowpath" }</h1>
                <p class="hero-tagline">{ "Step through the Linux kernel's slowest paths." }</p>
            </section>
            <section class="cases" aria-labelledby="cases-title">
                <h2 id="cases-title">{ "Cases" }</h2>
                { case_list() }
            </section>
            <section class="about-slowpath" aria-labelledby="about-slowpath-title">
                <h2 id="about-slowpath-title">{ "What slowpath is" }</h2>
                <p class="hero-pitch">
                    { "Real reports of a kernel taking seconds where microseconds were expected, \
                       replayed one step at a time: which task runs, which lock it holds, which line \
                       of (simplified) kernel code it is on, and why. The simulation is deterministic, \
                       every figure comes from a cost model (operations counted × a cited cost per \
                       operation), and any moment can be shared as a link." }
                </p>
                <ul class="pillars" role="list">
                    <li><strong>{ "Deterministic" }</strong>{ " — the same link shows the same step, every time." }</li>
                    <li><strong>{ "Costed" }</strong>{ " — each figure is counted, never typed in." }</li>
                    <li><strong>{ "Shareable" }</strong>{ " — point a class or a colleague at one moment." }</li>
                </ul>
            </section>
        </>
    }
}
