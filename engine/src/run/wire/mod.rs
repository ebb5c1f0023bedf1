//! A run as bytes, so that one thread can make it and another read it.
//!
//! The app runs the engine in a Web Worker (a run may take a second of CPU; the
//! page must not freeze) and moves the finished [`Run`] to the page as bytes.
//! The format is our own positional binary codec ([`codec`]): the page reads only
//! what this same build wrote, so nothing needs to describe itself, and serde's
//! derived decoders (a third of the wasm) stay out of the bundle. serde remains
//! for the CLI's JSON, which only writes.
//!
//! What a run borrows from its case (the narration templates, the pseudocode, the
//! case's `&'static` figures) is not sent: the receiver names the case it asked
//! for and takes its tables from [`CaseWire`]; the few `&'static str` values in the
//! data are interned once per distinct value ([`intern`]), so decoding any
//! number of runs keeps memory bounded by the engine's own literals.

pub mod codec;

use crate::case::Case;
use crate::run::narration::Arg;
use crate::run::narration::Function;
use crate::run::params::ParamValues;
use crate::run::trace::{Block, Chapter, Checkpoint, Metric, Op, Outcome, Phase, Run, StepCounts, TextRef};
use crate::run::world::{Effect, Layout, WorldDelta};
use codec::{from_bytes, wire_enum, wire_struct, Wire, Writer};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// `&'static str` under another name, kept for the fields that cross as text and
/// are interned on arrival ([`intern`]).
pub type StaticStr = &'static str;

/// The extras of one run, boxed as `Run` holds them.
pub type BoxedExtras = Box<dyn Any + Send + Sync>;

/// What a case lends its runs and how its extras cross: one per case
/// (`Case::wire`), so that decoding needs nothing but the bytes and the case.
#[derive(Clone, Copy)]
pub struct CaseWire {
    pub templates: &'static [&'static str],
    pub code: &'static [Function],
    encode_extras: fn(&Run) -> Vec<u8>,
    decode_extras: fn(&[u8]) -> Result<Option<BoxedExtras>, String>,
}

impl CaseWire {
    /// A case whose runs carry extras of type `T` (`run.extras::<T>()`).
    pub fn with_extras<T: Wire + Any + Send + Sync>(
        templates: &'static [&'static str],
        code: &'static [Function],
    ) -> CaseWire {
        CaseWire { templates, code, encode_extras: encode_extras::<T>, decode_extras: decode_extras::<T> }
    }

    /// A case whose runs carry no extras.
    pub fn without_extras(templates: &'static [&'static str], code: &'static [Function]) -> CaseWire {
        CaseWire { templates, code, encode_extras: |_| Vec::new(), decode_extras: |_| Ok(None) }
    }
}

fn encode_extras<T: Wire + Any>(run: &Run) -> Vec<u8> {
    run.extras::<T>().map(codec::to_bytes).unwrap_or_default()
}

fn decode_extras<T: Wire + Any + Send + Sync>(bytes: &[u8]) -> Result<Option<BoxedExtras>, String> {
    if bytes.is_empty() {
        return Ok(None);
    }
    let extras: T = from_bytes(bytes).map_err(|error| format!("extras: {error}"))?;
    Ok(Some(Box::new(extras)))
}

/// The small part of a run, sent first.
struct Header {
    case: String,
    variant: String,
    seed: u64,
    params: ParamValues,
    layout: Layout,
    phases: Vec<Phase>,
    notable: Vec<u64>,
    counts: StepCounts,
    end_ns: u64,
    trace_hash: u64,
    outcome: Outcome,
    metrics: BTreeMap<String, Metric>,
    simulated_steps: u64,
    chapters: Vec<Chapter>,
    extras: codec::Bytes,
}
wire_struct!(Header {
    case,
    variant,
    seed,
    params,
    layout,
    phases,
    notable,
    counts,
    end_ns,
    trace_hash,
    outcome,
    metrics,
    simulated_steps,
    chapters,
    extras,
});

/// One message of a run. A run crosses as a header and then its big tables in
/// chunks, so that the page decodes each in its own short task (one message
/// event) instead of one long one that would freeze it. Written by [`part_bytes`]
/// straight from the run's tables (no copy), with the same variant numbers.
enum Part {
    Header(Box<Header>),
    Blocks(Vec<Block>),
    Ops(Vec<Op>),
    Args(Vec<Arg>),
    Effects(Vec<Effect>),
    Deltas(Vec<WorldDelta>),
    Checkpoints(Vec<Checkpoint>),
}
wire_enum!(Part {
    0 => Header(header),
    1 => Blocks(items),
    2 => Ops(items),
    3 => Args(items),
    4 => Effects(items),
    5 => Deltas(items),
    6 => Checkpoints(items),
});

