//! Controls in the DOM: transport, scrub bar, parameters, share link, notices,
//! the shortcuts overlay. Every control has an accessible name and a stable
//! `data-testid` where tests and outside tools rely on it.

use super::model::{Action, Player, SPEEDS};
use super::{granularity_label, SHORTCUTS};
use slowpath_engine::case::VariantGroup;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::run::params::{Notice, ParamKind};
use slowpath_engine::run::trace::Granularity;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct PlayerProps {
    pub player: Rc<Player>,
    pub on_action: Callback<Action>,
}

impl PartialEq for PlayerProps {
    fn eq(&self, other: &Self) -> bool {
        self.player == other.player
    }
}

fn send(on_action: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let on_action = on_action.clone();
    Callback::from(move |_| on_action.emit(action.clone()))
}

pub(super) fn select_value(event: &Event) -> Option<String> {
    let target = event.target()?;
    if let Some(select) = target.dyn_ref::<web_sys::HtmlSelectElement>() {
        return Some(select.value());
    }
    target.dyn_ref::<web_sys::HtmlInputElement>().map(|input| input.value())
}

/// The transport. On a phone it keeps one row of the buttons used most (key moments,
/// steps, play) above the position and the scrub bar; the rest (start, end, the step
/// and the speed, help, the chapters) are one tap away behind "more", so that the
/// sticky bar leaves the narration and the stage their room (player.css).
#[function_component(Transport)]
pub fn transport(props: &PlayerProps) -> Html {
    let player = &props.player;
    let more = use_state(|| false);
    let on = |action: Action| send(&props.on_action, action);
    // The scrub bar's scale (steps or simulated time): this page's choice, not the link's.
    let by_time = use_state(|| false);
    let toggle_more = {
        let more = more.clone();
        Callback::from(move |_: MouseEvent| more.set(!*more))
    };
    html! {
        <div class={classes!("transport", more.then_some("more-open"))} role="toolbar" aria-label="Playback">
            { transport_buttons(player, on, more_button(*more, toggle_more)) }
            { step_and_speed(player, &props.on_action) }
            { position_readout(player) }
            <super::scrub::ScrubBar run={player.run.clone()} position={player.position} on_action={props.on_action.clone()} by_time={*by_time} />
            // The scale's toggle shares the chapters' line, so that it adds no line.
            <div class="scrub-row more-item">
                { super::scrub::scale_toggle(&by_time) }
                { chapter_list(&player.run, player.position, on) }
            </div>
        </div>
    }
}

/// "more": shown on a phone only, where it opens the transport's other controls.
fn more_button(open: bool, on_click: Callback<MouseEvent>) -> Html {
    html! {
        <button type="button" class="more-button" data-testid="transport-more" onclick={on_click}
            aria-expanded={open.to_string()} aria-label="More controls: start, end, step, speed, chapters, help">
            <span class="glyph" aria-hidden="true">{ if open { "×" } else { "⋯" } }</span>
            <span class="caption">{ if open { "less" } else { "more" } }</span>
        </button>
    }
}

