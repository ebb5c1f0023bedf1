//! Prints each default run's size as messages (`run::wire`) and the time to encode
//! and decode it natively: `cargo run --release -p slowpath-engine --example wire_size`.
use slowpath_engine::case::{registry, run_checked};
use std::time::Instant;

fn main() {
    for case in registry() {
        let meta = case.meta();
        let run =
            run_checked(*case, &meta.default_params(), meta.default_variant().id, 1).expect("defaults run");
        let start = Instant::now();
        let bytes = slowpath_engine::run::wire::encode(&run);
        let encoded = start.elapsed();
        let start = Instant::now();
        let mut assembler = slowpath_engine::run::wire::Assembler::new();
        let mut slowest = std::time::Duration::ZERO;
        for part in &bytes {
            let part_start = Instant::now();
            assembler.push(part).expect("decodes");
            slowest = slowest.max(part_start.elapsed());
        }
        let back = assembler.finish().expect("decodes");
        let decoded = start.elapsed();
        assert_eq!(back.trace_hash, run.trace_hash);
        println!("{:<22} {:>10} bytes  encode {:>8.2?}  decode {:>8.2?} (slowest message {:>7.2?})  messages {:>4}  stored {:?}", meta.id, bytes.iter().map(Vec::len).sum::<usize>(), encoded, decoded, slowest, bytes.len(), run.stored());
    }
}
