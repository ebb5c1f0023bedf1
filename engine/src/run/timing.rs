//! How the wasm/native comparison times a run, said once for both sides: the page
//! `#/__perf` (the browser's clock) and the example `native_time` (`Instant`). The
//! clock is passed in, so that the engine stays free of wall clocks.

/// A timed batch lasts at least this long: Chromium's clock has a 100 µs
/// resolution, under 1 % of it, while a 1 ms run timed alone would be read to ±10 %.
pub const BATCH_MS: f64 = 20.0;

/// Before the timed batches, runs are repeated for at least this long: a browser
/// first runs wasm from a quick baseline compile and swaps in optimised code for the
/// functions it finds hot (V8's Liftoff, then TurboFan), so early batches measure the
/// compiler, not the engine.
pub const WARM_UP_MS: f64 = 300.0;

/// The most runs in one batch, so that a run too fast to time (or a clock that
/// does not tick) still ends.
pub const BATCH_RUNS_MAX: u32 = 5_000;

/// Times `run` and returns `samples` times in ms. The first is one run alone (it
/// includes compiling or faulting in the code it touches). Then runs repeat untimed
/// for `WARM_UP_MS`, and each later sample is the mean run time over a batch that
/// lasts at least `BATCH_MS`.
pub fn sample_runs_ms(mut clock_ms: impl FnMut() -> f64, mut run: impl FnMut(), samples: usize) -> Vec<f64> {
    let mut batch_mean_ms = |least_ms: f64| {
        let started_ms = clock_ms();
        let mut runs = 0u32;
        loop {
            run();
            runs += 1;
            let elapsed_ms = clock_ms() - started_ms;
            // A NaN reading ends the batch too.
            if elapsed_ms >= least_ms || elapsed_ms.is_nan() || runs == BATCH_RUNS_MAX {
                return elapsed_ms / f64::from(runs);
            }
        }
    };
    let first_ms = batch_mean_ms(0.0);
    batch_mean_ms(WARM_UP_MS);
    let samples_ms: Vec<f64> =
        std::iter::once(first_ms).chain((1..samples).map(|_| batch_mean_ms(BATCH_MS))).collect();
    debug_assert_eq!(samples_ms.len(), samples.max(1));
    samples_ms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_the_mean_of_a_batch_of_at_least_batch_ms() {
        // A fake clock that advances 0.5 ms per run.
        let runs = std::cell::Cell::new(0u32);
        let samples = sample_runs_ms(|| f64::from(runs.get()) * 0.5, || runs.set(runs.get() + 1), 3);
        assert_eq!(samples, vec![0.5, 0.5, 0.5]);
        // The first run alone, 600 warm-up runs (300 ms), then two batches of 40 (20 ms).
        assert_eq!(runs.get(), 1 + 600 + 2 * 40);
    }

    #[test]
    fn a_clock_that_does_not_tick_still_ends() {
        let runs = std::cell::Cell::new(0u32);
        let samples = sample_runs_ms(|| 0.0, || runs.set(runs.get() + 1), 2);
        assert_eq!(samples, vec![0.0, 0.0]);
        assert_eq!(runs.get(), 1 + 2 * BATCH_RUNS_MAX);
    }
}
