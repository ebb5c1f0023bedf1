//! Playback: a position in a run with its world, stepped forward one micro-op at a
//! time without a seek or a search.

use crate::run::trace::Run;
use crate::run::world::World;

/// A position in a run with its world, for playback: stepping forward one
/// micro-op at a time without a seek or a search (the block is tracked).
pub struct Cursor<'r> {
    run: &'r Run,
    position: u64,
    /// The block holding op `position` (the next op), or `blocks.len()` at the end.
    block: usize,
    world: World,
}

impl<'r> Cursor<'r> {
    pub fn new(run: &'r Run) -> Cursor<'r> {
        let mut cursor = Cursor { run, position: 0, block: 0, world: run.state_at(0) };
        cursor.seek(0);
        cursor
    }

    /// Jumps anywhere: a checkpoint plus bounded replay.
    pub fn seek(&mut self, position: u64) {
        let position = position.min(self.run.total_ops());
        self.world = self.run.state_at(position);
        self.position = position;
        self.block = if position < self.run.total_ops() {
            self.run.block_of_op(position)
        } else {
            self.run.blocks.len()
        };
    }

    pub fn position(&self) -> u64 {
        self.position
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Executes the next micro-op; false at the end of the run.
    pub fn step(&mut self) -> bool {
        let run = self.run;
        let Some(block) = run.blocks.get(self.block) else { return false };
        run.apply_op(&mut self.world, self.block, self.position);
        self.position += 1;
        if self.position == block.first_op + block.count * u64::from(block.ops_len) {
            self.block += 1;
        }
        true
    }
}
