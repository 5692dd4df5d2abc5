//! Players: anything that picks a move in a game. The in-process engine is
//! [`EnginePlayer`]; programs in other processes are
//! [`ExternalEngine`](crate::ExternalEngine).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use surakarta::{Excerpt, Game, GameError, Move, Rules};
use surakarta_search::{Engine, Limits, Options, SearchError};
use surakarta_tablebase::Tablebase;

/// Why a player could not start or could not give a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The in-process engine could not be built.
    #[error("{name}: {source}")]
    Engine {
        /// The player.
        name: String,
        /// What failed.
        source: SearchError,
    },
    /// The player gave no move although the game is not over.
    #[error("{0}: gave no move")]
    NoMove(String),
    /// The player gave a move that is not legal.
    #[error("{name}: illegal move {text} ({error})")]
    Illegal {
        /// The player.
        name: String,
        /// The move as the player wrote it.
        text: Excerpt,
        /// Why it is not legal (the source).
        #[source]
        error: GameError,
    },
    /// An external program failed: could not start, exited, broke the
    /// protocol or did not answer in time.
    #[error("{name}: {message}")]
    External {
        /// The player.
        name: String,
        /// What went wrong.
        message: String,
    },
}

/// A side in a match: it is told when a game starts and asked for moves.
///
/// # Examples
///
/// ```
/// use surakarta::{Game, Move, Rules};
/// use surakarta_match::{play_game, Player, PlayerError};
///
/// /// Plays the first legal move, always.
/// struct FirstMove;
///
/// impl Player for FirstMove {
///     fn name(&self) -> &str {
///         "first move"
///     }
///     fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
///         Ok(())
///     }
///     fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
///         Ok(game.legal_moves()[0])
///     }
/// }
///
/// let finished = play_game(&mut FirstMove, &mut FirstMove, Default::default(), Rules::ICGA, 40);
/// assert!(finished.game.moves().len() <= 40);
/// ```
pub trait Player: Send {
    /// The name written into game records.
    #[must_use]
    fn name(&self) -> &str;

    /// A new game under `rules` starts.
    fn new_game(&mut self, rules: Rules) -> Result<(), PlayerError>;

    /// The move to play in the current position of `game`, which is not
    /// over. The move must be legal; the caller checks it again.
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError>;
}

/// The in-process engine with fixed limits for every move.
///
/// # Examples
///
/// ```
/// use surakarta::Game;
/// use surakarta_match::{EnginePlayer, Player};
/// use surakarta_search::{Limits, Options};
///
/// let mut player = EnginePlayer::new("depth 2".into(), Options::default(), None, Limits::depth(2))?;
/// assert_eq!(player.name(), "depth 2");
/// let game = Game::default();
/// let m = player.choose(&game)?;
/// assert!(game.position().is_legal(m));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EnginePlayer {
    name: String,
    engine: Engine,
    limits: Limits,
    stop: AtomicBool,
}

impl EnginePlayer {
    /// An engine with `options`, optional tablebases, and `limits` for each
    /// move.
    pub fn new(
        name: String,
        options: Options,
        tablebase: Option<Arc<Tablebase>>,
        limits: Limits,
    ) -> Result<EnginePlayer, PlayerError> {
        let mut engine = Engine::new(options).map_err(|source| PlayerError::Engine {
            name: name.clone(),
            source,
        })?;
        engine.set_tablebase(tablebase);
        Ok(EnginePlayer {
            name,
            engine,
            limits,
            stop: AtomicBool::new(false),
        })
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let result = self
            .engine
            .search(game, &self.limits, &self.stop, &mut |_| {});
        result
            .best_move
            .ok_or_else(|| PlayerError::NoMove(self.name.clone()))
    }
}
