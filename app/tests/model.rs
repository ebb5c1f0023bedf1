//! The player's one reducer, driven on the rwsem playground.

use slowpath_app::player::model::*;
use slowpath_engine::run::trace::Granularity;
use std::rc::Rc;

/// Opens the playground from a link, as the page does: parsed once, then opened.
fn open_link(link: &str) -> Player {
    let case = slowpath_engine::simulation("rwsem-playground").unwrap();
    Player::open(case, &slowpath_app::player::link::OpenedLink::parse(case.meta(), link))
}

fn playground() -> Player {
    open_link("")
}

#[test]
fn stepping_forward_then_back_returns_to_the_same_place() {
    let start = playground();
    let mut player = start.clone();
    for _ in 0..25 {
        player = player.apply(Action::StepForward);
    }
    let there = player.clone();
    player = player.apply(Action::StepForward).apply(Action::StepBack);
    assert_eq!(player.position, there.position);
    assert_eq!(player.run.view(player.position), there.run.view(there.position));
    for _ in 0..25 {
        player = player.apply(Action::StepBack);
    }
    assert_eq!(player.position, 0);
    assert_eq!(player.query.step, None);
}

#[test]
fn a_link_reopens_at_the_same_step_and_mid_unit_positions_survive() {
    let meta = slowpath_engine::simulation("rwsem-playground").unwrap().meta();
    let mut player = playground().apply(Action::SetGranularity(Granularity::Micro));
    for _ in 0..7 {
        player = player.apply(Action::StepForward);
    }
    player = player.apply(Action::SetGranularity(Granularity::Phase));
    let link = player.query.to_query(meta);
    let reopened = open_link(&link);
    assert_eq!(reopened.position, player.position, "{link}");
    assert_eq!(reopened.query.granularity, Granularity::Phase);
}

#[test]
fn changing_a_parameter_reruns_and_keeps_the_position_if_it_exists() {
    let mut player = playground();
    for _ in 0..10 {
        player = player.apply(Action::StepForward);
    }
    let index = player.index();
    let asked = player.apply(Action::SetParam { name: "jitter".into(), text: "10".into() });
    assert!(Rc::ptr_eq(&asked.run, &player.run), "the run on screen stays until the new one arrives");
    let key = asked.wanted().expect("a new run is wanted");
    assert_eq!(key.params.unsigned("jitter"), 10);
    let made = Rc::new(execute(asked.case.expect("runs"), &asked.query));
    let changed = asked.apply(Action::RunReady(RunHandle(made)));
    assert!(!Rc::ptr_eq(&changed.run, &player.run));
    assert_eq!(changed.wanted(), None);
    assert_eq!(changed.index(), index);
    // A run that fails (or is cancelled) puts the query back, with a notice.
    let failed = asked.apply(Action::RunFailed("cancelled".into()));
    assert_eq!(failed.wanted(), None);
    assert_eq!(failed.query.params, player.query.params);
    assert!(failed.notices.iter().any(|n| n.message.contains("cancelled")));
    // A stale run (for other inputs) is ignored.
    let stale = asked.apply(Action::RunReady(RunHandle(player.run.clone())));
    assert!(stale.wanted().is_some());
    let clamped = player.apply(Action::SetParam { name: "readers".into(), text: "500".into() });
    assert_eq!(clamped.query.params.unsigned("readers"), 64);
    assert_eq!(clamped.notices.len(), 1);
}

#[test]
fn playback_advances_and_stops_at_the_end() {
    let mut player = playground().apply(Action::TogglePlay);
    assert!(player.playing);
    player = player.apply(Action::Advance(u64::MAX / 2));
    assert!(player.at_end());
    assert!(!player.playing);
    // Play at the end starts over.
    assert_eq!(player.apply(Action::TogglePlay).position, 0);
}

#[test]
fn playing_by_time_moves_the_clock_between_steps_and_stops_at_the_end() {
    let start = playground().apply(Action::TogglePlay);
    let end_ns = start.run.end_ns;
    let mut player = start.clone();
    let mut last_position = 0;
    // A hundredth of the run per frame: the clock advances even when no step is due.
    for _ in 0..200 {
        player = player.apply(Action::AdvanceTime(end_ns / 100));
        assert!(player.position >= last_position, "never backwards");
        assert!(
            player.run.time_at(player.position) <= player.clock_ns,
            "the step shown is at or before the clock"
        );
        last_position = player.position;
        if !player.playing {
            break;
        }
    }
    assert!(player.at_end() && !player.playing, "stops at the end");
    // Any other action puts the clock back on the step shown.
    let back = player.apply(Action::StepBack);
    assert_eq!(back.clock_ns, back.run.time_at(back.position));
}

