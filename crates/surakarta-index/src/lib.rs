#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[allow(unsafe_code)] // The BMI2 intrinsics and their dispatch: all of the crate's `unsafe`.
mod bits;
mod burnside;
mod combinatorics;
mod directory;
mod error;
mod indexer;
mod material;
mod plain;
mod scheme;
mod symmetric;

pub use burnside::{occupancy_orbits, position_orbits};
pub use directory::OccupancyDirectory;
pub use error::IndexError;
pub use indexer::{Indexer, Ranked};
pub use material::{Material, Sides};
pub use plain::{PlainIndexer, PlainPositions};
pub use scheme::{ParseSchemeError, Scheme};
pub use surakarta::Symmetry;
pub use symmetric::{canonical_form, StepRanks, SymmetricIndexer, SymmetricPositions};
