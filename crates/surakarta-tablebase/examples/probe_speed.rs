//! Probe time of random positions of the classes with the most pieces:
//! median, percentiles and mean of single probes (files in the page cache
//! after the first probe of each class), through [`time_probes`].
//!
//! `cargo run --release -p surakarta-tablebase --example probe_speed -- DIR [PROBES]`

use std::path::Path;
use surakarta_tablebase::{time_probes, Tablebase};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: probe_speed DIR [PROBES]");
        std::process::exit(2);
    };
    let probes: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    // SAFETY: the files are not modified while this runs.
    let tb = match unsafe { Tablebase::map_dir(Path::new(dir)) } {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    match time_probes(&tb, probes) {
        Ok(t) => println!(
            "{} probes of {} classes: median {} ns, p90 {} ns, p99 {} ns, mean {} ns; first probes {:.1} ms",
            t.probes,
            t.classes.len(),
            t.median.as_nanos(),
            t.p90.as_nanos(),
            t.p99.as_nanos(),
            t.mean.as_nanos(),
            t.first_probes.as_secs_f64() * 1e3
        ),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
