//! Writing a compact body: don't-care slots filled, the grammar's symbols
//! Huffman-coded block by block, the offsets and the draw map appended.

use super::context::ContextModel;
use super::huffman::{self, Code};
use super::layout::{CHUNK_BITS, DRAW_MAP_UNIT_BITS, MAX_BLOCK_BITS, SYMBOLS_PER_BLOCK};
use super::re_pair;
use crate::format::header::{
    BlockOffsets, CompactShape as Shape, OFFSET_GROUP, PACKED_LENGTH_BITS,
};
use rayon::prelude::*;

/// How freely a slot's stored value may be chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Freedom {
    /// The stored byte must be the value.
    Exact = 0,
    /// The value is a win in 1 that a capture proves: any win may be
    /// stored (the prober finds the capture).
    AnyWin = 1,
    /// No position uses the slot: any byte may be stored.
    Any = 2,
    /// The value is a draw that a capture proves: any draw or loss may be
    /// stored (the prober finds the capture).
    AnyNonWin = 3,
}

/// Fills the free slots to make long runs: a free slot repeats the byte
/// before it where allowed. A freedom byte's bits 2 and up (a context,
/// kept there for the read-back check) are ignored.
fn fill(values: &[u8], freedom: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len());
    let mut previous: Option<u8> = None;
    for (&v, &f) in values.iter().zip(freedom) {
        let byte = match (f & 3, previous) {
            (f, Some(p)) if f == Freedom::Any as u8 => p,
            (f, Some(p)) if f == Freedom::AnyWin as u8 && (1..=127).contains(&p) => p,
            (f, Some(p)) if f == Freedom::AnyNonWin as u8 && !(1..=127).contains(&p) => p,
            _ => v,
        };
        out.push(byte);
        previous = Some(byte);
    }
    out
}

/// A bit writer, MSB first.
struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    used: u32,
}

impl BitWriter {
    fn put(&mut self, code: u32, len: u8) {
        self.acc = self.acc << len | u64::from(code);
        self.used += u32::from(len);
        while self.used >= 8 {
            self.used -= 8;
            self.bytes.push((self.acc >> self.used) as u8);
        }
    }

    fn align(&mut self) {
        if self.used > 0 {
            self.bytes.push((self.acc << (8 - self.used)) as u8);
            self.used = 0;
        }
        self.acc = 0;
    }
}

/// What the bytes given to [`encode`] are.
pub(crate) enum Stored<'a> {
    /// Value bytes: the terminals become the distinct values, most
    /// frequent first.
    Values,
    /// Terminal numbers (below `ranks`) read through a context model:
    /// `maps[c · ranks + t]` is the value of terminal `t` in context `c`.
    Ranks {
        /// The model.
        model: ContextModel,
        /// Terminals.
        ranks: usize,
        /// The value of each terminal in each context.
        maps: &'a [u8],
    },
}

/// Encodes the stored bytes of a class (one per slot, `freedom` beside
/// them) as a compact body. Returns the shape and the body bytes.
pub(crate) fn encode(stored: &[u8], freedom: &[u8], kind: Stored<'_>) -> (Shape, Vec<u8>) {
    let slots = stored.len() as u64;
    let filled = fill(stored, freedom);
    let (model, order, terminals_section): (ContextModel, Vec<u8>, Vec<u8>) = match kind {
        Stored::Values => {
            // Terminals by frequency, most frequent first.
            let mut counts = [0u64; 256];
            for &b in &filled {
                counts[b as usize] += 1;
            }
            let mut order: Vec<u8> = (0..=255u8).filter(|&b| counts[b as usize] > 0).collect();
            order.sort_by_key(|&b| std::cmp::Reverse(counts[b as usize]));
            (ContextModel::None, order.clone(), order)
        }
        Stored::Ranks { model, ranks, maps } => {
            debug_assert_eq!(maps.len(), ranks * model.contexts());
            (
                (model),
                (0..ranks).map(|r| r as u8).collect(),
                maps.to_vec(),
            )
        }
    };
    let mut terminal_of = [0u16; 256];
    for (t, &b) in order.iter().enumerate() {
        terminal_of[b as usize] = t as u16;
    }
    let chunks: Vec<Vec<u16>> = filled
        .par_chunks(1 << CHUNK_BITS)
        .map(|c| c.iter().map(|&b| terminal_of[b as usize]).collect())
        .collect();
    drop(filled);
    let grammar = re_pair::compress(chunks, order.len(), max_symbols(slots));
    assemble(grammar, slots, model, &terminals_section)
}

/// The symbol budget of a class's grammar.
pub(crate) fn max_symbols(slots: u64) -> usize {
    (slots / 16).clamp(256, u16::MAX as u64) as usize
}

