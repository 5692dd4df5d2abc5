//! Validated positions: placement, side to move, counters and hash.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::notation::{MoveText, ParseMoveError, ParseSetupError, MOVE_EXPECTED};
use crate::rules::{Outcome, Termination};
use crate::setup::Setup;
use crate::square::Square;
use crate::symmetry::Symmetry;
use crate::zobrist;
use core::fmt;
use core::str::FromStr;

/// Most pieces a side can have: each side starts with 12 and pieces are never added.
pub const MAX_PIECES_PER_SIDE: u32 = 12;

/// Why a [`Setup`] is not a valid [`Position`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A bitboard has bits beyond the 36 points.
    #[error("a piece set has bits beyond the 36 points: {0:#x}")]
    OffBoard(u64),
    /// Some points hold both a black and a white piece: these.
    #[error("points {} hold both a black and a white piece", point_list(*.0))]
    Overlap(Bitboard),
    /// A side has more than [`MAX_PIECES_PER_SIDE`] pieces.
    #[error("{color} has {count} pieces; at most {MAX_PIECES_PER_SIDE} are possible")]
    TooManyPieces {
        /// The side with too many pieces.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// The side that just moved has no pieces, which no game can reach.
    #[error("{0}, who is not to move, has no pieces: no game reaches this position")]
    NoPiecesNotToMove(Color),
    /// The move number is 0.
    #[error("move number is 0; it starts at 1")]
    ZeroMoveNumber,
}

/// The points of a set, comma-separated: `a1, b1`.
fn point_list(points: Bitboard) -> String {
    let names: Vec<String> = points.iter().map(|s| s.to_string()).collect();
    names.join(", ")
}

/// Why a position's text is not a valid position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// The text is malformed.
    #[error(transparent)]
    Syntax(#[from] ParseSetupError),
    /// The text is well formed but describes an impossible position.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

/// Why a move (as text or as a [`Move`]) cannot be played in a position.
/// Each variant holds the move as given: the text of one that did not
/// read, the [`MoveText`] of one that did.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The move text is malformed.
    #[error("invalid move text {text} ({}): {MOVE_EXPECTED}", error.problem())]
    Syntax {
        /// The text as given.
        text: Excerpt,
        /// What is wrong with it.
        error: ParseMoveError,
    },
    /// There is no piece on the origin point.
    #[error("{0}: there is no piece on {from}", from = .0.from)]
    NoPiece(MoveText),
    /// The piece on the origin point belongs to the other side.
    #[error("{given}: the piece on {from} is {owner}'s, and it is {turn}'s move", from = given.from)]
    NotYourPiece {
        /// The move as given.
        given: MoveText,
        /// The owner of the piece on its origin.
        owner: Color,
        /// The side to move.
        turn: Color,
    },
    /// The move is written as a step but is a capture, or the other way round.
    #[error("{given}: this move is {actual}")]
    WrongKind {
        /// The move as given.
        given: MoveText,
        /// The move as it must be written.
        actual: Move,
    },
    /// The piece cannot reach the target point.
    #[error("{0}: illegal move (the piece cannot step or capture there)")]
    Illegal(MoveText),
}

/// A legal position: placement, side to move, no-capture ply count, move number
/// and Zobrist hash. Small and `Copy`; play moves by value ([`Position::play`],
/// [`Position::after`]) or in place ([`Position::play_unchecked`] and
/// [`Position::undo`]).
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Position};
///
/// let start = Position::new();
/// assert_eq!(start.legal_moves().len(), 16); // perft 1
/// let m = start.parse_move("b2-b3").unwrap(); // checked: legal here
/// let next = start.play(m).unwrap();           // checked again, by value
/// assert_eq!(next.turn(), Color::White);
/// assert_eq!(next, start.after(m));             // unchecked: m is legal
///
/// // In place, for search: play, then undo with what play returned.
/// let mut pos = start;
/// let undo = pos.play_unchecked(m);
/// pos.undo(m, undo);
/// assert_eq!(pos, start);
///
/// // Notation both ways.
/// let text = next.to_string();
/// assert_eq!(text.parse::<Position>().unwrap(), next);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pieces: [Bitboard; 2],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
}

