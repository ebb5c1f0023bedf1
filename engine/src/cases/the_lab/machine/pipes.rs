//! Pipes: `send` and `recv` by the rules of fs/pipe.c (v6.13) at the byte level.
//! A write of at most PIPE_BUF bytes is atomic (it waits for room for all of it), a
//! larger one writes what fits and sleeps for the rest; a read takes what is there,
//! up to what it asks, and sleeps only on an empty pipe. Waits are exclusive: a
//! write wakes the first sleeping reader, a read the first sleeping writer, and a
//! task that leaves data (or room) behind wakes the next one. Bytes in the pipe are
//! a counter of the world; a sleeper waits on the pipe's channel. The capacity is
//! rounded as the kernel rounds it (`round_pipe_size`), but counted in bytes, not
//! page slots (a model choice, `docs/cases/the-lab.md`).

use super::{Next, Sim, Why};
use crate::cases::the_lab::lang::Instr;
use crate::cases::the_lab::text::{self, at, T};
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{ChannelId, CounterId, Effect, Layout, TaskId, TaskState};

/// Writes up to this size are atomic (PIPE_BUF).
pub(super) const PIPE_BUF: u64 = 4096;

#[derive(Clone, Debug)]
pub(super) struct PipeRt {
    pub capacity: u64,
    pub bytes: u64,
    /// Readers sleep here (`pipe->rd_wait`); its name is the pipe's.
    pub rd_wait: ChannelId,
    /// Writers sleep here (`pipe->wr_wait`).
    pub wr_wait: ChannelId,
    /// The bytes in the pipe, as the world counts them.
    pub counter: CounterId,
    /// Sleeping readers and writers, first to wake first.
    pub readers: Vec<TaskId>,
    pub writers: Vec<TaskId>,
    pub sent: u64,
    pub received: u64,
    pub read_waits: u64,
    pub write_waits: u64,
}

/// The capacity the kernel gives a pipe asked for `asked` bytes (`round_pipe_size`,
/// as `F_SETPIPE_SZ` does): at least a page, else a power of two. A pipe smaller
/// than one atomic write cannot exist, so a send of PIPE_BUF always fits an empty one.
pub(super) fn round_pipe_size(asked: u64) -> u64 {
    const PAGE_SIZE: u64 = 4096;
    asked.max(PAGE_SIZE).next_power_of_two()
}

impl PipeRt {
    pub fn new(layout: &mut Layout, name: &str, asked: u64) -> PipeRt {
        let capacity = round_pipe_size(asked);
        assert!(capacity >= PIPE_BUF && capacity.is_power_of_two(), "a pipe the kernel could make");
        PipeRt {
            capacity,
            bytes: 0,
            rd_wait: layout.add_channel(name),
            wr_wait: layout.add_channel(format!("{name} (full)")),
            counter: layout.add_counter(format!("pipe_{name}_bytes")),
            readers: Vec::new(),
            writers: Vec::new(),
            sent: 0,
            received: 0,
            read_waits: 0,
            write_waits: 0,
        }
    }
}

