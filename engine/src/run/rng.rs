//! The one source of randomness: a seeded PCG, used only where a case asks
//! for jitter. `rand_core` without `getrandom`: nothing here can read OS entropy.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

pub struct Rng(Pcg64Mcg);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(Pcg64Mcg::seed_from_u64(seed))
    }

    /// Uniform in `[0, bound)`; `bound` 0 gives 0.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        // Lemire's multiply-shift: unbiased enough for jitter and identical on every platform.
        ((u128::from(self.0.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// `base_ns` varied uniformly by ±`percent` %, never below 1 ns.
    pub fn jitter(&mut self, base_ns: u64, percent: u64) -> u64 {
        // u128 so that no base near u64::MAX can overflow.
        let spread = (u128::from(base_ns) * u128::from(percent.min(100)) / 100) as u64;
        let low = base_ns - spread;
        let offset = self.below(spread.saturating_mul(2).saturating_add(1));
        low.saturating_add(offset).max(1)
    }
}

/// A counter-based draw: the same `(seed, counter)` always gives the same 64 bits,
/// without drawing what comes before (SplitMix64's finaliser over a mixed key).
/// For cases that expand element `i` of a huge repeated structure on demand.
pub fn counter_hash(seed: u64, counter: u64) -> u64 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ counter.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_jitter_stays_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let x = a.jitter(1000, 25);
            assert_eq!(x, b.jitter(1000, 25));
            assert!((750..=1250).contains(&x));
        }
        assert_eq!(Rng::new(1).jitter(500, 0), 500);
    }
}
