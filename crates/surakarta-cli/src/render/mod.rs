//! Drawing the board for people, shared by `show` and `play`: as terminal
//! text ([`draw`]), as an SVG picture ([`svg`]), and the way a capture
//! travels ([`capture_path`]). Drawing only: the rules crate decides what is
//! legal. Imports nothing of the subcommands.

pub(crate) mod capture_path;
pub(crate) mod draw;
pub(crate) mod svg;
