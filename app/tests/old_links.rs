//! Links are forever: every link in `old_links.tsv` (one from each earlier version of
//! the link grammar) opens with the parameters it was made with, directly when its
//! version's defaults agree with today's reading of an untagged link, else through
//! the one notice that offers that reading, and its step exists.

use slowpath_app::player::url::versions::VERSION_KEY;
use slowpath_app::player::url::PlayerQuery;
use slowpath_app::route::Route;

const LIST: &str = include_str!("old_links.tsv");

struct OldLink {
    link: &'static str,
    version: u32,
    today: &'static str,
    source: &'static str,
}

fn old_links() -> Vec<OldLink> {
    LIST.lines()
        .filter(|line| !line.starts_with("//") && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "four tab-separated fields: {line:?}");
            OldLink {
                link: fields[0],
                version: fields[1].parse().expect("a version"),
                today: fields[2],
                source: fields[3],
            }
        })
        .collect()
}

#[test]
fn every_old_link_opens_as_it_was_made() {
    let links = old_links();
    assert!(links.len() >= 30, "{} links", links.len());
    let mut unfilled = Vec::new();
    for old in &links {
        match Route::parse(old.link) {
            Route::Tour { id, stop, .. } => {
                let case = slowpath_engine::find(&id).unwrap_or_else(|| panic!("{}: no case {id}", old.link));
                let stop: usize = stop.parse().expect("a stop number");
                assert!((1..=case.meta.tour.stops.len()).contains(&stop), "{}: the stop exists", old.link);
            }
            Route::Case { id, query } => {
                let case =
                    slowpath_engine::simulation(&id).unwrap_or_else(|| panic!("{}: no case {id}", old.link));
                let meta = case.meta();
                let (then, _) = PlayerQuery::parse(meta, &format!("{VERSION_KEY}={}&{query}", old.version));
                let written = then.to_query(meta);
                // The list's `today` is read by its own `lv`: a later version that changes
                // no default (6 added where a step lies by chapter) leaves it as it was.
                if old.today == "?" || PlayerQuery::parse(meta, old.today).0 != then {
                    unfilled.push(format!("{}\t{}\t{written}", old.link, old.version));
                    continue;
                }
                let (now, notices) = PlayerQuery::parse(meta, &query);
                if now != then {
                    // An untagged link read otherwise today says so, and links to how it was made.
                    let offered = format!("#/case/{}?{written}", meta.id);
                    let versioned: Vec<_> = notices.iter().filter(|n| n.param == VERSION_KEY).collect();
                    assert_eq!(versioned.len(), 1, "{}: one version notice: {notices:?}", old.link);
                    assert!(
                        versioned[0].message.split(' ').any(|word| word == offered),
                        "{}: the notice offers {offered}: {}",
                        old.link,
                        versioned[0].message
                    );
                }
                if let Some((granularity, unit)) = then.step {
                    let run = slowpath_engine::run_checked(case, &then.params, then.variant, then.seed)
                        .expect("a valid state runs");
                    let exists = run.position_after(granularity, unit).is_some();
                    // Only a link made past the end on purpose may miss (it opens at the end, said).
                    assert!(exists || old.source.contains("(past"), "{}: the step exists", old.link);
                }
            }
            other => panic!("{}: not a case link: {other:?}", old.link),
        }
    }
    assert!(unfilled.is_empty(), "links whose state today differs from the list:\n{}", unfilled.join("\n"));
}
