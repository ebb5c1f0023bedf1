//! The sparse core dump's stage: the address space with the walk's cursor, the
//! maple-tree descent of the current lookup, the page-table walk, lock churn,
//! SIGKILL, and where the time went beside the seed's profile. Everything comes
//! from the run: static structures from `Run::extras`, the current address,
//! descent and walk from the ops of the current iteration.

use slowpath_engine::cases::sparse_dump::AddressSpace;
use slowpath_engine::kernel::mm::maple::Slot;
use slowpath_engine::run::format;
use slowpath_engine::run::narration::{group_digits, Arg};
use slowpath_engine::run::trace::{Granularity, Metric, OpKind};
use slowpath_engine::run::view::View;
use slowpath_engine::Run;
use yew::prelude::*;

use crate::cases::StageProps;

/// A maple node visit of the current iteration: node, pivots compared, slot taken.
#[derive(Clone, Copy, PartialEq)]
struct Visit {
    node: u64,
    compared: u64,
    slot: u64,
}

/// What the current iteration has done so far (up to the position), or, before its
/// lookup has begun, the page before's whole lookup (`previous`): while playing the
/// cursor lands anywhere in a page's few steps, and a stage that blanked at each
/// page's first steps would look frozen.
#[derive(Default, PartialEq)]
struct Current {
    address: Option<u64>,
    visits: Vec<Visit>,
    walk: Option<(u64, bool)>,
    previous: bool,
}

fn current(run: &Run, position: u64) -> Current {
    let Some(last) = position.checked_sub(1) else { return Current::default() };
    let iteration = run.unit_of(last, Granularity::Iteration);
    let Some((first, _)) = run.unit_ops(Granularity::Iteration, iteration) else { return Current::default() };
    let found = lookup_in(run, first, position);
    if !found.visits.is_empty() || iteration == 0 {
        return found;
    }
    match run.unit_ops(Granularity::Iteration, iteration - 1) {
        Some((before, end)) => {
            let earlier = lookup_in(run, before, end);
            if earlier.visits.is_empty() {
                found
            } else {
                Current { previous: true, ..earlier }
            }
        }
        None => found,
    }
}

/// The lookup among ops `[first, end)`: its address, node visits and page walk.
fn lookup_in(run: &Run, first: u64, end: u64) -> Current {
    let mut found = Current::default();
    for index in first..end {
        let Some(op) = run.op(index) else { break };
        match (op.kind, op.args.as_slice()) {
            (OpKind::TreeVisit, [Arg::Addr(addr)]) => found.address = Some(*addr),
            (OpKind::TreeVisit, [Arg::Count(node), _, Arg::Count(compared), Arg::Count(slot), ..]) => {
                found.visits.push(Visit { node: *node, compared: *compared, slot: *slot })
            }
            (OpKind::PageWalk, [Arg::Addr(addr), Arg::Word(_), Arg::Count(levels)]) => {
                found.address = Some(*addr);
                found.walk = Some((*levels, false));
            }
            (OpKind::PageWalk, [Arg::Addr(addr), Arg::Count(levels)]) => {
                found.address = Some(*addr);
                found.walk = Some((*levels, true));
            }
            _ => {}
        }
    }
    found
}

fn counter(view: &View, name: &str) -> u64 {
    view.counters.iter().find(|(key, _)| key == name).map_or(0, |(_, value)| *value)
}

#[function_component(AddressSpaceStage)]
pub fn address_space_stage(props: &StageProps) -> Html {
    let Some(space) = props.run.extras::<AddressSpace>() else { return html! {} };
    let now = current(&props.run, props.view.position);
    html! {
        <section class="panel stage" aria-labelledby="stage-title" data-testid="stage">
            <h2 id="stage-title">{ "The dump, up close" }</h2>
            <p class="stage-address" data-testid="stage-address" data-lookup={if now.previous { "previous" } else { "current" }}>
                { if now.previous { "Last address looked up (the page before; this page's lookup has not begun): " } else { "Current address: " } }
                <code>{ now.address.map_or("—".to_string(), |a| format!("{a:#x}")) }</code>
                { " · " }{ space.machine }
            </p>
            { strip(space, now.address) }
            <div class="stage-row">
                { tree(space, &now.visits, now.previous) }
                { walk(space, now.walk, now.previous) }
            </div>
            { churn(&props.view) }
        </section>
    }
}

/// Where the whole run's time went, beside the seed's profile: a figure of the
/// whole run that does not move, so it sits below the stage, not on it.
pub fn cost_breakdown(run: &Run) -> Html {
    let Some(space) = run.extras::<AddressSpace>() else { return html! {} };
    html! {
        <section class="panel stage" aria-labelledby="costs-title">
            <h2 id="costs-title">{ "Where the time went" }</h2>
            { costs(space, run) }
        </section>
    }
}

