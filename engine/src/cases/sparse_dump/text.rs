//! Narration and pseudocode for the sparse core dump. The pseudocode is our
//! own simplified rendering; each function links to the real one.

use crate::run::narration::{CodeLoc, Function};

crate::templates! {
    PHASE_SNAPSHOT = "Snapshot of the address space",
    PHASE_VMA = "Dump {0} ({1} pages at {2})",
    PHASE_END = "The dump ends",
    ITER_SNAPSHOT = "dump_vma_snapshot",
    ITER_PAGE = "page {0}",
    ITER_HOLE = "hole {0}, {1} pages",
    ITER_SIGNAL = "SIGKILL",
    ITER_END = "end",
    SNAPSHOT = "dump_vma_snapshot takes {0} for writing once and copies the {1} VMAs. {2} of them will be dumped; a private anonymous VMA is dumped whole as soon as it has an anon_vma, which its first written page created: the big mapping has {3} touched page(s).",
    SNAPSHOT_ORDER = "v6.13 sorts the VMAs by dump size, smallest first (commit 7d442a33bfe8), so the big mapping comes last; v6.14 and 6.13.7 went back to address order.",
    LOCK = "get_dump_page takes {0} for reading (down_read_killable): uncontended, since every other thread is dead, so the fast path succeeds. This is churn, not contention: {1} acquisitions so far.",
    LOCK_TAKE_615 = "v6.15 takes {0} for reading once for this stretch (mmap_read_lock_killable) and keeps it across pages. It would drop it to reschedule, but in this model nothing else wants the CPU, so need_resched() stays false (a model choice).",
    MT_FIND = "find_vma({0}) starts mt_find at the root of the maple tree, under rcu_read_lock: it does not remember that the previous page found the same VMA.",
    VISIT = "Maple node {0} ({1}): compares {2} pivot(s) until one is ≥ the address, and takes slot {3}, covering {4}–{5}.",
    FLAGS = "check_vma_flags: may this VMA be read for a dump? Yes.",
    SIGNAL_SEEN = "__get_user_pages sees the pending SIGKILL and returns -EINTR early: no page-table walk. get_dump_page returns NULL, and the loop reads NULL as a hole.",
    WALK_NONE = "Page-table walk for {0}: the {1} entry is empty, so no page table below it exists; nothing is faulted in or allocated. {2} level(s) visited.",
    WALK_PRESENT = "Page-table walk for {0}: {1} levels, and the pte maps a page: this page was written and will be dumped.",
    UNLOCK = "up_read releases {0} again, one page later.",
    SKIP = "NULL means a hole: dump_skip only adds one page to the skip counter (the file will get a hole). Nothing checks for a fatal signal on this path.",
    SKIP_CHECKED = "NULL means a hole: dump_skip adds a page, and this variant then checks dump_interrupted().",
    SKIP_615 = "NULL means a hole: dump_skip adds a page; v6.15 then checks dump_interrupted() on every page.",
    EMIT = "dump_emit_page checks dump_interrupted() and writes the {0} page to the core file.",
    EMIT_ABORT = "dump_emit_page checks dump_interrupted(): a fatal signal is pending, so the dump stops here.",
    ABORT = "dump_interrupted() is true: SIGKILL is pending, so the dump stops after this page.",
    HOLE_FILE = "{0} skipped pages become one lseek past the hole: the core file is sparse.",
    HOLE_PIPE = "The core goes to a pipe, which cannot seek: {0} skipped pages become {0} zero-filled page writes.",
    SIGNAL = "SIGKILL is sent at {0} (while page {1} was being examined) and is now pending on the dumping thread.",
    SIGNAL_IGNORED = "v6.13: the pending SIGKILL changes nothing the loop looks at: __get_user_pages returns early, but the skip path never calls dump_interrupted(). The dump goes on.",
    TREE_SKIP = "Hypothetical tree walk: one walk of the page tables skips the whole hole {0}–{1} ({2} pages) by scanning {3} table entries, instead of {2} page-by-page lookups.",
    TREE_LOOKUP = "Hypothetical tree walk: one maple-tree lookup for the VMA, then a walk over its populated page tables only.",
    END = "The dump is over at {0}: {1} pages skipped, {2} written.",
    END_KILLED = "The process now dies of the SIGKILL sent at {0}: {1} later.",
    END_NO_SIGNAL = "No SIGKILL was sent.",
}

pub(crate) const DUMP_613: u16 = 0;
pub(crate) const DUMP_INTERRUPTIBLE: u16 = 1;
pub(crate) const DUMP_615: u16 = 2;
pub(crate) const GET_DUMP_PAGE: u16 = 3;
pub(crate) const GUP: u16 = 4;
pub(crate) const MT_FIND: u16 = 5;
pub(crate) const FOLLOW: u16 = 6;
pub(crate) const SNAPSHOT: u16 = 7;
pub(crate) const TREE_WALK: u16 = 8;
pub(crate) const SIGNAL: u16 = 9;

pub(crate) fn at(function: u16, line: u16) -> CodeLoc {
    CodeLoc { function, line }
}

