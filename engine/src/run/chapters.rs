//! A run's key moments: its chapters, found from the first op of a template, and
//! how `n` and `p` move between them and the notable events in between.

use crate::run::trace::{Chapter, Run};

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