/// The buttons. Each glyph button carries a short word under its glyph: the glyphs
/// alone explained themselves only in tooltips. The words are in the buttons' names.
/// `more`: the phone's button that shows the controls marked `more-item`.
fn transport_buttons(player: &Player, on: impl Fn(Action) -> Callback<MouseEvent>, more: Html) -> Html {
    let g = player.query.granularity;
    html! {
        <div class="transport-buttons">
            <button type="button" class="more-item" data-testid="to-start" onclick={on(Action::ToStart)} aria-label="Jump to start (Home)" title="Start (Home)">
                <span class="glyph" aria-hidden="true">{ "⇤" }</span><span class="caption">{ "start" }</span>
            </button>
            <button type="button" data-testid="previous-key" onclick={on(Action::PreviousNotable)} aria-label="Previous key moment (p)" title="Previous key moment (p)">
                <span class="glyph" aria-hidden="true">{ "◂◆" }</span><span class="caption">{ "previous" }</span>
            </button>
            <button type="button" data-testid="step-back" onclick={on(Action::StepBack)}
                aria-label={format!("Step back one {} (←)", granularity_label(g))} title="Step back (←)">
                <span class="glyph" aria-hidden="true">{ "◀" }</span><span class="caption">{ "back" }</span>
            </button>
            <button type="button" data-testid="play" class="play" onclick={on(Action::TogglePlay)}
                aria-label={if player.playing { "Pause (Space)" } else { "Play (Space)" }} aria-pressed={player.playing.to_string()}>
                // Both words are laid out in one cell, the other one invisible: the button is as
                // wide for Pause as for Play, so the row never rewraps when playback starts.
                <span class="glyph" aria-hidden="true">{ if player.playing { "❚❚" } else { "▶" } }</span>
                <span class="caption play-words" aria-hidden="true">
                    <span class={classes!("play-word", (!player.playing).then_some("shown"))}>{ "Play" }</span>
                    <span class={classes!("play-word", player.playing.then_some("shown"))}>{ "Pause" }</span>
                </span>
            </button>
            <button type="button" data-testid="step-forward" onclick={on(Action::StepForward)}
                aria-label={format!("Step forward one {} (→)", granularity_label(g))} title="Step forward (→)">
                <span class="glyph" aria-hidden="true">{ "▶" }</span><span class="caption">{ "forward" }</span>
            </button>
            <button type="button" data-testid="next-key" onclick={on(Action::NextNotable)} aria-label="Next key moment (n)" title="Next key moment (n)">
                <span class="glyph" aria-hidden="true">{ "◆▸" }</span><span class="caption">{ "next" }</span>
            </button>
            <button type="button" class="more-item" data-testid="to-end" onclick={on(Action::ToEnd)} aria-label="Jump to end (End)" title="End (End)">
                <span class="glyph" aria-hidden="true">{ "⇥" }</span><span class="caption">{ "end" }</span>
            </button>
            <button type="button" class="help-button more-item" data-testid="help-button" onclick={on(Action::ToggleHelp)} aria-label="Keys and words (?)">
                <span class="glyph" aria-hidden="true">{ "?" }</span><span class="caption"><span class="keys-only">{ "keys" }</span><span class="touch-only">{ "help" }</span></span>
            </button>
            { more }
        </div>
    }
}

/// The step granularity and the playback speed, as two selects.
fn step_and_speed(player: &Player, on_action: &Callback<Action>) -> Html {
    let g = player.query.granularity;
    let on_granularity = {
        let on_action = on_action.clone();
        Callback::from(move |event: Event| {
            if let Some(g) = select_value(&event).and_then(|key| Granularity::from_key(&key)) {
                on_action.emit(Action::SetGranularity(g));
            }
        })
    };
    let on_speed = {
        let on_action = on_action.clone();
        Callback::from(move |event: Event| {
            if let Some(speed) = select_value(&event).and_then(|text| text.parse::<usize>().ok()) {
                on_action.emit(Action::SetSpeed(speed));
            }
        })
    };
    html! {
        <>
            <label class="transport-field more-item">
                <span>{ "Step" }</span>
                <select data-testid="step-granularity" onchange={on_granularity} aria-label="Step granularity (g)">
                    { for Granularity::ALL.iter().map(|&option| html! {
                        <option value={option.key()} selected={option == g}>{ granularity_label(option) }</option>
                    }) }
                </select>
            </label>
            <label class="transport-field more-item">
                <span>{ "Speed" }</span>
                <select data-testid="speed" onchange={on_speed} aria-label="Playback speed ([ and ])">
                    { for SPEEDS.iter().enumerate().map(|(index, (label, _))| html! {
                        <option value={index.to_string()} selected={index == player.speed}>{ *label }</option>
                    }) }
                </select>
            </label>
        </>
    }
}

