//! The Lab's workload editor, above its stage: the text with line numbers, its
//! errors at their lines (checked as you type, by the engine's own parser and
//! checker), a preset to start from with a question to predict, the kernel, and Run
//! (Ctrl+Enter). Running sets the workload parameter, as the parameter panel sets
//! any parameter: the run is made in the worker and the text goes into the link.
//!
//! Checking on the page's thread is the one exception to "the page never runs the
//! engine" that this module makes: parsing and checking are bounded by the text's
//! 4 KiB and simulate nothing.

use crate::player::model::Action;
use crate::player::stage::InputContext;
use slowpath_engine::cases::the_lab::lang::{self, Diagnostic, ERRORS_MAX};
use slowpath_engine::cases::the_lab::presets::{Preset, PRESETS};
use slowpath_engine::cases::the_lab::{META, TEXT_BYTES_MAX};
use slowpath_engine::run::narration::group_digits;
use slowpath_engine::ParamValue;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The parameter the editor writes.
pub const WORKLOAD: &str = "workload";

/// Spaces a Tab inserts: the language's examples indent by two.
const INDENT: &str = "  ";

/// The editor as the player's input slot draws it.
pub fn input(context: &InputContext) -> Html {
    let written = match context.query.params.0.get(WORKLOAD) {
        Some(ParamValue::Word(text)) => text.clone(),
        _ => String::new(),
    };
    html! {
        <LabEditor written={AttrValue::from(written)} variant={context.query.variant}
            making={context.making} on_action={context.on_action.clone()} />
    }
}

#[derive(Properties, PartialEq)]
struct EditorProps {
    /// The workload of the run asked for (on screen, or being made).
    written: AttrValue,
    variant: &'static str,
    making: bool,
    on_action: Callback<Action>,
}

/// What is wrong with a draft before it may run: the engine's diagnostics, or its size.
/// The text's problems and, when it has none, what "As written" runs for it: one
/// load per edit serves both.
fn checked(draft: &str) -> (Rc<Vec<Diagnostic>>, Option<String>) {
    if draft.len() > TEXT_BYTES_MAX {
        let message = format!(
            "the workload is {} bytes; the most is {} (shorten it, or drop comments)",
            group_digits(draft.len() as u64),
            group_digits(TEXT_BYTES_MAX as u64)
        );
        return (Rc::new(vec![Diagnostic { line: 1, column: 1, message }]), None);
    }
    match lang::load(draft) {
        Ok(program) => (Rc::default(), super::as_written_named(program.kernel.word())),
        Err(problems) => (Rc::new(problems), None),
    }
}

/// The preset whose text this is, if any.
fn preset_of(text: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|preset| preset.text == text)
}

