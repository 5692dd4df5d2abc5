//! The JavaScript classes `Board` and `Game` (wasm-bindgen). Errors become
//! JavaScript `Error`s with the message of [`crate::Board`]'s error.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `console.error`.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Sends the message of a panic (a bug: the board answers errors, it does
/// not panic on input) to the browser's console before the module stops.
fn report_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error(&format!("surakarta-wasm: {info}"))
        }));
    });
}

/// A JavaScript error with `message`.
fn error(message: String) -> JsError {
    JsError::new(&message)
}

/// The analysis board: tables loaded from bytes, the engine on this thread
/// (run it in a Web Worker), every answer as the JSON text of the page's
/// HTTP API.
#[wasm_bindgen(js_name = Board)]
pub struct JsBoard(crate::Board);

#[wasm_bindgen(js_class = Board)]
impl JsBoard {
    /// A board without tables.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsBoard {
        report_panics();
        JsBoard(crate::Board::new())
    }

    /// Loads a table file (checked whole first); returns its class.
    #[wasm_bindgen(js_name = addTable)]
    pub fn add_table(&mut self, name: &str, bytes: Vec<u8>) -> Result<String, JsError> {
        self.0.add_table(name, bytes).map_err(error)
    }

    /// The classes loaded.
    pub fn classes(&self) -> Vec<String> {
        self.0.classes()
    }

    /// The classes a position's answer needs that are not loaded.
    #[wasm_bindgen(js_name = missingClasses)]
    pub fn missing_classes(&self, fen: &str) -> Result<Vec<String>, JsError> {
        self.0.missing_classes(fen).map_err(error)
    }

    /// `/api/position`'s answer as JSON text.
    pub fn position(&self, fen: &str) -> Result<String, JsError> {
        self.0.position(fen).map_err(error)
    }

    /// `/api/probe`'s answer as JSON text.
    pub fn probe(&self, fen: &str) -> Result<String, JsError> {
        self.0.probe(fen).map_err(error)
    }

    /// `/api/svg`'s picture.
    pub fn svg(&self, fen: &str, highlight: Option<String>) -> Result<String, JsError> {
        self.0.svg(fen, highlight.as_deref()).map_err(error)
    }

    /// The transposition table in MiB for the next searches.
    #[wasm_bindgen(js_name = setHash)]
    pub fn set_hash(&mut self, mib: usize) -> Result<(), JsError> {
        self.0.set_hash(mib).map_err(error)
    }

    /// Searches; `onInfo(json)` gets each iteration and returns true to
    /// stop. Returns the `bestmove` JSON text.
    pub fn analyse(
        &mut self,
        fen: &str,
        movetime_ms: u32,
        depth: Option<u32>,
        on_info: &js_sys::Function,
    ) -> Result<String, JsError> {
        self.0
            .analyse(fen, movetime_ms, depth, &mut |json| {
                on_info
                    .call1(&JsValue::NULL, &JsValue::from_str(&json))
                    .is_ok_and(|answer| answer.is_truthy())
            })
            .map_err(error)
    }

    /// `/api/position`'s answer for a game given as JSON text
    /// (`{"rules", "start", "moves"}`).
    #[wasm_bindgen(js_name = gamePosition)]
    pub fn game_position(&self, game: &str) -> Result<String, JsError> {
        self.0.game_position(game).map_err(error)
    }

    /// Searches as `/api/analysis` does for the request given as JSON text
    /// (`{"fen"}` or `{"game"}`, `"movetime"`, `"depth"`, `"nodes"`,
    /// `"level"`, `"seed"`, `"multipv"`); `onInfo(json)` gets each
    /// iteration and returns true to stop. Returns the `bestmove` JSON text.
    #[wasm_bindgen(js_name = analyseRequest)]
    pub fn analyse_request(
        &mut self,
        request: &str,
        on_info: &js_sys::Function,
    ) -> Result<String, JsError> {
        self.0
            .analyse_request(request, &mut |json| {
                on_info
                    .call1(&JsValue::NULL, &JsValue::from_str(&json))
                    .is_ok_and(|answer| answer.is_truthy())
            })
            .map_err(error)
    }

    /// Judges every move of a game (`{"game", "movetime" | "nodes"}` as
    /// JSON text); `onProgress(done, total)` after each position. Returns
    /// the JSON text of `/api/game-analysis`'s `done` event.
    #[wasm_bindgen(js_name = analyseGame)]
    pub fn analyse_game(
        &mut self,
        request: &str,
        on_progress: &js_sys::Function,
    ) -> Result<String, JsError> {
        self.0
            .analyse_game(request, &mut |done, total| {
                let _ = on_progress.call2(
                    &JsValue::NULL,
                    &JsValue::from(done as u32),
                    &JsValue::from(total as u32),
                );
            })
            .map_err(error)
    }

    /// The engine's benchmark at `depth` as JSON text.
    pub fn bench(&mut self, depth: u32) -> Result<String, JsError> {
        self.0.bench(depth).map_err(error)
    }

    /// Probe timing over the largest classes loaded, as JSON text.
    #[wasm_bindgen(js_name = timeProbes)]
    pub fn time_probes(&self, probes: u32) -> Result<String, JsError> {
        self.0.time_probes(probes).map_err(error)
    }
}

