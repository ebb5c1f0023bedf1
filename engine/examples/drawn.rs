//! Prints the settings `ParamValues::drawn` makes from one seed (to reproduce a
//! property-test failure from its `draws`): `cargo run -p slowpath-engine --example drawn <case-index> <draws>`.
use slowpath_engine::registry;
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::rng::Rng;
fn main() {
    let mut args = std::env::args().skip(1);
    let index: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let draws: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let meta = registry()[index % registry().len()].meta;
    let mut rng = Rng::new(draws);
    let params = ParamValues::drawn(meta.params, |bound| rng.below(bound));
    let variant = meta.variants[rng.below(meta.variants.len() as u64) as usize].id;
    let sets: Vec<String> =
        params.non_default_pairs(meta.params).into_iter().map(|(k, v)| format!("--set {k}={v}")).collect();
    println!("run {} --variant {variant} {}", meta.id, sets.join(" "));
}
