//! Compacts one class of a directory of tables in memory, by the
//! whole-class path or by the streaming one (forced whatever the class's
//! size), and reports the bytes and the seconds; with `--check`, also
//! compares every value read back with the original's (which holds a
//! second byte per slot, so measure memory without it). A study for the
//! streaming path (docs/benchmarks.md, "Compact tables").
//!
//! `cargo run --release -p surakarta-tablebase --example compact_stream --
//! DIR CLASS whole|stream [--sample SLOTS] [--out FILE] [--check]`

use std::path::Path;
use std::time::Instant;
use surakarta_index::{Indexer, Material};
use surakarta_tablebase::{CompactOptions, Tablebase};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: DIR CLASS whole|stream [--sample SLOTS] [--out FILE] [--check]";
    let (Some(dir), Some(class), Some(path)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let material: Material = class.parse().expect("a class such as 4v4");
    let mut options = CompactOptions::default();
    match path.as_str() {
        "whole" => options.streaming_above = u64::MAX,
        "stream" => options.streaming_above = 0,
        _ => panic!("{usage}"),
    }
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| &args[i + 1]);
    if let Some(sample) = flag("--sample") {
        options.sample_slots = sample.parse().expect("slots");
    }
    let tb = Tablebase::open_dir(Path::new(dir)).expect("tables");
    let table = tb.table(material).expect("the class's table");
    let start = Instant::now();
    let compact = tb.compacted_with(material, &options).expect("compact");
    let seconds = start.elapsed().as_secs_f64();
    let shape = compact.header().compact.expect("compact");
    println!(
        "{material} {path}: {} slots -> {} bytes in {seconds:.1} s (block 2^{}, {} terminals, {} rules, {} bytes of codes)",
        table.indexer().size(),
        compact.file_len(),
        shape.block_bits,
        shape.terminals,
        shape.rules,
        shape.bits_len,
    );
    if let Some(out) = flag("--out") {
        compact.write(Path::new(out)).expect("write");
    }
    if args.iter().any(|a| a == "--check") {
        let want = tb.values(material).expect("values");
        let got = tb.values_of(&compact).expect("values read back");
        let wrong = want.iter().zip(got.iter()).filter(|(a, b)| a != b).count();
        println!("check: {} slots, {wrong} differ", want.len());
        assert!(wrong == 0 && want.len() == got.len());
    }
}
