//! Format 2 (compact) tables answer exactly what format 1 tables answer.

use crate::shared;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use surakarta_index::{Indexer, Material, Scheme, Sides};
use surakarta_tablebase::{
    generate_dir, CompactOptions, CompressStep, ContextModel, NoProgress, TableIndexer, Tablebase,
    Value,
};

/// How many positions of a class the sampled sweeps below probe: every
/// position of the classes up to 4 pieces, every `stride`-th one of the
/// larger classes. The README's test command samples (`SAMPLED`); the
/// `#[ignore]`d twins of the sweeps probe every position, and `.ci/run`
/// runs them among its longer checks.
///
/// `f(sides)` is called for each sampled used slot of `indexer`'s class, in
/// index order. A sample visits only its own slots (a walk over the whole
/// class would cost more than the probes).
fn for_each_sampled(indexer: &TableIndexer, stride: u64, mut f: impl FnMut(Sides)) {
    if indexer.material().pieces() <= 4 || stride == 1 {
        indexer.for_each_in(0, u64::MAX, |_, sides| f(sides));
        return;
    }
    for index in (0..indexer.size()).step_by(stride as usize) {
        // An unused slot of the symmetric scheme does not unrank.
        if let Ok(sides) = indexer.unrank(index) {
            f(sides);
        }
    }
}

/// The stride of the sampled sweeps for classes of 5 pieces and more.
const SAMPLED: u64 = 29;

/// Every position up to 4 pieces and every 29th one of the 5- and
/// 6-piece classes: the compact table probes (value and DTC, don't-care
/// slots resolved through the captures) to the value of the byte-per-slot
/// table, and its win/draw/loss probe agrees; every value of the classes
/// up to 5 pieces reads back as a whole (the twin below reads back the
/// 6-piece classes too).
#[test]
fn compact_tables_up_to_6_pieces_answer_exactly() {
    let positions = compact_tables_answer_exactly(SAMPLED);
    assert!(positions > 600_000, "{positions}");
}

/// [`compact_tables_up_to_6_pieces_answer_exactly`] on every position, and
/// every value of every class read back.
#[test]
#[ignore = "long (16.6 million probes): `.ci/run` runs it"]
fn compact_tables_up_to_6_pieces_answer_every_position() {
    let positions = compact_tables_answer_exactly(1);
    assert_eq!(positions, 16_630_118, "every position up to 6 pieces");
}

/// Compares the compact tables up to 6 pieces with the byte-per-slot
/// ones on the positions [`for_each_sampled`] with `stride`; returns the number of
/// positions compared.
fn compact_tables_answer_exactly(stride: u64) -> u64 {
    let plain = shared::up_to_6();
    let compact = shared::compact_up_to_6();
    let mut positions = 0u64;
    // Positions whose stored value is not their value: the writer used the
    // don't-care slots, and the prober resolved them.
    let (mut free_wins, mut free_draws) = (0u64, 0u64);
    let mut with_capture_draws = 0;
    for material in plain.materials() {
        let table = plain.table(material).unwrap();
        let small = compact.table(material).unwrap();
        assert!(small.is_compact());
        assert!(small.file_len() < table.file_len());
        // Capture draws where some draw is one, always with a draw map.
        let shape = small.header().compact.unwrap();
        assert_eq!(shape.draw_map_bits.is_some(), small.capture_draws());
        with_capture_draws += u32::from(small.capture_draws());
        if stride == 1 || material.pieces() <= 5 {
            let values = plain.values(material).unwrap();
            assert_eq!(compact.values(material).unwrap(), values, "{material}");
        }
        let mut mismatches = 0u64;
        for_each_sampled(table.indexer(), stride, |sides| {
            positions += 1;
            let want = plain.probe(sides).unwrap();
            if compact.probe(sides).unwrap() != want
                || compact.probe_wdl(sides).unwrap() != want.wdl()
            {
                mismatches += 1;
            }
            let stored = small.stored_value(sides).unwrap();
            if stored != want {
                match (stored, want) {
                    (Value::Win(_), Value::Win(1)) => free_wins += 1,
                    (Value::Loss(_), Value::Draw) => free_draws += 1,
                    _ => mismatches += 1,
                }
            }
        });
        assert_eq!(mismatches, 0, "{material}");
    }
    assert!(with_capture_draws >= 10, "{with_capture_draws} classes");
    // (The writer stores most free wins as a win in 1, their value.)
    assert!(free_draws > 100_000 / stride, "{free_wins} {free_draws}");
    positions
}

