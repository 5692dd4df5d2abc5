//! Reading a compact body: its dictionary sections parsed and checked, a
//! slot's block located and decoded through the Huffman code and grammar.

use super::context::ContextModel;
use super::huffman::Code;
use super::layout::MAX_EXPANSION;
use crate::format::header::{
    BlockOffsets, CompactShape as Shape, FileProblem, BLOCK_BITS, OFFSET_GROUP, PACKED_LENGTH_BITS,
};
use crate::value::{Value, Wdl};

/// Reads fields packed by [`BitPacker`] (or, unpacked, little-endian u16
/// rules and byte lengths) from a dictionary section.
struct FieldReader<'a> {
    bytes: &'a [u8],
    pos: u64,
}

impl FieldReader<'_> {
    /// The next `bits`-bit field (`bits` ≤ 32; the section's length was
    /// checked, so the field is inside it).
    fn get(&mut self, bits: u32) -> u32 {
        let mut value = 0u64;
        let mut got = 0;
        while got < bits {
            let byte = self.bytes[(self.pos / 8) as usize];
            let offset = (self.pos % 8) as u32;
            let take = (8 - offset).min(bits - got);
            let piece = (u64::from(byte) >> offset) & ((1 << take) - 1);
            value |= piece << got;
            got += take;
            self.pos += u64::from(take);
        }
        value as u32
    }

    /// Whether every bit after the fields read is zero.
    fn rest_is_zero(&self) -> bool {
        let at = (self.pos / 8) as usize;
        let partial = self.pos % 8;
        let tail_ok = partial == 0 || self.bytes[at] >> partial == 0;
        let skip = at + usize::from(partial != 0);
        tail_ok && self.bytes[skip..].iter().all(|&b| b == 0)
    }
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
    /// Per terminal: its value's win/draw/loss if that is the same in
    /// every context, `None` if it depends on the context.
    wdl: Vec<Option<Wdl>>,
    rules: Vec<[u16; 2]>,
    /// Rule `i` for [`Compact::descend`]: its left symbol's expansion
    /// length beside the two symbols, so each step reads one entry.
    nodes: Vec<Node>,
    /// Expansion length of each symbol.
    expansion: Vec<u32>,
    /// Expansion length of each used symbol by canonical rank (frequent
    /// symbols first: the walk through a block reads few cache lines; two
    /// bytes an entry, as [`MAX_EXPANSION`] allows, so that the hot part
    /// of a large alphabet takes half the cache a `u32` would).
    ranked_expansion: Vec<u16>,
    code: Code,
    /// How the block boundaries are stored.
    offsets: BlockOffsets,
    /// Where the offsets section starts in the body (for grouped offsets:
    /// the group bases).
    offsets_at: usize,
    /// Where the grouped offsets' u16 deltas start.
    deltas_at: usize,
    bits_at: usize,
    bits_len: u64,
    /// Where a stored loss may stand for a draw (header bytes 71 and 81).
    hidden_draws: HiddenDraws,
}

/// Where a compact table's stored losses may stand for draws that a
/// capture proves.
#[derive(Clone, Copy, Debug)]
enum HiddenDraws {
    /// Nowhere: every stored loss is exact (no capture draws).
    Nowhere,
    /// In any slot (capture draws without a draw map).
    Anywhere,
    /// In the units of `2^unit_bits` slots whose bit is set in the draw map
    /// that starts at byte `at` of the body.
    InMap { unit_bits: u32, at: usize },
}

/// A rule with its left symbol's expansion length (six bytes: the
/// descent reads one per step, from a table of up to 65,535 rules).
#[derive(Clone, Copy, Debug)]
struct Node {
    left_len: u16,
    left: u16,
    right: u16,
}

