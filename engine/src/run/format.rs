//! Numbers as people write them, for everything shown (the UI, narration, the
//! CLI's words): `29.3 s`, `24.2 µs`, `268,435,456`, `−20 to 19`. Links and
//! parameter inputs keep the exact forms of `params.rs` (`29286510858ns`,
//! `1.5ms`), which read back to the same value.

use crate::run::narration::group_digits;

/// A duration with sensible significant digits: two decimals below 10 of the
/// unit, one below 1,000, none above (`9.87 ms`, `101.5 ms`, `5,952 s`);
/// trailing zeros dropped (`1 s`, `918 ms`).
pub fn duration(ns: u64) -> String {
    duration_in_steps(ns, u64::MAX)
}

/// `ns` as [`duration`] writes it, but no coarser than [`duration`] writes
/// `diff_ns`, its distance from a value shown beside it, so that the difference
/// of the two reads right: a lag of 1.33 ms is `V 31.33 ms less its vruntime
/// 30 ms`, where `duration` alone would round V to 31.3 ms.
pub fn duration_beside(ns: u64, diff_ns: u64) -> String {
    duration_in_steps(ns, step_of(diff_ns).1)
}

/// The unit `duration` writes `ns` in (its scale in ns, its name, the next unit's
/// scale) and its rounding step in ns: a power of ten, 1 below a microsecond.
fn step_of(ns: u64) -> ((u64, &'static str, Option<u64>), u64) {
    if ns < 1_000 {
        return ((1, "ns", Some(1_000)), 1);
    }
    let unit = if ns < 1_000_000 {
        (1_000u64, "µs", Some(1_000_000u64))
    } else if ns < 1_000_000_000 {
        (1_000_000, "ms", Some(1_000_000_000))
    } else {
        (1_000_000_000, "s", None)
    };
    let whole = ns / unit.0;
    let decimals: u32 = if whole < 10 {
        2
    } else if whole < 1_000 {
        1
    } else {
        0
    };
    (unit, unit.0 / 10u64.pow(decimals))
}

/// `ns` in its unit, rounded half up to its own step or `finest_step_ns`, whichever
/// is finer (a power of ten either way), trailing zeros dropped.
fn duration_in_steps(ns: u64, finest_step_ns: u64) -> String {
    let ((scale, unit, next), own_step) = step_of(ns);
    let step = own_step.min(finest_step_ns).max(1);
    // In u128: rounding u64::MAX up must not overflow.
    let rounded_ns =
        (u128::from(ns / step) + u128::from(ns % step >= step / 2 && step > 1)) * u128::from(step);
    // 999.96 µs rounds to 1,000 µs: say 1 ms instead.
    if let Some(next) = next.filter(|&next| rounded_ns >= u128::from(next)) {
        return duration_in_steps(next, finest_step_ns);
    }
    let whole = (rounded_ns / u128::from(scale)) as u64;
    let fraction = ((rounded_ns % u128::from(scale)) / u128::from(step)) as u64;
    let decimals = (scale / step).ilog10() as usize;
    let mut text = group_digits(whole);
    if decimals > 0 && fraction > 0 {
        let digits = format!("{fraction:0decimals$}");
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

/// `value` with `decimals` digits after the point, the same text as
/// `format!("{value:.decimals$}")` (at most 9 decimals): the exact binary value
/// rounded half to even, a `-` on every negative value (`-0.0`), `NaN`, `inf`.
/// Worked out on the bits in integers, so that no float formatting code (core's
/// Grisu and Dragon, about 15 kB) is in the wasm.
pub struct Fixed(pub f64, pub u32);

impl std::fmt::Display for Fixed {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&fixed(self.0, self.1))
    }
}

/// [`Fixed`] as a `String`.
pub fn fixed(value: f64, decimals: u32) -> String {
    let decimals = decimals.min(9) as usize;
    let mut text = match sign_or_special(value) {
        Ok(sign) => sign,
        Err(special) => return special,
    };
    let mut digits = scaled_digits(value.abs(), decimals as u32);
    if digits.len() <= decimals {
        let mut padded = vec![b'0'; decimals + 1 - digits.len()];
        padded.append(&mut digits);
        digits = padded;
    }
    let (whole, fraction) = digits.split_at(digits.len() - decimals);
    text.extend(whole.iter().map(|&digit| char::from(digit)));
    if decimals > 0 {
        text.push('.');
        text.extend(fraction.iter().map(|&digit| char::from(digit)));
    }
    text
}

/// The decimal digits (ASCII, most significant first) of `value × 10^decimals`
/// rounded half to even, for a finite `value ≥ 0` (`mantissa × 2^power` exactly).
fn scaled_digits(value: f64, decimals: u32) -> Vec<u8> {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, power) =
        if biased == 0 { (fraction, -1074) } else { (fraction | 1u64 << 52, biased - 1075) };
    // Below 2^83: a 53-bit mantissa times at most 10^9.
    let product = u128::from(mantissa) * 10u128.pow(decimals);
    if power >= 0 {
        let mut digits = decimal_digits(product);
        for _ in 0..power {
            double(&mut digits);
        }
        return digits;
    }
    let shift = power.unsigned_abs();
    if shift >= 128 {
        // The product is below 2^83, less than half of 2^shift: rounds to 0.
        return vec![b'0'];
    }
    let quotient = product >> shift;
    let remainder = product & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = remainder > half || (remainder == half && quotient % 2 == 1);
    decimal_digits(quotient + u128::from(up))
}

