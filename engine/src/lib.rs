//! slowpath's engine: a deterministic simulation of the kernel's slow paths.
//!
//! No IO, no wall clock, no OS randomness, no wasm or DOM: the same inputs give
//! the same trace natively and in the browser. See ARCHITECTURE.md.
//!
//! Three layers, dependencies pointing down only:
//! - [`registry`]: the one list of cases, above everything else;
//! - [`case`] and [`cases`]: the `Case` trait and one module per case;
//! - [`kernel`]: kernel models several cases share (schedulers, locks, the maple tree);
//! - [`run`]: the run machinery (parameters, the simulated world, traces, views);
//! - [`tour`]: guided tours, data each case declares and the registry checks;
//! - [`export`]: a run written for other tools (Perfetto JSON, CSV, SVG).

pub mod case;
pub mod cases;
pub mod export;
pub mod kernel;
pub mod registry;
pub mod run;
pub mod tour;

pub use case::{run_checked, Case, CaseMeta, RunError};
pub use registry::{find, listed, registry, simulation, simulations};
pub use run::params::{Notice, ParamKind, ParamSpec, ParamValue, ParamValues};
pub use run::trace::{Granularity, Metric, Outcome, Run};
pub use run::view::View;
