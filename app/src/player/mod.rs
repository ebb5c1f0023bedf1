//! The player: one reducer (`model.rs`), the state in the URL (`url.rs`), the
//! transport, panels and timeline, keyboard shortcuts and the playback loop.
//! Generic: it knows no case; the page hands it the case and its stage (`stage.rs`).

pub mod canvas;
pub mod chart;
pub mod compare;
mod compare_view;
mod controls;
pub mod export;
mod fit;
mod hooks;
mod jump;
pub mod link;
pub mod loader;
pub mod model;
pub mod panels;
mod screens;
mod scrub;
pub mod stage;
pub mod timeline;
pub mod today;
pub mod url;
pub mod viewport;
mod world_stage;

use model::{Action, Player, SPEEDS};
use screens::{case_page_screen, embedded_screen, presenter_screen, Links, Screen};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::CaseMeta;
use stage::{CaseUi, StageContext};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The parts below the first screen, mounted one per frame: the figures, the case's
/// charts, the timeline, then the export and the parameters.
const DETAIL_PARTS: u8 = 4;

#[derive(Properties, Clone)]
pub struct PlayerProps {
    pub meta: &'static CaseMeta,
    /// The case, handed in by the page (the player looks no case up); None only
    /// with a `preset`.
    #[prop_or_default]
    pub case: Option<&'static dyn slowpath_engine::Case>,
    /// The case's own stage, handed in by the page (`crate::cases::ui_for`); None:
    /// the generic panels draw it.
    #[prop_or_default]
    pub case_ui: Option<&'static CaseUi>,
    /// The link the page was opened with, parsed once by the page.
    pub link: Rc<link::OpenedLink>,
    /// Set for synthetic load runs (the perf route): opens this run instead.
    #[prop_or_default]
    pub preset: Option<Rc<model::Preset>>,
    /// The link's run, made by the engine's worker (`loader::PlayerLoader`);
    /// None: made here.
    #[prop_or_default]
    pub run: Option<Rc<slowpath_engine::Run>>,
    /// A page that owns its link (a tour stop, `#/case/<id>/tour/<n>`) keeps this hash
    /// in the address bar instead of the player's state.
    #[prop_or_default]
    pub address: Option<AttrValue>,
    /// Told the position after every change (a tour moves on when play reaches its
    /// next stop). Fixed for the player's life: not compared.
    #[prop_or_default]
    pub on_position: Option<Callback<u64>>,
    /// A page's own panel in the words' column, under the transport (a tour stop's),
    /// so that it takes no height from the stage.
    #[prop_or_default]
    pub aside: Option<Html>,
}

impl PartialEq for PlayerProps {
    fn eq(&self, other: &Self) -> bool {
        self.meta.id == other.meta.id
            && self.link == other.link
            && self.address == other.address
            && self.aside == other.aside
    }
}