pub(crate) static CODE: &[Function] = &[
    Function {
        name: "dump_user_range (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/fs/coredump.c#L924",
        lines: &[
            "dump_user_range(cprm, start, len):",
            "    for (addr = start; addr < start + len; addr += PAGE_SIZE) {",
            "        page = get_dump_page(addr)        // lock, find_vma, walk, unlock",
            "        if (page) {",
            "            stop = !dump_emit_page(cprm, page)  // checks dump_interrupted()",
            "            put_page(page)",
            "        } else {",
            "            dump_skip(cprm, PAGE_SIZE)    // no signal check here",
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
        source_url: "https://elixir.bootlin.com/linux/v6.15/source/fs/coredump.c",
        lines: &[
            "dump_user_range(cprm, start, len):",
            "    locked = 0",
            "    for (addr = start; addr < start + len; addr += PAGE_SIZE) {",
            "        if (!locked) mmap_read_lock_killable(mm); locked = 1",
            "        page = get_dump_page(addr, &locked)   // lock stays held",
            "        if (page) {",
            "            mmap_read_unlock(mm); locked = 0  // drop it to write",
            "            stop = !dump_emit_page(cprm, page)",
            "        } else {",
            "            dump_skip(cprm, PAGE_SIZE)",
            "        }",
            "        if (dump_interrupted()) return 0     // every page",
            "        if (need_resched()) { unlock; cond_resched() }",
            "    }",
        ],
    },
    Function {
        name: "get_dump_page (v6.13)",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/mm/gup.c#L2268",
        lines: &[
            "get_dump_page(addr):",
            "    mmap_read_lock_killable(mm)          // down_read_killable",
            "    ret = __get_user_pages(mm, addr, 1, FOLL_FORCE | FOLL_DUMP | FOLL_GET, &page)",
            "    mmap_read_unlock(mm)                 // up_read",
            "    return ret == 1 ? page : NULL",
        ],
    },
    Function {
        name: "__get_user_pages",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/mm/gup.c",
        lines: &[
            "__get_user_pages(mm, start, nr_pages, gup_flags, pages):",
            "    vma = gup_vma_lookup(mm, start)      // find_vma → mt_find, from the root",
            "    check_vma_flags(vma, gup_flags)",
            "    if (fatal_signal_pending(current)) return -EINTR",
            "    cond_resched()",
            "    page = follow_page_mask(vma, start, foll_flags)   // the page-table walk",
            "    if (!page) return -EFAULT            // FOLL_DUMP: a hole, do not fault",
            "    return 1",
        ],
    },
    Function {
        name: "mt_find",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/lib/maple_tree.c",
        lines: &[
            "mt_find(mt, &index, max):",
            "    rcu_read_lock()",
            "    node = root; min = 0; max = ULONG_MAX",
            "    while (node is not a leaf) {",
            "        off = first slot with pivot[off] >= index   // linear scan",
            "        narrow [min, max] to that slot; node = slot[off]",
            "    }",
            "    entry = slot of the leaf found the same way",
            "    rcu_read_unlock(); return entry",
        ],
    },
    Function {
        name: "follow_page_mask",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/mm/gup.c",
        lines: &[
            "follow_page_mask(vma, address, flags):",
            "    pgd = pgd_offset(mm, address);  if (pgd_none(*pgd)) return no_page_table()",
            "    p4d = p4d_offset(pgd, address); if (!p4d_present(*p4d)) return no_page_table()",
            "    pud = pud_offset(p4d, address); if (!pud_present(*pud)) return no_page_table()",
            "    pmd = pmd_offset(pud, address); if (pmd_none(*pmd)) return no_page_table()",
            "    pte = pte_offset_map(pmd, address); if (pte_none(*pte)) return no_page_table()",
            "    return the page pte maps",
        ],
    },
    Function {
        name: "dump_vma_snapshot",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/fs/coredump.c",
        lines: &[
            "dump_vma_snapshot(cprm):",
            "    mmap_write_lock_killable(mm)",
            "    for each vma: record start, end, flags, dump_size = vma_dump_size(vma)",
            "    mmap_write_unlock(mm)",
            "    sort by dump_size (v6.12–v6.13.6)",
        ],
    },
    Function {
        name: "skip unpopulated ranges (hypothetical, never merged)",
        source_url: "https://lore.kernel.org/all/?q=%22avoid+mmap+sem+relocks+when+coredumping%22",
        lines: &[
            "dump_user_range(cprm, start, len):        // the approach suggested on the list",
            "    vma = find_vma(mm, start)              // once",
            "    for each populated page in the page tables of [start, start + len):",
            "        skip the hole before it in one step",
            "        dump_emit_page(cprm, page)",
            "    skip the final hole",
        ],
    },
    Function {
        name: "send SIGKILL",
        source_url: "https://elixir.bootlin.com/linux/v6.13.7/source/kernel/signal.c",
        lines: &[
            "kill(pid, SIGKILL) → complete_signal():",
            "    sigaddset(&t->pending.signal, SIGKILL)   // fatal_signal_pending() is now true",
            "    signal_wake_up(t)",
        ],
    },
];
