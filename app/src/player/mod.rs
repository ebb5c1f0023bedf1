//! The player: one reducer (`model.rs`), the state in the URL (`url.rs`), the
//! transport, panels and timeline, keyboard shortcuts and the playback loop.
//! Generic: it knows no case; a case's own stage comes from `crate::cases`.

pub mod canvas;
pub mod chart;
pub mod compare;
mod compare_view;
mod controls;
pub mod export;
mod fit;
mod jump;
pub mod loader;
pub mod model;
pub mod panels;
pub mod timeline;
pub mod today;
pub mod url;
pub mod viewport;

use crate::route::Route;
use controls::{help_overlay, notices, ParamPanel, ShareLink, Transport};
use gloo::events::{EventListener, EventListenerOptions};
use model::{Action, Pace, Player, SPEEDS};
use panels::{CodePanel, LockPanel, MetricsPanel, NarrationPanel};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::CaseMeta;
use std::cell::RefCell;
use std::rc::Rc;
use timeline::Timeline;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// At "max" speed a frame advances this fraction of the run's units (at least one).
const MAX_SPEED_FRAMES_PER_RUN: u64 = 600;
/// Playback never does more engine steps than this in one frame.
const UNITS_PER_FRAME_MAX: u64 = 5_000;
/// A frame later than this (a hidden tab, a slow machine) counts as this long,
/// so that playing by time never jumps far.
const FRAME_MS_MAX: f64 = 100.0;
/// The presenter view hides the pointer after this long without a move.
const POINTER_IDLE_MS: u32 = 2_500;
/// While playing, the address bar is rewritten at most this often.
const URL_WRITE_INTERVAL_MS: f64 = 250.0;
/// The parts below the first screen, mounted one per frame: the figures, the case's
/// charts, the timeline, then the export and the parameters.
const DETAIL_PARTS: u8 = 4;

#[derive(Properties, Clone)]
pub struct PlayerProps {
    pub meta: &'static CaseMeta,
    /// The query part of the hash when the page was opened.
    pub query: AttrValue,
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
}

impl PartialEq for PlayerProps {
    fn eq(&self, other: &Self) -> bool {
        self.meta.id == other.meta.id && self.query == other.query && self.address == other.address
    }
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}

