//! A model of the maple tree that indexes a process's VMAs (`mm->mm_mt`,
//! `lib/maple_tree.c`): a B-tree of non-overlapping ranges in which holes are
//! NULL ranges that occupy slots too. The VMA tree is an allocation-range tree:
//! internal nodes are `maple_arange_64` (10 slots, 9 pivots, plus a gap array),
//! leaves are `maple_leaf_64` (16 slots, 15 pivots). Slot *i* covers
//! `(pivot[i-1], pivot[i]]`; the last slot ends at the node's maximum.
//!
//! The tree is built by inserting ranges one at a time, as `mmap()` does, with
//! `mas_split`'s rules: an overflowing node first pushes data into its left,
//! else right, sibling when both fit (`mas_push_data`, the receiver ending with
//! slots − 1 entries), otherwise splits at `b_end / 2` (`mab_calc_split`), moved
//! so that a leaf half never ends in a NULL range (`mab_no_null_split`); a split
//! root grows the tree by one level. Rebalancing on removal is not modelled
//! (the case never unmaps).

use crate::run::wire::codec::{wire_enum, wire_struct};

/// `MAPLE_RANGE64_SLOTS`: slots in a leaf.
pub const LEAF_SLOTS: usize = 16;
/// `MAPLE_ARANGE64_SLOTS`: slots in an internal node of an allocation tree.
pub const ARANGE_SLOTS: usize = 10;

