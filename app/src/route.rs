//! Hash routes: `#/`, `#/about`, `#/case/<id>`, `#/case/<id>/tour/<n>`, plus the
//! test doors `#/__crash` and `#/__perf`, open only on a loopback host (`on_host`).
//!
//! Hash routing works on any static host (no rewrite rules), under any path.
//! A route may carry a query inside the hash (`#/case/<id>?k=v&step=iter:5`);
//! the parser splits it off and keeps it so that a later player can read it.
//! This module is plain Rust with no browser types, so it is unit-tested on the host.

/// Where the app is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `#/`, `#` or no hash at all: the landing page with the list of cases.
    Landing,
    /// `#/about`.
    About,
    /// `#/case/<id>`, with the query part of the hash (without the `?`), if any;
    /// `embed` in the query frames the player alone (see `embedded`).
    ///
    /// The id is kept as written; whether a case with that id exists is the
    /// page's business, not the parser's.
    Case { id: String, query: String },
    /// `#/case/<id>/tour/<n>`: stop n (1-based) of the case's guided tour. `stop` is the
    /// text as written (`""` for `#/case/<id>/tour`); the tour page clamps it to the
    /// tour's stops and says so, since only the case knows how many it has.
    Tour { id: String, stop: String, query: String },
    /// `#/__crash`: panics on purpose so that the browser tests can check the panic overlay.
    Crash,
    /// `#/__perf?tasks=N`: the player on a synthetic many-task load, for the perf script.
    Perf { query: String },
    /// Anything else; `path` is the part after `#`, without the query.
    NotFound { path: String },
}

/// The route segment that panics on purpose.
pub const CRASH_SEGMENT: &str = "__crash";
/// The route segment of the load-test page.
pub const PERF_SEGMENT: &str = "__perf";
/// `#/lab`: the short address a lecture gives for the Lab, the case of this id.
pub const LAB_SEGMENT: &str = "lab";
pub const LAB_CASE: &str = "the-lab";

impl Route {
    /// A case framed in another page (`embed` in its query): no site header or footer.
    pub fn embedded(&self) -> bool {
        self.has_flag("embed")
    }

    /// A page drawn as a case (a case, its tour, the load test): the site's header
    /// is one line and the page is wider (`on-case` in the stylesheet).
    pub fn is_case_page(&self) -> bool {
        matches!(self, Route::Case { .. } | Route::Tour { .. } | Route::Perf { .. })
    }

    /// A case in the presenter view (`present` in its query): no site header or footer.
    pub fn presenting(&self) -> bool {
        self.has_flag("present")
    }

