//! Hostile and mistaken command lines: every error is one line on stderr,
//! prefixed `slowpath-cli: `, with control characters escaped and echoed input
//! cut short, and exit code 2.

use slowpath_engine::registry;
use slowpath_engine::run::params::{is_invisible_format, ParamKind};
use std::process::Command;

/// A message longer than this echoes too much of its input.
const LINE_CHARS_MAX: usize = 320;

fn error_line(args: &[&str]) -> String {
    let output =
        Command::new(env!("CARGO_BIN_EXE_slowpath-cli")).args(args).output().expect("the CLI starts");
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?}: nothing on stdout");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let line =
        stderr.strip_suffix('\n').unwrap_or_else(|| panic!("{args:?}: ends with a newline: {stderr:?}"));
    assert!(line.starts_with("slowpath-cli: "), "{args:?}: prefixed: {line:?}");
    assert!(!line.chars().any(char::is_control), "{args:?}: no control characters: {line:?}");
    assert!(!line.chars().any(is_invisible_format), "{args:?}: no bidi or zero-width characters: {line:?}");
    assert!(line.chars().count() <= LINE_CHARS_MAX, "{args:?}: short: {} chars", line.chars().count());
    line.to_string()
}

#[test]
fn usage_mistakes_are_one_prefixed_line() {
    assert!(error_line(&[]).contains("usage:"));
    assert!(error_line(&["bogus"]).contains("unknown command `bogus`"));
    assert!(error_line(&["list", "extra"]).contains("takes no arguments"));
    assert!(error_line(&["run"]).contains("needs a case id"));
    assert!(error_line(&["run", "sparse-dump", "--seed"]).contains("--seed needs a value"));
    assert!(error_line(&["run", "sparse-dump", "--frobnicate"]).contains("unknown argument"));
}

#[test]
fn escape_sequences_and_newlines_never_reach_the_terminal() {
    let hostile = [
        "\u{1b}[31mred",
        "a\nb",
        "tab\there",
        "bell\u{7}",
        "\r\u{9b}31m",
        "\u{202e}evil",
        "a\u{2066}b\u{2069}",
        "\u{200e}\u{200f}\u{61c}",
        "zero\u{200b}\u{200c}\u{200d}width",
        "\u{2060}\u{feff}",
    ];
    for text in hostile {
        error_line(&["run", text]);
        error_line(&["run", "sparse-dump", "--variant", text]);
        error_line(&["run", "sparse-dump", "--seed", text]);
        error_line(&["run", "sparse-dump", "--set", &format!("size={text}")]);
        error_line(&["run", "sparse-dump", "--set", &format!("{text}=1")]);
        error_line(&["run", "sparse-dump", "--set", text]);
        error_line(&["run", "sparse-dump", text]);
        error_line(&[text]);
    }
    assert!(error_line(&["run", "sparse-dump", "--set", "size=\u{1b}[31mred"]).contains("\\u{1b}[31mred"));
}

#[test]
fn ten_kilobyte_inputs_are_cut() {
    let long = "x".repeat(10_000);
    for args in [
        vec!["run", long.as_str()],
        vec!["run", "sparse-dump", "--variant", long.as_str()],
        vec!["run", "sparse-dump", "--seed", long.as_str()],
        vec![long.as_str()],
        vec!["run", "sparse-dump", long.as_str()],
    ] {
        assert!(error_line(&args).contains('…'), "{:?}", &args[..args.len() - 1]);
    }
    let key = format!("{long}=1");
    assert!(error_line(&["run", "sparse-dump", "--set", &key]).contains('…'));
    let value = format!("size={long}");
    assert!(error_line(&["run", "sparse-dump", "--set", &value]).contains('…'));
}

#[test]
fn the_seed_names_its_range() {
    let line = error_line(&["run", "sparse-dump", "--seed", "18446744073709551616"]);
    assert!(line.contains("0 to 18446744073709551615") && line.contains("too large"), "{line}");
    let line = error_line(&["run", "sparse-dump", "--seed", "-1"]);
    assert!(line.contains("not a whole number"), "{line}");
}

/// Every registered name, with a bidi override or a zero-width space after it, is
/// refused in one clean line that shows the character escaped.
#[test]
fn every_registered_name_with_an_invisible_character_is_refused_cleanly() {
    let mut tried = 0;
    for case in registry() {
        let meta = case.meta;
        for tail in ["\u{202e}", "\u{200b}"] {
            let escaped = tail.escape_default().to_string();
            let line = error_line(&["run", &format!("{}{tail}", meta.id)]);
            assert!(line.contains(&escaped), "{line}");
            for variant in meta.variants {
                let line = error_line(&["run", meta.id, "--variant", &format!("{}{tail}", variant.id)]);
                assert!(line.contains(&escaped), "{line}");
                tried += 1;
            }
            for spec in meta.params {
                let line = error_line(&["run", meta.id, "--set", &format!("{}{tail}=1", spec.name)]);
                assert!(line.contains(&escaped), "{line}");
                if let ParamKind::Choice { options, .. } = spec.kind {
                    for option in options {
                        let line =
                            error_line(&["run", meta.id, "--set", &format!("{}={option}{tail}", spec.name)]);
                        assert!(line.contains(&escaped), "{line}");
                        tried += 1;
                    }
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 100, "{tried} names tried");
}
