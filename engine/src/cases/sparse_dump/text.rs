//! Narration and pseudocode for the sparse core dump. The pseudocode is our
//! own simplified rendering; each function links to the real one.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_SNAPSHOT = "Snapshot of the address space",
    PHASE_VMA = "Dump {0} ({1} {1?page|pages} at {2})",
    PHASE_END = "The dump ends",
    ITER_SNAPSHOT = "dump_vma_snapshot",
    ITER_PAGE = "page {0}",
    ITER_HOLE = "hole {0}, {1} {1?page|pages}",
    ITER_SIGNAL = "SIGKILL",
    ITER_END = "end",
    SNAPSHOT = "The dump starts by copying the list of the process's {1} memory mappings. dump_vma_snapshot takes {0} for writing once and copies the {1} VMAs. {2} of them will be dumped; a private anonymous VMA is dumped whole as soon as it has an anon_vma, which its first written page created: the big mapping has {3} touched {3?page|pages}.",
    SNAPSHOT_ORDER = "The dump puts the mappings in order, smallest first. v6.13 sorts the VMAs by dump size, smallest first (commit 7d442a33bfe8), so the big mapping comes last; v6.14 and 6.13.7 went back to address order.",
    LOCK = "The dump locks the address space for reading, just for this one page. get_dump_page calls __get_user_pages_locked with locked = 0, which takes {0} for reading (mmap_read_lock_killable, down_read_killable): uncontended, since every other thread is dead, so the fast path succeeds. This is churn, not contention: {1} acquisitions so far.",
    LOCK_TAKE_615 = "The dump locks the address space for reading, and keeps the lock for many pages. v6.15 takes {0} for reading once for this stretch (mmap_read_lock_killable) and keeps it across pages. It would drop it to reschedule, but in this model nothing else wants the CPU, so need_resched() stays false (a model choice).",
    MT_FIND = "The dump looks up which mapping this page belongs to, from the top of the tree, again. find_vma({0}) starts mt_find at the root of the maple tree: it sets up a 48-byte MA_STATE (zeroed) and takes rcu_read_lock. It does not remember that the previous page found the same VMA.",
    VISIT = "The lookup goes down one level of the tree. Maple node {0} ({1}): compares {2} {2?pivot|pivots} until one is ≥ the address, and takes slot {3}, covering {4}–{5}.",
    FLAGS = "The dump checks that it may read this mapping. check_vma_flags: may this VMA be read for a dump? Yes.",
    SIGNAL_SEEN = "The dump notices the kill signal and gives up on this page, which now looks like a hole. __get_user_pages sees the pending SIGKILL and returns -EINTR early: no page-table walk. get_dump_page returns NULL, and the loop reads NULL as a hole.",
    WALK_NONE = "The page was never written, so there is nothing to copy: a hole. Page-table walk for {0}: the {1} entry is empty, so no page table below it exists. no_page_table() returns -EFAULT under FOLL_DUMP, so nothing is faulted in or allocated and get_dump_page returns NULL. {2} {2?level|levels} visited.",
    WALK_PRESENT = "This page was written, so it holds data to copy. Page-table walk for {0}: {1} levels, and the pte maps a page, which will be dumped.",
    UNLOCK = "The dump unlocks the address space again, after just one page. __get_user_pages_locked releases {0} (mmap_read_unlock, up_read).",
    UNLOCK_615_EMIT = "The dump unlocks the address space before it writes the page. v6.15 drops {0} before writing the page (mmap_read_unlock): a write may sleep in the filesystem.",
    UNLOCK_615_END = "The dump unlocks the address space: this stretch is done. v6.15 drops {0} at the end of the range (mmap_read_unlock).",
    SNAPSHOT_UNLOCK = "The dump unlocks the address space and works from its copy of the list. dump_vma_snapshot drops {0} (mmap_write_unlock).",
    SKIP = "The dump adds one more empty page to the count it will skip. NULL means a hole: dump_skip only adds one page to the skip counter (the file will get a hole). Nothing checks for a fatal signal on this path.",
    SKIP_CHECKED = "The dump adds one more empty page to the count it will skip, then checks for a kill signal. NULL means a hole: dump_skip adds a page, and this variant then checks dump_interrupted().",
    SKIP_615 = "The dump adds one more empty page to the count it will skip, then checks for a kill signal. NULL means a hole: dump_skip adds a page; v6.15 then checks dump_interrupted() on every page.",
    EMIT = "The dump writes this page to the core file. dump_emit_page checks dump_interrupted() and writes the {0} page to the core file.",
    ABORT = "A kill signal is waiting, so the dump stops. dump_interrupted() is true: SIGKILL is pending, so the dump stops after this page.",
    HOLE_FILE = "The dump jumps over the empty pages in the file in one move. The next dump_emit writes out to_skip: __dump_skip checks dump_interrupted() (no signal), then one lseek (vfs_llseek) moves past the {0} skipped {0?page|pages}: the core file is sparse.",
    HOLE_PIPE = "The dump cannot jump over the empty pages in a pipe, so it writes them out as zeros. The next dump_emit writes out to_skip; a pipe cannot seek, so __dump_skip writes {0} zero-filled pages through __dump_emit, each checking dump_interrupted().",
    HOLE_PIPE_CUT = "The dump writes the empty pages to the pipe as zeros until the kill signal stops it. The next dump_emit writes out to_skip as zero-filled pages to the pipe; the SIGKILL lands meanwhile, and __dump_emit's dump_interrupted() check stops the writes after {0} of {1} {1?page|pages}.",
    HOLE_DROPPED = "A kill signal is waiting, so the skipped pages are never written out. {0} skipped {0?page is|pages are} still in to_skip. The next dump_emit (here do_coredump's final one) calls __dump_skip, which checks dump_interrupted() first: SIGKILL is pending, so no lseek and no zero page is written.",
    SIGNAL = "Someone sends the process a kill signal. SIGKILL is sent at {0} (while page {1} was being examined) and is now pending on the dumping thread.",
    SIGNAL_IN_HOLE = "Someone sends the process a kill signal. SIGKILL is sent at {0}, while a hole's zero pages were being written to the pipe, and is now pending on the dumping thread.",
    SIGNAL_IGNORED = "The dump goes on as if no kill signal had come. v6.13: the pending SIGKILL changes nothing the loop looks at: __get_user_pages returns early, but the skip path never calls dump_interrupted().",
    TREE_SKIP = "The what-if design jumps over the whole empty stretch at once. Hypothetical tree walk: one walk of the page tables skips the whole hole {0}–{1} ({2} {2?page|pages}) by scanning {3} table {3?entry|entries}, instead of {2} page-by-page lookups.",
    TREE_LOOKUP = "The what-if design locks the address space and finds the mapping once. Hypothetical tree walk: takes {0} for reading (mmap_read_lock_killable) and looks the VMA up once (find_vma), then walks its populated page tables only.",
    TREE_UNLOCK_EMIT = "The what-if design unlocks the address space before it writes the page. Hypothetical tree walk: takes a reference to the page and drops {0} before writing it (mmap_read_unlock). Writing under mmap_lock would nest the filesystem's locks inside it, an inversion (Jan Kara's objection on the list): a batched design must drop the lock to write.",
    TREE_RELOCK = "The what-if design locks again and finds the mapping again. Hypothetical tree walk: retakes {0} (mmap_read_lock_killable) and looks the VMA up again (find_vma): the address space may have changed while it was unlocked.",
    TREE_UNLOCK_END = "The what-if design unlocks the address space: the mapping is done. Hypothetical tree walk: the range is done; it drops {0} (mmap_read_unlock).",
    WALK_HUGE = "This address lies inside a huge page that is in memory, so it holds data to copy. Page-table walk for {0}: {1} levels, and the pmd maps a transparent huge page (THP): follow_pmd_mask returns the page inside it, which will be dumped.",
    FLAGS_VVAR = "This mapping cannot be read for a dump, so each of its pages counts as a hole. check_vma_flags: [vvar] is VM_IO | VM_PFNMAP, so -EFAULT and get_dump_page returns NULL: always_dump_vma() made the dump cover it whole, but every page is a hole.",
    GATE_HOLE = "This special page is not mapped, so it counts as a hole. No VMA here: this is the gate VMA [vsyscall], which dump_vma_snapshot adds and always_dump_vma() dumps whole. in_gate_area, so get_gate_page: with vsyscall=xonly (the default) the page is not mapped, -EFAULT, a hole.",
    END = "The dump is over at {0}: {1} {1?page|pages} skipped, {2} written. The per-operation costs come from the reported 30 s split by the shares of Mateusz Guzik's profile, which he took on his own machine (where the dump took 13–14 s): reusing those shares at 30 s is a model choice.",
    END_KILLED = "The process finally dies of the kill signal. The process now dies of the SIGKILL sent at {0}: {1} later.",
    END_NO_SIGNAL = "Nobody tried to stop the dump. No SIGKILL was sent.",
}

