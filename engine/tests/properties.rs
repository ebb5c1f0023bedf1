//! Property tests: for random valid parameters and seeds, every state of a run
//! satisfies the model's invariants, and seeking equals stepping.

use proptest::prelude::*;
use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::{run_checked, simulation};

fn playground_params() -> impl Strategy<Value = (Vec<(&'static str, String)>, &'static str, u64)> {
    (
        0u64..6,
        0u64..3,
        1u64..4,
        10u64..400,
        10u64..400,
        10u64..600,
        10u64..900,
        0u64..100,
        300u64..3000,
        prop::sample::select(vec!["v6.13", "no-spin", "no-handoff"]),
        any::<u64>(),
    )
        .prop_map(|(r, w, c, rh, wh, rt, wt, j, d, variant, seed)| {
            (
                vec![
                    ("readers", r.to_string()),
                    ("writers", w.to_string()),
                    ("cpus", c.to_string()),
                    ("read_hold", format!("{rh}us")),
                    ("write_hold", format!("{wh}us")),
                    ("read_think", format!("{rt}us")),
                    ("write_think", format!("{wt}us")),
                    ("jitter", j.to_string()),
                    ("duration", format!("{d}us")),
                    ("timeslice", "500us".to_string()),
                ],
                variant,
                seed,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_state_is_valid_and_seek_equals_stepping((sets, variant, seed) in playground_params()) {
        let case = simulation("rwsem-playground").unwrap();
        let params = ParamValues::from_pairs_exact(case.meta().params, sets.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
        let run = run_checked(case, &params, variant, seed).unwrap();
        let mut world = run.state_at(0);
        let mut last_ns = 0;
        let total = run.total_ops();
        for position in 0..total {
            run.apply_next(&mut world, position);
            world.check_invariants();
            prop_assert!(world.now_ns >= last_ns, "time went backwards");
            last_ns = world.now_ns;
            let lock = &world.locks[0];
            let writers = lock.holders.iter().filter(|h| h.mode == LockMode::Write).count();
            prop_assert!(writers == 0 || lock.holders.len() == 1, "a writer shares the lock");
            // The wait queue is in arrival order (FIFO); grants may take readers out of the middle.
            prop_assert!(lock.waiters.iter().zip(lock.waiters.iter().skip(1)).all(|(a, b)| a.since_ns <= b.since_ns));
            // Seek equals stepping, checked on a sample of positions to keep the test fast.
            if position % 7 == 0 || position + 1 == total {
                prop_assert_eq!(&run.state_at(position + 1), &world);
            }
        }
        // Stepping back then forward returns the identical state.
        for granularity in Granularity::ALL {
            let forward = run.step_forward(0, granularity);
            let back = run.step_back(forward, granularity);
            prop_assert_eq!(back, 0);
            prop_assert_eq!(run.view(run.step_forward(back, granularity)), run.view(forward));
        }
    }

    #[test]
    fn arbitrary_parameter_text_never_panics(key in "[a-z_]{1,12}", value in "\\PC{0,24}", seed in any::<u64>()) {
        let case = simulation("rwsem-playground").unwrap();
        let (params, _notices) = ParamValues::from_pairs_clamped(case.meta().params, [(key.as_str(), value.as_str())]);
        // Keep the run short whatever was typed.
        let mut params = params;
        params.0.insert("duration".to_string(), slowpath_engine::ParamValue::Unsigned(200_000));
        let run = run_checked(case, &params, "v6.13", seed).unwrap();
        prop_assert!(run.total_ops() > 0);
    }
}
