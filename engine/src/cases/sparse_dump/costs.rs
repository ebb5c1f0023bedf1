//! What each operation of the dump costs, on two machines: the reporter's
//! (seed 001, Linux 6.13) and this project's development machine (Linux 6.18,
//! measured by `tools/measure/sparse-dump/`).

/// The per-operation costs of one machine, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub(super) struct OpCosts {
    pub down_read: u64,
    pub up_read: u64,
    pub rcu: u64,
    /// mt_find's fixed part: setting up the 48-byte `MA_STATE` (zeroed with `rep stos`),
    /// which the seed's profile names as where most of `mt_find`'s time goes.
    pub ma_state: u64,
    /// One maple node: load its (hot) cache lines, decode its type and limits.
    pub node: u64,
    pub pivot: u64,
    pub check_flags: u64,
    /// The rest of `__get_user_pages` less the page-table levels.
    pub gup_base: u64,
    /// One page-table level visited by `follow_page_mask`.
    pub level: u64,
    pub get_dump_page: u64,
    pub dump_loop: u64,
    /// `dump_interrupted()`: one flag test.
    pub interrupt_check: u64,
    /// Writing one page to a file or pipe.
    pub emit: u64,
    /// One zero-filled page written to a pipe for a hole.
    pub zero_page: u64,
    /// One lseek over a hole in a file.
    pub lseek: u64,
    /// Scanning one page-table entry in the hypothetical tree walk.
    pub table_entry: u64,
    /// dump_vma_snapshot, per VMA.
    pub snapshot_per_vma: u64,
}

/// The reporter's machine, calibrated on seed 001: ≈30 s / 268,435,456 iterations ≈
/// 112 ns per page, split by Mateusz Guzik's profile (same seed). Model choice: that
/// profile is from Guzik's own machine, where the same program dumped in 13–14 s, not
/// from the reported 30 s run; the shares are reused at 30 s as if both machines spent
/// their time alike. The shares: down_read_killable 15.13 %, up_read 13.84 %, mt_find
/// 40.92 % (of which rcu_read_lock/unlock 5.54 %), check_vma_flags 3.14 %, the rest of
/// __get_user_pages incl. the page-table walk ≈ 20 %, get_dump_page itself ≈ 5 %, the
/// loop ≈ 2 %. Node visits, pivot compares and page-table levels are costed per
/// operation, so other trees, sizes and variants are predictions.
pub(super) const SEED_MACHINE: OpCosts = OpCosts {
    down_read: 17,
    up_read: 15,
    rcu: 6,
    // Model choice: the profile does not split mt_find further, so of its ≈ 45 ns a
    // page (40.92 % of 112 ns) the model puts 24 ns here, 6 ns on RCU, 4 ns on each of
    // the two node visits and 1 ns on each pivot compared (7 a lookup in the default tree).
    ma_state: 24,
    node: 4,
    pivot: 1,
    check_flags: 4,
    // The rest of __get_user_pages (20.13 % ≈ 22.5 ns a page) less the page-table
    // levels: 1 TiB of the report's pages walk 1.5 levels on average (half stop at the
    // pgd, half, in pgd entry 255, at an empty pud), so 18 + 1.5 × 3 = 22.5 ns.
    gup_base: 18,
    level: 3,
    get_dump_page: 6,
    dump_loop: 2,
    interrupt_check: 1,
    // Model choice (not measured): writing one 4 KiB page to a file or pipe ≈ 1 µs.
    emit: 1_000,
    // Model choices: a zero-filled page to a pipe ≈ 500 ns, an lseek ≈ 200 ns, a
    // page-table entry scanned ≈ 2 ns, the snapshot ≈ 100 ns a VMA.
    zero_page: 500,
    lseek: 200,
    table_entry: 2,
    snapshot_per_vma: 100,
};

/// This project's development machine (2-vCPU AMD EPYC KVM guest, Linux 6.18.44),
/// calibrated on `tools/measure/sparse-dump/results.tsv` (2026-11-30): a least-squares
/// fit of the dump's system time against pages walked, 1 GiB to 1 TiB, gives 111.5 ns
/// a page over all 45 runs (16 GiB: 112.0, 256 GiB: 112.3, 1 TiB: 111.6 ns a page at
/// session 1's medians).
/// Today's loop (v6.15 on) keeps mmap_lock across skipped pages, so no lock costs a
/// page. Model choice: with no profile of this machine, the lock-free share of the
/// seed's split is kept and every operation scaled by one factor, ≈ 1.4 (112 ns
/// measured over the 80 ns the seed machine's costs give the same loop), rounded to
/// whole nanoseconds. Page-table levels are the exception, measured here: 1 TiB's pages
/// walk half a level less than 256 GiB's and cost 0.6 ns less, so ≈ 1 ns a level.
/// `engine/tests/sparse_dump_today.rs` checks the sum against results.tsv.
pub(super) const THIS_MACHINE: OpCosts = OpCosts {
    down_read: 24,
    up_read: 21,
    rcu: 8,
    ma_state: 35,
    node: 6,
    pivot: 1,
    check_flags: 6,
    // 1.4 × (18 + 1.5 × 3) ≈ 31.5 with its levels; ≈ 30 without them at 1 ns a level.
    gup_base: 30,
    level: 1,
    get_dump_page: 8,
    dump_loop: 3,
    interrupt_check: 1,
    // Measured (results.tsv, session 3): 1 GiB with every page written took
    // 1,264 ms (min wall); less the 30 ms walk, 4.7 µs a page, into ext4's page cache.
    emit: 4_700,
    // Model choices, the seed machine's scaled by 1.4.
    zero_page: 700,
    lseek: 280,
    table_entry: 3,
    snapshot_per_vma: 140,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// A skipped page of the lock-keeping loop in the default tree (two nodes, seven
    /// pivots) whose walk stops after `levels` levels.
    fn skipped_page(costs: &OpCosts, levels: u64) -> u64 {
        costs.rcu
            + costs.ma_state
            + 2 * costs.node
            + 7 * costs.pivot
            + costs.check_flags
            + costs.gup_base
            + costs.level * levels
            + costs.get_dump_page
            + costs.dump_loop
            + costs.interrupt_check
    }

    #[test]
    fn this_machine_is_the_seed_machine_scaled_by_about_1_4_to_the_measured_112_ns() {
        // 16 and 256 GiB walk two levels a page: 112.0 and 112.3 ns measured.
        assert_eq!(skipped_page(&THIS_MACHINE, 2), 112);
        let seed = skipped_page(&SEED_MACHINE, 2) as f64;
        let scale = 112.0 / seed;
        assert!((1.35..1.45).contains(&scale), "{scale}");
    }
}