pub(crate) const DUMP_613: u16 = 0;
pub(crate) const DUMP_INTERRUPTIBLE: u16 = 1;
pub(crate) const DUMP_615: u16 = 2;
// 3 is get_dump_page, shown for reading (its work is in the functions it calls).
pub(crate) const GUP: u16 = 4;
pub(crate) const MT_FIND: u16 = 5;
pub(crate) const FOLLOW: u16 = 6;
pub(crate) const SNAPSHOT: u16 = 7;
pub(crate) const TREE_WALK: u16 = 8;
pub(crate) const SIGNAL: u16 = 9;
pub(crate) const GUP_LOCKED: u16 = 10;
pub(crate) const HOLES: u16 = 11;
pub(crate) const DUMP_TODAY: u16 = 12;

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

/// v6.15's dump loop, which the `today` variant also runs (6.18 is modelled as it).
const DUMP_LOOP_V615: &[&str] = &[
    "dump_user_range(cprm, start, len):",
    "    locked = 0",
    "    for (addr = start; addr < start + len; addr += PAGE_SIZE) {",
    "        if (!locked) { mmap_read_lock_killable(mm); locked = 1 }",
    "        page = get_dump_page(addr, &locked)   // find_vma, walk; the lock stays held",
    "        if (page) {",
    "            if (locked) { mmap_read_unlock(mm); locked = 0 }  // drop it to write",
    "            stop = !dump_emit_page(cprm, page); put_page(page)",
    "            if (stop) goto out",
    "        } else {",
    "            dump_skip(cprm, PAGE_SIZE)",
    "        }",
    "        if (dump_interrupted()) goto out     // every page",
    "        if (need_resched()) { if (locked) mmap_read_unlock(mm); locked = 0; cond_resched() }",
    "    }",
    "out: if (locked) mmap_read_unlock(mm)",
];

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "dump_user_range (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/dump_user_range",
        lines: &[
            "dump_user_range(cprm, start, len):",
            "    for (addr = start; addr < start + len; addr += PAGE_SIZE) {",
            "        page = get_dump_page(addr)        // lock, find_vma, walk, unlock",
            "        if (page) {",
            "            stop = !dump_emit_page(cprm, page)  // checks dump_interrupted()",
            "            put_page(page)",
            "        } else {",
            "            dump_skip(cprm, PAGE_SIZE)    // to_skip += PAGE_SIZE; no signal check",
            "        }",
            "        if (stop) return 0",
            "        cond_resched()",
            "    }",
        ],
    },
    Function {
        name: "dump_user_range (skip path checks signals)",
        source_url: "https://lore.kernel.org/all/?q=%22coredump%3A+allow+interrupting+dumps+of+large+anonymous+regions%22",
        lines: &[
            "dump_user_range(cprm, start, len):",
            "    for (addr = start; addr < start + len; addr += PAGE_SIZE) {",
            "        page = get_dump_page(addr)",
            "        if (page) {",
            "            stop = !dump_emit_page(cprm, page)",
            "            put_page(page)",
            "        } else {",
            "            dump_skip(cprm, PAGE_SIZE)",
            "            if (dump_interrupted()) return 0   // the patch's one new check",
            "        }",
            "        if (stop) return 0",
            "        cond_resched()",
            "    }",
        ],
    },
    Function {
        name: "dump_user_range (v6.15)",
        source_url: "https://elixir.bootlin.com/linux/v6.15/A/ident/dump_user_range",
        lines: DUMP_LOOP_V615,
    },
    Function {
        name: "get_dump_page (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/get_dump_page",
        lines: &[
            "get_dump_page(addr):",
            "    int locked = 0",
            "    ret = __get_user_pages_locked(mm, addr, 1, &page, &locked, FOLL_FORCE | FOLL_DUMP | FOLL_GET)",
            "    return ret == 1 ? page : NULL",
        ],
    },
    Function {
        name: "__get_user_pages",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/__get_user_pages",
        lines: &[
            "__get_user_pages(mm, start, nr_pages, gup_flags, pages, locked):",
            "    vma = gup_vma_lookup(mm, start)      // find_vma → mt_find, from the root",
            "    if (!vma && in_gate_area(mm, start)) return get_gate_page(mm, start, ...)   // [vsyscall]",
            "    check_vma_flags(vma, gup_flags)      // VM_IO | VM_PFNMAP: -EFAULT",
            "    if (fatal_signal_pending(current)) return -EINTR",
            "    cond_resched()",
            "    page = follow_page_mask(vma, start, gup_flags, &ctx)   // the page-table walk",
            "    if (!page) ret = faultin_page(vma, start, ...)   // a fault; never for a dump hole",
            "    else if (IS_ERR(page)) return PTR_ERR(page)     // a hole: -EFAULT from no_page_table",
            "    return 1",
        ],
    },
    Function {
        name: "mt_find",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/mt_find",
        lines: &[
            "mt_find(mt, &index, max):",
            "    MA_STATE(mas, mt, index, index); rcu_read_lock()   // 48-byte state, zeroed",
            "    node = root; min = 0; max = ULONG_MAX",
            "    while (node is not a leaf) {",
            "        off = first slot with pivot[off] >= index   // linear scan",
            "        narrow [min, max] to that slot; node = slot[off]",
            "    }",
            "    entry = leaf slot with pivot[off] >= index, found the same way",
            "    rcu_read_unlock(); return entry",
        ],
    },
    Function {
        name: "follow_page_mask",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/follow_page_mask",
        lines: &[
            "follow_page_mask(vma, address, flags, ctx):",
            "    pgd = pgd_offset(mm, address); if (pgd_none(*pgd)) return no_page_table(vma, flags)",
            "    follow_p4d_mask: p4d = p4d_offset(pgd, address); if (!p4d_present(*p4d)) return no_page_table(...)",
            "    follow_pud_mask: pud = pud_offset(p4d, address); if (!pud_present(*pud)) return no_page_table(...)",
            "    follow_pmd_mask: pmd = pmd_offset(pud, address); if (pmd_none(*pmd)) return no_page_table(...)",
            "    follow_page_pte: pte = pte_offset_map(pmd, address); if (pte_none(*pte)) return no_page_table(...)",
            "    return the page pte maps",
            "no_page_table(vma, flags): FOLL_DUMP on anonymous memory: return ERR_PTR(-EFAULT)   // a hole",
        ],
    },
    Function {
        name: "dump_vma_snapshot",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/dump_vma_snapshot",
        lines: &[
            "dump_vma_snapshot(cprm):",
            "    mmap_write_lock_killable(mm)",
            "    for each vma (and the gate vma): record start, end, flags, dump_size = vma_dump_size(vma)",
            "    mmap_write_unlock(mm)",
            "    sort by dump_size (v6.12–v6.13.6)",
        ],
    },
    Function {
        name: "skip unpopulated ranges (hypothetical, never merged)",
        source_url: "https://lore.kernel.org/all/?q=%22avoid+mmap+sem+relocks+when+coredumping%22",
        lines: &[
            "dump_user_range(cprm, start, len):        // the approach suggested on the list",
            "    mmap_read_lock_killable(mm); vma = find_vma(mm, start)   // once",
            "    for each populated page in the page tables of [start, start + len):",
            "        skip the hole before it in one step (dump_skip)",
            "        get_page(page); mmap_read_unlock(mm)    // never write under mmap_lock",
            "        dump_emit_page(cprm, page); put_page(page)",
            "        mmap_read_lock_killable(mm); vma = find_vma(mm, addr)   // it may have changed",
            "    skip the final hole; mmap_read_unlock(mm)",
        ],
    },
    Function {
        name: "send SIGKILL",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/complete_signal",
        lines: &[
            "kill(pid, SIGKILL) → complete_signal():",
            "    sigaddset(&t->pending.signal, SIGKILL)   // fatal_signal_pending() is now true",
            "    signal_wake_up(t)",
        ],
    },
    Function {
        name: "__get_user_pages_locked (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/__get_user_pages_locked",
        lines: &[
            "__get_user_pages_locked(mm, start, nr_pages, pages, locked, flags):",
            "    if (!*locked) { mmap_read_lock_killable(mm); must_unlock = true; *locked = 1 }  // down_read_killable",
            "    ret = __get_user_pages(mm, start, nr_pages, flags, pages, locked)",
            "    if (must_unlock && *locked) { mmap_read_unlock(mm); *locked = 0 }  // up_read",
            "    return ret",
        ],
    },
    Function {
        name: "holes: dump_skip and __dump_skip",
        source_url: "https://elixir.bootlin.com/linux/v6.13/A/ident/__dump_skip",
        lines: &[
            "dump_skip(cprm, nr): cprm->to_skip += nr       // nothing is written yet",
            "__dump_emit(cprm, addr, nr) and do_coredump's final dump_emit(cprm, \"\", 1):",
            "    if (cprm->to_skip) { if (!__dump_skip(cprm, cprm->to_skip)) return 0; cprm->to_skip = 0 }",
            "__dump_skip(cprm, nr):",
            "    if (file can seek) { if (dump_interrupted()) return 0; vfs_llseek(file, nr, SEEK_CUR) }",
            "    else while (nr) { __dump_emit(cprm, zeroes, PAGE_SIZE); nr -= PAGE_SIZE }  // each checks dump_interrupted()",
        ],
    },
    Function {
        name: "dump_user_range (v6.18, modelled as v6.15's loop)",
        source_url: "https://elixir.bootlin.com/linux/v6.18/A/ident/dump_user_range",
        lines: DUMP_LOOP_V615,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Links name the modelled tags (v6.13, not a point release, which already has
    /// the core_sort_vma backport; v6.15 for the fix, v6.18 for today) and no line anchor, which
    /// could not be checked against the tag offline: identifier links land on the
    /// definition whatever the line.
    #[test]
    fn every_kernel_link_names_a_tag_and_no_line() {
        for function in CODE {
            let url = function.source_url;
            assert!(!url.contains("#L"), "{url}");
            if url.starts_with("https://elixir.bootlin.com/") {
                assert!(
                    url.starts_with("https://elixir.bootlin.com/linux/v6.13/A/ident/")
                        || url.starts_with("https://elixir.bootlin.com/linux/v6.15/A/ident/")
                        || url.starts_with("https://elixir.bootlin.com/linux/v6.18/A/ident/"),
                    "{url}"
                );
            } else {
                assert!(url.starts_with("https://lore.kernel.org/"), "{url}");
            }
        }
    }
}
