//! One component per route.

mod about;
mod case;
mod crash;
mod landing;
mod not_found;
mod perf;
mod remember;
mod tour;

pub use about::about_page;
pub use case::case_page;
pub use crash::crash_page;
pub use landing::landing_page;
pub use not_found::not_found_page;
pub use perf::PerfPage;
pub use tour::tour_page;
