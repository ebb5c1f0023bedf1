//! One stable sort for the whole program. Each `slice::sort_by_key` with its own
//! element and key type is a fresh copy of the standard library's driftsort in the
//! wasm (about 4.5 kB each, a dozen of them); these helpers sort indices through a
//! `dyn` comparison instead, so that the sort's code exists once, and only a small
//! generic shell (collect the keys, apply the order) is copied per call.
//!
//! Results are those of `sort_by_key`: stable, equal keys keep their order. For
//! large `u64` sorts on a hot path, `sort_unstable` stays (one copy serves all).

use std::cmp::Ordering;

/// Sorts `items` by `key`, stably, as `slice::sort_by_key` does (each key computed once).
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl FnMut(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    let order = stable_order(items.len(), &mut |a, b| keys[a].cmp(&keys[b]));
    permute(items, order);
}

/// Sorts `items` by `compare`, stably, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// The one instance of the standard library's stable sort: indices 0..len in the
/// order `compare` gives them, ties in index order.
fn stable_order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Rearranges `items` so that position `i` holds what was at `order[i]`, by
/// following each cycle of the permutation once (a slot is marked done by
/// `order[i] = i`): at most `len` swaps, no clone of `T`.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    debug_assert_eq!(items.len(), order.len());
    for start in 0..items.len() {
        let mut current = start;
        loop {
            let source = order[current];
            order[current] = current;
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
    debug_assert!(order.iter().enumerate().all(|(i, &at)| i == at), "every cycle was followed");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::rng::Rng;

    #[test]
    fn same_order_as_the_standard_stable_sort() {
        let mut rng = Rng::new(7);
        for len in [0usize, 1, 2, 3, 10, 100, 1_000] {
            // Few distinct keys, so that ties are many and stability shows.
            let items: Vec<(u64, usize)> = (0..len).map(|i| (rng.below(8), i)).collect();
            let mut ours = items.clone();
            sort_by_key(&mut ours, |&(key, _)| key);
            let mut theirs = items.clone();
            theirs.sort_by_key(|&(key, _)| key);
            assert_eq!(ours, theirs, "len {len}");
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| (a.0 % 3).cmp(&(b.0 % 3)).then(b.0.cmp(&a.0)));
            let mut theirs = items;
            theirs.sort_by(|a, b| (a.0 % 3).cmp(&(b.0 % 3)).then(b.0.cmp(&a.0)));
            assert_eq!(ours, theirs, "len {len}, by a comparison");
        }
    }
}
