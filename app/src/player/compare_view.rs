//! Compare mode on the page: the control that turns it on (the other variant, or
//! the same one with other parameters), the two stages side by side, the second
//! side's one-line narration, the figures in two columns with the difference in
//! words, and the case's wide slot for both sides. The rules are in `compare.rs`.

use super::compare::{difference, rows};
use super::controls::{select_value, ParamPanel};
use super::model::{Action, Player};
use super::stage::{CaseUi, StageContext};
use super::url::Align;
use slowpath_engine::case::VariantGroup;
use slowpath_engine::run::format;
use slowpath_engine::{CaseMeta, ParamValues};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// One side's settings: a variant, parameters, a seed.
type Side<'a> = (&'static str, &'a ParamValues, u64);

/// A side's name for people: its variant's label, and what it sets that the other side does not.
pub fn side_label(
    meta: &'static CaseMeta,
    case_ui: Option<&'static CaseUi>,
    this: Side<'_>,
    that: Side<'_>,
) -> String {
    let named = case_ui.and_then(|ui| ui.variant_named).and_then(|named| named(this.0, this.1));
    let mut label =
        named.unwrap_or_else(|| meta.variant(this.0).map_or(this.0, |variant| variant.label).to_string());
    for spec in meta.params {
        match (this.1 .0.get(spec.name), that.1 .0.get(spec.name)) {
            (Some(value), theirs) if theirs != Some(value) => {
                label.push_str(&format!(
                    " · {} {}",
                    spec.label.to_ascii_lowercase(),
                    spec.format_value(value)
                ));
            }
            _ => {}
        }
    }
    if this.2 != that.2 {
        label.push_str(&format!(" · seed {}", this.2));
    }
    label
}

/// The two sides' labels, first then second (None when not comparing).
pub fn labels(player: &Player, case_ui: Option<&'static CaseUi>) -> Option<(String, String)> {
    let side = player.query.compare.as_ref()?;
    let first = (player.query.variant, &player.query.params, player.query.seed);
    let second = (side.variant, &side.params, side.seed);
    Some((side_label(player.meta, case_ui, first, second), side_label(player.meta, case_ui, second, first)))
}

/// The second side's stage context, or what it is waiting for; None when not comparing.
pub fn second_context(player: &Player, on_seek_time: &Callback<u64>) -> Option<Result<StageContext, String>> {
    let side = player.query.compare.as_ref()?;
    Some(match &player.other {
        Some(other) if player.wanted_compare().is_none() => Ok(StageContext {
            meta: player.meta,
            run: other.clone(),
            view: Rc::new(other.view(player.other_at.position)),
            on_seek_time: on_seek_time.clone(),
        }),
        _ => Err(format!("Running {}…", player.meta.variant(side.variant).map_or(side.variant, |v| v.label))),
    })
}

/// The stage, or in compare mode the two stages side by side, each with its side's
/// name; `fallback` draws a case without a stage of its own.
pub fn stages(
    case_ui: Option<&'static CaseUi>,
    first: &StageContext,
    second: Option<&Result<StageContext, String>>,
    labels: Option<&(String, String)>,
    fallback: fn(&StageContext) -> Html,
) -> Html {
    let draw = |context: &StageContext| match case_ui {
        Some(case_ui) => (case_ui.main)(context),
        None => fallback(context),
    };
    let (Some(second), Some((first_label, second_label))) = (second, labels) else { return draw(first) };
    html! {
        <div class="compare-stages" data-testid="compare-stages">
            <div class="compare-side" data-testid="compare-side" data-time-ns={first.view.now_ns.to_string()}>
                <p class="compare-caption" id="compare-stage-1">{ first_label.clone() }</p>
                { where_it_is(first) }
                <SideIds class="compare-stage" caption="compare-stage-1" suffix="">{ draw(first) }</SideIds>
            </div>
            <div class="compare-side" data-testid="compare-side"
                data-time-ns={second.as_ref().ok().map(|context| context.view.now_ns.to_string())}>
                <p class="compare-caption" id="compare-stage-2">{ second_label.clone() }</p>
                { match second {
                    Ok(context) => html! {
                        <>
                        { where_it_is(context) }
                        <SideIds class="compare-stage" caption="compare-stage-2" suffix="--2">{ draw(context) }</SideIds>
                        </>
                    },
                    Err(waiting) => html! { <p class="muted" role="status">{ waiting.clone() }</p> },
                } }
            </div>
        </div>
    }
}