/// VMAs on a log axis (the big mapping would hide all others at scale), touched
/// pages marked, the part of the current VMA already walked shaded.
fn strip(space: &AddressSpace, address: Option<u64>) -> Html {
    const SHOWN_MAX: usize = 48;
    let shown: Vec<_> =
        space.vmas.iter().filter(|vma| vma.dump_bytes > 0 || vma.big).take(SHOWN_MAX).collect();
    let hidden = space.vmas.len() - shown.len();
    html! {
        <figure class="strip-figure">
            <div class="strip" role="img" data-testid="address-strip"
                aria-label={format!("{} mappings on a logarithmic axis; the walk is at {}", space.vmas.len(),
                    address.map_or("the start".to_string(), |a| format!("{a:#x}")))}>
                { for shown.iter().map(|vma| {
                    let size = vma.end - vma.start;
                    let weight = (size as f64).log2().max(12.0) - 11.0;
                    let inside = address.filter(|a| (vma.start..vma.end).contains(a));
                    let done = inside.map(|a| (a - vma.start) as f64 / size as f64 * 100.0);
                    html! {
                        <div class={classes!("vma", vma.big.then_some("big"), inside.is_some().then_some("current"))}
                            style={format!("flex-grow: {}", slowpath_engine::run::format::Fixed(weight, 2))}
                            title={format!("{} {:#x}–{:#x} ({}), dumps {}", vma.name, vma.start, vma.end, format::size(size), format::size(vma.dump_bytes))}>
                            if let Some(done) = done {
                                <div class="vma-done" style={format!("width: {}%", slowpath_engine::run::format::Fixed(done, 3))}></div>
                                <div class="vma-cursor" style={format!("left: {}%", slowpath_engine::run::format::Fixed(done, 3))}></div>
                            }
                            { for vma.present.iter().take(64).map(|(s, _)| html! {
                                <div class="vma-touched" style={format!("left: {}%", slowpath_engine::run::format::Fixed((s - vma.start) as f64 / size as f64 * 100.0, 3))}></div>
                            }) }
                            <span class="vma-label">{ if vma.big { format::size(size) } else { String::new() } }</span>
                        </div>
                    }
                }) }
            </div>
            <figcaption>
                { "Dumped mappings on a log scale (the big one is " }
                { shown.iter().find(|v| v.big).map(|v| format::size(v.end - v.start)).unwrap_or_default() }
                { "); ticks mark touched pages, shading what the walk has passed." }
                if hidden > 0 { { format!(" {hidden} mappings that are not dumped are not drawn.") } }
            </figcaption>
        </figure>
    }
}

