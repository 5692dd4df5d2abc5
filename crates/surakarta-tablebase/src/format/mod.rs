//! The table file formats, specified byte by byte in
//! `docs/tablebase-format.md`: a 128-byte [`Header`], then the payload.
//! Version 1 stores one value byte per index slot; version 2 a compact
//! body (the `compact` module: its writer and reader apart, the Huffman
//! code, the Re-Pair grammar and the context models they share).

pub(crate) mod compact;
mod header;

pub use header::*;