#[function_component(LabEditor)]
fn lab_editor(props: &EditorProps) -> Html {
    let draft = use_state(|| props.written.to_string());
    // A new run asked for from elsewhere (a link pasted, back and forward): the
    // editor shows its text.
    {
        let draft = draft.clone();
        use_effect_with(props.written.clone(), move |written| draft.set(written.to_string()));
    }
    // The kernel "As written" means for the text in the editor is named in its option.
    let checked = use_memo((*draft).clone(), |draft| checked(draft));
    let (problems, as_written) = (checked.0.clone(), &checked.1);
    let area = use_node_ref();
    let gutter = use_node_ref();
    // Escape leaves the text for the Run button, so that the player's keys (→, n,
    // Space) step the run again: the keyboard's way out, since Tab indents.
    let run_button = use_node_ref();

    let run = {
        let (draft, problems, on_action, area) =
            (draft.clone(), problems.clone(), props.on_action.clone(), area.clone());
        Callback::from(move |_: ()| match problems.first() {
            None => {
                // On a phone the stage and the editor share a box that scrolls (the
                // stage first): running from the editor shows the stage again.
                if let Some(stage) = area
                    .cast::<web_sys::Element>()
                    .and_then(|area| area.closest(".player-stage").ok().flatten())
                {
                    stage.set_scroll_top(0);
                }
                // A new workload is a new scenario: its run is shown from the start.
                on_action.emit(Action::ToStart);
                on_action.emit(Action::SetParam { name: WORKLOAD.to_string(), text: (*draft).clone() });
            }
            Some(first) => place_caret(&area, &draft, first.line, first.column),
        })
    };
    let oninput = {
        let draft = draft.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(area) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                draft.set(area.value());
            }
        })
    };
    let onkeydown = {
        let (run, run_button) = (run.clone(), run_button.clone());
        Callback::from(move |event: KeyboardEvent| {
            let plain = !event.shift_key() && !event.ctrl_key() && !event.alt_key() && !event.meta_key();
            if event.key() == "Enter" && (event.ctrl_key() || event.meta_key()) {
                event.prevent_default();
                run.emit(());
            } else if event.key() == "Escape" {
                if let Some(button) = run_button.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            } else if event.key() == "Tab" && plain {
                event.prevent_default();
                insert_at_caret(&event, INDENT);
            }
        })
    };
    let onscroll = {
        let (area, gutter) = (area.clone(), gutter.clone());
        Callback::from(move |_: Event| {
            if let (Some(area), Some(gutter)) =
                (area.cast::<web_sys::HtmlTextAreaElement>(), gutter.cast::<web_sys::HtmlElement>())
            {
                gutter.set_scroll_top(area.scroll_top());
            }
        })
    };
    let on_preset = {
        let draft = draft.clone();
        Callback::from(move |event: Event| {
            let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() else { return };
            if let Some(preset) = PRESETS.iter().find(|preset| preset.id == select.value()) {
                draft.set(preset.text.to_string());
            }
            select.set_value("");
        })
    };
    let on_kernel = {
        let on_action = props.on_action.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target_dyn_into::<web_sys::HtmlSelectElement>() {
                on_action.emit(Action::SetVariant(select.value()));
            }
        })
    };

    let edited = *draft != props.written.as_str();
    let preset = preset_of(&draft);
    let lines = draft.split('\n').count().max(1);
    let status = if !problems.is_empty() {
        let count = problems.len();
        format!(
            "{count} error{}: fix {} to run",
            if count == 1 { "" } else { "s" },
            if count == 1 { "it" } else { "them" }
        )
    } else if props.making {
        "Running…".to_string()
    } else if edited {
        "Edited: Run (Ctrl+Enter) to see it".to_string()
    } else {
        "This workload's run is on the stage".to_string()
    };
    let error_lines: Vec<u32> = problems.iter().map(|problem| problem.line).collect();
    html! {
        <section class="panel lab-editor" data-testid="lab-editor" aria-labelledby="lab-editor-title">
            <div class="lab-editor-bar">
                <h2 id="lab-editor-title"><label for="lab-workload">{ "Workload" }</label></h2>
                <button type="button" class="button" data-testid="lab-run" ref={run_button}
                    onclick={run.reform(|_: MouseEvent| ())} aria-keyshortcuts="Control+Enter">{ "Run" }</button>
            </div>
            <div class="lab-editor-bar">
                <label class="lab-select">
                    <span class="visually-hidden">{ "Start from a preset" }</span>
                    <select data-testid="lab-preset" onchange={on_preset}>
                        <option value="" selected=true>{ "Presets…" }</option>
                        { for PRESETS.iter().map(|preset| html! {
                            <option value={preset.id} key={preset.id}>{ preset.title }</option>
                        }) }
                    </select>
                </label>
                <label class="lab-select">
                    <span class="lab-select-word">{ "Kernel" }</span>
                    <select data-testid="lab-kernel" onchange={on_kernel}>
                        { for META.variants.iter().map(|variant| {
                            let label = match as_written {
                                Some(named) if variant.id == super::AS_WRITTEN => named.clone(),
                                _ => variant.label.to_string(),
                            };
                            html! {
                                <option value={variant.id} key={variant.id} selected={variant.id == props.variant}>{ label }</option>
                            }
                        }) }
                    </select>
                </label>
            </div>
            if let Some(preset) = preset {
                <div class="lab-preset-card" data-testid="lab-preset-card">
                    <p class="lab-question"><strong>{ preset.title }</strong>{ ". Predict: " }{ preset.question }</p>
                    <details>
                        <summary>{ "What it shows" }</summary>
                        <p>{ preset.explanation }</p>
                    </details>
                </div>
            }
            <div class={classes!("lab-code", (!problems.is_empty()).then_some("has-errors"))}>
                <pre class="lab-gutter" ref={gutter} aria-hidden="true">
                    { for (1..=lines as u32).map(|line| html! {
                        <span class={classes!(error_lines.contains(&line).then_some("lab-error-line"))}>{ format!("{line}\n") }</span>
                    }) }
                </pre>
                <textarea id="lab-workload" ref={area.clone()} data-testid="lab-text" value={(*draft).clone()}
                    spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off" rows="12"
                    aria-invalid={(!problems.is_empty()).to_string()} aria-describedby="lab-status lab-keys"
                    {oninput} {onkeydown} {onscroll} />
            </div>
            <p class="lab-status" id="lab-status" role="status" data-testid="lab-status">
                { status }
                <span class="lab-bytes">{ format!(" · {} / {} bytes", group_digits(draft.len() as u64), group_digits(TEXT_BYTES_MAX as u64)) }</span>
            </p>
            if !problems.is_empty() {
                <ol class="lab-errors" data-testid="lab-errors">
                    { for problems.iter().take(ERRORS_MAX).map(|problem| {
                        let (line, column) = (problem.line, problem.column);
                        let jump = {
                            let (area, draft) = (area.clone(), draft.clone());
                            Callback::from(move |_: MouseEvent| place_caret(&area, &draft, line, column))
                        };
                        html! {
                            <li><button type="button" class="lab-error" data-line={line.to_string()} onclick={jump}>{ crate::components::code_spans(&problem.to_string()) }</button></li>
                        }
                    }) }
                    if problems.len() > ERRORS_MAX {
                        <li>{ format!("… and {} more", problems.len() - ERRORS_MAX) }</li>
                    }
                </ol>
            }
            <p class="lab-keys muted" id="lab-keys">{ "Ctrl+Enter runs · Tab indents · Esc leaves the text (then → steps)" }</p>
        </section>
    }
}

