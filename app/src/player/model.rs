//! The player's one reducer (Yew's function_todomvc pattern): a closed
//! `Action` enum and a pure `Player::apply`, tested on the host.

use super::compare::{aligned, Aligned};
use super::link::OpenedLink;
use super::url::{Align, CompareSide, PlayerQuery};
use slowpath_engine::run::params::Notice;
use slowpath_engine::run::timeline::Timeline;
use slowpath_engine::run::trace::Granularity;
use slowpath_engine::{run_checked, Case, CaseMeta, Run};
use std::rc::Rc;

pub use crate::worker::RunKey;

/// How playback moves: by steps at the selected granularity, or by simulated
/// time (many steps coalesced into one frame, counters moving smoothly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Units of the selected granularity per second.
    Steps(u32),
    /// `sim` ns of simulated time per `real` ns of real time (real time is 1 / 1).
    Scale { sim: u64, real: u64 },
    /// The whole run in this many seconds, however long it is.
    WholeRunIn(u32),
    /// As fast as frames allow: a fixed share of the run's units per frame.
    Max,
}

/// The speeds offered, slowest first; `[` and `]` move along this list.
pub const SPEEDS: [(&str, Pace); 13] = [
    ("1 step/s", Pace::Steps(1)),
    ("5 steps/s", Pace::Steps(5)),
    ("30 steps/s", Pace::Steps(30)),
    ("1,000 steps/s", Pace::Steps(1000)),
    ("1/10,000 of real time", Pace::Scale { sim: 1, real: 10_000 }),
    ("1/1,000 of real time", Pace::Scale { sim: 1, real: 1000 }),
    ("1/100 of real time", Pace::Scale { sim: 1, real: 100 }),
    ("1/10 of real time", Pace::Scale { sim: 1, real: 10 }),
    ("real time", Pace::Scale { sim: 1, real: 1 }),
    ("10 × real time", Pace::Scale { sim: 10, real: 1 }),
    ("whole run in 10 s", Pace::WholeRunIn(10)),
    ("whole run in 20 s", Pace::WholeRunIn(20)),
    ("max", Pace::Max),
];
/// 5 steps a second: the speed for a case that names none.
pub const DEFAULT_SPEED: usize = 1;

/// The index of `pace` in [`SPEEDS`] (a case's default), or the default speed.
pub fn speed_of(pace: Pace) -> usize {
    SPEEDS.iter().position(|(_, p)| *p == pace).unwrap_or(DEFAULT_SPEED)
}

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
    /// One playback frame at a time pace: advance the playback clock by this much
    /// simulated time and show the last step at or before it.
    AdvanceTime(u64),
    SetParam {
        name: String,
        text: String,
    },
    SetVariant(String),
    SetSeed(u64),
    ToggleHelp,
    CloseHelp,
    /// The presenter view's QR code of the link, shown or hidden.
    ToggleQr,
    DismissNotices,
    /// The run the query asks for has arrived (from the engine's worker).
    RunReady(RunHandle),
    /// The run the query asked for could not be made (cancelled, failed): the
    /// query goes back to the run on screen, and a notice says why.
    RunFailed(String),
    /// Compare mode on (or its second side changed) with this variant; the
    /// second side starts from the first side's parameters and seed.
    CompareWith(String),
    /// Compare mode off.
    StopCompare,
    SetCompareParam {
        name: String,
        text: String,
    },
    SetCompareSeed(u64),
    SetAlign(Align),
    /// The second side's run has arrived.
    CompareReady(RunHandle),
    /// The second side's run could not be made.
    CompareFailed(String),
}

/// A run in an action: compared by identity (two runs are the same only if
/// they are one object; comparing traces would cost a walk of both).
#[derive(Clone)]
pub struct RunHandle(pub Rc<Run>);

impl PartialEq for RunHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for RunHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RunHandle({} {} seed {})", self.0.case, self.0.variant, self.0.seed)
    }
}

