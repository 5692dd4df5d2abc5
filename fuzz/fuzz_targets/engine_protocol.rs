//! Arbitrary bytes into the engine protocol's line handling, as `surakarta
//! engine` reads its stdin: lines with the 64 KiB limit, UTF-8, commands
//! and their arguments, games built from `position`, limits from `go`.
//!
//! Invariants: nothing panics; a line over the limit is never kept; every
//! rejection is one non-empty line of at most 1 KiB (hostile input is quoted
//! through an excerpt); a `go` depth is within 1 to 64 and the same for both
//! sides.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    surakarta_cli::fuzzing::engine_protocol(data);
});
