//! Memory-management structures: the maple tree that indexes VMAs.

pub mod maple;
