//! The reporter's address space: the VMAs of a small dynamically linked C
//! program on x86-64 (addresses as with ASLR off), the 1 TiB anonymous mapping,
//! which pages are populated, and the page tables that follow from that.

use crate::kernel::mm::maple::MapleTree;

/// What a VMA maps, which decides whether and how much of it a core dump writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backing {
    /// A file mapping never written: only an ELF header page (offset 0) is dumped.
    FileClean { elf_header: bool },
    /// A file mapping that was written (COW: it has an `anon_vma`): dumped whole.
    FileWritten,
    /// Anonymous memory: dumped whole iff written (has an `anon_vma`).
    Anon,
    /// `[vdso]`: always dumped whole.
    Vdso,
    /// `[vvar]`: a special mapping with a `vm_ops->name`, so `always_dump_vma()` dumps
    /// it whole; it is `VM_IO | VM_PFNMAP`, so `check_vma_flags` refuses every page
    /// and each becomes a hole.
    Vvar,
    /// `[vsyscall]`, the gate VMA: not in the maple tree, but `dump_vma_snapshot`
    /// adds it and `always_dump_vma()` dumps it whole (one page). With
    /// `vsyscall=xonly`, the default, its page is not mapped: `get_gate_page`
    /// returns -EFAULT and the page is a hole.
    Gate,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vma {
    pub start: u64,
    pub end: u64,
    pub name: &'static str,
    pub backing: Backing,
    /// Populated (present) page ranges `[start, end)`, page-aligned, sorted.
    pub present: Vec<(u64, u64)>,
    /// The big mapping of the report.
    pub big: bool,
}

impl Vma {
    /// `vma_dump_size` with the default coredump_filter (0x33).
    pub fn dump_size(&self, page: u64) -> u64 {
        match self.backing {
            Backing::Vvar | Backing::Gate | Backing::Vdso | Backing::FileWritten => self.end - self.start,
            Backing::Anon if self.present.is_empty() => 0,
            Backing::Anon => self.end - self.start,
            Backing::FileClean { elf_header: true } => page,
            Backing::FileClean { elf_header: false } => 0,
        }
    }
}

/// Page-table geometry: the shift of each level, top first, and what to call it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub page_shift: u32,
    pub shifts: &'static [u32],
    pub names: &'static [&'static str],
    pub machine: &'static str,
}

pub const GEOMETRY_4K: Geometry = Geometry {
    page_shift: 12,
    shifts: &[39, 30, 21, 12],
    names: &["pgd/p4d", "pud", "pmd", "pte"],
    machine: "x86-64, 4-level paging (p4d folded into pgd)",
};
pub const GEOMETRY_16K: Geometry = Geometry {
    page_shift: 14,
    shifts: &[47, 36, 25, 14],
    names: &["pgd", "pud", "pmd", "pte"],
    machine: "arm64, 16 KiB granule, 4 levels (model choice: x86-64 costs reused)",
};
pub const GEOMETRY_64K: Geometry = Geometry {
    page_shift: 16,
    shifts: &[42, 29, 16],
    names: &["pgd", "pmd", "pte"],
    machine: "arm64, 64 KiB granule, 3 levels, pud folded (model choice: x86-64 costs reused)",
};

/// Where a page-table walk for one address ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Walk {
    /// Levels visited (1 = stopped at the top level).
    pub levels: u8,
    /// The last level found a present page.
    pub present: bool,
}

/// The populated pages and the tables above them.
pub struct PageTables {
    pub geometry: Geometry,
    /// Present page ranges of the whole address space, sorted, disjoint.
    present: Vec<(u64, u64)>,
    /// Of those, the ranges a PMD entry maps as huge pages (sorted).
    huge: Vec<(u64, u64)>,
}

