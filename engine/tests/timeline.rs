//! The timeline (every task's states and every lock's spans over a run), checked on the rwsem playground.

use slowpath_engine::run::lock::LockMode;
use slowpath_engine::run::timeline::LockSpanKind;
use slowpath_engine::{run_checked, simulation};

#[test]
fn playground_tracks_and_lock_spans_are_ordered_and_within_the_run() {
    let case = simulation("rwsem-playground").expect("registered");
    let run = run_checked(case, &case.meta().default_params(), "v6.13", 1).expect("runs");
    let timeline = run.timeline();
    assert_eq!(timeline.tracks.len(), run.layout.tasks.len());
    for track in &timeline.tracks {
        assert!(track.starts_ns.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(track.states.windows(2).all(|pair| pair[0] != pair[1]));
        assert!(track.starts_ns.last().is_some_and(|&start| start <= timeline.end_ns));
    }
    assert!(!timeline.lock_spans.is_empty());
    for span in &timeline.lock_spans {
        assert!(span.start_ns <= span.end_ns && span.end_ns <= timeline.end_ns, "{span:?}");
    }
    // Holds of one lock by a writer never overlap any other hold.
    let holds: Vec<_> =
        timeline.lock_spans.iter().filter(|s| matches!(s.kind, LockSpanKind::Hold(_))).collect();
    for write in holds.iter().filter(|s| s.kind == LockSpanKind::Hold(LockMode::Write)) {
        assert!(holds
            .iter()
            .filter(|other| other.task != write.task)
            .all(|other| other.end_ns <= write.start_ns || other.start_ns >= write.end_ns));
    }
    let track = &timeline.tracks[0];
    let range = track.spans_in(1_000_000, 2_000_000);
    assert!(!range.is_empty());
    assert!(track.starts_ns[range.start] <= 1_000_000);
}