    /// The same route with `flag` (a query key without a value) added or removed:
    /// how the presenter view is entered and left.
    pub fn with_flag_toggled(&self, flag: &str) -> Route {
        let (Route::Case { query, .. } | Route::Tour { query, .. }) = self else { return self.clone() };
        let had = self.has_flag(flag);
        let mut kept: Vec<String> = query
            .split('&')
            .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some(flag))
            .map(str::to_string)
            .collect();
        if !had {
            kept.push(flag.to_string());
        }
        let mut route = self.clone();
        if let Route::Case { query, .. } | Route::Tour { query, .. } = &mut route {
            *query = kept.join("&");
        }
        route
    }

    fn has_flag(&self, flag: &str) -> bool {
        matches!(self, Route::Case { query, .. } | Route::Tour { query, .. }
            if crate::player::url::codec::pairs(query).iter().any(|(key, _)| key == flag))
    }

    /// Parses `location.hash` (with or without the leading `#`).
    ///
    /// Lenient about what people type: a missing leading slash, a trailing
    /// slash and surrounding whitespace are all accepted.
    pub fn parse(hash: &str) -> Route {
        let hash = hash.trim();
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let (path, query) = match hash.split_once('?') {
            Some((path, query)) => (path, query),
            None => (hash, ""),
        };
        let trimmed = path.trim_start_matches('/');
        let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        let segments: Vec<&str> = if trimmed.is_empty() { Vec::new() } else { trimmed.split('/').collect() };
        match segments.as_slice() {
            [] => Route::Landing,
            ["about"] => Route::About,
            [CRASH_SEGMENT] => Route::Crash,
            [PERF_SEGMENT] => Route::Perf { query: query.to_string() },
            [LAB_SEGMENT] => Route::Case { id: LAB_CASE.to_string(), query: query.to_string() },
            ["case", id] => Route::Case { id: decode(id), query: query.to_string() },
            ["case", id, "tour"] => {
                Route::Tour { id: decode(id), stop: String::new(), query: query.to_string() }
            }
            ["case", id, "tour", stop] => {
                Route::Tour { id: decode(id), stop: (*stop).to_string(), query: query.to_string() }
            }
            // `#/case` and `#/case/` name no case: the case page says so and lists them.
            ["case"] => Route::Case { id: String::new(), query: query.to_string() },
            _ => Route::NotFound { path: normalise_not_found(path) },
        }
    }

    /// The same route as the page at `host` shows it: the test doors open only on a
    /// loopback host, where the browser tests and the bench serve the very build that
    /// ships; anywhere else a link to them is an unknown page, so none can be shared.
    pub fn on_host(self, host: &str) -> Route {
        match self {
            Route::Crash if !doors_open(host) => Route::NotFound { path: format!("/{CRASH_SEGMENT}") },
            Route::Perf { .. } if !doors_open(host) => Route::NotFound { path: format!("/{PERF_SEGMENT}") },
            route => route,
        }
    }

    /// The hash for this route, including the leading `#`, for `href`s and `location.hash`.
    pub fn to_hash(&self) -> String {
        match self {
            Route::Landing => "#/".to_string(),
            Route::About => "#/about".to_string(),
            Route::Crash => format!("#/{CRASH_SEGMENT}"),
            Route::Perf { query } if query.is_empty() => format!("#/{PERF_SEGMENT}"),
            Route::Perf { query } => format!("#/{PERF_SEGMENT}?{query}"),
            Route::Case { id, query } if query.is_empty() => format!("#/case/{}", encode(id)),
            Route::Case { id, query } => format!("#/case/{}?{query}", encode(id)),
            Route::Tour { id, stop, query } => {
                let id = encode(id);
                let stop = if stop.is_empty() { String::new() } else { format!("/{stop}") };
                let query = if query.is_empty() { String::new() } else { format!("?{query}") };
                format!("#/case/{id}/tour{stop}{query}")
            }
            Route::NotFound { path } => format!("#{path}"),
        }
    }

    /// Whether two routes show the same page, whatever their queries: a case by its
    /// id, a tour by its case (a tour writes its own stops), any other page by kind.
    pub fn same_page(&self, other: &Route) -> bool {
        match (self, other) {
            (Route::Case { id, .. }, Route::Case { id: other_id, .. })
            | (Route::Tour { id, .. }, Route::Tour { id: other_id, .. }) => id == other_id,
            (Route::NotFound { path }, Route::NotFound { path: other_path }) => path == other_path,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }

    /// A link to a case, without a query.
    pub fn case(id: &str) -> Route {
        Route::Case { id: id.to_string(), query: String::new() }
    }

    /// The query part of the hash, without the `?` (empty if there is none).
    /// Only case routes keep one.
    pub fn query(&self) -> &str {
        match self {
            Route::Case { query, .. } | Route::Tour { query, .. } | Route::Perf { query } => query,
            _ => "",
        }
    }
}

/// A path segment as a link writes it (registered ids need no escaping).
fn encode(segment: &str) -> String {
    crate::player::url::codec::encode(segment)
}

/// A path segment as the page should read it: `%63oredump-threads` is `coredump-threads`.
fn decode(segment: &str) -> String {
    crate::player::url::codec::decode(segment)
}