impl PageTables {
    pub fn new(geometry: Geometry, vmas: &[Vma], huge: &[(u64, u64)]) -> PageTables {
        let mut present: Vec<(u64, u64)> = vmas.iter().flat_map(|vma| vma.present.iter().copied()).collect();
        present.sort_unstable();
        PageTables { geometry, present, huge: huge.to_vec() }
    }

    /// Is any page in `[start, end)` present?
    fn any_present(&self, start: u64, end: u64) -> bool {
        let index = self.present.partition_point(|&(_, e)| e <= start);
        self.present.get(index).is_some_and(|&(s, _)| s < end)
    }

    /// The walk for `addr`: each level's entry exists iff its region holds a present page.
    pub fn walk(&self, addr: u64) -> Walk {
        let levels = self.geometry.shifts.len();
        let index = self.huge.partition_point(|&(_, e)| e <= addr);
        if self.huge.get(index).is_some_and(|&(s, _)| s <= addr) {
            // A huge pmd maps the page: the walk ends one level above the ptes.
            return Walk { levels: levels as u8 - 1, present: true };
        }
        for (depth, &shift) in self.geometry.shifts.iter().enumerate() {
            let region_start = addr >> shift << shift;
            let region_end = region_start.saturating_add(1u64 << shift);
            if !self.any_present(region_start, region_end) {
                return Walk { levels: depth as u8 + 1, present: false };
            }
        }
        Walk { levels: levels as u8, present: true }
    }

