//! The player's one reducer (Yew's function_todomvc pattern): a closed
//! `Action` enum and a pure `Player::apply`, tested on the host.

use super::url::PlayerQuery;
use slowpath_engine::run::params::Notice;
use slowpath_engine::run::timeline::Timeline;
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::{run_checked, CaseMeta, Run};
use std::rc::Rc;

/// Playback speeds in units per second; `None` is "as fast as frames allow".
pub const SPEEDS: [(&str, Option<u32>); 8] = [
    ("1/s", Some(1)),
    ("2/s", Some(2)),
    ("5/s", Some(5)),
    ("10/s", Some(10)),
    ("30/s", Some(30)),
    ("100/s", Some(100)),
    ("1000/s", Some(1000)),
    ("max", None),
];
pub const DEFAULT_SPEED: usize = 2;

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    StepForward,
    StepBack,
    /// Shift+→ / Shift+←: one step at the next coarser granularity.
    StepForwardCoarse,
    StepBackCoarse,
    ToStart,
    ToEnd,
    NextNotable,
    PreviousNotable,
    TogglePlay,
    Pause,
    Faster,
    Slower,
    SetSpeed(usize),
    CycleGranularity,
    SetGranularity(Granularity),
    /// Jump to a position (ops executed), e.g. from the scrub bar.
    Seek(u64),
    /// Jump to the last op at or before a simulated time, e.g. a timeline click.
    SeekTime(u64),
    /// One playback frame: advance by this many units at the current granularity.
    Advance(u64),
    SetParam {
        name: String,
        text: String,
    },
    SetVariant(String),
    SetSeed(u64),
    ToggleHelp,
    CloseHelp,
    DismissNotices,
}

#[derive(Clone)]
pub struct Player {
    pub meta: &'static CaseMeta,
    pub query: PlayerQuery,
    pub run: Rc<Run>,
    pub timeline: Rc<Timeline>,
    pub position: u64,
    pub playing: bool,
    pub speed: usize,
    pub notices: Vec<Notice>,
    pub help: bool,
}

impl PartialEq for Player {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
            && self.query == other.query
            && self.position == other.position
            && self.playing == other.playing
            && self.speed == other.speed
            && self.notices == other.notices
            && self.help == other.help
    }
}

/// A run made outside the registry (the synthetic load of the perf route).
pub struct Preset {
    pub run: Rc<Run>,
}

/// Runs a registered case; None for metas outside the registry (presets).
fn execute(meta: &'static CaseMeta, query: &PlayerQuery) -> Option<Run> {
    let case = slowpath_engine::find(meta.id)?;
    // The query was validated against the schema, so this cannot fail; if it ever
    // did, the panic overlay would report it rather than show a wrong run.
    Some(run_checked(case, &query.params, query.variant, query.seed).expect("validated parameters run"))
}

/// The position a link's `step` points at, clamped to the run, with a notice if clamped.
fn position_for(run: &Run, step: Option<(Granularity, u64)>) -> (u64, Option<Notice>) {
    let Some((granularity, unit)) = step else { return (0, None) };
    match run.position_after(granularity, unit) {
        Some(position) => (position, None),
        None => {
            let count = run.unit_count(granularity);
            let notice = Notice {
                param: "step".to_string(),
                message: format!(
                    "this run has {count} {} step(s), so step {unit} does not exist; showing the end",
                    granularity.key()
                ),
            };
            (run.total_ops(), Some(notice))
        }
    }
}

impl Player {
    /// Opens a case from a link's query string.
    pub fn open(meta: &'static CaseMeta, query_text: &str) -> Player {
        let (query, mut notices) = PlayerQuery::parse(meta, query_text);
        let run = execute(meta, &query).expect("open() takes registered cases");
        let (position, notice) = position_for(&run, query.step);
        notices.extend(notice);
        let timeline = Rc::new(run.timeline());
        let mut player = Player {
            meta,
            query,
            run: Rc::new(run),
            timeline,
            position,
            playing: false,
            speed: DEFAULT_SPEED,
            notices,
            help: false,
        };
        player.sync_step();
        player
    }

