//! The query string of a request, read with every limit checked: at most
//! [`MAX_QUERY`] bytes, each parameter at most once, and the parameters
//! the API shares (`fen`, a position; `rules`, `start` and `moves`, a
//! game).

use crate::common::game::parse_position;
use crate::serve::error::ApiError;
use surakarta::{Game, Position, Rules};

/// The longest query string (and so the longest value) accepted, in bytes:
/// room for a game of about 1,300 moves (`moves=b2-b3,e5-e4,…`).
pub(crate) const MAX_QUERY: usize = 8192;

/// The decoded parameters of a query string.
#[derive(Debug)]
pub(crate) struct Params(Vec<(String, String)>);

impl Params {
    /// Reads the raw query string (none: no parameters): URL-decoded,
    /// `+` read as a space. Over [`MAX_QUERY`] bytes, or a parameter given
    /// twice, is a 400. Parameters the API does not know are ignored (a
    /// page may add one to defeat a cache).
    pub(crate) fn parse(raw: Option<&str>) -> Result<Params, ApiError> {
        let raw = raw.unwrap_or("");
        if raw.len() > MAX_QUERY {
            return Err(ApiError::bad_request(format!(
                "the query string is {} bytes long: at most {MAX_QUERY} are accepted",
                raw.len()
            )));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        for (name, value) in form_urlencoded::parse(raw.as_bytes()) {
            if params.iter().any(|(n, _)| *n == name) {
                return Err(ApiError::bad_request(format!(
                    "parameter {} is given more than once",
                    surakarta::Excerpt::new(&name)
                )));
            }
            params.push((name.into_owned(), value.into_owned()));
        }
        Ok(Params(params))
    }

    /// The value of parameter `name`, if given.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position of parameter `fen` (the start position if absent);
    /// malformed notation is a 400 with the CLI's message.
    pub(crate) fn position(&self) -> Result<Position, ApiError> {
        match self.get("fen") {
            None => Ok(Position::new()),
            Some(text) => parse_position(text).map_err(|e| ApiError::bad_request(e.0)),
        }
    }

    /// The game of parameters `rules`, `start` and `moves`
    /// ([`surakarta_board::replay_game`]) when any is given; else the
    /// position of `fen` under the default rules, without history. A game
    /// that does not replay is a 400 naming the parameter and the move.
    pub(crate) fn game(&self) -> Result<Game, ApiError> {
        let (rules, start, moves) = (self.get("rules"), self.get("start"), self.get("moves"));
        if rules.is_none() && start.is_none() && moves.is_none() {
            return Ok(Game::new(self.position()?, Rules::default()));
        }
        surakarta_board::replay_game(rules, start, moves)
            .map_err(|e| ApiError::bad_request(e.to_string()))
    }

    /// Parameter `name` as a whole number from 1 to `max` (`default` if
    /// absent); anything else is a 400 naming the range.
    pub(crate) fn number(
        &self,
        name: &str,
        default: Option<u64>,
        max: u64,
    ) -> Result<Option<u64>, ApiError> {
        let Some(text) = self.get(name) else {
            return Ok(default);
        };
        match text.parse::<u64>() {
            Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
            Ok(n) => Err(ApiError::bad_request(format!(
                "{name} {n} is out of range: give 1 to {max}"
            ))),
            Err(_) => Err(ApiError::bad_request(format!(
                "{name} {} is not a whole number: give 1 to {max}",
                surakarta::Excerpt::new(text)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_limits() {
        let p = Params::parse(Some("fen=6%2F6%2F2b3%2F6%2F2w3%2F6+b&x=1")).unwrap();
        assert_eq!(p.get("fen"), Some("6/6/2b3/6/2w3/6 b"));
        assert!(p.position().is_ok());
        assert_eq!(
            Params::parse(None).unwrap().position().unwrap(),
            Position::new()
        );
        assert!(Params::parse(Some(&"a".repeat(MAX_QUERY))).is_ok());
        assert!(Params::parse(Some(&"a".repeat(MAX_QUERY + 1))).is_err());
        assert!(Params::parse(Some("fen=a&fen=b")).is_err());
        let p = Params::parse(Some("movetime=abc&depth=0&n=7&m=%FF")).unwrap();
        assert!(p.number("movetime", Some(5), 10).is_err());
        assert!(p.number("depth", None, 64).is_err());
        assert_eq!(p.number("n", None, 7).unwrap(), Some(7));
        assert!(p.number("n", None, 6).is_err());
        assert_eq!(p.number("absent", Some(3), 6).unwrap(), Some(3));
        assert!(p.number("m", None, 6).is_err());
        assert!(p.position().is_ok());
    }

    #[test]
    fn games_are_replayed_from_rules_start_and_moves() {
        let p = Params::parse(Some("fen=6%2F6%2F2b3%2F6%2F2w3%2F6+b")).unwrap();
        assert_eq!(p.game().unwrap().rules(), Rules::default());
        let p = Params::parse(Some("rules=pku&moves=b2-b3%2Ce5-e4")).unwrap();
        let game = p.game().unwrap();
        assert_eq!((game.rules(), game.moves().len()), (Rules::PKU, 2));
        let p = Params::parse(Some("moves=b2-b3,b3-b4")).unwrap();
        let e = p.game().unwrap_err();
        assert!(e.message.starts_with("moves: ply 2"), "{}", e.message);
        assert!(Params::parse(Some("rules=chess")).unwrap().game().is_err());
        assert!(Params::parse(Some("start=x")).unwrap().game().is_err());
    }
}