/// Without capture draws every draw and loss is stored exactly (only wins
/// in 1 by a capture are free), every answer is still exact on the
/// positions [`for_each_sampled`], and the tables are larger than with them.
#[test]
fn compact_tables_without_capture_draws_store_every_draw_exactly() {
    without_capture_draws(SAMPLED);
}

/// [`compact_tables_without_capture_draws_store_every_draw_exactly`] on
/// every position up to 5 pieces.
#[test]
#[ignore = "long: `.ci/run` runs it"]
fn compact_tables_without_capture_draws_answer_every_position() {
    without_capture_draws(1);
}

fn without_capture_draws(stride: u64) {
    let plain = shared::up_to_5();
    let exact = CompactOptions {
        capture_draws: false,
        ..CompactOptions::default()
    };
    let mut compact = Tablebase::new();
    let (mut with_bytes, mut without_bytes) = (0u64, 0u64);
    for material in plain.materials() {
        let table = plain.compacted_with(material, &exact).unwrap();
        assert!(!table.capture_draws());
        without_bytes += table.file_len();
        with_bytes += plain.compacted(material).unwrap().file_len();
        compact.insert(table);
    }
    assert!(without_bytes > with_bytes, "{without_bytes} {with_bytes}");
    for material in plain.materials() {
        let small = compact.table(material).unwrap();
        assert_eq!(
            compact.values(material).unwrap(),
            plain.values(material).unwrap()
        );
        let mut mismatches = 0u64;
        for_each_sampled(plain.table(material).unwrap().indexer(), stride, |sides| {
            let want = plain.probe(sides).unwrap();
            let stored = small.stored_value(sides).unwrap();
            let free_win = matches!((stored, want), (Value::Win(_), Value::Win(1)));
            if compact.probe(sides).unwrap() != want
                || compact.probe_wdl(sides).unwrap() != want.wdl()
                || (stored != want && !free_win)
            {
                mismatches += 1;
            }
        });
        assert_eq!(mismatches, 0, "{material}");
    }
}

/// The streaming path, forced on every class with a sample of four
/// chunks (so most of each class is encoded with a ranking and a grammar
/// learned elsewhere, and many values are missing from the sample): up to
/// 5 pieces every position [`for_each_sampled`] probes exactly, every stored value
/// is its value or a free one, and the values read back are the originals;
/// with the classes' own context models and with none.
#[test]
fn streamed_compact_tables_up_to_5_pieces_answer_exactly() {
    let positions = streamed_compact_tables(SAMPLED);
    assert!(positions > 80_000, "{positions}");
}

/// [`streamed_compact_tables_up_to_5_pieces_answer_exactly`] on every
/// position.
#[test]
#[ignore = "long: `.ci/run` runs it"]
fn streamed_compact_tables_up_to_5_pieces_answer_every_position() {
    let positions = streamed_compact_tables(1);
    assert!(positions > 2_000_000, "{positions}");
}

/// Returns the number of positions probed, over both models.
fn streamed_compact_tables(stride: u64) -> u64 {
    let mut positions = 0u64;
    let plain = shared::up_to_5();
    for model in [None, Some(ContextModel::None)] {
        let streaming = CompactOptions {
            model,
            streaming_above: 0,
            sample_slots: 4 * 1024,
            ..CompactOptions::default()
        };
        let whole = CompactOptions {
            model,
            ..CompactOptions::default()
        };
        let mut compact = Tablebase::new();
        let mut differ = 0;
        for material in plain.materials() {
            let table = plain.compacted_with(material, &streaming).unwrap();
            assert!(table.is_compact());
            let old = plain.compacted_with(material, &whole).unwrap();
            if table.header().compact != old.header().compact {
                differ += 1;
            }
            compact.insert(table);
        }
        // The streaming path was taken (its files are not the old ones).
        assert!(differ >= 8, "{differ} of 10 classes");
        for material in plain.materials() {
            let small = compact.table(material).unwrap();
            assert_eq!(
                compact.values(material).unwrap(),
                plain.values(material).unwrap(),
                "{material}"
            );
            let mut mismatches = 0u64;
            for_each_sampled(plain.table(material).unwrap().indexer(), stride, |sides| {
                positions += 1;
                let want = plain.probe(sides).unwrap();
                let stored = small.stored_value(sides).unwrap();
                let free = matches!(
                    (stored, want),
                    (Value::Win(_), Value::Win(1)) | (Value::Loss(_), Value::Draw)
                );
                if compact.probe(sides).unwrap() != want
                    || compact.probe_wdl(sides).unwrap() != want.wdl()
                    || (stored != want && !free)
                {
                    mismatches += 1;
                }
            });
            assert_eq!(mismatches, 0, "{material} {model:?}");
        }
    }
    positions
}

