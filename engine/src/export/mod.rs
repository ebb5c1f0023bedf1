//! A run written out for other tools: Perfetto's trace viewer (Chrome Trace Event
//! JSON), spreadsheets (CSV) and slides (SVG of the timeline and of a case's
//! charts). Generic: it reads the run's tables and layout and names no case. Text is written by hand with
//! `std::fmt::Write` so that the app's wasm bundle carries no JSON library.

pub mod chart;
pub mod csv;
pub mod perfetto;
pub mod svg;

use crate::run::trace::Run;

/// The file name every export of a run shares: `<case>-<variant>-<position>.<ext>`.
pub fn file_name(run: &Run, position: u64, extension: &str) -> String {
    let safe = |text: &str| -> String {
        text.chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' })
            .collect()
    };
    format!("{}-{}-{}.{}", safe(run.case), safe(run.variant), position.min(run.total_ops()), safe(extension))
}

/// The name of one part of an export (a case's plot table, a canvas):
/// `<case>-<variant>-<position>-<part>.<ext>`.
pub fn part_file_name(run: &Run, position: u64, part: &str, extension: &str) -> String {
    let whole = file_name(run, position, extension);
    let stem = whole.strip_suffix(&format!(".{extension}")).unwrap_or(&whole);
    let part: String =
        part.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    format!("{stem}-{part}.{extension}")
}

/// Integer nanoseconds as exact decimal microseconds (`1234567` → `1234.567`): the
/// Trace Event Format counts in µs, and a float would round.
pub(crate) fn write_us(out: &mut String, ns: u64) {
    use std::fmt::Write;
    let _ = write!(out, "{}.{:03}", ns / 1000, ns % 1000);
}

/// `text` as a JSON string literal, quotes included.
pub(crate) fn write_json_str(out: &mut String, text: &str) {
    use std::fmt::Write;
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microseconds_are_exact_decimals() {
        let mut out = String::new();
        for ns in [0, 7, 1_234_567, 18_446_744_073_709_551_615] {
            write_us(&mut out, ns);
            out.push(' ');
        }
        assert_eq!(out, "0.000 0.007 1234.567 18446744073709551.615 ");
    }

    #[test]
    fn json_strings_escape_quotes_backslashes_and_controls() {
        let mut out = String::new();
        write_json_str(&mut out, "a\"b\\c\nd\u{1}é");
        assert_eq!(out, r#""a\"b\\c\nd\u0001é""#);
    }
}
