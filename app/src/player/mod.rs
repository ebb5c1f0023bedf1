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
mod scrub;
pub mod stage;
pub mod timeline;
pub mod today;
pub mod url;
pub mod viewport;
mod world_stage;

use crate::route::Route;
use controls::{help_overlay, notices, ParamPanel, ShareLink, Transport};
use model::{Action, Player, SPEEDS};
use panels::{CodePanel, LockPanel, MetricsPanel, NarrationPanel};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::CaseMeta;
use stage::{CaseUi, InputContext, StageContext};
use std::cell::RefCell;
use std::rc::Rc;
use timeline::Timeline;
use wasm_bindgen::JsCast;
use world_stage::world_stage;
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
    let labels = compare_view::labels(&player);
    let second_narration = compare_view::second_narration(&player, second.as_ref());
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

/// What every layout of the player draws from: the run on screen, its stage and
/// its compare side, the links, and the callbacks.
struct Screen {
    meta: &'static CaseMeta,
    player: Rc<Player>,
    /// The link a page that owns it (a tour stop) keeps in the address bar.
    address: Option<AttrValue>,
    /// The page's own panel for the words' column (`PlayerProps::aside`).
    aside: Html,
    /// Whether there is one (a guided tour's): the words' column makes room for it.
    touring: bool,
    links: Links,
    view: Rc<slowpath_engine::View>,
    case_ui: Option<&'static CaseUi>,
    context: StageContext,
    second: Option<Result<StageContext, String>>,
    labels: Option<(String, String)>,
    second_narration: Html,
    /// The runs being made by the worker, with a way to cancel them.
    progress: Html,
    on_action: Callback<Action>,
    on_seek_time: Callback<u64>,
    close_help: Callback<MouseEvent>,
    dismiss_notices: Callback<MouseEvent>,
    stage_area: NodeRef,
    /// What is below the first screen, mounted once the reader goes there.
    details_area: NodeRef,
}

impl Screen {
    fn stage_area_class(&self) -> Classes {
        classes!("player-stage-area", self.second.is_some().then_some("comparing"))
    }

    /// The stage (both sides in compare mode); `fallback` for a case without one.
    fn stages(&self, fallback: fn(&StageContext) -> Html) -> Html {
        compare_view::stages(
            self.case_ui,
            &self.context,
            self.second.as_ref(),
            self.labels.as_ref(),
            fallback,
        )
    }

    /// The case's wide slot (outputs, charts), both sides in compare mode.
    fn case_wide(&self, case_ui: &'static CaseUi) -> Html {
        compare_view::wide(case_ui, &self.context, self.second.as_ref(), self.labels.as_ref())
    }

    /// The stage's column of the first screen, as every layout draws it: the case's
    /// input, if it has one (not in an embed, which shows a moment and edits nothing),
    /// then the stage.
    fn stage_column(&self, fallback: fn(&StageContext) -> Html) -> Html {
        let input = self.case_ui.and_then(|ui| ui.input).filter(|_| !self.player.query.embed);
        html! {
            <div class={classes!("player-stage", input.is_some().then_some("with-input"))} data-testid="case-stage">
                if let Some(input) = input {
                    { input(&self.input_context()) }
                }
                { self.stages(fallback) }
            </div>
        }
    }

    fn input_context(&self) -> InputContext {
        InputContext {
            meta: self.meta,
            query: Rc::new(self.player.query.clone()),
            run: self.player.run.clone(),
            making: self.player.wanted().is_some(),
            on_action: self.on_action.clone(),
        }
    }

    /// Under the first screen of the presenter view and the embed: the case's wide
    /// slot, if it has one, and the keys' overlay when asked for.
    fn wide_and_help(&self) -> Html {
        html! {
            <>
                if let Some(case_ui) = self.case_ui {
                    { self.case_wide(case_ui) }
                }
                { self.help() }
            </>
        }
    }

    fn help(&self) -> Html {
        if self.player.help {
            help_overlay(self.close_help.clone())
        } else {
            Html::default()
        }
    }
}

/// The links the player offers, absolute for sharing, a hash for the presenter view.
struct Links {
    /// The page's address without its hash.
    base: String,
    share_url: String,
    embed_url: String,
    present_hash: String,
}

impl Links {
    fn of(meta: &'static CaseMeta, query: &url::PlayerQuery) -> Links {
        let base = web_sys::window()
            .and_then(|window| window.location().href().ok())
            .map(|href| href.split('#').next().unwrap_or("").to_string())
            .unwrap_or_default();
        let link = |query: &url::PlayerQuery| {
            format!(
                "{base}{}",
                Route::Case { id: meta.id.to_string(), query: query.to_query(meta) }.to_hash()
            )
        };
        let share_url = link(&query.unembedded());
        let embed_url = link(&url::PlayerQuery { embed: true, ..query.clone() });
        let present_hash = Route::Case {
            id: meta.id.to_string(),
            query: url::PlayerQuery { present: true, ..query.plain() }.to_query(meta),
        }
        .to_hash();
        Links { base, share_url, embed_url, present_hash }
    }
}

