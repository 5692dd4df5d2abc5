//! Grammar compression by recursive pairing (Re-Pair, in the approximate
//! many-digrams-per-pass form that large tables need): the most frequent
//! digrams (pairs of adjacent symbols) become new symbols, pass after pass, until
//! the symbol budget is spent or no digram repeats enough to pay for its
//! dictionary entry. A symbol then stands for a string of values (its
//! expansion), so runs and repeated patterns anywhere in a table shrink
//! to a few symbols, and a reader can skip a symbol by its expansion
//! length without expanding it.
//!
//! The sequence is cut into chunks that rules never cross, so every chunk
//! (and every block of whole chunks) decodes on its own.

use rayon::prelude::*;

/// A digram must occur this often to become a symbol (a dictionary entry
/// costs five bytes; 6 measured best of 3, 6 and 12 on the 6- and 7-piece
/// tables).
const MIN_COUNT: u32 = 6;

/// A grammar: terminals `0..terminals`, then symbol `terminals + i`
/// expands to `rules[i][0]` followed by `rules[i][1]` (both older).
#[derive(Clone, Debug)]
pub(crate) struct Grammar {
    /// The number of terminal symbols.
    pub(crate) terminals: usize,
    /// The rules, oldest first.
    pub(crate) rules: Vec<[u16; 2]>,
    /// The compressed sequence, one list of symbols per chunk.
    pub(crate) chunks: Vec<Vec<u16>>,
}

impl Grammar {
    /// The number of symbols.
    pub(crate) fn symbols(&self) -> usize {
        self.terminals + self.rules.len()
    }

    /// How often each symbol occurs in the chunks.
    pub(crate) fn frequencies(&self) -> Vec<u64> {
        let symbols = self.symbols();
        self.chunks
            .par_iter()
            .fold(
                || vec![0u64; symbols],
                |mut f, chunk| {
                    for &s in chunk {
                        f[s as usize] += 1;
                    }
                    f
                },
            )
            .reduce(
                || vec![0u64; symbols],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            )
    }
}

/// Alphabets up to this size count digrams in a dense square array.
const DENSE_SYMBOLS: usize = 1024;

/// The digrams of one pass that occur at least `min` times, each with its
/// count, in no particular order (the caller sorts them), and how many
/// distinct digrams there are.
///
/// Up to [`DENSE_SYMBOLS`] symbols, each thread counts its share of the
/// chunks in a square array and the arrays are added. Above, the digrams
/// are split into one part per thread by a hash of their key ([`part_of`]),
/// and each thread counts one part in an open-addressing table
/// ([`DigramTable`]): no table is merged into another, and each holds a
/// share of the distinct digrams (`size_hint`: how many there were last
/// pass).
fn count_digrams(
    chunks: &[Vec<u16>],
    symbols: usize,
    size_hint: usize,
    min: u32,
) -> (usize, Vec<(u32, u16, u16)>) {
    let threads = rayon::current_num_threads().max(1);
    // Each thread's share of the chunks.
    let per = chunks.len().div_ceil(threads).max(1);
    if symbols <= DENSE_SYMBOLS {
        let Some(counts) = chunks
            .par_chunks(per)
            .map(|part| {
                let mut counts = vec![0u32; symbols * symbols];
                for chunk in part {
                    for_each_digram(chunk, |a, b| counts[a as usize * symbols + b as usize] += 1);
                }
                counts
            })
            .reduce_with(|mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            })
        else {
            return (0, Vec::new());
        };
        let distinct = counts.iter().filter(|&&k| k > 0).count();
        let frequent = counts
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k >= min.max(1))
            .map(|(i, &k)| (k, (i / symbols) as u16, (i % symbols) as u16))
            .collect();
        return (distinct, frequent);
    }
    // Each thread sorts the digrams of its share of the chunks by the part
    // of the keys they fall in, then counts one part from every share.
    let shares: Vec<Vec<Vec<u32>>> = chunks
        .par_chunks(per)
        .map(|share| {
            let mut parts = vec![Vec::new(); threads];
            for chunk in share {
                for_each_digram(chunk, |a, b| {
                    let key = u32::from(a) << 16 | u32::from(b);
                    parts[part_of(digram_hash(key), threads)].push(key);
                });
            }
            parts
        })
        .collect();
    (0..threads)
        .into_par_iter()
        .map(|part| {
            let mut table = DigramTable::with_capacity(size_hint / threads);
            for share in &shares {
                for &key in &share[part] {
                    table.add(key, digram_hash(key));
                }
            }
            let frequent: Vec<_> = table.counted().filter(|&(k, _, _)| k >= min).collect();
            (table.len, frequent)
        })
        .reduce(
            || (0, Vec::new()),
            |(n, mut a), (m, b)| {
                a.extend(b);
                (n + m, a)
            },
        )
}