/// Which step of how many, at the granularity, and the simulated time.
fn position_readout(player: &Player) -> Html {
    let run = &player.run;
    let g = player.query.granularity;
    let count = run.unit_count(g);
    let index_text = match player.index() {
        Some(index) => {
            format!("{} {} of {}", granularity_label(g), group_digits(index + 1), group_digits(count))
        }
        None => format!("start · {} {}s", group_digits(count), granularity_label(g)),
    };
    html! {
        <p class="transport-position" aria-live="polite">
            <span data-testid="step-index">{ index_text }</span>
            <span class="sep">{ " · " }</span>
            <span>{ "t = " }<span data-testid="sim-time">{ format::duration(run.time_at(player.position)) }</span></span>
        </p>
    }
}

/// The chapters as buttons, the one the position is in marked current.
fn chapter_list(
    run: &slowpath_engine::Run,
    position: u64,
    on: impl Fn(Action) -> Callback<MouseEvent>,
) -> Html {
    if run.chapters.is_empty() {
        return Html::default();
    }
    html! {
        <nav class="chapters more-item" aria-label="Chapters" data-testid="chapters">
            <ol role="list">
                { for run.chapters.iter().enumerate().map(|(index, chapter)| {
                    let reached = position >= chapter.position
                        && run.chapters.get(index + 1).is_none_or(|next| position < next.position);
                    let chapter_position = chapter.position;
                    html! {
                        <li key={chapter_position.to_string()}>
                            <button type="button" class={classes!("chapter", reached.then_some("current"))}
                                aria-current={reached.then_some("step")}
                                onclick={on(Action::Seek(chapter_position))}>
                                { format!("{}. {}", index + 1, chapter.title) }
                            </button>
                        </li>
                    }
                }) }
            </ol>
        </nav>
    }
}

/// What a link or an input asked for that could not be honoured, and what was done instead.
pub fn notices(notices: &[Notice], on_dismiss: Callback<MouseEvent>) -> Html {
    if notices.is_empty() {
        return html! {};
    }
    html! {
        <div class="notices" role="status" data-testid="notices">
            <ul role="list">
                { for notices.iter().map(|notice| html! { <li>{ notice_text(&notice.message) }</li> }) }
            </ul>
            <button type="button" onclick={on_dismiss} aria-label="Dismiss these notices">{ "Dismiss" }</button>
        </div>
    }
}

/// A notice's words as a sentence, its first letter a capital (the engine's and the
/// link reader's messages begin in lower case), with each `#/case/…` in it a link
/// (an untagged link's other reading).
fn notice_text(message: &str) -> Html {
    let mut first = message.chars();
    let sentence: String = first.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(first).collect();
    let words = sentence.split(' ').enumerate().map(|(index, word)| {
        let space = if index == 0 { "" } else { " " };
        if word.starts_with("#/case/") {
            html! { <>{ space }<a href={word.to_string()}>{ word }</a></> }
        } else {
            html! { <>{ space }{ word }</> }
        }
    });
    words.collect::<Html>()
}

/// What the parameter panel shows: not the position, so playback does not re-render it.
#[derive(Properties, Clone)]
pub struct ParamProps {
    pub meta: &'static slowpath_engine::CaseMeta,
    pub params: slowpath_engine::ParamValues,
    pub variant: &'static str,
    pub seed: u64,
    pub on_action: Callback<Action>,
    /// The form's title (compare mode has a second form for the second side).
    #[prop_or("Parameters")]
    pub heading: &'static str,
}

impl PartialEq for ParamProps {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.meta, other.meta)
            && self.params == other.params
            && self.variant == other.variant
            && self.seed == other.seed
    }
}

