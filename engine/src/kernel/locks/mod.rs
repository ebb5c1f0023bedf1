//! Lock policies: who gets a lock next. The lock *state* they decide over
//! (holders, wait queue, statistics) is the world's, in `run::lock`.

pub mod gosync;
pub mod mutex;
pub mod rwsem;