    /// Splits `[start, end)` into maximal runs of pages with the same walk.
    ///
    /// The depth at an address follows from the populated pages of the whole
    /// address space, not only of the range: a page of another VMA that shares a
    /// table with part of the range makes the walk go deeper there. The nearest
    /// populated range on either side is enough: any other one outside the range
    /// shares fewer tables with it than the nearest does.
    pub fn segments(&self, start: u64, end: u64) -> Vec<(u64, u64, Walk)> {
        let mut cuts = vec![start, end];
        let first = self.present.partition_point(|&(_, e)| e <= start);
        let inside = self.present[first..].iter().take_while(|&&(s, _)| s < end).count();
        let before = first.checked_sub(1).map(|i| self.present[i]);
        let after = self.present.get(first + inside).copied();
        let relevant =
            before.into_iter().chain(self.present[first..first + inside].iter().copied()).chain(after);
        for (s, e) in relevant {
            for &shift in self.geometry.shifts {
                let size = 1u64 << shift;
                for point in [s >> shift << shift, (e - 1) >> shift << shift] {
                    for cut in [point, point.saturating_add(size)] {
                        if cut > start && cut < end {
                            cuts.push(cut);
                        }
                    }
                }
            }
            for cut in [s, e] {
                if cut > start && cut < end {
                    cuts.push(cut);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut segments: Vec<(u64, u64, Walk)> = Vec::new();
        for pair in cuts.windows(2) {
            let walk = self.walk(pair[0]);
            match segments.last_mut() {
                Some(last) if last.2 == walk && last.1 == pair[0] => last.1 = pair[1],
                _ => segments.push((pair[0], pair[1], walk)),
            }
        }
        segments
    }

    /// Table entries a range walker scans to skip `[start, end)`, for the
    /// hypothetical tree-walk variant: at the level where each run stops, one
    /// entry per region it covers.
    pub fn entries_to_skip(&self, start: u64, end: u64) -> u64 {
        self.segments(start, end)
            .iter()
            .map(|&(s, e, walk)| {
                let shift = self.geometry.shifts[usize::from(walk.levels) - 1];
                ((e - 1) >> shift) - (s >> shift) + 1
            })
            .sum()
    }
}

/// The x86-64 vsyscall page (`VSYSCALL_ADDR`).
pub const GATE_START: u64 = 0xffff_ffff_ff60_0000;

/// Where a mapping too large for the 47-bit address space goes: 128 TiB, via a hint.
pub const HIGH_BASE: u64 = 1 << 47;

/// Does a mapping of `size` need an address above 128 TiB (and so 5-level paging on x86-64)?
pub fn needs_high_address(size: u64) -> bool {
    size > 0x5555_5555_4000 - (1 << 30)
}

pub const GEOMETRY_4K_5LEVEL: Geometry = Geometry {
    page_shift: 12,
    shifts: &[48, 39, 30, 21, 12],
    names: &["pgd", "p4d", "pud", "pmd", "pte"],
    machine: "x86-64, 5-level paging (LA57): the mapping is above 128 TiB, placed with an mmap address hint",
};

/// How the touched pages of the big mapping are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    First,
    Spread,
    Random(u64),
}

pub struct Space {
    pub vmas: Vec<Vma>,
    /// Ranges mapped by PMD-sized transparent huge pages (THP "always").
    pub huge: Vec<(u64, u64)>,
    pub big: usize,
    pub tree: MapleTree,
}

/// The program's own mappings before the big one, in the order exec, ld.so and libc
/// make them: start, end, name, backing, pages present (written or read), and
/// whether those pages sit at the top (the stack grows down).
#[rustfmt::skip]
const PROGRAM_MAPPINGS: [(u64, u64, &str, Backing, u64, bool); 22] = [
    (0x5555_5555_4000, 0x5555_5555_5000, "a.out", Backing::FileClean { elf_header: true }, 1, false),
    (0x5555_5555_5000, 0x5555_5555_6000, "a.out", Backing::FileClean { elf_header: false }, 1, false),
    (0x5555_5555_6000, 0x5555_5555_7000, "a.out", Backing::FileClean { elf_header: false }, 1, false),
    (0x5555_5555_7000, 0x5555_5555_8000, "a.out (relro)", Backing::FileWritten, 1, false),
    (0x5555_5555_8000, 0x5555_5555_9000, "a.out (data)", Backing::FileWritten, 1, false),
    (0x5555_5555_9000, 0x5555_5557_a000, "[heap]", Backing::Anon, 1, false),
    (0x7fff_f7d8_5000, 0x7fff_f7d8_8000, "anon (TLS)", Backing::Anon, 3, false),
    (0x7fff_f7d8_8000, 0x7fff_f7db_0000, "libc.so.6", Backing::FileClean { elf_header: true }, 1, false),
    (0x7fff_f7db_0000, 0x7fff_f7f4_5000, "libc.so.6", Backing::FileClean { elf_header: false }, 40, false),
    (0x7fff_f7f4_5000, 0x7fff_f7f9_d000, "libc.so.6", Backing::FileClean { elf_header: false }, 10, false),
    (0x7fff_f7f9_d000, 0x7fff_f7fa_1000, "libc.so.6 (relro)", Backing::FileWritten, 4, false),
    (0x7fff_f7fa_1000, 0x7fff_f7fa_3000, "libc.so.6 (data)", Backing::FileWritten, 2, false),
    (0x7fff_f7fa_3000, 0x7fff_f7fb_0000, "anon (libc bss)", Backing::Anon, 4, false),
    (0x7fff_f7fb_d000, 0x7fff_f7fb_f000, "anon", Backing::Anon, 2, false),
    (0x7fff_f7fb_f000, 0x7fff_f7fc_3000, "[vvar]", Backing::Vvar, 0, false),
    (0x7fff_f7fc_3000, 0x7fff_f7fc_5000, "[vdso]", Backing::Vdso, 2, false),
    (0x7fff_f7fc_5000, 0x7fff_f7fc_6000, "ld-linux-x86-64.so.2", Backing::FileClean { elf_header: true }, 1, false),
    (0x7fff_f7fc_6000, 0x7fff_f7ff_1000, "ld-linux-x86-64.so.2", Backing::FileClean { elf_header: false }, 20, false),
    (0x7fff_f7ff_1000, 0x7fff_f7ff_b000, "ld-linux-x86-64.so.2", Backing::FileClean { elf_header: false }, 5, false),
    (0x7fff_f7ff_b000, 0x7fff_f7ff_d000, "ld-linux-x86-64.so.2 (relro)", Backing::FileWritten, 2, false),
    (0x7fff_f7ff_d000, 0x7fff_f7ff_f000, "ld-linux-x86-64.so.2 (data)", Backing::FileWritten, 2, false),
    (0x7fff_fffd_e000, 0x7fff_ffff_f000, "[stack]", Backing::Anon, 3, true),
];

/// Builds the address space. `vmas` is the total VMA count (at least the base
/// program's); extra small mappings are added top-down in free gaps, alternating
/// file-backed read-only and anonymous, as a program's later mmaps would be.
///
/// `thp_pmd`: the PMD size when transparent huge pages are "always": 6.13 then
/// aligns an anonymous mapping whose length is a PMD multiple to a PMD boundary
/// (`thp_get_unmapped_area`), and a write fault maps a whole PMD-sized huge page,
/// so each touched page populates its aligned PMD region.
pub fn build(size: u64, touched: u64, pattern: Pattern, page: u64, vmas: u64, thp_pmd: Option<u64>) -> Space {
    let mut mappings = Mappings { list: Vec::new(), mapped: std::collections::BTreeMap::new(), page };
    // The executable, the heap, ld.so, libc and their anonymous mappings, vvar and
    // vdso, the stack.
    for &(start, end, name, backing, present_pages, top) in &PROGRAM_MAPPINGS {
        mappings.add(start, end, name, backing, present_pages, top);
    }
    let thp_pmd = thp_pmd.filter(|&pmd| size % pmd == 0);
    let (big_start, big_end) = big_mapping_range(size, page, thp_pmd);
    let present = touched_regions(pattern, touched.min(size / page), size / page, big_start, page, thp_pmd);
    let huge = if thp_pmd.is_some() { present.clone() } else { Vec::new() };
    mappings.list.push(Vma {
        start: big_start,
        end: big_end,
        name: "anonymous mmap",
        backing: Backing::Anon,
        present,
        big: true,
    });
    mappings.mapped.insert(big_start, big_end);
    mappings.add_extras(vmas);
    let Mappings { mut list, .. } = mappings;
    let ranges: Vec<(u64, u64)> =
        insertion_order(&list).iter().map(|&i| (list[i].start, list[i].end - 1)).collect();
    // The gate VMA is no mapping of the process (not in mm_mt, not counted in `vmas`),
    // but the snapshot lists it.
    list.push(Vma {
        start: GATE_START,
        end: GATE_START + page.max(4096),
        name: "[vsyscall]",
        backing: Backing::Gate,
        present: Vec::new(),
        big: false,
    });
    crate::run::sort::sort_by_key(&mut list, |vma| vma.start);
    let tree = tree_in_address_order(&ranges, &list);
    let big = list.iter().position(|vma| vma.big).expect("the big mapping exists");
    Space { vmas: list, big, tree, huge }
}

/// The mappings placed so far, in the order they were added, and what they cover
/// by start: the overlap trim looks up neighbours in it (a scan of the list would
/// be quadratic in the VMA count).
struct Mappings {
    list: Vec<Vma>,
    mapped: std::collections::BTreeMap<u64, u64>,
    page: u64,
}

impl Mappings {
    /// Maps `start..end` rounded to pages, trimmed against what is mapped already,
    /// with `present_pages` present at its bottom (or its `top`); nothing if the trim
    /// leaves it empty.
    fn add(
        &mut self,
        start: u64,
        end: u64,
        name: &'static str,
        backing: Backing,
        present_pages: u64,
        top: bool,
    ) {
        let page = self.page;
        let page_align = |x: u64| x / page * page;
        let mut start = page_align(start);
        let mut end = page_align(end + page - 1).max(start + page);
        // With pages larger than the program's segments, neighbours would overlap
        // once rounded: trim against what is mapped already, and drop what is left empty.
        while let Some((_, &other_end)) = self.mapped.range(..=start).next_back().filter(|(_, &e)| e > start)
        {
            start = other_end;
        }
        if let Some((&other_start, _)) = self.mapped.range(start..).next() {
            end = end.min(other_start);
        }
        if start >= end {
            return;
        }
        let pages = (end - start) / page;
        let present_pages = present_pages.min(pages);
        let present = match (present_pages, top) {
            (0, _) => Vec::new(),
            (n, false) => vec![(start, start + n * page)],
            (n, true) => vec![(end - n * page, end)],
        };
        self.mapped.insert(start, end);
        self.list.push(Vma { start, end, name, backing, present, big: false });
    }

    /// Extra small mappings up to `vmas` in all, adjacent as top-down allocation packs
    /// them. Top-down mmap puts each in the highest free gap under mmap_base (just
    /// below libc) that fits it: below the big one when the big one sits right under
    /// libc; first in the gap above it when THP alignment moved it down by up to a
    /// PMD. None goes below 64 KiB (mmap_min_addr); past that, no more are added.
    fn add_extras(&mut self, vmas: u64) {
        let page = self.page;
        let base_count = self.list.len() as u64;
        let mut below = 0x7fff_f7d8_5000 / page * page;
        'extras: for extra in 0..vmas.saturating_sub(base_count) {
            let length = (1 + extra % 4) * 16 * page;
            // Step down past each mapping in the way: `below` only falls, so every
            // mapping is stepped over at most once in the whole loop.
            let start = loop {
                if below < length + (64 << 10) {
                    break 'extras;
                }
                let start = below - length;
                match self.mapped.range(..below).next_back() {
                    Some((&other_start, &other_end)) if other_end > start => below = other_start,
                    _ => break start,
                }
            };
            let (name, backing, present_pages) = if extra % 2 == 0 {
                ("locale file", Backing::FileClean { elf_header: false }, 0)
            } else {
                ("anon (malloc arena)", Backing::Anon, 4)
            };
            let before_count = self.list.len();
            self.add(start, below, name, backing, present_pages, false);
            debug_assert_eq!(self.list.len(), before_count + 1, "an extra mapping is placed in a free gap");
            below = start;
        }
    }
}

/// Where mmap() places the big mapping: top-down, just below the lowest mapping up
/// there; if it does not fit above the heap, below the executable instead; with THP,
/// aligned down to a PMD.
fn big_mapping_range(size: u64, page: u64, thp_pmd: Option<u64>) -> (u64, u64) {
    let page_align = |x: u64| x / page * page;
    let heap_end = 0x5555_5557_a000u64;
    let exec_start = 0x5555_5555_4000u64;
    let (big_start, big_end) = if size <= page_align(0x7fff_f7d8_5000) - heap_end - (1 << 30) {
        (page_align(0x7fff_f7d8_5000) - size, page_align(0x7fff_f7d8_5000))
    } else if size <= exec_start - (1 << 30) {
        (exec_start - (1 << 30) - size, exec_start - (1 << 30))
    } else {
        // Larger than a 47-bit user address space can hold: mapped above 128 TiB with
        // an address hint, which needs 5-level paging (see `needs_high_address`).
        (HIGH_BASE, HIGH_BASE + size)
    };
    match thp_pmd {
        Some(pmd) if big_start % pmd != 0 => (big_start / pmd * pmd, big_start / pmd * pmd + size),
        _ => (big_start, big_end),
    }
}

/// The present ranges of the big mapping once the program has touched `touched` of
/// its `pages` by `pattern`, merged where they meet. With THP, the fault maps the
/// whole aligned PMD region around each page.
fn touched_regions(
    pattern: Pattern,
    touched: u64,
    pages: u64,
    big_start: u64,
    page: u64,
    thp_pmd: Option<u64>,
) -> Vec<(u64, u64)> {
    let mut touched_pages: Vec<u64> = match pattern {
        Pattern::First => (0..touched).collect(),
        Pattern::Spread if touched > 0 => (0..touched).map(|i| i * pages / touched).collect(),
        Pattern::Spread => Vec::new(),
        Pattern::Random(seed) => {
            let mut rng = crate::run::rng::Rng::new(seed);
            let mut chosen: Vec<u64> = (0..touched).map(|_| rng.below(pages)).collect();
            chosen.sort_unstable();
            chosen.dedup();
            chosen
        }
    };
    touched_pages.sort_unstable();
    let mut present: Vec<(u64, u64)> = Vec::new();
    for index in touched_pages {
        let at = big_start + index * page;
        let (from, to) = match thp_pmd {
            Some(pmd) => (at / pmd * pmd, at / pmd * pmd + pmd),
            None => (at, at + page),
        };
        match present.last_mut() {
            Some(last) if last.1 >= from => last.1 = last.1.max(to),
            _ => present.push((from, to)),
        }
    }
    present
}

/// The order the mappings enter the tree, as the process makes them: exec maps the
/// program, stack, vdso and ld.so; ld.so maps libc; the program maps the rest.
fn insertion_order(list: &[Vma]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..list.len()).collect();
    crate::run::sort::sort_by_key(&mut order, |&i| {
        let vma = &list[i];
        let stage = match vma.name {
            n if n.starts_with("a.out") || n == "[heap]" || n == "[stack]" => 0,
            "[vvar]" | "[vdso]" => 1,
            n if n.starts_with("ld-linux") => 2,
            n if n.starts_with("libc") || n.starts_with("anon (") && !n.contains("malloc") => 3,
            _ if vma.big => 4,
            _ => 5,
        };
        (stage, std::cmp::Reverse(vma.start))
    });
    order
}

