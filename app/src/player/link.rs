//! A link's query, parsed once, where the page opens the player: the loader asks the
//! worker for its run and the player opens on it, both from this one parse, so the
//! notices the parse gave (a clamped value, an unknown variant) reach the page.

use super::url::PlayerQuery;
use slowpath_engine::run::params::Notice;
use slowpath_engine::CaseMeta;
use std::rc::Rc;

/// What a link asks the player for, and what the parse had to change to get there.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenedLink {
    /// The query as written: how the link was made (its version) and what it typed,
    /// for where its step is placed (`url::place`).
    pub text: String,
    pub query: PlayerQuery,
    pub notices: Vec<Notice>,
}

impl OpenedLink {
    /// Parses a link's query (the part of the hash after `?`) against its case.
    pub fn parse(meta: &'static CaseMeta, text: &str) -> Rc<OpenedLink> {
        let (query, notices) = PlayerQuery::parse(meta, text);
        Rc::new(OpenedLink { text: text.to_string(), query, notices })
    }

    /// A state built in the app (a tour stop), which needs no parse: its text is the
    /// link this build writes for it.
    pub fn of(meta: &'static CaseMeta, query: PlayerQuery) -> Rc<OpenedLink> {
        Rc::new(OpenedLink { text: query.to_query(meta), query, notices: Vec::new() })
    }
}
