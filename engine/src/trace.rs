//! Placeholder while the step tree is written.
pub struct Run;
