//! The compact payload of format version 2: the value bytes of a class,
//! with don't-care slots filled to compress well, as a Re-Pair grammar
//! whose symbols are Huffman-coded in independently decodable blocks.
//!
//! Layout after the 128-byte header (`docs/tablebase-format.md`):
//!
//! ```text
//! terminals  T bytes          the value byte of each terminal symbol
//! pairs      P × (u16, u16)   symbol T + i expands to left, then right
//! lengths    T + P bytes      Huffman code length per symbol (0 = unused)
//! offsets    (B + 1) × u32/u64  byte offset of each block in the bit stream
//! bits       payload bytes    the blocks, each byte-aligned, MSB first
//! ```
//!
//! Block `b` holds the slots `b · 2^block_bits ..` up to the next block:
//! whole symbols whose expansions add up to exactly that many slots.

use crate::context::ContextModel;
use crate::file::{CompactShape as Shape, FileProblem, BLOCK_BITS};
use crate::huffman::{self, Code};
use crate::repair;
use rayon::prelude::*;

/// Slots per chunk that pairs never cross; blocks are whole chunks, so
/// the smallest block a file may use.
const CHUNK_BITS: u32 = *BLOCK_BITS.start();
/// The largest block.
const MAX_BLOCK_BITS: u32 = *BLOCK_BITS.end();
/// Blocks are made as big as keeps about this many symbols in one, so a
/// probe decodes about half of that.
const SYMBOLS_PER_BLOCK: u64 = 32;

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
/// before it where allowed.
fn fill(values: &[u8], freedom: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len());
    let mut previous: Option<u8> = None;
    for (&v, &f) in values.iter().zip(freedom) {
        let byte = match (f, previous) {
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
    let max_symbols = (slots / 16).clamp(256, u16::MAX as u64) as usize;
    let grammar = repair::compress(chunks, order.len(), max_symbols);
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
    let per_block = 1usize << (block_bits - CHUNK_BITS);
    let blocks: Vec<Vec<u8>> = grammar
        .chunks
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
    let mut body = Vec::new();
    body.extend_from_slice(&terminals_section);
    for &[a, b] in &grammar.pairs {
        body.extend_from_slice(&a.to_le_bytes());
        body.extend_from_slice(&b.to_le_bytes());
    }
    body.extend_from_slice(&lengths);
    let total: u64 = blocks.iter().map(|b| b.len() as u64).sum();
    let offset_bytes = if total <= u64::from(u32::MAX) { 4 } else { 8 };
    let mut offset = 0u64;
    for end in blocks
        .iter()
        .map(|block| {
            let start = offset;
            offset += block.len() as u64;
            start
        })
        .collect::<Vec<u64>>()
        .into_iter()
        .chain(std::iter::once(total))
    {
        body.extend_from_slice(&end.to_le_bytes()[..offset_bytes]);
    }
    for block in &blocks {
        body.extend_from_slice(block);
    }
    let shape = Shape {
        block_bits,
        model,
        offset_bytes: offset_bytes as u32,
        capture_draws: false,
        terminals: order.len() as u32,
        pairs: grammar.pairs.len() as u32,
        bits_len: offset,
    };
    (shape, body)
}

/// A compact body's decoding tables, parsed and checked; the bytes stay in
/// the file (memory, or a map) and are passed to each call.
#[derive(Clone, Debug)]
pub(crate) struct Compact {
    block_bits: u32,
    slots: u64,
    blocks: u64,
    model: ContextModel,
    /// Terminal symbols.
    t: usize,
    /// The value of terminal `t` in context `c` at `c · T + t`.
    terminals: Vec<u8>,
    pairs: Vec<[u16; 2]>,
    /// Expansion length of each symbol.
    expansion: Vec<u32>,
    /// Expansion length of each used symbol by canonical rank (frequent
    /// symbols first: the walk through a block reads few cache lines).
    ranked_expansion: Vec<u32>,
    code: Code,
    /// Where the offsets and the bit stream start in the body.
    offsets_at: usize,
    /// Bytes per offset: 4 or 8.
    offset_bytes: usize,
    bits_at: usize,
    bits_len: u64,
}

fn corrupt(what: &'static str) -> FileProblem {
    FileProblem::Corrupt(what)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

impl Compact {
    /// Parses the dictionary and code of a body of exactly the length the
    /// shape implies. Cost: proportional to the symbols, not the slots.
    pub(crate) fn parse(shape: Shape, slots: u64, body: &[u8]) -> Result<Compact, FileProblem> {
        if shape.body_len(slots) != Some(body.len() as u64) {
            return Err(corrupt("section sizes"));
        }
        if !BLOCK_BITS.contains(&shape.block_bits) {
            return Err(FileProblem::Field {
                field: "block bits",
                value: shape.block_bits.into(),
            });
        }
        let t = shape.terminals as usize;
        let p = shape.pairs as usize;
        if t == 0 || t > 256 || t + p > u16::MAX as usize {
            return Err(FileProblem::Field {
                field: "symbols",
                value: (t + p) as u64,
            });
        }
        let contexts = shape.model.contexts();
        let terminals = body[..t * contexts].to_vec();
        let mut pairs = Vec::with_capacity(p);
        let block_len = 1u64 << shape.block_bits;
        let mut expansion: Vec<u32> = vec![1; t];
        for i in 0..p {
            let at = t * contexts + 4 * i;
            let (a, b) = (u16_at(body, at), u16_at(body, at + 2));
            if a as usize >= t + i || b as usize >= t + i {
                return Err(corrupt("a pair refers to a later symbol"));
            }
            let len = u64::from(expansion[a as usize]) + u64::from(expansion[b as usize]);
            if len > block_len {
                return Err(corrupt("a symbol longer than a block"));
            }
            expansion.push(len as u32);
            pairs.push([a, b]);
        }
        let lengths_at = t * contexts + 4 * p;
        let code = Code::new(&body[lengths_at..lengths_at + t + p])
            .map_err(|_| corrupt("code lengths are not a prefix code"))?;
        let ranked_expansion = (0..code.used() as u32)
            .map(|rank| expansion[code.symbol_of_rank(rank) as usize])
            .collect();
        let offsets_at = lengths_at + t + p;
        let blocks = shape.blocks(slots);
        let offset_bytes = shape.offset_bytes as usize;
        if offset_bytes != 4 && offset_bytes != 8 {
            return Err(FileProblem::Field {
                field: "offset width",
                value: offset_bytes as u64,
            });
        }
        let bits_at = offsets_at + offset_bytes * (blocks as usize + 1);
        Ok(Compact {
            block_bits: shape.block_bits,
            slots,
            blocks,
            model: shape.model,
            t,
            terminals,
            pairs,
            expansion,
            ranked_expansion,
            code,
            offsets_at,
            offset_bytes,
            bits_at,
            bits_len: shape.bits_len,
        })
    }

    /// The blocks.
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The bytes of block `b`'s bit stream within `body`.
    fn block_bytes<'a>(&self, body: &'a [u8], b: u64) -> Result<&'a [u8], FileProblem> {
        let w = self.offset_bytes;
        let at = self.offsets_at + w * b as usize;
        let (start, end) = if w == 4 {
            (u64::from(u32_at(body, at)), u64::from(u32_at(body, at + 4)))
        } else {
            (u64_at(body, at), u64_at(body, at + 8))
        };
        if start > end || end > self.bits_len {
            return Err(corrupt("block offsets"));
        }
        Ok(&body[self.bits_at + start as usize..self.bits_at + end as usize])
    }

    /// The slots of block `b`.
    fn block_slots(&self, b: u64) -> u64 {
        let start = b << self.block_bits;
        (self.slots - start).min(1 << self.block_bits)
    }

    /// The context model.
    pub(crate) fn model(&self) -> ContextModel {
        self.model
    }

    /// The value byte terminal `terminal` stands for in `context`.
    #[inline]
    pub(crate) fn value(&self, terminal: u8, context: usize) -> u8 {
        self.terminals[context * self.t + terminal as usize]
    }

    /// The terminal symbol stored in a slot (`slot < slots`).
    #[inline]
    pub(crate) fn terminal_at(&self, body: &[u8], slot: u64) -> Result<u8, FileProblem> {
        let b = slot >> self.block_bits;
        let bytes = self.block_bytes(body, b)?;
        let mut left = slot & ((1 << self.block_bits) - 1);
        let mut reader = BitReader { bytes, pos: 0 };
        loop {
            let rank = reader.rank(&self.code)?;
            let len = u64::from(self.ranked_expansion[rank as usize]);
            if left < len {
                return Ok(self.descend(self.code.symbol_of_rank(rank), left as u32));
            }
            left -= len;
        }
    }

    /// The terminal at offset `left` of symbol `s`'s expansion.
    #[inline]
    fn descend(&self, mut s: u16, mut left: u32) -> u8 {
        let t = self.t;
        while s as usize >= t {
            let [a, b] = self.pairs[s as usize - t];
            let la = self.expansion[a as usize];
            if left < la {
                s = a;
            } else {
                left -= la;
                s = b;
            }
        }
        s as u8
    }

    /// Appends the terminal symbols of block `b`'s slots to `out`, checking
    /// that its symbols cover exactly its slots.
    pub(crate) fn decode_block(
        &self,
        body: &[u8],
        b: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), FileProblem> {
        let bytes = self.block_bytes(body, b)?;
        let slots = self.block_slots(b);
        let mut reader = BitReader { bytes, pos: 0 };
        let mut done = 0u64;
        let mut stack: Vec<u16> = Vec::new();
        while done < slots {
            let s = reader.symbol(&self.code)?;
            done += u64::from(self.expansion[s as usize]);
            if done > slots {
                return Err(corrupt("a block's symbols overrun it"));
            }
            stack.push(s);
            while let Some(s) = stack.pop() {
                match (s as usize).checked_sub(self.t) {
                    None => out.push(s as u8),
                    Some(i) => {
                        let [a, b] = self.pairs[i];
                        stack.push(b);
                        stack.push(a);
                    }
                }
            }
        }
        if reader.pos.div_ceil(8) != bytes.len() as u64 {
            return Err(corrupt("a block has bytes left over"));
        }
        Ok(())
    }
}