/// The maple tree: every node if it is small, else the nodes on the descent.
fn tree(space: &AddressSpace, visits: &[Visit], previous: bool) -> Html {
    const NODES_FULL_MAX: usize = 12;
    let tree = &space.tree;
    let on_path = |node: u64| visits.iter().find(|v| v.node == node).copied();
    let mut levels: Vec<Vec<u32>> = vec![vec![tree.root]];
    while let Some(level) = levels.last() {
        let next: Vec<u32> = level
            .iter()
            .flat_map(|&n| {
                tree.nodes[n as usize].slots.iter().filter_map(|s| {
                    if let Slot::Child(c) = s {
                        Some(*c)
                    } else {
                        None
                    }
                })
            })
            .collect();
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    let full = tree.nodes.len() <= NODES_FULL_MAX;
    html! {
        <figure class="maple" data-testid="maple-tree">
            <figcaption>
                { format!("Maple tree: height {}, {} nodes (internal arange_64: 10 slots; leaves leaf_64: 16 slots). ", tree.height(), tree.nodes.len()) }
                { if visits.is_empty() { "No lookup in this step yet.".to_string() }
                  else { format!("{} visited {}, comparing {}.",
                                 if previous { "The last lookup (the page before)" } else { "This lookup" },
                                 slowpath_engine::run::narration::counted(visits.len() as u64, "node", "nodes"),
                                 slowpath_engine::run::narration::counted(visits.iter().map(|v| v.compared).sum::<u64>(), "pivot", "pivots")) } }
            </figcaption>
            { for levels.iter().enumerate().map(|(depth, level)| html! {
                <div class="maple-level" aria-label={format!("level {}", depth + 1)}>
                    { for level.iter().filter(|&&n| full || on_path(u64::from(n)).is_some()).map(|&n| {
                        let node = &tree.nodes[n as usize];
                        let visit = on_path(u64::from(n));
                        html! {
                            <div class={classes!("maple-node", visit.is_some().then_some("visited"))} data-node={n.to_string()}>
                                <span class="maple-node-id">{ format!("node {n}") }</span>
                                <ol class="maple-slots">
                                    { for node.slots.iter().enumerate().map(|(i, slot)| {
                                        let compared = visit.is_some_and(|v| (i as u64) < v.compared);
                                        let taken = visit.is_some_and(|v| v.slot == i as u64);
                                        let text = match slot { Slot::Empty => "·".to_string(), Slot::Vma(v) => format!("v{v}"), Slot::Child(c) => format!("→{c}") };
                                        html! {
                                            <li class={classes!(compared.then_some("compared"), taken.then_some("taken"), matches!(slot, Slot::Empty).then_some("hole"))}
                                                title={format!("slot {i}: up to {:#x}", node.pivots[i])}>{ text }</li>
                                        }
                                    }) }
                                </ol>
                            </div>
                        }
                    }) }
                </div>
            }) }
        </figure>
    }
}

fn walk(space: &AddressSpace, walk: Option<(u64, bool)>, previous: bool) -> Html {
    html! {
        <figure class="pagewalk" data-testid="page-walk">
            <figcaption>{ if previous { "Page-table walk (the page before)" } else { "Page-table walk" } }</figcaption>
            <ol>
                { for space.levels.iter().enumerate().map(|(i, name)| {
                    let level = i as u64 + 1;
                    let (class, note) = match walk {
                        Some((levels, _)) if level < levels => ("present", "entry present"),
                        Some((levels, true)) if level == levels => ("found", "page present"),
                        Some((levels, false)) if level == levels => ("stop", "empty: stop here"),
                        Some(_) => ("unvisited", "not reached"),
                        None => ("unvisited", ""),
                    };
                    html! { <li class={class}><strong>{ *name }</strong>{ " " }<span>{ note }</span></li> }
                }) }
            </ol>
        </figure>
    }
}

fn churn(view: &View) -> Html {
    let acquisitions = counter(view, "lock_acquisitions");
    let contended = view.locks.first().map_or(0, |lock| lock.stats.contended);
    let pending = counter(view, "sigkill_pending") > 0;
    html! {
        <div class="churn">
            <p data-testid="lock-churn">
                <strong>{ group_digits(acquisitions) }</strong>{ " read acquisitions of mmap_lock, " }
                <strong>{ group_digits(contended) }</strong>{ " contended: this is churn, not contention." }
                if view.now_ns > 0 && acquisitions > 0 {
                    { format!(" That is {} acquire/release pairs per second of simulated time.",
                        group_digits((u128::from(acquisitions) * 1_000_000_000 / u128::from(view.now_ns)) as u64)) }
                }
            </p>
            if pending {
                <p class="sigkill" data-testid="sigkill" role="status">{ "SIGKILL pending" }</p>
            }
        </div>
    }
}

fn costs(space: &AddressSpace, run: &Run) -> Html {
    let Some(Metric::Object(costs)) = run.metrics.get("cost_by_function_ns") else { return html! {} };
    let total: u64 = costs.values().map(|m| if let Metric::Ns(ns) = m { *ns } else { 0 }).sum();
    if total == 0 {
        return html! {};
    }
    // The profile's order first, so that the two bars line up; other costs after.
    let rank = |key: &str| space.profile.iter().position(|(k, _)| *k == key).unwrap_or(usize::MAX);
    let mut simulated: Vec<(String, f64)> = costs
        .iter()
        .filter_map(|(k, m)| {
            if let Metric::Ns(ns) = m {
                Some((k.clone(), *ns as f64 / total as f64 * 100.0))
            } else {
                None
            }
        })
        .collect();
    slowpath_engine::run::sort::sort_by_key(&mut simulated, |(key, _)| rank(key));
    let class = |name: &str| {
        format!("cost c-{}", name.split_whitespace().next().unwrap_or("x").replace(['(', ')', '_'], "-"))
    };
    // Inside a segment only its share (a name does not fit a narrow one and was cut);
    // the names are in the legend under the bars.
    let bar = |parts: &[(String, f64)]| {
        html! {
            <div class="cost-bar">
                { for parts.iter().filter(|(_, share)| *share >= 0.5).map(|(name, share)| html! {
                    <span class={class(name)} style={format!("width: {}%", slowpath_engine::run::format::Fixed(*share, 2))} title={format!("{name}: {} %", slowpath_engine::run::format::Fixed(*share, 1))}>
                        if *share >= 6.0 { { format!("{}%", slowpath_engine::run::format::Fixed(*share, 0)) } }
                    </span>
                }) }
            </div>
        }
    };
    let profile: Vec<(String, f64)> = space.profile.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    html! {
        <figure class="costs" data-testid="cost-breakdown">
            <figcaption>{ format!("Where the {} of simulated time went, by function (whole run), beside the seed's profile.", format::duration(total)) }</figcaption>
            <p class="cost-label">{ "simulated" }</p>{ bar(&simulated) }
            <p class="cost-label">{ "Mateusz Guzik's profile (seed 001), taken on his machine, where the dump took 13–14 s, not on the reported 30 s run: reusing its shares at 30 s is a model choice" }</p>{ bar(&profile) }
            <ul class="cost-legend" role="list" aria-label="Functions, simulated share and profile share">
                { for simulated.iter().filter(|(_, share)| *share >= 0.5).map(|(name, share)| {
                    let seen = profile.iter().find(|(key, _)| key == name).map(|(_, v)| format!(" · profile {}%", slowpath_engine::run::format::Fixed(*v, 0)));
                    html! {
                        <li key={name.clone()}>
                            <span class={classes!(class(name), "cost-swatch")} aria-hidden="true"></span>
                            <code>{ name.clone() }</code>{ format!(" {}%", slowpath_engine::run::format::Fixed(*share, 0)) }{ seen.unwrap_or_default() }
                        </li>
                    }
                }) }
            </ul>
        </figure>
    }
}
