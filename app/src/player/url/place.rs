//! Where a link's `step` lands in the run it opens: the unit it names if the run
//! has it, else the nearest existing step (the end), saying why in one line.

use super::{codec, versions};
use slowpath_engine::run::params::{quote_input, Notice};
use slowpath_engine::run::trace::{Granularity, Run};

/// The position a link's step points at in `run`, with a notice when it is not
/// the step as written. `query_text` is the link's own query, for how it was made
/// and what it typed.
pub fn place(run: &Run, query_text: &str, step: Option<(Granularity, u64)>) -> (u64, Option<Notice>) {
    let Some((granularity, unit)) = step else { return (0, None) };
    let pairs = codec::pairs(query_text);
    let (made, _) = versions::made(&pairs);
    if let Some(position) = run.position_after(granularity, unit) {
        // A tagged link older than its case's model change is said to be, once.
        let notice = (made.tagged && made.earlier_model(run.case)).then(|| Notice {
            param: "step".to_string(),
            message: format!(
                "this link was made with an earlier model (link version {}); its step {}:{unit} is shown as written{}",
                made.version,
                granularity.key(),
                chapter_at(run, position).map_or_else(String::new, |title| format!(", in the chapter “{title}”"))
            ),
        });
        return (position, notice);
    }
    let end = run.total_ops();
    let typed = pairs
        .iter()
        .rev()
        .find(|(key, _)| key == "step")
        .map_or_else(|| format!("{}:{unit}", granularity.key()), |(_, text)| quote_input(text));
    let chapter =
        chapter_at(run, end).map_or_else(String::new, |title| format!(", in the chapter “{title}”"));
    let message = if made.earlier_model(run.case) {
        let made_with = if made.tagged { "was made" } else { "has no version tag, so it may have been made" };
        format!(
            "this link {made_with} with an earlier model: this run has {} {} step(s), so step {typed} does not exist and it opens at the nearest existing step, the end{chapter}",
            run.unit_count(granularity),
            granularity.key()
        )
    } else {
        format!(
            "this run has {} {} step(s), so step {typed} does not exist; showing the end{chapter}",
            run.unit_count(granularity),
            granularity.key()
        )
    };
    (end, Some(Notice { param: "step".to_string(), message }))
}

/// The title of the last chapter that starts at or before `position`.
pub fn chapter_at(run: &Run, position: u64) -> Option<&'static str> {
    run.chapters.iter().take_while(|chapter| chapter.position <= position).last().map(|chapter| chapter.title)
}
