//! Numbers as people write them, for everything shown (the UI, narration, the
//! CLI's words): `29.3 s`, `24.2 µs`, `268,435,456`, `−20 to 19`. Links and
//! parameter inputs keep the exact forms of `params.rs` (`29286510858ns`,
//! `1.5ms`), which read back to the same value.

use crate::run::narration::group_digits;

/// A duration with sensible significant digits: two decimals below 10 of the
/// unit, one below 1,000, none above (`9.87 ms`, `101.5 ms`, `5,952 s`);
/// trailing zeros dropped (`1 s`, `918 ms`).
pub fn duration(ns: u64) -> String {
    if ns < 1_000 {
        return format!("{ns} ns");
    }
    let (scale, unit, next) = if ns < 1_000_000 {
        (1_000u64, "µs", Some(1_000_000u64))
    } else if ns < 1_000_000_000 {
        (1_000_000, "ms", Some(1_000_000_000))
    } else {
        (1_000_000_000, "s", None)
    };
    let whole = ns / scale;
    let decimals: u32 = if whole < 10 {
        2
    } else if whole < 1_000 {
        1
    } else {
        0
    };
    let step = scale / 10u64.pow(decimals);
    // In u128: rounding u64::MAX up must not overflow.
    let rounded_ns = (u128::from(ns / step) + u128::from(ns % step >= step / 2)) * u128::from(step);
    // 999.96 µs rounds to 1,000 µs: say 1 ms instead.
    if let Some(next) = next.filter(|&next| rounded_ns >= u128::from(next)) {
        return duration(next);
    }
    let whole = (rounded_ns / u128::from(scale)) as u64;
    let fraction = ((rounded_ns % u128::from(scale)) / u128::from(step)) as u64;
    let mut text = group_digits(whole);
    if decimals > 0 && fraction > 0 {
        let digits = format!("{fraction:0width$}", width = decimals as usize);
        text.push('.');
        text.push_str(digits.trim_end_matches('0'));
    }
    format!("{text} {unit}")
}

/// A signed number with a real minus sign (`−20`).
pub fn signed(value: i64) -> String {
    if value < 0 {
        format!("−{}", group_digits(value.unsigned_abs()))
    } else {
        group_digits(value.unsigned_abs())
    }
}

/// A size in binary units with a space (`1 TiB`, `4 KiB`, `1.5 GiB`, `512 B`).
pub fn size(bytes: u64) -> String {
    for (unit, shift) in [("TiB", 40u32), ("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        let scale = 1u64 << shift;
        if bytes >= scale {
            let tenths = (bytes as u128 * 10 + u128::from(scale) / 2) / u128::from(scale);
            let (whole, tenth) = (tenths / 10, tenths % 10);
            return if tenth == 0 || whole >= 100 {
                format!("{} {unit}", group_digits(whole as u64))
            } else {
                format!("{whole}.{tenth} {unit}")
            };
        }
    }
    format!("{bytes} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_writes_them() {
        let cases = [
            (0, "0 ns"),
            (999, "999 ns"),
            (24_200, "24.2 µs"),
            (999_960, "1 ms"),
            (1_000_000, "1 ms"),
            (918_001_600, "918 ms"),
            (101_549_000, "101.5 ms"),
            (357_000_000, "357 ms"),
            (9_876_000, "9.88 ms"),
            (1_000_000_010, "1 s"),
            (29_286_510_858, "29.3 s"),
            (1_260_000_000, "1.26 s"),
            (5_951_834_276_390, "5,952 s"),
            (u64::MAX, "18,446,744,074 s"),
        ];
        for (ns, text) in cases {
            assert_eq!(duration(ns), text, "{ns}");
        }
    }

    #[test]
    fn signs_and_sizes() {
        assert_eq!(signed(-20), "−20");
        assert_eq!(signed(19), "19");
        assert_eq!(size(1 << 40), "1 TiB");
        assert_eq!(size(4096), "4 KiB");
        assert_eq!(size(3 << 29), "1.5 GiB");
        assert_eq!(size(128 << 40), "128 TiB");
        assert_eq!(size(512), "512 B");
    }
}