/// The presenter view: what a room needs to see, large; a QR code so that
/// students follow on their phones; everything else is one key away (`v`).
fn presenter_screen(
    screen: &Screen,
    qr_cache: &RefCell<(String, Option<String>)>,
    pointer_idle: bool,
) -> Html {
    let (meta, player, view) = (screen.meta, &screen.player, &screen.view);
    // On a tour stop, the students' link is the stop's, so that they follow the tour,
    // and leaving the presenter view stays on the tour.
    let base = &screen.links.base;
    let (student_url, leave_hash) = match &screen.address {
        Some(address) => {
            let hash = Route::parse(address).with_flag_toggled("present").to_hash();
            (format!("{base}{hash}"), hash)
        }
        None => {
            let hash =
                Route::Case { id: meta.id.to_string(), query: player.query.plain().to_query(meta) }.to_hash();
            (format!("{base}{hash}"), hash)
        }
    };
    let qr = if player.qr {
        // Encoded once per link, and held still while playing (a code that changes
        // every frame cannot be scanned, nor is it worth encoding every frame).
        let mut cache = qr_cache.borrow_mut();
        if cache.1.is_none() || (!player.playing && cache.0 != student_url) {
            *cache = (student_url.clone(), qr_svg(&student_url));
        }
        cache.1.clone()
    } else {
        None
    };
    html! {
        <section class={classes!("player", "player-present", pointer_idle.then_some("pointer-idle"), screen.touring.then_some("with-tour"))} aria-label={format!("Presenter view: {}", meta.title)} data-testid="player">
            <div class="present-bar">
                <h1 class="present-title">{ meta.title }</h1>
                <span class="present-keys">{ "v: leave · f: fullscreen · q: QR code" }</span>
                <a href={leave_hash}
                    data-testid="leave-present">{ "Leave presenter view" }</a>
            </div>
            // The stage first, as on the case page: the transport, the words and the QR
            // code beside it; the case's charts below.
            <div class={screen.stage_area_class()} data-fit="pending" ref={screen.stage_area.clone()}>
                <div class={classes!("player-words", "present-words", screen.touring.then_some("with-tour"))}>
                    <Transport player={player.clone()} on_action={screen.on_action.clone()} />
                    { screen.progress.clone() }
                    { screen.aside.clone() }
                    <NarrationPanel run={player.run.clone()} view={view.clone()} granularity={player.query.granularity}
                        earlier={Rc::new(Vec::new())} />
                    { screen.second_narration.clone() }
                    <CodePanel run={player.run.clone()} view={view.clone()} />
                    if let Some(svg) = qr {
                        <figure class="present-qr" data-testid="qr">
                            { Html::from_html_unchecked(AttrValue::from(svg)) }
                            <figcaption>{ "Follow on your phone: this moment, as a link" }</figcaption>
                        </figure>
                    }
                </div>
                { screen.stage_column(world_stage) }
            </div>
            { screen.wide_and_help() }
        </section>
    }
}

/// Framed in another page: the transport and the stage (or, for a case without one,
/// the narration), and a way out to the whole case.
fn embedded_screen(screen: &Screen) -> Html {
    let meta = screen.meta;
    html! {
        <section class="player player-embed" aria-label={format!("Player: {}", meta.title)} data-testid="player">
            <div class="embed-bar">
                <h1 class="embed-title">{ meta.title }</h1>
                <a href={screen.links.share_url.clone()} target="_blank" rel="noopener" data-testid="open-full">{ "Open in slowpath ↗" }</a>
            </div>
            <div class={screen.stage_area_class()}>
                <div class={classes!("player-words", screen.touring.then_some("with-tour"))}>
                    <Transport player={screen.player.clone()} on_action={screen.on_action.clone()} />
                    { screen.progress.clone() }
                    { screen.aside.clone() }
                    { panels::narration_line(&screen.view) }
                    { screen.second_narration.clone() }
                </div>
                { screen.stage_column(world_stage) }
            </div>
            { screen.wide_and_help() }
        </section>
    }
}

