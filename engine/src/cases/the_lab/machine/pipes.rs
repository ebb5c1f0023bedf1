//! Pipes: `send` and `recv` by the rules of fs/pipe.c at v6.13. A pipe is a ring of
//! page slots (`pipe->bufs`, `max_usage` of them in use at most): a write first
//! merges what is not page-aligned into the last slot's page if it has room, then
//! takes a new slot a page at a time, and sleeps on `wr_wait` while every slot is in
//! use; a read copies from the tail slot on, frees each slot it empties, and sleeps on
//! `rd_wait` only while the pipe is empty (a short read returns). A write of at most
//! a page is never split (PIPE_BUF's atomicity falls out of the slots).
//!
//! Who wakes whom is v6.13's, not "whoever could use it": a write wakes one reader
//! only if the pipe was empty when it began (`was_empty`), a read wakes one writer
//! only if the pipe was full when it began (`was_full`), even when it frees no slot
//! (v6.14 changed that); a task that slept, once served, wakes the next sleeper of its
//! kind if it leaves something for it (`wake_next_reader`, `wake_next_writer`). A woken
//! task re-checks its condition when it runs (`wait_event`) and, not met, sleeps again
//! at the tail. Waits are exclusive: each wakeup wakes the first sleeper.
//!
//! A pipe's ends: a task holds the ends its program uses from the start until it
//! exits. A read of an empty pipe with no write end left returns 0 (end of file); a
//! write with no read end left gets SIGPIPE, whose default action kills the writer;
//! the exit that takes the last end of one side wakes every sleeper of the other
//! (`pipe_release`). Not modelled (model choices, `docs/cases/the-lab.md`):
//! O_NONBLOCK, a SIGPIPE handled or ignored (EPIPE), and `poll` (`poll_usage` makes
//! every write wake readers).

use super::{Next, Sim, Why};
use crate::cases::the_lab::lang::{Instr, Program};
use crate::cases::the_lab::text::{self, at, T};
use crate::run::narration::Arg;
use crate::run::trace::OpKind;
use crate::run::world::{ChannelId, CounterId, Effect, Layout, TaskId, TaskState};
use std::collections::VecDeque;

/// A page slot's size: what one slot holds, and the most a write may be without
/// being split (PIPE_BUF, which equals it on every architecture the Lab names).
pub(super) const PAGE_SIZE: u64 = 4096;

/// One slot in use: its page's bytes from `offset`, `len` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    pub offset: u64,
    pub len: u64,
}

#[derive(Clone, Debug)]
pub(super) struct PipeRt {
    /// How many slots may be in use (`pipe->max_usage`): the capacity in pages.
    pub max_usage: u64,
    /// The slots in use, tail (the next to read) first.
    pub slots: VecDeque<Slot>,
    pub bytes: u64,
    /// Readers sleep here (`pipe->rd_wait`); its name is the pipe's.
    pub rd_wait: ChannelId,
    /// Writers sleep here (`pipe->wr_wait`).
    pub wr_wait: ChannelId,
    /// The bytes in the pipe, and its slots in use, as the world counts them.
    pub bytes_counter: CounterId,
    pub slots_counter: CounterId,
    /// The tasks that hold its write end (a `send` on it in their program) and its read
    /// end (a `recv`), until they exit: read once from the program.
    pub write_ends: Vec<TaskId>,
    pub read_ends: Vec<TaskId>,
    /// Sleeping readers and writers, first to wake first.
    pub readers: VecDeque<TaskId>,
    pub writers: VecDeque<TaskId>,
    pub sent: u64,
    pub received: u64,
    pub read_waits: u64,
    pub write_waits: u64,
    /// Woken, found the condition still unmet, and slept again.
    pub spurious_wakeups: u64,
    /// Reads that found the pipe empty with no write end left (end of file).
    pub eof_reads: u64,
    /// Writers killed by SIGPIPE: they wrote with no read end left.
    pub sigpipes: u64,
}

/// The capacity the kernel gives a pipe asked for `asked` bytes (`round_pipe_size`,
/// as `F_SETPIPE_SZ` does): at least a page, else a power of two.
pub(super) fn round_pipe_size(asked: u64) -> u64 {
    asked.max(PAGE_SIZE).next_power_of_two()
}

