//! `slowpath-cli tour <case-id>`: every stop of a case's tour, opened by the engine
//! as the app opens it: the state as a link's query, the text with its figures
//! filled in, the question with its choices and the answer. A stop that does not
//! fit its case is an error (exit 2), so the command also validates a tour.

use slowpath_engine::run::params::quote_input;
use slowpath_engine::tour::{self, Answer};
use slowpath_engine::{listed, simulation};

pub fn print(case_id: &str) -> Result<String, String> {
    let case = simulation(case_id).ok_or_else(|| {
        let known: Vec<&str> = listed().map(|entry| entry.meta.id).collect();
        format!("unknown case `{}`; known: {}", quote_input(case_id), known.join(", "))
    })?;
    let meta = case.meta();
    let stops = case.meta().tour.stops;
    let mut out = String::new();
    for (index, stop) in stops.iter().enumerate() {
        let opened =
            tour::open(case, index).map_err(|e| format!("{} tour, stop {}: {e}", meta.id, index + 1))?;
        let mut state: Vec<String> = opened
            .state
            .params
            .non_default_pairs(meta.params)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        state.push(format!("v={}", opened.state.variant));
        state.push(format!("seed={}", opened.state.seed));
        state.push(format!("position={} of {}", opened.position, opened.run.total_ops()));
        out.push_str(&format!(
            "{}/{} {}\n  #/case/{}/tour/{}\n  {}\n",
            index + 1,
            stops.len(),
            stop.title,
            meta.id,
            index + 1,
            state.join(" ")
        ));
        for sentence in &opened.text {
            out.push_str(&format!("  {sentence}\n"));
        }
        if let Some(posed) = &opened.question {
            out.push_str(&format!("  Q: {}\n", posed.prompt));
            match &posed.answer {
                Answer::Choice { choices, correct } => {
                    for (i, choice) in choices.iter().enumerate() {
                        let mark = if i == *correct { "*" } else { " " };
                        out.push_str(&format!("   {mark} {choice}\n"));
                    }
                }
                Answer::Guess { shown, within, .. } => {
                    out.push_str(&format!("   a number; right within ×{within} of {shown}\n"));
                }
            }
            out.push_str(&format!("  A: {}\n", posed.explain));
        }
    }
    Ok(out)
}
