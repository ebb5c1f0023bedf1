//! How far the run being made has got, for a caller that shows it (the app's Web
//! Worker posts it to the page's progress bar). Reporting never changes a run:
//! the hook only reads the simulated clock, so traces stay deterministic.

use std::cell::{Cell, RefCell};

/// Builder calls (ops and repeats) between two reports: often enough for a bar
/// that moves several times a second, rare enough to cost nothing measurable.
const CALLS_PER_REPORT: u32 = 2_048;

type Hook = Box<dyn FnMut(u64)>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
    static CALLS: Cell<u32> = const { Cell::new(0) };
}

/// Runs `make` with `report(simulated_ns)` called now and then while it builds a run.
pub fn with_progress<R>(report: impl FnMut(u64) + 'static, make: impl FnOnce() -> R) -> R {
    let previous = HOOK.with(|hook| hook.borrow_mut().replace(Box::new(report)));
    let result = make();
    HOOK.with(|hook| *hook.borrow_mut() = previous);
    result
}

/// Called by the trace builder on every op and repeat with the simulated clock.
pub(crate) fn note(simulated_ns: u64) {
    let calls = CALLS.with(|calls| {
        let next = calls.get().wrapping_add(1);
        calls.set(next);
        next
    });
    if calls % CALLS_PER_REPORT == 0 {
        HOOK.with(|hook| {
            if let Ok(mut hook) = hook.try_borrow_mut() {
                if let Some(report) = hook.as_mut() {
                    report(simulated_ns);
                }
            }
        });
    }
}
