//! slowpath's engine: a deterministic simulation of the kernel's slow paths.
//!
//! No IO, no wall clock, no OS randomness, no wasm or DOM: the same inputs give
//! the same trace natively and in the browser. See ARCHITECTURE.md.

pub mod params;
pub mod scenario;
pub mod scenarios;
pub mod trace;

pub use params::{Notice, ParamKind, ParamSpec, ParamValue, ParamValues};
pub use scenario::{find, registry, run_checked, RunError, Scenario, ScenarioMeta};
