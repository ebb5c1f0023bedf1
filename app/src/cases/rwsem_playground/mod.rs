//! The rwsem playground has no stage of its own (the generic panels draw its lock);
//! it has a card: a sketch of a reader-writer semaphore.

use super::CaseCard;
use yew::prelude::*;

pub const CARD: CaseCard = CaseCard { id: "rwsem-playground", picture, why_figures_differ: None };

/// Readers sharing the lock, a writer waiting first in its queue, a reader behind it
/// (held back by the writer). Decorative and light: no figure.
fn picture() -> Html {
    html! {
        <svg class="stage-picture" viewBox="0 0 120 64" aria-hidden="true" focusable="false">
            <rect class="p-frame" x="10" y="8" width="48" height="48" rx="6" />
            <circle class="p-read" cx="24" cy="24" r="6" />
            <circle class="p-read" cx="44" cy="24" r="6" />
            <circle class="p-read" cx="34" cy="42" r="6" />
            <line class="p-line" x1="58" y1="32" x2="70" y2="32" />
            <rect class="p-write" x="72" y="24" width="16" height="16" rx="2" />
            <rect class="p-write-inner" x="75" y="27" width="10" height="10" rx="1" />
            <circle class="p-read" cx="104" cy="32" r="6" />
        </svg>
    }
}
