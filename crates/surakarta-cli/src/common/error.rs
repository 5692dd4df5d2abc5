//! [`CliError`], the one error type of the subcommands.

/// Why a subcommand failed: a bad argument, a file that cannot be read or
/// written, a library's error, a server that cannot listen. Printed as one
/// `error:` line on stderr, exit code 2.
#[derive(Debug)]
pub(crate) struct CliError(pub(crate) String);

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}
