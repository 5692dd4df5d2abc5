//! Arbitrary bytes as the query string of each route of `surakarta serve`.
//!
//! The first byte picks the route (`/api/position`, `/api/probe`,
//! `/api/svg`, `/api/analysis` or a path that reads no query), the rest is
//! the raw query string, read by the code each handler runs
//! (`surakarta_cli::fuzzing::serve_query`, which checks the invariants:
//! nothing panics, a refusal is a 4xx with a short message, what is
//! accepted is within its documented limits).

#![no_main]

use libfuzzer_sys::fuzz_target;

/// The routes, picked by the first byte.
const ROUTES: [&str; 5] = [
    "/api/position",
    "/api/probe",
    "/api/svg",
    "/api/analysis",
    "/",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, query)) = data.split_first() else {
        return;
    };
    let route = ROUTES[usize::from(pick) % ROUTES.len()];
    surakarta_cli::fuzzing::serve_query(route, query);
});
