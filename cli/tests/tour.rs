//! `slowpath-cli tour <case-id>` opens every stop of every registered case's tour
//! and prints it; a bad case id is one error line.

use std::process::Command;

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_slowpath-cli")).args(args).output().expect("the CLI starts")
}

#[test]
fn every_tour_prints_every_stop() {
    let list = String::from_utf8(cli(&["list"]).stdout).expect("UTF-8");
    for id in list.lines().filter_map(|line| line.split('\t').next()) {
        let output = cli(&["tour", id]);
        assert_eq!(output.status.code(), Some(0), "{id}: {}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("UTF-8");
        assert!(text.starts_with("1/"), "{id}: {text}");
        assert!(text.contains(&format!("#/case/{id}/tour/2")), "{id}: a second stop");
        // Slots are filled: no `{m:…}`, `{p:…}` or `{t}` reaches the reader (a workload the
        // stop runs may hold braces of its own: `repeat 3 {`).
        assert!(["{m:", "{p:", "{t}"].iter().all(|slot| !text.contains(slot)), "{id}: {text}");
    }
}

#[test]
fn a_tour_of_no_case_is_one_error_line() {
    for args in [&["tour", "nope\u{1b}[2J"][..], &["tour"][..], &["tour", "a", "b"][..]] {
        let output = cli(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(stderr.starts_with("slowpath-cli: ") && stderr.lines().count() == 1, "{args:?}: {stderr}");
        assert!(!stderr.contains('\u{1b}'), "{args:?}");
    }
}