    /// Opens a run built elsewhere (the perf route's synthetic load), at its start.
    pub fn from_preset(meta: &'static CaseMeta, preset: &Preset) -> Player {
        let run = preset.run.clone();
        Player {
            meta,
            query: PlayerQuery::defaults(meta),
            timeline: Rc::new(run.timeline()),
            run,
            position: 0,
            playing: false,
            speed: DEFAULT_SPEED,
            notices: Vec::new(),
            help: false,
        }
    }

    /// Keeps `query.step` in step with `position` (what the URL writes).
    fn sync_step(&mut self) {
        let g = self.query.granularity;
        self.query.step = self.position.checked_sub(1).map(|last| {
            let unit = self.run.unit_of(last, g);
            if self.run.position_after(g, unit) == Some(self.position) {
                (g, unit)
            } else {
                (Granularity::Micro, last)
            }
        });
    }

    /// The index shown at the selected granularity (0-based), None at the start.
    pub fn index(&self) -> Option<u64> {
        self.run.index_at(self.position, self.query.granularity)
    }

    pub fn at_end(&self) -> bool {
        self.position >= self.run.total_ops()
    }

    fn rerun(&mut self) {
        let Some(run) = execute(self.meta, &self.query) else { return };
        // Keep the position when it still exists in the new run.
        let (position, notice) = position_for(&run, self.query.step);
        self.notices.extend(notice);
        self.timeline = Rc::new(run.timeline());
        self.run = Rc::new(run);
        self.position = position;
        self.playing = false;
        self.sync_step();
    }

    pub fn apply(&self, action: Action) -> Player {
        let mut next = self.clone();
        let run = &*self.run;
        let g = self.query.granularity;
        match action {
            Action::StepForward => next.position = run.step_forward(self.position, g),
            Action::StepBack => next.position = run.step_back(self.position, g),
            Action::StepForwardCoarse => next.position = run.step_forward(self.position, g.coarser()),
            Action::StepBackCoarse => next.position = run.step_back(self.position, g.coarser()),
            Action::ToStart => next.position = 0,
            Action::ToEnd => next.position = run.total_ops(),
            Action::NextNotable => next.position = run.next_notable(self.position).unwrap_or(self.position),
            Action::PreviousNotable => {
                next.position = run.previous_notable(self.position).unwrap_or(self.position)
            }
            Action::TogglePlay => {
                next.playing = !self.playing;
                if next.playing && self.at_end() {
                    next.position = 0;
                }
            }
            Action::Pause => next.playing = false,
            Action::Faster => next.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => next.speed = self.speed.saturating_sub(1),
            Action::SetSpeed(speed) => next.speed = speed.min(SPEEDS.len() - 1),
            Action::CycleGranularity => {
                let index = Granularity::ALL.iter().position(|x| *x == g).unwrap_or(0);
                next.query.granularity = Granularity::ALL[(index + 1) % Granularity::ALL.len()];
            }
            Action::SetGranularity(granularity) => next.query.granularity = granularity,
            Action::Seek(position) => next.position = position.min(run.total_ops()),
            Action::SeekTime(at_ns) => next.position = run.position_at_time(at_ns),
            Action::Advance(units) => {
                let mut position = self.position;
                for _ in 0..units {
                    position = run.step_forward(position, g);
                    if position >= run.total_ops() {
                        break;
                    }
                }
                next.position = position;
                if next.at_end() {
                    next.playing = false;
                }
            }
            Action::SetParam { name, text } => {
                if let Some(spec) = self.meta.params.iter().find(|spec| spec.name == name) {
                    let (value, notice) = spec.parse_clamped(&text);
                    next.notices.retain(|n| n.param != name);
                    next.notices.extend(notice);
                    if self.query.params.0.get(spec.name) != Some(&value) {
                        next.query.params.0.insert(spec.name.to_string(), value);
                        next.rerun();
                    }
                }
                return next;
            }
            Action::SetVariant(id) => {
                if let Some(variant) = self.meta.variant(&id) {
                    if variant.id != self.query.variant {
                        next.query.variant = variant.id;
                        next.rerun();
                    }
                }
                return next;
            }
            Action::SetSeed(seed) => {
                if seed != self.query.seed {
                    next.query.seed = seed;
                    next.rerun();
                }
                return next;
            }
            Action::ToggleHelp => next.help = !self.help,
            Action::CloseHelp => next.help = false,
            Action::DismissNotices => next.notices.clear(),
        }
        next.sync_step();
        next
    }
}

impl yew::Reducible for Player {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}
