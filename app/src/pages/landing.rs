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
            <section class="lab-intro" aria-labelledby="lab-intro-title">
                <h2 id="lab-intro-title">{ "Write your own: the Lab" }</h2>
                <p>
                    { "A few lines of workload (tasks that compute, sleep, take mutexes, spinlocks, \
                       rwsems and pipes) on a kernel you choose: the textbook's FIFO, SJF, STCF or \
                       round robin, Linux 2.4, 2.6's O(1) or today's EEVDF. Step through what that \
                       kernel's own rules decide, compare two kernels side by side, and share the \
                       workload as a link. Eight presets to start from, each with a question to \
                       predict." }
                </p>
                <p><a class="button" href={crate::route::Route::Case { id: crate::route::LAB_CASE.to_string(), query: String::new() }.to_hash()} data-testid="open-lab">{ "Open the Lab →" }</a></p>
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