/// A `send` or `recv` that has slept: what it has left, and that it slept (which
/// makes it wake the next sleeper of its kind once served).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PipeCall {
    /// Bytes a write still has to write (0 for a read, which sleeps only before it
    /// has read anything).
    pub left: u64,
    /// Woken by a read of a full pipe that freed no slot (`was_full`): if the pipe is
    /// still full when it runs, the wakeup was for nothing, not a slot taken by another.
    pub woken_for_nothing: bool,
}

/// Why a wakeup wakes: the names the kernel's own flags have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WakeWhy {
    WasEmpty,
    /// `was_full`, by a read that freed no slot.
    WasFullFreedNone,
    /// `was_empty`, as a writer is about to sleep on a full pipe.
    WasEmptyBeforeSleep,
    WasFull,
    NextReader,
    NextWriter,
}

impl PipeRt {
    pub fn new(layout: &mut Layout, program: &Program, pipe: usize) -> PipeRt {
        let (name, asked) = (&program.pipes[pipe].0, program.pipes[pipe].1);
        let capacity = round_pipe_size(asked);
        assert!(capacity >= PAGE_SIZE && capacity.is_power_of_two(), "a pipe the kernel could make");
        PipeRt {
            max_usage: capacity / PAGE_SIZE,
            slots: VecDeque::new(),
            bytes: 0,
            rd_wait: layout.add_channel(name),
            wr_wait: layout.add_channel(format!("{name} (full)")),
            bytes_counter: layout.add_counter(format!("pipe_{name}_bytes")),
            slots_counter: layout.add_counter(format!("pipe_{name}_slots")),
            write_ends: holders(program, pipe, true),
            read_ends: holders(program, pipe, false),
            readers: VecDeque::new(),
            writers: VecDeque::new(),
            sent: 0,
            received: 0,
            read_waits: 0,
            write_waits: 0,
            spurious_wakeups: 0,
            eof_reads: 0,
            sigpipes: 0,
        }
    }

    pub fn capacity(&self) -> u64 {
        self.max_usage * PAGE_SIZE
    }

    pub fn full(&self) -> bool {
        self.slots.len() as u64 >= self.max_usage
    }

    /// Merges `chars` bytes into the last slot's page if it has room (`PIPE_BUF_FLAG_CAN_MERGE`
    /// is set on every slot a plain write makes). Whether it did.
    fn merge(&mut self, chars: u64) -> bool {
        let Some(last) = self.slots.back_mut() else { return false };
        if last.offset + last.len + chars > PAGE_SIZE {
            return false;
        }
        last.len += chars;
        self.bytes += chars;
        true
    }

    /// New slots, a page each, while any is free: the bytes written and the slots taken.
    fn fill(&mut self, mut left: u64) -> (u64, u64) {
        let (mut wrote, mut taken) = (0, 0);
        while left > 0 && !self.full() {
            let len = left.min(PAGE_SIZE);
            self.slots.push_back(Slot { offset: 0, len });
            (left, wrote, taken) = (left - len, wrote + len, taken + 1);
        }
        self.bytes += wrote;
        (wrote, taken)
    }

    /// Copies up to `asked` bytes from the tail slot on: the bytes read and the slots freed.
    fn drain(&mut self, asked: u64) -> (u64, u64) {
        let (mut read, mut freed) = (0, 0);
        while read < asked {
            let Some(tail) = self.slots.front_mut() else { break };
            let chars = tail.len.min(asked - read);
            tail.offset += chars;
            tail.len -= chars;
            read += chars;
            if tail.len == 0 {
                self.slots.pop_front();
                freed += 1;
            }
        }
        self.bytes -= read;
        (read, freed)
    }

    /// The invariants of the ring: slots within their page, none empty, the bytes their sum.
    fn check(&self) {
        assert!(self.slots.len() as u64 <= self.max_usage, "no more slots in use than max_usage");
        assert!(self.slots.iter().all(|slot| slot.len > 0 && slot.offset + slot.len <= PAGE_SIZE));
        assert_eq!(
            self.bytes,
            self.slots.iter().map(|slot| slot.len).sum::<u64>(),
            "bytes are the slots' sum"
        );
    }
}