/// The case page's player: the first screen (the stage, the transport and the
/// words), then what is below it, mounted a part at a time.
fn case_page_screen(screen: &Screen, details_shown: u8) -> Html {
    let (meta, player, view) = (screen.meta, &screen.player, &screen.view);
    html! {
        <section class={classes!("player", (details_shown < DETAIL_PARTS).then_some("details-pending"))}
            aria-label={format!("Player: {}", meta.title)} data-testid="player">
            { notices(&player.notices, screen.dismiss_notices.clone()) }
            // A run that stopped at the engine's work budget says so, and what its figures cover.
            if let Some(text) = player.run.outcome.limit_text() {
                <p class="run-limit" role="status" data-testid="run-limit">{ text }</p>
            }
            // The first screen: the stage (what animates) takes the left and the full
            // height; the transport and the words (narration, the current pseudocode line)
            // are beside it. Everything else is below, one click away (the jump buttons).
            // The words come first in the document: the transport is the first stop for
            // the keyboard.
            <div class={screen.stage_area_class()} data-testid="stage-area" data-fit="pending" ref={screen.stage_area.clone()}>
                <div class={classes!("player-words", screen.touring.then_some("with-tour"))}>
                    <Transport player={player.clone()} on_action={screen.on_action.clone()} />
                    { screen.progress.clone() }
                    // Compare mode's control is on the first screen while comparing, else below (`details-compare`).
                    if player.query.compare.is_some() {
                        <compare_view::CompareBar player={player.clone()} on_action={screen.on_action.clone()} />
                    }
                    { jump::jump_nav(screen.case_ui.is_some(), screen.address.is_none().then(||
                        Route::Tour { id: meta.id.to_string(), stop: "1".to_string(), query: String::new() }.to_hash())) }
                    // A guided tour's panel goes here, above the narration.
                    { screen.aside.clone() }
                    <NarrationPanel run={player.run.clone()} view={view.clone()} granularity={player.query.granularity}
                        earlier={Rc::new(panels::earlier_narrations(&player.run, player.position, player.query.granularity))} />
                    { screen.second_narration.clone() }
                    <CodePanel run={player.run.clone()} view={view.clone()} />
                </div>
                { screen.stage_column(world_stage) }
            </div>
            { below_the_first_screen(screen, details_shown) }
            { screen.help() }
        </section>
    }
}

/// The figures, the case's charts, the timeline, the export and the parameters,
/// each once its part is shown (`DETAIL_PARTS`, one per frame, once the reader
/// goes below the first screen).
fn below_the_first_screen(screen: &Screen, details_shown: u8) -> Html {
    let (meta, player, view) = (screen.meta, &screen.player, &screen.view);
    let links = &screen.links;
    html! {
        <div class="player-details" aria-busy={(details_shown < DETAIL_PARTS).then_some("true")} ref={screen.details_area.clone()}>
            // Until the reader goes below (a scroll mounts it all): the way there for
            // the keyboard and a screen reader's cursor, which do not scroll the page.
            if details_shown == 0 {
                <p class="details-waiting">
                    <button type="button" class="button" onclick={jump::show_below_and_jump("details-figures")}>
                        { "Show the figures, charts, timeline and parameters" }
                    </button>
                </p>
            }
            if details_shown >= 1 {
            <compare_view::CompareFigures player={player.clone()} />
            <div class="player-figures" id="details-figures" tabindex="-1">
                <MetricsPanel view={view.clone()} run={player.run.clone()} meta={crate::components::MetaRef(meta)} />
                if screen.case_ui.is_some_and(|ui| ui.locks_below) {
                    <LockPanel view={view.clone()} run={player.run.clone()} />
                }
                <today::TodayPanel meta={crate::components::MetaRef(meta)} check={meta.today} />
            </div>
            }
            if details_shown >= 2 {
            if let Some(case_ui) = screen.case_ui {
                <div class="player-case-more" id="details-case" tabindex="-1">
                    { screen.case_wide(case_ui) }
                </div>
            }
            }
            if details_shown >= 3 {
            <div id="details-timeline" tabindex="-1">
                <Timeline run={player.run.clone()} timeline={player.timeline.get(&player.run)} now_ns={view.now_ns} on_seek_time={screen.on_seek_time.clone()} />
            </div>
            }
            if details_shown >= DETAIL_PARTS {
            <export::ExportPanel run={player.run.clone()} position={player.position} case={player.case} />
            <div class="player-bottom" id="details-params" tabindex="-1">
                <ParamPanel meta={meta} params={player.query.params.clone()} variant={player.query.variant}
                    seed={player.query.seed} on_action={screen.on_action.clone()} />
                <div class="player-bottom-side">
                    <ShareLink url={links.share_url.clone()} embed_url={links.embed_url.clone()} title={meta.title} present_hash={links.present_hash.clone()} />
                    <compare_view::ComparePanel player={player.clone()} on_action={screen.on_action.clone()} />
                </div>
            </div>
            }
        </div>
    }
}

/// The presenter view's QR code of `url`, as SVG markup from the `qrcode` crate
/// (the URL is encoded as modules, never as markup).
fn qr_svg(url: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(url.as_bytes(), qrcode::EcLevel::M).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(240, 240)
            .dark_color(qrcode::render::svg::Color("#000000"))
            .light_color(qrcode::render::svg::Color("#ffffff"))
            .quiet_zone(true)
            .build(),
    )
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
