//! The constants of the compact layout that its writer and reader share.

use crate::format::header::BLOCK_BITS;

/// Slots per chunk that rules never cross; blocks are whole chunks, so
/// the smallest block a file may use.
pub(crate) const CHUNK_BITS: u32 = *BLOCK_BITS.start();
/// The largest block.
pub(super) const MAX_BLOCK_BITS: u32 = *BLOCK_BITS.end();
/// Blocks are made as big as keeps about this many symbols in one, so a
/// probe decodes about half of that.
pub(super) const SYMBOLS_PER_BLOCK: u64 = 32;

/// The longest expansion a reader accepts (a file with a longer symbol is
/// corrupt): the writer's symbols never cross a chunk of 2^10 slots, and
/// two bytes hold every expansion length in the reader's tables.
pub(super) const MAX_EXPANSION: u64 = u16::MAX as u64;

/// The unit of the draw map the writer makes: a chunk.
pub(crate) const DRAW_MAP_UNIT_BITS: u32 = CHUNK_BITS;

/// Slots of the 64 draw map units one word of [`draw_map_word`](super::encode::draw_map_word) covers.
pub(crate) const DRAW_MAP_WORD_SLOTS: usize = 64 << DRAW_MAP_UNIT_BITS;