/// Puts the caret at `line`:`column` (1-based, in characters) of the text and the
/// focus in the editor, scrolled to it.
fn place_caret(area: &NodeRef, text: &str, line: u32, column: u32) {
    let Some(area) = area.cast::<web_sys::HtmlTextAreaElement>() else { return };
    let at = utf16_offset(text, line, column);
    let _ = area.focus();
    let _ = area.set_selection_range(at, at);
    // Scroll so that the line is in view: its index times the line height.
    let line_height_px = 20;
    let top = (line.saturating_sub(3) as i32) * line_height_px;
    area.set_scroll_top(top);
}

/// The textarea's position (UTF-16 units) of `line`:`column`, clamped to the text.
pub fn utf16_offset(text: &str, line: u32, column: u32) -> u32 {
    let mut offset = 0usize;
    for (index, text_line) in text.split('\n').enumerate() {
        if index + 1 == line as usize {
            let before: usize =
                text_line.chars().take(column.saturating_sub(1) as usize).map(char::len_utf16).sum();
            return (offset + before) as u32;
        }
        offset += text_line.encode_utf16().count() + 1;
    }
    text.encode_utf16().count() as u32
}

/// Types `text` at the caret as the keyboard would, so that the browser's undo
/// keeps it (`insertText`); where that is refused, replaces the selection directly.
fn insert_at_caret(event: &KeyboardEvent, text: &str) {
    let typed = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.dyn_into::<web_sys::HtmlDocument>().ok())
        .and_then(|document| document.exec_command_with_show_ui_and_value("insertText", false, text).ok())
        .unwrap_or(false);
    if typed {
        return;
    }
    if let Some(area) = event.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
        let start = area.selection_start().ok().flatten().unwrap_or(0);
        let _ = area.set_range_text(text);
        let end = start + text.encode_utf16().count() as u32;
        let _ = area.set_selection_range(end, end);
        if let Ok(input) = web_sys::Event::new("input") {
            let _ = area.dispatch_event(&input);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_counted_in_utf16_units_as_the_textarea_counts() {
        let text = "kernel o1\n# ünï 😀 x\ntask a";
        assert_eq!(utf16_offset(text, 1, 1), 0);
        assert_eq!(utf16_offset(text, 2, 1), 10);
        // `😀` is two UTF-16 units: column 9 (the `x`) is 10 + 9 units in, and the
        // third line starts 11 units after the second.
        assert_eq!(utf16_offset(text, 2, 9), 19);
        assert_eq!(utf16_offset(text, 3, 6), 21 + 5);
        assert_eq!(utf16_offset(text, 9, 1), text.encode_utf16().count() as u32);
        assert_eq!(utf16_offset(text, 1, 99), 9);
    }

    #[test]
    fn every_preset_is_free_of_problems_and_a_too_long_text_is_one() {
        for preset in PRESETS {
            assert!(checked(preset.text).0.is_empty(), "{}", preset.id);
        }
        assert!(checked(&"#".repeat(TEXT_BYTES_MAX + 1)).0[0].message.contains("the most is 4,096"));
    }
}