/// `value` in decimal, ASCII digits, most significant first.
fn decimal_digits(mut value: u128) -> Vec<u8> {
    let mut digits = Vec::new();
    loop {
        digits.push(b'0' + (value % 10) as u8);
        value /= 10;
        if value == 0 {
            break;
        }
    }
    digits.reverse();
    digits
}

/// Doubles a number written as ASCII decimal digits, in place.
fn double(digits: &mut Vec<u8>) {
    let mut carry = 0;
    for digit in digits.iter_mut().rev() {
        let twice = (*digit - b'0') * 2 + carry;
        *digit = b'0' + twice % 10;
        carry = twice / 10;
    }
    if carry > 0 {
        digits.insert(0, b'0' + carry);
    }
}

/// `value` as `format!("{value}")` writes it: the fewest digits that read back to
/// the same `f64` (the closest such when two qualify), never an exponent (`0.5`,
/// `190`, `-0`, `0.0001`, `1e23` as `100000000000000000000000`). Worked out on the
/// bits in integers like [`Fixed`], so that no float formatting is in the wasm.
pub struct Shortest(pub f64);

impl std::fmt::Display for Shortest {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&shortest(self.0))
    }
}

/// What float formatting writes before a finite value's digits (`Ok`: its sign), or
/// for a value without digits (`Err`: `NaN`, `inf`, `-inf`), as `{}` does.
fn sign_or_special(value: f64) -> Result<String, String> {
    if value.is_nan() {
        return Err("NaN".to_string());
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if value.is_infinite() {
        return Err(format!("{sign}inf"));
    }
    Ok(sign.to_string())
}

/// [`Shortest`] as a `String`.
pub fn shortest(value: f64) -> String {
    let mut text = match sign_or_special(value) {
        Ok(sign) => sign,
        Err(special) => return special,
    };
    if value == 0.0 {
        text.push('0');
        return text;
    }
    let (digits, decimals) = shortest_digits(value.abs());
    let mut digits = digits.decimal();
    if decimals <= 0 {
        digits.extend(std::iter::repeat_n(b'0', decimals.unsigned_abs() as usize));
        text.extend(digits.iter().map(|&digit| char::from(digit)));
        return text;
    }
    let decimals = decimals as usize;
    if digits.len() <= decimals {
        let mut padded = vec![b'0'; decimals + 1 - digits.len()];
        padded.append(&mut digits);
        digits = padded;
    }
    let (whole, fraction) = digits.split_at(digits.len() - decimals);
    text.extend(whole.iter().map(|&digit| char::from(digit)));
    text.push('.');
    text.extend(fraction.iter().map(|&digit| char::from(digit)));
    text
}

/// For a finite `value > 0`: the integer `n` and the place `d` of the shortest
/// decimal `n × 10^-d` inside the interval of reals that round to `value`, found by
/// trying each place from the leftmost digit on, every comparison exact.
fn shortest_digits(value: f64) -> (Big, i32) {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, power) =
        if biased == 0 { (fraction, -1074) } else { (fraction | 1u64 << 52, biased - 1075) };
    // The interval's ends are halfway to the neighbours; below a power of two the
    // lower neighbour is half as far. Ends count when the mantissa is even, as the
    // parser rounds a tie to even.
    let inclusive = mantissa % 2 == 0;
    let narrow_below = fraction == 0 && biased > 1;
    // Everything scaled by 2^shift (two bits below the mantissa's last) to be whole.
    let shift = (2 - power).max(0) as u32;
    let at = |factor: u64, below: u32| {
        let mut big = Big::from(factor);
        big.shift_left((power + shift as i32) as u32 - below);
        big
    };
    let upper = at(2 * mantissa + 1, 1);
    let lower = if narrow_below { at(4 * mantissa - 1, 2) } else { at(2 * mantissa - 1, 1) };
    let exact = at(mantissa, 0);
    let whole_digits = {
        let mut whole = Big::from(mantissa);
        whole.shift(power);
        if whole.is_zero() {
            0
        } else {
            whole.decimal().len() as i32
        }
    };
    let mut place = -whole_digits;
    loop {
        // The value and the interval times 10^place, against n times 2^shift.
        let (mut scaled_exact, mut scaled_upper, mut scaled_lower) =
            (exact.clone(), upper.clone(), lower.clone());
        for _ in 0..place.max(0) {
            for big in [&mut scaled_exact, &mut scaled_upper, &mut scaled_lower] {
                big.multiply(10);
            }
        }
        let mut below = scaled_exact.clone();
        for _ in 0..(-place).max(0) {
            below.divide(10);
        }
        below.shift(-(shift as i32));
        let candidate = |n: &Big| {
            let mut scaled = n.clone();
            for _ in 0..(-place).max(0) {
                scaled.multiply(10);
            }
            scaled.shift_left(shift);
            let inside = match (scaled.cmp(&scaled_lower), scaled.cmp(&scaled_upper)) {
                (std::cmp::Ordering::Less, _) | (_, std::cmp::Ordering::Greater) => false,
                (std::cmp::Ordering::Equal, _) | (_, std::cmp::Ordering::Equal) => inclusive,
                _ => true,
            };
            inside.then_some(scaled)
        };
        let mut above = below.clone();
        above.add(1);
        match (candidate(&below), candidate(&above)) {
            (Some(low), Some(high)) => {
                // Both qualify: the closer one, the upper on a tie.
                let mut from_low = scaled_exact.clone();
                from_low.subtract(&low);
                let mut from_high = high;
                from_high.subtract(&scaled_exact);
                return (if from_low < from_high { below } else { above }, place);
            }
            (Some(_), None) => return (below, place),
            (None, Some(_)) => return (above, place),
            (None, None) => place += 1,
        }
    }
}

