//! Untrusted text as messages echo it, on the page and in the terminal alike: one
//! quoting function, so that every echoed input is escaped and cut the same way.

/// How many characters of an untrusted input a message echoes before cutting it with `…`.
pub const QUOTE_CHARS_MAX: usize = 32;

/// Untrusted text as it may appear in a message, page or terminal alike: control,
/// bidirectional and zero-width characters escaped (`\u{1b}`, `\n`, `\u{202e}`), so
/// that a message stays one line, cannot drive a terminal and shows its text in the
/// order it was typed, and cut to [`QUOTE_CHARS_MAX`] characters, so that a 10 kB
/// input is not echoed.
pub fn quote_input(text: &str) -> String {
    let mut quoted = String::new();
    for (index, c) in text.chars().enumerate() {
        if index == QUOTE_CHARS_MAX {
            quoted.push('…');
            break;
        }
        if c.is_control() || is_invisible_format(c) {
            quoted.extend(c.escape_default());
        } else {
            quoted.push(c);
        }
    }
    quoted
}

/// Characters that reorder or hide text without being control characters: the
/// bidirectional embeddings, overrides, isolates and marks, and the zero-width ones.
pub fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{061c}'
            | '\u{200b}'..='\u{200d}'
            | '\u{2060}'
            | '\u{feff}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bidi_and_zero_width_characters_are_escaped() {
        assert_eq!(quote_input("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(quote_input("\0"), "\\u{0}");
        assert_eq!(quote_input("\u{202e}evil"), "\\u{202e}evil");
        for c in [
            '\u{202a}', '\u{2066}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{61c}', '\u{200b}', '\u{200d}',
            '\u{2060}', '\u{feff}',
        ] {
            let quoted = quote_input(&format!("a{c}b"));
            assert!(!quoted.contains(c), "{c:?} escaped: {quoted}");
            assert!(quoted.starts_with("a\\u{") && quoted.ends_with("}b"), "{quoted}");
        }
        assert_eq!(quote_input("µs — ok"), "µs — ok");
    }

    #[test]
    fn long_input_is_cut_to_the_stated_length() {
        let quoted = quote_input(&"x".repeat(10_000));
        assert_eq!(quoted.chars().count(), QUOTE_CHARS_MAX + 1);
        assert!(quoted.ends_with('…'));
        assert_eq!(quote_input(&"y".repeat(QUOTE_CHARS_MAX)), "y".repeat(QUOTE_CHARS_MAX));
    }
}
