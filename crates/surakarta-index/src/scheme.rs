//! [`Scheme`]: the indexing schemes by name, and the size of a class's
//! index in each without building it.

use crate::burnside::occupancy_orbits;
use crate::combinatorics;
use crate::material::Material;
use core::fmt;
use core::str::FromStr;
use surakarta::Excerpt;

/// The indexing schemes.
///
/// # Examples
///
/// ```
/// use surakarta_index::{Material, Scheme};
///
/// let material: Material = "3v2".parse()?;
/// assert_eq!("symmetric".parse::<Scheme>()?, Scheme::Symmetric);
/// assert_eq!(Scheme::Plain.size(material), 376_992 * 10); // C(36, 5) · C(5, 3)
/// assert!(Scheme::Symmetric.size(material) < Scheme::Plain.size(material) / 7);
/// assert_eq!(Scheme::default().name(), Scheme::default().to_string());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scheme {
    /// [`PlainIndexer`](crate::PlainIndexer): the paper's index, `C(36, n) · C(n, a)` slots.
    Plain,
    /// [`SymmetricIndexer`](crate::SymmetricIndexer): one slot per orbit under the board's eight
    /// symmetries (plus a small waste), about an eighth of the plain size.
    #[default]
    Symmetric,
}

impl Scheme {
    /// The scheme's name: `plain` or `symmetric`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Plain => "plain",
            Scheme::Symmetric => "symmetric",
        }
    }

    /// The number of slots of `material`'s index in this scheme (what
    /// [`Indexer::size`](crate::Indexer::size) of its indexer returns), computed without building
    /// the indexer: `C(36, n) · C(n, a)` for the plain scheme,
    /// [`occupancy_orbits`]`(n) · C(n, a)` for the symmetric one (one slot
    /// per canonical occupied set and colour pattern). Cheap for every
    /// class (up to 12 v 12, well within `u64`), where building a 12-piece
    /// directory takes seconds and 150 MiB.
    #[must_use]
    pub fn size(self, material: Material) -> u64 {
        let patterns = combinatorics::binomial(material.pieces(), material.us());
        let sets = match self {
            Scheme::Plain => combinatorics::binomial(36, material.pieces()),
            Scheme::Symmetric => occupancy_orbits(material.pieces()),
        };
        sets * patterns
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown scheme name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown index scheme {0}: expected `plain` or `symmetric`")]
pub struct ParseSchemeError(Excerpt);

impl FromStr for Scheme {
    type Err = ParseSchemeError;

    fn from_str(s: &str) -> Result<Scheme, ParseSchemeError> {
        match s {
            "plain" => Ok(Scheme::Plain),
            "symmetric" => Ok(Scheme::Symmetric),
            _ => Err(ParseSchemeError(Excerpt::new(s))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_in_the_message() {
        let long = format!("4v{}", "3".repeat(100_000));
        let message = long.parse::<Scheme>().unwrap_err().to_string();
        assert!(message.contains("…\" (100002 bytes)"), "{message}");
    }
}