/// Blocks encoded at a time by [`assemble`]: about this many slots' worth,
/// so the symbols of the blocks written are freed as it goes.
const ASSEMBLE_BATCH_SLOTS: u64 = 1 << 26;

/// The body of a class from its grammar (rules, and the symbols of each
/// chunk of `1 << CHUNK_BITS` slots, in order) and its terminals section
/// (the value of each terminal in each context of `model`): Huffman code
/// lengths from the symbols' frequencies, blocks of whole chunks, their
/// offsets. Both ways of compacting ([`encode`], and the streaming one of
/// `generate/convert.rs`) end here. The chunks' symbols are freed as their blocks
/// are written, and the blocks are written straight into the body, so
/// beyond the symbols this holds little more than the body.
pub(crate) fn assemble(
    grammar: re_pair::Grammar,
    slots: u64,
    model: ContextModel,
    terminals_section: &[u8],
) -> (Shape, Vec<u8>) {
    let total: u64 = grammar.chunks.iter().map(|c| c.len() as u64).sum();
    let mut block_bits = CHUNK_BITS;
    while block_bits < MAX_BLOCK_BITS
        && (1u64 << block_bits) < slots
        && total / slots.div_ceil(1 << (block_bits + 1)) <= SYMBOLS_PER_BLOCK
    {
        block_bits += 1;
    }
    let lengths = huffman::code_lengths(&grammar.frequencies(), huffman::MAX_CODE_LEN);
    let code = match Code::new(&lengths) {
        Ok(code) => code,
        Err(e) => unreachable!("Huffman lengths are a prefix code: {e:?}"),
    };
    let terminals = grammar.terminals as u32;
    let rules = grammar.rules.len() as u32;
    let mut shape = Shape {
        block_bits,
        model,
        offsets: BlockOffsets::U64,
        packed_dictionary: true,
        capture_draws: false,
        draw_map_bits: None,
        terminals,
        rules,
        bits_len: 0,
    };
    let mut body = Vec::new();
    body.extend_from_slice(terminals_section);
    let symbol_bits = shape.symbol_bits();
    let mut packer = BitPacker::default();
    for &[a, b] in &grammar.rules {
        packer.put(a.into(), symbol_bits);
        packer.put(b.into(), symbol_bits);
    }
    body.extend_from_slice(&packer.finish());
    let mut packer = BitPacker::default();
    for &len in &lengths {
        packer.put(len.into(), PACKED_LENGTH_BITS);
    }
    body.extend_from_slice(&packer.finish());
    // Room for the widest offsets; the chosen form replaces it at the end.
    let offsets_at = body.len();
    let blocks = slots.div_ceil(1 << block_bits);
    let room = BlockOffsets::U64.section_len(blocks + 1).unwrap_or(0) as usize;
    body.resize(offsets_at + room, 0);
    let bits_at = body.len();
    let per_block = 1usize << (block_bits - CHUNK_BITS);
    let per_batch = per_block * ((ASSEMBLE_BATCH_SLOTS >> block_bits) as usize).max(1);
    let mut boundaries = Vec::with_capacity(blocks as usize + 1);
    boundaries.push(0u64);
    let mut chunks = grammar.chunks.into_iter();
    loop {
        let batch: Vec<Vec<u16>> = chunks.by_ref().take(per_batch).collect();
        if batch.is_empty() {
            break;
        }
        let encoded: Vec<Vec<u8>> = batch
            .par_chunks(per_block)
            .map(|block| {
                let mut w = BitWriter {
                    bytes: Vec::new(),
                    acc: 0,
                    used: 0,
                };
                for &s in block.iter().flatten() {
                    let (bits, len) = code.code(s);
                    w.put(bits, len);
                }
                w.align();
                w.bytes
            })
            .collect();
        drop(batch);
        for block in encoded {
            body.extend_from_slice(&block);
            boundaries.push((body.len() - bits_at) as u64);
        }
    }
    shape.bits_len = (body.len() - bits_at) as u64;
    shape.offsets = offsets_for(&boundaries);
    let mut offsets = Vec::new();
    write_offsets(&mut offsets, shape.offsets, &boundaries);
    body.splice(offsets_at..bits_at, offsets);
    debug_assert_eq!(shape.body_len(slots), Some(body.len() as u64));
    (shape, body)
}