impl Sim<'_> {
    /// `send`: as much as pipe_write may write now; asleep on `wr_wait` for the rest.
    pub(super) fn send(&mut self, task: TaskId, now: u64, pipe: usize, asked: u64) -> Next {
        let p = &self.pipes[pipe];
        let left = self.tasks[task.0 as usize].pipe_left.unwrap_or(asked);
        let room = p.capacity - p.bytes;
        let atomic = asked <= PIPE_BUF;
        let wrote = if atomic {
            if room >= left {
                left
            } else {
                0
            }
        } else {
            left.min(room)
        };
        let after = p.bytes + wrote;
        let (name, counter, wr_wait, capacity) = (Arg::Channel(p.rd_wait), p.counter, p.wr_wait, p.capacity);
        let mut effects = Vec::new();
        if wrote > 0 {
            effects.push(Effect::Count { counter, delta: wrote });
        }
        let p = &mut self.pipes[pipe];
        p.bytes = after;
        p.sent += wrote;
        let done = wrote == left;
        let t = Arg::Task(task);
        let code = |line| at(text::PIPE_WRITE_FN, line);
        if done {
            self.rt(task).pipe_left = None;
            let args = [t, Arg::Count(wrote), name, Arg::Count(after), Arg::Count(capacity)];
            self.op(now, Some(task), OpKind::Syscall, code(1), T::PIPE_WRITE, &args, &effects);
        } else {
            p.writers.push(task);
            p.write_waits += 1;
            self.rt(task).pipe_left = Some(left - wrote);
            effects.push(Effect::SetState { task, state: TaskState::Sleeping { channel: wr_wait } });
            let args = [
                t,
                Arg::Count(wrote),
                name,
                Arg::Count(after),
                Arg::Count(capacity),
                Arg::Count(left - wrote),
            ];
            let (template, line) =
                if atomic { (T::PIPE_WRITE_ATOMIC_WAIT, 2) } else { (T::PIPE_WRITE_WAIT, 3) };
            self.op(now, Some(task), OpKind::Sleep, code(line), template, &args, &effects);
        }
        if wrote > 0 {
            self.pipe_wake(task, now, pipe, true);
        }
        if done {
            if self.pipes[pipe].bytes < capacity {
                self.pipe_wake(task, now, pipe, false);
            }
            Next::Continue
        } else {
            Next::OffCpu
        }
    }

    /// `recv`: what the pipe holds, up to `asked`; asleep on `rd_wait` while it is empty.
    pub(super) fn recv(&mut self, task: TaskId, now: u64, pipe: usize, asked: u64) -> Next {
        let p = &mut self.pipes[pipe];
        let (name, counter, rd_wait) = (Arg::Channel(p.rd_wait), p.counter, p.rd_wait);
        let t = Arg::Task(task);
        if p.bytes == 0 {
            p.readers.push(task);
            p.read_waits += 1;
            let effects = [Effect::SetState { task, state: TaskState::Sleeping { channel: rd_wait } }];
            let code = at(text::PIPE_READ_FN, 2);
            self.op(now, Some(task), OpKind::Sleep, code, T::PIPE_READ_WAIT, &[t, name], &effects);
            return Next::OffCpu;
        }
        let read = asked.min(p.bytes);
        p.bytes -= read;
        p.received += read;
        let left = p.bytes;
        let effects = [Effect::Decrease { counter, delta: read }];
        let args = [t, Arg::Count(read), name, Arg::Count(asked), Arg::Count(left)];
        self.op(now, Some(task), OpKind::Syscall, at(text::PIPE_READ_FN, 1), T::PIPE_READ, &args, &effects);
        self.pipe_wake(task, now, pipe, false);
        if left > 0 {
            self.pipe_wake(task, now, pipe, true);
        }
        Next::Continue
    }

    /// Wakes the first sleeping reader (or writer) of `pipe`: it retries when it runs.
    fn pipe_wake(&mut self, waker: TaskId, now: u64, pipe: usize, reader: bool) {
        let p = &mut self.pipes[pipe];
        let queue = if reader { &mut p.readers } else { &mut p.writers };
        if queue.is_empty() {
            return;
        }
        let woken = queue.remove(0);
        let name = Arg::Channel(p.rd_wait);
        let effects = [Effect::SetState { task: woken, state: TaskState::Runnable }];
        let (template, code) = if reader {
            (T::PIPE_WAKE_READER, at(text::PIPE_WRITE_FN, 4))
        } else {
            (T::PIPE_WAKE_WRITER, at(text::PIPE_READ_FN, 3))
        };
        let args = [Arg::Task(waker), Arg::Task(woken), name];
        self.op(now, Some(waker), OpKind::Wake, code, template, &args, &effects);
        self.make_runnable(woken, Why::Lock, now);
    }

    /// Whether a live task other than `except` has a `send` (or `recv`) on `pipe` in its program.
    fn pipe_has_live(&self, pipe: usize, sends: bool, except: TaskId) -> bool {
        self.program.tasks.iter().enumerate().any(|(index, program)| {
            index != except.0 as usize
                && self.tasks[index].exit_ns.is_none()
                && program.code.iter().any(|instr| match *instr {
                    Instr::Send { pipe: p, .. } => sends && p == pipe,
                    Instr::Recv { pipe: p, .. } => !sends && p == pipe,
                    _ => false,
                })
        })
    }

    /// Names each task asleep on a pipe that no live task will ever serve; with
    /// `all`, every task still waiting (nothing else can happen). How many it named.
    pub(super) fn name_stalls(&mut self, now: u64, all: bool) -> u64 {
        let mut named = 0;
        for index in 0..self.tasks.len() {
            let task = TaskId(index as u32);
            let state = self.state(task);
            let found = self.pipes.iter().enumerate().find_map(|(pipe, p)| match state {
                TaskState::Sleeping { channel } if channel == p.rd_wait => Some((pipe, true)),
                TaskState::Sleeping { channel } if channel == p.wr_wait => Some((pipe, false)),
                _ => None,
            });
            let (template, args) = match (found, state) {
                (Some((pipe, reading)), _) => {
                    let served = self.pipe_has_live(pipe, reading, task);
                    let template = match (reading, served) {
                        (true, false) => T::STALL_NO_WRITER,
                        (false, false) => T::STALL_NO_READER,
                        (true, true) if all => T::STALL_READ,
                        (false, true) if all => T::STALL_WRITE,
                        _ => continue,
                    };
                    (template, vec![Arg::Task(task), Arg::Channel(self.pipes[pipe].rd_wait)])
                }
                (None, TaskState::BlockedOnLock { lock }) if all => {
                    (T::STALL_LOCK, vec![Arg::Task(task), Arg::Lock(lock)])
                }
                _ => continue,
            };
            named += 1;
            self.op(now, Some(task), OpKind::Note, at(text::DEADLOCK_FN, 0), template, &args, &[]);
        }
        named
    }
}

#[cfg(test)]
mod tests {
    use super::round_pipe_size;

    #[test]
    fn pipes_are_rounded_as_round_pipe_size_does() {
        let kib = 1024;
        let rounded: Vec<u64> =
            [1, 4 * kib, 5 * kib, 64 * kib, 65 * kib, 1024 * kib].map(round_pipe_size).to_vec();
        assert_eq!(rounded, vec![4 * kib, 4 * kib, 8 * kib, 64 * kib, 128 * kib, 1024 * kib]);
    }
}
