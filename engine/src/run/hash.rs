//! A stable, streaming trace hash (FNV-1a, 64-bit) over explicit little-endian
//! encodings, so that native and wasm builds agree byte for byte. Not
//! `std::hash::Hash`: its output may change between Rust releases.

use crate::run::narration::Arg;
use crate::run::world::{Effect, TaskState};

#[derive(Clone, Debug)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl StableHasher {
    pub fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn u64(&mut self, value: u64) {
        self.bytes(&value.to_le_bytes());
    }

    pub fn finish(&self) -> u64 {
        self.0
    }

    pub fn arg(&mut self, arg: &Arg) {
        let (tag, a, b) = match *arg {
            Arg::Task(task) => (0, u64::from(task.0), 0),
            Arg::Lock(lock) => (1, u64::from(lock.0), 0),
            Arg::Count(value) => (2, value, 0),
            Arg::Signed(value) => (3, value as u64, 0),
            Arg::Ns(value) => (4, value, 0),
            Arg::Addr(value) => (5, value, 0),
            Arg::Word(word) => {
                self.u64(6);
                self.bytes(word.as_bytes());
                return;
            }
            Arg::AffineAddr { base, stride } => (7, base, stride),
            Arg::AffineCount { base, stride } => (8, base, stride),
            Arg::Channel(channel) => (9, u64::from(channel.0), 0),
            Arg::NsBeside { ns, diff_ns } => (10, ns, diff_ns),
        };
        self.u64(tag);
        self.u64(a);
        self.u64(b);
    }

    pub fn effect(&mut self, effect: &Effect) {
        match *effect {
            Effect::SetState { task, state } => {
                self.u64(0);
                self.u64(u64::from(task.0));
                self.task_state(state);
            }
            Effect::Count { counter, delta } => {
                self.u64(1);
                self.u64(u64::from(counter.0));
                self.u64(delta);
            }
            Effect::Gauge { task, gauge, value } => {
                self.u64(2);
                self.u64(u64::from(task.0));
                self.u64(u64::from(gauge));
                self.u64(value as u64);
            }
            Effect::Acquire { lock, task, mode, waited_ns } => {
                self.u64(3);
                self.u64(u64::from(lock.0));
                self.u64(u64::from(task.0));
                self.u64(mode as u64);
                self.u64(waited_ns);
            }
            Effect::Enqueue { lock, task, mode } => {
                self.u64(4);
                self.u64(u64::from(lock.0));
                self.u64(u64::from(task.0));
                self.u64(mode as u64);
            }
            Effect::Release { lock, task } => {
                self.u64(5);
                self.u64(u64::from(lock.0));
                self.u64(u64::from(task.0));
            }
            Effect::SetHandoff { lock, on } => {
                self.u64(6);
                self.u64(u64::from(lock.0));
                self.u64(u64::from(on));
            }
            Effect::Decrease { counter, delta } => {
                self.u64(7);
                self.u64(u64::from(counter.0));
                self.u64(delta);
            }
        }
    }

    fn task_state(&mut self, state: TaskState) {
        let (tag, a, b) = match state {
            TaskState::New => (0, 0, 0),
            TaskState::RunningUser { cpu } => (1, u64::from(cpu), 0),
            TaskState::RunningKernel { cpu } => (2, u64::from(cpu), 0),
            TaskState::Spinning { cpu, lock } => (3, u64::from(cpu), u64::from(lock.0)),
            TaskState::Runnable => (4, 0, 0),
            TaskState::Sleeping { channel } => (5, u64::from(channel.0), 0),
            TaskState::BlockedOnLock { lock } => (6, u64::from(lock.0), 0),
            TaskState::Stopped => (7, 0, 0),
            TaskState::Exiting { cpu } => (8, u64::from(cpu), 0),
            TaskState::Dead => (9, 0, 0),
        };
        self.u64(tag);
        self.u64(a);
        self.u64(b);
    }
}
