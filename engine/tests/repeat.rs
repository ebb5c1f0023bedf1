//! Repeat blocks: exact totals without materialising, closed-form seek that
//! agrees with step-by-step replay, on-demand micro-ops for any iteration.

mod common;

use slowpath_engine::run::trace::Granularity;

#[test]
fn a_repeat_counts_exactly_and_seeks_like_stepping() {
    let run = common::synthetic_repeat_run(50);
    assert_eq!(run.counts.iterations, 1 + 50 + 3);
    assert_eq!(run.counts.micro_ops, 1 + 150 + 6);
    let mut world = run.state_at(0);
    let mut cursor = slowpath_engine::run::trace::Cursor::new(&run);
    for position in 0..run.total_ops() {
        run.apply_next(&mut world, position);
        assert!(cursor.step());
        assert_eq!(cursor.world(), &world, "cursor and apply_next agree at {position}");
        let sought = run.state_at(position + 1);
        // Seeking into a repeat lands on a normalized world; compare what the UI sees.
        assert_eq!(
            run.view_of(&world, position + 1),
            run.view_of(&sought, position + 1),
            "position {}",
            position + 1
        );
        sought.check_invariants();
    }
}

#[test]
fn a_hundred_million_iterations_are_exact_and_expand_on_demand() {
    let count = 100_000_000;
    let run = common::synthetic_repeat_run(count);
    assert_eq!(run.counts.iterations, 1 + count + 3);
    let target_iteration = 1 + 77_777_777;
    let (first, end) = run.unit_ops(Granularity::Iteration, target_iteration).expect("exists");
    assert_eq!(end - first, 3);
    let view = run.view(first + 2);
    assert_eq!(view.counters, vec![("iterations".to_string(), 77_777_778)]);
    let op = run.op(first + 1).expect("op");
    assert_eq!(op.at_ns, 77_777_777 * 112 + 40);
    let text = slowpath_engine::run::narration::plain(&run.narrate(&op));
    assert_eq!(text, format!("{:#x} counts", 0x1000 + 0x1000 * 77_777_777u64));
    let world = run.state_at(run.total_ops());
    assert_eq!(world.locks[0].stats.acquisitions, count + 3);
    // Each of the three trailing iterations ends 50 ns after it starts.
    assert_eq!(world.now_ns, count * 112 + 3 * 50);
}

#[test]
fn stepping_at_each_granularity_moves_between_unit_boundaries() {
    let run = common::synthetic_repeat_run(10);
    for granularity in Granularity::ALL {
        let mut position = 0;
        let mut steps = 0;
        while position < run.total_ops() {
            let next = run.step_forward(position, granularity);
            assert!(next > position);
            // Back from a unit's end lands on its start, which is the previous unit's end.
            let (start, _) = run.unit_ops(granularity, run.unit_of(next - 1, granularity)).unwrap();
            assert_eq!(run.step_back(next, granularity), start);
            position = next;
            steps += 1;
        }
        assert_eq!(steps, run.unit_count(granularity), "{granularity:?}");
    }
}

#[test]
fn seeking_by_time_counts_the_ops_at_or_before_that_time() {
    let run = common::synthetic_repeat_run(1_000);
    // Op 0 at t=0, then iteration k of the repeat has ops at k·112 + {0, 40, 90}.
    assert_eq!(run.position_at_time(0), 2);
    assert_eq!(run.position_at_time(112 * 5 + 40), 1 + 5 * 3 + 2);
    assert_eq!(run.position_at_time(112 * 5 + 39), 1 + 5 * 3 + 1);
    assert_eq!(run.position_at_time(u64::MAX), run.total_ops());
}