/// Block boundary `i` of an offsets section at `offsets_at` (for grouped
/// offsets, with its deltas at `deltas_at`).
#[inline]
fn boundary_at(
    offsets: BlockOffsets,
    body: &[u8],
    offsets_at: usize,
    deltas_at: usize,
    i: u64,
) -> u64 {
    let i = i as usize;
    match offsets {
        BlockOffsets::U64 => u64_at(body, offsets_at + 8 * i),
        BlockOffsets::U32 => u32_at(body, offsets_at + 4 * i).into(),
        BlockOffsets::Grouped => {
            let base = u32_at(body, offsets_at + 4 * (i / OFFSET_GROUP as usize));
            u64::from(base) + u64::from(u16_at(body, deltas_at + 2 * i))
        }
    }
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
        let p = shape.rules as usize;
        if t == 0 || t > 256 || t + p > u16::MAX as usize {
            return Err(FileProblem::Field {
                field: "symbols",
                value: (t + p) as u64,
            });
        }
        let terminals_len = shape.terminals_len() as usize;
        let terminals = body[..terminals_len].to_vec();
        let contexts = shape.model.contexts();
        let wdl = (0..t)
            .map(|terminal| {
                let wdl = |c: usize| Value::from_table_byte(terminals[c * t + terminal]).wdl();
                let first = wdl(0);
                (1..contexts).all(|c| wdl(c) == first).then_some(first)
            })
            .collect();
        let rules_at = terminals_len;
        let lengths_at = rules_at + shape.rules_len() as usize;
        let offsets_at = lengths_at + shape.lengths_len() as usize;
        let mut fields = FieldReader {
            bytes: &body[rules_at..lengths_at],
            pos: 0,
        };
        let symbol_bits = shape.symbol_bits();
        let mut next_symbol = || -> u16 {
            if shape.packed_dictionary {
                fields.get(symbol_bits) as u16
            } else {
                fields.get(16) as u16
            }
        };
        let mut rules = Vec::with_capacity(p);
        let block_len = 1u64 << shape.block_bits;
        let mut expansion: Vec<u32> = vec![1; t];
        for i in 0..p {
            let (a, b) = (next_symbol(), next_symbol());
            if a as usize >= t + i || b as usize >= t + i {
                return Err(corrupt("a rule refers to a later symbol"));
            }
            let len = u64::from(expansion[a as usize]) + u64::from(expansion[b as usize]);
            if len > block_len {
                return Err(corrupt("a symbol longer than a block"));
            }
            if len > MAX_EXPANSION {
                return Err(corrupt("a symbol longer than 65,535 slots"));
            }
            expansion.push(len as u32);
            rules.push([a, b]);
        }
        if !fields.rest_is_zero() {
            return Err(corrupt("padding bits of the rules"));
        }
        let lengths_section = &body[lengths_at..offsets_at];
        let lengths: Vec<u8> = if shape.packed_dictionary {
            let mut fields = FieldReader {
                bytes: lengths_section,
                pos: 0,
            };
            let lengths = (0..t + p)
                .map(|_| fields.get(PACKED_LENGTH_BITS) as u8)
                .collect();
            if !fields.rest_is_zero() {
                return Err(corrupt("padding bits of the code lengths"));
            }
            lengths
        } else {
            lengths_section.to_vec()
        };
        let code =
            Code::new(&lengths).map_err(|_| corrupt("code lengths are not a prefix code"))?;
        let ranked_expansion = (0..code.used() as u32)
            .map(|rank| expansion[code.symbol_of_rank(rank) as usize] as u16)
            .collect();
        let nodes = rules
            .iter()
            .map(|&[left, right]| Node {
                left_len: expansion[left as usize] as u16,
                left,
                right,
            })
            .collect();
        let blocks = shape.blocks(slots);
        let groups = (blocks + 1).div_ceil(OFFSET_GROUP) as usize;
        let bits_at =
            offsets_at + shape.offsets_len(slots).ok_or(corrupt("section sizes"))? as usize;
        let hidden_draws = match shape.draw_map_bits {
            _ if !shape.capture_draws => HiddenDraws::Nowhere,
            None => HiddenDraws::Anywhere,
            Some(unit_bits) => {
                // The map ends the body; the bits after its last unit must
                // be zero.
                let units = slots.div_ceil(1 << unit_bits);
                if !units.is_multiple_of(8) && body[body.len() - 1] >> (units % 8) != 0 {
                    return Err(corrupt("padding bits of the draw map"));
                }
                HiddenDraws::InMap {
                    unit_bits,
                    at: bits_at + shape.bits_len as usize,
                }
            }
        };
        Ok(Compact {
            block_bits: shape.block_bits,
            slots,
            blocks,
            model: shape.model,
            t,
            wdl,
            terminals,
            rules,
            nodes,
            expansion,
            ranked_expansion,
            code,
            offsets: shape.offsets,
            offsets_at,
            deltas_at: offsets_at + 4 * groups,
            bits_at,
            bits_len: shape.bits_len,
            hidden_draws,
        })
    }

    /// Whether the loss stored at `slot` may stand for a draw (that a
    /// capture proves): the file has capture draws, and the slot's draw map
    /// unit is set or the file has no map.
    #[inline]
    pub(crate) fn may_hide_draw(&self, body: &[u8], slot: u64) -> bool {
        match self.hidden_draws {
            HiddenDraws::Nowhere => false,
            HiddenDraws::Anywhere => true,
            HiddenDraws::InMap { unit_bits, at } => {
                let unit = slot >> unit_bits;
                body.get(at + (unit / 8) as usize)
                    .is_none_or(|byte| byte >> (unit % 8) & 1 != 0)
            }
        }
    }

    /// Where block boundary `i` (0 ..= blocks) lies in the bit stream.
    #[inline]
    fn boundary(&self, body: &[u8], i: u64) -> u64 {
        boundary_at(self.offsets, body, self.offsets_at, self.deltas_at, i)
    }

    /// The blocks.
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }

    /// The bytes of block `b`'s bit stream within `body`.
    fn block_bytes<'a>(&self, body: &'a [u8], b: u64) -> Result<&'a [u8], FileProblem> {
        let (start, end) = (self.boundary(body, b), self.boundary(body, b + 1));
        if start > end || end > self.bits_len {
            return Err(corrupt("block offsets"));
        }
        Ok(&body[self.bits_at + start as usize..self.bits_at + end as usize])
    }

    /// The slots of every block but the last.
    pub(crate) fn block_len(&self) -> u64 {
        1 << self.block_bits
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

    /// The win/draw/loss terminal `terminal` stands for, if that is the
    /// same in every context (then the context need not be computed).
    #[inline]
    pub(crate) fn wdl(&self, terminal: u8) -> Option<Wdl> {
        self.wdl[terminal as usize]
    }

    /// The value byte terminal `terminal` stands for in `context`.
    #[inline]
    pub(crate) fn value(&self, terminal: u8, context: usize) -> u8 {
        self.terminals[context * self.t + terminal as usize]
    }

    /// The terminal symbol stored in a slot (`slot < slots`).
    #[inline]
    pub(crate) fn terminal_at(&self, body: &[u8], slot: u64) -> Result<u8, FileProblem> {
        let at = self.locate(body, slot)?;
        self.terminal_in(at)
    }

    /// The bytes of the block that holds `slot` (`slot < slots`), and the
    /// slot's offset in it, for [`Compact::terminal_in`]. Asks the processor
    /// to start loading the block's first bytes, so a caller with other
    /// work to do (a context to compute) does it while they come.
    #[inline]
    pub(crate) fn locate<'a>(&self, body: &'a [u8], slot: u64) -> Result<Located<'a>, FileProblem> {
        let bytes = self.block_bytes(body, slot >> self.block_bits)?;
        prefetch(bytes);
        Ok(Located {
            bytes,
            left: slot & ((1 << self.block_bits) - 1),
        })
    }

    /// The terminal symbol at a slot found by [`Compact::locate`].
    #[inline]
    pub(crate) fn terminal_in(&self, at: Located<'_>) -> Result<u8, FileProblem> {
        let mut left = at.left;
        let mut reader = BitReader {
            bytes: at.bytes,
            pos: 0,
        };
        // Past the end the reader reads zeros, and every symbol covers at
        // least one slot, so the walk ends; whether a code ran past the
        // block's end is checked once, at the slot (positions only grow).
        loop {
            let rank = reader.rank_unchecked(&self.code)?;
            let expansion = u64::from(self.ranked_expansion[rank as usize]);
            if left < expansion {
                reader.check_end()?;
                return Ok(self.descend(self.code.symbol_of_rank(rank), left as u32));
            }
            left -= expansion;
        }
    }

    /// The terminal at offset `left` of symbol `s`'s expansion.
    #[inline]
    fn descend(&self, mut s: u16, mut left: u32) -> u8 {
        let t = self.t;
        while s as usize >= t {
            let node = self.nodes[s as usize - t];
            if left < u32::from(node.left_len) {
                s = node.left;
            } else {
                left -= u32::from(node.left_len);
                s = node.right;
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
                        let [a, b] = self.rules[i];
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

/// A slot's block, found by [`Compact::locate`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Located<'a> {
    bytes: &'a [u8],
    left: u64,
}

/// Asks the processor to load the first cache lines of `bytes` (a hint:
/// nothing is read, and nothing happens on other processors).
#[inline]
#[allow(unsafe_code)]
fn prefetch(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for line in bytes.chunks(64).take(2) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor
        // has; a prefetch reads nothing and cannot fault (the pointer is
        // into `bytes` anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// The big-endian word of the bytes from `at` on, zeros past the end (the
/// last few bytes of a block; out of the way of the common case).
#[cold]
#[inline(never)]
fn tail_word(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    let rest = bytes.get(at..).unwrap_or(&[]);
    b[..rest.len()].copy_from_slice(rest);
    u64::from_be_bytes(b)
}

/// Reads Huffman codes MSB first from a block's bytes (zeros past the end;
/// a code read past the end is an error).
struct BitReader<'a> {
    bytes: &'a [u8],
    pos: u64,
}

impl BitReader<'_> {
    /// The next 64 bits from the current position (zeros past the end).
    #[inline(always)]
    fn window(&self) -> u64 {
        let at = (self.pos / 8) as usize;
        let word = match self.bytes.get(at..at + 8) {
            Some(w) => {
                let mut b = [0u8; 8];
                b.copy_from_slice(w);
                u64::from_be_bytes(b)
            }
            None => tail_word(self.bytes, at),
        };
        word << (self.pos % 8)
    }

    #[inline]
    fn symbol(&mut self, code: &Code) -> Result<u16, FileProblem> {
        Ok(code.symbol_of_rank(self.rank(code)?))
    }

    /// The next code's symbol as its canonical rank.
    #[inline(always)]
    fn rank(&mut self, code: &Code) -> Result<u32, FileProblem> {
        let rank = self.rank_unchecked(code)?;
        self.check_end()?;
        Ok(rank)
    }

    /// [`BitReader::rank`] without checking that the code ended inside the
    /// bytes (zeros are read past the end): for a reader that checks once,
    /// with [`BitReader::check_end`], after its last code.
    #[inline(always)]
    fn rank_unchecked(&mut self, code: &Code) -> Result<u32, FileProblem> {
        let (rank, len) = code
            .decode_rank(self.window())
            .ok_or(corrupt("a bit pattern that is no code"))?;
        self.pos += u64::from(len);
        Ok(rank)
    }

    /// Whether every code read so far ended inside the bytes.
    #[inline(always)]
    fn check_end(&self) -> Result<(), FileProblem> {
        if self.pos > 8 * self.bytes.len() as u64 {
            return Err(corrupt("a block ends inside a code"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::encode::{assemble, encode, offsets_for, write_offsets, BitPacker, Stored};
    use super::super::layout::CHUNK_BITS;
    use super::super::re_pair;
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
    fn offsets_take_the_smallest_form_that_holds_them_and_read_back() {
        let small: Vec<u64> = (0..200).map(|i| i * 100).collect();
        let wide: Vec<u64> = (0..200).map(|i| i * 2000).collect();
        let huge = vec![0, 1 << 33];
        assert_eq!(offsets_for(&small), BlockOffsets::Grouped);
        assert_eq!(offsets_for(&wide), BlockOffsets::U32);
        assert_eq!(offsets_for(&huge), BlockOffsets::U64);
        for boundaries in [small, wide, huge] {
            for offsets in [BlockOffsets::U64, BlockOffsets::U32, BlockOffsets::Grouped] {
                if offsets_for(&boundaries) == BlockOffsets::U64 && offsets != BlockOffsets::U64
                    || offsets_for(&boundaries) == BlockOffsets::U32
                        && offsets == BlockOffsets::Grouped
                {
                    continue;
                }
                let mut body = vec![7u8; 3];
                write_offsets(&mut body, offsets, &boundaries);
                let n = boundaries.len() as u64;
                assert_eq!(body.len() as u64 - 3, offsets.section_len(n).unwrap());
                let deltas_at = 3 + 4 * n.div_ceil(OFFSET_GROUP) as usize;
                for (i, &b) in boundaries.iter().enumerate() {
                    assert_eq!(boundary_at(offsets, &body, 3, deltas_at, i as u64), b);
                }
            }
        }
    }

    #[test]
    fn packed_fields_round_trip_and_padding_is_checked() {
        for bits in [1, 5, 7, 8, 13, 16] {
            let values: Vec<u32> = (0..37u32)
                .map(|i| i.wrapping_mul(2654435761) & ((1 << bits) - 1))
                .collect();
            let mut packer = BitPacker::default();
            values.iter().for_each(|&v| packer.put(v, bits));
            let bytes = packer.finish();
            assert_eq!(bytes.len() as u32, (37 * bits).div_ceil(8));
            let mut reader = FieldReader {
                bytes: &bytes,
                pos: 0,
            };
            let back: Vec<u32> = (0..37).map(|_| reader.get(bits)).collect();
            assert_eq!(back, values, "{bits} bits");
            assert!(reader.rest_is_zero());
            if (37 * bits) % 8 != 0 {
                let mut dirty = bytes.clone();
                *dirty.last_mut().unwrap() |= 0x80;
                let mut reader = FieldReader {
                    bytes: &dirty,
                    pos: 0,
                };
                for _ in 0..37 {
                    let _ = reader.get(bits);
                }
                assert!(!reader.rest_is_zero(), "{bits} bits");
            }
        }
    }

    /// The same body in the first layout of format 2 (u16 rules, a byte
    /// per code length, u32 offsets), which readers still accept.
    fn unpacked(shape: Shape, slots: u64, body: &[u8]) -> (Shape, Vec<u8>) {
        let c = Compact::parse(shape, slots, body).unwrap();
        let old = Shape {
            packed_dictionary: false,
            offsets: BlockOffsets::U32,
            ..shape
        };
        let mut out = body[..shape.terminals_len() as usize].to_vec();
        for [a, b] in &c.rules {
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
        }
        let lengths_at = (shape.terminals_len() + shape.rules_len()) as usize;
        let mut fields = FieldReader {
            bytes: &body[lengths_at..],
            pos: 0,
        };
        for _ in 0..shape.terminals + shape.rules {
            out.push(fields.get(PACKED_LENGTH_BITS) as u8);
        }
        let boundaries: Vec<u64> = (0..=c.blocks()).map(|i| c.boundary(body, i)).collect();
        write_offsets(&mut out, BlockOffsets::U32, &boundaries);
        out.extend_from_slice(&body[c.bits_at..]);
        (old, out)
    }

    #[test]
    fn the_first_layout_of_format_2_still_reads() {
        let values: Vec<u8> = (0..20_000u32)
            .map(|i| [1, 1, 3, 129, 0][(i * i % 7 % 5) as usize])
            .collect();
        let (shape, body) = roundtrip(&values, &vec![0; values.len()]);
        assert!(shape.packed_dictionary && shape.offsets == BlockOffsets::Grouped);
        let (old, old_body) = unpacked(shape, values.len() as u64, &body);
        assert_eq!(
            old.body_len(values.len() as u64),
            Some(old_body.len() as u64)
        );
        assert!(old_body.len() > body.len());
        let c = Compact::parse(old, values.len() as u64, &old_body).unwrap();
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(c.value(c.terminal_at(&old_body, i as u64).unwrap(), 0), v);
        }
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

    /// A symbol may expand to at most 65,535 slots (the reader keeps
    /// expansion lengths in two bytes): one of 2^15 slots reads, one of
    /// 2^16 (in a block big enough to hold it) is a named error.
    #[test]
    fn symbols_longer_than_65535_slots_are_corrupt() {
        let build = |doublings: u16| {
            let slots = 1u64 << doublings;
            // Symbol k + 1 is symbol k twice: the last expands to 2^doublings.
            let rules: Vec<[u16; 2]> = (0..doublings).map(|k| [k, k]).collect();
            let mut chunks = vec![Vec::new(); (slots >> CHUNK_BITS) as usize];
            chunks[0].push(doublings);
            let grammar = re_pair::Grammar {
                terminals: 1,
                rules,
                chunks,
            };
            let (shape, body) = assemble(grammar, slots, ContextModel::None, &[7]);
            assert!(1u64 << shape.block_bits >= slots);
            (shape, slots, body)
        };
        let (shape, slots, body) = build(15);
        let c = Compact::parse(shape, slots, &body).unwrap();
        assert_eq!(c.terminal_at(&body, 12_345).unwrap(), 0);
        assert_eq!(c.value(0, 0), 7);
        let (shape, slots, body) = build(16);
        assert!(matches!(
            Compact::parse(shape, slots, &body),
            Err(FileProblem::Corrupt(what)) if what.contains("65,535")
        ));
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
