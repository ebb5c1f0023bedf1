//! The FIFO case's world vocabulary: its counters and per-task gauges (ids in
//! layout order, which the stage reads) and the layout built from a config.

use super::super::events::Config;
use crate::run::world::{CounterId, Layout};

/// Counters in the layout, in this order.
pub const COUNTERS: &[&str] = &[
    "writes",
    "writes ≥ 1 ms",
    "pipe bytes",
    "pipe readers",
    "pipe writers",
    "pipe buffer allocated",
    "pipe buffers freed",
    "unread bytes discarded",
    "open() → ENXIO",
    "write() → EAGAIN",
    "listener loops",
    "select() returned at once",
    "select() slept",
    "wakeup preemptions",
    "context switches",
];
pub const C_WRITES: CounterId = CounterId(0);
pub const C_SLOW: CounterId = CounterId(1);
pub const C_BYTES: CounterId = CounterId(2);
pub const C_READERS: CounterId = CounterId(3);
pub const C_WRITERS: CounterId = CounterId(4);
pub const C_ALIVE: CounterId = CounterId(5);
pub const C_FREES: CounterId = CounterId(6);
pub const C_DISCARDED: CounterId = CounterId(7);
pub const C_ENXIO: CounterId = CounterId(8);
pub const C_EAGAIN: CounterId = CounterId(9);
pub const C_LOOPS: CounterId = CounterId(10);
pub const C_SELECT_AT_ONCE: CounterId = CounterId(11);
pub const C_SELECT_SLEPT: CounterId = CounterId(12);
pub const C_PREEMPTIONS: CounterId = CounterId(13);
pub const C_SWITCHES: CounterId = CounterId(14);

/// Per-task gauges, in this order.
pub const GAUGES: &[&str] = &[
    "prio",
    "static prio",
    "sleep_avg ns",
    "bonus",
    "interactive",
    "credit",
    "slice left",
    "slice stamp ns",
    "array",
    "line",
];
pub const G_PRIO: u8 = 0;
pub const G_STATIC: u8 = 1;
pub const G_SLEEP_AVG: u8 = 2;
pub const G_BONUS: u8 = 3;
pub const G_INTERACTIVE: u8 = 4;
pub const G_CREDIT: u8 = 5;
pub const G_SLICE: u8 = 6;
pub const G_SLICE_STAMP: u8 = 7;
pub const G_ARRAY: u8 = 8;
pub const G_LINE: u8 = 9;
/// EEVDF's gauges, in the layout of today's kernel only (virtual ns).
pub const FAIR_GAUGES: &[&str] = &["vruntime", "virtual deadline", "lag"];
pub const G_VRUNTIME: u8 = 10;
pub const G_DEADLINE: u8 = 11;
pub const G_LAG: u8 = 12;

/// A slow write, as the figures count it.
pub const SLOW_NS: u64 = 1_000_000;

pub fn layout(config: &Config) -> Layout {
    let mut layout = Layout::new(config.cpus);
    let listener = layout.add_group("listener");
    let writer = layout.add_group("writer");
    layout.add_task("listener", listener);
    layout.add_task("writer", writer);
    for name in COUNTERS {
        layout.add_counter(*name);
    }
    for name in GAUGES {
        layout.add_gauge(*name);
    }
    if config.kernel == super::super::events::Kernel::Eevdf {
        for name in FAIR_GAUGES {
            layout.add_gauge(*name);
        }
    }
    layout.add_channel("select() on test.fifo");
    layout
}
