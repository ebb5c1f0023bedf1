//! One component per route.

mod about;
mod case;
mod crash;
mod landing;
mod not_found;
mod perf;
mod tour;

pub use about::AboutPage;
pub use case::CasePage;
pub use crash::CrashPage;
pub use landing::LandingPage;
pub use not_found::NotFoundPage;
pub use perf::PerfPage;
pub use tour::TourPage;
