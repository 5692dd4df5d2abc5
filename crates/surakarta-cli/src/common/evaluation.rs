//! The evaluation a user names: `--eval` and `--eval-file` of `search`,
//! `bench`, `play`, `serve` and `datagen`, the `eval=` and `eval-file=`
//! keys of `match` players and the engine protocol's `Eval` and `EvalFile`.

use std::path::Path;

use surakarta::Excerpt;
use surakarta_search::{Evaluation, EvaluationChoiceError};

/// How the two settings are called where the user gives them, for error
/// messages: `["--eval", "--eval-file"]` on the command line,
/// `["eval", "eval-file"]` in match player settings.
pub(crate) type Labels = [&'static str; 2];

/// The evaluation named `name` (`classic`, `paper`, `nnue`, `default`; the
/// default if `None`), or the network in `file`, which goes with `nnue` or
/// no name. Errors are one line naming the setting and the bad value.
pub(crate) fn evaluation(
    name: Option<&str>,
    file: Option<&Path>,
    [eval, eval_file]: Labels,
) -> Result<Evaluation, String> {
    Evaluation::choose(name, file).map_err(|e| match e {
        EvaluationChoiceError::File(e) => format!("{eval_file}: {e}"),
        EvaluationChoiceError::FileWithName(other) => format!(
            "{eval_file} is a network: give it with {eval} nnue or no {eval}, not {}",
            Excerpt::new(&other)
        ),
        EvaluationChoiceError::Unknown(name) => format!(
            "unknown {eval} {}: expected {}",
            Excerpt::new(&name),
            Evaluation::NAMES.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_search::Weights;

    const FLAGS: Labels = ["--eval", "--eval-file"];

    #[test]
    fn names_and_files() {
        assert_eq!(evaluation(None, None, FLAGS), Ok(Evaluation::network()));
        assert_eq!(
            evaluation(Some("classic"), None, FLAGS),
            Ok(Evaluation::Classic(Weights::DEFAULT))
        );
        assert_eq!(
            evaluation(Some("nnue"), None, FLAGS),
            Ok(Evaluation::network())
        );
        let err = evaluation(Some("best"), None, FLAGS).unwrap_err();
        assert!(err.starts_with("unknown --eval \"best\""), "{err}");
        assert!(err.contains("nnue"), "{err}");
        let err = evaluation(Some("classic"), Some(Path::new("x.sknn")), FLAGS).unwrap_err();
        assert!(err.contains("classic"), "{err}");
        let err = evaluation(None, Some(Path::new("/nonexistent/x.sknn")), FLAGS).unwrap_err();
        assert!(err.starts_with("--eval-file: "), "{err}");
        assert!(err.contains("/nonexistent/x.sknn"), "{err}");
    }
}
