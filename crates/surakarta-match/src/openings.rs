//! Openings: the positions a match starts its games from. Every generator
//! is reproducible from its seed.

use std::sync::atomic::{AtomicBool, Ordering};

use surakarta::random::{random_playout, random_position, SplitMix};
use surakarta::{Color, Game, Outcome, ParsePositionError, Position, Rules, MAX_PIECES_PER_SIDE};
use surakarta_search::{Limits, Options, ScoreKind, SearchError};

use crate::workers::on_engines;

/// Longest openings file read (bytes).
pub const MAX_FILE_LEN: usize = 64 << 20;

/// Why openings could not be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// A line of an openings file is not a valid position.
    #[error("line {line}: {error}")]
    Line {
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it (the source).
        #[source]
        error: ParsePositionError,
    },
    /// A line of an openings file is a position where the game is over.
    #[error("line {line}: the game is already over: {outcome}")]
    GameOver {
        /// The 1-based line number.
        line: usize,
        /// How the game has ended there.
        outcome: Outcome,
    },
    /// The file holds no position.
    #[error("no opening positions in the file")]
    Empty,
    /// The file is longer than [`MAX_FILE_LEN`].
    #[error("openings file too long ({0} bytes; at most {MAX_FILE_LEN})")]
    TooLong(usize),
    /// No split of the piece count obeys the bound on the difference.
    #[error("no position has {pieces} pieces with a difference of at most {max_difference} (each side has 1 to {MAX_PIECES_PER_SIDE})")]
    NoSplit {
        /// The total piece count asked for.
        pieces: u32,
        /// The bound on |black − white|.
        max_difference: u32,
    },
    /// Too few candidates were balanced: [`balanced`] kept `kept` of the
    /// `wanted` openings from `tried` candidates.
    #[error("only {kept} of {wanted} openings are balanced within {max_score} centipawns after {tried} candidates (allow a larger score)")]
    TooFewBalanced {
        /// Openings kept.
        kept: usize,
        /// Openings asked for.
        wanted: usize,
        /// Candidates judged.
        tried: usize,
        /// The bound on the judged score.
        max_score: u32,
    },
    /// The judging engine could not be set up.
    #[error("the engine judging the openings: {0}")]
    Judge(#[from] SearchError),
}

/// `count` openings: the start position after `plies` random legal moves
/// each (a playout stops early rather than end the game).
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_match::openings;
///
/// let starts = openings::from_start(10, 4, 1);
/// assert_eq!(starts.len(), 10);
/// assert!(starts.iter().all(|p| p.fullmoves() == 3)); // four plies: two moves each
/// assert_eq!(openings::from_start(10, 4, 1), starts); // the same seed, the same openings
/// assert_eq!(openings::from_start(1, 0, 1), [Position::new()]);
/// ```
#[must_use]
pub fn from_start(count: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix::new(seed);
    // Grown as made, not reserved: `count` may be larger than memory.
    let mut openings = Vec::new();
    for _ in 0..count {
        openings.push(random_playout(&mut rng, Position::new(), plies));
    }
    openings
}

/// The black piece counts allowed by `pieces` in total and a bound on the
/// difference between the sides.
///
/// # Examples
///
/// ```
/// use surakarta_match::openings::splits;
///
/// assert_eq!(splits(10, 4), [3, 4, 5, 6, 7]); // 3:7 … 7:3
/// assert_eq!(splits(24, 0), [12]);
/// assert!(splits(25, 30).is_empty()); // a side has at most 12
/// ```
#[must_use]
pub fn splits(pieces: u32, max_difference: u32) -> Vec<u32> {
    (1..=MAX_PIECES_PER_SIDE)
        .filter(|&black| {
            let white = pieces.wrapping_sub(black);
            black < pieces
                && (1..=MAX_PIECES_PER_SIDE).contains(&white)
                && black.abs_diff(white) <= max_difference
        })
        .collect()
}

/// [`splits`], or [`OpeningError::NoSplit`] where there is none.
fn nonempty_splits(pieces: u32, max_difference: u32) -> Result<Vec<u32>, OpeningError> {
    let splits = splits(pieces, max_difference);
    if splits.is_empty() {
        return Err(OpeningError::NoSplit {
            pieces,
            max_difference,
        });
    }
    Ok(splits)
}