const HEADER: u8 = 0;
const BLOCKS: u8 = 1;
const OPS: u8 = 2;
const ARGS: u8 = 3;
const EFFECTS: u8 = 4;
const DELTAS: u8 = 5;
const CHECKPOINTS: u8 = 6;

/// A message of [`Part`] `tag` holding `items`, as `Part` itself writes it.
fn part_bytes<T: Wire>(tag: u8, items: &[T]) -> Vec<u8> {
    let mut writer = Writer::new();
    writer.byte(tag);
    writer.seq(items);
    writer.bytes
}

/// Items per chunk: a chunk of ops, args or effects decodes in a millisecond or two
/// natively (`examples/wire_size.rs`), so that on a phone's slower CPU (Lighthouse
/// runs at 4×) one chunk's task stays under the 50 ms that counts as blocking.
const CHUNK_ITEMS: usize = 2_048;
/// Repeat deltas per chunk at most: each carries per-task changes, so about 8× an op
/// with a few tasks (and fewer per chunk with many, `CHUNK_TASKS`).
const CHUNK_DELTAS: usize = 256;
/// Task states per chunk of checkpoints (a checkpoint copies every task), and task
/// changes per chunk of deltas.
const CHUNK_TASKS: usize = 8_192;

/// The run's header alone: what a caller that wants only the figures needs (the
/// landing page's headlines, a scaling plot's points, a sweep), the first
/// message of [`encode`].
pub fn encode_summary(case: &dyn Case, run: &Run) -> Vec<u8> {
    assert_eq!(case.meta().id, run.case, "a run is encoded with its own case");
    let header = Header {
        case: run.case.to_string(),
        variant: run.variant.to_string(),
        seed: run.seed,
        params: run.params.clone(),
        layout: run.layout.clone(),
        phases: run.phases.clone(),
        notable: run.notable.clone(),
        counts: run.counts,
        end_ns: run.end_ns,
        trace_hash: run.trace_hash,
        outcome: run.outcome.clone(),
        metrics: run.metrics.clone(),
        simulated_steps: run.simulated_steps,
        chapters: run.chapters.clone(),
        extras: codec::Bytes((case.wire().encode_extras)(run)),
    };
    let mut writer = Writer::new();
    writer.byte(HEADER);
    header.put(&mut writer);
    writer.bytes
}

/// A run's figures without its trace: from [`encode_summary`].
pub struct Summary {
    pub case: &'static str,
    pub variant: &'static str,
    pub metrics: BTreeMap<String, Metric>,
    pub outcome: Outcome,
    pub end_ns: u64,
    extras: Option<BoxedExtras>,
}

impl Summary {
    /// The case's own stage data, as `Run::extras`.
    pub fn extras<T: Any>(&self) -> Option<&T> {
        self.extras.as_deref()?.downcast_ref()
    }
}

/// Reads a message of [`encode_summary`] for `case`, the case it was asked of;
/// untrusted bytes, or a run of another case, give an error.
pub fn decode_summary(case: &'static dyn Case, bytes: &[u8]) -> Result<Summary, String> {
    let Part::Header(header) = from_bytes(bytes).map_err(|error| format!("summary: {error}"))? else {
        return Err("summary: not a header".to_string());
    };
    same_case(case, &header.case)?;
    let variant = case
        .meta()
        .variant(&header.variant)
        .ok_or_else(|| format!("unknown variant {:?}", header.variant))?;
    Ok(Summary {
        case: case.meta().id,
        variant: variant.id,
        metrics: header.metrics,
        outcome: header.outcome,
        end_ns: header.end_ns,
        extras: (case.wire().decode_extras)(&header.extras.0)?,
    })
}

/// What a caller asks of the engine's thread: a run, or only its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Run,
    Summary,
}
wire_enum!(Detail { 0 => Run, 1 => Summary });

/// A request to make a run (the page to its worker), as bytes.
pub struct Request {
    pub id: u32,
    pub case: String,
    pub variant: String,
    pub seed: u64,
    params: ParamValues,
    pub detail: Detail,
}
wire_struct!(Request { id, case, variant, seed, params, detail });

