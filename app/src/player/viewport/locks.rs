//! Lock rows: spans rasterised into pixel-column masks (held, waited, repeated), and a per-lock span index.

use super::Window;
use crate::player::Clamped;
use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::timeline::{LockSpan, LockSpanKind, Timeline};

/// Bits of a lock row's pixel column (see `rasterize_lock`).
pub const HELD_READ: u8 = 1;
pub const HELD_WRITE: u8 = 2;
pub const WAITED: u8 = 4;
pub const REPEATED: u8 = 8;

/// Columns `[x0, x1)` of a lock row with the same mask of `HELD_READ` … `REPEATED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskRun {
    pub x0: u32,
    pub x1: u32,
    pub mask: u8,
}

/// Reusable buffers for `rasterize_lock` (one difference array per bit).
#[derive(Default)]
pub struct LockRaster {
    diff: [Vec<i32>; 4],
}

impl LockRaster {
    /// Rasterises lock spans over `columns` columns: a column gets a bit when
    /// any span of that kind touches it, so a 1 ns hold still shows as one
    /// column. Writes the runs of equal non-zero masks to `out`. Cost: the
    /// spans plus the columns, whatever the overlap.
    pub fn rasterize<'a>(
        &mut self,
        spans: impl Iterator<Item = &'a LockSpan>,
        window: Window,
        columns: u32,
        out: &mut Vec<MaskRun>,
    ) {
        out.clear();
        if columns == 0 {
            return;
        }
        let size = columns as usize + 1;
        for diff in &mut self.diff {
            diff.clear();
            diff.resize(size, 0);
        }
        let width = f64::from(columns);
        let npp = window.ns_per_px(width);
        for span in spans {
            let xs = ((span.start_ns as f64 - window.start) / npp).clamped(0.0, width);
            let xe = ((span.end_ns as f64 - window.start) / npp).clamped(0.0, width);
            let c0 = (xs.floor() as u32).min(columns - 1);
            let c1 = (xe.ceil() as u32).clamp(c0 + 1, columns);
            let mut bump = |bit: usize| {
                self.diff[bit][c0 as usize] += 1;
                self.diff[bit][c1 as usize] -= 1;
            };
            match span.kind {
                LockSpanKind::Hold(LockMode::Read) => bump(0),
                LockSpanKind::Hold(LockMode::Write) => bump(1),
                LockSpanKind::Wait => bump(2),
            }
            if span.repeats > 1 {
                bump(3);
            }
        }
        let mut counts = [0i32; 4];
        let mut run: Option<MaskRun> = None;
        for column in 0..columns {
            let mut mask = 0u8;
            for (bit, count) in counts.iter_mut().enumerate() {
                *count += self.diff[bit][column as usize];
                if *count > 0 {
                    mask |= 1 << bit;
                }
            }
            match &mut run {
                Some(current) if current.mask == mask => current.x1 = column + 1,
                _ => {
                    if let Some(done) = run.take() {
                        if done.mask != 0 {
                            out.push(done);
                        }
                    }
                    run = Some(MaskRun { x0: column, x1: column + 1, mask });
                }
            }
        }
        if let Some(done) = run {
            if done.mask != 0 {
                out.push(done);
            }
        }
    }
}

/// Per-lock lookup of `Timeline::lock_spans` (sorted by start): the spans of
/// one lock in start order, and the running maximum of their ends, so the
/// first span that can overlap a window is a binary search away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockIndex {
    rows: Vec<LockRow>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct LockRow {
    spans: Vec<u32>,
    max_end: Vec<u64>,
}

impl LockIndex {
    pub fn new(timeline: &Timeline, locks: usize) -> LockIndex {
        let mut rows = vec![LockRow::default(); locks];
        for (index, span) in timeline.lock_spans.iter().enumerate() {
            if let Some(row) = rows.get_mut(span.lock.0 as usize) {
                let max_end = row.max_end.last().copied().unwrap_or(0).max(span.end_ns);
                row.spans.push(index as u32);
                row.max_end.push(max_end);
            }
        }
        LockIndex { rows }
    }

    /// The spans of `lock` that overlap `[from_ns, to_ns)` (an instant span at
    /// `from_ns` counts), in start order.
    pub fn spans_in<'a>(
        &'a self,
        timeline: &'a Timeline,
        lock: usize,
        from_ns: f64,
        to_ns: f64,
    ) -> impl Iterator<Item = &'a LockSpan> + 'a {
        let (spans, first): (&[u32], usize) = match self.rows.get(lock) {
            Some(row) => (&row.spans, row.max_end.partition_point(|&end| (end as f64) < from_ns)),
            None => (&[], 0),
        };
        spans[first..]
            .iter()
            .map(move |&index| &timeline.lock_spans[index as usize])
            .take_while(move |span| (span.start_ns as f64) < to_ns)
            .filter(move |span| span.end_ns as f64 >= from_ns)
    }
}