/// The directory of `SURAKARTA_TB_V1` (format 1) and `SURAKARTA_TB_V2`
/// (the same tables compacted), if both are set.
fn real_tables() -> Option<(PathBuf, PathBuf)> {
    let v1 = std::env::var_os("SURAKARTA_TB_V1")?;
    let v2 = std::env::var_os("SURAKARTA_TB_V2")?;
    Some((v1.into(), v2.into()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// Random positions of the 7- and 8-piece classes of real tables
    /// (generated with `tb generate --format 1`, compacted with
    /// `tb compress`): `SURAKARTA_TB_V1=DIR SURAKARTA_TB_V2=DIR cargo test
    /// --release -p surakarta-tablebase --test compact -- --ignored`.
    #[test]
    #[ignore = "needs generated 8-piece tables (see docs/tablebase.md)"]
    fn compact_probes_equal_plain_probes_on_big_classes(
        class in 0usize..13,
        slot in any::<u64>(),
    ) {
        let Some((v1, v2)) = real_tables() else {
            return Ok(());
        };
        static OPEN: std::sync::OnceLock<(Tablebase, Tablebase)> = std::sync::OnceLock::new();
        let (plain, compact) = OPEN.get_or_init(|| {
            let open = |d: &Path| unsafe { Tablebase::map_dir(d) }.unwrap();
            (open(&v1), open(&v2))
        });
        let materials: Vec<Material> = Material::with_pieces(7)
            .chain(Material::with_pieces(8))
            .collect();
        let material = materials[class % materials.len()];
        let table = plain.table(material).unwrap();
        prop_assert!(compact.table(material).unwrap().is_compact());
        // The used slot at or after a random one.
        let size = table.indexer().size();
        if let Some(sides) = table.indexer().first_in(slot % size, slot % size + 4096) {
            prop_assert_eq!(compact.probe(sides).unwrap(), plain.probe(sides).unwrap());
        }
    }
}

/// `tb generate` in either format and `compress_dir` give the same
/// answers; compressing twice leaves the files alone.
#[test]
fn compress_dir_converts_format_1_files_and_skips_compact_ones() {
    let dir = std::env::temp_dir().join(format!("sk-compact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    generate_dir(&dir, 4, Scheme::Symmetric, 1, &NoProgress).unwrap();
    let before = Tablebase::open_dir(&dir).unwrap();
    // One class only: the others stay format 1; a class not there is named.
    let one: Material = "2v2".parse().unwrap();
    let options = CompactOptions::default();
    let outcomes = surakarta_tablebase::compress_dir(&dir, &[one], &options, &NoProgress).unwrap();
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].material, one);
    assert_eq!(outcomes[0].step, CompressStep::Converted);
    let partly = Tablebase::open_dir(&dir).unwrap();
    for material in partly.materials() {
        let format = partly.table(material).unwrap().format();
        assert_eq!(format, if material == one { 2 } else { 1 }, "{material}");
    }
    let absent: Material = "4v1".parse().unwrap();
    let e = surakarta_tablebase::compress_dir(&dir, &[absent], &options, &NoProgress).unwrap_err();
    assert!(e.to_string().contains("4v1"), "{e}");
    let outcomes = surakarta_tablebase::compress_dir(&dir, &[], &options, &NoProgress).unwrap();
    assert_eq!(outcomes.len(), 6);
    let outcomes: Vec<_> = outcomes.into_iter().filter(|o| o.material != one).collect();
    assert!(outcomes
        .iter()
        .all(|o| o.step == CompressStep::Converted && o.after < o.before));
    let after = Tablebase::open_dir(&dir).unwrap();
    for material in before.materials() {
        assert_eq!(before.table(material).unwrap().format(), 1);
        assert_eq!(after.table(material).unwrap().format(), 2);
        assert_eq!(
            after.values(material).unwrap(),
            before.values(material).unwrap()
        );
        assert_eq!(after.verify(material, &NoProgress).unwrap().errors(), 0);
    }
    let again = surakarta_tablebase::compress_dir(&dir, &[], &options, &NoProgress).unwrap();
    assert!(again.iter().all(|o| o.step == CompressStep::Unchanged));
    std::fs::remove_dir_all(&dir).unwrap();
}
