//! The `today` variant's input that comes from the measuring machine: what each
//! program step costs there (the measured figure the "Today" panel sets beside
//! the model is metadata, in `mod.rs`).

use super::machine::Costs;

/// Per-operation costs on the machine where today's kernel was measured (Linux
/// 6.18.44, "AMD EPYC" KVM guest, the machine of `results.tsv`), measured by
/// `tools/measure/fifo-trigger/costs.sh` (results in `costs.tsv` there: five runs
/// pinned to CPU 0, each a median of 20,001 calls; the median over the runs, to
/// 10 ns): open for writing 1.51 µs (for reading 1.96 µs; the model has one open
/// cost, the writer's, which opens far more often), open → ENXIO 2.35 µs, close
/// 0.98 µs, a 1-byte write with nobody asleep on the FIFO 0.33 µs, clock_gettime
/// 0.04 µs, a select that returns at once 0.81 µs, the "dt = …" fprintf to a file
/// 0.90 µs, and the busy loop of 1,000,000 iterations (gcc -O0) 0.271 ms. read()
/// was not measured: the `today` variant never reads.
pub const TODAY_COSTS: Costs = Costs {
    open_ns: 1_510,
    open_enxio_ns: 2_350,
    close_ns: 980,
    write_ns: 330,
    read_ns: 800,
    gettimeofday_ns: 40,
    print_ns: 900,
    select_ns: 810,
    loop_iteration_ps: 271,
};
