//! Checks shared by the fuzz targets.

use surakarta::{Move, Position, Symmetry, Termination};

/// The moves, sorted.
pub fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<Move> {
    let mut v: Vec<Move> = moves.into_iter().collect();
    v.sort();
    v
}

/// Checks every invariant of a single position: the fast generator equals
/// the reference, `count_moves`, `has_moves`, `captures`, `is_legal` and
/// `outcome` agree with it, the hash is fresh, and all eight symmetric images
/// have the mapped moves. Returns the sorted legal moves.
pub fn check_position(pos: &Position) -> Vec<Move> {
    assert_eq!(pos.zobrist(), pos.compute_zobrist(), "{pos:?}: stale hash");
    let list = pos.legal_moves();
    let fast = sorted(list.iter().copied());
    let reference = surakarta::reference::legal_moves(&pos.to_setup());
    assert_eq!(
        fast, reference,
        "{pos:?}: fast and reference move generators disagree"
    );
    assert_eq!(pos.count_moves(), list.len(), "{pos:?}: count_moves");
    assert_eq!(pos.has_moves(), !list.is_empty(), "{pos:?}: has_moves");
    assert_eq!(
        sorted(pos.captures()),
        sorted(list.iter().copied().filter(|m| m.is_capture())),
        "{pos:?}: captures"
    );
    for &m in list.iter() {
        assert!(
            pos.is_legal(m),
            "{pos:?}: {m} is generated but not is_legal"
        );
    }
    match pos.outcome() {
        None => assert!(!list.is_empty(), "{pos:?}: no moves but no outcome"),
        Some(o) => {
            assert!(list.is_empty(), "{pos:?}: outcome {o} with moves");
            assert_eq!(o.winner, Some(!pos.turn()), "{pos:?}");
            let expected = if pos.us().is_empty() {
                Termination::NoPieces
            } else {
                Termination::NoMoves
            };
            assert_eq!(o.termination, expected, "{pos:?}");
        }
    }
    for sym in Symmetry::ALL {
        let image = pos.transformed(sym);
        assert_eq!(
            image.zobrist(),
            image.compute_zobrist(),
            "{pos:?} under {sym}: stale hash"
        );
        let moves = image.legal_moves();
        assert_eq!(moves.len(), list.len(), "{pos:?} under {sym}: move count");
        assert_eq!(
            sorted(moves),
            sorted(list.iter().map(|m| m.transformed(sym))),
            "{pos:?} under {sym}: moves are not the images of the moves"
        );
    }
    list.to_vec()
}

/// Checks the training data reader on hostile bytes: nothing panics; a
/// file that reads is of version 1 or the current version; a version 2
/// file is exactly what writing its records gives, and the same file with
/// one bit flipped (a bit chosen from the bytes) is an error; a version 1
/// file is its header and the records' bytes one after another; every
/// record writes back to bytes that read as the same record.
pub fn check_training_data(bytes: &[u8]) {
    use surakarta_search::network::data::{self, TrainingPosition};
    let read = match data::from_bytes(bytes) {
        Ok(read) => read,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    for r in &read.records {
        assert_eq!(TrainingPosition::from_bytes(&r.to_bytes()).as_ref(), Ok(r));
    }
    let mut written = Vec::new();
    data::write(&mut written, &read.records).expect("a vector takes the records");
    match read.version {
        1 => {
            assert!(read.is_outdated());
            assert_eq!(
                bytes.len(),
                data::HEADER + read.records.len() * data::RECORD
            );
            for (i, r) in read.records.iter().enumerate() {
                let at = data::HEADER + i * data::RECORD;
                assert_eq!(r.to_bytes()[..], bytes[at..at + data::RECORD]);
            }
            let again = data::from_bytes(&written).expect("written data reads back");
            assert_eq!(
                (again.version, again.records),
                (data::VERSION, read.records)
            );
        }
        data::VERSION => {
            assert!(!read.is_outdated());
            assert_eq!(written, bytes, "a version 2 file is what its records write");
            let bit = crc32fast::hash(bytes) as usize % (bytes.len() * 8);
            let mut flipped = bytes.to_vec();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert!(
                data::from_bytes(&flipped).is_err(),
                "bit {bit} flipped is not found"
            );
        }
        other => panic!("version {other} read"),
    }
}
