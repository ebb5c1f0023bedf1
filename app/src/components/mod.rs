//! Building blocks shared by the pages.

mod case_card;
mod code_spans;
mod figures;
mod footer;
mod header;
mod later;

pub use case_card::case_list;
pub use code_spans::code_spans;
pub use figures::TitleFigures;
#[cfg(feature = "prerender")]
pub use figures::{default_run_key, KnownHeadlines};
pub use footer::site_footer;
pub use header::site_header;
pub use later::{announce, use_parts_shown_on_approach, BELOW_EVENT, DETAILS_SHOWN_EVENT, GOING_BELOW};

use slowpath_engine::CaseMeta;

/// A case's static description, as a prop.
///
/// Metadata lives in statics, so two handles are equal when they point at the same one.
#[derive(Clone, Copy, Debug)]
pub struct MetaRef(pub &'static CaseMeta);

impl PartialEq for MetaRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