#[function_component(PlayerView)]
pub fn player_view(props: &PlayerProps) -> Html {
    let meta = props.meta;
    let player = {
        let link = props.link.clone();
        let preset = props.preset.clone();
        let run = props.run.clone();
        let (case, case_ui) = (props.case, props.case_ui);
        use_reducer(move || open_player(meta, case, case_ui, &link, preset, run))
    };
    // A changed parameter, variant or seed: the new run comes from the worker.
    let (making, making_target_ns, cancel_making) = loader::use_wanted_run(&player);
    // Compare mode's second run, queued behind the first.
    let (making_other, other_target_ns, cancel_other) = loader::use_wanted_compare(&player);
    let progress = html! {
        <>
            { loader::run_progress(&making, making_target_ns, &cancel_making) }
            { loader::run_progress(&making_other, other_target_ns, &cancel_other) }
        </>
    };

    hooks::use_state_in_url(
        &player,
        props.preset.is_some(),
        props.address.clone(),
        props.on_position.clone(),
    );
    let pointer_idle = hooks::use_pointer_idle(player.query.present);

    // The presenter view's QR code, encoded once per link, and held still while
    // playing (a code that changes every frame cannot be scanned, nor is it worth
    // encoding every frame): (link, SVG).
    let qr_cache: Rc<RefCell<(String, Option<String>)>> = use_mut_ref(|| (String::new(), None));

    // What sits below the first screen (figures, charts, timeline, parameters) is
    // mounted once the reader goes there, one part per frame: nobody sees it yet.
    let details_area = use_node_ref();
    let details_shown = crate::components::use_parts_shown_on_approach(
        DETAIL_PARTS,
        &crate::components::GOING_BELOW,
        Some(details_area.clone()),
    );
    // The case page's "About" waits for the details: it is below them.
    use_effect_with(details_shown, |&shown| {
        if shown == DETAIL_PARTS {
            crate::components::announce(crate::components::DETAILS_SHOWN_EVENT);
        }
    });

    // The first screen ends above the window's bottom at every step (`fit`).
    let stage_area = use_node_ref();
    fit::use_fit_to_window(stage_area.clone(), player.playing);

    hooks::use_shortcuts(player.dispatcher());
    hooks::use_playback(&player, player.dispatcher());

    let dispatch = |action: Action| {
        let dispatcher = player.dispatcher();
        Callback::from(move |_| dispatcher.dispatch(action.clone()))
    };
    let on_action = {
        let dispatcher = player.dispatcher();
        Callback::from(move |action: Action| dispatcher.dispatch(action))
    };
    let on_seek_time = {
        let dispatcher = player.dispatcher();
        Callback::from(move |at_ns: u64| dispatcher.dispatch(Action::SeekTime(at_ns)))
    };
    let started = hooks::now_ms();
    let view = Rc::new(player.run.view(player.position));
    record_engine_ms(hooks::now_ms() - started);
    // The case's own stage, as the page handed it; the generic panels whatever it is.
    let case_ui = props.case_ui;
    let context = StageContext {
        meta,
        run: player.run.clone(),
        view: view.clone(),
        on_seek_time: on_seek_time.clone(),
    };
    // Compare mode: the second side, drawn by the same slots (`compare_view`).
    let second = compare_view::second_context(&player, &on_seek_time);
    let labels = compare_view::labels(&player, case_ui);
    let second_narration = compare_view::second_narration(&player, second.as_ref(), labels.as_ref());
    let screen = Screen {
        meta,
        player: Rc::new((*player).clone()),
        address: props.address.clone(),
        aside: props.aside.clone().unwrap_or_default(),
        touring: props.aside.is_some(),
        links: Links::of(meta, &player.query),
        view,
        case_ui,
        context,
        second,
        labels,
        second_narration,
        progress,
        on_action,
        on_seek_time,
        close_help: dispatch(Action::CloseHelp),
        dismiss_notices: dispatch(Action::DismissNotices),
        stage_area,
        details_area,
    };
    if player.query.present {
        presenter_screen(&screen, &qr_cache, pointer_idle)
    } else if player.query.embed {
        embedded_screen(&screen)
    } else {
        case_page_screen(&screen, details_shown)
    }
}

/// The player as a link opens it: a preset's synthetic run, the run the worker made,
/// or one made here, at the case's own pace.
fn open_player(
    meta: &'static CaseMeta,
    case: Option<&'static dyn slowpath_engine::Case>,
    case_ui: Option<&'static CaseUi>,
    link: &link::OpenedLink,
    preset: Option<Rc<model::Preset>>,
    run: Option<Rc<slowpath_engine::Run>>,
) -> Player {
    if let Some(preset) = preset {
        return Player::from_preset(meta, &preset);
    }
    let case = case.expect("a player without a preset is handed its case");
    let speed = case_ui.map_or(model::DEFAULT_SPEED, |ui| model::speed_of(ui.pace));
    let mut player = match run {
        Some(run) => Player::open_with_run(case, link, run),
        None => Player::open(case, link),
    };
    player.speed = speed.min(SPEEDS.len() - 1);
    player
}