impl Request {
    pub fn new(
        id: u32,
        case: &str,
        variant: &str,
        seed: u64,
        params: &ParamValues,
        detail: Detail,
    ) -> Request {
        let (case, variant) = (case.to_string(), variant.to_string());
        Request { id, case, variant, seed, params: params.clone(), detail }
    }

    pub fn params(&self) -> ParamValues {
        self.params.clone()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        codec::to_bytes(self)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Request, String> {
        from_bytes(bytes).map_err(|error| format!("request: {error}"))
    }
}

/// The run as messages: a header, then its tables in chunks. Deterministic: the
/// same run gives the same messages.
pub fn encode(case: &dyn Case, run: &Run) -> Vec<Vec<u8>> {
    let mut parts = vec![encode_summary(case, run)];
    for chunk in run.blocks.chunks(CHUNK_ITEMS) {
        parts.push(part_bytes(BLOCKS, chunk));
    }
    for chunk in run.ops.chunks(CHUNK_ITEMS) {
        parts.push(part_bytes(OPS, chunk));
    }
    for chunk in run.args.chunks(CHUNK_ITEMS) {
        parts.push(part_bytes(ARGS, chunk));
    }
    for chunk in run.effects.chunks(CHUNK_ITEMS) {
        parts.push(part_bytes(EFFECTS, chunk));
    }
    // A delta carries every task's change: fewer of them per message in a many-task run.
    let deltas_per_chunk = (CHUNK_TASKS / run.layout.tasks.len().max(1)).clamp(1, CHUNK_DELTAS);
    for chunk in run.deltas.chunks(deltas_per_chunk) {
        parts.push(part_bytes(DELTAS, chunk));
    }
    let checkpoints_per_chunk = (CHUNK_TASKS / run.layout.tasks.len().max(1)).max(1);
    for chunk in run.checkpoints.chunks(checkpoints_per_chunk) {
        parts.push(part_bytes(CHECKPOINTS, chunk));
    }
    parts
}

/// Builds a run from the messages of [`encode`], one at a time (by this same
/// build: the worker and the page load one module). Untrusted bytes give an
/// error, never a panic.
pub struct Assembler {
    /// The case the run was asked of: its tables complete the run.
    case: &'static dyn Case,
    header: Option<Header>,
    blocks: Vec<Block>,
    ops: Vec<Op>,
    args: Vec<Arg>,
    effects: Vec<Effect>,
    deltas: Vec<WorldDelta>,
    checkpoints: Vec<Checkpoint>,
}

impl Assembler {
    pub fn new(case: &'static dyn Case) -> Assembler {
        Assembler {
            case,
            header: None,
            blocks: Vec::new(),
            ops: Vec::new(),
            args: Vec::new(),
            effects: Vec::new(),
            deltas: Vec::new(),
            checkpoints: Vec::new(),
        }
    }

    /// Takes the next message; the header must come first.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), String> {
        let part: Part = from_bytes(bytes).map_err(|error| format!("run: {error}"))?;
        match (part, self.header.is_some()) {
            (Part::Header(header), false) => self.header = Some(*header),
            (Part::Header(_), true) => return Err("run: a second header".to_string()),
            (_, false) => return Err("run: a table before the header".to_string()),
            (Part::Blocks(items), true) => self.blocks.extend(items),
            (Part::Ops(items), true) => self.ops.extend(items),
            (Part::Args(items), true) => self.args.extend(items),
            (Part::Effects(items), true) => self.effects.extend(items),
            (Part::Deltas(items), true) => self.deltas.extend(items),
            (Part::Checkpoints(items), true) => self.checkpoints.extend(items),
        }
        Ok(())
    }

    /// The run, once every message is in.
    pub fn finish(self) -> Result<Run, String> {
        let wire = self.header.ok_or("run: no header")?;
        let case = self.case;
        same_case(case, &wire.case)?;
        let meta = case.meta();
        let variant =
            meta.variant(&wire.variant).ok_or_else(|| format!("unknown variant {:?}", wire.variant))?;
        let tables = case.wire();
        let extras = (tables.decode_extras)(&wire.extras.0)?;
        let params = wire.params;
        let run = Run {
            case: meta.id,
            variant: variant.id,
            seed: wire.seed,
            params,
            layout: wire.layout,
            templates: tables.templates,
            code: tables.code,
            phases: wire.phases,
            blocks: self.blocks,
            ops: self.ops,
            args: self.args,
            effects: self.effects,
            checkpoints: self.checkpoints,
            deltas: self.deltas,
            notable: wire.notable,
            counts: wire.counts,
            end_ns: wire.end_ns,
            trace_hash: wire.trace_hash,
            outcome: wire.outcome,
            metrics: wire.metrics,
            simulated_steps: wire.simulated_steps,
            chapters: wire.chapters,
            extras,
        };
        check_shape(&run)?;
        Ok(run)
    }
}