/// `count` random boards as in the FuChou experiments: `pieces` pieces in
/// total, the black count drawn uniformly from the splits whose difference
/// is at most `max_difference` (10 pieces with difference 4 gives 3:7 …
/// 7:3), every placement equally likely; Black is to move on the first,
/// third, … board and White on the others ("alternating Black or White
/// first"). Boards where the game is already over are drawn again.
///
/// # Examples
///
/// ```
/// use surakarta::Color;
/// use surakarta_match::openings::random_boards;
///
/// let boards = random_boards(4, 10, 4, 7)?;
/// assert_eq!(boards.len(), 4);
/// assert!(boards.iter().all(|b| b.occupied().len() == 10 && b.outcome().is_none()));
/// assert_eq!((boards[0].turn(), boards[1].turn()), (Color::Black, Color::White));
/// assert!(random_boards(1, 30, 0, 7).is_err()); // 15:15 is no position
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn random_boards(
    count: usize,
    pieces: u32,
    max_difference: u32,
    seed: u64,
) -> Result<Vec<Position>, OpeningError> {
    let splits = nonempty_splits(pieces, max_difference)?;
    let mut rng = SplitMix::new(seed);
    let mut boards = Vec::new();
    while boards.len() < count {
        let black = splits[rng.below(splits.len())];
        let turn = if boards.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let board = random_position(&mut rng, black, pieces - black, turn).map_err(|_| {
            OpeningError::NoSplit {
                pieces,
                max_difference,
            }
        })?;
        if board.outcome().is_none() {
            boards.push(board);
        }
    }
    Ok(boards)
}

/// `count` openings from thinned start positions: the start position with
/// pieces removed at random until `pieces` remain (the black count drawn
/// uniformly from the splits whose difference is at most `max_difference`,
/// which pieces go equally likely), then `plies` random legal moves as in
/// [`from_start`]. Unlike [`random_boards`], the pieces stay on their own
/// side of the board, so the games start as openings of fewer pieces
/// rather than as tactical melees decided by who moves first.
///
/// # Examples
///
/// ```
/// use surakarta::Color;
/// use surakarta_match::openings::thinned_start;
///
/// let boards = thinned_start(6, 18, 0, 4, 3)?;
/// assert_eq!(boards.len(), 6);
/// for board in &boards {
///     assert_eq!(board.pieces(Color::Black).len(), 9);
///     assert_eq!(board.pieces(Color::White).len(), 9);
///     assert_eq!(board.fullmoves(), 3); // four random plies
/// }
/// assert_eq!(thinned_start(6, 18, 0, 4, 3)?, boards); // reproducible
/// assert!(thinned_start(1, 25, 0, 4, 3).is_err()); // a side starts with 12
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn thinned_start(
    count: usize,
    pieces: u32,
    max_difference: u32,
    plies: usize,
    seed: u64,
) -> Result<Vec<Position>, OpeningError> {
    let splits = nonempty_splits(pieces, max_difference)?;
    let start = Position::new();
    let mut rng = SplitMix::new(seed);
    let mut openings = Vec::new();
    while openings.len() < count {
        let black = splits[rng.below(splits.len())];
        let mut keep = |color: Color, n: u32| {
            let mut squares: Vec<_> = start.pieces(color).into_iter().collect();
            while squares.len() > n as usize {
                squares.swap_remove(rng.below(squares.len()));
            }
            squares.into_iter().collect()
        };
        let black_pieces = keep(Color::Black, black);
        let white_pieces = keep(Color::White, pieces - black);
        // The start position has Black to move; both sides keep a piece.
        let thinned =
            Position::from_sides(black_pieces, white_pieces, Color::Black).map_err(|_| {
                OpeningError::NoSplit {
                    pieces,
                    max_difference,
                }
            })?;
        let opening = random_playout(&mut rng, thinned, plies);
        if opening.outcome().is_none() {
            openings.push(opening);
        }
    }
    Ok(openings)
}

/// Nodes the judge of [`balanced`] searches by default: depth 8 or so from
/// the start position after a few random plies.
pub const DEFAULT_BALANCE_NODES: u64 = 20_000;

/// The most candidates [`balanced`] judges per opening asked before it
/// gives up.
pub const MAX_CANDIDATES_PER_OPENING: usize = 100;

/// Candidates [`balanced`] asks for at a time.
pub const BALANCE_BATCH: usize = 256;

/// How [`balanced`] judges an opening: a search of `nodes` nodes by an
/// engine of `options` (one thread, a fresh transposition table per
/// opening, so the verdict is the same on any number of workers) under
/// `rules`; the opening is kept if the score is a heuristic one of at most
/// `max_score` centipawns either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balance {
    /// Largest |score| kept, in centipawns for the side to move.
    pub max_score: u32,
    /// Nodes of the judging search (at least 1).
    pub nodes: u64,
    /// The judging engine (its thread count is set to 1).
    pub options: Options,
    /// The rules the judge searches under.
    pub rules: Rules,
}

