//! Training data (`.skdata`, versions 1 and 2) from hostile bytes.
//!
//! The first input byte is a mode. Bit 0 clear: the rest is read as it is.
//! Bit 0 set: the rest's whole records are framed as a version 2 file with
//! a valid header and valid block checksums (so mutations reach the record
//! checks behind the CRCs), and with bit 1 also set the leftover bytes are
//! appended (a file longer than its count). Invariants
//! (`surakarta_fuzz::check_training_data`): nothing panics; a version 2
//! file that reads is exactly what writing its records gives, and one
//! flipped bit makes it an error; a version 1 file that reads is its header
//! and its records' bytes; every record writes back to itself.

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta_search::network::data;

fuzz_target!(|input: &[u8]| {
    let Some((&mode, rest)) = input.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        surakarta_fuzz::check_training_data(rest);
        return;
    }
    let records = rest.chunks_exact(data::RECORD);
    let leftover = records.remainder();
    let count = records.len() as u32;
    let mut bytes = b"SKTD\x02\x00\x10\x00".to_vec();
    bytes.extend_from_slice(&count.to_le_bytes());
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    let body = &rest[..rest.len() - leftover.len()];
    for (b, block) in body.chunks(data::BLOCK_RECORDS * data::RECORD).enumerate() {
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&(b as u64).to_le_bytes());
        hasher.update(block);
        bytes.extend_from_slice(block);
        bytes.extend_from_slice(&hasher.finalize().to_le_bytes());
    }
    if mode & 2 != 0 {
        bytes.extend_from_slice(leftover);
    }
    surakarta_fuzz::check_training_data(&bytes);
});