/// The bytes name their case: a run of another case than the one asked of is an error.
fn same_case(case: &dyn Case, named: &str) -> Result<(), String> {
    match case.meta().id == named {
        true => Ok(()),
        false => Err(format!("a run of case {:?} where {:?} was asked", named, case.meta().id)),
    }
}

/// All messages at once (tests, the CLI): [`Assembler`] over `parts`.
pub fn decode(case: &'static dyn Case, parts: &[Vec<u8>]) -> Result<Run, String> {
    let mut assembler = Assembler::new(case);
    for part in parts {
        assembler.push(part)?;
    }
    assembler.finish()
}

/// The indices a run's queries follow stay inside its tables: decoded bytes are
/// checked here once, so that a query never panics on a damaged message.
fn check_shape(run: &Run) -> Result<(), String> {
    let text_ok = |text: &TextRef| {
        usize::from(text.template) < run.templates.len()
            && text.args_start as usize + usize::from(text.args_len) <= run.args.len()
    };
    let ops_ok = run.ops.iter().all(|op| {
        text_ok(&op.text)
            && op.effects_start as usize + usize::from(op.effects_len) <= run.effects.len()
            && run
                .code
                .get(usize::from(op.code.function))
                .is_some_and(|f| usize::from(op.code.line) < f.lines.len())
    });
    let blocks_ok = !run.blocks.is_empty()
        && run.blocks.iter().all(|block| {
            text_ok(&block.label)
                && block.ops_start as usize + block.ops_len as usize <= run.ops.len()
                && (block.phase as usize) < run.phases.len()
                && block.delta.is_none_or(|delta| (delta as usize) < run.deltas.len())
        });
    let phases_ok = run
        .phases
        .iter()
        .all(|phase| text_ok(&phase.title) && (phase.first_block as usize) < run.blocks.len());
    let checkpoints_ok = run.checkpoints.first().is_some_and(|first| first.block == 0)
        && run.checkpoints.iter().all(|checkpoint| (checkpoint.block as usize) < run.blocks.len());
    if ops_ok && blocks_ok && phases_ok && checkpoints_ok {
        Ok(())
    } else {
        Err("run: indices outside its tables".to_string())
    }
}

/// Interned leaked strings: each distinct value is leaked once, so memory stays
/// bounded by the engine's literals however many runs are decoded.
static INTERNED: Mutex<BTreeMap<String, &'static str>> = Mutex::new(BTreeMap::new());

pub(crate) fn intern(text: &str) -> &'static str {
    let mut interned = INTERNED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = interned.get(text) {
        return found;
    }
    let leaked: &'static str = Box::leak(text.to_string().into_boxed_str());
    interned.insert(text.to_string(), leaked);
    leaked
}

/// Interned leaked slices, keyed by type and content (their own wire bytes, not
/// `Debug`, whose text of an `f64` would bring float formatting into the wasm), for
/// the same reason.
static INTERNED_SLICES: Mutex<BTreeMap<Vec<u8>, &'static (dyn Any + Send + Sync)>> =
    Mutex::new(BTreeMap::new());

pub(crate) fn intern_slice<T: codec::Wire + Any + Send + Sync>(items: Vec<T>) -> &'static [T] {
    let mut key = codec::Writer::new();
    key.text(std::any::type_name::<T>());
    key.seq(&items);
    let key = key.bytes;
    let mut interned = INTERNED_SLICES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = interned.get(&key).and_then(|any| any.downcast_ref::<Box<[T]>>()) {
        return found;
    }
    // A `Box<[T]>` (sized) is what `dyn Any` can hold and give back by type.
    #[allow(clippy::borrowed_box)]
    let leaked: &'static Box<[T]> = Box::leak(Box::new(items.into_boxed_slice()));
    interned.insert(key, leaked);
    leaked
}
