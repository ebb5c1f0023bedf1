//! The picture says what the words say: at every key moment of every registered
//! case's default run (each chapter and each notable event, where `n` and the
//! chapter buttons land), the state the narration names is the state the stage
//! draws from the view at that position. Each case declares what its words claim
//! (`Case::stage_claims`, in its own folder); this test knows no case.

use slowpath_engine::{run_checked, simulations};

#[test]
fn every_key_moment_draws_what_its_words_say() {
    let mut failures = Vec::new();
    for case in simulations() {
        let meta = case.meta();
        let run = run_checked(case, &meta.default_params(), meta.default_variant().id, 1).expect("runs");
        let (disagreements, uncovered) = run.stage_disagreements(case.stage_claims());
        for d in disagreements.iter().take(5) {
            failures.push(format!(
                "{} at {}: the words say {}; the stage shows: {}",
                meta.id, d.position, d.says, d.shows
            ));
        }
        if disagreements.len() > 5 {
            failures.push(format!("{}: {} more disagreements", meta.id, disagreements.len() - 5));
        }
        for template in uncovered {
            let text = run.templates.get(usize::from(template)).copied().unwrap_or("?");
            failures.push(format!("{}: no claim for the words at a key moment: {text:.90}", meta.id));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
