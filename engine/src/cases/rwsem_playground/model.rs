//! The simulation side of the case, built with the `rwsem-playground` feature: the
//! metadata beside it (`mod.rs`) is built in every build.

use super::*;
use crate::case::Case;
use crate::kernel::locks::rwsem::RwsemPolicy;
use crate::run::params::ParamValues;
use crate::run::trace::Run;

pub struct RwsemPlayground;
impl Case for RwsemPlayground {
    fn meta(&self) -> &'static CaseMeta {
        &META
    }

    fn wire(&self) -> crate::run::wire::CaseWire {
        crate::run::wire::CaseWire::without_extras(text::TEMPLATES, text::CODE)
    }

    #[cfg(feature = "stage-claims")]
    fn stage_claims(&self) -> &'static [crate::run::chapters::StageClaim] {
        super::claims::CLAIMS
    }

    fn run_validated(&self, params: &ParamValues, variant: &'static str, seed: u64) -> Run {
        let policy = match variant {
            "no-spin" => RwsemPolicy { writer_spin: false, handoff: true },
            "no-handoff" => RwsemPolicy { writer_spin: true, handoff: false },
            _ => RwsemPolicy { writer_spin: true, handoff: true },
        };
        let config = sim::Config {
            readers: params.unsigned("readers") as usize,
            writers: params.unsigned("writers") as usize,
            cpus: params.unsigned("cpus") as u16,
            read_hold_ns: params.unsigned("read_hold"),
            write_hold_ns: params.unsigned("write_hold"),
            read_think_ns: params.unsigned("read_think"),
            write_think_ns: params.unsigned("write_think"),
            jitter_percent: params.unsigned("jitter"),
            duration_ns: params.unsigned("duration"),
            timeslice_ns: params.unsigned("timeslice"),
            policy,
        };
        let mut run = sim::run(&config, seed).finish(META.id, variant, seed, params.clone());
        use text::T;
        let first = |templates: &[T]| {
            run.first_op_with_template(&templates.iter().map(|t| t.id()).collect::<Vec<_>>())
        };
        // The lock's story in four moments; one that does not happen in a run (no
        // handoff in the default one) is left out of its chapters.
        let waits = [
            T::READ_QUEUE_WRITER,
            T::READ_QUEUE_FAIR,
            T::READ_QUEUE_HANDOFF,
            T::WRITE_QUEUE,
            T::WRITE_SPIN_WRITER,
            T::WRITE_SPIN_READERS,
        ];
        let moments = [
            (first(&waits), "a task must wait for mmap_lock"),
            (first(&[T::WAKE_READERS]), "queued readers wake as a batch"),
            (first(&[T::WRITE_SET_HANDOFF]), "a writer sets the handoff flag"),
            (first(&[T::END]), "the end of the run"),
        ];
        run.set_chapters(&moments);
        run
    }
}
