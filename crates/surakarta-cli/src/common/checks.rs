//! The argument checks that several subcommands share: counts where 0
//! means nothing and the search depth.

/// A number that must be at least 1 (`--nodes`, `--movetime`, `--probes`,
/// `--max-plies`), as clap's value parser: clap's error names the flag and
/// the value, this the reason.
pub(crate) fn at_least_one<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialEq + From<u8>,
    T::Err: std::fmt::Display,
{
    match text.parse::<T>() {
        Ok(n) if n == T::from(0) => Err("0 means nothing here: give at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// The deepest search the command line and the engine protocol accept, in
/// plies (`search`, `bench`, `play`, `match` players, `go depth`).
pub(crate) const MAX_DEPTH: u32 = 64;

/// `depth` if it is 1 to [`MAX_DEPTH`], else the message `NAME DEPTH is out
/// of range: give 1 to 64` (`name` is how the user gave it: `--depth`).
pub(crate) fn check_depth(name: &str, depth: u64) -> Result<u32, String> {
    match u32::try_from(depth) {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "{name} {depth} is out of range: give 1 to {MAX_DEPTH}"
        )),
    }
}
