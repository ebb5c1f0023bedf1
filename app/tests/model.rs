//! The player's one reducer, driven on the rwsem playground.

use slowpath_app::player::model::*;
use slowpath_engine::run::trace::Granularity;
use std::rc::Rc;

fn playground() -> Player {
    Player::open(slowpath_engine::find("rwsem-playground").unwrap().meta(), "")
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
    let meta = slowpath_engine::find("rwsem-playground").unwrap().meta();
    let mut player = playground().apply(Action::SetGranularity(Granularity::Micro));
    for _ in 0..7 {
        player = player.apply(Action::StepForward);
    }
    player = player.apply(Action::SetGranularity(Granularity::Phase));
    let link = player.query.to_query(meta);
    let reopened = Player::open(meta, &link);
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
    let made = Rc::new(execute(asked.meta, &asked.query).expect("runs"));
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