/// The maple tree of `ranges` (in insertion order), its slots mapped back from
/// insertion indices to indices in `by_address`, the VMAs sorted by start.
fn tree_in_address_order(ranges: &[(u64, u64)], by_address: &[Vma]) -> MapleTree {
    let mut tree = MapleTree::build(ranges);
    let by_start: Vec<u64> = by_address.iter().map(|vma| vma.start).collect();
    for node in &mut tree.nodes {
        for slot in &mut node.slots {
            if let crate::kernel::mm::maple::Slot::Vma(inserted) = slot {
                let start = ranges[*inserted as usize].0;
                *inserted = by_start.binary_search(&start).expect("every range is a VMA") as u32;
            }
        }
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIB: u64 = 1 << 10;
    const TIB: u64 = 1 << 40;

    /// THP moves the big mapping down to a PMD boundary, leaving a gap under libc:
    /// the extras fill that gap first, then continue below the big one; none is lost.
    #[test]
    fn every_extra_mapping_finds_a_gap_with_and_without_thp() {
        for (page, thp_pmd) in [(4 * KIB, None), (4 * KIB, Some(2 << 20)), (64 * KIB, Some(512 << 20))] {
            let space = build(TIB, 100, Pattern::Spread, page, 5_000, thp_pmd);
            // The process's 5,000 and the gate VMA, which the snapshot lists too.
            assert_eq!(space.vmas.len(), 5_001, "page {page}, pmd {thp_pmd:?}");
            let mut starts: Vec<(u64, u64)> = space.vmas.iter().map(|vma| (vma.start, vma.end)).collect();
            starts.sort_unstable();
            assert!(starts.windows(2).all(|pair| pair[0].1 <= pair[1].0), "mappings overlap");
            let big = &space.vmas[space.big];
            let above_big =
                space.vmas.iter().filter(|vma| vma.start >= big.end && vma.end <= 0x7fff_f7d8_5000).count();
            // Without THP the big one ends right under libc; with it, 1 TiB's start
            // (0x7eff_f7d8_5000) is off a PMD boundary, so aligning leaves a gap above.
            assert_eq!(above_big > 0, thp_pmd.is_some(), "page {page}, pmd {thp_pmd:?}");
        }
    }
}
