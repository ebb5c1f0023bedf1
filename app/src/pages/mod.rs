//! One component per route.

#[cfg(feature = "prerender")]
mod about;
mod case;
mod crash;
#[cfg(feature = "prerender")]
mod landing;
mod not_found;
mod perf;
mod remember;
mod tour;

#[cfg(feature = "prerender")]
pub use about::about_page;
#[cfg(feature = "prerender")]
pub use case::case_header;
pub use case::case_page;
pub use crash::crash_page;
#[cfg(feature = "prerender")]
pub use landing::landing_page;
pub use not_found::not_found_page;
pub use perf::PerfPage;
pub use tour::tour_page;