/// Writes the hash without adding a history entry or firing `hashchange`.
fn replace_hash(hash: &str) {
    let Some(window) = web_sys::window() else { return };
    if window.location().hash().ok().as_deref() == Some(hash) {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

#[function_component(PlayerView)]
pub fn player_view(props: &PlayerProps) -> Html {
    let meta = props.meta;
    let player = {
        let query = props.query.clone();
        let preset = props.preset.clone();
        let run = props.run.clone();
        use_reducer(move || match preset {
            Some(preset) => Player::from_preset(meta, &preset),
            None => {
                let speed =
                    crate::cases::ui_for(meta.id).map_or(model::DEFAULT_SPEED, |ui| model::speed_of(ui.pace));
                let mut player = match run {
                    Some(run) => Player::open_with_run(meta, &query, run),
                    None => Player::open(meta, &query),
                };
                player.speed = speed.min(SPEEDS.len() - 1);
                player
            }
        })
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

    // The state in the URL: every change, throttled while playing.
    {
        let last_write = use_mut_ref(|| f64::NEG_INFINITY);
        let synthetic = props.preset.is_some();
        // A tour stop keeps its own link in the address bar and follows the position.
        let (address, on_position) = (props.address.clone(), props.on_position.clone());
        use_effect_with(((*player).clone(), synthetic), move |(player, synthetic)| {
            on_position.inspect(|on_position| on_position.emit(player.position));
            let now = now_ms();
            if !*synthetic && (!player.playing || now - *last_write.borrow() >= URL_WRITE_INTERVAL_MS) {
                let route =
                    Route::Case { id: player.meta.id.to_string(), query: player.query.to_query(player.meta) };
                replace_hash(address.as_deref().unwrap_or(&route.to_hash()));
                *last_write.borrow_mut() = now;
            }
        });
    }

    // The presenter view hides the pointer after a moment without a move (a
    // projector shows it large); any move brings it back.
    let pointer_idle = use_state(|| false);
    {
        let pointer_idle = pointer_idle.clone();
        use_effect_with(player.query.present, move |present| {
            let mut listener = None;
            if *present {
                let timer: Rc<RefCell<Option<gloo::timers::callback::Timeout>>> = Rc::new(RefCell::new(None));
                let arm = {
                    let pointer_idle = pointer_idle.clone();
                    move || {
                        let pointer_idle = pointer_idle.clone();
                        gloo::timers::callback::Timeout::new(POINTER_IDLE_MS, move || pointer_idle.set(true))
                    }
                };
                *timer.borrow_mut() = Some(arm());
                listener = Some(EventListener::new(&gloo::utils::document(), "mousemove", move |_| {
                    pointer_idle.set(false);
                    *timer.borrow_mut() = Some(arm());
                }));
            }
            move || drop(listener)
        });
    }

    // The presenter view's QR code, encoded once per link, and held still while
    // playing (a code that changes every frame cannot be scanned, nor is it worth
    // encoding every frame): (link, SVG).
    let qr_cache: Rc<RefCell<(String, Option<String>)>> = use_mut_ref(|| (String::new(), None));

    // What sits below the first screen (figures, charts, timeline, parameters) is
    // mounted after it, one part per frame (`use_parts_shown`): nobody sees it yet.
    let details_shown = crate::components::use_parts_shown(DETAIL_PARTS);

    // The first screen ends above the window's bottom at every step (`fit`).
    let stage_area = use_node_ref();
    fit::use_fit_to_window(stage_area.clone(), player.playing);

    // Keyboard shortcuts, on the document, ignored while typing in a field.
    {
        let dispatcher = player.dispatcher();
        use_effect_with((), move |_| {
            let document = gloo::utils::document();
            let options = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&document, "keydown", options, move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if event.ctrl_key() || event.meta_key() || event.alt_key() {
                    return;
                }
                let typing =
                    event.target().and_then(|target| target.dyn_into::<web_sys::Element>().ok()).is_some_and(
                        |element| matches!(element.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"),
                    );
                if typing {
                    return;
                }
                // Keys that act on the page rather than the player's state.
                match event.key().as_str() {
                    "v" => {
                        event.prevent_default();
                        toggle_presenter_view();
                        return;
                    }
                    "f" => {
                        event.prevent_default();
                        toggle_fullscreen();
                        return;
                    }
                    _ => {}
                }
                if let Some(action) = shortcut(&event.key(), event.shift_key()) {
                    event.prevent_default();
                    dispatcher.dispatch(action);
                }
            });
            move || drop(listener)
        });
    }

    // Playback: requestAnimationFrame, a bounded number of units per frame.
    {
        let dispatcher = player.dispatcher();
        let units_total = player.run.unit_count(player.query.granularity);
        let end_ns = player.run.end_ns;
        let pace = SPEEDS[player.speed].1;
        use_effect_with((player.playing, player.speed, units_total), move |(playing, _, _)| {
            let running = Rc::new(RefCell::new(*playing));
            if *playing {
                let handle: Rc<RefCell<Option<gloo::render::AnimationFrame>>> = Rc::new(RefCell::new(None));
                // (when play began, units done since, the previous frame's time)
                let start = Rc::new(RefCell::new((now_ms(), 0.0f64, now_ms())));
                schedule_frame(handle.clone(), running.clone(), move |_| {
                    let now = now_ms();
                    let (began, done, previous) = *start.borrow();
                    start.borrow_mut().2 = now;
                    let frame_ms = (now - previous).clamp(0.0, FRAME_MS_MAX);
                    // Simulated ns per real ms, for the time paces.
                    let sim_per_ms = match pace {
                        Pace::Scale { sim, real } => Some(1e6 * sim as f64 / real as f64),
                        Pace::WholeRunIn(seconds) => Some(end_ns as f64 / (f64::from(seconds) * 1000.0)),
                        Pace::Steps(_) | Pace::Max => None,
                    };
                    if let Some(sim_per_ms) = sim_per_ms {
                        let sim_ns = (frame_ms * sim_per_ms).round() as u64;
                        if sim_ns > 0 {
                            dispatcher.dispatch(Action::AdvanceTime(sim_ns));
                        }
                        return;
                    }
                    let units = match pace {
                        Pace::Steps(per_second) => {
                            let due = (now - began) / 1000.0 * f64::from(per_second);
                            let units = (due - done).floor().max(0.0);
                            start.borrow_mut().1 += units;
                            units as u64
                        }
                        _ => (units_total / MAX_SPEED_FRAMES_PER_RUN).max(1),
                    };
                    if units > 0 {
                        dispatcher.dispatch(Action::Advance(units.min(UNITS_PER_FRAME_MAX)));
                    }
                });
                let running = running.clone();
                return Box::new(move || {
                    *running.borrow_mut() = false;
                    handle.borrow_mut().take();
                }) as Box<dyn FnOnce()>;
            }
            Box::new(|| ()) as Box<dyn FnOnce()>
        });
    }

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
    let started = now_ms();
    let view = Rc::new(player.run.view(player.position));
    record_engine_ms(now_ms() - started);
    let base = web_sys::window()
        .and_then(|window| window.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or("").to_string())
        .unwrap_or_default();
    let link = |query: &url::PlayerQuery| {
        format!("{base}{}", Route::Case { id: meta.id.to_string(), query: query.to_query(meta) }.to_hash())
    };
    let share_url = link(&player.query.unembedded());
    let embed_url = link(&url::PlayerQuery { embed: true, ..player.query.clone() });
    let present_hash = Route::Case {
        id: meta.id.to_string(),
        query: url::PlayerQuery { present: true, ..player.query.plain() }.to_query(meta),
    }
    .to_hash();

    // The case's own stage, from the case table; the generic panels whatever it is.
    let case_ui = crate::cases::ui_for(meta.id);
    let context = crate::cases::StageContext {
        meta,
        run: player.run.clone(),
        view: view.clone(),
        on_seek_time: on_seek_time.clone(),
    };
    // Compare mode: the second side, drawn by the same slots (`compare_view`).
    let second = compare_view::second_context(&player, &on_seek_time);
    let labels = compare_view::labels(&player);
    let stage_area_class = classes!("player-stage-area", second.is_some().then_some("comparing"));
    let second_narration = compare_view::second_narration(&player, second.as_ref());
    let locks_stage = |context: &crate::cases::StageContext| {
        html! { <LockPanel view={context.view.clone()} run={context.run.clone()} /> }
    };
    let narration_stage = |context: &crate::cases::StageContext| {
        html! { <NarrationPanel run={context.run.clone()} view={context.view.clone()} earlier={Rc::new(Vec::new())} /> }
    };
    let case_wide = |case_ui: &'static crate::cases::CaseUi| {
        compare_view::wide(case_ui, &context, second.as_ref(), labels.as_ref())
    };
    if player.query.present {
        // The presenter view: what a room needs to see, large; a QR code so that
        // students follow on their phones; everything else is one key away (`v`).
        // On a tour stop, the students' link is the stop's, so that they follow the tour,
        // and leaving the presenter view stays on the tour.
        let (student_url, leave_hash) = match &props.address {
            Some(address) => {
                let hash = Route::parse(address).with_flag_toggled("present").to_hash();
                (format!("{base}{hash}"), hash)
            }
            None => (
                link(&player.query.plain()),
                Route::Case { id: meta.id.to_string(), query: player.query.plain().to_query(meta) }.to_hash(),
            ),
        };
        let qr = if player.qr {
            let mut cache = qr_cache.borrow_mut();
            if cache.1.is_none() || (!player.playing && cache.0 != student_url) {
                *cache = (student_url.clone(), qr_svg(&student_url));
            }
            cache.1.clone()
        } else {
            None
        };
        return html! {
                    <section class={classes!("player", "player-present", (*pointer_idle).then_some("pointer-idle"))} aria-label={format!("Presenter view: {}", meta.title)} data-testid="player">
                        <div class="present-bar">
                            <h1 class="present-title">{ meta.title }</h1>
                            <span class="present-keys">{ "v: leave · f: fullscreen · q: QR code" }</span>
                            <a href={leave_hash}
                                data-testid="leave-present">{ "Leave presenter view" }</a>
                        </div>
                        // The stage first, as on the case page: the transport, the words and the QR
                        // code beside it; the case's charts below.
                        <div class={stage_area_class.clone()} ref={stage_area.clone()}>
                            <div class="player-words present-words">
                                <Transport player={Rc::new((*player).clone())} on_action={on_action.clone()} />
        { progress.clone() }
                                <NarrationPanel run={player.run.clone()} view={view.clone()} granularity={player.query.granularity}
                                    earlier={Rc::new(Vec::new())} />
                                { second_narration.clone() }
                                <CodePanel run={player.run.clone()} view={view.clone()} />
                                if let Some(svg) = qr {
                                    <figure class="present-qr" data-testid="qr">
                                        { Html::from_html_unchecked(AttrValue::from(svg)) }
                                        <figcaption>{ "Follow on your phone: this moment, as a link" }</figcaption>
                                    </figure>
                                }
                            </div>
                            <div class="player-stage" data-testid="case-stage">
                                { compare_view::stages(case_ui, &context, second.as_ref(), labels.as_ref(), locks_stage) }
                            </div>
                        </div>
                        if let Some(case_ui) = case_ui {
                            { case_wide(case_ui) }
                        }
                        if player.help {
                            { help_overlay(dispatch(Action::CloseHelp)) }
                        }
                    </section>
                };
    }

    if player.query.embed {
        // Framed in another page: the transport and the stage (or, for a case without one,
        // the narration), and a way out to the whole case.
        return html! {
                    <section class="player player-embed" aria-label={format!("Player: {}", meta.title)} data-testid="player">
                        <div class="embed-bar">
                            <h1 class="embed-title">{ meta.title }</h1>
                            <a href={share_url} target="_blank" rel="noopener" data-testid="open-full">{ "Open in slowpath ↗" }</a>
                        </div>
                        <div class={stage_area_class.clone()}>
                            <div class="player-words">
                                <Transport player={Rc::new((*player).clone())} on_action={on_action.clone()} />
        { progress.clone() }
                                { second_narration.clone() }
                            </div>
                            <div class="player-stage" data-testid="case-stage">
                                { compare_view::stages(case_ui, &context, second.as_ref(), labels.as_ref(), narration_stage) }
                            </div>
                        </div>
                        if let Some(case_ui) = case_ui {
                            { case_wide(case_ui) }
                        }
                        if player.help {
                            { help_overlay(dispatch(Action::CloseHelp)) }
                        }
                    </section>
                };
    }

    html! {
            <section class="player" aria-label={format!("Player: {}", meta.title)} data-testid="player">
                { notices(&player.notices, dispatch(Action::DismissNotices)) }
                // A run that stopped at the engine's work budget says so, and what its figures cover.
                if let Some(text) = player.run.outcome.limit_text() {
                    <p class="run-limit" role="status" data-testid="run-limit">{ text }</p>
                }
                // The first screen: the stage (what animates) takes the left and the full
                // height; the transport and the words (narration, the current pseudocode line)
                // are beside it. Everything else is below, one click away (the jump buttons).
                // The words come first in the document: the transport is the first stop for
                // the keyboard.
                <div class={stage_area_class} data-testid="stage-area" ref={stage_area}>
                    <div class="player-words">
                        <Transport player={Rc::new((*player).clone())} on_action={on_action.clone()} />
    { progress.clone() }
                        // Compare mode's control is on the first screen while comparing, else below (`details-compare`).
                        if player.query.compare.is_some() {
                            <compare_view::CompareBar player={Rc::new((*player).clone())} on_action={on_action.clone()} />
                        }
                        { jump::jump_nav(case_ui.is_some(), props.address.is_none().then(||
                            Route::Tour { id: meta.id.to_string(), stop: "1".to_string(), query: String::new() }.to_hash())) }
                        // A guided tour's panel goes here, above the narration.
                        <NarrationPanel run={player.run.clone()} view={view.clone()} granularity={player.query.granularity}
                            earlier={Rc::new(panels::earlier_narrations(&player.run, player.position, player.query.granularity))} />
                        { second_narration }
                        <CodePanel run={player.run.clone()} view={view.clone()} />
                    </div>
                    // A case without a stage of its own: its locks are what animates.
                    <div class="player-stage" data-testid="case-stage">
                        { compare_view::stages(case_ui, &context, second.as_ref(), labels.as_ref(), locks_stage) }
                    </div>
                </div>
                <div class="player-details" aria-busy={(details_shown < DETAIL_PARTS).then_some("true")}>
                    if details_shown >= 1 {
                    <compare_view::CompareFigures player={Rc::new((*player).clone())} />
                    <div class="player-figures" id="details-figures" tabindex="-1">
                        <MetricsPanel view={view.clone()} run={player.run.clone()} meta={crate::components::MetaRef(meta)} />
                        if case_ui.is_some() {
                            <LockPanel view={view.clone()} run={player.run.clone()} />
                        }
                        <today::TodayPanel meta={crate::components::MetaRef(meta)} />
                    </div>
                    }
                    if details_shown >= 2 {
                    if let Some(case_ui) = case_ui {
                        <div class="player-case-more" id="details-case" tabindex="-1">
                            { case_wide(case_ui) }
                        </div>
                    }
                    }
                    if details_shown >= 3 {
                    <div id="details-timeline" tabindex="-1">
                        <Timeline run={player.run.clone()} timeline={player.timeline.clone()} now_ns={view.now_ns} on_seek_time={on_seek_time} />
                    </div>
                    }
                    if details_shown >= DETAIL_PARTS {
                    <export::ExportPanel run={player.run.clone()} position={player.position} />
                    <div class="player-bottom" id="details-params" tabindex="-1">
                        <ParamPanel meta={meta} params={player.query.params.clone()} variant={player.query.variant}
                            seed={player.query.seed} on_action={on_action.clone()} />
                        <div class="player-bottom-side">
                            <ShareLink url={share_url} embed_url={embed_url} title={meta.title} present_hash={present_hash} />
                            <compare_view::ComparePanel player={Rc::new((*player).clone())} on_action={on_action.clone()} />
                        </div>
                    </div>
                    }
                </div>
                if player.help {
                    { help_overlay(dispatch(Action::CloseHelp)) }
                }
            </section>
        }
}

/// `v`: into or out of the presenter view, by navigating to the same moment with
/// or without `present` (the shell drops its header and footer for it).
fn toggle_presenter_view() {
    let location = gloo::utils::window().location();
    let route = Route::parse(&location.hash().unwrap_or_default());
    if matches!(route, Route::Case { .. } | Route::Tour { .. }) {
        let _ = location.set_hash(&route.with_flag_toggled("present").to_hash());
    }
}

/// `f`: the whole page fullscreen, or back.
fn toggle_fullscreen() {
    let document = gloo::utils::document();
    if document.fullscreen_element().is_some() {
        document.exit_fullscreen();
    } else if let Some(root) = document.document_element() {
        let _ = root.request_fullscreen();
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

/// Runs `frame` on every animation frame while `running` holds.
fn schedule_frame(
    handle: Rc<RefCell<Option<gloo::render::AnimationFrame>>>,
    running: Rc<RefCell<bool>>,
    frame: impl Fn(f64) + 'static,
) {
    let frame = Rc::new(frame);
    fn next(
        handle: Rc<RefCell<Option<gloo::render::AnimationFrame>>>,
        running: Rc<RefCell<bool>>,
        frame: Rc<dyn Fn(f64)>,
    ) {
        let handle_for_next = handle.clone();
        let animation = gloo::render::request_animation_frame(move |timestamp| {
            if !*running.borrow() {
                return;
            }
            frame(timestamp);
            next(handle_for_next, running, frame);
        });
        *handle.borrow_mut() = Some(animation);
    }
    next(handle, running, frame);
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
    ("n / p", "next / previous key moment ◆ (the chapters, then other notable events)"),
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
