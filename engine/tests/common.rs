//! Shared by the engine's integration tests.
#![allow(dead_code)]

use slowpath_engine::run::builder::{text, OpSpec, TraceBuilder};
use slowpath_engine::run::lock::{LockKind, LockMode};
use slowpath_engine::run::narration::{Arg, CodeLoc, Function};
use slowpath_engine::run::params::ParamValues;
use slowpath_engine::run::trace::{OpKind, Outcome, Run};
use slowpath_engine::run::world::{Effect, Layout, TaskState};
use std::collections::BTreeMap;

static TEMPLATES: &[&str] = &["phase", "iteration {0}", "{0} locks {1}", "{0} unlocks {1}", "{0} counts"];
static CODE: &[Function] =
    &[Function { name: "loop", source_url: "https://example.invalid/", lines: &["lock", "count", "unlock"] }];

/// A synthetic run: a few single iterations, a repeat of `count` iterations of
/// lock / count / unlock, then a few more single iterations.
pub fn synthetic_repeat_run(count: u64) -> Run {
    let mut layout = Layout::new(1);
    let group = layout.add_group("g");
    let task = layout.add_task("T", group);
    let lock = layout.add_lock("L", LockKind::RwSem);
    let counter = layout.add_counter("iterations");
    let mut builder = TraceBuilder::new(layout, TEMPLATES, CODE);
    let at = |line| CodeLoc { function: 0, line };
    builder.phase(text(0, &[]));
    builder.iteration(text(1, &[Arg::Count(0)]));
    builder.op(OpSpec {
        at_ns: 0,
        actor: Some(task),
        kind: OpKind::Schedule,
        code: at(0),
        text: text(4, &[Arg::Task(task)]),
        effects: &[Effect::SetState { task, state: TaskState::RunningKernel { cpu: 0 } }],
    });
    let lock_effects = [Effect::Acquire { lock, task, mode: LockMode::Read, waited_ns: 0 }];
    let count_effects = [Effect::Count { counter, delta: 1 }];
    let unlock_effects = [Effect::Release { lock, task }];
    let lock_args = [Arg::Task(task), Arg::Lock(lock)];
    let count_args = [Arg::AffineAddr { base: 0x1000, stride: 0x1000 }];
    let template = [
        OpSpec {
            at_ns: 0,
            actor: Some(task),
            kind: OpKind::LockFast,
            code: at(0),
            text: text(2, &lock_args),
            effects: &lock_effects,
        },
        OpSpec {
            at_ns: 40,
            actor: Some(task),
            kind: OpKind::Compute,
            code: at(1),
            text: text(4, &count_args),
            effects: &count_effects,
        },
        OpSpec {
            at_ns: 90,
            actor: Some(task),
            kind: OpKind::LockRelease,
            code: at(2),
            text: text(3, &lock_args),
            effects: &unlock_effects,
        },
    ];
    builder.repeat(count, 112, text(1, &[Arg::AffineCount { base: 1, stride: 1 }]), &template);
    for extra in 0..3u64 {
        let now = builder.now_ns();
        builder.iteration(text(1, &[Arg::Count(count + 1 + extra)]));
        builder.op(OpSpec { at_ns: now + 5, ..template[0] });
        builder.op(OpSpec { at_ns: now + 50, ..template[2] });
    }
    builder.finish("synthetic", "test", 0, ParamValues::default(), Outcome::Completed, BTreeMap::new())
}

/// Seeks to eight positions spread over `run`, steps a few ops from each, and
/// checks that the state stepped to is the state a seek gives, and valid.
pub fn assert_seek_agrees_with_stepping(run: &Run) {
    let total = run.total_ops();
    for k in 0..8u64 {
        let position = total / 8 * k;
        let mut cursor = slowpath_engine::run::trace::Cursor::new(run);
        cursor.seek(position);
        for _ in 0..5 {
            if !cursor.step() {
                break;
            }
        }
        let sought = run.state_at(cursor.position());
        assert_eq!(run.view_of(cursor.world(), cursor.position()), run.view_of(&sought, cursor.position()));
        sought.check_invariants();
    }
}

/// A value as a link writes it, percent-decoded (`%20` is a space): the worst settings
/// give the Lab's workload so, and the browser benchmark passes it on unchanged. A
/// `%` not followed by two hex digits stays as it is.
pub fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes.get(at + 1..at + 3).and_then(|pair| std::str::from_utf8(pair).ok());
        match (bytes[at], hex.and_then(|pair| u8::from_str_radix(pair, 16).ok())) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                at += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}
