//! A run's key moments: its chapters, found from the first op of a template, and
//! how `n` and `p` move between them and the notable events in between; and what
//! the words at a key moment say the stage shows ([`StageClaim`]), checked against
//! the view the stage draws there.

use crate::run::lock::LockMode;
use crate::run::narration::Arg;
use crate::run::trace::{Chapter, OpView, Run};
use crate::run::view::View;
use crate::run::world::{LockId, TaskId};

/// What a key moment's narration says the stage shows, checked against the [`View`]
/// the stage draws at the same position (where `n` or a chapter button lands: just
/// after the op). A case declares one per narration template that names a state, in
/// its own folder (`Case::stage_claims`); a test walks every key moment of every
/// registered case's default run against them.
pub struct StageClaim {
    /// The narration templates whose words make the claim.
    pub templates: &'static [u16],
    /// The claim in a few words, for a failure's message.
    pub says: &'static str,
    /// Whether the view shows it, given the op whose words say it (its slots are in
    /// `op.args`): `Err` says what the view shows instead.
    pub holds: fn(&OpView, &View) -> Result<(), String>,
}

/// A key moment whose picture is not what its words say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    pub position: u64,
    pub says: &'static str,
    pub shows: String,
}

/// The task named in slot `slot` of an op's narration.
pub fn task_slot(op: &OpView, slot: usize) -> Result<TaskId, String> {
    match op.args.get(slot) {
        Some(Arg::Task(task)) => Ok(*task),
        other => Err(format!("slot {slot} is not a task: {other:?}")),
    }
}

/// The count in slot `slot` of an op's narration.
pub fn count_slot(op: &OpView, slot: usize) -> Result<u64, String> {
    match op.args.get(slot) {
        Some(Arg::Count(value)) => Ok(*value),
        Some(Arg::Signed(value)) if *value >= 0 => Ok(*value as u64),
        other => Err(format!("slot {slot} is not a count: {other:?}")),
    }
}

/// The duration or instant in slot `slot` of an op's narration, in ns.
pub fn ns_slot(op: &OpView, slot: usize) -> Result<u64, String> {
    match op.args.get(slot) {
        Some(Arg::Ns(value)) => Ok(*value),
        other => Err(format!("slot {slot} is not a duration: {other:?}")),
    }
}

/// The signed number in slot `slot` of an op's narration.
pub fn signed_slot(op: &OpView, slot: usize) -> Result<i64, String> {
    match op.args.get(slot) {
        Some(Arg::Signed(value)) => Ok(*value),
        Some(Arg::Count(value)) => i64::try_from(*value).map_err(|_| format!("slot {slot} too large")),
        other => Err(format!("slot {slot} is not a number: {other:?}")),
    }
}

/// The word in slot `slot` of an op's narration (a signal's name, a mode).
pub fn word_slot(op: &OpView, slot: usize) -> Result<&'static str, String> {
    match op.args.get(slot) {
        Some(Arg::Word(word)) => Ok(*word),
        other => Err(format!("slot {slot} is not a word: {other:?}")),
    }
}

/// The lock named in slot `slot` of an op's narration.
pub fn lock_slot(op: &OpView, slot: usize) -> Result<LockId, String> {
    match op.args.get(slot) {
        Some(Arg::Lock(lock)) => Ok(*lock),
        other => Err(format!("slot {slot} is not a lock: {other:?}")),
    }
}

/// A task's name as the view has it, for a failure's message.
pub fn task_name(view: &View, task: TaskId) -> String {
    view.tasks.get(task.0 as usize).map_or_else(|| format!("#{}", task.0), |t| t.name.clone())
}

/// The view draws `task` holding `lock` (in `mode`, when given).
pub fn drawn_holding(view: &View, lock: LockId, task: TaskId, mode: Option<LockMode>) -> Result<(), String> {
    let lock = view.locks.get(lock.0 as usize).ok_or("no such lock is drawn")?;
    let held = lock.holders.iter().any(|h| h.task == task && mode.is_none_or(|mode| h.mode == mode));
    expect(held, || format!("{} is not drawn holding {}", task_name(view, task), lock.name))
}

/// The view draws `task` in `lock`'s wait queue, at 1-based `position` when given.
pub fn drawn_queued(view: &View, lock: LockId, task: TaskId, position: Option<u64>) -> Result<(), String> {
    let lock = view.locks.get(lock.0 as usize).ok_or("no such lock is drawn")?;
    let at = lock.waiters.iter().position(|w| w.task == task).map(|i| i as u64 + 1);
    expect(at.is_some() && (position.is_none() || at == position), || {
        format!(
            "{} is drawn at {at:?} in {}'s queue, the words say {position:?}",
            task_name(view, task),
            lock.name
        )
    })
}

/// The view draws `task` on a CPU (`true`) or off every CPU (`false`).
pub fn drawn_on_cpu(view: &View, task: TaskId, on: bool) -> Result<(), String> {
    let running = view.tasks.get(task.0 as usize).is_some_and(|t| t.state.cpu().is_some());
    expect(running == on, || {
        format!("{} is drawn {} a CPU", task_name(view, task), if running { "on" } else { "off" })
    })
}

/// A counter of the view by name (0 when the run has none by that name).
pub fn counter(view: &View, name: &str) -> u64 {
    view.counters.iter().find(|(key, _)| key == name).map_or(0, |(_, value)| *value)
}

/// `Ok` when `holds`, else `Err(shows())`: a claim's checks read as one line each.
pub fn expect(holds: bool, shows: impl FnOnce() -> String) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(shows())
    }
}

