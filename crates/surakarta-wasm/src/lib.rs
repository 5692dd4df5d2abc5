//! The Surakarta analysis board in the browser.
//!
//! [`Board`] holds what the board page asks about: compact (or format 1)
//! tables loaded from bytes, and an engine searching on one thread. Every
//! answer is the JSON text of the page's HTTP API (the objects of
//! [`surakarta_board`]), so the page reads the same whether `surakarta
//! serve` or this module answers it. Built for `wasm32-unknown-unknown`,
//! the crate also exports `Board` and `Game` to JavaScript through
//! `wasm-bindgen` (`scripts/build-web.sh`; `docs/web.md`).
//!
//! ```
//! use surakarta_wasm::Board;
//!
//! let mut board = Board::new();
//! let answer: serde_json::Value = serde_json::from_str(&board.position(
//!     "6/6/2w3/6/1b4/b5 b",
//! )?).unwrap();
//! assert!(answer["value"].is_null()); // no tables loaded yet
//! // Its class, the partner class, the classes captures reach.
//! assert_eq!(board.missing_classes("6/6/2w3/6/1b4/b5 b")?, ["2v1", "1v2", "1v1"]);
//! # Ok::<(), String>(())
//! ```

#[cfg(target_arch = "wasm32")]
mod bindings;
mod board;
mod records;

pub use board::{Board, DEFAULT_HASH_MB};
pub use records::{read_record, write_record, MAX_RECORD_INPUT};
