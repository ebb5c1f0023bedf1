//! `#/case/<id>/tour/<n>`: stop n of a case's guided tour. The stop comes from the
//! engine (`slowpath_engine::tour::open`: its run, its position, its text with the
//! figures filled in, its question with the answer worked out); this page shows the
//! player opened at the stop's state with the tour panel in its words' column, beside
//! the stage, so that the stage keeps its size (a panel above it took its height).
//!
//! Predict, then reveal: a question's answer is kept here (not in the player), and the
//! next stop reveals it. →/PageDown and ←/PageUp move between stops; they are caught
//! on the window before the player's own keys, so that a presentation clicker drives
//! the tour, and Shift + →/← still step the run.

use super::not_found::no_such_case;
use crate::player::link::OpenedLink;
use crate::player::url::{PlayerQuery, DEFAULT_GRANULARITY};
use crate::player::PlayerView;
use crate::route::Route;
use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::tour::{self, Answer, OpenStop, Posed, TourError};
use slowpath_engine::CaseMeta;
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// `#/tour/<id>/<stop>?<query>`; the stop as written in the link (1-based,
/// clamped by the tour).
pub fn tour_page(case: Option<crate::cases::Resolved>, id: &str, stop: &str, query: &str) -> Html {
    match case {
        // Keyed by case: the answers given live as long as one case's tour is open.
        Some(case @ crate::cases::Resolved { case: Some(_), .. }) => html! {
            <TourOf key={id.to_string()} {case} stop={AttrValue::from(stop.to_string())}
                query={AttrValue::from(query.to_string())} />
        },
        _ => no_such_case(id),
    }
}

#[derive(Properties, PartialEq)]
struct TourProps {
    /// The case, as the route resolved it (with its simulation: `tour_page` checks).
    case: crate::cases::Resolved,
    stop: AttrValue,
    query: AttrValue,
}

/// What the student answered at a stop, judged against that stop's run.
#[derive(Clone, Debug, PartialEq)]
struct Given {
    said: String,
    right: bool,
}

/// The flags of a link that say how the page shows (`present`, `embed`), kept from
/// stop to stop; everything else a stop decides itself.
fn flags(query: &str) -> String {
    query
        .split('&')
        .filter(|pair| matches!(pair.split('=').next(), Some("present" | "embed")))
        .collect::<Vec<_>>()
        .join("&")
}

fn stop_hash(meta: &CaseMeta, index: usize, flags: &str) -> String {
    Route::Tour { id: meta.id.to_string(), stop: (index + 1).to_string(), query: flags.to_string() }.to_hash()
}

fn go_to(meta: &'static CaseMeta, index: usize, flags: &str) {
    let _ = gloo::utils::window().location().set_hash(&stop_hash(meta, index, flags));
}

/// The player's state for an opened stop: its state and position, and the page's flags.
fn player_query(meta: &'static CaseMeta, opened: &OpenStop, flags: &str) -> PlayerQuery {
    let (shown, _) = PlayerQuery::parse(meta, flags);
    PlayerQuery {
        params: opened.state.params.clone(),
        variant: opened.state.variant,
        seed: opened.state.seed,
        granularity: DEFAULT_GRANULARITY,
        step: opened.position.checked_sub(1).map(|last| (Granularity::Micro, last)),
        ..shown
    }
}

/// Keys typed into a text field are the field's; a clicker's PageDown on a radio
/// button or the scrub bar still moves the tour.
fn typing(event: &web_sys::KeyboardEvent, arrows: bool) -> bool {
    let Some(element) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    match element.tag_name().as_str() {
        "TEXTAREA" => true,
        "SELECT" => arrows,
        "INPUT" => {
            arrows
                || matches!(
                    element.get_attribute("type").as_deref(),
                    None | Some("text" | "search" | "number")
                )
        }
        _ => false,
    }
}

/// A stop as it opens: None while its run is made, then the stop or why it could not open.
type Opening = Option<Result<OpenStop, TourError>>;

