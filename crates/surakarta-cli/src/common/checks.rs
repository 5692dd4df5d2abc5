//! The argument checks that several subcommands share: the one range
//! checker of numeric flags ([`in_range`]), the ranges more than one
//! command uses, and the search depth.
//!
//! Every numeric flag has a range, written in its `--help` text and in
//! docs/cli.md, and checked by clap before the command starts: a value
//! outside it (or not a number) is one `error:` line naming the flag, exit
//! code 2.

use std::fmt::Display;
use std::ops::{Bound, RangeBounds, RangeInclusive};
use std::str::FromStr;

/// A clap value parser for a number of type `T` in `range`: anything that
/// does not parse as `T`, and any value outside `range` (`NaN` included),
/// is refused with a message giving the range (clap's error names the flag
/// and the value).
pub(crate) fn in_range<T, R>(
    range: R,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Send + Sync + 'static,
    R: RangeBounds<T> + Clone + Send + Sync + 'static,
{
    move |text: &str| match text.trim().parse::<T>() {
        Ok(value) if range.contains(&value) => Ok(value),
        Ok(_) => Err(format!("out of range: give {}", describe(&range))),
        Err(_) => Err(format!("not a number: give {}", describe(&range))),
    }
}

/// `range` in words: `1 to 64`, `above 0 and at most 1`, `at least 1`.
fn describe<T: Display, R: RangeBounds<T>>(range: &R) -> String {
    match (range.start_bound(), range.end_bound()) {
        (Bound::Included(a), Bound::Included(b)) => format!("{a} to {b}"),
        (Bound::Excluded(a), Bound::Included(b)) => format!("above {a} and at most {b}"),
        (Bound::Included(a), Bound::Excluded(b)) => format!("at least {a} and below {b}"),
        (Bound::Excluded(a), Bound::Excluded(b)) => format!("above {a} and below {b}"),
        (Bound::Included(a), Bound::Unbounded) => format!("at least {a}"),
        (Bound::Excluded(a), Bound::Unbounded) => format!("above {a}"),
        (Bound::Unbounded, Bound::Included(b)) => format!("at most {b}"),
        (Bound::Unbounded, Bound::Excluded(b)) => format!("below {b}"),
        (Bound::Unbounded, Bound::Unbounded) => "a number".into(),
    }
}

/// `--nodes` of a search (`search`, `analyse`, `datagen`, `endgames`,
/// `tune`, `--balance-nodes`): at least 1, at most 10⁹ (a quarter of an
/// hour at a million nodes a second).
pub(crate) const NODES: RangeInclusive<u64> = 1..=1_000_000_000;

/// `--movetime` of a search, in milliseconds (`search`, `analyse`,
/// `play`, `tune`): 1 ms to a day.
pub(crate) const MOVETIME_MS: RangeInclusive<u64> = 1..=86_400_000;

/// `--concurrency`, games played at the same time (`match`, `tune`).
pub(crate) const CONCURRENCY: RangeInclusive<usize> = 1..=256;

/// `--plies`, random plies from the start position of each opening
/// (`match`, `tune`).
pub(crate) const OPENING_PLIES: RangeInclusive<usize> = 0..=200;

/// `--balance`, centipawns an opening may be scored either way (`match`,
/// `tune`).
pub(crate) const BALANCE_CP: RangeInclusive<u32> = 1..=100_000;

/// `--max-plies`, plies after which a game is stopped and drawn (`match`,
/// `tune`): at most the moves a game record holds, so that every game
/// written can be read back (`show`, `match --resume`).
pub(crate) const GAME_PLIES: RangeInclusive<usize> = 1..=surakarta::record::MAX_RECORD_MOVES;

/// `--game K` of a record file, from 1 (`play`, `analyse`, `show`): at most
/// a record file's text can hold.
pub(crate) const GAME_NUMBER: RangeInclusive<usize> = 1..=surakarta::record::MAX_RECORD_TEXT;

/// `--checkpoint-every`, seconds between checkpoints (`tb generate`, `tb
/// verify`): 0 to a week.
pub(crate) const CHECKPOINT_SECONDS: RangeInclusive<u64> = 0..=604_800;

/// `tb generate --window-slots`: from the least window to more slots than
/// any class of 24 pieces has.
pub(crate) const WINDOW_SLOTS: RangeInclusive<u64> =
    surakarta_tablebase::plan::MIN_WINDOW_SLOTS..=1 << 50;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_range_refuses_what_is_outside_or_not_a_number() {
        let epochs = in_range::<usize, _>(1..=10);
        assert_eq!(epochs("3"), Ok(3));
        assert_eq!(epochs("0"), Err("out of range: give 1 to 10".into()));
        assert_eq!(epochs("-1"), Err("not a number: give 1 to 10".into()));
        let share = in_range::<f64, _>(0.0..1.0);
        assert_eq!(share("0"), Ok(0.0));
        for bad in ["1", "NaN", "inf", "1e308", "x"] {
            assert!(share(bad).is_err(), "{bad}");
        }
        let lr = in_range::<f32, _>((Bound::Excluded(0.0), Bound::Included(1.0)));
        assert_eq!(
            lr("0"),
            Err("out of range: give above 0 and at most 1".into())
        );
    }
}
