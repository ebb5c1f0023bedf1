//! Structured narration and pseudocode.
//!
//! An op records a template id and argument values, never finished text, so the
//! app can style each value (a task name, a lock, a duration) and the CLI can
//! print plain text from the same record. Templates use `{0}`, `{1}`... .

use crate::run::wire::codec::{wire_enum, wire_struct};
use crate::run::world::{Layout, LockId, TaskId};

/// A value in a narration or iteration label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", content = "value", rename_all = "snake_case"))]
pub enum Arg {
    Task(TaskId),
    Lock(LockId),
    Count(u64),
    Signed(i64),
    Ns(u64),
    /// A virtual address, shown in hex.
    Addr(u64),
    Word(crate::run::wire::StaticStr),
    /// `base + stride × k` for iteration k of a repeat (page addresses, page numbers).
    AffineAddr {
        base: u64,
        stride: u64,
    },
    AffineCount {
        base: u64,
        stride: u64,
    },
    /// A wait channel, shown by its name (a pipe of the Lab).
    Channel(crate::run::world::ChannelId),
    /// A duration shown beside another `diff_ns` away, written finely enough that
    /// the two read as that far apart (`run::format::duration_beside`).
    NsBeside {
        ns: u64,
        diff_ns: u64,
    },
}
wire_enum!(Arg {
    0 => Task(task), 1 => Lock(lock), 2 => Count(value), 3 => Signed(value), 4 => Ns(value), 5 => Addr(value),
    6 => Word(word), 7 => AffineAddr { base, stride }, 8 => AffineCount { base, stride }, 9 => Channel(channel),
    10 => NsBeside { ns, diff_ns },
});

impl Arg {
    /// The concrete value for iteration `k` of its block (identity outside repeats).
    pub fn at_iteration(self, k: u64) -> Arg {
        match self {
            Arg::AffineAddr { base, stride } => Arg::Addr(base.wrapping_add(stride.wrapping_mul(k))),
            Arg::AffineCount { base, stride } => Arg::Count(base + stride * k),
            other => other,
        }
    }
}

/// A piece of rendered narration: plain text or a styled value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", content = "text", rename_all = "snake_case"))]
pub enum Segment {
    Text(String),
    Task(String),
    Lock(String),
    Value(String),
}

/// Where an op is in the pseudocode: function index and line index (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CodeLoc {
    pub function: u16,
    pub line: u16,
}
wire_struct!(CodeLoc { function, line });

/// Our own simplified rendering of a real function, with a link to the real one.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Function {
    pub name: &'static str,
    /// The real source at the version modelled.
    pub source_url: &'static str,
    pub lines: &'static [&'static str],
}

/// Formats `1234567` as `1,234,567`, the way the UI and CLI show counts.
pub fn group_digits(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, ch) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A count and the noun that agrees with it, the count grouped: "1 thread",
/// "1,024 threads" (the words of a `format!`, as `{N?one|many}` is a template's).
pub fn counted(count: u64, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", group_digits(count))
    }
}

/// Renders a template with its arguments into segments: `{N}` is argument N, and
/// `{N?thread|threads}` the word that agrees with argument N's number (one thread,
/// two threads), so that no sentence says "1 thread(s)".
///
/// Unknown placeholders render literally, so a template typo shows in the UI
/// (and fails the template test) instead of panicking.
pub fn render(template: &str, args: &[Arg], layout: &Layout) -> Vec<Segment> {
    let mut segments = Vec::new();
    let mut text = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            text.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let inside = &after[..close];
        let (index, words) = match inside.split_once('?') {
            Some((index, words)) => (index, words.split_once('|')),
            None => (inside, None),
        };
        match (index.parse::<usize>().ok().and_then(|index| args.get(index)), words) {
            (Some(arg), Some((one, many))) => text.push_str(if is_one(*arg) { one } else { many }),
            (Some(arg), None) if !inside.contains('?') => {
                if !text.is_empty() {
                    segments.push(Segment::Text(std::mem::take(&mut text)));
                }
                segments.push(render_arg(*arg, layout));
            }
            _ => text.push_str(&rest[open..open + close + 2]),
        }
        rest = &after[close + 1..];
    }
    text.push_str(rest);
    if !text.is_empty() {
        segments.push(Segment::Text(text));
    }
    segments
}

/// Whether an argument's number is one (a word after it is singular).
fn is_one(arg: Arg) -> bool {
    match arg {
        Arg::Count(value) | Arg::AffineCount { base: value, .. } => value == 1,
        Arg::Signed(value) => value == 1,
        _ => false,
    }
}

fn render_arg(arg: Arg, layout: &Layout) -> Segment {
    match arg {
        Arg::Task(task) => Segment::Task(layout.task_name(task).to_string()),
        Arg::Lock(lock) => Segment::Lock(layout.lock_name(lock).to_string()),
        Arg::Count(value) | Arg::AffineCount { base: value, .. } => Segment::Value(group_digits(value)),
        Arg::Signed(value) => Segment::Value(value.to_string()),
        Arg::Ns(ns) => Segment::Value(crate::run::format::duration(ns)),
        Arg::NsBeside { ns, diff_ns } => Segment::Value(crate::run::format::duration_beside(ns, diff_ns)),
        Arg::Addr(addr) | Arg::AffineAddr { base: addr, .. } => Segment::Value(format!("{addr:#x}")),
        Arg::Word(word) => Segment::Value(word.to_string()),
        Arg::Channel(channel) => Segment::Value(layout.channels[usize::from(channel.0)].clone()),
    }
}

/// Plain text of rendered segments, for the CLI and tests.
pub fn plain(segments: &[Segment]) -> String {
    segments
        .iter()
        .map(|segment| match segment {
            Segment::Text(text) | Segment::Task(text) | Segment::Lock(text) | Segment::Value(text) => {
                text.as_str()
            }
        })
        .collect()
}

/// Declares a case's narration templates: an enum of ids and the table of
/// texts in the same order, so an id can never point at the wrong sentence.
#[macro_export]
macro_rules! templates {
    ($($name:ident = $text:expr,)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, clippy::enum_variant_names)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u16)]
        pub(crate) enum T { $($name,)* }
        pub(crate) static TEMPLATES: &[&str] = &[$($text,)*];
        impl T {
            pub(crate) fn id(self) -> u16 { self as u16 }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_values_and_keeps_unknown_placeholders() {
        let mut layout = Layout::new(1);
        let group = layout.add_group("p");
        let task = layout.add_task("R0", group);
        let segments = render("{0} waited {1}; {7} stays", &[Arg::Task(task), Arg::Ns(1_500_000)], &layout);
        assert_eq!(plain(&segments), "R0 waited 1.5 ms; {7} stays");
        assert_eq!(segments[0], Segment::Task("R0".into()));
        assert_eq!(group_digits(268_435_456), "268,435,456");
        assert_eq!(Arg::AffineAddr { base: 0x1000, stride: 0x1000 }.at_iteration(2), Arg::Addr(0x3000));
    }

    #[test]
    fn a_word_agrees_with_its_number_and_a_bad_plural_placeholder_shows() {
        let layout = Layout::new(1);
        let say = |count| {
            plain(&render("{0} {0?thread|threads} wait; {1?x}", &[Arg::Count(count), Arg::Count(2)], &layout))
        };
        assert_eq!(say(1), "1 thread wait; {1?x}");
        assert_eq!(say(0), "0 threads wait; {1?x}");
        assert_eq!(say(1_000), "1,000 threads wait; {1?x}");
        assert_eq!(plain(&render("{3?a|b}", &[], &layout)), "{3?a|b}");
    }
}