fn comparing(link: &str) -> Player {
    open_link(link)
}

#[test]
fn one_transport_steps_both_sides_by_simulated_time() {
    let mut player = comparing("cmp=no-spin");
    let other = player.other.clone().expect("the second run is made with the first");
    assert_eq!(player.other_at.position, 0, "both start at the start");
    let mut moved = 0;
    for _ in 0..40 {
        let before = player.other_at.position;
        player = player.apply(Action::StepForward);
        let now = player.run.time_at(player.position);
        let at = player.other_at.position;
        // The last step of the second run at or before the first run's time...
        assert!(other.time_at(at) <= now, "not ahead of the first side");
        // ...and no later step at or before it.
        assert!(at == other.total_ops() || other.op(at).unwrap().at_ns > now, "the last such step");
        moved += u64::from(at > before);
    }
    assert!(moved > 10, "the second side moved with the first ({moved} of 40 steps)");
    // Back steps move it back; the start is the start.
    let back = player.apply(Action::ToStart);
    assert_eq!(back.other_at.position, 0);
    assert!(player.apply(Action::StepBack).other_at.position <= player.other_at.position);
}

#[test]
fn by_unit_the_second_side_is_at_the_same_unit_and_clamps_at_its_end() {
    let mut player = comparing("cmp=v6.13&cmp.duration=5ms&align=unit");
    let other = player.other.clone().expect("made");
    let units = other.unit_count(Granularity::Iteration);
    assert!(units < player.run.unit_count(Granularity::Iteration), "the second run is shorter");
    for _ in 0..5 {
        player = player.apply(Action::StepForward);
    }
    assert_eq!(player.run.index_at(player.position, Granularity::Iteration), Some(4));
    assert_eq!(other.index_at(player.other_at.position, Granularity::Iteration), Some(4));
    assert!(!player.other_at.ended);
    let end = player.apply(Action::ToEnd);
    assert_eq!(end.other_at.position, other.total_ops(), "clamped to its end");
    assert!(end.other_at.ended);
}

#[test]
fn by_time_a_shorter_second_run_ends_and_says_so() {
    let player = comparing("cmp=v6.13&cmp.duration=5ms").apply(Action::ToEnd);
    let other = player.other.clone().expect("made");
    assert!(other.end_ns < player.run.end_ns);
    assert_eq!(player.other_at.position, other.total_ops());
    assert!(player.other_at.ended);
    let early = player.apply(Action::SeekTime(other.end_ns / 2));
    assert!(!early.other_at.ended);
}

#[test]
fn compare_mode_asks_for_the_second_run_and_ignores_stale_ones() {
    let player = playground();
    assert_eq!(player.wanted_compare(), None);
    let asked = player.apply(Action::CompareWith("no-handoff".into()));
    let key = asked.wanted_compare().expect("a second run is wanted");
    assert_eq!((key.variant, key.seed, &key.params), ("no-handoff", player.query.seed, &player.query.params));
    assert_eq!(asked.query.to_query(asked.meta), "lv=7&cmp=no-handoff");
    // A run for other inputs is not the second side.
    let stale = asked.apply(Action::CompareReady(RunHandle(player.run.clone())));
    assert!(stale.other.is_none());
    let mut second = asked.query.clone();
    second.variant = "no-handoff";
    let made = Rc::new(execute(asked.case.expect("runs"), &second));
    let ready = asked.apply(Action::CompareReady(RunHandle(made)));
    assert_eq!(ready.wanted_compare(), None);
    // The second side's parameter changes ask again; the first side's parameter is followed.
    let changed = ready.apply(Action::SetCompareParam { name: "readers".into(), text: "9".into() });
    assert_eq!(changed.wanted_compare().map(|key| key.params.unsigned("readers")), Some(9));
    let followed = ready.apply(Action::SetParam { name: "jitter".into(), text: "10".into() });
    assert_eq!(followed.query.compare.as_ref().map(|side| side.params.unsigned("jitter")), Some(10));
    // A failure without a held second run leaves compare mode, with a notice.
    let failed = asked.apply(Action::CompareFailed("cancelled".into()));
    assert_eq!(failed.query.compare, None);
    assert!(failed.notices.iter().any(|n| n.param == "cmp"));
    assert_eq!(ready.apply(Action::StopCompare).query.to_query(ready.meta), "");
}
