//! The player's three layouts (the case page, the presenter view, an embed), each
//! drawn from one [`Screen`]: what the run on screen, its links and its callbacks are.

use super::controls::{help_overlay, notices, ParamPanel, ShareLink, Transport};
use super::panels::{self, CodePanel, LockPanel, MetricsPanel, NarrationPanel};
use super::stage::{CaseUi, InputContext, StageContext};
use super::timeline::Timeline;
use super::world_stage::world_stage;
use super::{compare_view, export, jump, model::Player, today, url, Action, DETAIL_PARTS};
use crate::route::Route;
use slowpath_engine::CaseMeta;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What every layout of the player draws from: the run on screen, its stage and
/// its compare side, the links, and the callbacks.
pub(super) struct Screen {
    pub(super) meta: &'static CaseMeta,
    pub(super) player: Rc<Player>,
    /// The link a page that owns it (a tour stop) keeps in the address bar.
    pub(super) address: Option<AttrValue>,
    /// The page's own panel for the words' column (`PlayerProps::aside`).
    pub(super) aside: Html,
    /// Whether there is one (a guided tour's): the words' column makes room for it.
    pub(super) touring: bool,
    pub(super) links: Links,
    pub(super) view: Rc<slowpath_engine::View>,
    pub(super) case_ui: Option<&'static CaseUi>,
    pub(super) context: StageContext,
    pub(super) second: Option<Result<StageContext, String>>,
    pub(super) labels: Option<(String, String)>,
    pub(super) second_narration: Html,
    /// The runs being made by the worker, with a way to cancel them.
    pub(super) progress: Html,
    pub(super) on_action: Callback<Action>,
    pub(super) on_seek_time: Callback<u64>,
    pub(super) close_help: Callback<MouseEvent>,
    pub(super) dismiss_notices: Callback<MouseEvent>,
    pub(super) stage_area: NodeRef,
    /// What is below the first screen, mounted once the reader goes there.
    pub(super) details_area: NodeRef,
}

impl Screen {
    pub(super) fn stage_area_class(&self) -> Classes {
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
pub(super) struct Links {
    /// The page's address without its hash.
    pub(super) base: String,
    pub(super) share_url: String,
    pub(super) embed_url: String,
    pub(super) present_hash: String,
}

impl Links {
    pub(super) fn of(meta: &'static CaseMeta, query: &url::PlayerQuery) -> Links {
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
pub(super) fn presenter_screen(
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
                    // The step's last operation whole, at a size read from the back of the
                    // room; its earlier ones counted, not listed (a room cannot read a
                    // scrolled box, and the case page lists them).
                    <NarrationPanel run={player.run.clone()} view={view.clone()} granularity={player.query.granularity}
                        earlier={Rc::new(panels::earlier_of(&player.run, player.position, player.query.granularity, 0))} />
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
pub(super) fn embedded_screen(screen: &Screen) -> Html {
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
pub(super) fn case_page_screen(screen: &Screen, details_shown: u8) -> Html {
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
                        earlier={Rc::new(panels::earlier_of(&player.run, player.position, player.query.granularity, panels::EARLIER_MAX))} />
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
            <compare_view::CompareFigures player={player.clone()} labels={screen.labels.clone()} />
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