/// Where one side's run stands at the aligned moment, in its own time: "at 0.82 s of
/// 1.3 s", and "ended at 1.3 s" only once it has (the other side may go on). Beside the
/// caption, not in it: the caption names the side's landmarks and must not change.
fn where_it_is(context: &StageContext) -> Html {
    let (run, view) = (&context.run, &context.view);
    let text = if view.position >= run.total_ops() {
        format!("ended at {}", format::duration(run.end_ns))
    } else {
        format!("at {} of {}", format::duration(view.now_ns), format::duration(run.end_ns))
    };
    html! { <p class="compare-where" data-testid="compare-where">{ text }</p> }
}

/// The case's wide slot (its outputs and charts) for both sides, side by side.
pub fn wide(
    case_ui: &'static CaseUi,
    first: &StageContext,
    second: Option<&Result<StageContext, String>>,
    labels: Option<&(String, String)>,
) -> Html {
    let (Some(Ok(second)), Some((first_label, second_label))) = (second, labels) else {
        return (case_ui.wide)(first);
    };
    html! {
        <div class="compare-wide" data-testid="compare-wide">
            <div class="compare-side">
                <p class="compare-caption" id="compare-wide-1">{ first_label.clone() }</p>
                <SideIds class="compare-wide-side" caption="compare-wide-1" suffix="">{ (case_ui.wide)(first) }</SideIds>
            </div>
            <div class="compare-side">
                <p class="compare-caption" id="compare-wide-2">{ second_label.clone() }</p>
                <SideIds class="compare-wide-side" caption="compare-wide-2" suffix="--w2">{ (case_ui.wide)(second) }</SideIds>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct SideIdsProps {
    class: &'static str,
    /// The id of the side's caption, which names its landmarks first.
    caption: &'static str,
    /// Appended to every id inside (and to every reference to one); "" keeps them.
    suffix: &'static str,
    children: Html,
}

/// One side of a comparison: a case's components draw the same ids and landmark
/// names on both sides, so after each render the second side's ids (and what refers
/// to them) get a suffix, and each side's sections are named with its caption first
/// ("Linux 6.15 (fix) The dump, up close"): ids stay unique and landmarks distinct
/// without any case knowing it is compared.
#[function_component(SideIds)]
fn side_ids(props: &SideIdsProps) -> Html {
    let node = use_node_ref();
    {
        let (node, caption, suffix) = (node.clone(), props.caption, props.suffix);
        use_effect(move || {
            if let Some(root) = node.cast::<web_sys::Element>() {
                relabel(&root, caption, suffix);
            }
        });
    }
    html! { <div ref={node} class={props.class}>{ props.children.clone() }</div> }
}

/// Attributes that name other elements by id.
const ID_REFERENCES: [&str; 4] = ["aria-labelledby", "aria-describedby", "aria-controls", "for"];

fn relabel(root: &web_sys::Element, caption: &str, suffix: &str) {
    let each = |selector: &str, mut visit: Box<dyn FnMut(&web_sys::Element) + '_>| {
        let Ok(found) = root.query_selector_all(selector) else { return };
        for index in 0..found.length() {
            if let Some(element) = found.item(index).and_then(|node| node.dyn_into::<web_sys::Element>().ok())
            {
                visit(&element);
            }
        }
    };
    if !suffix.is_empty() {
        each(
            "[id]",
            Box::new(|element| {
                let id = element.id();
                if !id.ends_with(suffix) {
                    element.set_id(&format!("{id}{suffix}"));
                }
            }),
        );
        for attribute in ID_REFERENCES {
            each(
                &format!("[{attribute}]"),
                Box::new(|element| {
                    let Some(value) = element.get_attribute(attribute) else { return };
                    let renamed: Vec<String> = value
                        .split_whitespace()
                        .map(|id| {
                            if id == caption || id.ends_with(suffix) {
                                id.to_string()
                            } else {
                                format!("{id}{suffix}")
                            }
                        })
                        .collect();
                    let renamed = renamed.join(" ");
                    if renamed != value {
                        let _ = element.set_attribute(attribute, &renamed);
                    }
                }),
            );
        }
    }
    each(
        LANDMARKS_LABELLED_BY,
        Box::new(|element| {
            let Some(value) = element.get_attribute("aria-labelledby") else { return };
            if !value.split_whitespace().any(|id| id == caption) {
                let _ = element.set_attribute("aria-labelledby", &format!("{caption} {value}"));
            }
        }),
    );
    let caption_text = gloo::utils::document()
        .get_element_by_id(caption)
        .and_then(|element| element.text_content())
        .unwrap_or_default();
    each(
        LANDMARKS_LABELLED,
        Box::new(|element| {
            let Some(value) = element.get_attribute("aria-label") else { return };
            if !caption_text.is_empty() && !value.starts_with(&caption_text) {
                let _ = element.set_attribute("aria-label", &format!("{caption_text}: {value}"));
            }
        }),
    );
}

/// Landmarks named by another element, and by their own label: what must not repeat.
const LANDMARKS_LABELLED_BY: &str =
    "section[aria-labelledby], aside[aria-labelledby], nav[aria-labelledby], [role=region][aria-labelledby]";
const LANDMARKS_LABELLED: &str =
    "section[aria-label]:not([aria-labelledby]), aside[aria-label]:not([aria-labelledby]), \
    nav[aria-label]:not([aria-labelledby]), [role=region][aria-label]:not([aria-labelledby])";

/// The second side's narration in up to three lines: where it is and what it just did.
pub fn second_narration(
    player: &Player,
    second: Option<&Result<StageContext, String>>,
    labels: Option<&(String, String)>,
) -> Html {
    let (Some(Ok(context)), Some((_, label))) = (second, labels) else { return html! {} };
    let text = if player.other_at.ended {
        // Say where both runs are: the other side keeps moving while this one has ended.
        let (end_ns, here_ns) = (context.run.end_ns, player.clock_ns);
        let later = if here_ns > end_ns {
            format!(", {} after that end", format::duration(here_ns - end_ns))
        } else {
            String::new()
        };
        format!(
            "{label}: ended at {}; the first run is at {}{later}",
            format::duration(end_ns),
            format::duration(here_ns)
        )
    } else {
        match &context.view.step {
            Some(step) => {
                format!(
                    "{label}, t = {}: {}",
                    format::duration(step.at_ns),
                    slowpath_engine::run::narration::plain(&step.narration)
                )
            }
            None => format!("{label}: at its start"),
        }
    };
    html! { <p class="compare-narration" data-testid="compare-narration" title={text.clone()}>{ text }</p> }
}

#[derive(Properties, PartialEq)]
pub struct CompareBarProps {
    pub player: Rc<Player>,
    pub on_action: Callback<Action>,
}

/// "Compare with…": no comparison, the same variant with other parameters, or any
/// variant from the grouped picker; and, when comparing, how the two move together.
#[function_component(CompareBar)]
pub fn compare_bar(props: &CompareBarProps) -> Html {
    let player = &props.player;
    let meta = player.meta;
    let current = player.query.compare.as_ref().map(|side| side.variant);
    let same_variant = player.query.variant;
    let on_pick = props.on_action.reform(move |event: Event| match select_value(&event).as_deref() {
        None | Some("") => Action::StopCompare,
        Some("=") => Action::CompareWith(same_variant.to_string()),
        Some(id) => Action::CompareWith(id.to_string()),
    });
    let on_align = props.on_action.reform(|event: Event| {
        Action::SetAlign(select_value(&event).as_deref().and_then(Align::from_key).unwrap_or(Align::Time))
    });
    html! {
        <div class="compare-bar" data-testid="compare-bar">
            <label>
                <span>{ "Compare with " }</span>
                <select data-testid="compare-with" onchange={on_pick}>
                    <option value="" selected={current.is_none()}>{ "nothing" }</option>
                    <option value="=">{ "the same variant, other parameters" }</option>
                    { for VariantGroup::ALL.iter().filter(|group| meta.variants.iter().any(|v| v.group == **group)).map(|group| html! {
                        <optgroup label={group.label()}>
                            { for meta.variants.iter().filter(|v| v.group == *group).map(|variant| html! {
                                <option value={variant.id} selected={current == Some(variant.id)}>{ variant.label }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            if current.is_some() {
                <label>
                    <span>{ " aligned by " }</span>
                    <select data-testid="compare-align" onchange={on_align}>
                        <option value="time" selected={player.query.align == Align::Time}>{ "simulated time" }</option>
                        <option value="unit" selected={player.query.align == Align::Unit}>
                            { format!("{} number", super::granularity_label(player.query.granularity)) }
                        </option>
                    </select>
                </label>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareFiguresProps {
    pub player: Rc<Player>,
    /// The two sides' names (`labels`).
    pub labels: Option<(String, String)>,
}

/// The figures of both runs in two columns, and the second against the first in words.
#[function_component(CompareFigures)]
pub fn compare_figures(props: &CompareFiguresProps) -> Html {
    let player = &props.player;
    let (Some(other), Some((first_label, second_label))) = (&player.other, props.labels.clone()) else {
        return html! {};
    };
    let meta = player.meta;
    let reported: Vec<&'static str> = meta.reported.iter().map(|figure| figure.metric).collect();
    let name = |key: &str| {
        meta.reported
            .iter()
            .find(|figure| figure.metric == key)
            .map_or_else(|| key.trim_end_matches("_ns").replace('_', " "), |figure| figure.label.to_string())
    };
    html! {
        <section class="panel compare-figures" aria-labelledby="compare-figures-title" data-testid="compare-figures">
            <h2 id="compare-figures-title">{ "Figures compared (whole runs)" }</h2>
            <div class="table-scroll" role="region" aria-label="Figures compared" tabindex="0">
            <table>
                <thead><tr>
                    <th scope="col">{ "figure" }</th><th scope="col">{ first_label }</th>
                    <th scope="col">{ second_label.clone() }</th><th scope="col">{ "difference" }</th>
                </tr></thead>
                <tbody>
                    { for rows(&reported, &player.run, other).into_iter().map(|(key, first, second)| html! {
                        <tr key={key.clone()}>
                            <th scope="row">{ name(&key) }</th>
                            <td>{ first.text() }</td>
                            <td>{ second.text() }</td>
                            <td data-testid="compare-difference">{ difference(&second_label, first, second) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            </div>
        </section>
    }
}

/// Below the first screen (`details-compare`): the picker while not comparing, and the
/// second side's parameter form while comparing (the picker is then on the first screen).
#[function_component(ComparePanel)]
pub fn compare_panel(props: &CompareBarProps) -> Html {
    let player = &props.player;
    html! {
        <section class="panel compare-panel" id="details-compare" tabindex="-1" aria-labelledby="compare-title">
            <h2 id="compare-title">{ "Compare" }</h2>
            if let Some(side) = &player.query.compare {
                // The first side's form, its changes sent to the second side.
                <div data-testid="compare-params">
                    <ParamPanel meta={player.meta} params={side.params.clone()} variant={side.variant}
                        seed={side.seed} on_action={props.on_action.reform(to_second_side)} heading="Parameters compared with" />
                </div>
            } else {
                <p class="muted">{ "This case beside another variant, or beside itself with other parameters: \
                    both stages side by side, one transport, the figures with their difference." }</p>
                <CompareBar player={player.clone()} on_action={props.on_action.clone()} />
            }
        </section>
    }
}

/// A parameter form's action, sent to the second side instead.
fn to_second_side(action: Action) -> Action {
    match action {
        Action::SetParam { name, text } => Action::SetCompareParam { name, text },
        Action::SetVariant(id) => Action::CompareWith(id),
        Action::SetSeed(seed) => Action::SetCompareSeed(seed),
        other => other,
    }
}
