//! The landing card's sketch of the stage: rows of sleeping threads, each row's
//! leader marked, a scan sweeping across all of them, and the ticker's regular
//! wake-ups below. Decorative and light: no figure.

use yew::prelude::*;

pub fn picture() -> Html {
    let scanned_columns = 11;
    let threads = (0..5u16).flat_map(|row| {
        (0..18u16).map(move |column| {
            let class = match column {
                0 => "p-accent",
                c if c < scanned_columns => "p-visited",
                _ => "p-muted",
            };
            let cx = (6 + column * 6).to_string();
            let cy = (6 + row * 7).to_string();
            html! { <circle {class} {cx} {cy} r="1.7" /> }
        })
    });
    let ticks = (0..11u16).map(|tick| {
        html! { <rect class="p-warm" x={(6 + tick * 10).to_string()} y="50" width="4" height="9" rx="1" /> }
    });
    html! {
        <svg class="stage-picture" viewBox="0 0 120 64" aria-hidden="true" focusable="false">
            { for threads }
            <line class="p-cursor" x1={(3 + scanned_columns * 6).to_string()} y1="1" x2={(3 + scanned_columns * 6).to_string()} y2="40" />
            <line class="p-line" x1="4" y1="59.5" x2="116" y2="59.5" />
            { for ticks }
        </svg>
    }
}