impl Balance {
    /// The default engine judging with [`DEFAULT_BALANCE_NODES`] nodes under
    /// `rules`, keeping scores within `max_score` centipawns.
    #[must_use]
    pub fn new(max_score: u32, rules: Rules) -> Balance {
        Balance {
            max_score,
            nodes: DEFAULT_BALANCE_NODES,
            options: Options {
                hash_mb: 16,
                ..Options::default()
            },
            rules,
        }
    }
}

/// The seed of the `batch`-th batch of candidates of a stream seeded with
/// `seed`: `seed` itself for the first, so that the first candidates are
/// the unfiltered openings of that seed.
#[must_use]
pub fn batch_seed(seed: u64, batch: u64) -> u64 {
    seed.wrapping_add(batch.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// `count` balanced openings: candidates from `candidates(batch)` (batch
/// 0, 1, …; an empty batch ends the stream) judged as [`Balance`] says on
/// `threads` workers, kept in the order made. Random plies from the start
/// leave many openings that the side to move wins with either engine, and
/// the two games of such an opening split 1–1 whatever the players'
/// strength; balanced openings let a match tell small differences apart
/// with fewer games. `on_judged(judged, kept)` is called after each batch.
/// The result does not depend on `threads`.
///
/// Fails if fewer than `count` are kept from
/// [`MAX_CANDIDATES_PER_OPENING`] × `count` candidates or from a stream that
/// ends, or if the engine cannot be set up.
///
/// # Examples
///
/// ```
/// use surakarta::Rules;
/// use surakarta_match::openings::{balanced, batch_seed, from_start, Balance, BALANCE_BATCH};
///
/// let balance = Balance { nodes: 2_000, ..Balance::new(30, Rules::ICGA) };
/// let make = |batch| Ok(from_start(BALANCE_BATCH, 8, batch_seed(5, batch)));
/// let openings = balanced(6, &balance, 2, make, &|_, _| {})?;
/// assert_eq!(openings.len(), 6);
/// assert_eq!(balanced(6, &balance, 1, make, &|_, _| {})?, openings); // any thread count
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn balanced(
    count: usize,
    balance: &Balance,
    threads: usize,
    mut candidates: impl FnMut(u64) -> Result<Vec<Position>, OpeningError>,
    on_judged: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Position>, OpeningError> {
    let limit = MAX_CANDIDATES_PER_OPENING.saturating_mul(count.max(1));
    let mut kept = Vec::new();
    let mut tried = 0;
    let mut batch = 0;
    let too_few = |kept: usize, tried| OpeningError::TooFewBalanced {
        kept,
        wanted: count,
        tried,
        max_score: balance.max_score,
    };
    while kept.len() < count {
        if tried >= limit {
            return Err(too_few(kept.len(), tried));
        }
        let mut made = candidates(batch)?;
        batch += 1;
        if made.is_empty() {
            return Err(too_few(kept.len(), tried));
        }
        made.truncate(limit - tried);
        let verdicts = judge_balance(&made, balance, threads)?;
        tried += made.len();
        kept.extend(
            made.into_iter()
                .zip(verdicts)
                .filter_map(|(p, keep)| keep.then_some(p)),
        );
        on_judged(tried, kept.len().min(count));
    }
    kept.truncate(count);
    Ok(kept)
}

/// Whether each of `positions` is balanced as [`Balance`] says, judged on
/// `threads` workers (1 to
/// [`MAX_THREADS`](surakarta_search::MAX_THREADS); the verdicts do not
/// depend on the number).
///
/// # Examples
///
/// ```
/// use surakarta::{Position, Rules};
/// use surakarta_match::openings::{judge_balance, Balance};
///
/// let balance = Balance { nodes: 2_000, ..Balance::new(40, Rules::ICGA) };
/// // A side a piece up is not balanced.
/// let uneven: Position = "wwwwww/wwwww1/6/6/bbbbbb/bbbbbb b".parse()?;
/// assert_eq!(judge_balance(&[Position::new(), uneven], &balance, 1)?, [true, false]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge_balance(
    positions: &[Position],
    balance: &Balance,
    threads: usize,
) -> Result<Vec<bool>, OpeningError> {
    let verdicts: Vec<AtomicBool> = positions.iter().map(|_| AtomicBool::new(false)).collect();
    let limits = Limits::nodes(balance.nodes.max(1));
    let never = AtomicBool::new(false);
    on_engines(&balance.options, threads, positions.len(), |engine, i| {
        let game = Game::new(positions[i], balance.rules);
        let result = engine.search(&game, &limits, &never, &mut |_| {});
        let keep = result.best_move.is_some()
            && matches!(result.info.score.kind(),
                ScoreKind::Eval(v) if v.unsigned_abs() <= balance.max_score);
        verdicts[i].store(keep, Ordering::Relaxed);
        Ok::<(), OpeningError>(())
    })?;
    Ok(verdicts.into_iter().map(AtomicBool::into_inner).collect())
}

/// Reads an openings file for games under `rules`: one position per line
/// in the notation of `docs/notation.md`; blank lines and lines starting
/// with `#` are skipped. Positions where a game under `rules` is already
/// over (no pieces or no move for the side to move, or the no-capture
/// counter at the rules' limit) are rejected.
///
/// # Examples
///
/// ```
/// use surakarta::Rules;
/// use surakarta_match::openings::{parse_file, OpeningError};
///
/// let text = "# two openings\nwwwwww/wwwwww/6/6/bbbbbb/bbbbbb b\n\n6/1w4/6/6/1b4/6 b\n";
/// assert_eq!(parse_file(text, Rules::ICGA)?.len(), 2);
/// let error = parse_file("6/1w4/6/6/1b4/6 b\nbad\n", Rules::ICGA).unwrap_err();
/// assert!(matches!(error, OpeningError::Line { line: 2, .. }));
/// // A position where the game is over is no opening.
/// let over = parse_file("6/6/6/6/1b4/6 w", Rules::ICGA);
/// assert!(matches!(over, Err(OpeningError::GameOver { line: 1, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_file(text: &str, rules: Rules) -> Result<Vec<Position>, OpeningError> {
    if text.len() > MAX_FILE_LEN {
        return Err(OpeningError::TooLong(text.len()));
    }
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_text = line.trim();
        if line_text.is_empty() || line_text.starts_with('#') {
            continue;
        }
        let line = i + 1;
        let position: Position = line_text
            .parse()
            .map_err(|error| OpeningError::Line { line, error })?;
        if let Some(outcome) = Game::new(position, rules).outcome() {
            return Err(OpeningError::GameOver { line, outcome });
        }
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_splits() {
        assert_eq!(splits(10, 4), vec![3, 4, 5, 6, 7]);
        assert_eq!(splits(12, 4), vec![4, 5, 6, 7, 8]);
        assert_eq!(splits(24, 0), vec![12]);
        assert_eq!(splits(2, 10), vec![1]);
        assert!(splits(25, 24).is_empty());
        assert!(splits(1, 5).is_empty());
    }

    #[test]
    fn random_boards_obey_the_split() {
        let boards = random_boards(200, 10, 4, 5).unwrap();
        assert_eq!(boards.len(), 200);
        let mut blacks = [0; 13];
        for (i, b) in boards.iter().enumerate() {
            assert_eq!(
                b.turn(),
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            );
            let black = b.pieces(Color::Black).len();
            let white = b.pieces(Color::White).len();
            assert_eq!(black + white, 10);
            assert!(black.abs_diff(white) <= 4, "{b}");
            assert!(b.outcome().is_none());
            blacks[black as usize] += 1;
        }
        assert!((3..=7).all(|k| blacks[k] > 20), "{blacks:?}");
        assert_eq!(boards, random_boards(200, 10, 4, 5).unwrap());
        assert_ne!(boards, random_boards(200, 10, 4, 6).unwrap());
        assert!(random_boards(1, 30, 0, 1).is_err());
    }

    #[test]
    fn thinned_starts_keep_pieces_on_their_own_side() {
        let start = Position::new();
        let boards = thinned_start(100, 18, 2, 0, 9).unwrap();
        let mut blacks = [0; 13];
        for b in &boards {
            let black = b.pieces(Color::Black);
            let white = b.pieces(Color::White);
            assert_eq!(black.len() + white.len(), 18);
            assert!(black.len().abs_diff(white.len()) <= 2, "{b}");
            // No plies: every piece is still on a start square of its side.
            assert_eq!(black & start.pieces(Color::Black), black, "{b}");
            assert_eq!(white & start.pieces(Color::White), white, "{b}");
            assert_eq!(b.turn(), Color::Black);
            blacks[black.len() as usize] += 1;
        }
        assert!((8..=10).all(|k| blacks[k] > 15), "{blacks:?}");
        assert_ne!(boards, thinned_start(100, 18, 2, 0, 10).unwrap());
        assert!(thinned_start(1, 1, 0, 0, 1).is_err());
    }

    #[test]
    fn balanced_openings_are_judged_within_the_bound() {
        let balance = Balance {
            nodes: 1_500,
            ..Balance::new(20, Rules::ICGA)
        };
        let make = |batch| Ok(from_start(64, 8, batch_seed(11, batch)));
        let kept = balanced(40, &balance, 2, make, &|_, _| {}).unwrap();
        assert_eq!(kept.len(), 40);
        // Every kept opening scores within the bound when judged again, and
        // some candidates were not kept.
        let mut engine = surakarta_search::Engine::new(balance.options.clone()).unwrap();
        for p in &kept {
            engine.new_game();
            let game = Game::new(*p, Rules::ICGA);
            let r = engine.search(
                &game,
                &Limits::nodes(1_500),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            assert!(
                matches!(r.info.score.kind(), ScoreKind::Eval(v) if v.abs() <= 20),
                "{p}: {}",
                r.info.score
            );
        }
        let all: Vec<_> = (0..4)
            .flat_map(|b| from_start(64, 8, batch_seed(11, b)))
            .collect();
        let first_unkept = all.iter().position(|p| !kept.contains(p));
        assert!(first_unkept.is_some_and(|i| i < 40), "nothing filtered");
        // The same openings on one worker.
        assert_eq!(balanced(40, &balance, 1, make, &|_, _| {}).unwrap(), kept);
    }

    #[test]
    fn balance_gives_up_and_names_what_it_kept() {
        let balance = Balance {
            nodes: 500,
            ..Balance::new(0, Rules::ICGA)
        };
        // A stream that ends after one batch.
        let one_batch = |batch| {
            Ok(if batch == 0 {
                from_start(8, 8, 1)
            } else {
                Vec::new()
            })
        };
        let err = balanced(50, &balance, 1, one_batch, &|_, _| {}).unwrap_err();
        assert!(
            matches!(
                err,
                OpeningError::TooFewBalanced {
                    wanted: 50,
                    tried: 8,
                    max_score: 0,
                    ..
                }
            ),
            "{err}"
        );
        // An endless stream stops at the candidate limit.
        let endless = |batch| Ok(from_start(BALANCE_BATCH, 8, batch_seed(1, batch)));
        let err = balanced(1, &balance, 2, endless, &|_, _| {});
        match err {
            Err(OpeningError::TooFewBalanced { tried, .. }) => {
                assert_eq!(tried, MAX_CANDIDATES_PER_OPENING)
            }
            Ok(kept) => assert_eq!(kept.len(), 1), // a score of exactly 0
            Err(e) => panic!("{e}"),
        }
        assert!(matches!(
            balanced(1, &balance, 0, endless, &|_, _| {}),
            Err(OpeningError::Judge(SearchError::Threads(0)))
        ));
    }

    #[test]
    fn start_openings_are_reproducible() {
        let a = from_start(10, 8, 3);
        assert_eq!(a, from_start(10, 8, 3));
        assert!(a
            .iter()
            .all(|p| p.outcome().is_none() && *p != Position::new()));
    }

    #[test]
    fn files_name_the_bad_line() {
        let text = "# openings\nwwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1\n\n6/6/6/6/6 b\n";
        let err = parse_file(text, Rules::ICGA).unwrap_err();
        assert!(
            matches!(
                err,
                OpeningError::Line {
                    line: 4,
                    error: ParsePositionError::Syntax(surakarta::ParseSetupError::RankCount(5))
                }
            ),
            "{err}"
        );
        assert!(err.to_string().starts_with("line 4: board field"), "{err}");
        let over = "\n6/6/6/6/6/b5 w\n";
        let err = parse_file(over, Rules::ICGA).unwrap_err();
        assert!(
            matches!(err, OpeningError::GameOver { line: 2, outcome } if outcome.winner == Some(Color::Black)),
            "{err}"
        );
        assert!(
            err.to_string().contains("the game is already over"),
            "{err}"
        );
        assert_eq!(
            parse_file("# nothing\n\n", Rules::ICGA),
            Err(OpeningError::Empty)
        );
        let text = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b\n2w3/6/6/6/1b4/6 w";
        let ok = parse_file(text, Rules::ICGA).unwrap();
        assert_eq!(ok.len(), 2);
        // Over by the rules' no-capture limit: under ICGA's 50, not PKU's
        // 40 plies.
        let counted = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 45 30";
        assert_eq!(parse_file(counted, Rules::ICGA).unwrap().len(), 1);
        let err = parse_file(counted, Rules::PKU).unwrap_err();
        assert!(
            matches!(err, OpeningError::GameOver { line: 1, outcome } if outcome.winner.is_none()),
            "{err}"
        );
    }
}