/// A stop's run and the previous stop's question revealed, as the engine's worker
/// makes their runs: (the stop opened, the question revealed). None while a run is
/// being made.
#[hook]
fn use_opened_stop(
    meta: &'static CaseMeta,
    case: Option<&'static dyn slowpath_engine::Case>,
    index: usize,
) -> (Rc<Opening>, Rc<Option<Posed>>) {
    let stops = meta.tour.stops;
    // The stop's run, and the previous stop's when it asked a question (revealed
    // here, so that a link straight to this stop still shows the answer), come
    // from the engine's worker; the stop opens on them.
    let key_of = |index: usize| -> Option<crate::worker::RunKey> {
        let state = tour::state_of(case?, index).ok()?;
        Some(crate::worker::RunKey {
            case: meta.id,
            variant: state.variant,
            seed: state.seed,
            params: state.params,
        })
    };
    let previous_asks =
        index.checked_sub(1).filter(|&previous| stops.get(previous).is_some_and(|s| s.question.is_some()));
    let stop_run = crate::worker::use_run(key_of(index));
    let previous_run = crate::worker::use_run(previous_asks.and_then(key_of));
    // Opening a stop fills its text and works out its question from the run:
    // once per stop and run, not on every render.
    let identity = |run: &Option<Result<Rc<slowpath_engine::Run>, String>>| {
        run.as_ref().map(|made| made.as_ref().map(|run| Rc::as_ptr(run) as usize).map_err(Clone::clone))
    };
    let opened = use_memo((index, identity(&stop_run)), move |&(index, _)| -> Opening {
        match case {
            None => Some(Err(TourError(format!("no case `{}`", meta.id)))),
            Some(case) => match (tour::state_of(case, index), &stop_run) {
                (Err(error), _) => Some(Err(error)),
                (Ok(_), None) => None,
                (Ok(_), Some(Err(why))) => Some(Err(TourError(why.clone()))),
                (Ok(_), Some(Ok(run))) => Some(tour::open_with_run(case, index, run.clone())),
            },
        }
    });
    let revealed =
        use_memo((previous_asks, identity(&previous_run)), move |&(previous, _)| -> Option<Posed> {
            match (case, previous, &previous_run) {
                (Some(case), Some(previous), Some(Ok(run))) => {
                    tour::open_with_run(case, previous, run.clone()).ok().and_then(|opened| opened.question)
                }
                _ => None,
            }
        });
    (opened, revealed)
}

/// →/PageDown and ←/PageUp move between stops, caught on the window before the
/// player's own keys, so that a presentation clicker drives the tour.
#[hook]
fn use_stop_keys(meta: &'static CaseMeta, index: usize, len: usize, flags: String) {
    use_effect_with((index, flags), move |(index, flags)| {
        let (index, flags) = (*index, flags.clone());
        let options = EventListenerOptions { phase: EventListenerPhase::Capture, passive: false };
        let listener =
            EventListener::new_with_options(&gloo::utils::window(), "keydown", options, move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if event.ctrl_key() || event.meta_key() || event.alt_key() || event.shift_key() {
                    return;
                }
                let key = event.key();
                let arrows = matches!(key.as_str(), "ArrowRight" | "ArrowLeft");
                let target = match key.as_str() {
                    "ArrowRight" | "PageDown" => Some((index + 1 < len).then_some(index + 1)),
                    "ArrowLeft" | "PageUp" => Some(index.checked_sub(1)),
                    _ => None,
                };
                let Some(target) = target else { return };
                if typing(event, arrows) {
                    return;
                }
                // The tour owns these keys here: the player's step keys must not also run.
                event.prevent_default();
                event.stop_propagation();
                if let Some(target) = target {
                    go_to(meta, target, &flags);
                }
            });
        move || drop(listener)
    });
}

/// A guess typed at one stop: its input and the message about it, both cleared
/// when the stop changes (a message about the last stop's guess says nothing about
/// this one's).
#[hook]
fn use_guess(index: usize) -> (NodeRef, UseStateHandle<Option<String>>) {
    let guess_error = use_state(|| None::<String>);
    let guess_ref = use_node_ref();
    {
        let (guess_error, guess_ref) = (guess_error.clone(), guess_ref.clone());
        use_effect_with(index, move |_| {
            guess_error.set(None);
            if let Some(input) = guess_ref.cast::<web_sys::HtmlInputElement>() {
                input.set_value("");
            }
        });
    }
    (guess_ref, guess_error)
}

