//! The `surakarta` binary: the whole command line is in the library target
//! (`lib.rs`), which the fuzz targets use as well.

fn main() -> std::process::ExitCode {
    surakarta_cli::main()
}