/// The part (below `parts`) a digram of hash `hash` is counted in: from the
/// hash's top bits, which [`DigramTable`]'s buckets do not use.
#[inline]
fn part_of(hash: u64, parts: usize) -> usize {
    (((hash >> 32) * parts as u64) >> 32) as usize
}

/// A digram key's hash: a multiply by an odd constant (the keys are a
/// table's own symbols, not chosen to collide).
#[inline]
fn digram_hash(key: u32) -> u64 {
    u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Counts by digram key (`left << 16 | right`): open addressing, linear
/// probing, each bucket a key and its count side by side (one cache line to
/// look at), a count of 0 marking an empty bucket; at most half full.
struct DigramTable {
    buckets: Vec<(u32, u32)>,
    mask: usize,
    len: usize,
}

impl DigramTable {
    /// An empty table with room for about `digrams` digrams.
    fn with_capacity(digrams: usize) -> DigramTable {
        let buckets = (2 * digrams).next_power_of_two().max(1 << 10);
        DigramTable {
            buckets: vec![(0, 0); buckets],
            mask: buckets - 1,
            len: 0,
        }
    }

    /// The bucket where the search for a key of hash `hash` starts (bits
    /// below [`part_of`]'s).
    #[inline]
    fn home(&self, hash: u64) -> usize {
        (hash >> 24) as usize & self.mask
    }

    /// Counts one occurrence of `key`, whose [`digram_hash`] is `hash`.
    #[inline]
    fn add(&mut self, key: u32, hash: u64) {
        let mut at = self.home(hash);
        loop {
            let bucket = &mut self.buckets[at];
            if bucket.1 == 0 {
                *bucket = (key, 1);
                self.len += 1;
                if 2 * self.len > self.mask {
                    self.grow();
                }
                return;
            }
            if bucket.0 == key {
                bucket.1 += 1;
                return;
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Doubles the buckets, keeping every count.
    fn grow(&mut self) {
        let old = std::mem::replace(self, DigramTable::with_capacity(self.mask + 1));
        for (key, count) in old.buckets {
            if count > 0 {
                let mut at = self.home(digram_hash(key));
                while self.buckets[at].1 != 0 {
                    at = (at + 1) & self.mask;
                }
                self.buckets[at] = (key, count);
                self.len += 1;
            }
        }
    }

    /// Every digram counted, with its count.
    fn counted(&self) -> impl Iterator<Item = (u32, u16, u16)> + '_ {
        self.buckets
            .iter()
            .filter(|&&(_, k)| k > 0)
            .map(|&(key, k)| (k, (key >> 16) as u16, key as u16))
    }
}

/// Calls `f` with each non-overlapping occurrence of a digram in a chunk
/// (`aaa` holds one `aa`).
#[inline]
fn for_each_digram(chunk: &[u16], mut f: impl FnMut(u16, u16)) {
    let mut i = 0;
    while i + 1 < chunk.len() {
        let (a, b) = (chunk[i], chunk[i + 1]);
        f(a, b);
        // Skip the overlapping second half of a run `aaa`.
        if a == b && i + 2 < chunk.len() && chunk[i + 2] == a {
            i += 2;
        } else {
            i += 1;
        }
    }
}

/// Compresses `chunks` (terminal symbols `0..terminals`) into a grammar of
/// at most `max_symbols` symbols (at most 65,535).
pub(crate) fn compress(mut chunks: Vec<Vec<u16>>, terminals: usize, max_symbols: usize) -> Grammar {
    let max_symbols = max_symbols.clamp(terminals, u16::MAX as usize);
    let mut rules: Vec<[u16; 2]> = Vec::new();
    // Distinct digrams of the last pass (a size hint for the next).
    let mut distinct = chunks.iter().map(Vec::len).sum::<usize>() / 64;
    loop {
        let symbols = terminals + rules.len();
        if symbols >= max_symbols {
            break;
        }
        let (found, mut frequent) = count_digrams(&chunks, symbols, distinct, MIN_COUNT);
        distinct = found;
        if frequent.is_empty() {
            break;
        }
        frequent.sort_unstable_by(|x, y| y.cmp(x));
        // Take many digrams per pass, but only digrams that cannot compete
        // for the same symbol occurrence (so their counts stay true).
        let budget = (max_symbols - symbols).min((symbols / 4).max(8));
        let top = frequent[0].0;
        let mut is_left = vec![false; symbols];
        let mut is_right = vec![false; symbols];
        let mut by_left: Vec<Vec<(u16, u16)>> = vec![Vec::new(); symbols];
        let mut added = 0;
        for &(count, a, b) in &frequent {
            if added == budget || count < top / 16 {
                break;
            }
            let (ua, ub) = (a as usize, b as usize);
            // (For `aa` this also keeps `a` out of every other chosen digram.)
            if is_right[ua] || is_left[ub] {
                continue;
            }
            is_left[ua] = true;
            is_right[ub] = true;
            let new = (symbols + added) as u16;
            by_left[ua].push((b, new));
            rules.push([a, b]);
            added += 1;
        }
        chunks.par_iter_mut().for_each(|chunk| {
            let mut out = 0;
            let mut i = 0;
            let n = chunk.len();
            while i < n {
                let a = chunk[i];
                let mut replaced = false;
                if i + 1 < n {
                    let b = chunk[i + 1];
                    if let Some(&(_, new)) = by_left[a as usize].iter().find(|&&(r, _)| r == b) {
                        chunk[out] = new;
                        i += 2;
                        replaced = true;
                    }
                }
                if !replaced {
                    chunk[out] = a;
                    i += 1;
                }
                out += 1;
            }
            chunk.truncate(out);
        });
    }
    for chunk in &mut chunks {
        chunk.shrink_to_fit();
    }
    Grammar {
        terminals,
        rules,
        chunks,
    }
}

/// A grammar's rules as a lookup from a digram `(left, right)` to its rule's
/// symbol: an open-addressing hash table (a few probes per lookup, no
/// hasher state), built once and shared by every thread that applies the
/// grammar.
#[derive(Clone, Debug)]
pub(crate) struct RuleTable {
    /// `left << 16 | right` per bucket, [`EMPTY`] where none.
    keys: Vec<u32>,
    /// The rule's symbol per bucket.
    symbols: Vec<u16>,
    /// `buckets - 1` (a power of two).
    mask: usize,
}

/// A bucket without a rule (no rule has two symbols `0xFFFF`: symbols stay
/// below 65,535).
const EMPTY: u32 = u32::MAX;

impl RuleTable {
    /// The table of a grammar with `terminals` terminals and these rules
    /// (symbol `terminals + i` is `rules[i]`). Where a digram occurs twice,
    /// its older symbol is found.
    pub(crate) fn new(terminals: usize, rules: &[[u16; 2]]) -> RuleTable {
        let buckets = (2 * rules.len()).next_power_of_two().max(16);
        let mut table = RuleTable {
            keys: vec![EMPTY; buckets],
            symbols: vec![0; buckets],
            mask: buckets - 1,
        };
        for (i, &[a, b]) in rules.iter().enumerate() {
            let key = u32::from(a) << 16 | u32::from(b);
            let mut at = table.bucket(key);
            while table.keys[at] != EMPTY && table.keys[at] != key {
                at = (at + 1) & table.mask;
            }
            if table.keys[at] == EMPTY {
                table.keys[at] = key;
                table.symbols[at] = (terminals + i) as u16;
            }
        }
        table
    }

    #[inline]
    fn bucket(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> 7) as usize & self.mask
    }

    /// The symbol of the rule for the digram `a b`, if the grammar has one.
    #[inline]
    pub(crate) fn get(&self, a: u16, b: u16) -> Option<u16> {
        let key = u32::from(a) << 16 | u32::from(b);
        let mut at = self.bucket(key);
        loop {
            match self.keys[at] {
                k if k == key => return Some(self.symbols[at]),
                EMPTY => return None,
                _ => at = (at + 1) & self.mask,
            }
        }
    }
}

/// No neighbour (in [`Parser`]'s linked list).
const NONE: u32 = u32::MAX;

/// Rewrites sequences with a given grammar, BPE-style: the digram
/// with the lowest symbol present is merged, leftmost first, until no
/// digram has a rule in the grammar. Since Re-Pair makes older rules from
/// older symbols only, and the rules made in one pass never compete for a
/// symbol occurrence, this parses a sequence the grammar was made from
/// exactly as [`compress`] did; any other sequence gets a parse that
/// expands back to it. O(n log n) per sequence (a heap of candidate
/// merges over a linked list); the buffers are kept between calls.
#[derive(Default)]
pub(crate) struct Parser {
    symbols: Vec<u16>,
    next: Vec<u32>,
    prev: Vec<u32>,
    alive: Vec<bool>,
    /// Candidate merges: `symbol << 32 | position`, smallest first.
    heap: std::collections::BinaryHeap<std::cmp::Reverse<u64>>,
}

impl Parser {
    /// The parse of `input` with the rules of `table`.
    pub(crate) fn parse(&mut self, table: &RuleTable, input: &[u16]) -> Vec<u16> {
        let n = input.len();
        self.symbols.clear();
        self.symbols.extend_from_slice(input);
        self.next.clear();
        self.next
            .extend((1..=n as u32).map(|i| if i as usize == n { NONE } else { i }));
        self.prev.clear();
        self.prev
            .extend((0..n as u32).map(|i| i.checked_sub(1).unwrap_or(NONE)));
        self.alive.clear();
        self.alive.resize(n, true);
        self.heap.clear();
        let candidate = |s: u16, at: u32| std::cmp::Reverse(u64::from(s) << 32 | u64::from(at));
        for (i, w) in input.windows(2).enumerate() {
            if let Some(s) = table.get(w[0], w[1]) {
                self.heap.push(candidate(s, i as u32));
            }
        }
        let mut merged = 0;
        while let Some(std::cmp::Reverse(key)) = self.heap.pop() {
            let (s, i) = ((key >> 32) as u16, key as u32);
            let iu = i as usize;
            let j = self.next[iu];
            if !self.alive[iu]
                || j == NONE
                || table.get(self.symbols[iu], self.symbols[j as usize]) != Some(s)
            {
                continue;
            }
            // Merge i and j into i.
            merged += 1;
            self.symbols[iu] = s;
            self.alive[j as usize] = false;
            let k = self.next[j as usize];
            self.next[iu] = k;
            if k != NONE {
                self.prev[k as usize] = i;
                if let Some(t) = table.get(s, self.symbols[k as usize]) {
                    self.heap.push(candidate(t, i));
                }
            }
            let h = self.prev[iu];
            if h != NONE {
                if let Some(t) = table.get(self.symbols[h as usize], s) {
                    self.heap.push(candidate(t, h));
                }
            }
        }
        // Exactly as long as it is (a big class keeps millions of these).
        let mut out = Vec::with_capacity(n - merged);
        let mut at = if n == 0 { NONE } else { 0 };
        while at != NONE {
            out.push(self.symbols[at as usize]);
            at = self.next[at as usize];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(g: &Grammar, s: u16, out: &mut Vec<u16>) {
        if (s as usize) < g.terminals {
            out.push(s);
        } else {
            let [a, b] = g.rules[s as usize - g.terminals];
            expand(g, a, out);
            expand(g, b, out);
        }
    }

    #[test]
    fn expands_to_the_input() {
        let mut state = 12345u64;
        let input: Vec<Vec<u16>> = (0..40)
            .map(|c| {
                (0..1000)
                    .map(|i| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                        if (state >> 60) < 12 {
                            ((i / 7 + c) % 3) as u16
                        } else {
                            (state >> 33) as u16 % 5
                        }
                    })
                    .collect()
            })
            .collect();
        let g = compress(input.clone(), 5, 4000);
        assert!(!g.rules.is_empty());
        let compressed: usize = g.chunks.iter().map(Vec::len).sum();
        assert!(compressed < 40 * 1000 / 2, "{compressed}");
        for (chunk, original) in g.chunks.iter().zip(&input) {
            let mut out = Vec::new();
            for &s in chunk {
                expand(&g, s, &mut out);
            }
            assert_eq!(&out, original);
        }
        for (i, &[a, b]) in g.rules.iter().enumerate() {
            assert!((a as usize) < g.terminals + i && (b as usize) < g.terminals + i);
        }
    }

    fn random_chunks(seed: u64, chunks: usize, len: usize) -> Vec<Vec<u16>> {
        let mut state = seed;
        (0..chunks)
            .map(|c| {
                (0..len)
                    .map(|i| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                        if (state >> 60) < 12 {
                            ((i / 7 + c) % 3) as u16
                        } else {
                            (state >> 33) as u16 % 5
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn expanded(g: &Grammar, symbols: &[u16]) -> Vec<u16> {
        let mut out = Vec::new();
        for &s in symbols {
            expand(g, s, &mut out);
        }
        out
    }

    #[test]
    fn parsing_the_learned_sequence_repeats_re_pair_and_expands_back() {
        let input = random_chunks(12345, 40, 1000);
        let g = compress(input.clone(), 5, 4000);
        assert!(g.rules.len() > 20);
        let table = RuleTable::new(g.terminals, &g.rules);
        let mut parser = Parser::default();
        for (original, chunk) in input.iter().zip(&g.chunks) {
            let parsed = parser.parse(&table, original);
            assert_eq!(&expanded(&g, &parsed), original);
            assert_eq!(&parsed, chunk);
        }
    }

    #[test]
    fn parsing_another_sequence_expands_back_to_it() {
        let g = compress(random_chunks(12345, 40, 1000), 5, 4000);
        let table = RuleTable::new(g.terminals, &g.rules);
        let mut parser = Parser::default();
        let mut total = 0;
        let others = random_chunks(999, 20, 1024);
        for other in &others {
            let parsed = parser.parse(&table, other);
            assert_eq!(&expanded(&g, &parsed), other);
            total += parsed.len();
        }
        // The grammar fits the other sequences too (they are alike).
        assert!(total < 20 * 1024 / 2, "{total}");
        // Runs, a sequence of one symbol, and nothing at all.
        for other in [
            vec![2u16; 999],
            vec![4],
            vec![],
            vec![0, 1, 2, 3, 4, 4, 4, 4, 4],
        ] {
            let parsed = parser.parse(&table, &other);
            assert_eq!(expanded(&g, &parsed), other);
        }
    }

    #[test]
    fn digram_counts_match_a_plain_count() {
        // Small alphabets (the dense array) and large ones (the hashed
        // tables, grown from a small size hint), runs included.
        for (seed, symbols) in [(1u64, 5usize), (2, 900), (3, 1025), (4, 40_000)] {
            let mut state = seed;
            let mut next = |n: usize| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as usize % n
            };
            let chunks: Vec<Vec<u16>> = (0..50)
                .map(|_| {
                    let mut chunk = Vec::new();
                    while chunk.len() < 700 {
                        // Runs of one symbol, and symbols from a small and a
                        // large range, so some digrams repeat and most not.
                        let s = if next(2) == 0 { next(8) } else { next(symbols) };
                        let run = if next(5) == 0 { 1 + next(6) } else { 1 };
                        chunk.extend(std::iter::repeat_n(s.min(symbols - 1) as u16, run));
                    }
                    chunk
                })
                .collect();
            let mut plain = std::collections::BTreeMap::new();
            for chunk in &chunks {
                let mut i = 0;
                while i + 1 < chunk.len() {
                    *plain.entry((chunk[i], chunk[i + 1])).or_insert(0u32) += 1;
                    let run = chunk[i] == chunk[i + 1] && chunk.get(i + 2) == Some(&chunk[i]);
                    i += if run { 2 } else { 1 };
                }
            }
            for min in [1, MIN_COUNT] {
                let (distinct, mut found) = count_digrams(&chunks, symbols, 16, min);
                found.sort_unstable();
                let mut expected: Vec<(u32, u16, u16)> = plain
                    .iter()
                    .filter(|&(_, &k)| k >= min)
                    .map(|(&(a, b), &k)| (k, a, b))
                    .collect();
                expected.sort_unstable();
                assert_eq!(distinct, plain.len(), "{symbols} symbols");
                assert_eq!(found, expected, "{symbols} symbols, min {min}");
                assert!(found.len() > 10, "{symbols} symbols, min {min}");
            }
        }
    }

    #[test]
    fn the_pair_table_finds_every_pair_and_nothing_else() {
        let g = compress(random_chunks(7, 30, 1000), 5, 4000);
        let table = RuleTable::new(g.terminals, &g.rules);
        for (i, &[a, b]) in g.rules.iter().enumerate() {
            assert_eq!(table.get(a, b), Some((g.terminals + i) as u16));
        }
        let known: std::collections::HashSet<[u16; 2]> = g.rules.iter().copied().collect();
        for a in 0..g.symbols() as u16 {
            for b in 0..g.symbols() as u16 {
                assert_eq!(table.get(a, b).is_some(), known.contains(&[a, b]));
            }
        }
    }
}