impl Default for JsBoard {
    fn default() -> JsBoard {
        JsBoard::new()
    }
}

/// A game: a start position and the moves played, under the default rules.
#[wasm_bindgen(js_name = Game)]
pub struct JsGame(surakarta::Game);

#[wasm_bindgen(js_class = Game)]
impl JsGame {
    /// A game from `fen` (the start position if absent).
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<JsGame, JsError> {
        let start = match fen {
            Some(fen) => crate::board::parse(&fen).map_err(error)?,
            None => surakarta::Position::new(),
        };
        Ok(JsGame(surakarta::Game::new(
            start,
            surakarta::Rules::default(),
        )))
    }

    /// The current position.
    pub fn fen(&self) -> String {
        self.0.position().to_string()
    }

    /// The legal moves in notation (none once the game is over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves().iter().map(|m| m.to_string()).collect()
    }

    /// Plays a move given in notation (`a1-b2`, `a1xd4`).
    pub fn play(&mut self, text: &str) -> Result<(), JsError> {
        self.0
            .play_text(text)
            .map(|_| ())
            .map_err(|e| error(format!("move {text:?}: {e}")))
    }

    /// Takes back the last move; the move, or undefined at the start.
    pub fn undo(&mut self) -> Option<String> {
        self.0.undo().map(|m| m.to_string())
    }

    /// The moves played, in notation.
    pub fn moves(&self) -> Vec<String> {
        self.0.moves().iter().map(|m| m.to_string()).collect()
    }

    /// The end of the game as JSON text, or undefined while it goes on.
    pub fn outcome(&self) -> Option<String> {
        self.0
            .outcome()
            .map(|o| surakarta_board::outcome_json(&o).to_string())
    }
}

/// Game records (no tables or engine needed: the methods only share the
/// `Board` object the page holds).
#[wasm_bindgen(js_class = Board)]
impl JsBoard {
    /// A record text's games as JSON text (`readRecord`): the answer of the
    /// server's `/api/record`.
    #[wasm_bindgen(js_name = readRecord)]
    pub fn read_record(&self, text: &str) -> Result<String, JsError> {
        crate::read_record(text).map_err(error)
    }

    /// A game given as JSON text as record text (`writeRecord`): the
    /// answer of the server's `/api/record/text`.
    #[wasm_bindgen(js_name = writeRecord)]
    pub fn write_record(&self, game: &str) -> Result<String, JsError> {
        crate::write_record(game).map_err(error)
    }
}
