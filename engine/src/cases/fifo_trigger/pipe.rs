//! A named pipe's inode as fs/fifo.c and fs/pipe.c keep it (2.4.24 and 2.6.1
//! alike for everything modelled here): the pipe buffer exists while anyone has
//! the FIFO open and is freed, bytes and all, when the last reader and the last
//! writer have closed it. Opens are non-blocking, as both programs ask.

/// `PIPE_SIZE`: one page of buffer.
pub const PIPE_SIZE: u64 = 4096;

/// Today's pipe: a ring of PIPE_DEF_BUFFERS (16) pipe_buffers of a page each; a
/// one-byte write merges into the last page while it has room, so 16 pages of bytes.
pub const PIPE_SIZE_TODAY: u64 = 16 * 4096;

/// The pipe buffer and its counters (`struct pipe_inode_info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipeInfo {
    pub bytes: u64,
    pub readers: u32,
    pub writers: u32,
    /// Bumped by every reader / writer open; `pipe_new` starts both at 1.
    pub r_counter: u64,
    pub w_counter: u64,
}

/// One open file of the FIFO: only `f_version` matters to `pipe_poll`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFile {
    pub reader: bool,
    /// For a non-blocking reader that found no writer: the writer count it saw,
    /// so that POLLHUP stays suppressed until a writer has come (and gone).
    pub f_version: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fifo {
    pub pipe: Option<PipeInfo>,
    /// How many times the buffer was freed, and the unread bytes it took along.
    pub frees: u64,
    pub bytes_discarded: u64,
    /// How many unread bytes the pipe holds before a write gets EAGAIN.
    pub capacity: u64,
}

impl Default for Fifo {
    /// 2.6.1's FIFO: one page.
    fn default() -> Fifo {
        Fifo::with_capacity(PIPE_SIZE)
    }
}

/// What `pipe_poll` reports to a reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PollMask {
    pub pollin: bool,
    pub pollhup: bool,
}

