//! Compare mode's figures in words.

use slowpath_app::player::compare::{difference, rows, Figure};

#[test]
fn a_difference_reads_as_a_person_writes_it() {
    assert_eq!(
        difference("v6.15", Figure::Ns(30_069_000_000), Figure::Ns(21_740_000_000)),
        "v6.15: 21.7 s, 27.7 % less"
    );
    assert_eq!(difference("fix", Figure::Count(200), Figure::Count(500)), "fix: 500, 150.0 % more");
    assert_eq!(difference("fix", Figure::Count(7), Figure::Count(7)), "fix: 7, the same");
    assert_eq!(difference("fix", Figure::Count(0), Figure::Count(3)), "fix: 3, where the other has none");
    assert_eq!(
        difference("fix", Figure::Count(100_000), Figure::Count(100_001)),
        "fix: 100,001, under 0.1 % more"
    );
    assert_eq!(difference("fix", Figure::Count(268_435_456), Figure::Count(2)), "fix: 2, over 99.9 % less");
    assert_eq!(difference("fix", Figure::Count(44), Figure::Count(0)), "fix: 0, 100.0 % less");
}

#[test]
fn the_table_compares_every_numeric_figure_both_runs_have() {
    let case = slowpath_engine::simulation("rwsem-playground").unwrap();
    let meta = case.meta();
    let first = slowpath_engine::run_checked(case, &meta.default_params(), "v6.13", 1).unwrap();
    let second = slowpath_engine::run_checked(case, &meta.default_params(), "no-spin", 1).unwrap();
    let reported: Vec<&str> = meta.reported.iter().map(|figure| figure.metric).collect();
    let table = rows(&reported, &first, &second);
    assert_eq!(table[0], ("simulated time".to_string(), Figure::Ns(first.end_ns), Figure::Ns(second.end_ns)));
    assert!(table.len() > 2, "{table:?}");
    for (key, a, b) in &table[1..] {
        assert_eq!(Figure::of(&first.metrics[key]), Some(*a));
        assert_eq!(Figure::of(&second.metrics[key]), Some(*b));
    }
}
