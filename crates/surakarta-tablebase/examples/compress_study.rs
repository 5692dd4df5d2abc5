//! Compacts version 1 tables in memory and reports sizes and times (a
//! study for the format 2 design; `tb compress` does it for real).
//!
//! `cargo run --release -p surakarta-tablebase --example compress_study -- DIR CLASS…`

use std::path::Path;
use std::time::Instant;
use surakarta_index::Material;
use surakarta_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = Path::new(&args[0]);
    // SAFETY: not modified while this runs.
    let tb = unsafe { Tablebase::map_dir(dir) }.expect("tables");
    let (mut all_v1, mut all_v2, mut all_pos) = (0u64, 0u64, 0u64);
    for class in &args[1..] {
        let material: Material = class.parse().expect("class");
        let table = tb.table(material).expect("table");
        let start = Instant::now();
        let compact = tb.compacted(material).expect("compact");
        let seconds = start.elapsed().as_secs_f64();
        let header = compact.header();
        let shape = header.compact.expect("compact");
        let positions = table.stats().positions;
        all_v1 += table.file_len();
        all_v2 += compact.file_len();
        all_pos += positions;
        println!(
            "{material}: {} -> {} bytes ({:.1}x, {:.4} bits/pos) block 2^{} symbols {}+{} bits {} in {seconds:.2} s",
            table.file_len(),
            compact.file_len(),
            table.file_len() as f64 / compact.file_len() as f64,
            compact.file_len() as f64 * 8.0 / positions as f64,
            shape.block_bits,
            shape.terminals,
            shape.pairs,
            shape.bits_len,
        );
    }
    println!(
        "total: {all_v1} -> {all_v2} bytes ({:.1}x, {:.4} bits/pos)",
        all_v1 as f64 / all_v2 as f64,
        all_v2 as f64 * 8.0 / all_pos as f64
    );
}