/// What [`Position::play_unchecked`] returns so that [`Position::undo`] can
/// restore the position exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    halfmoves: u32,
    fullmoves: u32,
}

impl Position {
    /// The start position.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Color, Position};
    ///
    /// let start = Position::new();
    /// assert_eq!(start.turn(), Color::Black); // Black moves first
    /// assert_eq!(start.pieces(Color::Black).len(), 12);
    /// assert_eq!(start.to_string(), "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1");
    /// assert_eq!(start, Position::default());
    /// ```
    #[must_use]
    pub fn new() -> Position {
        Position::from_setup(Setup::start()).unwrap_or_else(|_| unreachable!())
    }

    /// Validates a setup: pieces on the board, no point claimed twice, at most
    /// 12 pieces a side, the side not to move has a piece, move number ≥ 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Bitboard, Position, PositionError, Setup, Square};
    ///
    /// let mut setup = Setup::empty();
    /// setup.black = Bitboard::from_square(Square::B2);
    /// setup.white = Bitboard::from_square(Square::B5);
    /// let pos = Position::from_setup(setup.clone())?;
    /// assert_eq!(pos.to_string(), "6/1w4/6/6/1b4/6 b 0 1");
    ///
    /// // Two pieces on one point is no position.
    /// setup.white = setup.white | Bitboard::from_square(Square::B2);
    /// assert!(matches!(Position::from_setup(setup), Err(PositionError::Overlap(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        for bb in [setup.black, setup.white] {
            if Bitboard::new(bb.bits()).is_none() {
                return Err(PositionError::OffBoard(bb.bits()));
            }
        }
        let overlap = setup.black & setup.white;
        if overlap.any() {
            return Err(PositionError::Overlap(overlap));
        }
        for color in Color::ALL {
            let count = setup.pieces(color).len();
            if count > MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces { color, count });
            }
        }
        if setup.pieces(!setup.turn).is_empty() {
            return Err(PositionError::NoPiecesNotToMove(!setup.turn));
        }
        if setup.fullmoves == 0 {
            return Err(PositionError::ZeroMoveNumber);
        }
        let mut pos = Position {
            pieces: [setup.black, setup.white],
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
        };
        pos.hash = pos.compute_zobrist();
        Ok(pos)
    }

    /// The position from the side to move's pieces `us` and the other side's
    /// `them`, with counters at their start values; validated like
    /// [`Position::from_setup`].
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Bitboard, Color, Position, Square};
    ///
    /// let us = Bitboard::from_square(Square::B5);
    /// let them = Bitboard::from_square(Square::B2);
    /// let pos = Position::from_sides(us, them, Color::White)?;
    /// assert_eq!(pos.to_string(), "6/1w4/6/6/1b4/6 w 0 1");
    /// assert_eq!((pos.us(), pos.them()), (us, them));
    /// // The side that just moved must have a piece.
    /// assert!(Position::from_sides(us, Bitboard::EMPTY, Color::White).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_sides(
        us: Bitboard,
        them: Bitboard,
        turn: Color,
    ) -> Result<Position, PositionError> {
        let (black, white) = match turn {
            Color::Black => (us, them),
            Color::White => (them, us),
        };
        Position::from_setup(Setup {
            black,
            white,
            turn,
            halfmoves: 0,
            fullmoves: 1,
        })
    }

    /// The unchecked form of this position.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            black: self.pieces[0],
            white: self.pieces[1],
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The pieces of `color`.
    #[inline]
    #[must_use]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// The side to move's pieces.
    #[inline]
    #[must_use]
    pub const fn us(&self) -> Bitboard {
        self.pieces[self.turn.index()]
    }

    /// The pieces of the side not to move.
    #[inline]
    #[must_use]
    pub const fn them(&self) -> Bitboard {
        self.pieces[1 - self.turn.index()]
    }

    /// All pieces.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard::from_bits_truncate(self.pieces[0].bits() | self.pieces[1].bits())
    }

    /// The colour of the piece on `sq`, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Color, Position, Square};
    ///
    /// let start = Position::new();
    /// assert_eq!(start.piece_at(Square::A1), Some(Color::Black));
    /// assert_eq!(start.piece_at(Square::F6), Some(Color::White));
    /// assert_eq!(start.piece_at(Square::C3), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn piece_at(&self, sq: Square) -> Option<Color> {
        if self.pieces[0].contains(sq) {
            Some(Color::Black)
        } else if self.pieces[1].contains(sq) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture (or since the game's start).
    #[inline]
    #[must_use]
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: starts at 1, increases after White moves.
    #[inline]
    #[must_use]
    pub const fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist hash of placement and side to move (not the counters).
    #[inline]
    #[must_use]
    pub const fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; always equal to [`Position::zobrist`].
    #[must_use]
    pub fn compute_zobrist(&self) -> u64 {
        let mut h = if self.turn == Color::White {
            zobrist::TURN_KEY
        } else {
            0
        };
        for color in Color::ALL {
            for sq in self.pieces(color) {
                h ^= zobrist::piece_key(color, sq);
            }
        }
        h
    }

    /// Whether `other` has the same placement and side to move (counters ignored):
    /// the identity used for repetitions.
    #[inline]
    #[must_use]
    pub fn same_placement(&self, other: &Position) -> bool {
        self.pieces == other.pieces && self.turn == other.turn
    }

    /// All legal moves: captures first, then steps.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    ///
    /// // Black on b2 can capture White's b5 round the small circuit's a1 arc.
    /// let pos: Position = "6/1w4/6/6/1b4/6 b".parse()?;
    /// let moves = pos.legal_moves();
    /// assert_eq!(moves.len(), 9); // one capture and eight steps
    /// assert_eq!(moves[0].to_string(), "b2xb5"); // captures come first
    /// assert_eq!(moves.len(), pos.count_moves());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::generate(self.us(), self.them(), &mut list);
        list
    }

    /// The legal captures.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Move, Position, Square};
    ///
    /// let pos: Position = "6/1w4/6/6/1b4/6 b".parse()?;
    /// assert_eq!(pos.captures()[..], [Move::capture(Square::B2, Square::B5)]);
    /// assert!(Position::new().captures().is_empty()); // no capture at the start
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn captures(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::generate_captures(self.us(), self.them(), &mut list);
        list
    }

    /// The number of legal moves, faster than building the list.
    #[inline]
    #[must_use]
    pub fn count_moves(&self) -> usize {
        movegen::count(self.us(), self.them()) as usize
    }

    /// Whether the side to move has any legal move.
    #[inline]
    #[must_use]
    pub fn has_moves(&self) -> bool {
        movegen::has_moves(self.us(), self.them())
    }

    /// The enemy pieces that `color` could capture if it were to move.
    #[inline]
    #[must_use]
    pub fn capture_targets(&self, color: Color) -> Bitboard {
        movegen::capture_targets(self.pieces(color), self.pieces(!color))
    }

    /// Whether `m` is legal here.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Move, Position, Square};
    ///
    /// let start = Position::new();
    /// assert!(start.is_legal(Move::step(Square::B2, Square::B3)));
    /// assert!(!start.is_legal(Move::step(Square::B1, Square::B2))); // b2 is taken
    /// assert!(!start.is_legal(Move::step(Square::B5, Square::B4))); // White's piece
    /// ```
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        if !self.us().contains(m.from()) {
            return false;
        }
        if m.is_capture() {
            self.captures().contains(&m)
        } else {
            movegen::step_targets(m.from()).contains(m.to()) && self.piece_at(m.to()).is_none()
        }
    }

    /// The result under the pure rules, if the game is over: the side to move
    /// loses if it has no pieces or no legal move.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Color, Position, Termination};
    ///
    /// assert_eq!(Position::new().outcome(), None);
    /// // White to move with no piece left: Black has won.
    /// let over: Position = "6/6/6/6/1b4/6 w".parse()?;
    /// let outcome = over.outcome().unwrap();
    /// assert_eq!(outcome.winner, Some(Color::Black));
    /// assert_eq!(outcome.termination, Termination::NoPieces);
    /// assert_eq!(outcome.result(), "1-0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.us().is_empty() {
            Some(Outcome::win(!self.turn, Termination::NoPieces))
        } else if !self.has_moves() {
            Some(Outcome::win(!self.turn, Termination::NoMoves))
        } else {
            None
        }
    }

    /// Plays a legal move in place and returns what [`Position::undo`] needs.
    ///
    /// **The move must be legal** (from [`Position::legal_moves`], or checked
    /// with [`Position::is_legal`]): this is the fast path for search and
    /// checks nothing in release builds. An illegal move there builds an
    /// impossible position (pieces on one point, more than twelve pieces, a
    /// stale hash) that every later answer is wrong about; debug builds
    /// panic. Moves from outside (text, files, other programs) go through
    /// [`Position::parse_move`] or [`Position::play`], which check them.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        debug_assert!(
            self.is_legal(m),
            "play_unchecked: {m} is not legal in {self}"
        );
        let undo = Undo {
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        };
        let (us, them) = (self.turn, !self.turn);
        let (from, to) = (m.from(), m.to());
        self.pieces[us.index()] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.hash ^= zobrist::piece_key(us, from) ^ zobrist::piece_key(us, to);
        if m.is_capture() {
            self.pieces[them.index()].remove(to);
            self.hash ^= zobrist::piece_key(them, to);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.pass_turn();
        undo
    }

    /// Hands the turn to the other side: the move number after White's
    /// turn, the side to move and its hash key.
    #[inline]
    fn pass_turn(&mut self) {
        if self.turn == Color::White {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::TURN_KEY;
    }

    /// Takes back `m`, which must be the move just played with
    /// [`Position::play_unchecked`] that returned `undo`.
    #[inline]
    pub fn undo(&mut self, m: Move, undo: Undo) {
        let (us, them) = (!self.turn, self.turn);
        let (from, to) = (m.from(), m.to());
        self.pieces[us.index()] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.hash ^= zobrist::piece_key(us, from) ^ zobrist::piece_key(us, to) ^ zobrist::TURN_KEY;
        if m.is_capture() {
            self.pieces[them.index()].insert(to);
            self.hash ^= zobrist::piece_key(them, to);
        }
        self.halfmoves = undo.halfmoves;
        self.fullmoves = undo.fullmoves;
        self.turn = us;
    }

    /// The position after the legal move `m`. **Unchecked**, like
    /// [`Position::play_unchecked`]: an illegal move gives an impossible
    /// position in release builds; use [`Position::play`] for moves from
    /// outside.
    #[inline]
    #[must_use]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// The same placement with the other side to move, as if the side to
    /// move had passed: the rules never allow a pass, but engines search
    /// one to prove a position good enough without moving (null-move
    /// pruning). The no-capture count grows by one and the move number as
    /// after a quiet move; the hash is the new position's.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Color, Position};
    ///
    /// let start = Position::new();
    /// let passed = start.null_move();
    /// assert_eq!(passed.turn(), Color::White);
    /// for color in [Color::Black, Color::White] {
    ///     assert_eq!(passed.pieces(color), start.pieces(color));
    /// }
    /// assert_eq!(passed.zobrist(), passed.compute_zobrist());
    /// assert_eq!(passed.null_move().zobrist(), start.zobrist());
    /// ```
    #[inline]
    #[must_use]
    pub fn null_move(&self) -> Position {
        let mut next = *self;
        next.halfmoves = next.halfmoves.saturating_add(1);
        next.pass_turn();
        next
    }

    /// The position after `m`, or an error if `m` is not legal here.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Move, Position, Square};
    ///
    /// let start = Position::new();
    /// let next = start.play(Move::step(Square::B2, Square::B3))?;
    /// assert_eq!(next.to_string(), "wwwwww/wwwwww/6/1b4/b1bbbb/bbbbbb w 1 1");
    /// // An illegal move is an error, and the position is unchanged.
    /// assert!(start.play(Move::step(Square::B2, Square::B4)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(self, m: Move) -> Result<Position, MoveError> {
        self.check_move(MoveText {
            from: m.from(),
            to: m.to(),
            capture: Some(m.is_capture()),
        })?;
        Ok(self.after(m))
    }

    /// Reads a move in `b2-c3`, `b2xe5` or `b2c3` form and checks it is legal
    /// here; the error says what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{MoveError, Position};
    ///
    /// let pos: Position = "6/1w4/6/6/1b4/6 b".parse()?;
    /// assert!(pos.parse_move("b2xb5")?.is_capture());
    /// assert!(pos.parse_move("b2b5")?.is_capture()); // no separator: whichever it is
    /// assert!(matches!(pos.parse_move("b2-b5"), Err(MoveError::WrongKind { .. })));
    /// assert!(matches!(pos.parse_move("b5-b4"), Err(MoveError::NotYourPiece { .. })));
    /// assert!(matches!(pos.parse_move("b2-b9"), Err(MoveError::Syntax { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let written = text.parse().map_err(|error| MoveError::Syntax {
            text: Excerpt::new(text),
            error,
        })?;
        self.check_move(written)
    }

    /// Resolves a written move to the legal move it names.
    pub fn check_move(&self, text: MoveText) -> Result<Move, MoveError> {
        let owner = self.piece_at(text.from).ok_or(MoveError::NoPiece(text))?;
        if owner != self.turn {
            return Err(MoveError::NotYourPiece {
                given: text,
                owner,
                turn: self.turn,
            });
        }
        let found = self
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == text.from && m.to() == text.to)
            .ok_or(MoveError::Illegal(text))?;
        match text.capture {
            Some(c) if c != found.is_capture() => Err(MoveError::WrongKind {
                given: text,
                actual: found,
            }),
            _ => Ok(found),
        }
    }

    /// The image of this position under a board symmetry.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{perft, Position, Symmetry};
    ///
    /// let pos: Position = "6/1w4/6/6/1b4/6 b".parse()?;
    /// for sym in Symmetry::ALL {
    ///     let image = pos.transformed(sym);
    ///     assert_eq!(perft(&image, 2), perft(&pos, 2)); // the same game up to symmetry
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn transformed(&self, sym: Symmetry) -> Position {
        let mut pos = *self;
        pos.pieces = [sym.bitboard(self.pieces[0]), sym.bitboard(self.pieces[1])];
        pos.hash = pos.compute_zobrist();
        pos
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl TryFrom<Setup> for Position {
    type Error = PositionError;
    fn try_from(setup: Setup) -> Result<Position, PositionError> {
        Position::from_setup(setup)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(s.parse()?)?)
    }
}