#[function_component(TourOf)]
fn tour_of(props: &TourProps) -> Html {
    let meta = props.case.meta;
    let case = props.case.case;
    let stops = meta.tour.stops;
    let (index, notice) = tour::stop_number(&props.stop, stops.len());
    let flags = flags(&props.query);
    let (opened, revealed) = use_opened_stop(meta, case, index);
    let answers = use_state(BTreeMap::<usize, Given>::new);
    let (guess_ref, guess_error) = use_guess(index);
    use_stop_keys(meta, index, stops.len(), flags.clone());

    let route = Route::Tour { id: meta.id.to_string(), stop: String::new(), query: flags.clone() };
    let address = AttrValue::from(stop_hash(meta, index, &flags));
    let Some(opened) = (*opened).as_ref() else {
        return loading_panel(meta, stops, index, &flags);
    };
    let (player_link, open_error) = match &opened {
        Ok(opened) => (OpenedLink::of(meta, player_query(meta, opened, &flags)), None),
        Err(error) => (OpenedLink::parse(meta, &flags), Some(error.to_string())),
    };
    let player_query = player_link.query.to_query(meta);
    let follow =
        opened.as_ref().ok().and_then(|opened| next_stop_in_this_run(meta, opened, stops.get(index + 1)));
    let question = match &opened {
        Ok(OpenStop { question: Some(posed), .. }) => {
            let asked = Asked {
                index,
                posed,
                answers: answers.clone(),
                guess_ref,
                guess_error,
                follows: follow.is_some(),
            };
            question_panel(&asked)
        }
        _ => Html::default(),
    };
    let reveal = match (&*revealed, index.checked_sub(1)) {
        (Some(posed), Some(previous)) => reveal_panel(posed, answers.get(&previous)),
        _ => Html::default(),
    };
    let panel = html! {
        <section class="panel tour-panel" aria-labelledby="tour-title" data-testid="tour">
            // The stops' buttons on the count's line: beside the stage every line counts.
            <div class="tour-head">
                <p class="tour-count" data-testid="tour-count">
                    { format!("Guided tour · stop {} of {}", index + 1, stops.len()) }
                </p>
                { stop_nav(meta, stops.len(), index, &flags, &Route::Case { id: meta.id.to_string(), query: player_query.clone() }.to_hash(), true) }
            </div>
            <h2 id="tour-title">{ stops.get(index).map_or("", |stop| stop.title) }</h2>
            if let Some(notice) = &notice {
                <p class="tour-notice" role="status" data-testid="tour-notice">{ notice.message.clone() }</p>
            }
            if let Some(error) = &open_error {
                <p class="tour-notice" role="status" data-testid="tour-notice">
                    { format!("This stop could not be opened ({error}); showing the case at its start.") }
                </p>
            }
            <p class="tour-text" data-testid="tour-text">{ opened.as_ref().map(|opened| opened.text.join(" ")).unwrap_or_default() }</p>
            { reveal }
            { question }
        </section>
    };
    let key = format!("{index}?{player_query}");
    let on_position = follow.map(|(own, next)| {
        let flags = flags.clone();
        Callback::from(move |position: u64| {
            if position > own && position >= next {
                go_to(meta, index + 1, &flags);
            }
        })
    });
    let player = html! {
        <PlayerView {key} meta={meta} case={case} case_ui={props.case.ui} link={player_link}
            run={opened.as_ref().ok().map(|opened| opened.run.clone())}
            address={Some(address)} {on_position} aside={Some(panel)} />
    };
    let why_figures_differ = props.case.card.and_then(|card| card.why_figures_differ);
    tour_page_frame(meta, &route, why_figures_differ, player)
}

/// The buttons to the previous and next stops and the way out; `keys`: with the
/// keys that do the same.
fn stop_nav(meta: &'static CaseMeta, len: usize, index: usize, flags: &str, leave: &str, keys: bool) -> Html {
    let go = |target: usize| {
        let flags = flags.to_string();
        Callback::from(move |_: MouseEvent| go_to(meta, target, &flags))
    };
    html! {
        <nav class="tour-nav" aria-label="Tour stops">
            <button type="button" data-testid="tour-prev" disabled={index == 0} aria-label="Previous stop"
                onclick={go(index.saturating_sub(1))}>{ "← Previous" }</button>
            <button type="button" data-testid="tour-next" disabled={index + 1 >= len}
                onclick={go((index + 1).min(len.saturating_sub(1)))}>{ "Next stop →" }</button>
            <a href={leave.to_string()} data-testid="leave-tour">{ "Leave tour" }</a>
            if keys {
                <span class="tour-keys">{ "→ or PageDown: next stop · ← or PageUp: previous" }</span>
            }
        </nav>
    }
}