#[derive(Clone)]
pub struct Player {
    pub meta: &'static CaseMeta,
    /// The case the player was handed (None for a preset's synthetic run): it makes
    /// the runs a changed parameter asks for.
    pub case: Option<&'static dyn Case>,
    pub query: PlayerQuery,
    pub run: Rc<Run>,
    /// The run's timeline, made when the timeline is first drawn (below the first
    /// screen, often never on a phone).
    pub timeline: LazyTimeline,
    pub position: u64,
    pub playing: bool,
    pub speed: usize,
    /// Simulated time of the playback clock: the time at `position`, or ahead of
    /// it while playing by time (between two steps).
    pub clock_ns: u64,
    pub notices: Vec<Notice>,
    pub help: bool,
    /// The presenter view shows the link's QR code (toggled with `q`).
    pub qr: bool,
    /// Compare mode's second run, once it has arrived (it may be an earlier
    /// one while the worker makes the one `query.compare` asks for).
    pub other: Option<Rc<Run>>,
    /// Where the second run stands: one transport drives both (`compare::aligned`).
    pub other_at: Aligned,
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
            && self.qr == other.qr
            && self.other_at == other.other_at
            && match (&self.other, &other.other) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// A run's timeline, made once, on first use (`get`), and shared by the clones of
/// a player with that run (a new run gets a new, empty one).
#[derive(Clone, Default)]
pub struct LazyTimeline(Rc<std::cell::OnceCell<Rc<Timeline>>>);

impl LazyTimeline {
    /// The timeline of `run`, the run this one was made empty for.
    pub fn get(&self, run: &Run) -> Rc<Timeline> {
        self.0.get_or_init(|| Rc::new(run.timeline())).clone()
    }
}

/// A run made outside the registry (the synthetic load of the perf route).
pub struct Preset {
    pub run: Rc<Run>,
}

/// The inputs of the run `query` asks for.
pub fn run_key(meta: &'static CaseMeta, query: &PlayerQuery) -> RunKey {
    RunKey { case: meta.id, variant: query.variant, seed: query.seed, params: query.params.clone() }
}

/// The inputs of compare mode's second run.
pub fn compare_key(meta: &'static CaseMeta, side: &CompareSide) -> RunKey {
    RunKey { case: meta.id, variant: side.variant, seed: side.seed, params: side.params.clone() }
}

fn key_of(run: &Run) -> RunKey {
    RunKey { case: run.case, variant: run.variant, seed: run.seed, params: run.params.clone() }
}

/// Runs `case` here, on this thread (host tests; the page asks the engine's worker
/// instead).
pub fn execute(case: &'static dyn Case, query: &PlayerQuery) -> Run {
    // The query was validated against the schema, so this cannot fail; if it ever
    // did, the panic overlay would report it rather than show a wrong run.
    run_checked(case, &query.params, query.variant, query.seed).expect("validated parameters run")
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
                    "this run has {}, so step {unit} does not exist; showing the end",
                    super::url::steps_of(count, granularity.key())
                ),
            };
            (run.total_ops(), Some(notice))
        }
    }
}

impl Player {
    /// Opens a case from a link, making its run here.
    pub fn open(case: &'static dyn Case, link: &OpenedLink) -> Player {
        let query = &link.query;
        let run = execute(case, query);
        let player = Player::open_with_run(case, link, Rc::new(run));
        match &query.compare {
            Some(side) => {
                let second = PlayerQuery {
                    variant: side.variant,
                    params: side.params.clone(),
                    seed: side.seed,
                    ..query.clone()
                };
                let other = execute(case, &second);
                player.apply(Action::CompareReady(RunHandle(Rc::new(other))))
            }
            None => player,
        }
    }

    /// Opens a case from a link with its run, made elsewhere (the engine's worker)
    /// from the same link.
    pub fn open_with_run(case: &'static dyn Case, link: &OpenedLink, run: Rc<Run>) -> Player {
        let meta = case.meta();
        let (query, mut notices) = (link.query.clone(), link.notices.clone());
        debug_assert_eq!(run.variant, query.variant, "the run was made from this query");
        let (position, notice) = super::url::place::place(&run, &link.text, query.step);
        notices.extend(notice);
        let timeline = LazyTimeline::default();
        let mut player = Player {
            meta,
            case: Some(case),
            query,
            run,
            timeline,
            position,
            playing: false,
            speed: DEFAULT_SPEED,
            clock_ns: 0,
            notices,
            help: false,
            qr: true,
            other: None,
            other_at: Aligned { position: 0, ended: false },
        };
        player.sync_step();
        player.clock_ns = player.run.time_at(position);
        player
    }

    /// Opens a run built elsewhere (the perf route's synthetic load), at its start.
    pub fn from_preset(meta: &'static CaseMeta, preset: &Preset) -> Player {
        let run = preset.run.clone();
        Player {
            meta,
            case: None,
            query: PlayerQuery::defaults(meta),
            timeline: LazyTimeline::default(),
            run,
            position: 0,
            playing: false,
            speed: DEFAULT_SPEED,
            clock_ns: 0,
            notices: Vec::new(),
            help: false,
            qr: true,
            other: None,
            other_at: Aligned { position: 0, ended: false },
        }
    }