/// Appends the engine time of this render (the seek and view) to
/// `window.__slowpathEngineMs`, which `cargo xtask bench-web` reads. Bounded.
fn record_engine_ms(ms: f64) {
    const SAMPLES_MAX: u32 = 10_000;
    let Some(window) = web_sys::window() else { return };
    let key = wasm_bindgen::JsValue::from_str("__slowpathEngineMs");
    let samples =
        match js_sys::Reflect::get(&window, &key).ok().and_then(|v| v.dyn_into::<js_sys::Array>().ok()) {
            Some(samples) => samples,
            None => {
                let samples = js_sys::Array::new();
                let _ = js_sys::Reflect::set(&window, &key, &samples);
                samples
            }
        };
    if samples.length() >= SAMPLES_MAX {
        samples.shift();
    }
    samples.push(&wasm_bindgen::JsValue::from_f64(ms));
}

/// The keyboard map; the help overlay lists the same keys.
pub fn shortcut(key: &str, shift: bool) -> Option<Action> {
    Some(match (key, shift) {
        (" ", _) => Action::TogglePlay,
        ("ArrowRight", false) => Action::StepForward,
        ("ArrowLeft", false) => Action::StepBack,
        ("ArrowRight", true) => Action::StepForwardCoarse,
        ("ArrowLeft", true) => Action::StepBackCoarse,
        ("Home", _) => Action::ToStart,
        ("End", _) => Action::ToEnd,
        ("]", _) => Action::Faster,
        ("[", _) => Action::Slower,
        ("g", _) | ("G", _) => Action::CycleGranularity,
        ("n", _) => Action::NextNotable,
        ("N", _) | ("p", _) => Action::PreviousNotable,
        ("?", _) => Action::ToggleHelp,
        ("q", _) => Action::ToggleQr,
        ("Escape", _) => Action::CloseHelp,
        _ => return None,
    })
}

/// The shortcuts, for the help overlay: keys and what they do.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("→ / ←", "step forward / back at the selected granularity"),
    ("Shift + → / ←", "step at the next coarser granularity"),
    ("Home / End", "jump to the start / end"),
    ("n / p", "next / previous key moment ◆ (the nearest: a chapter or another notable event)"),
    ("] / [", "faster / slower"),
    ("g", "cycle granularity: phase, iteration, micro-op"),
    ("v", "presenter view: projector theme, large text, a QR code of the link"),
    ("→ / ←, PageDown / PageUp", "in a tour: next / previous stop (Shift + → / ← still step the run)"),
    ("f", "fullscreen"),
    ("q", "presenter view: show / hide the QR code"),
    ("?", "show / hide this list"),
    ("Esc", "close this list"),
];

/// What the transport's words mean, for the help overlay (the start of a run says
/// the same in its narration).
pub const GLOSSARY: &[(&str, &str)] = &[
    ("phase", "a stage of the run with a title of its own (\"SIGKILL arrives\", \"the dump ends\")"),
    ("iteration", "one turn of the loop being replayed: one page dumped, one scan, one write; the transport counts these"),
    ("micro-op", "one operation inside an iteration: a lock taken, a page looked up, a tick"),
    ("key moment ◆", "a chapter of the case (numbered on the scrub bar) or another notable event"),
];

/// The label of a granularity in the UI.
pub fn granularity_label(granularity: Granularity) -> &'static str {
    match granularity {
        Granularity::Phase => "phase",
        Granularity::Iteration => "iteration",
        Granularity::Micro => "micro-op",
    }
}

/// `f64::clamp` without its panic message, whose `{:?}` of two floats is the
/// last thing that would pull core's float formatting into the wasm. Same result
/// for `min <= max` (NaN stays NaN); never panics.
pub trait Clamped {
    fn clamped(self, min: f64, max: f64) -> f64;
}

impl Clamped for f64 {
    fn clamped(self, min: f64, max: f64) -> f64 {
        if self < min {
            min
        } else if self > max {
            max
        } else {
            self
        }
    }
}