/// The tasks whose program holds `pipe`'s write end (a `send` on it) or its read end (a `recv`).
fn holders(program: &Program, pipe: usize, write_end: bool) -> Vec<TaskId> {
    let holds = |instr: &Instr| match *instr {
        Instr::Send { pipe: p, .. } => write_end && p == pipe,
        Instr::Recv { pipe: p, .. } => !write_end && p == pipe,
        _ => false,
    };
    let tasks = program.tasks.iter().enumerate();
    tasks.filter(|(_, task)| task.code.iter().any(holds)).map(|(index, _)| TaskId(index as u32)).collect()
}

/// What a write has done when it must sleep.
struct Wrote {
    asked: u64,
    wrote: u64,
    left: u64,
    was_empty: bool,
}

impl Sim<'_> {
    /// `send`: pipe_write's merge and new slots; asleep on `wr_wait` while the pipe is full.
    pub(super) fn send(&mut self, task: TaskId, now: u64, pipe: usize, asked: u64) -> Next {
        let call = self.rt(task).pipe_call.take();
        if self.pipe_ends(pipe, false) == 0 {
            return self.sigpipe(task, now, pipe);
        }
        let p = &mut self.pipes[pipe];
        if call.is_some() && p.full() {
            // wait_event re-checks pipe_writable in the woken task: no slot is free.
            return self.pipe_sleep_again(task, now, pipe, call, false);
        }
        let was_empty = p.slots.is_empty();
        let mut left = call.map_or(asked, |call| call.left);
        // The merge is tried once, as the call begins, with what is not page-aligned.
        let chars = asked % PAGE_SIZE;
        let merged = if call.is_none() && chars > 0 && p.merge(chars) { chars } else { 0 };
        left -= merged;
        let (into_new, taken) = p.fill(left);
        left -= into_new;
        let wrote = merged + into_new;
        p.sent += wrote;
        p.check();
        let mut effects = Vec::new();
        if wrote > 0 {
            effects.push(Effect::Count { counter: p.bytes_counter, delta: wrote });
        }
        if taken > 0 {
            effects.push(Effect::Count { counter: p.slots_counter, delta: taken });
        }
        let (name, in_use, max_usage, bytes) =
            (Arg::Channel(p.rd_wait), p.slots.len() as u64, p.max_usage, p.bytes);
        let t = Arg::Task(task);
        if left == 0 {
            let (template, args) = match (merged, into_new) {
                (0, _) => (T::PIPE_WRITE, vec![t, Arg::Count(wrote), name, Arg::Count(taken)]),
                (_, 0) => (T::PIPE_WRITE_MERGE, vec![t, Arg::Count(wrote), name, Arg::Count(merged)]),
                _ => (
                    T::PIPE_WRITE_BOTH,
                    vec![t, Arg::Count(wrote), name, Arg::Count(merged), Arg::Count(taken)],
                ),
            };
            let args = [args, vec![Arg::Count(bytes), Arg::Count(in_use), Arg::Count(max_usage)]].concat();
            let line = if merged > 0 && into_new == 0 { 2 } else { 3 };
            self.op(
                now,
                Some(task),
                OpKind::Syscall,
                at(text::PIPE_WRITE_FN, line),
                template,
                &args,
                &effects,
            );
            if was_empty {
                self.pipe_wake(task, now, pipe, WakeWhy::WasEmpty);
            }
            if call.is_some() && !self.pipes[pipe].full() {
                self.pipe_wake(task, now, pipe, WakeWhy::NextWriter);
            }
            return Next::Continue;
        }
        self.pipe_write_sleeps(task, now, pipe, Wrote { asked, wrote, left, was_empty }, effects)
    }

    /// A write that finds every slot in use (after writing `wrote` of `asked`): it wakes
    /// a reader if the pipe was empty, and sleeps on `wr_wait` for the rest.
    fn pipe_write_sleeps(
        &mut self,
        task: TaskId,
        now: u64,
        pipe: usize,
        done: Wrote,
        mut effects: Vec<Effect>,
    ) -> Next {
        let Wrote { asked, wrote, left, was_empty } = done;
        let t = Arg::Task(task);
        let p = &mut self.pipes[pipe];
        let (name, max_usage, bytes) = (Arg::Channel(p.rd_wait), p.max_usage, p.bytes);
        p.writers.push_back(task);
        p.write_waits += 1;
        effects.push(Effect::SetState { task, state: TaskState::Sleeping { channel: p.wr_wait } });
        self.rt(task).pipe_call = Some(PipeCall { left, woken_for_nothing: false });
        let (template, args) = match wrote {
            0 if asked % PAGE_SIZE == 0 => {
                (T::PIPE_WRITE_PAGES_WAIT, vec![t, name, Arg::Count(max_usage), Arg::Count(asked)])
            }
            0 if asked < PAGE_SIZE => {
                (T::PIPE_WRITE_ATOMIC_WAIT, vec![t, name, Arg::Count(max_usage), Arg::Count(asked)])
            }
            0 => (T::PIPE_WRITE_FULL_WAIT, vec![t, name, Arg::Count(max_usage), Arg::Count(asked)]),
            _ => (
                T::PIPE_WRITE_WAIT,
                vec![t, Arg::Count(wrote), name, Arg::Count(max_usage), Arg::Count(bytes), Arg::Count(left)],
            ),
        };
        self.op(now, Some(task), OpKind::Sleep, at(text::PIPE_WRITE_FN, 5), template, &args, &effects);
        if was_empty {
            self.pipe_wake(task, now, pipe, WakeWhy::WasEmptyBeforeSleep);
        }
        Next::OffCpu
    }

    /// `recv`: what the pipe holds, up to `asked` (a short read returns); asleep on
    /// `rd_wait` while it is empty.
    pub(super) fn recv(&mut self, task: TaskId, now: u64, pipe: usize, asked: u64) -> Next {
        let call = self.rt(task).pipe_call.take();
        if self.pipes[pipe].slots.is_empty() && self.pipe_ends(pipe, true) == 0 {
            let p = &mut self.pipes[pipe];
            p.eof_reads += 1;
            let args = [Arg::Task(task), Arg::Channel(p.rd_wait)];
            self.op(now, Some(task), OpKind::Syscall, at(text::PIPE_READ_FN, 3), T::PIPE_EOF, &args, &[]);
            return Next::Continue;
        }
        let p = &mut self.pipes[pipe];
        if p.slots.is_empty() {
            if call.is_some() {
                return self.pipe_sleep_again(task, now, pipe, call, true);
            }
            // Empty, so not full: the wake of writers before sleeping (was_full) never fires.
            p.readers.push_back(task);
            p.read_waits += 1;
            let effects = [Effect::SetState { task, state: TaskState::Sleeping { channel: p.rd_wait } }];
            let args = [Arg::Task(task), Arg::Channel(p.rd_wait)];
            self.rt(task).pipe_call = Some(PipeCall { left: 0, woken_for_nothing: false });
            let code = at(text::PIPE_READ_FN, 4);
            self.op(now, Some(task), OpKind::Sleep, code, T::PIPE_READ_WAIT, &args, &effects);
            return Next::OffCpu;
        }
        let was_full = p.full();
        let (read, freed) = p.drain(asked);
        p.received += read;
        p.check();
        let mut effects = vec![Effect::Decrease { counter: p.bytes_counter, delta: read }];
        if freed > 0 {
            effects.push(Effect::Decrease { counter: p.slots_counter, delta: freed });
        }
        let args = [
            Arg::Task(task),
            Arg::Count(read),
            Arg::Channel(p.rd_wait),
            Arg::Count(asked),
            Arg::Count(freed),
            Arg::Count(p.bytes),
            Arg::Count(p.slots.len() as u64),
            Arg::Count(p.max_usage),
        ];
        let left = p.bytes;
        self.op(now, Some(task), OpKind::Syscall, at(text::PIPE_READ_FN, 2), T::PIPE_READ, &args, &effects);
        if was_full {
            let why = if freed == 0 { WakeWhy::WasFullFreedNone } else { WakeWhy::WasFull };
            self.pipe_wake(task, now, pipe, why);
        }
        if call.is_some() && left > 0 {
            self.pipe_wake(task, now, pipe, WakeWhy::NextReader);
        }
        Next::Continue
    }

    /// A woken sleeper whose condition is still unmet sleeps again, at the tail.
    fn pipe_sleep_again(
        &mut self,
        task: TaskId,
        now: u64,
        pipe: usize,
        call: Option<PipeCall>,
        reading: bool,
    ) -> Next {
        let p = &mut self.pipes[pipe];
        p.spurious_wakeups += 1;
        let (channel, template, line) = if reading {
            p.readers.push_back(task);
            (p.rd_wait, T::PIPE_READ_STILL_EMPTY, (text::PIPE_READ_FN, 4))
        } else {
            p.writers.push_back(task);
            let for_nothing = call.is_some_and(|call| call.woken_for_nothing);
            let template = if for_nothing { T::PIPE_WRITE_STILL_FULL } else { T::PIPE_WRITE_SLOT_TAKEN };
            (p.wr_wait, template, (text::PIPE_WRITE_FN, 5))
        };
        let args = [Arg::Task(task), Arg::Channel(p.rd_wait), Arg::Count(p.max_usage)];
        self.rt(task).pipe_call = call;
        let effects = [Effect::SetState { task, state: TaskState::Sleeping { channel } }];
        self.op(now, Some(task), OpKind::Sleep, at(line.0, line.1), template, &args, &effects);
        Next::OffCpu
    }

    /// Wakes the first sleeping reader (or writer) of `pipe`, if any: it re-checks
    /// when it runs.
    fn pipe_wake(&mut self, waker: TaskId, now: u64, pipe: usize, why: WakeWhy) {
        let p = &mut self.pipes[pipe];
        let reader = matches!(why, WakeWhy::WasEmpty | WakeWhy::WasEmptyBeforeSleep | WakeWhy::NextReader);
        let queue = if reader { &mut p.readers } else { &mut p.writers };
        let Some(woken) = queue.pop_front() else { return };
        let (name, bytes) = (Arg::Channel(p.rd_wait), Arg::Count(p.bytes));
        let effects = [Effect::SetState { task: woken, state: TaskState::Runnable }];
        let (template, code) = match why {
            WakeWhy::WasEmpty => (T::PIPE_WAKE_READER, at(text::PIPE_WRITE_FN, 7)),
            WakeWhy::WasEmptyBeforeSleep => (T::PIPE_WAKE_READER, at(text::PIPE_WRITE_FN, 4)),
            WakeWhy::NextWriter => (T::PIPE_WAKE_NEXT_WRITER, at(text::PIPE_WRITE_FN, 8)),
            WakeWhy::WasFull | WakeWhy::WasFullFreedNone => (T::PIPE_WAKE_WRITER, at(text::PIPE_READ_FN, 5)),
            WakeWhy::NextReader => (T::PIPE_WAKE_NEXT_READER, at(text::PIPE_READ_FN, 6)),
        };
        let args = [Arg::Task(waker), Arg::Task(woken), name, bytes];
        if let Some(call) = &mut self.tasks[woken.0 as usize].pipe_call {
            call.woken_for_nothing = why == WakeWhy::WasFullFreedNone;
        }
        self.op(now, Some(waker), OpKind::Wake, code, template, &args, &effects);
        self.make_runnable(woken, Why::Lock, now);
    }

    /// SIGPIPE for a write with no read end left: its default action kills the writer.
    fn sigpipe(&mut self, task: TaskId, now: u64, pipe: usize) -> Next {
        let p = &mut self.pipes[pipe];
        p.sigpipes += 1;
        let args = [Arg::Task(task), Arg::Channel(p.rd_wait)];
        self.op(now, Some(task), OpKind::Signal, at(text::PIPE_WRITE_FN, 1), T::PIPE_SIGPIPE, &args, &[]);
        self.end_task(task, now, T::SIGPIPE_EXIT);
        Next::OffCpu
    }

    /// How many tasks hold `pipe`'s write end (`writers`) or its read end: a task
    /// holds the ends its program uses (a `send`, a `recv`) from the start of the run
    /// until it exits, as if the pipe were set up before any of them started.
    fn pipe_ends(&self, pipe: usize, writers: bool) -> usize {
        self.end_holders(pipe, writers).filter(|&task| self.tasks[task.0 as usize].exit_ns.is_none()).count()
    }

    /// Every task that holds (or held, before it exited) the end named.
    fn end_holders(&self, pipe: usize, writers: bool) -> impl Iterator<Item = TaskId> + '_ {
        let p = &self.pipes[pipe];
        (if writers { &p.write_ends } else { &p.read_ends }).iter().copied()
    }

    /// `pipe_release` for each pipe whose last write (or read) end `task` took with
    /// it: every reader (or writer) asleep on it wakes, to re-check.
    pub(super) fn pipe_release(&mut self, task: TaskId, now: u64) {
        for pipe in 0..self.pipes.len() {
            for writers in [true, false] {
                let held = self.end_holders(pipe, writers).any(|holder| holder == task);
                if !held || self.pipe_ends(pipe, writers) > 0 {
                    continue;
                }
                let p = &mut self.pipes[pipe];
                let sleepers: Vec<TaskId> =
                    if writers { p.readers.drain(..).collect() } else { p.writers.drain(..).collect() };
                if sleepers.is_empty() {
                    continue;
                }
                let effects: Vec<Effect> = sleepers
                    .iter()
                    .map(|&woken| Effect::SetState { task: woken, state: TaskState::Runnable })
                    .collect();
                let args = [Arg::Task(task), Arg::Channel(p.rd_wait), Arg::Count(sleepers.len() as u64)];
                let template = if writers { T::PIPE_RELEASE_READERS } else { T::PIPE_RELEASE_WRITERS };
                self.op(now, None, OpKind::Wake, at(text::PIPE_RELEASE_FN, 3), template, &args, &effects);
                for woken in sleepers {
                    self.make_runnable(woken, Why::Lock, now);
                }
            }
        }
    }

    /// Whether a live task other than `except` holds `pipe`'s write end (or its read end).
    fn pipe_has_live(&self, pipe: usize, sends: bool, except: TaskId) -> bool {
        self.end_holders(pipe, sends)
            .any(|holder| holder != except && self.tasks[holder.0 as usize].exit_ns.is_none())
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
    use super::{round_pipe_size, PipeRt, Slot};
    use crate::run::world::{Layout, TaskId};

    #[test]
    fn pipes_are_rounded_as_round_pipe_size_does() {
        let kib = 1024;
        let rounded: Vec<u64> =
            [1, 4 * kib, 5 * kib, 64 * kib, 65 * kib, 1024 * kib].map(round_pipe_size).to_vec();
        assert_eq!(rounded, vec![4 * kib, 4 * kib, 8 * kib, 64 * kib, 128 * kib, 1024 * kib]);
    }

    #[test]
    fn a_write_merges_what_is_not_page_aligned_and_a_read_frees_only_emptied_slots() {
        let mut layout = Layout::new(1);
        let workload =
            crate::cases::the_lab::lang::parse::parse("pipe P 8KiB\ntask w\n  send P\n").expect("parses");
        let program = crate::cases::the_lab::lang::compile(&workload).expect("compiles");
        let mut pipe = PipeRt::new(&mut layout, &program, 0);
        assert_eq!((pipe.write_ends.as_slice(), pipe.read_ends.as_slice()), (&[TaskId(0)][..], &[][..]));
        assert_eq!(pipe.fill(100), (100, 1));
        assert!(pipe.merge(900), "room in the first page");
        assert!(!pipe.merge(3_200), "1,000 + 3,200 is more than a page");
        assert_eq!(pipe.fill(5_000), (4_096, 1), "one free slot: one page of the 5,000");
        assert!(pipe.full());
        assert_eq!(pipe.drain(600), (600, 0), "a partly read page frees no slot");
        assert!(pipe.full());
        assert_eq!(pipe.slots[0], Slot { offset: 600, len: 400 });
        assert!(!pipe.merge(1), "the last page is full");
        assert_eq!(pipe.drain(10_000), (4_496, 2));
        assert_eq!(pipe.bytes, 0);
        pipe.check();
    }
}
