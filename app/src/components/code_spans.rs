//! Text whose `backticked` words are code (a keyword of the Lab's language, a
//! parameter's name): drawn as `<code>`, not with the backticks a reader would
//! otherwise see. The engine writes its words so; this is where they are drawn.

use yew::prelude::*;

/// `text` with each pair of backticks' contents as `<code>`.
pub fn code_spans(text: &str) -> Html {
    html! {
        { for code_parts(text).into_iter().map(|(is_code, part)| {
            if is_code {
                html! { <code>{ part.to_string() }</code> }
            } else {
                html! { { part.to_string() } }
            }
        }) }
    }
}

/// `text` cut at its backticks, each part marked code or not; text whose backticks
/// do not pair (a code span that a narration's task name splits) is one plain part.
fn code_parts(text: &str) -> Vec<(bool, &str)> {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len() < 3 || parts.len() % 2 == 0 {
        return vec![(false, text)];
    }
    parts.into_iter().enumerate().map(|(index, part)| (index % 2 == 1, part)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_backticks_are_code_and_an_odd_one_leaves_the_text_as_written() {
        assert_eq!(
            code_parts("stops at 2 s (`until`)."),
            [(false, "stops at 2 s ("), (true, "until"), (false, ").")]
        );
        assert_eq!(
            code_parts("`a` and `b`"),
            [(false, ""), (true, "a"), (false, " and "), (true, "b"), (false, "")]
        );
        assert_eq!(code_parts("a ` alone"), [(false, "a ` alone")]);
        assert_eq!(code_parts("no code"), [(false, "no code")]);
    }
}
