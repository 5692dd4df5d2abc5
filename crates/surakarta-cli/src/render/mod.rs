//! Drawing the board for people, shared by `show` and `play`: as terminal
//! text ([`draw`]); and the evaluation graph of `analyse` as SVG
//! ([`graph`]). The SVG picture and the way a capture travels live in
//! the rules crate (`surakarta::svg`, `surakarta::capture_path`), where the
//! Python package reuses them. Drawing only: the rules crate decides what is
//! legal. Imports nothing of the subcommands.

pub(crate) mod draw;
pub(crate) mod graph;