/// Reads Huffman codes MSB first from a block's bytes (zeros past the end;
/// a code read past the end is an error).
struct BitReader<'a> {
    bytes: &'a [u8],
    pos: u64,
}

impl BitReader<'_> {
    #[inline]
    fn window(&self) -> u64 {
        let at = (self.pos / 8) as usize;
        let word = match self.bytes.get(at..at + 8) {
            Some(w) => {
                let mut b = [0u8; 8];
                b.copy_from_slice(w);
                u64::from_be_bytes(b)
            }
            None => {
                let mut b = [0u8; 8];
                let rest = self.bytes.get(at..).unwrap_or(&[]);
                b[..rest.len()].copy_from_slice(rest);
                u64::from_be_bytes(b)
            }
        };
        word << (self.pos % 8)
    }

    #[inline]
    fn symbol(&mut self, code: &Code) -> Result<u16, FileProblem> {
        Ok(code.symbol_of_rank(self.rank(code)?))
    }

    /// The next code's symbol as its canonical rank.
    #[inline]
    fn rank(&mut self, code: &Code) -> Result<u32, FileProblem> {
        let (rank, len) = code
            .decode_rank(self.window())
            .ok_or(corrupt("a bit pattern that is no code"))?;
        self.pos += u64::from(len);
        if self.pos > 8 * self.bytes.len() as u64 {
            return Err(corrupt("a block ends inside a code"));
        }
        Ok(rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(values: &[u8], freedom: &[u8]) -> (Shape, Vec<u8>) {
        let (shape, body) = encode(values, freedom, Stored::Values);
        let c = Compact::parse(shape, values.len() as u64, &body).unwrap();
        let mut all = Vec::new();
        for b in 0..c.blocks() {
            c.decode_block(&body, b, &mut all).unwrap();
        }
        assert_eq!(all.len(), values.len());
        for (i, (&v, &f)) in values.iter().zip(freedom).enumerate() {
            let terminal = c.terminal_at(&body, i as u64).unwrap();
            assert_eq!(terminal, all[i]);
            let got = c.value(terminal, 0);
            match f {
                0 => assert_eq!(got, v, "slot {i}"),
                1 => assert!((1..=127).contains(&got)),
                _ => {}
            }
        }
        (shape, body)
    }

    #[test]
    fn values_round_trip() {
        let mut state = 7u64;
        let values: Vec<u8> = (0..300_000u32)
            .map(|i| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                match state >> 61 {
                    0 => (state >> 20) as u8,
                    1..=4 => 1,
                    _ => [130, 2, 130, 4][(i / 5 % 4) as usize],
                }
            })
            .collect();
        let freedom: Vec<u8> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| match (v, i % 13) {
                (1, _) => 1,
                (_, 0) => 2,
                _ => 0,
            })
            .collect();
        let (_, body) = roundtrip(&values, &freedom);
        assert!(body.len() < values.len() / 2);
    }

    #[test]
    fn ranks_read_through_their_context() {
        // Three terminals in each of the model's contexts: terminal r means
        // the value maps[c * 3 + r] in context c.
        let model = ContextModel::SafeSteps;
        let ranks = 3;
        let maps: Vec<u8> = (0..model.contexts() * ranks)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        let stored: Vec<u8> = (0..50_000u32).map(|i| (i * i / 11 % 3) as u8).collect();
        let freedom = vec![0u8; stored.len()];
        let (shape, body) = encode(
            &stored,
            &freedom,
            Stored::Ranks {
                model,
                ranks,
                maps: &maps,
            },
        );
        assert_eq!(shape.model, model);
        assert_eq!(shape.body_len(stored.len() as u64), Some(body.len() as u64));
        let c = Compact::parse(shape, stored.len() as u64, &body).unwrap();
        for (i, &r) in stored.iter().enumerate().step_by(37) {
            let terminal = c.terminal_at(&body, i as u64).unwrap();
            assert_eq!(terminal, r);
            for context in 0..model.contexts() {
                assert_eq!(
                    c.value(terminal, context),
                    maps[context * ranks + r as usize]
                );
            }
        }
    }

    #[test]
    fn tiny_and_uniform_tables() {
        roundtrip(&[5], &[0]);
        roundtrip(&[0; 5000], &[0; 5000]);
        roundtrip(&[3, 4, 5, 3, 4, 5, 3], &[0, 0, 2, 0, 1, 0, 0]);
    }

    #[test]
    fn damaged_bodies_are_errors_not_panics() {
        let values: Vec<u8> = (0..20_000u32).map(|i| (i / 3 % 7) as u8).collect();
        let freedom = vec![0u8; values.len()];
        let (shape, body) = encode(&values, &freedom, Stored::Values);
        for at in (0..body.len()).step_by(7) {
            for bit in [0, 3, 7] {
                let mut bad = body.clone();
                bad[at] ^= 1 << bit;
                if let Ok(c) = Compact::parse(shape, values.len() as u64, &bad) {
                    let mut out = Vec::new();
                    for b in 0..c.blocks() {
                        let _ = c.decode_block(&bad, b, &mut out);
                    }
                    for slot in (0..values.len() as u64).step_by(101) {
                        let _ = c.terminal_at(&bad, slot);
                    }
                }
            }
        }
        assert!(Compact::parse(shape, values.len() as u64, &body[..body.len() - 1]).is_err());
    }
}
