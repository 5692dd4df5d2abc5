//! Canonical, length-limited Huffman codes: lengths from frequencies, an
//! encoder, and a decoder that reads codes MSB-first from a 64-bit window.
//!
//! Canonical means the code is fixed by its lengths alone: symbols are
//! ordered by (length, symbol number), and each gets the next code of its
//! length. So a file stores one length byte per symbol, and a decoder
//! finds a code's length by comparing the left-aligned window with the
//! end of each length's code range (ends grow with the length).

/// The longest code the format allows.
pub(crate) const MAX_CODE_LEN: u32 = 24;

/// Code lengths (0 for an unused symbol, else `1..=limit`) of an optimal
/// prefix code for `freqs`, limited to `limit` bits by flattening the
/// frequencies until it fits. A single used symbol gets length 1.
pub(crate) fn code_lengths(freqs: &[u64], limit: u32) -> Vec<u8> {
    let mut freqs: Vec<u64> = freqs.to_vec();
    loop {
        let lengths = unlimited_lengths(&freqs);
        if lengths.iter().all(|&l| u32::from(l) <= limit) {
            return lengths;
        }
        for f in freqs.iter_mut().filter(|f| **f > 0) {
            *f = (*f >> 1).max(1);
        }
    }
}

fn unlimited_lengths(freqs: &[u64]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut lengths = vec![0u8; freqs.len()];
    let used: Vec<usize> = (0..freqs.len()).filter(|&s| freqs[s] > 0).collect();
    if used.len() == 1 {
        lengths[used[0]] = 1;
        return lengths;
    }
    // Nodes: leaves 0..n, then internal nodes; parent links give depths.
    let mut parent: Vec<usize> = vec![usize::MAX; used.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(node, &s)| Reverse((freqs[s], node)))
        .collect();
    while heap.len() > 1 {
        let Some(Reverse((fa, a))) = heap.pop() else {
            break;
        };
        let Some(Reverse((fb, b))) = heap.pop() else {
            break;
        };
        let node = parent.len();
        parent.push(usize::MAX);
        parent[a] = node;
        parent[b] = node;
        heap.push(Reverse((fa + fb, node)));
    }
    // Depth of each node: parents are created after their children, so a
    // reverse sweep sees each parent first.
    let mut depth = vec![0u32; parent.len()];
    for node in (0..parent.len()).rev() {
        if parent[node] != usize::MAX {
            depth[node] = depth[parent[node]] + 1;
        }
    }
    for (node, &s) in used.iter().enumerate() {
        lengths[s] = depth[node].min(255) as u8;
    }
    lengths
}

/// A canonical code, for encoding and decoding.
#[derive(Clone, Debug)]
pub(crate) struct Code {
    /// `codes[s]`: the code of symbol `s` (right-aligned), with its length.
    codes: Vec<(u32, u8)>,
    /// Symbols in canonical order.
    sorted: Vec<u16>,
    /// `ends[l]`: the left-aligned (in 64 bits) end of the codes of length
    /// up to `l`; `u64::MAX` stands for 2^64 past the last length.
    ends: [u64; MAX_CODE_LEN as usize + 2],
    /// `firsts[l]`: the left-aligned first code of length `l`.
    firsts: [u64; MAX_CODE_LEN as usize + 2],
    /// `offsets[l]`: index in `sorted` of the first symbol of length `l`.
    offsets: [u32; MAX_CODE_LEN as usize + 2],
    /// The longest used length.
    max_len: u32,
    /// Decoding table on the first [`FAST_BITS`] bits of the window:
    /// `rank << 8 | length` for codes of at most that length; for longer
    /// codes [`LONG`] with the shortest length a code with those first bits
    /// has (the ranges then decide, from that length on; where no code
    /// starts with them, a gap of an incomplete code, a length past the
    /// longest used one).
    fast: Box<[u32; 1 << FAST_BITS]>,
}

/// Bits of the window the decoding table looks at.
const FAST_BITS: u32 = 14;

/// Marks a [`Code::fast`] entry whose codes are longer than [`FAST_BITS`].
const LONG: u32 = 1 << 31;

/// Why a list of code lengths is not a usable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CodeError {
    /// A length above [`MAX_CODE_LEN`].
    TooLong,
    /// No symbol is used.
    Empty,
    /// The lengths overfill the code space (not a prefix code).
    Oversubscribed,
}

