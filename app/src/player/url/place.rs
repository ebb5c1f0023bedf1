//! Where a link's `step` lands in the run it opens: the unit it names if the run
//! has it and the model has not changed since the link was made; else, when the
//! link says where its step lay by chapter (`ch`, link version 6), the same place
//! in the same chapter; else the nearest existing step (the end). Anything but the
//! step as written is said in one line.

use super::chapter::{self, ChapterMark, CHAPTER_KEY};
use super::codec;
use super::steps_of;
use super::versions::{self, History, Made};
use slowpath_engine::run::params::{quote_input, Notice};
use slowpath_engine::run::trace::{Granularity, Run};

/// The position a link's step points at in `run`, with a notice when it is not
/// the step as written. `query_text` is the link's own query, for how it was made
/// and what it typed.
pub fn place(run: &Run, query_text: &str, step: Option<(Granularity, u64)>) -> (u64, Option<Notice>) {
    place_in(run, query_text, step, versions::history())
}

/// [`place`] with the model changes `history` records (a test's own history).
pub fn place_in(
    run: &Run,
    query_text: &str,
    step: Option<(Granularity, u64)>,
    history: &History,
) -> (u64, Option<Notice>) {
    let Some((granularity, unit)) = step else { return (0, None) };
    let pairs = codec::pairs(query_text);
    let (made, _) = versions::made(&pairs);
    let link = Link {
        made,
        earlier_model: made.earlier_model_in(run.case, history),
        typed: pairs
            .iter()
            .rev()
            .find(|(key, _)| key == "step")
            .map_or_else(|| format!("{}:{unit}", granularity.key()), |(_, text)| quote_input(text)),
        granularity,
    };
    let raw = run.position_after(granularity, unit);
    // The last `ch` that reads, as the query's own parse takes it.
    let mark = pairs
        .iter()
        .rev()
        .filter(|(key, _)| key == CHAPTER_KEY)
        .find_map(|(_, value)| chapter::parse_value(value))
        .map(|(chapter, offset, span)| ChapterMark { step: (granularity, unit), chapter, offset, span });
    match (raw, mark) {
        (None, Some(mark)) => by_chapter(run, &link, None, &mark),
        (Some(position), Some(mark)) if link.earlier_model => by_chapter(run, &link, Some(position), &mark),
        (Some(position), _) => (position, as_written(run, &link, position).map(step_notice)),
        (None, None) => missing(run, &link, None),
    }
}

/// What the link says about itself, for the notices.
struct Link {
    made: Made,
    earlier_model: bool,
    /// The step as typed, quoted.
    typed: String,
    granularity: Granularity,
}

/// The mark's place in `run`: the same chapter, the same place in it. A mark that
/// names no chapter here falls back to the step as written, or the end.
fn by_chapter(run: &Run, link: &Link, raw: Option<u64>, mark: &ChapterMark) -> (u64, Option<Notice>) {
    let Some(placed) = chapter::place_mark(run, mark) else {
        let unknown = quote_input(&mark.chapter);
        return match raw {
            Some(position) => {
                let shown = format!(
                    "this link's chapter `{unknown}` is not in this run; its step {} is shown as written{}",
                    link.typed,
                    in_chapter(run, position)
                );
                (position, Some(step_notice(shown)))
            }
            None => missing(run, link, Some(&unknown)),
        };
    };
    let unit = link.granularity.key();
    let place = format!(
        "the step shown is in the same chapter, {}, at the same place in it ({unit} step {} of {})",
        placed.part.described(),
        placed.offset + 1,
        placed.span
    );
    let message = match raw {
        Some(_) => format!(
            "this link was made with an earlier model{}; {place}, rather than step {}",
            if link.made.tagged { format!(" (link version {})", link.made.version) } else { String::new() },
            link.typed
        ),
        None => format!(
            "this link was made with an earlier model: this run has {}, so step {} does not exist; {place}",
            steps_of(run.unit_count(link.granularity), unit),
            link.typed
        ),
    };
    (placed.position, Some(step_notice(message)))
}

/// The notice for a step that exists, if any: a tagged link older than its case's
/// model change and without a chapter is said to be, once.
fn as_written(run: &Run, link: &Link, position: u64) -> Option<String> {
    (link.made.tagged && link.earlier_model).then(|| {
        format!(
            "this link was made with an earlier model (link version {}); its step {} is shown as written{}",
            link.made.version,
            link.typed,
            in_chapter(run, position)
        )
    })
}

/// A step the run does not have: the end, saying why; `unknown` is the chapter the
/// link names that this run lacks, quoted.
fn missing(run: &Run, link: &Link, unknown: Option<&str>) -> (u64, Option<Notice>) {
    let end = run.total_ops();
    let has = format!("this run has {}", steps_of(run.unit_count(link.granularity), link.granularity.key()));
    let chapter = in_chapter(run, end);
    let typed = &link.typed;
    let message = match unknown {
        Some(unknown) => format!(
            "this link's chapter `{unknown}` is not in this run, and {has}, so step {typed} does not exist; it opens at the nearest existing step, the end{chapter}"
        ),
        None if link.earlier_model => {
            let made_with =
                if link.made.tagged { "was made" } else { "has no version tag, so it may have been made" };
            format!(
                "this link {made_with} with an earlier model: {has}, so step {typed} does not exist and it opens at the nearest existing step, the end{chapter}"
            )
        }
        None => format!("{has}, so step {typed} does not exist; showing the end{chapter}"),
    };
    (end, Some(step_notice(message)))
}

fn in_chapter(run: &Run, position: u64) -> String {
    chapter_at(run, position).map_or_else(String::new, |title| format!(", in the chapter “{title}”"))
}

fn step_notice(message: String) -> Notice {
    Notice { param: "step".to_string(), message }
}

/// The title of the last chapter that starts at or before `position`.
pub fn chapter_at(run: &Run, position: u64) -> Option<&'static str> {
    run.chapter_index_at(position).map(|index| run.chapters[index].title)
}
