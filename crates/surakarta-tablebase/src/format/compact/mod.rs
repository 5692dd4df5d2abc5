//! The compact payload of format version 2: the value bytes of a class,
//! with don't-care slots filled to compress well, as a Re-Pair grammar
//! whose symbols are Huffman-coded in independently decodable blocks.
//!
//! Layout after the 128-byte header (`docs/tablebase-format.md`):
//!
//! ```text
//! terminals  T bytes          the value byte of each terminal symbol
//! rules      P × (u16, u16)   symbol T + i expands to left, then right
//! lengths    T + P bytes      Huffman code length per symbol (0 = unused)
//! offsets    (B + 1) × u32/u64  byte offset of each block in the bit stream
//! bits       payload bytes    the blocks, each byte-aligned, MSB first
//! draw map   a bit per unit   where a stored loss may stand for a draw (optional)
//! ```
//!
//! Block `b` holds the slots `b · 2^block_bits ..` up to the next block:
//! whole symbols whose expansions add up to exactly that many slots.

pub(super) mod context;
mod decode;
mod encode;
mod huffman;
mod layout;
pub(crate) mod re_pair;

pub use context::ContextModel;
pub(crate) use decode::Compact;
pub(crate) use encode::{
    append_draw_map, assemble, draw_map_word, encode, fill_chunk, max_symbols, Freedom, Stored,
};
pub(crate) use layout::{CHUNK_BITS, DRAW_MAP_UNIT_BITS, DRAW_MAP_WORD_SLOTS};
