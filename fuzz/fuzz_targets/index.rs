//! Random indices and positions through both index schemes.
//!
//! Invariants: nothing panics. For a material from the input (any piece
//! counts; the symmetric scheme up to 8 pieces): `unrank` succeeds exactly
//! for indices below `size()` (the symmetric scheme may instead report an
//! unused slot), and a position it returns has the material, no overlap, and
//! ranks back to the same index with the identity. `rank` of raw bitboards
//! fails exactly when they leave the board, overlap or have another
//! material; when it succeeds, `unrank` of the index is the position mapped
//! by the returned symmetry, and every symmetric image gets the same index.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use surakarta::{Bitboard, Symmetry};
use surakarta_index::{
    IndexError, Indexer, Material, OccupancyDirectory, PlainIndexer, Sides, SymmetricIndexer,
};

/// Largest piece count for the symmetric scheme (directories are built once).
const SYMMETRIC_MAX: u32 = 8;

fn symmetric(material: Material) -> SymmetricIndexer {
    static CACHE: OnceLock<Mutex<HashMap<u32, Arc<OccupancyDirectory>>>> = OnceLock::new();
    let n = material.pieces();
    let directory = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(n)
        .or_insert_with(|| Arc::new(OccupancyDirectory::build(n)))
        .clone();
    SymmetricIndexer::with_directory(material, directory).expect("directory for n")
}

fn word(data: &[u8], at: usize) -> u64 {
    let mut bytes = [0u8; 8];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = data.get(at + i).copied().unwrap_or(0);
    }
    u64::from_le_bytes(bytes)
}

fn expected_rank_error(sides: Sides, material: Material) -> Option<IndexError> {
    let (us, them) = (sides.us.bits(), sides.them.bits());
    if (us | them) >> 36 != 0 {
        Some(IndexError::OffBoard)
    } else if us & them != 0 {
        Some(IndexError::Overlap)
    } else if (us.count_ones(), them.count_ones()) != (material.us(), material.them()) {
        Some(IndexError::MaterialMismatch {
            expected: material,
            us: us.count_ones(),
            them: them.count_ones(),
        })
    } else {
        None
    }
}

fn check(indexer: &dyn Indexer, symmetric: bool, index: u64, raw: Sides) {
    let material = indexer.material();
    // Index → position → index.
    match indexer.unrank(index) {
        Ok(sides) => {
            assert!(index < indexer.size());
            assert_eq!(Material::of(sides), Ok(material));
            assert_eq!(sides.us & sides.them, Bitboard::EMPTY);
            let ranked = indexer.rank(sides).expect("an unranked position ranks");
            assert_eq!((ranked.index, ranked.symmetry), (index, Symmetry::IDENTITY));
        }
        Err(IndexError::OutOfRange { index: i, size, .. }) => {
            assert_eq!((i, size), (index, indexer.size()));
            assert!(index >= size);
        }
        Err(IndexError::UnusedSlot { index: i, .. }) => {
            assert!(symmetric && i == index && index < indexer.size());
        }
        Err(e) => panic!("unrank({index}) for {material}: {e}"),
    }
    // Position → index → position.
    match (indexer.rank(raw), expected_rank_error(raw, material)) {
        (Ok(ranked), None) => {
            assert!(ranked.index < indexer.size());
            let stored = indexer.unrank(ranked.index).expect("a ranked slot is used");
            assert_eq!(stored, raw.transformed(ranked.symmetry));
            if symmetric {
                for sym in Symmetry::ALL {
                    let image = indexer.rank(raw.transformed(sym)).expect("image ranks");
                    assert_eq!(image.index, ranked.index);
                }
            }
        }
        (Err(e), Some(expected)) => assert_eq!(e, expected),
        (result, expected) => panic!("rank({raw:?}) = {result:?}, expected {expected:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = (word(data, 0) as u32 & 0xff, word(data, 1) as u32 & 0xff);
    let Ok(material) = Material::new(a % 13, b % 13) else {
        assert!(a % 13 == 0 || b % 13 == 0);
        return;
    };
    let index = word(data, 2);
    let raw = Sides::new(
        Bitboard::from_bits_truncate(word(data, 10)),
        Bitboard::from_bits_truncate(word(data, 18)),
    );
    // Also a position that fits the board: clear shared bits.
    let us = raw.us.bits();
    let fitted = Sides::new(
        Bitboard::from_bits_truncate(us),
        Bitboard::from_bits_truncate(raw.them.bits() & !us),
    );

    let plain = PlainIndexer::new(material);
    let small_index = if plain.size() > 0 {
        index % (plain.size() + 2)
    } else {
        index
    };
    for i in [index, small_index] {
        check(&plain, false, i, raw);
        check(&plain, false, i, fitted);
        check(&PlainIndexer::portable(material), false, i, fitted);
    }
    if let Ok(own) = Material::of(fitted) {
        if own.pieces() <= 24 {
            let plain = PlainIndexer::new(own);
            check(&plain, false, index % plain.size(), fitted);
        }
    }

    for m in [Some(material), Material::of(fitted).ok()]
        .into_iter()
        .flatten()
    {
        if m.pieces() <= SYMMETRIC_MAX {
            let indexer = symmetric(m);
            let i = index % (indexer.size() + 2);
            check(&indexer, true, i, fitted);
            check(&indexer, true, index, raw);
            check(&indexer.clone().into_portable(), true, i, fitted);
        }
    }
});
