//! The writer's output as the reporter saw it. He ran the writer as
//! `./a.out 2>&1 | grep -v '= 0'`: every line whose text contains "= 0" is
//! hidden, which is every write printed as "dt = 0.xxxxxx ms". What is left
//! is the slow writes in order, with nothing to show how many fast writes lay
//! between two of them. Comparing the model with his thirteen lines therefore
//! means passing the model's lines through the same filter, not counting
//! unbroken runs of slow writes (which his output cannot show).

use crate::run::wire::codec::wire_struct;

/// `fprintf(stderr, "dt = %f ms\n", …)` of the seed for a dt in whole
/// microseconds (two gettimeofday() readings): `%f` prints six decimals, so the
/// three below the microsecond are zeros.
pub fn dt_line(dt_ns: u64) -> String {
    format!("dt = {}.{:06} ms", dt_ns / 1_000_000, dt_ns % 1_000_000)
}

/// Whether `grep -v '= 0'` lets the seed's line for this write through. The line
/// holds "= 0" exactly when its whole milliseconds are 0 (the digits after the
/// point never follow "= "), so this is dt ≥ 1 ms, decided without writing the line:
/// it is asked at every write, and formatting each one was a tenth of a long run's
/// time in wasm. `tests::the_number_decides_as_the_line_does` checks it against
/// the line itself.
pub fn shown_by_grep(dt_ns: u64) -> bool {
    dt_ns >= 1_000_000
}

/// One line of the filtered output.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GrepLine {
    /// 1-based number of the write that printed it.
    pub write: u64,
    pub dt_ns: u64,
    /// Lines the filter hid since the previous line shown (or since the start).
    pub hidden_before: u64,
}
wire_struct!(GrepLine { write, dt_ns, hidden_before });

/// The first `limit` lines of the writer's output that get through the filter.
pub fn through_grep(write_dt_ns: &[u64], limit: usize) -> Vec<GrepLine> {
    let mut lines = Vec::new();
    let mut hidden = 0;
    for (index, &dt_ns) in write_dt_ns.iter().enumerate() {
        if lines.len() == limit {
            break;
        }
        if shown_by_grep(dt_ns) {
            lines.push(GrepLine { write: index as u64 + 1, dt_ns, hidden_before: hidden });
            hidden = 0;
        } else {
            hidden += 1;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_hides_exactly_the_lines_under_a_millisecond() {
        assert_eq!(dt_line(1_000), "dt = 0.001000 ms");
        assert_eq!(dt_line(302_220_000), "dt = 302.220000 ms");
        assert!(!shown_by_grep(0));
        assert!(!shown_by_grep(999_000));
        assert!(shown_by_grep(1_000_000));
        // "= 0" only ever matches right after "dt": 10 ms and 100.05 ms are shown.
        assert!(shown_by_grep(10_000_000));
        assert!(shown_by_grep(100_050_000));
    }

    #[test]
    fn the_number_decides_as_the_line_does() {
        let by_line = |dt_ns: u64| !dt_line(dt_ns).contains("= 0");
        let edges = [0, 1, 999_999, 1_000_000, 1_000_001, 9_999_999, 10_000_000, 100_000_000, u64::MAX];
        let sweep = (0..4_000_000u64).step_by(997).chain((0..64).map(|k| 1u64 << k));
        for dt_ns in edges.into_iter().chain(sweep) {
            assert_eq!(shown_by_grep(dt_ns), by_line(dt_ns), "dt {dt_ns} ns: {}", dt_line(dt_ns));
        }
    }

    #[test]
    fn fast_lines_between_slow_ones_are_counted_not_shown() {
        let ms = 1_000_000;
        let dts = [2_000, 300 * ms, 1_000, 1_000, 100 * ms, 101 * ms, 3_000];
        let lines = through_grep(&dts, 10);
        let seen: Vec<(u64, u64, u64)> = lines.iter().map(|l| (l.write, l.dt_ns, l.hidden_before)).collect();
        assert_eq!(seen, vec![(2, 300 * ms, 1), (5, 100 * ms, 2), (6, 101 * ms, 0)]);
        assert_eq!(through_grep(&dts, 1).len(), 1);
    }
}
