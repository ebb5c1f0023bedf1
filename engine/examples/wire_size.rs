//! Prints each default run's size as messages (`run::wire`) and the time to encode
//! and decode it natively: `cargo run --release -p slowpath-engine --example wire_size`;
//! with `-- <case> <variant> [key=value ...]`, that one run (a link's worst settings).
use slowpath_engine::{run_checked, simulations};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for case in simulations() {
        let meta = case.meta();
        if args.first().is_some_and(|id| id != meta.id) {
            continue;
        }
        let (params, variant) = match args.get(1) {
            Some(variant) => {
                let pairs = args[2..].iter().filter_map(|pair| pair.split_once('='));
                let params = slowpath_engine::run::params::ParamValues::from_pairs_exact(meta.params, pairs)
                    .expect("valid parameters");
                (params, meta.variant(variant).expect("a variant of the case").id)
            }
            None => (meta.default_params(), meta.default_variant().id),
        };
        let run = run_checked(case, &params, variant, 1).expect("the run");
        let start = Instant::now();
        let bytes = slowpath_engine::run::wire::encode(case, &run);
        let encoded = start.elapsed();
        let start = Instant::now();
        let mut assembler = slowpath_engine::run::wire::Assembler::new(case);
        let mut slowest = std::time::Duration::ZERO;
        let mut slowest_part = (0u8, 0usize);
        for part in &bytes {
            let part_start = Instant::now();
            assembler.push(part).expect("decodes");
            if part_start.elapsed() > slowest {
                slowest = part_start.elapsed();
                slowest_part = (part.first().copied().unwrap_or(0), part.len());
            }
        }
        let finish_start = Instant::now();
        let back = assembler.finish().expect("decodes");
        let finished = finish_start.elapsed();
        let decoded = start.elapsed();
        assert_eq!(back.trace_hash, run.trace_hash);
        println!("{:<22} {:>10} bytes  encode {:>8.2?}  decode {:>8.2?} (slowest message {:>7.2?}: tag {} of {} bytes, finish {:>7.2?})  messages {:>4}  stored {:?}", meta.id, bytes.iter().map(Vec::len).sum::<usize>(), encoded, decoded, slowest, slowest_part.0, slowest_part.1, finished, bytes.len(), run.stored());
    }
}