impl PollMask {
    /// `select()` counts a descriptor readable on POLLIN or POLLHUP.
    pub fn readable(self) -> bool {
        self.pollin || self.pollhup
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteResult {
    /// One byte went in; sleeping readers must be woken.
    Wrote,
    /// The buffer is full and the file is non-blocking.
    Again,
    /// No reader: SIGPIPE (ignored by the writer) and EPIPE.
    Broken,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closed {
    /// The last reader and writer are gone: the buffer was freed with `discarded` bytes.
    pub freed: bool,
    pub discarded: u64,
}

impl Fifo {
    /// No pipe yet; writes get EAGAIN once `capacity` bytes are unread.
    pub fn with_capacity(capacity: u64) -> Fifo {
        Fifo { pipe: None, frees: 0, bytes_discarded: 0, capacity }
    }

    fn info(&mut self) -> &mut PipeInfo {
        self.pipe.get_or_insert(PipeInfo { bytes: 0, readers: 0, writers: 0, r_counter: 1, w_counter: 1 })
    }

    pub fn readers(&self) -> u32 {
        self.pipe.as_ref().map_or(0, |p| p.readers)
    }

    pub fn writers(&self) -> u32 {
        self.pipe.as_ref().map_or(0, |p| p.writers)
    }

    pub fn bytes(&self) -> u64 {
        self.pipe.as_ref().map_or(0, |p| p.bytes)
    }

    /// `fifo_open(O_RDONLY | O_NONBLOCK)`. Returns the file and whether it woke
    /// the partner wait queue (first reader).
    pub fn open_reader(&mut self) -> (OpenFile, bool) {
        let info = self.info();
        info.r_counter += 1;
        let first = info.readers == 0;
        info.readers += 1;
        let f_version = if info.writers == 0 { info.w_counter } else { 0 };
        (OpenFile { reader: true, f_version }, first)
    }

    /// `fifo_open(O_WRONLY | O_NONBLOCK)`: ENXIO (`None`) without a reader;
    /// otherwise the file and whether it woke the partner wait queue (first writer).
    pub fn open_writer(&mut self) -> Option<(OpenFile, bool)> {
        if self.readers() == 0 {
            return None;
        }
        let info = self.info();
        info.w_counter += 1;
        let first = info.writers == 0;
        info.writers += 1;
        Some((OpenFile { reader: false, f_version: 0 }, first))
    }

    /// `pipe_write` of one byte on a non-blocking file.
    pub fn write_byte(&mut self) -> WriteResult {
        let info = self.pipe.as_mut().expect("a writer holds the pipe open");
        assert!(info.writers > 0, "write without a writer");
        if info.readers == 0 {
            WriteResult::Broken
        } else if info.bytes >= self.capacity {
            WriteResult::Again
        } else {
            info.bytes += 1;
            WriteResult::Wrote
        }
    }

    /// `pipe_read` of up to `max` bytes, non-blocking; returns how many.
    pub fn read(&mut self, max: u64) -> u64 {
        let info = self.pipe.as_mut().expect("a reader holds the pipe open");
        let taken = info.bytes.min(max);
        info.bytes -= taken;
        taken
    }

    /// `pipe_poll` for a reader's file.
    pub fn poll(&self, file: &OpenFile) -> PollMask {
        let info = self.pipe.as_ref().expect("a reader holds the pipe open");
        PollMask { pollin: info.bytes > 0, pollhup: info.writers == 0 && file.f_version != info.w_counter }
    }

    /// `pipe_release`: drop one reader or writer; free the buffer when none is left
    /// (otherwise the kernel wakes the pipe's wait queue).
    pub fn close(&mut self, file: OpenFile) -> Closed {
        let info = self.pipe.as_mut().expect("closing an open pipe");
        if file.reader {
            assert!(info.readers > 0);
            info.readers -= 1;
        } else {
            assert!(info.writers > 0);
            info.writers -= 1;
        }
        if info.readers == 0 && info.writers == 0 {
            let discarded = info.bytes;
            self.pipe = None;
            self.frees += 1;
            self.bytes_discarded += discarded;
            Closed { freed: true, discarded }
        } else {
            Closed { freed: false, discarded: 0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_needs_a_reader_and_a_fresh_reader_sees_no_hangup() {
        let mut fifo = Fifo::default();
        assert_eq!(fifo.open_writer(), None, "ENXIO");
        let (reader, woke) = fifo.open_reader();
        assert!(woke);
        // No writer yet: f_version = w_counter suppresses POLLHUP, so select() sleeps.
        assert_eq!(fifo.poll(&reader), PollMask { pollin: false, pollhup: false });
        let (writer, woke) = fifo.open_writer().expect("a reader is there");
        assert!(woke, "the first writer wakes the partner queue");
        assert_eq!(fifo.write_byte(), WriteResult::Wrote);
        assert!(fifo.poll(&reader).readable());
        // The writer closes: the byte stays, and now a hangup is reported too.
        assert_eq!(fifo.close(writer), Closed { freed: false, discarded: 0 });
        assert_eq!(fifo.poll(&reader), PollMask { pollin: true, pollhup: true });
        assert_eq!(fifo.close(reader), Closed { freed: true, discarded: 1 });
        assert_eq!(fifo.pipe, None);
    }

    #[test]
    fn the_byte_survives_while_either_end_is_open() {
        let mut fifo = Fifo::default();
        let (reader, _) = fifo.open_reader();
        let (writer, _) = fifo.open_writer().unwrap();
        fifo.write_byte();
        // The listener closes first (after select), the writer still holds it.
        assert!(!fifo.close(reader).freed);
        let (again, first) = fifo.open_reader();
        assert!(first);
        assert_eq!(again.f_version, 0, "a writer was present: no suppression");
        assert!(fifo.poll(&again).pollin, "the stale byte makes select() return at once");
        assert!(!fifo.close(writer).freed);
        assert_eq!(fifo.read(4096), 1);
        assert!(fifo.close(again).freed);
        assert_eq!(fifo.bytes_discarded, 0);
    }

    #[test]
    fn todays_ring_takes_sixteen_pages_of_one_byte_writes() {
        let mut fifo = Fifo::with_capacity(PIPE_SIZE_TODAY);
        let (_reader, _) = fifo.open_reader();
        let (_writer, _) = fifo.open_writer().unwrap();
        for _ in 0..65_536 {
            assert_eq!(fifo.write_byte(), WriteResult::Wrote);
        }
        assert_eq!(fifo.write_byte(), WriteResult::Again);
    }

    #[test]
    fn a_full_pipe_refuses_and_a_readerless_pipe_breaks() {
        let mut fifo = Fifo::default();
        let (reader, _) = fifo.open_reader();
        let (writer, _) = fifo.open_writer().unwrap();
        for _ in 0..PIPE_SIZE {
            assert_eq!(fifo.write_byte(), WriteResult::Wrote);
        }
        assert_eq!(fifo.write_byte(), WriteResult::Again);
        fifo.close(reader);
        assert_eq!(fifo.write_byte(), WriteResult::Broken);
        assert_eq!(fifo.close(writer), Closed { freed: true, discarded: PIPE_SIZE });
    }
}