impl fmt::Display for Position {
    /// The position's notation, e.g. `wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::ParseSquareError;

    fn written(text: &str) -> MoveText {
        text.parse().unwrap()
    }

    #[test]
    fn move_errors_hold_the_move_as_given() {
        let start = Position::new();
        let cases = [
            ("c3-c4", MoveError::NoPiece(written("c3-c4"))),
            (
                "e5-e4",
                MoveError::NotYourPiece {
                    given: written("e5-e4"),
                    owner: Color::White,
                    turn: Color::Black,
                },
            ),
            ("b1-b3", MoveError::Illegal(written("b1-b3"))),
            (
                "b2xb3",
                MoveError::WrongKind {
                    given: written("b2xb3"),
                    actual: Move::step(Square::B2, Square::B3),
                },
            ),
            (
                "b2-b9",
                MoveError::Syntax {
                    text: "b2-b9".into(),
                    error: ParseMoveError::Target(ParseSquareError::BadRank('9')),
                },
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(start.parse_move(text), Err(expected), "{text}");
        }
        let message = |text: &str| start.parse_move(text).unwrap_err().to_string();
        assert_eq!(message("c3-c4"), "c3-c4: there is no piece on c3");
        assert_eq!(
            message("e5-e4"),
            "e5-e4: the piece on e5 is white's, and it is black's move"
        );
        assert_eq!(
            message("b2-b9"),
            "invalid move text \"b2-b9\" (target: '9' is not a rank): \
             expected a step like b2-c3, a capture like b2xe5, or b2c3"
        );
    }

    #[test]
    fn overlap_names_the_points() {
        let mut setup = Setup::start();
        setup.black.insert(Square::A6);
        setup.black.insert(Square::B6);
        let err = Position::from_setup(setup).unwrap_err();
        let both = Bitboard::from_square(Square::A6) | Bitboard::from_square(Square::B6);
        assert_eq!(err, PositionError::Overlap(both));
        assert_eq!(
            err.to_string(),
            "points a6, b6 hold both a black and a white piece"
        );
    }
}