impl Run {
    /// The first op rendered from any of `templates` (a repeat's template op stands
    /// for its first iteration): one pass over the stored ops, never over repeats.
    pub fn first_op_with_template(&self, templates: &[u16]) -> Option<u64> {
        self.first_op_with_template_from(templates, 0)
    }

    /// The first op at or after op `from` rendered from any of `templates` (inside a
    /// repeat, in the first iteration that reaches `from`).
    pub fn first_op_with_template_from(&self, templates: &[u16], from: u64) -> Option<u64> {
        let start = self
            .blocks
            .partition_point(|block| block.first_op + block.count * u64::from(block.ops_len) <= from);
        self.blocks[start..].iter().find_map(|block| {
            let len = u64::from(block.ops_len);
            let ops = &self.ops[block.ops_start as usize..(block.ops_start + block.ops_len) as usize];
            ops.iter().enumerate().filter(|(_, op)| templates.contains(&op.text.template)).find_map(
                |(j, _)| {
                    let first = block.first_op + j as u64;
                    // The first iteration whose op j is at or after `from`.
                    let k = if first >= from { 0 } else { (from - first).div_ceil(len) };
                    (k < block.count).then_some(first + k * len)
                },
            )
        })
    }

    /// Sets the run's chapters from (op index, title) pairs; moments that did not
    /// happen in this run (None) are left out, the rest kept in order.
    pub fn set_chapters(&mut self, moments: &[(Option<u64>, &'static str)]) {
        let mut chapters: Vec<Chapter> = moments
            .iter()
            .filter_map(|&(index, title)| Some(Chapter { position: index? + 1, title }))
            .filter(|chapter| chapter.position <= self.total_ops())
            .collect();
        crate::run::sort::sort_by_key(&mut chapters, |chapter| chapter.position);
        chapters.dedup_by_key(|chapter| chapter.position);
        self.chapters = chapters;
    }

    /// The index of the chapter `position` lies in: the last one that starts at or
    /// before it (None before the first). Links record where a step lies by chapter.
    pub fn chapter_index_at(&self, position: u64) -> Option<usize> {
        self.chapters.partition_point(|chapter| chapter.position <= position).checked_sub(1)
    }

    /// The positions chapter `index` covers, both ends included: from its start to
    /// the position before the next chapter's, the last one to the end of the run.
    pub fn chapter_positions(&self, index: usize) -> Option<(u64, u64)> {
        let chapter = self.chapters.get(index)?;
        let last = self.chapters.get(index + 1).map_or(self.total_ops(), |next| next.position - 1);
        Some((chapter.position, last.max(chapter.position)))
    }

    /// The nearest key moment after `position`, a chapter or a notable event: how `n`
    /// moves. Chapters alone would skip what happens between them (each slice of a long
    /// stall, every slow write after the first); the chapter buttons jump chapter to
    /// chapter.
    pub fn next_key_moment(&self, position: u64) -> Option<u64> {
        let chapter = self.chapters.iter().map(|c| c.position).find(|&p| p > position);
        [chapter, self.next_notable(position).filter(|&p| p > position)].into_iter().flatten().min()
    }

    /// The nearest key moment before `position`, a chapter or a notable event (`p`).
    pub fn previous_key_moment(&self, position: u64) -> Option<u64> {
        let chapter = self.chapters.iter().rev().map(|c| c.position).find(|&p| p < position);
        [chapter, self.previous_notable(position).filter(|&p| p < position)].into_iter().flatten().max()
    }

    /// Every stop of `n` from the start, in order: the chapters and the notable
    /// events between them.
    pub fn key_moments(&self) -> Vec<u64> {
        let mut stops = Vec::new();
        let mut position = 0;
        while let Some(next) = self.next_key_moment(position) {
            stops.push(next);
            position = next;
        }
        stops
    }

    /// The key moments whose words a claim of `claims` makes and the stage, drawn
    /// from the view at that position, does not show; and the templates spoken at a
    /// key moment that no claim covers (a claim's `says` is empty there).
    pub fn stage_disagreements(&self, claims: &[StageClaim]) -> (Vec<Disagreement>, Vec<u16>) {
        let (mut disagreements, mut uncovered) = (Vec::new(), Vec::new());
        for position in self.key_moments() {
            let Some(op) = position.checked_sub(1).and_then(|index| self.op(index)) else { continue };
            let mut covered = false;
            let view = self.view(position);
            for claim in claims.iter().filter(|claim| claim.templates.contains(&op.template)) {
                covered = true;
                if let Err(shows) = (claim.holds)(&op, &view) {
                    disagreements.push(Disagreement { position, says: claim.says, shows });
                }
            }
            if !covered && !uncovered.contains(&op.template) {
                uncovered.push(op.template);
            }
        }
        (disagreements, uncovered)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_position_lies_in_the_last_chapter_started_and_chapters_cover_to_the_end() {
        let mut run = crate::run::synthetic::many_tasks(200, 2, 5, 1);
        assert!(run.total_ops() > 10);
        let total = run.total_ops();
        run.set_chapters(&[(Some(9), "ten"), (None, "never"), (Some(2), "three")]);
        assert_eq!(run.chapter_index_at(2), None);
        assert_eq!(run.chapter_index_at(3), Some(0));
        assert_eq!(run.chapter_index_at(9), Some(0));
        assert_eq!(run.chapter_index_at(10), Some(1));
        assert_eq!(run.chapter_index_at(u64::MAX), Some(1));
        assert_eq!(run.chapter_positions(0), Some((3, 9)));
        assert_eq!(run.chapter_positions(1), Some((10, total)));
        assert_eq!(run.chapter_positions(2), None);
    }
}
