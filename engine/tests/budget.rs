//! Every valid setting of every case ends within the work budget (`run::budget`)
//! and keeps the model's invariants: random valid configurations, edges favoured
//! (`ParamValues::drawn`), every variant. A bounded sample runs in
//! `cargo xtask test`; run it longer with
//! `PROPTEST_CASES=2000 cargo test --release -p slowpath-engine --test budget`.

mod common;

use proptest::prelude::*;
use slowpath_engine::run::budget::{SIMULATED_STEPS_MAX, STORED_BLOCKS_MAX, STORED_OPS_MAX};
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::rng::Rng;
use slowpath_engine::{run_checked, simulations, Outcome};

/// What a case may store beyond a budget: the rest of the event that crossed it.
const OVERSHOOT_OPS: usize = 256;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_setting_ends_within_the_budget(case_index in 0usize..64, draws in any::<u64>(), seed in any::<u64>()) {
        let cases: Vec<_> = simulations().collect();
        let case = cases[case_index % cases.len()];
        let meta = case.meta();
        let mut rng = Rng::new(draws);
        let params = ParamValues::drawn(meta.params, |bound| rng.below(bound));
        let variant = meta.variants[rng.below(meta.variants.len() as u64) as usize].id;
        let run = run_checked(case, &params, variant, seed).expect("drawn settings are valid");
        let label = format!("{} {variant} {:?}", meta.id, params.non_default_pairs(meta.params));
        prop_assert!(run.simulated_steps > 0, "{label}: the case counts its steps");
        prop_assert!(run.simulated_steps <= SIMULATED_STEPS_MAX, "{label}: {} steps", run.simulated_steps);
        let (ops, blocks, _) = run.stored();
        prop_assert!(ops <= STORED_OPS_MAX + OVERSHOOT_OPS, "{label}: {ops} ops");
        prop_assert!(blocks <= STORED_BLOCKS_MAX + OVERSHOOT_OPS, "{label}: {blocks} blocks");
        if let Outcome::WorkLimit { .. } = run.outcome {
            prop_assert!(run.outcome.limit_text().is_some_and(|text| text.contains("figures cover")), "{label}");
        }
        common::assert_seek_agrees_with_stepping(&run);
        run.state_at(run.total_ops()).check_invariants();
    }
}