/// The parameter panel, generated from the schema.
#[function_component(ParamPanel)]
pub fn param_panel(props: &ParamProps) -> Html {
    let meta = props.meta;
    let on_variant = {
        let on_action = props.on_action.clone();
        Callback::from(move |event: Event| {
            if let Some(id) = select_value(&event) {
                on_action.emit(Action::SetVariant(id));
            }
        })
    };
    let on_seed = {
        let on_action = props.on_action.clone();
        Callback::from(move |event: Event| {
            if let Some(seed) = select_value(&event).and_then(|text| text.trim().parse::<u64>().ok()) {
                on_action.emit(Action::SetSeed(seed));
            }
        })
    };
    let variant = meta.variant(props.variant).unwrap_or(meta.default_variant());
    html! {
        <form class="params" aria-label={props.heading} onsubmit={Callback::from(|event: SubmitEvent| event.prevent_default())}>
            <h2>{ props.heading }</h2>
            <label class="param">
                <span class="param-label">{ "Kernel variant" }</span>
                <select data-testid="variant" onchange={on_variant}>
                    { for VariantGroup::ALL.iter().filter(|group| meta.variants.iter().any(|v| v.group == **group)).map(|group| html! {
                        <optgroup label={group.label()}>
                            { for meta.variants.iter().filter(|v| v.group == *group).map(|option| html! {
                                <option value={option.id} selected={option.id == variant.id}>{ option.label }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
                <span class="param-help">{ crate::components::code_spans(variant.description) }</span>
            </label>
            { for meta.params.iter().map(|spec| {
                let value = props.params.0.get(spec.name).map(|v| spec.format_value(v)).unwrap_or_default();
                let on_change = {
                    let on_action = props.on_action.clone();
                    let name = spec.name.to_string();
                    Callback::from(move |event: Event| {
                        if let Some(text) = select_value(&event) {
                            on_action.emit(Action::SetParam { name: name.clone(), text });
                        }
                    })
                };
                let input = match spec.kind {
                    ParamKind::Switch { .. } | ParamKind::Choice { .. } => {
                        let options: Vec<&str> = match spec.kind {
                            ParamKind::Choice { options, .. } => options.to_vec(),
                            _ => vec!["on", "off"],
                        };
                        html! {
                            <select data-testid={format!("param-{}", spec.name)} onchange={on_change}>
                                { for options.iter().map(|option| html! {
                                    <option value={*option} selected={*option == value}>{ *option }</option>
                                }) }
                            </select>
                        }
                    }
                    _ => html! {
                        <input type="text" inputmode="decimal" data-testid={format!("param-{}", spec.name)}
                            value={value.clone()} onchange={on_change} spellcheck="false" autocomplete="off" />
                    },
                };
                html! {
                    <label class="param" key={spec.name}>
                        <span class="param-label">{ spec.label }</span>
                        { input }
                        <span class="param-help">{ crate::components::code_spans(&format!("{} Range {}.", spec.description, spec.kind.range_text())) }</span>
                    </label>
                }
            }) }
            <label class="param">
                <span class="param-label">{ "Seed" }</span>
                <input type="text" inputmode="numeric" data-testid="seed" value={props.seed.to_string()} onchange={on_seed} />
                <span class="param-help">{ "The seeded jitter: the same seed gives the same run, everywhere." }</span>
            </label>
        </form>
    }
}

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub url: String,
    /// The same moment with `embed`, for the `<iframe>` snippet.
    pub embed_url: String,
    pub title: &'static str,
    /// This moment in the presenter view (a projector, a QR code for the room).
    pub present_hash: String,
}

/// The embed's default width in CSS pixels: the stage gets the frame's width.
const EMBED_WIDTH_PX: u32 = 960;
/// The embed's default height: the bar, the transport, the narration's line and the
/// tallest stage at that width fit without cutting a card (e2e/embed.test.mjs measures it).
const EMBED_HEIGHT_PX: u32 = 900;

/// The snippet that embeds `url` in a page: sized for a stage, lazy, titled.
pub fn embed_code(url: &str, title: &str) -> String {
    let escape = |text: &str| text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    format!(
        "<iframe src=\"{}\" title=\"slowpath: {}\" width=\"{EMBED_WIDTH_PX}\" height=\"{EMBED_HEIGHT_PX}\" loading=\"lazy\" allow=\"fullscreen; clipboard-write\" style=\"border: 0; max-width: 100%\"></iframe>",
        escape(url),
        escape(title)
    )
}

/// The current moment as a link: shown, and copied on click.
#[function_component(ShareLink)]
pub fn share_link(props: &ShareProps) -> Html {
    let copied = use_state(|| false);
    let onclick = {
        let url = props.url.clone();
        let copied = copied.clone();
        Callback::from(move |_| {
            if let Some(window) = web_sys::window() {
                let _ = window.navigator().clipboard().write_text(&url);
                copied.set(true);
            }
        })
    };
    let code = embed_code(&props.embed_url, props.title);
    let copied_code = use_state(|| false);
    let on_copy_code = {
        let code = code.clone();
        let copied_code = copied_code.clone();
        Callback::from(move |_| {
            if let Some(window) = web_sys::window() {
                let _ = window.navigator().clipboard().write_text(&code);
                copied_code.set(true);
            }
        })
    };
    html! {
        <div class="share">
            <h2>{ "Share this moment" }</h2>
            <a class="button" href={props.present_hash.clone()} data-testid="present">{ "Presenter view (v)" }</a>
            <button type="button" data-testid="share-link" onclick={onclick} aria-label="Copy link to this exact step">
                { if *copied { "Copied ✓" } else { "Copy link" } }
            </button>
            <input type="text" readonly=true class="share-url" data-testid="share-url" value={props.url.clone()} aria-label="Link to this step" />
            <button type="button" data-testid="copy-embed" onclick={on_copy_code}>
                { if *copied_code { "Embed code copied ✓" } else { "Copy embed code" } }
            </button>
            <input type="text" readonly=true class="share-url" data-testid="embed-code" value={code} aria-label="Embed code: an iframe of this step" />
        </div>
    }
}

/// What the transport's buttons do, for a touch screen's help (a keyboard's is `SHORTCUTS`).
const TOUCH_CONTROLS: &[(&str, &str)] = &[
    ("▶ Play", "play / pause"),
    ("◀ back · forward ▶", "one step back / forward, at the step size chosen under “more”"),
    ("◂◆ previous · next ◆▸", "the previous / next key moment ◆ (a chapter or another notable event)"),
    ("⋯ more", "start and end, the step size, the speed, the chapters and this help"),
    ("the scrub bar", "drag to any moment; its numbered marks are the chapters"),
];

/// The keys (or, on a touch screen, the buttons) and the glossary, over the page;
/// `on_close` hears Close. Both lists are drawn and the stylesheet shows the one for
/// the pointer in hand (`.keys-only`, `.touch-only`).
pub fn help_overlay(on_close: Callback<MouseEvent>) -> Html {
    html! {
        <div class="help-overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help">
            <div class="help-card">
                <h2 id="help-title">
                    <span class="keys-only">{ "Keys and words" }</span><span class="touch-only">{ "Buttons and words" }</span>
                </h2>
                <dl class="keys-only">
                    { for SHORTCUTS.iter().map(|(keys, what)| html! { <><dt><kbd>{ *keys }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
                <dl class="touch-only" data-testid="touch-help">
                    { for TOUCH_CONTROLS.iter().map(|(control, what)| html! { <><dt><strong>{ *control }</strong></dt><dd>{ *what }</dd></> }) }
                </dl>
                <h3>{ "Words" }</h3>
                <dl class="glossary">
                    { for super::GLOSSARY.iter().map(|(word, what)| html! { <><dt>{ *word }</dt><dd>{ *what }</dd></> }) }
                </dl>
                <button type="button" onclick={on_close} autofocus=true>{ "Close" }</button>
            </div>
        </div>
    }
}