impl Code {
    /// The canonical code of `lengths` (0 = unused). Rejects lengths that
    /// are not a prefix code.
    pub(crate) fn new(lengths: &[u8]) -> Result<Code, CodeError> {
        let mut count = [0u64; MAX_CODE_LEN as usize + 2];
        for &l in lengths {
            if u32::from(l) > MAX_CODE_LEN {
                return Err(CodeError::TooLong);
            }
            count[l as usize] += 1;
        }
        count[0] = 0;
        let used: u64 = count.iter().sum();
        if used == 0 {
            return Err(CodeError::Empty);
        }
        // Kraft: the codes of each length must fit in what is left.
        let mut space: u64 = 1;
        for &c in &count[1..=MAX_CODE_LEN as usize] {
            space *= 2;
            if c > space {
                return Err(CodeError::Oversubscribed);
            }
            space -= c;
        }
        let mut sorted: Vec<u16> = (0..lengths.len() as u16)
            .filter(|&s| lengths[s as usize] > 0)
            .collect();
        sorted.sort_by_key(|&s| (lengths[s as usize], s));
        let mut codes = vec![(0u32, 0u8); lengths.len()];
        let mut firsts = [0u64; MAX_CODE_LEN as usize + 2];
        let mut ends = [0u64; MAX_CODE_LEN as usize + 2];
        let mut offsets = [0u32; MAX_CODE_LEN as usize + 2];
        let mut code: u64 = 0;
        let mut at = 0u32;
        let mut max_len = 0;
        for l in 1..=MAX_CODE_LEN {
            firsts[l as usize] = code << (64 - l);
            offsets[l as usize] = at;
            let c = count[l as usize];
            if c > 0 {
                max_len = l;
            }
            for &s in &sorted[at as usize..(at as u64 + c) as usize] {
                codes[s as usize] = (code as u32, l as u8);
                code += 1;
            }
            at += c as u32;
            // The end of the codes up to length `l`, left-aligned; the end
            // of a complete code is 2^64, kept as u64::MAX (a window equal
            // to it is still inside).
            ends[l as usize] = if code << (64 - l) == 0 && code > 0 {
                u64::MAX
            } else {
                code << (64 - l)
            };
            code <<= 1;
        }
        ends[MAX_CODE_LEN as usize + 1] = u64::MAX;
        let mut fast = Box::new([0u32; 1 << FAST_BITS]);
        for (rank, &s) in sorted.iter().enumerate() {
            let (c, l) = codes[s as usize];
            let l = u32::from(l);
            if l > FAST_BITS {
                break;
            }
            let first = (c << (FAST_BITS - l)) as usize;
            let rank = rank as u32;
            for e in &mut fast[first..first + (1 << (FAST_BITS - l))] {
                *e = rank << 8 | l;
            }
        }
        // The first bits of longer codes: the length of the code at the
        // smallest window with those bits, the shortest they can have.
        for (bits, e) in fast.iter_mut().enumerate() {
            if *e == 0 {
                let window = (bits as u64) << (64 - FAST_BITS);
                *e = LONG | length_from(&ends, window, FAST_BITS + 1);
            }
        }
        Ok(Code {
            codes,
            sorted,
            ends,
            firsts,
            offsets,
            max_len,
            fast,
        })
    }

    /// The code of a symbol: (bits, length).
    pub(crate) fn code(&self, symbol: u16) -> (u32, u8) {
        self.codes[symbol as usize]
    }

    /// Decodes the symbol at the front of a left-aligned window: (symbol,
    /// length), or `None` if the window starts with no code (an
    /// incomplete code's gap: the data is corrupt).
    #[cfg(test)]
    pub(crate) fn decode(&self, window: u64) -> Option<(u16, u32)> {
        let (rank, len) = self.decode_rank(window)?;
        Some((self.sorted[rank as usize], len))
    }

    /// Like [`Code::decode`], but answers the symbol's rank in canonical
    /// order (shorter codes first, see [`Code::symbol_of_rank`]): a decoder
    /// that keeps its per-symbol data in that order reads the frequent
    /// symbols' entries from a few cache lines.
    #[inline]
    pub(crate) fn decode_rank(&self, window: u64) -> Option<(u32, u32)> {
        let e = self.fast[(window >> (64 - FAST_BITS)) as usize];
        if e & LONG == 0 {
            return Some((e >> 8, e & 0xff));
        }
        // A code longer than FAST_BITS: its length is at least the entry's,
        // and the ranges of the lengths from there decide (a window past
        // the longest used length, or under a gap's entry, is a gap).
        let l = length_from(&self.ends, window, e & 0xff);
        if l > self.max_len {
            return None;
        }
        let rank = (window - self.firsts[l as usize]) >> (64 - l);
        let index = self.offsets[l as usize] as u64 + rank;
        (index < self.sorted.len() as u64).then_some((index as u32, l))
    }

    /// The symbol of canonical rank `rank` (`rank <` [`Code::used`]).
    #[inline]
    pub(crate) fn symbol_of_rank(&self, rank: u32) -> u16 {
        self.sorted[rank as usize]
    }