/// Whether `host` (a URL's hostname) is this machine: the only place the test doors open.
pub fn doors_open(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || host == "::1"
        || host.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
}

/// Gives an unknown path a leading slash so that it reads like the path it is.
fn normalise_not_found(path: &str) -> String {
    if path.starts_with('/') {
        path.to_string()
    } else {
        format!("/{path}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, query: &str) -> Route {
        Route::Case { id: id.to_string(), query: query.to_string() }
    }

    #[test]
    fn the_lab_has_a_short_address() {
        for hash in ["#/lab", "#lab", "#/lab/", "#/lab?v=sjf"] {
            assert!(matches!(Route::parse(hash), Route::Case { ref id, .. } if id == LAB_CASE), "{hash}");
        }
        assert_eq!(Route::parse("#/lab?v=sjf"), Route::Case { id: LAB_CASE.into(), query: "v=sjf".into() });
        assert!(matches!(Route::parse("#/labs"), Route::NotFound { .. }));
    }

    #[test]
    fn empty_and_root_hashes_are_the_landing_page() {
        for hash in ["", "#", "#/", "/", "  #/  ", "#//"] {
            assert_eq!(Route::parse(hash), Route::Landing, "{hash:?}");
        }
    }

    /// The player writes its link back only while the address bar shows its page.
    #[test]
    fn same_page_ignores_the_query_but_not_the_case() {
        let shown = Route::parse("#/case/%63oredump-threads?lv=6&cmp=no-yield");
        assert!(shown.same_page(&case("coredump-threads", "lv=6&step=micro:3")));
        assert!(!shown.same_page(&case("fifo-trigger", "")));
        assert!(!Route::parse(&format!("#/case/{}", "x".repeat(40))).same_page(&shown));
        assert!(!Route::parse("#/about").same_page(&shown));
        assert!(
            Route::parse("#/case/sparse-dump/tour/2").same_page(&Route::parse("#/case/sparse-dump/tour/3?x"))
        );
    }

    /// static/route.js decides, before the app loads, whether a link is the landing,
    /// About or the app's: the same table holds both to the same reading.
    #[test]
    fn the_boot_scripts_table_of_static_pages_agrees_with_the_routes() {
        let table = include_str!("../tests/static_routes.tsv");
        let rows: Vec<(&str, &str)> = table
            .lines()
            .filter(|line| !line.starts_with("# "))
            .filter_map(|line| line.split_once('\t'))
            .collect();
        assert!(rows.len() >= 20, "the table has its rows");
        for (hash, page) in rows {
            let expected = match Route::parse(hash) {
                Route::Landing => "landing",
                Route::About => "about",
                _ => "app",
            };
            assert_eq!(page, expected, "{hash:?}");
        }
    }

    #[test]
    fn about_is_accepted_with_or_without_slashes() {
        for hash in ["#/about", "#about", "#/about/", "/about", "about"] {
            assert_eq!(Route::parse(hash), Route::About, "{hash:?}");
        }
    }

    #[test]
    fn case_routes_keep_the_id_and_the_query() {
        assert_eq!(Route::parse("#/case/rwsem-playground"), case("rwsem-playground", ""));
        assert_eq!(Route::parse("#/case/rwsem-playground/"), case("rwsem-playground", ""));
        assert_eq!(
            Route::parse("#/case/sparse-coredump?k=v&step=iter:5"),
            case("sparse-coredump", "k=v&step=iter:5")
        );
        // A query on a route that does not use it is dropped, not an error.
        assert_eq!(Route::parse("#/about?x=1"), Route::About);
        assert_eq!(Route::parse("#/?x=1"), Route::Landing);
    }

    #[test]
    fn case_without_an_id_is_a_case_route_with_an_empty_id() {
        assert_eq!(Route::parse("#/case"), case("", ""));
        assert_eq!(Route::parse("#/case/"), case("", ""));
    }

    #[test]
    fn the_crash_route_is_recognised() {
        assert_eq!(Route::parse("#/__crash"), Route::Crash);
    }

    #[test]
    fn anything_else_is_not_found_with_its_path() {
        assert_eq!(Route::parse("#/nope"), Route::NotFound { path: "/nope".to_string() });
        assert_eq!(Route::parse("#/case/a/b?q=1"), Route::NotFound { path: "/case/a/b".to_string() });
        assert_eq!(Route::parse("#main"), Route::NotFound { path: "/main".to_string() });
        assert_eq!(Route::parse("#/About"), Route::NotFound { path: "/About".to_string() });
    }

    #[test]
    fn to_hash_formats_every_route() {
        assert_eq!(Route::Landing.to_hash(), "#/");
        assert_eq!(Route::About.to_hash(), "#/about");
        assert_eq!(Route::Crash.to_hash(), "#/__crash");
        assert_eq!(Route::case("x").to_hash(), "#/case/x");
        assert_eq!(case("x", "a=1&step=iter:5").to_hash(), "#/case/x?a=1&step=iter:5");
    }

    #[test]
    fn parse_inverts_to_hash() {
        let routes = [
            Route::Landing,
            Route::About,
            Route::Crash,
            Route::case("rwsem-playground"),
            case("sparse-coredump", "k=v&step=iter:5"),
            case("", ""),
            Route::NotFound { path: "/nope/deeper".to_string() },
        ];
        for route in routes {
            assert_eq!(Route::parse(&route.to_hash()), route, "{route:?}");
        }
    }

    fn tour(id: &str, stop: &str, query: &str) -> Route {
        Route::Tour { id: id.to_string(), stop: stop.to_string(), query: query.to_string() }
    }

    #[test]
    fn tour_routes_keep_the_stop_as_written() {
        assert_eq!(Route::parse("#/case/fifo-trigger/tour/2"), tour("fifo-trigger", "2", ""));
        assert_eq!(Route::parse("case/fifo-trigger/tour/2/"), tour("fifo-trigger", "2", ""));
        assert_eq!(Route::parse("#/case/x/tour"), tour("x", "", ""));
        assert_eq!(Route::parse("#/case/x/tour/3?present"), tour("x", "3", "present"));
        assert!(Route::parse("#/case/x/tour/3?present").presenting());
        assert!(Route::parse("#/case/x/tour/3?embed").embedded());
        // Hostile stops are kept as text for the tour page to clamp and explain.
        for stop in ["0", "-1", "abc", "99999999999999999999999", "%00", "1e3", "\u{1b}[2J"] {
            assert_eq!(Route::parse(&format!("#/case/x/tour/{stop}")), tour("x", stop, ""), "{stop:?}");
        }
        // Anything deeper is no page.
        assert_eq!(
            Route::parse("#/case/x/tour/1/2"),
            Route::NotFound { path: "/case/x/tour/1/2".to_string() }
        );
        assert_eq!(Route::parse("#/case/x/tours/1"), Route::NotFound { path: "/case/x/tours/1".to_string() });
    }

    #[test]
    fn tour_routes_round_trip_and_toggle_flags() {
        for route in [tour("x", "2", ""), tour("x", "", ""), tour("x", "5", "present"), tour("", "1", "")] {
            assert_eq!(Route::parse(&route.to_hash()), route, "{route:?}");
        }
        assert_eq!(tour("x", "2", "").to_hash(), "#/case/x/tour/2");
        assert_eq!(tour("x", "2", "").with_flag_toggled("present"), tour("x", "2", "present"));
        assert_eq!(tour("x", "2", "present").with_flag_toggled("present"), tour("x", "2", ""));
        assert_eq!(Route::parse("#/case/x/tour/2?a=1").query(), "a=1");
    }

    #[test]
    fn query_is_only_kept_on_case_routes() {
        assert_eq!(Route::parse("#/case/x?step=3").query(), "step=3");
        assert_eq!(Route::parse("#/about?step=3").query(), "");
    }
}
