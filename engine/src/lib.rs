//! slowpath's engine: a deterministic simulation of the kernel's slow paths.
//!
//! No IO, no wall clock, no OS randomness, no wasm or DOM: the same inputs give
//! the same trace natively and in the browser. See ARCHITECTURE.md.

pub mod builder;
pub mod extras;
pub mod goodness;
pub mod hash;
pub mod lock;
pub mod maple;
pub mod mutex;
pub mod narration;
pub mod o1;
pub mod params;
pub mod rng;
pub mod rwsem;
pub mod scenario;
pub mod scenarios;
pub mod sched;
pub mod synthetic;
pub mod timeline;
pub mod trace;
pub mod view;
pub mod world;

pub use params::{Notice, ParamKind, ParamSpec, ParamValue, ParamValues};
pub use scenario::{find, registry, run_checked, RunError, Scenario, ScenarioMeta};
pub use trace::{Granularity, Metric, Outcome, Run};
pub use view::View;