/// The panel while the stop's run is made: the stops stay reachable, so that
/// nobody has to wait to move on.
fn loading_panel(meta: &'static CaseMeta, stops: &[tour::Stop], index: usize, flags: &str) -> Html {
    let title = stops.get(index).map_or("", |stop| stop.title);
    let leave = Route::Case { id: meta.id.to_string(), query: flags.to_string() }.to_hash();
    html! {
        <section class="panel tour-panel" aria-labelledby="tour-title" data-testid="tour-loading" aria-busy="true">
            <p class="tour-count">{ format!("Guided tour · stop {} of {}", index + 1, stops.len()) }</p>
            <h2 id="tour-title">{ title }</h2>
            <p class="tour-text" role="status">{ "Opening this stop: the engine is making its run…" }</p>
            { stop_nav(meta, stops.len(), index, flags, &leave, false) }
        </section>
    }
}

/// When the next stop is later in this same run, playing (or stepping) to its moment
/// moves the tour there: predict, play, see. (own position, next stop's position)
fn next_stop_in_this_run(
    meta: &'static CaseMeta,
    opened: &OpenStop,
    next: Option<&tour::Stop>,
) -> Option<(u64, u64)> {
    tour::stop_state(meta, next?)
        .ok()
        .filter(|state| *state == opened.state)
        .and_then(|_| tour::resolve(&opened.run, next?.at).ok())
        .filter(|&next| next > opened.position)
        .map(|next| (opened.position, next))
}

/// A stop's question as asked: where the answer goes and what was said.
struct Asked<'a> {
    index: usize,
    posed: &'a Posed,
    answers: UseStateHandle<BTreeMap<usize, Given>>,
    guess_ref: NodeRef,
    guess_error: UseStateHandle<Option<String>>,
    /// Playing on reaches the next stop (`next_stop_in_this_run`).
    follows: bool,
}

/// The question: choices or a typed guess, and what was noted.
fn question_panel(asked: &Asked) -> Html {
    let (index, posed) = (asked.index, asked.posed);
    let given = asked.answers.get(&index).cloned();
    let record = {
        let answers = asked.answers.clone();
        move |said: String, right: bool| {
            let mut next = (*answers).clone();
            next.insert(index, Given { said, right });
            answers.set(next);
        }
    };
    let body = match &posed.answer {
        Answer::Choice { choices, correct } => html! {
            <div class="tour-choices">
                { for choices.iter().enumerate().map(|(i, choice)| {
                    let record = record.clone();
                    let (said, right) = (choice.clone(), i == *correct);
                    let onchange = Callback::from(move |_: Event| record(said.clone(), right));
                    let checked = given.as_ref().is_some_and(|g| g.said == *choice);
                    html! {
                        <label class="tour-choice">
                            <input type="radio" name={format!("tour-question-{index}")} {checked} {onchange} />
                            { choice.clone() }
                        </label>
                    }
                }) }
            </div>
        },
        Answer::Guess { .. } => guess_form(asked, record),
    };
    html! {
        <fieldset class="tour-question" data-testid="tour-question">
            <legend>{ posed.prompt.clone() }</legend>
            { body }
            <p class="tour-noted" role="status" data-testid="tour-noted">
                { given.as_ref().map(|g| if asked.follows {
                    format!("Noted: {}. Play on: at the next stop's moment the tour moves there and shows whether you were right.", g.said)
                } else {
                    format!("Noted: {}. Go to the next stop to see whether you were right.", g.said)
                }).unwrap_or_default() }
            </p>
        </fieldset>
    }
}

/// A typed guess, judged when saved; a guess that is not a number says why.
fn guess_form(asked: &Asked, record: impl Fn(String, bool) + 'static) -> Html {
    let onsubmit = {
        let (answer, guess_ref, guess_error) =
            (asked.posed.answer.clone(), asked.guess_ref.clone(), asked.guess_error.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let text = guess_ref.cast::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            match answer.judge_guess(&text) {
                Ok(right) => {
                    guess_error.set(None);
                    record(text.trim().to_string(), right);
                }
                Err(why) => guess_error.set(Some(why)),
            }
        })
    };
    html! {
        <form class="tour-guess" {onsubmit}>
            <label>
                <span>{ "Your guess" }</span>
                <input type="text" ref={asked.guess_ref.clone()} data-testid="tour-guess" autocomplete="off"
                    aria-describedby="tour-guess-error" />
            </label>
            <button type="submit">{ "Save my guess" }</button>
            <p id="tour-guess-error" class="tour-error" aria-live="polite">
                { (*asked.guess_error).clone().unwrap_or_default() }
            </p>
        </form>
    }
}