    /// The number of used symbols (ranks run `0..used`).
    pub(crate) fn used(&self) -> usize {
        self.sorted.len()
    }
}

/// The length of the code at the front of `window`, given that it is at
/// least `from`: the first length whose codes end above the window (`ends`
/// as in [`Code`]; the last entry, `u64::MAX`, stops the count, so a window
/// past every code gets a length above the longest used one).
#[inline]
fn length_from(ends: &[u64; MAX_CODE_LEN as usize + 2], window: u64, from: u32) -> u32 {
    let mut l = from;
    while (l as usize) < ends.len() - 1
        && window >= ends[l as usize]
        && ends[l as usize] != u64::MAX
    {
        l += 1;
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_a_prefix_code_and_limited() {
        let freqs: Vec<u64> = (0..300u64).map(|i| 1 + (1u64 << (i % 40))).collect();
        let lengths = code_lengths(&freqs, 16);
        assert!(lengths.iter().all(|&l| (1..=16).contains(&l)));
        assert!(Code::new(&lengths).is_ok());
    }

    #[test]
    fn round_trips_every_symbol() {
        let freqs = [5u64, 0, 1, 1, 100, 7, 0, 3];
        let lengths = code_lengths(&freqs, MAX_CODE_LEN);
        assert_eq!(lengths[1], 0);
        let code = Code::new(&lengths).unwrap();
        for s in 0..freqs.len() as u16 {
            if freqs[s as usize] == 0 {
                continue;
            }
            let (bits, len) = code.code(s);
            let window = (u64::from(bits) << (64 - len)) | (u64::MAX >> len >> 1);
            assert_eq!(code.decode(window), Some((s, u32::from(len))));
        }
    }

    /// The length of the code at the front of a window counted over every
    /// length, as plainly as possible: the reference for the table.
    fn decode_rank_plainly(code: &Code, window: u64) -> Option<(u32, u32)> {
        let l = 1
            + (1..=MAX_CODE_LEN as usize)
                .filter(|&l| window >= code.ends[l] && code.ends[l] != u64::MAX)
                .count() as u32;
        if l > code.max_len {
            return None;
        }
        let index =
            u64::from(code.offsets[l as usize]) + ((window - code.firsts[l as usize]) >> (64 - l));
        (index < code.sorted.len() as u64).then_some((index as u32, l))
    }

    #[test]
    fn long_codes_decode_as_the_plain_count_says() {
        let mut rng = surakarta::random::SplitMix::new(5);
        let mut next = move || rng.next_u64();
        // Frequencies over 2^30 apart: codes up to the longest length.
        let freqs: Vec<u64> = (0..3000u64).map(|i| 1 + (1u64 << (i * 7 % 31))).collect();
        let complete = code_lengths(&freqs, MAX_CODE_LEN);
        assert!(complete.iter().any(|&l| u32::from(l) > FAST_BITS + 4));
        // The same lengths with some longest codes left out: a gap at the end.
        let mut incomplete = complete.clone();
        let longest = *incomplete.iter().max().unwrap();
        let mut dropped = 0;
        for l in incomplete.iter_mut().filter(|l| **l == longest).take(3) {
            *l = 0;
            dropped += 1;
        }
        assert_eq!(dropped, 3);
        for lengths in [complete, incomplete, vec![3, 0, 1, 20, 16, 15]] {
            let code = Code::new(&lengths).unwrap();
            for s in 0..lengths.len() as u16 {
                let len = lengths[s as usize];
                if len == 0 {
                    continue;
                }
                let (bits, len) = code.code(s);
                let window = (u64::from(bits) << (64 - len)) | (next() >> len);
                assert_eq!(code.decode(window), Some((s, u32::from(len))));
            }
            for window in (0..200_000)
                .map(|_| next())
                .chain([0, u64::MAX, u64::MAX - 1])
            {
                assert_eq!(
                    code.decode_rank(window),
                    decode_rank_plainly(&code, window),
                    "{window:#x}"
                );
            }
        }
    }

    #[test]
    fn single_symbol_and_bad_lengths() {
        let code = Code::new(&[0, 1, 0]).unwrap();
        assert_eq!(code.decode(0), Some((1, 1)));
        assert_eq!(code.decode(u64::MAX), None);
        assert_eq!(Code::new(&[0, 0]).unwrap_err(), CodeError::Empty);
        assert_eq!(
            Code::new(&[1, 1, 1]).unwrap_err(),
            CodeError::Oversubscribed
        );
        assert_eq!(Code::new(&[25]).unwrap_err(), CodeError::TooLong);
    }
}