/// `mt_min_slots`: a leaf keeps at least 6 entries, an arange node 4.
pub fn min_slots(leaf: bool) -> usize {
    if leaf {
        LEAF_SLOTS / 2 - 2
    } else {
        ARANGE_SLOTS / 2 - 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", content = "id", rename_all = "snake_case"))]
pub enum Slot {
    /// A hole between VMAs.
    Empty,
    /// A VMA, by its index in the address space.
    Vma(u32),
    /// A child node.
    Child(u32),
}
wire_enum!(Slot { 0 => Empty, 1 => Vma(id), 2 => Child(id) });

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Node {
    pub leaf: bool,
    /// `pivots[i]` is the last address slot `i` covers; the last equals the node's max.
    pub pivots: Vec<u64>,
    pub slots: Vec<Slot>,
}
wire_struct!(Node { leaf, pivots, slots });

/// One node of a lookup's descent: which node, how many pivots were compared, which slot was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Visit {
    pub node: u32,
    pub pivots_compared: u32,
    pub slot: u32,
    /// The range the taken slot covers.
    pub min: u64,
    pub max: u64,
}
wire_struct!(Visit { node, pivots_compared, slot, min, max });

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MapleTree {
    pub nodes: Vec<Node>,
    pub root: u32,
}
wire_struct!(MapleTree { nodes, root });

impl MapleTree {
    /// An empty tree: one leaf holding a single NULL range over the whole address space.
    pub fn new() -> MapleTree {
        MapleTree {
            nodes: vec![Node { leaf: true, pivots: vec![u64::MAX], slots: vec![Slot::Empty] }],
            root: 0,
        }
    }

    /// Builds the tree by inserting `(start, end_inclusive)` ranges in the given order;
    /// range `i` is stored as `Slot::Vma(i)`. Ranges must not overlap.
    pub fn build(ranges: &[(u64, u64)]) -> MapleTree {
        let mut tree = MapleTree::new();
        for (index, &(start, last)) in ranges.iter().enumerate() {
            tree.insert(start, last, index as u32);
        }
        tree
    }

    fn capacity(&self, node: u32) -> usize {
        if self.nodes[node as usize].leaf {
            LEAF_SLOTS
        } else {
            ARANGE_SLOTS
        }
    }

    /// Stores `vma` over `[start, last]`, which must lie inside one NULL range.
    pub fn insert(&mut self, start: u64, last: u64, vma: u32) {
        assert!(start <= last, "a range has at least one address");
        self.insert_into(self.root, 0, start, last, vma);
        if self.nodes[self.root as usize].slots.len() > self.capacity(self.root) {
            // The root has no siblings to push into: split it under a new root (one level taller).
            let old = self.root;
            self.nodes.push(Node { leaf: false, pivots: vec![u64::MAX], slots: vec![Slot::Child(old)] });
            self.root = (self.nodes.len() - 1) as u32;
            self.split_child(self.root, 0);
        }
    }

    /// Inserts below `node` (covering `[min, ..]`); a child that overflows is resolved
    /// here, where its siblings are known. `node` itself may be left overfull.
    fn insert_into(&mut self, node: u32, min: u64, start: u64, last: u64, vma: u32) {
        let index = node as usize;
        let slot =
            self.nodes[index].pivots.iter().position(|&pivot| pivot >= start).expect("pivots end at max");
        let slot_min = if slot == 0 { min } else { self.nodes[index].pivots[slot - 1] + 1 };
        if self.nodes[index].leaf {
            let slot_max = self.nodes[index].pivots[slot];
            assert_eq!(self.nodes[index].slots[slot], Slot::Empty, "ranges do not overlap");
            assert!(last <= slot_max, "a range fits inside one hole");
            let mut pivots = Vec::new();
            let mut slots = Vec::new();
            if start > slot_min {
                pivots.push(start - 1);
                slots.push(Slot::Empty);
            }
            pivots.push(last);
            slots.push(Slot::Vma(vma));
            if last < slot_max {
                pivots.push(slot_max);
                slots.push(Slot::Empty);
            }
            let entry = &mut self.nodes[index];
            entry.pivots.splice(slot..=slot, pivots);
            entry.slots.splice(slot..=slot, slots);
            return;
        }
        let Slot::Child(child) = self.nodes[index].slots[slot] else {
            panic!("internal slots hold children")
        };
        self.insert_into(child, slot_min, start, last, vma);
        if self.nodes[child as usize].slots.len() > self.capacity(child) && !self.push_to_sibling(node, slot)
        {
            self.split_child(node, slot);
        }
    }

    /// `mab_no_null_split`: a leaf half must not end in a NULL range.
    fn no_null_split(&self, leaf: bool, slots: &[Slot], split: usize, capacity: usize) -> usize {
        if !leaf || slots[split] != Slot::Empty {
            return split;
        }
        let b_end = slots.len() - 1;
        if split < capacity - 1 && b_end - split > min_slots(leaf) {
            split + 1
        } else {
            split - 1
        }
    }

    /// `mas_push_data`: move entries into the left, else the right, sibling if both fit.
    fn push_to_sibling(&mut self, parent: u32, slot: usize) -> bool {
        let child = self.child_at(parent, slot);
        let capacity = self.capacity(child);
        let leaf = self.nodes[child as usize].leaf;
        let b_end = self.nodes[child as usize].slots.len() - 1;
        let rightmost = *self.nodes[child as usize].pivots.last().expect("not empty") == u64::MAX;
        let space = 2 * capacity - 2 - usize::from(leaf) - usize::from(rightmost);
        for sibling_slot in [slot.checked_sub(1), Some(slot + 1)].into_iter().flatten() {
            if sibling_slot >= self.nodes[parent as usize].slots.len() {
                continue;
            }
            let sibling = self.child_at(parent, sibling_slot);
            let sibling_end = self.nodes[sibling as usize].slots.len() - 1;
            if b_end + sibling_end >= space {
                continue;
            }
            let (left_slot, left, right) =
                if sibling_slot < slot { (sibling_slot, sibling, child) } else { (slot, child, sibling) };
            let mut pivots = std::mem::take(&mut self.nodes[left as usize].pivots);
            let mut slots = std::mem::take(&mut self.nodes[left as usize].slots);
            pivots.append(&mut self.nodes[right as usize].pivots);
            slots.append(&mut self.nodes[right as usize].slots);
            // The sibling receiving the data ends up with `capacity - 1` entries.
            let split = if sibling_slot < slot { capacity - 2 } else { slots.len() - capacity };
            let split = self.no_null_split(leaf, &slots, split, capacity);
            self.nodes[right as usize].pivots = pivots.split_off(split + 1);
            self.nodes[right as usize].slots = slots.split_off(split + 1);
            let boundary = *pivots.last().expect("left half not empty");
            self.nodes[left as usize].pivots = pivots;
            self.nodes[left as usize].slots = slots;
            self.nodes[parent as usize].pivots[left_slot] = boundary;
            return true;
        }
        false
    }

    /// `mab_calc_split`: split the child at `slot` of `parent` at `b_end / 2` (NULL-adjusted).
    fn split_child(&mut self, parent: u32, slot: usize) {
        let child = self.child_at(parent, slot);
        let capacity = self.capacity(child);
        let entry = &self.nodes[child as usize];
        let leaf = entry.leaf;
        let split = self.no_null_split(leaf, &entry.slots, (entry.slots.len() - 1) / 2, capacity);
        let right = Node {
            leaf,
            pivots: self.nodes[child as usize].pivots.split_off(split + 1),
            slots: self.nodes[child as usize].slots.split_off(split + 1),
        };
        let boundary = *self.nodes[child as usize].pivots.last().expect("left half not empty");
        self.nodes.push(right);
        let right = (self.nodes.len() - 1) as u32;
        let parent_entry = &mut self.nodes[parent as usize];
        parent_entry.pivots.insert(slot, boundary);
        parent_entry.slots.insert(slot + 1, Slot::Child(right));
    }

    fn child_at(&self, parent: u32, slot: usize) -> u32 {
        match self.nodes[parent as usize].slots[slot] {
            Slot::Child(child) => child,
            other => panic!("slot {slot} of node {parent} holds {other:?}, not a child"),
        }
    }

    /// `mt_find`'s descent for `addr`: per node, the pivots compared (a linear scan
    /// until `pivot >= addr`) and the slot taken. Returns the path and the entry.
    pub fn walk(&self, addr: u64) -> (Vec<Visit>, Slot) {
        let mut path = Vec::new();
        let (mut node, mut min) = (self.root, 0u64);
        // Bounded by the height: every step goes one level down.
        for _ in 0..64 {
            let entry = &self.nodes[node as usize];
            let last_slot = entry.slots.len() - 1;
            let slot = entry.pivots[..last_slot].iter().position(|&pivot| pivot >= addr).unwrap_or(last_slot);
            // The last slot needs no comparison: it covers up to the node's maximum.
            let compared = if slot == last_slot { last_slot } else { slot + 1 };
            let slot_min = if slot == 0 { min } else { entry.pivots[slot - 1] + 1 };
            let slot_max = entry.pivots[slot];
            path.push(Visit {
                node,
                pivots_compared: compared as u32,
                slot: slot as u32,
                min: slot_min,
                max: slot_max,
            });
            match entry.slots[slot] {
                Slot::Child(child) => {
                    node = child;
                    min = slot_min;
                }
                found => return (path, found),
            }
        }
        unreachable!("a maple tree is far less than 64 levels deep")
    }

    pub fn height(&self) -> u32 {
        let mut height = 1;
        let mut node = self.root;
        while let Some(Slot::Child(child)) = self.nodes[node as usize].slots.first().copied() {
            height += 1;
            node = child;
        }
        height
    }

    /// Checks the structure: node sizes, sorted pivots ending at each node's max, leaves at one depth.
    pub fn check_invariants(&self) {
        fn check(tree: &MapleTree, node: u32, min: u64, max: u64, depth: u32, leaf_depth: &mut Option<u32>) {
            let entry = &tree.nodes[node as usize];
            assert_eq!(entry.pivots.len(), entry.slots.len());
            assert!(entry.slots.len() <= tree.capacity(node), "node {node} over capacity");
            assert_eq!(*entry.pivots.last().expect("not empty"), max, "node {node} ends at its max");
            let mut low = min;
            for (pivot, slot) in entry.pivots.iter().zip(&entry.slots) {
                assert!(*pivot >= low, "pivots increase");
                match slot {
                    Slot::Child(child) => {
                        assert!(!entry.leaf);
                        check(tree, *child, low, *pivot, depth + 1, leaf_depth);
                    }
                    _ => assert!(entry.leaf, "internal nodes hold only children"),
                }
                low = pivot.saturating_add(1);
            }
            if entry.leaf {
                assert_eq!(*leaf_depth.get_or_insert(depth), depth, "all leaves at one depth");
            }
        }
        let mut leaf_depth = None;
        check(self, self.root, 0, u64::MAX, 1, &mut leaf_depth);
    }
}

impl Default for MapleTree {
    fn default() -> Self {
        MapleTree::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[test]
    fn thirty_vmas_with_holes_make_a_two_level_tree() {
        let ranges: Vec<(u64, u64)> =
            (0..30u64).map(|i| (i * 0x10000 + 0x1000, i * 0x10000 + 0x8fff)).collect();
        let tree = MapleTree::build(&ranges);
        tree.check_invariants();
        assert_eq!(tree.height(), 2);
        let (path, found) = tree.walk(0x1_5000);
        assert_eq!(found, Slot::Vma(1));
        assert_eq!(path.len(), 2);
        assert_eq!(tree.walk(0x1_0000).1, Slot::Empty, "a hole");
    }

    proptest! {
        #[test]
        fn every_lookup_agrees_with_a_btreemap(
            gaps in prop::collection::vec((1u64..64, 1u64..64), 1..300),
            order_seed in any::<u64>(),
            probes in prop::collection::vec(any::<u64>(), 1..50),
        ) {
            let mut ranges = Vec::new();
            let mut at = 0x1000u64;
            for (gap, length) in gaps {
                let start = at + gap * 0x1000;
                let last = start + length * 0x1000 - 1;
                ranges.push((start, last));
                at = last + 1;
            }
            // Insert in a scrambled but deterministic order.
            let mut order: Vec<usize> = (0..ranges.len()).collect();
            let mut state = order_seed | 1;
            for i in (1..order.len()).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                order.swap(i, (state >> 33) as usize % (i + 1));
            }
            let mut tree = MapleTree::new();
            let mut reference = BTreeMap::new();
            for &i in &order {
                tree.insert(ranges[i].0, ranges[i].1, i as u32);
                reference.insert(ranges[i].0, (ranges[i].1, i as u32));
            }
            tree.check_invariants();
            let probes = probes.into_iter().map(|p| p % (at + 0x10000)).chain(ranges.iter().flat_map(|r| [r.0, r.1, r.0.saturating_sub(1), r.1 + 1]));
            for addr in probes {
                let expected = reference.range(..=addr).next_back().filter(|(_, (last, _))| *last >= addr).map(|(_, (_, i))| *i);
                let (path, found) = tree.walk(addr);
                prop_assert_eq!(path.len() as u32, tree.height());
                prop_assert_eq!(found, expected.map_or(Slot::Empty, Slot::Vma), "addr {:#x}", addr);
            }
        }
    }
}
