//! Pipes: page slots, who sleeps, and who wakes whom by v6.13's rules (was_empty,
//! was_full, wake_next_reader).

use super::*;

const PRODUCER_CONSUMER: &str = "\
kernel fifo
pipe P 8KiB
task producer
  repeat 4 {
    run 1ms
    send P 4KiB
  }
task consumer
  repeat 4 {
    recv P 4KiB
    run 2ms
  }
";

fn pipe_figure(run: &Run, pipe: &str, key: &str) -> u64 {
    let Some(Metric::Object(pipes)) = run.metrics.get("pipes") else { panic!("no pipes") };
    let Some(Metric::Object(p)) = pipes.get(pipe) else { panic!("no pipe {pipe}") };
    ns(p.get(key))
}

#[test]
fn a_full_pipe_puts_the_writer_to_sleep_and_an_empty_one_the_reader() {
    // FIFO on one CPU; the 8 KiB pipe has two page slots. producer runs 0–3: its sends
    // at 1 and 2 take a slot each; the third, at 3, finds both in use and, being at most
    // a page, writes nothing and sleeps. consumer runs: its read at 3 began on a full
    // pipe (was_full), so it wakes producer (runnable; FIFO keeps consumer on); reads
    // again at 5 and finds the pipe empty at 7, and sleeps. producer's send at 7 goes
    // into an empty pipe (was_empty) and wakes consumer; its last send at 8 takes the
    // second slot, and it exits at 8; consumer reads at 8 and 10 and exits at 12.
    // producer waits 3–7 for the CPU; consumer 0–3 and 7–8.
    let run = run(PRODUCER_CONSUMER, "as-written");
    assert_eq!(figures(&run, &["producer", "consumer"]), vec![(0, 8, 4), (3, 12, 4)]);
    let figure = |key: &str| pipe_figure(&run, "P", key);
    assert_eq!((figure("sent_bytes"), figure("received_bytes"), figure("left_bytes")), (16_384, 16_384, 0));
    assert_eq!((figure("read_waits"), figure("write_waits"), figure("spurious_wakeups")), (1, 1, 0));
    assert_eq!((figure("capacity_bytes"), figure("slots")), (8_192, 2));
    let text = narration(&run);
    assert!(text.contains("producer cannot write yet: every page slot of pipe P (2) is in use"), "{text}");
    assert!(
        text.contains(
            "The pipe was full when consumer's read began, or when it last woke (was_full), so it wakes one writer, producer"
        ),
        "{text}"
    );
    assert!(text.contains("consumer finds pipe P empty and sleeps"), "{text}");
    assert!(
        text.contains(
            "The pipe was empty when producer's write began, or when it last woke (was_empty), so it wakes one reader, consumer"
        ),
        "{text}"
    );
}