    /// Keeps `query.step`, and where it lies by chapter, in step with `position`
    /// (what the URL writes).
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
        self.query.chapter = self.query.step.and_then(|step| super::url::chapter::mark_of(&self.run, step));
    }

    /// The index shown at the selected granularity (0-based), None at the start.
    pub fn index(&self) -> Option<u64> {
        self.run.index_at(self.position, self.query.granularity)
    }

    pub fn at_end(&self) -> bool {
        self.position >= self.run.total_ops()
    }

    /// The run the query asks for, when it is not the one on screen (a parameter,
    /// the variant or the seed changed): the page asks the engine's worker for it.
    pub fn wanted(&self) -> Option<RunKey> {
        let query = &self.query;
        let same = self.run.params == query.params
            && self.run.variant == query.variant
            && self.run.seed == query.seed;
        (!same && self.case.is_some()).then(|| run_key(self.meta, query))
    }

    /// Compare mode's second run, when it is not the one held (the worker makes it).
    pub fn wanted_compare(&self) -> Option<RunKey> {
        let side = self.query.compare.as_ref()?;
        self.case?;
        let key = compare_key(self.meta, side);
        (self.other.as_deref().map(key_of) != Some(key.clone())).then_some(key)
    }

    /// Moves the second run to where the first one is (the alignment rule).
    fn align_other(&mut self) {
        self.other_at = match &self.other {
            Some(other) if self.query.compare.is_some() => aligned(
                &self.run,
                self.position,
                self.clock_ns,
                other,
                self.query.align,
                self.query.granularity,
            ),
            _ => Aligned { position: 0, ended: false },
        };
    }

    /// The query changed what to run: stop playing until the new run arrives.
    fn rerun(&mut self) {
        self.playing = false;
    }

    /// Puts `run` on screen if it is the one the query asks for.
    fn install(&mut self, run: Rc<Run>) {
        if self.wanted()
            != Some(RunKey {
                case: run.case,
                variant: run.variant,
                seed: run.seed,
                params: run.params.clone(),
            })
        {
            return;
        }
        // Keep the position when it still exists in the new run.
        let (position, notice) = position_for(&run, self.query.step);
        self.notices.extend(notice);
        self.timeline = LazyTimeline::default();
        self.run = run;
        self.position = position;
        self.playing = false;
        self.sync_step();
        self.clock_ns = self.run.time_at(self.position);
        self.align_other();
    }

    pub fn apply(&self, action: Action) -> Player {
        let mut next = self.apply_first(action);
        next.align_other();
        next
    }

    /// An action, with the second side left where it was (`apply` aligns it).
    fn apply_first(&self, action: Action) -> Player {
        let mut next = self.clone();
        let run = &*self.run;
        let granularity = self.query.granularity;
        match action {
            Action::StepForward => next.position = run.step_forward(self.position, granularity),
            Action::StepBack => next.position = run.step_back(self.position, granularity),
            Action::StepForwardCoarse => {
                next.position = run.step_forward(self.position, granularity.coarser())
            }
            Action::StepBackCoarse => next.position = run.step_back(self.position, granularity.coarser()),
            Action::ToStart => next.position = 0,
            Action::ToEnd => next.position = run.total_ops(),
            // The nearest key moment: a chapter or another notable event, whichever comes first.
            Action::NextNotable => {
                next.position = run.next_key_moment(self.position).unwrap_or(self.position)
            }
            Action::PreviousNotable => {
                next.position = run.previous_key_moment(self.position).unwrap_or(self.position)
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
                let index = Granularity::ALL.iter().position(|each| *each == granularity).unwrap_or(0);
                next.query.granularity = Granularity::ALL[(index + 1) % Granularity::ALL.len()];
            }
            Action::SetGranularity(chosen) => next.query.granularity = chosen,
            Action::Seek(position) => next.position = position.min(run.total_ops()),
            Action::SeekTime(at_ns) => next.position = run.position_at_time(at_ns),
            Action::AdvanceTime(ns) => {
                next.clock_ns = self.clock_ns.saturating_add(ns);
                next.position = run.position_at_time(next.clock_ns).max(self.position);
                if next.at_end() {
                    next.playing = false;
                }
                next.sync_step();
                // The clock runs ahead of the last step: keep it (everything else re-reads it).
                return next;
            }
            Action::Advance(units) => {
                let mut position = self.position;
                for _ in 0..units {
                    position = run.step_forward(position, granularity);
                    if position >= run.total_ops() {
                        break;
                    }
                }
                next.position = position;
                if next.at_end() {
                    next.playing = false;
                }
            }
            Action::SetAlign(align) => next.query.align = align,
            action @ (Action::SetParam { .. } | Action::SetVariant(_) | Action::SetSeed(_)) => {
                return self.with_query(next, action)
            }
            action @ (Action::CompareWith(_)
            | Action::StopCompare
            | Action::SetCompareParam { .. }
            | Action::SetCompareSeed(_)) => return self.with_compare(next, action),
            action @ (Action::RunReady(_)
            | Action::RunFailed(_)
            | Action::CompareReady(_)
            | Action::CompareFailed(_)) => return self.with_result(next, action),
            Action::ToggleHelp => next.help = !self.help,
            Action::ToggleQr => next.qr = !self.qr,
            Action::CloseHelp => next.help = false,
            Action::DismissNotices => next.notices.clear(),
        }
        next.sync_step();
        next.clock_ns = next.run.time_at(next.position);
        next
    }

    /// A change to the run asked for (a parameter, the variant, the seed): the run
    /// is made again, and the second side follows what it does not set itself.
    fn with_query(&self, mut next: Player, action: Action) -> Player {
        match action {
            Action::SetParam { name, text } => {
                if let Some(spec) = self.meta.params.iter().find(|spec| spec.name == name) {
                    let (value, notice) = spec.parse_clamped(&text);
                    next.notices.retain(|held| held.param != name);
                    next.notices.extend(notice);
                    if self.query.params.0.get(spec.name) != Some(&value) {
                        // The second side follows a parameter it does not set otherwise.
                        if let Some(side) = next.query.compare.as_mut() {
                            if side.params.0.get(spec.name) == self.query.params.0.get(spec.name) {
                                side.params.0.insert(spec.name.to_string(), value.clone());
                            }
                        }
                        next.query.params.0.insert(spec.name.to_string(), value);
                        next.rerun();
                    }
                }
            }
            Action::SetVariant(id) => {
                if let Some(variant) = self.meta.variant(&id) {
                    if variant.id != self.query.variant {
                        next.query.variant = variant.id;
                        next.rerun();
                    }
                }
            }
            Action::SetSeed(seed) if seed != self.query.seed => {
                if let Some(side) = next.query.compare.as_mut().filter(|side| side.seed == self.query.seed) {
                    side.seed = seed;
                }
                next.query.seed = seed;
                next.rerun();
            }
            _ => {}
        }
        next
    }

    /// A change to the second side: which variant, its parameters and seed, or none.
    fn with_compare(&self, mut next: Player, action: Action) -> Player {
        match action {
            Action::CompareWith(id) => {
                if let Some(variant) = self.meta.variant(&id) {
                    let side = next.query.compare.get_or_insert_with(|| CompareSide {
                        variant: variant.id,
                        params: self.query.params.clone(),
                        seed: self.query.seed,
                    });
                    side.variant = variant.id;
                    next.playing = false;
                }
            }
            Action::StopCompare => {
                next.query.compare = None;
                next.other = None;
            }
            Action::SetCompareParam { name, text } => {
                let spec = self.meta.params.iter().find(|spec| spec.name == name);
                if let (Some(spec), Some(side)) = (spec, next.query.compare.as_mut()) {
                    let (value, notice) = spec.parse_clamped(&text);
                    let key = format!("cmp.{name}");
                    next.notices.retain(|held| held.param != key);
                    next.notices.extend(notice.map(|clamped| Notice { param: key, ..clamped }));
                    side.params.0.insert(spec.name.to_string(), value);
                    next.playing = false;
                }
            }
            Action::SetCompareSeed(seed) => {
                if let Some(side) = next.query.compare.as_mut() {
                    side.seed = seed;
                    next.playing = false;
                }
            }
            _ => {}
        }
        next
    }

    /// A run made (or not) by the worker, for this side or the second.
    fn with_result(&self, mut next: Player, action: Action) -> Player {
        match action {
            Action::CompareReady(RunHandle(run)) if self.wanted_compare() == Some(key_of(&run)) => {
                next.other = Some(run);
            }
            Action::CompareFailed(why) if self.wanted_compare().is_some() => {
                // Back to the second run held, or out of compare mode without one.
                next.query.compare = self.other.as_deref().map(|other| CompareSide {
                    variant: other.variant,
                    params: other.params.clone(),
                    seed: other.seed,
                });
                next.notices.push(Notice {
                    param: "cmp".to_string(),
                    message: format!("the run to compare with was not made ({why})"),
                });
            }
            Action::RunReady(RunHandle(run)) => next.install(run),
            Action::RunFailed(why) if self.wanted().is_some() => {
                next.query.params = self.run.params.clone();
                next.query.variant = self.run.variant;
                next.query.seed = self.run.seed;
                next.notices.push(Notice {
                    param: "run".to_string(),
                    message: format!("the new run was not made ({why}); showing the previous one"),
                });
            }
            _ => {}
        }
        next
    }
}

impl yew::Reducible for Player {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}
