//! The run machinery every case uses and no case is known to: parameters, the
//! simulated world and its effects, the trace builder, runs and their queries,
//! views, timelines, narration and the trace hash.

pub mod budget;
pub mod builder;
pub mod chapters;
pub mod cursor;
pub mod format;
pub mod hash;
pub mod lock;
pub mod measured;
pub mod narration;
pub mod outcome;
pub mod params;
pub mod progress;
pub mod quote;
pub mod rng;
pub mod sort;
pub mod synthetic;
pub mod timeline;
pub mod timing;
pub mod trace;
pub mod view;
pub mod wire;
pub mod world;
