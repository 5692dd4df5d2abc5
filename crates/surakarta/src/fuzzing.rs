//! [`arbitrary::Arbitrary`] impls for fuzzers (cargo feature `arbitrary`):
//! every value built is valid; bytes that make no valid position are
//! [`arbitrary::Error::IncorrectFormat`].

use crate::{Bitboard, Color, Move, Position, Rules, Setup, Square};
use arbitrary::{Arbitrary, Error, Result, Unstructured};

impl<'a> Arbitrary<'a> for Square {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Square> {
        Ok(Square::ALL[u.choose_index(Square::COUNT)?])
    }
}

impl<'a> Arbitrary<'a> for Bitboard {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Bitboard> {
        Ok(Bitboard::from_bits_truncate(u.arbitrary()?))
    }
}

impl<'a> Arbitrary<'a> for Color {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Color> {
        Ok(if u.arbitrary()? {
            Color::White
        } else {
            Color::Black
        })
    }
}

impl<'a> Arbitrary<'a> for Move {
    /// Any well-formed move (legal in some position or not).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Move> {
        let (from, to): (Square, Square) = (u.arbitrary()?, u.arbitrary()?);
        Ok(if u.arbitrary()? {
            Move::capture(from, to)
        } else {
            Move::step(from, to)
        })
    }
}

impl<'a> Arbitrary<'a> for Position {
    /// A valid position: black pieces, white pieces on other points, the
    /// side to move and counters from the bytes.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Position> {
        let black: Bitboard = u.arbitrary()?;
        let white = Bitboard::from_bits_truncate(u.arbitrary::<u64>()? & !black.bits());
        Position::from_setup(Setup {
            black,
            white,
            turn: u.arbitrary()?,
            halfmoves: u.int_in_range(0..=1000)?,
            fullmoves: u.int_in_range(1..=1000)?,
        })
        .map_err(|_| Error::IncorrectFormat)
    }
}

impl<'a> Arbitrary<'a> for Rules {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Rules> {
        let repetitions = if u.arbitrary()? {
            Some(u.int_in_range(2..=9)?)
        } else {
            None
        };
        let no_capture = if u.arbitrary()? {
            Some(u.int_in_range(1..=200)?)
        } else {
            None
        };
        Rules::new(repetitions, no_capture).map_err(|_| Error::IncorrectFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_from_bytes_are_valid() {
        let mut made = 0;
        for seed in 0..500u32 {
            let bytes: Vec<u8> = (0..64u32)
                .map(|i| (seed.wrapping_mul(2_654_435_761) >> (i % 24)) as u8 ^ i as u8)
                .collect();
            let mut u = Unstructured::new(&bytes);
            if let Ok(p) = Position::arbitrary(&mut u) {
                assert_eq!(p.to_string().parse::<Position>(), Ok(p));
                made += 1;
            }
            let mut u = Unstructured::new(&bytes);
            if let Ok(r) = Rules::arbitrary(&mut u) {
                assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
            }
        }
        assert!(made > 0);
    }
}