/// An unsigned whole number of any size, in 32-bit limbs, least significant first:
/// just what [`shortest`] needs.
#[derive(Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl From<u64> for Big {
    fn from(value: u64) -> Big {
        let mut big = Big(vec![value as u32, (value >> 32) as u32]);
        big.trim();
        big
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl Big {
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn multiply(&mut self, factor: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Divides by `divisor`, dropping the remainder.
    fn divide(&mut self, divisor: u32) {
        let mut remainder = 0u64;
        for limb in self.0.iter_mut().rev() {
            let current = (remainder << 32) | u64::from(*limb);
            *limb = (current / u64::from(divisor)) as u32;
            remainder = current % u64::from(divisor);
        }
        self.trim();
    }

    fn add(&mut self, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.0 {
            let sum = u64::from(*limb) + carry;
            *limb = sum as u32;
            carry = sum >> 32;
            if carry == 0 {
                return;
            }
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// `self - other`, for `self >= other`.
    fn subtract(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (index, limb) in self.0.iter_mut().enumerate() {
            let difference = i64::from(*limb) - i64::from(other.0.get(index).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(difference < 0);
            *limb = (difference + (borrow << 32)) as u32;
        }
        self.trim();
    }

    fn shift_left(&mut self, bits: u32) {
        for _ in 0..bits / 32 {
            self.0.insert(0, 0);
        }
        let bits = bits % 32;
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let next = *limb >> (32 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        self.trim();
    }

    /// Times 2^bits, or divided by 2^-bits (dropping the remainder) when negative.
    fn shift(&mut self, bits: i32) {
        if bits >= 0 {
            self.shift_left(bits as u32);
            return;
        }
        let bits = bits.unsigned_abs();
        let limbs = (bits / 32) as usize;
        self.0.drain(..limbs.min(self.0.len()));
        let bits = bits % 32;
        if bits > 0 {
            for index in 0..self.0.len() {
                let high = self.0.get(index + 1).map_or(0, |&next| next << (32 - bits));
                self.0[index] = (self.0[index] >> bits) | high;
            }
        }
        self.trim();
    }

    /// Decimal digits, ASCII, most significant first (`0` for zero).
    fn decimal(&self) -> Vec<u8> {
        let mut rest = self.clone();
        let mut digits = Vec::new();
        while !rest.is_zero() {
            let mut quotient = rest.clone();
            quotient.divide(10);
            let mut tens = quotient.clone();
            tens.multiply(10);
            let mut digit = rest.clone();
            digit.subtract(&tens);
            digits.push(b'0' + digit.0.first().copied().unwrap_or(0) as u8);
            rest = quotient;
        }
        if digits.is_empty() {
            digits.push(b'0');
        }
        digits.reverse();
        digits
    }
}

/// A plain decimal number (`12.5`, `-3`, `0.000125`, `7.`) read as `str::parse::<f64>`
/// reads it, without core's float parser in the wasm: digits times a power of ten
/// in one correctly rounded division or product, exact when the digits, without
/// leading zeros, fit in 2^53 and the power is at most 10^22 (the bound of Clinger's
/// fast path, which the standard parser takes for the same inputs). Anything else
/// (exponents, `inf`, more digits) is `None`: the results files and the UI's inputs
/// hold short decimals only.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut digits: u64 = 0;
    for byte in whole.bytes().chain(fraction.bytes()) {
        if !byte.is_ascii_digit() {
            return None;
        }
        digits = digits.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
        if digits >= 1 << 53 {
            return None;
        }
    }
    let places = i32::try_from(fraction.len()).ok()?;
    // Trailing zeros of the fraction only shrink the power (`2.50` is 250/100 = 25/10).
    let (mut digits, mut places) = (digits, places);
    while places > 0 && digits % 10 == 0 && digits > 0 {
        digits /= 10;
        places -= 1;
    }
    if places > 22 {
        return None;
    }
    let magnitude = digits as f64 / POWERS_OF_TEN[places as usize];
    Some(if negative { -magnitude } else { magnitude })
}

/// 10^0 … 10^22, each exact in an `f64`.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19, 1e20, 1e21, 1e22,
];

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
    fn a_duration_beside_another_is_as_fine_as_their_difference() {
        let cases = [
            // V and vruntime for a lag of 1.33 ms: 31.33 − 30 reads as the lag.
            (31_333_333, 1_333_333, "31.33 ms"),
            (30_000_000, 1_333_333, "30 ms"),
            // 658 ns apart at 1.23 s: every nanosecond shows.
            (1_230_000_658, 658, "1.230000658 s"),
            // A difference coarser than the value's own digits changes nothing.
            (9_876_000, 5_000_000, "9.88 ms"),
            (999_960, 40, "999.96 µs"),
            (999_999_999, 100_000, "1 s"),
            (0, 0, "0 ns"),
        ];
        for (ns, diff_ns, text) in cases {
            assert_eq!(duration_beside(ns, diff_ns), text, "{ns} beside {diff_ns}");
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
    #[test]
    fn fixed_writes_what_float_formatting_writes() {
        let mut rng = crate::run::rng::Rng::new(11);
        let check = |value: f64| {
            for decimals in 0..=9u32 {
                let expected = format!("{value:.prec$}", prec = decimals as usize);
                assert_eq!(fixed(value, decimals), expected, "{value:e} to {decimals} decimals");
            }
        };
        for special in
            [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, 5e-324]
        {
            check(special);
        }
        // Exact ties at every place, where half to even decides (0.125 → 0.12).
        for numerator in 0..4_096u32 {
            for shift in 0..14 {
                check(f64::from(numerator) / f64::from(1u32 << shift));
                check(-f64::from(numerator) / f64::from(1u32 << shift));
            }
        }
        for _ in 0..20_000 {
            // Any bit pattern: every exponent, subnormals, huge integers.
            check(f64::from_bits(rng.below(u64::MAX)));
            // The ranges the UI writes: percentages, pixels, zooms, ratios.
            let scale = [1.0, 100.0, 10_000.0, 1e9][rng.below(4) as usize];
            check(rng.below(1 << 53) as f64 / (1u64 << 53) as f64 * scale);
            // Hundredths and thousandths as written, whose binary values sit next to a tie.
            check(rng.below(1_000_000) as f64 / 1_000.0);
            check(rng.below(1_000_000) as f64 / 200.0);
        }
    }

    #[test]
    fn decimals_parse_as_the_standard_parser_parses_them() {
        let mut rng = crate::run::rng::Rng::new(12);
        let check = |text: &str| {
            let ours = parse_decimal(text).map(f64::to_bits);
            let theirs = text.parse::<f64>().ok().map(f64::to_bits);
            assert_eq!(ours, theirs, "{text}");
        };
        for text in ["0", "-0", "+1", "7.", ".5", "12.50", "0.000125", "3.0", "1234.567", "9007199254740991"]
        {
            check(text);
        }
        for _ in 0..50_000 {
            let digits = rng.below(1 << 53);
            let text = format!("{digits}");
            let places = rng.below(text.len() as u64 + 4) as usize;
            let text = if places >= text.len() {
                format!("0.{}{text}", "0".repeat(places - text.len()))
            } else {
                format!("{}.{}", &text[..text.len() - places], &text[text.len() - places..])
            };
            check(&text);
            check(&format!("-{text}"));
        }
        for refused in ["", ".", "-", "1e3", "inf", "NaN", "1,5", " 1", "1.2.3", "99999999999999999"] {
            assert_eq!(parse_decimal(refused), None, "{refused}");
        }
    }
    #[test]
    fn shortest_writes_what_float_display_writes() {
        let mut rng = crate::run::rng::Rng::new(13);
        let check = |value: f64| assert_eq!(shortest(value), format!("{value}"), "{value:e}");
        for special in [0.0, -0.0, 0.5, 190.0, 1e23, 0.1 + 0.2, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            check(special);
        }
        for special in [f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e-300, 2f64.powi(60), 9007199254740993.0] {
            check(special);
        }
        for power in -1074..1024 {
            // Powers of two, where the interval below is narrower, and their neighbours.
            let two = 2f64.powi(power);
            check(two);
            check(f64::from_bits(two.to_bits() + 1));
            check(f64::from_bits(two.to_bits().saturating_sub(1)));
        }
        for _ in 0..3_000 {
            check(f64::from_bits(rng.below(u64::MAX)));
        }
        for _ in 0..20_000 {
            // Shares, pixels and ratios as the UI and the exports write them.
            check(rng.below(1_000_000) as f64 / rng.below(1_000_000).max(1) as f64);
            check(rng.below(1 << 53) as f64 / (1u64 << 53) as f64 * 100.0);
            check((rng.below(1 << 20) as f64).floor());
            check(rng.below(100_000) as f64 / 100.0);
        }
    }
}
