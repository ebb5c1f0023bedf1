//! Where a step lies by chapter (link version 6): `ch=<chapter>:<offset>of<span>`,
//! written beside `step`, so that a link still finds its moment when a model change
//! moves micro-op numbers (`docs/links.md`, "Positions on an earlier model").
//!
//! The chapter is named by its title, written as words joined by `-`
//! (`ch=sigkill-arrives:3of10`): the title is what a model change keeps, the way a
//! tour's stop names its chapter by title. An ordinal would shift whenever a moment
//! does not happen in a run (a chapter a run lacks is left out). Positions before a
//! run's first chapter lie in `start`. The offset and the span are counted in the
//! step's own unit, both, so that a chapter of the same length places exactly and
//! one that grew or shrank places at the same fraction of it, its first and last
//! steps kept first and last.

use slowpath_engine::run::trace::{Granularity, Run};

/// The query key.
pub const CHAPTER_KEY: &str = "ch";
/// The chapter name of the positions before a run's first chapter.
pub const START: &str = "start";

/// Where a step lies by chapter, as a link writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapterMark {
    /// The step the mark was taken at: a link writes it only beside that step.
    pub step: (Granularity, u64),
    /// The chapter's name as written (untrusted when read from a link).
    pub chapter: String,
    /// The step's unit counted from the chapter's first unit (0-based).
    pub offset: u64,
    /// How many units of the step's granularity the chapter spans.
    pub span: u64,
}

impl ChapterMark {
    /// The value of `ch=`.
    pub fn value(&self) -> String {
        format!("{}:{}of{}", self.chapter, self.offset, self.span)
    }
}

/// `sigkill-arrives:3of10` → (`sigkill-arrives`, 3, 10); None when it does not fit.
/// A number too large for any run is the largest (it is clamped to the chapter).
pub fn parse_value(value: &str) -> Option<(String, u64, u64)> {
    let (chapter, at) = value.rsplit_once(':').filter(|(chapter, _)| !chapter.is_empty())?;
    let (offset, span) = at.split_once("of")?;
    let number = |text: &str| {
        (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().unwrap_or(u64::MAX))
    };
    Some((chapter.to_string(), number(offset)?, number(span)?))
}

/// A title as a link writes it: lower-case letters and digits, each run of anything
/// else one `-` ("zap_threads: SIGKILL to every thread" → `zap-threads-sigkill-to-every-thread`).
/// Reading compares names this way too, so that case and spacing do not matter.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for word in title.split(|c: char| !c.is_ascii_alphanumeric()).filter(|word| !word.is_empty()) {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    out
}

/// One stretch of a run a mark can name: a chapter, or the start before the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The name a link writes.
    pub name: String,
    /// The chapter's title; None for the start.
    pub title: Option<&'static str>,
    /// The positions it covers, both ends included.
    pub first: u64,
    pub last: u64,
}

impl Part {
    /// How a notice names it.
    pub fn described(&self) -> String {
        self.title
            .map_or_else(|| "the start, before the first chapter".to_string(), |title| format!("“{title}”"))
    }

    /// The units of `granularity` it spans: the first and how many.
    fn units(&self, run: &Run, granularity: Granularity) -> (u64, u64) {
        let first = run.unit_of(self.first - 1, granularity);
        let last = run.unit_of(self.last - 1, granularity);
        (first, last.saturating_sub(first) + 1)
    }
}

/// The run's parts in order: the start (when the first chapter is not at the first
/// position), then each chapter to the next.
pub fn parts(run: &Run) -> Vec<Part> {
    let total = run.total_ops();
    if total == 0 {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let first_chapter = run.chapters.first().map_or(total + 1, |chapter| chapter.position);
    if first_chapter > 1 {
        parts.push(Part {
            name: START.to_string(),
            title: None,
            first: 1,
            last: (first_chapter - 1).min(total),
        });
    }
    for (index, chapter) in run.chapters.iter().enumerate() {
        if let Some((first, last)) = run.chapter_positions(index).filter(|&(first, _)| first >= 1) {
            parts.push(Part { name: slug(chapter.title), title: Some(chapter.title), first, last });
        }
    }
    parts
}

/// Where `step` lies by chapter in `run`; None for a step the run does not have.
pub fn mark_of(run: &Run, step: (Granularity, u64)) -> Option<ChapterMark> {
    let (granularity, unit) = step;
    let position = run.position_after(granularity, unit).filter(|&position| position >= 1)?;
    let part = parts(run).into_iter().rev().find(|part| part.first <= position)?;
    let (first, span) = part.units(run, granularity);
    Some(ChapterMark { step, chapter: part.name, offset: unit.saturating_sub(first), span })
}

/// A mark placed in `run`: the position, the part, and the unit shown within it
/// (0-based) of how many.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub position: u64,
    pub part: Part,
    pub offset: u64,
    pub span: u64,
}

/// The step in `run` at the mark's place: the same chapter, the same offset when
/// it spans as many units as when the link was made, else the same fraction of it.
/// None when the mark names no part of this run.
pub fn place_mark(run: &Run, mark: &ChapterMark) -> Option<Placed> {
    let (granularity, _) = mark.step;
    let wanted = slug(&mark.chapter);
    let part = parts(run).into_iter().find(|part| part.name == wanted)?;
    let (first, span) = part.units(run, granularity);
    let offset = scaled(mark.offset, mark.span, span);
    let position = run.position_after(granularity, first + offset)?;
    Some(Placed { position, part, offset, span })
}

/// `offset` of `span` units as an offset into `today` units: kept when the spans
/// agree, else scaled so that the first and last units stay first and last.
fn scaled(offset: u64, span: u64, today: u64) -> u64 {
    let span = span.max(1);
    let offset = offset.min(span - 1);
    if span == today || today <= 1 {
        return offset.min(today.saturating_sub(1));
    }
    if span == 1 {
        return 0;
    }
    let (offset, span, today) = (u128::from(offset), u128::from(span - 1), u128::from(today - 1));
    ((offset * today + span / 2) / span) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_become_names_and_values_read_back() {
        assert_eq!(slug("zap_threads: SIGKILL to every thread"), "zap-threads-sigkill-to-every-thread");
        assert_eq!(slug("the first slow write() is measured"), "the-first-slow-write-is-measured");
        assert_eq!(parse_value("sigkill-arrives:3of10"), Some(("sigkill-arrives".into(), 3, 10)));
        assert_eq!(parse_value("a:b:99999999999999999999999of1"), Some(("a:b".into(), u64::MAX, 1)));
        for bad in ["", ":1of2", "x:1of", "x:of2", "x:1x2", "x", "x:-1of2", "x:1of2 "] {
            assert_eq!(parse_value(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn offsets_scale_with_the_chapter() {
        assert_eq!(scaled(3, 10, 10), 3);
        assert_eq!(scaled(0, 10, 40), 0);
        assert_eq!(scaled(9, 10, 40), 39);
        assert_eq!(scaled(39, 40, 10), 9);
        assert_eq!(scaled(5, 11, 21), 10);
        assert_eq!(scaled(u64::MAX, u64::MAX, 3), 2);
        assert_eq!(scaled(7, 0, 5), 0);
        assert_eq!(scaled(7, 1, 5), 0);
        assert_eq!(scaled(4, 5, 0), 0);
    }
}