/// [`fill`] in place for a chunk encoded on its own (the streaming path),
/// where no byte precedes the chunk: free slots before its first bound
/// one take that one's byte.
pub(crate) fn fill_chunk(stored: &mut [u8], freedom: &[u8]) {
    let first = freedom
        .iter()
        .position(|&f| f == Freedom::Exact as u8)
        .map(|i| stored[i]);
    let mut previous = first;
    for (b, &f) in stored.iter_mut().zip(freedom) {
        *b = match (f, previous) {
            (f, Some(p)) if f == Freedom::Any as u8 => p,
            (f, Some(p)) if f == Freedom::AnyWin as u8 && (1..=127).contains(&p) => p,
            (f, Some(p)) if f == Freedom::AnyNonWin as u8 && !(1..=127).contains(&p) => p,
            _ => *b,
        };
        previous = Some(*b);
    }
}

/// The draw map bits of the slots whose freedom bytes (bits 0-1; at most
/// [`DRAW_MAP_WORD_SLOTS`] of them, starting at a word's first slot) are
/// `freedom`: bit `i` set where unit `i` has a slot that may store a loss
/// for its draw ([`Freedom::AnyNonWin`]).
pub(crate) fn draw_map_word(freedom: &[u8]) -> u64 {
    freedom
        .chunks(1 << DRAW_MAP_UNIT_BITS)
        .enumerate()
        .filter(|(_, unit)| unit.iter().any(|&f| f & 3 == Freedom::AnyNonWin as u8))
        .fold(0, |word, (i, _)| word | 1 << i)
}

/// Ends a body with its draw map, made of the words of [`draw_map_word`]
/// in slot order, and marks the shape: with capture draws where some unit
/// is set (header byte 71 = 2), without them where none is or where no
/// terminal stands for a loss, so no slot stores one (byte 71 = 0: every
/// stored loss is exact, and a reader resolves none).
pub(crate) fn append_draw_map(shape: &mut Shape, body: &mut Vec<u8>, slots: u64, words: &[u64]) {
    debug_assert_eq!(shape.draw_map_bits, None);
    debug_assert_eq!(shape.body_len(slots), Some(body.len() as u64));
    let terminals = &body[..shape.terminals_len() as usize];
    let stores_losses = terminals.iter().any(|&v| v >= 128);
    if !stores_losses || words.iter().all(|&w| w == 0) {
        shape.capture_draws = false;
        return;
    }
    shape.capture_draws = true;
    shape.draw_map_bits = Some(DRAW_MAP_UNIT_BITS);
    let len = shape.draw_map_len(slots) as usize;
    body.extend(words.iter().flat_map(|w| w.to_le_bytes()).take(len));
    debug_assert_eq!(shape.body_len(slots), Some(body.len() as u64));
}

/// The most compact way to store these block boundaries (byte offsets in
/// the bit stream, from 0 to its length).
pub(super) fn offsets_for(boundaries: &[u64]) -> BlockOffsets {
    let total = boundaries.last().copied().unwrap_or(0);
    if total > u64::from(u32::MAX) {
        return BlockOffsets::U64;
    }
    let group = OFFSET_GROUP as usize;
    let fits = boundaries
        .chunks(group)
        .all(|g| g[g.len() - 1] - g[0] <= u64::from(u16::MAX));
    if fits {
        BlockOffsets::Grouped
    } else {
        BlockOffsets::U32
    }
}

/// Appends the offsets section for `boundaries` stored as `offsets`.
pub(super) fn write_offsets(body: &mut Vec<u8>, offsets: BlockOffsets, boundaries: &[u64]) {
    match offsets {
        BlockOffsets::U64 => boundaries
            .iter()
            .for_each(|b| body.extend_from_slice(&b.to_le_bytes())),
        BlockOffsets::U32 => boundaries
            .iter()
            .for_each(|&b| body.extend_from_slice(&(b as u32).to_le_bytes())),
        BlockOffsets::Grouped => {
            let group = OFFSET_GROUP as usize;
            for g in boundaries.chunks(group) {
                body.extend_from_slice(&(g[0] as u32).to_le_bytes());
            }
            for (i, &b) in boundaries.iter().enumerate() {
                let base = boundaries[i - i % group];
                body.extend_from_slice(&((b - base) as u16).to_le_bytes());
            }
        }
    }
}

/// Packs fixed-width fields into bytes, least significant bit first
/// (bit `i` of the section is bit `i % 8` of byte `i / 8`).
#[derive(Default)]
pub(super) struct BitPacker {
    bytes: Vec<u8>,
    acc: u64,
    used: u32,
}

impl BitPacker {
    /// Appends the low `bits` bits of `value` (`bits` ≤ 32).
    pub(super) fn put(&mut self, value: u32, bits: u32) {
        self.acc |= u64::from(value) << self.used;
        self.used += bits;
        while self.used >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.used -= 8;
        }
    }

    /// The bytes, the last one padded with zero bits.
    pub(super) fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}
