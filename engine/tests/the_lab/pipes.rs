//! Pipes: a writer that fills one sleeps, a reader of an empty one sleeps.

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

#[test]
fn a_full_pipe_puts_the_writer_to_sleep_and_an_empty_one_the_reader() {
    // FIFO on one CPU. producer runs 0–3: sends at 1 and 2 fill the 8 KiB pipe; the third
    // 4 KiB send is atomic (≤ PIPE_BUF) and finds no room: it sleeps at 3. consumer runs:
    // its read at 3 makes room and wakes producer (runnable, FIFO keeps consumer on), reads
    // again at 5, finds the pipe empty at 7 and sleeps; producer's retried send at 7 wakes
    // it, its last send at 8 fills 4 KiB again, and it exits at 8; consumer reads at 8 and
    // 10 and exits at 12. producer waits 3–7 for the CPU; consumer 0–3 and 7–8.
    let run = run(PRODUCER_CONSUMER, "as-written");
    assert_eq!(figures(&run, &["producer", "consumer"]), vec![(0, 8, 4), (3, 12, 4)]);
    let Some(Metric::Object(pipes)) = run.metrics.get("pipes") else { panic!("no pipes") };
    let Some(Metric::Object(p)) = pipes.get("P") else { panic!("no pipe P") };
    let figure = |key: &str| ns(p.get(key));
    assert_eq!((figure("sent_bytes"), figure("received_bytes"), figure("left_bytes")), (16_384, 16_384, 0));
    assert_eq!((figure("read_waits"), figure("write_waits")), (1, 1));
    let text = narration(&run);
    assert!(text.contains("producer must write its 4,096 bytes at once (at most PIPE_BUF, 4 KiB, is atomic) but pipe P holds 8,192 of 8,192"), "{text}");
    assert!(text.contains("consumer wakes producer, the first writer asleep on the full pipe P"), "{text}");
    assert!(text.contains("consumer finds pipe P empty and sleeps"), "{text}");
}

#[test]
fn a_pipe_is_as_big_as_the_kernel_makes_it() {
    // round_pipe_size: a 1-byte pipe is a page, so an atomic 4 KiB write fits it at once
    // (in bytes as asked, it would never fit and the run would stall).
    let run = run("pipe P 1\ntask w\n  send P 4KiB\ntask r\n  recv P 4KiB\n", "as-written");
    assert_eq!(run.outcome, Outcome::Completed);
    let text = narration(&run);
    assert!(text.contains("4,096 of 4,096"), "{text}");
    assert!(!text.contains("holds 0 of 1"), "{text}");
}

#[test]
fn a_reader_of_a_pipe_nobody_writes_is_a_named_stall() {
    let run = run("pipe P\ntask r\n  recv P\ntask w\n  run 1ms\n", "as-written");
    assert_eq!(run.outcome, Outcome::Stalled { at_ns: MS, tasks: 1 });
    let text = narration(&run);
    assert!(
        text.contains("r waits to read pipe P, which is empty, and no live task will ever write to it."),
        "{text}"
    );
    // Two tasks each waiting to read what only the other would write: both named.
    let cycle = "pipe P\npipe Q\ntask a\n  recv P\n  send Q\ntask b\n  recv Q\n  send P\n";
    let both = self::run(cycle, "as-written");
    assert_eq!(both.outcome, Outcome::Stalled { at_ns: 0, tasks: 2 });
    let text = narration(&both);
    assert!(
        text.contains("a waits to read pipe P, which is empty; the tasks that could write to it wait too."),
        "{text}"
    );
    assert!(text.contains("b waits to read pipe Q"), "{text}");
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
