//! `example-case`: the smallest case, for the tests only (the `example-case`
//! feature, which the engine's own tests turn on). One task counts to a number and
//! exits. It exists to show that registering a case is one line in `registry.rs`:
//! every generic test (determinism and its recorded hash, tours, the wire, the
//! exports, the budget's property test) then runs on it with no other edit.

use crate::case::{CaseMeta, Golden, VariantGroup, VariantSpec};
use crate::run::params::{ParamKind, ParamSpec};
use crate::tour::{Ask, At, Question, Stop, Tour};

#[cfg(feature = "example-case")]
mod model;
#[cfg(feature = "example-case")]
pub use model::Example;

const PARAMS: &[ParamSpec] = &[ParamSpec {
    name: "count",
    label: "Count",
    kind: ParamKind::Count { min: 1, max: 1_000_000, default: 10 },
    description: "How far the task counts before it exits.",
}];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        id: "plain",
        label: "Plain",
        description: "The only variant: count, then exit.",
        group: VariantGroup::AsReported,
    },
    VariantSpec {
        id: "halved",
        label: "Halved",
        description:
            "Each count step costs half as long: a second run for compare mode to set beside the first.",
        group: VariantGroup::WhatIf,
    },
];

static TOUR: Tour = Tour {
    stops: &[
        Stop {
            title: "One task counts",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Start,
            text: &["One task runs alone on one CPU.", "It counts to {m:counted}, one step each."],
            question: Some(Question {
                prompt: "How many steps does it count?",
                ask: Ask::Magnitude { metric: "counted", powers: &[-1, 1] },
                explain: "It counts {m:counted} steps.",
            }),
        },
        Stop {
            title: "It exits",
            set: &[],
            variant: None,
            seed: 1,
            at: At::Chapter("the task exits"),
            text: &["The count is done.", "The task exits, and the run ends."],
            question: None,
        },
    ],
};

pub static META: CaseMeta = CaseMeta {
    id: "example-case",
    title: "An example case (tests only)",
    year: 2026,
    system: "none",
    summary: "One task counts and exits: the smallest case the generic tests run on.",
    sources: &[],
    params: PARAMS,
    variants: VARIANTS,
    reported: &[],
    headline_metric: "counted",
    headline_label: "steps counted",
    tour: &TOUR,
    today: None,
    golden: Some(Golden { variant: "plain", seed: 1, trace_hash: "a84dd8df86d0ca78" }),
};
