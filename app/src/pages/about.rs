use crate::route::Route;
use yew::prelude::*;

/// One of the four original reports, with where to read it.
struct Report {
    year: u16,
    title: &'static str,
    who: &'static str,
    what: &'static str,
    links: &'static [(&'static str, &'static str)],
}

/// Mailing-list links are lore.kernel.org message-id permalinks where the
/// message id is known, otherwise searches for the thread's subject or a
/// sentence of the message, never guessed message URLs.
const REPORTS: &[Report] = &[
    Report {
        year: 2005,
        title: "Process with many NPTL threads terminates slowly on core dump signal",
        who: "Michael Kerrisk, LKML, September 2005 (diagnosed by Oleg Nesterov)",
        what: "Twenty spinning threads take almost 14 seconds to die on SIGQUIT, even with core dumps disabled.",
        links: &[
            ("Michael Kerrisk's report", "https://lore.kernel.org/lkml/20206.1127391230@www22.gmx.net/"),
            ("Oleg Nesterov's diagnosis", "https://lore.kernel.org/lkml/434D48FA.FD0439AA@tv-sign.ru/"),
        ],
    },
    Report {
        year: 2025,
        title: "A sparse core dump that SIGKILL cannot stop",
        who: "Tavian Barnes' coredump patch (check dump_interrupted() when skipping sparse pages), LKML, January 2025, and Mateusz Guzik's reply",
        what: "Dumping a 1 TiB mapping with one touched page takes 30 seconds at full CPU, and SIGKILL cannot stop it.",
        links: &[
            (
                "Tavian Barnes' patch",
                "https://lore.kernel.org/all/?q=%22dump_user_range+supports+sparse+core+dumps%22",
            ),
            (
                "Mateusz Guzik's reply",
                "https://lore.kernel.org/all/?q=%22this+should+not+be+taking+anywhere+near+this+much+time%22",
            ),
        ],
    },
    Report {
        year: 2004,
        title: "Busy-wait delay in qmail 1.03 after upgrading to Linux 2.6",
        who: "Haakon Riiser, LKML, January 2004 (explained by Manfred Spraul)",
        what: "Writing one byte to a named pipe sometimes takes 100 to 300 ms on 2.6, never on 2.4.",
        links: &[
            ("Haakon Riiser's report", "https://lore.kernel.org/all/20040120004647.GA292@s.chello.no/"),
            ("Manfred Spraul's explanation", "https://lore.kernel.org/all/400D746D.7030409@colorfullife.com/"),
        ],
    },
    Report {
        year: 2019,
        title: "Cache ThreadGroups in PIDNamespace",
        who: "gVisor commit by Michael Pratt, April 2019",
        what: "Sleeping threads cost seconds of CPU because a 100 Hz ticker scans every task to find thread groups.",
        links: &[(
            "The commit on GitHub",
            "https://github.com/google/gvisor/commit/4968dd1341a04e93557bdd9f4b4b83eb508e026d",
        )],
    },
];

/// `#/about`: what slowpath is, where the cases come from, the licence.
pub fn about_page() -> Html {
    html! {
        <article class="prose" data-testid="about-page" aria-labelledby="about-title">
            <h1 id="about-title">{ "About slowpath" }</h1>
            <p class="lede">
                { "slowpath replays real reports of the Linux kernel (and one of gVisor) being \
                   unexpectedly slow, one step at a time, so that you can see where the time goes." }
            </p>
            <p>
                { "It is made for three kinds of people. A lecturer can put it on a projector and walk \
                   a room through a scheduler decision or a lock hand-off, pausing wherever a question \
                   comes up. A student at home can replay the same steps, change a parameter and watch \
                   the outcome move. An engineer can send a colleague a link to the exact moment that \
                   explains a bug." }
            </p>
            <h2>{ "How it works" }</h2>
            <p>
                { "Each case is a model written in Rust and compiled to WebAssembly, so it runs in \
                   your browser with no server. The engine is deterministic: the same parameters, \
                   variant and seed give the same steps on every machine, which is what makes a link \
                   to a moment possible." }
            </p>
            <p>
                { "The numbers are honest about where they come from. A simulated time is a count of \
                   operations (lock acquisitions, tree lookups, timeslices) multiplied by a \
                   per-operation cost that is cited from the original report or measured in it. Beside \
                   every simulated figure the case shows the figure the report measured, so you can \
                   judge the model yourself." }
            </p>
            <p>
                { "The code shown while stepping is our own simplified pseudocode, not the kernel's \
                   source; each function links to the real source at the version being modelled." }
            </p>
            <h2>{ "The reports" }</h2>
            <ul class="report-list" role="list">
                { for REPORTS.iter().map(|report| html! {
                    <li key={report.title}>
                        <h3>{ report.title }</h3>
                        <p class="report-who"><span class="badge">{ report.year }</span>{ " " }{ report.who }</p>
                        <p>{ report.what }</p>
                        <p class="report-links">
                            { for report.links.iter().map(|(label, url)| html! {
                                <a key={*url} href={*url}>{ *label }</a>
                            }) }
                        </p>
                    </li>
                }) }
            </ul>
            <h2>{ "Case notes" }</h2>
            <p>
                { "Each case has notes in plain text: what was reported, the mechanism, the variants \
                   and fixes, the model's choices and limits, and what the tests check." }
            </p>
            <ul class="case-notes" role="list" data-testid="case-notes">
                { for slowpath_engine::listed().map(|entry| {
                    let meta = entry.meta;
                    html! {
                        <li key={meta.id}>
                            <a href={format!("cases/{}.md", meta.id)}>{ meta.title }</a>
                            { format!(" ({}, {})", meta.system, meta.year) }
                        </li>
                    }
                }) }
            </ul>
            <h2 id="offline">{ "Offline" }</h2>
            <p>
                { "slowpath keeps what you open: a case opened once opens again without a network. \
                   To take every case to a room without Wi-Fi, keep them all now." }
            </p>
            // The boot script (static/boot.js) shows and runs this where a service worker
            // can keep the cases: its label gives the bytes the build counted.
            <div class="keep-offline" data-keep-offline="" hidden=true>
                <button type="button" class="button" data-testid="keep-offline">
                    { "Keep every case offline" }
                </button>
                <p role="status" aria-live="polite" data-testid="keep-offline-status"></p>
            </div>
            <h2>{ "Licence" }</h2>
            <p>
                { "slowpath is free software under the " }
                <a href="https://opensource.org/license/mit">{ "MIT licence" }</a>
                { ". The kernel and gVisor are other people's work under their own licences: slowpath \
                   links to their source and never copies it." }
            </p>
            <p><a href={Route::Landing.to_hash()}>{ "Back to the cases" }</a></p>
        </article>
    }
}