/// The previous stop's answer, beside what was said there: one line, folded open for
/// the why, so that the stop's own words keep their room beside the stage.
fn reveal_panel(posed: &Posed, given: Option<&Given>) -> Html {
    let verdict = match given {
        Some(Given { said, right: true }) => format!("You said {said}: right."),
        Some(Given { said, right: false }) => format!("You said {said}: not this time."),
        None => "You did not answer at the previous stop.".to_string(),
    };
    html! {
        <details class="tour-reveal" data-testid="tour-reveal">
            <summary>
                { "The answer: " }<strong>{ posed.answer.correct_text() }</strong>{ " · " }
                <span data-testid="tour-verdict">{ verdict }</span>
            </summary>
            <p class="tour-prompt">{ posed.prompt.clone() }</p>
            <p>{ posed.explain.clone() }</p>
        </details>
    }
}

/// The player with the tour panel in it: by itself in an embed or the presenter view,
/// else under the case's breadcrumb and title, and the title's figure beside the
/// model's (`why_figures_differ`: the case card's why).
fn tour_page_frame(
    meta: &'static CaseMeta,
    route: &Route,
    why_figures_differ: Option<&'static str>,
    player: Html,
) -> Html {
    if route.embedded() || route.presenting() {
        return html! {
            <article class="case case-embed case-tour" data-testid="case-page" data-case-id={meta.id} aria-label={meta.title}>
                { player }
            </article>
        };
    }
    html! {
        <article class="case case-tour" data-testid="case-page" data-case-id={meta.id} aria-labelledby="case-title">
            // The way back and the title on one line: the stage below keeps the case page's room.
            <header class="case-header tour-header">
                <nav class="breadcrumb" aria-label="Breadcrumb">
                    <ol role="list">
                        <li><a href={Route::Landing.to_hash()}>{ "Cases" }</a></li>
                        <li><a href={Route::case(meta.id).to_hash()}>{ "Case page" }</a></li>
                        <li><span aria-current="page">{ "Guided tour" }</span></li>
                    </ol>
                </nav>
                <h1 id="case-title">{ meta.title }</h1>
                <crate::components::TitleFigures meta={crate::components::MetaRef(meta)} why={why_figures_differ} />
            </header>
            { player }
        </article>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::model::Player;

    /// Every stop's link, as this page builds it, opens the player at the stop's state
    /// and position, with no notice (nothing clamped or replaced).
    #[test]
    fn every_stop_opens_in_the_player_where_the_engine_put_it() {
        for case in slowpath_engine::simulations() {
            let meta = case.meta();
            for index in 0..meta.tour.stops.len() {
                let opened = tour::open(case, index).expect("opens");
                for flags in ["", "present"] {
                    // Through the link the address bar shows, as a reload would open it.
                    let query = player_query(meta, &opened, flags).to_query(meta);
                    let player = Player::open(case, &OpenedLink::parse(meta, &query));
                    let name = format!("{} stop {} `{query}`", meta.id, index + 1);
                    assert_eq!(player.position, opened.position, "{name}");
                    assert_eq!(player.query.params, opened.state.params, "{name}");
                    assert_eq!(
                        (player.query.variant, player.query.seed),
                        (opened.state.variant, opened.state.seed)
                    );
                    assert_eq!(player.query.present, flags == "present", "{name}");
                    assert!(player.notices.is_empty(), "{name}: {:?}", player.notices);
                }
            }
        }
    }

    #[test]
    fn only_the_display_flags_carry_from_stop_to_stop() {
        assert_eq!(flags("present&v=x&seed=3&embed=1"), "present&embed=1");
        assert_eq!(flags("step=iter:4"), "");
        assert_eq!(
            stop_hash(slowpath_engine::registry()[0].meta, 2, "present").split('/').next_back(),
            Some("3?present")
        );
    }
}