#[test]
fn a_read_that_frees_no_slot_still_wakes_the_writer_which_sleeps_again() {
    // v6.13: a read wakes a writer whenever the pipe was full as it began. reader's 1 KiB
    // read of a full two-slot pipe frees no slot (a partly read page stays in use), yet
    // wakes writer; reader then sleeps for 1 ms, writer runs, finds every slot still in use
    // and sleeps again (a wakeup for nothing). At 1 ms reader empties the pipe (was_full
    // again: writer is woken, and this time writes).
    let workload = "\
kernel fifo
pipe P 8KiB
task writer
  send P 8KiB
  send P 4KiB
task reader
  recv P 1KiB
  sleep 1ms
  recv P 8KiB
  recv P 4KiB
";
    let run = run(workload, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(pipe_figure(&run, "P", "spurious_wakeups"), 1);
    assert_eq!(pipe_figure(&run, "P", "write_waits"), 1);
    assert_eq!(pipe_figure(&run, "P", "received_bytes"), 12_288);
    let text = narration(&run);
    assert!(
        text.contains(
            "reader reads 1,024 bytes from pipe P (it asked for 1,024), emptying and freeing 0 page slots"
        ),
        "{text}"
    );
    assert!(text.contains("writer runs again, but every page slot of pipe P (2) is still in use"), "{text}");
    assert!(
        text.contains(
            "reader reads 7,168 bytes from pipe P (it asked for 8,192), emptying and freeing 2 page slots"
        ),
        "{text}"
    );
}

#[test]
fn a_writer_woken_for_a_slot_another_writer_took_sleeps_again() {
    // A one-slot pipe. w1 fills it and sleeps on its second send; r's read frees the slot
    // and wakes w1 (was_full), then r sleeps; w2, ahead of w1 in FIFO's queue, takes the
    // slot; w1 runs, finds the pipe full again, and sleeps again: not a wakeup for nothing.
    let workload = "kernel fifo\npipe P 4KiB\ntask w1\n  send P 4KiB\n  send P 4KiB\ntask r\n  recv P 4KiB\n  sleep 1ms\n  recv P 4KiB\n  recv P 4KiB\ntask w2\n  send P 4KiB\n";
    let run = run(workload, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let text = narration(&run);
    assert!(text.contains("w1 runs again, but every page slot of pipe P (1) is in use again: another writer took the free slot first."), "{text}");
    assert!(!text.contains("A wakeup for nothing"), "{text}");
    assert!(text.contains("w1 cannot write yet: every page slot of pipe P (1) is in use, and its 4,096 bytes are whole pages"), "{text}");
    assert_eq!(pipe_figure(&run, "P", "received_bytes"), 12_288);
}

#[test]
fn a_woken_reader_that_leaves_data_wakes_the_next() {
    // Two readers asleep on an empty pipe; one 8 KiB write wakes one of them (each wakeup
    // wakes one exclusive waiter). r1, having slept, reads its 4 KiB and leaves 4 KiB:
    // wake_next_reader passes the wakeup on to r2. (w sleeps rather than exits: its exit
    // would take the pipe's last write end and wake every reader.)
    let workload = "kernel fifo\npipe P\ntask r1\n  recv P 4KiB\ntask r2\n  recv P 4KiB\ntask w\n  send P 8KiB\n  sleep 1ms\n";
    let run = run(workload, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let text = narration(&run);
    assert!(text.contains("w writes 8,192 bytes into pipe P, in 2 new page slots: it holds 8,192 bytes in 2 of its 16 slots."), "{text}");
    assert!(text.contains("so it wakes one reader, r1, the first asleep on pipe P"), "{text}");
    assert!(text.contains("r1 had slept before it read, and leaves 4,096 bytes in pipe P: it wakes the next reader asleep, r2"), "{text}");
    assert_eq!(pipe_figure(&run, "P", "read_waits"), 2);
}

#[test]
fn small_writes_merge_into_the_last_page() {
    // The first write takes a slot; the next two are not page-aligned and the page has
    // room: they merge into it. A 4 KiB write is a whole page: it takes a slot of its own.
    let workload = "pipe P\ntask w\n  send P 100\n  send P 100\n  send P 3896\n  send P 4KiB\n  send P 4100\ntask r\n  sleep 1ms\n  recv P 16KiB\n";
    let run = run(workload, "as-written");
    let text = narration(&run);
    assert!(text.contains("w writes 100 bytes into pipe P, merged into the page of its last slot"), "{text}");
    assert!(text.contains("w writes 3,896 bytes into pipe P, merged into the page of its last slot (a write not a whole number of pages first fills the last page, if it has room): it holds 4,096 bytes in 1 of its 16 slots."), "{text}");
    assert!(text.contains("w writes 4,096 bytes into pipe P, in 1 new page slot: it holds 8,192 bytes in 2 of its 16 slots."), "{text}");
    // 4,100 = a page and 4 bytes: the 4 do not fit the full last page, so two new slots.
    assert!(text.contains("w writes 4,100 bytes into pipe P, in 2 new page slots: it holds 12,292 bytes in 4 of its 16 slots."), "{text}");
    assert!(
        text.contains(
            "r reads 12,292 bytes from pipe P (it asked for 16,384), emptying and freeing 4 page slots"
        ),
        "{text}"
    );
}

#[test]
fn a_pipe_is_as_big_as_the_kernel_makes_it() {
    // round_pipe_size: a 1-byte pipe is a page, one slot, so a 4 KiB write fits it at once
    // (in bytes as asked, it would never fit and the run would stall).
    let run = run("pipe P 1\ntask w\n  send P 4KiB\ntask r\n  recv P 4KiB\n", "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let text = narration(&run);
    assert!(text.contains("it holds 4,096 bytes in 1 of its 1 slots"), "{text}");
}

#[test]
fn a_reader_gets_end_of_file_once_no_task_holds_the_write_end() {
    // A task holds the ends its program uses until it exits. w writes 1 KiB and exits
    // (FIFO, one CPU: before r runs); r reads the 1 KiB, then finds the pipe empty with no
    // write end left: end of file, and it goes on to its `run`.
    let workload =
        "kernel fifo\npipe P\ntask w\n  send P 1KiB\ntask r\n  recv P 4KiB\n  recv P 4KiB\n  run 1ms\n";
    let run = run(workload, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(pipe_figure(&run, "P", "eof_reads"), 1);
    let text = narration(&run);
    assert!(text.contains("r reads 1,024 bytes from pipe P (it asked for 4,096)"), "{text}");
    assert!(text.contains("r finds pipe P empty, and no task holds its write end any more"), "{text}");
    assert!(text.contains("r starts 1 ms of CPU work in user mode."), "{text}");
    // A reader asleep when the last writer exits is woken by pipe_release, and reads EOF.
    // w's write wakes r1 only (one exclusive waiter); r2 is still asleep when w exits.
    let sleeper = "kernel fifo\npipe P\ntask r1\n  recv P\ntask r2\n  recv P\ntask w\n  send P 1KiB\n";
    let run = self::run(sleeper, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let text = narration(&run);
    assert!(
        text.contains(
            "With w gone, no task holds pipe P's write end: pipe_release wakes every reader asleep on it (1)"
        ),
        "{text}"
    );
    assert_eq!(pipe_figure(&run, "P", "eof_reads"), 1);
}

#[test]
fn a_writer_with_no_reader_left_is_killed_by_sigpipe() {
    // r reads once and exits; w's second send finds no read end: SIGPIPE kills it. A
    // writer asleep on a full pipe when the last reader exits is woken and killed too.
    let workload = "kernel fifo\npipe P\ntask r\n  recv P 1KiB\ntask w\n  send P 1KiB\n  sleep 1ms\n  send P 1KiB\n  run 5ms\n";
    let run = run(workload, "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    assert_eq!(pipe_figure(&run, "P", "sigpipes"), 1);
    let text = narration(&run);
    assert!(
        text.contains(
            "w writes to pipe P, but no task holds its read end any more: pipe_write sends it SIGPIPE"
        ),
        "{text}"
    );
    assert!(text.contains("w is killed by SIGPIPE at 1 ms"), "{text}");
    assert!(!text.contains("w starts 5 ms of CPU work in user mode"), "{text}");
    // w1 and w2 asleep on the full one-slot pipe; r's read wakes w1 (was_full), and r's
    // exit takes the last read end: pipe_release wakes w2. Both are killed.
    let asleep = "kernel fifo\npipe P 4KiB\ntask w1\n  send P 4KiB\n  send P 4KiB\ntask w2\n  send P 4KiB\ntask r\n  recv P 4KiB\n";
    let run = self::run(asleep, "as-written");
    assert_eq!(pipe_figure(&run, "P", "sigpipes"), 2);
    let text = narration(&run);
    assert!(text.contains("With r gone, no task holds pipe P's read end: pipe_release wakes every writer asleep on it (1), to be sent SIGPIPE."), "{text}");
    assert!(text.contains("w2 is killed by SIGPIPE"), "{text}");
}

#[test]
fn tasks_that_wait_on_each_others_pipes_are_a_named_stall() {
    // Each holds the write end the other waits on, and is asleep: nothing can wake them.
    let cycle = "pipe P\npipe Q\ntask a\n  recv P\n  send Q\ntask b\n  recv Q\n  send P\n";
    let both = run(cycle, "as-written");
    assert_eq!(both.outcome, Outcome::Stalled { at_ns: 0, tasks: 2 });
    let text = narration(&both);
    assert!(
        text.contains("a waits to read pipe P, which is empty; the tasks that could write to it wait too."),
        "{text}"
    );
    assert!(text.contains("b waits to read pipe Q"), "{text}");
    // A task that holds both ends and reads first never gets end of file.
    let alone = run("pipe P\ntask t\n  recv P\n  send P\n", "as-written");
    assert_eq!(alone.outcome, Outcome::Stalled { at_ns: 0, tasks: 1 });
    let text = narration(&alone);
    assert!(text.contains("t waits to read pipe P, which is empty, and no other live task will ever write to it; t holds its write end itself"), "{text}");
}

#[test]
fn pipe_mistakes_are_found_before_running() {
    let kind = errors("pipe P\ntask t\n  lock P\n  unlock P\n");
    assert!(kind.contains("line 3, column 8: `P` is a pipe: use send and recv"), "{kind}");
    let mutex = errors("mutex M\ntask t\n  send M 1KiB\n");
    assert!(mutex.contains("line 3, column 8: `M` is a mutex: use lock and unlock"), "{mutex}");
    let unknown = errors("pipe P\ntask t\n  recv Q\n");
    assert!(unknown.contains("line 3, column 8: unknown resource `Q`; declared: P"), "{unknown}");
    let size = errors("pipe P 2MiB\ntask t\n  send P 2MiB\n");
    assert!(size.contains("line 1, column 8: size:"), "{size}");
    assert!(size.contains("line 3, column 10: size:"), "{size}");
    let spin = errors("spinlock S\npipe P\ntask t\n  spin S\n  send P\n  unspin S\n");
    assert!(spin.contains("line 5, column 8: `send` while holding spinlock `S`"), "{spin}");
}
