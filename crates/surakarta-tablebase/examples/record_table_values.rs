//! For each game of a record file, the tables' value of the first position
//! they cover, against the game's result, from one player's side: do the
//! tables already decide the games, and who converts the wins?
//!
//! `cargo run --release -p surakarta-tablebase --example record_table_values -- GAMES.rec TABLE_DIR PLAYER`
//!
//! PLAYER is a name in the records' `Black`/`White` tags (e.g. `tb` in
//! docs/experiments.md). Prints a table: table verdict × result for PLAYER.

use std::collections::BTreeMap;
use std::path::Path;
use surakarta::{Color, GameRecord, GameResult};
use surakarta_tablebase::{Tablebase, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games, dir, player] = &args[..] else {
        eprintln!("usage: record_table_values GAMES.rec TABLE_DIR PLAYER");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(games).expect("read the record file");
    let records = GameRecord::parse_all(&text).expect("a valid record file");
    // SAFETY: the table files are not modified while this program runs.
    let tables = unsafe { Tablebase::map_dir(Path::new(dir)) }.expect("tables");
    let covered = tables.complete_pieces();
    let mut counts: BTreeMap<(&str, &str), u32> = BTreeMap::new();
    for record in &records {
        let color = match (record.tag("Black"), record.tag("White")) {
            (Some(b), _) if b == player => Color::Black,
            (_, Some(w)) if w == player => Color::White,
            _ => continue,
        };
        let game = record.to_game().expect("a legal game");
        let verdict = game
            .positions()
            .iter()
            .find(|p| p.occupied().len() <= covered && !p.us().is_empty())
            .map_or("never covered", |p| {
                match tables.probe_position(p).expect("probe") {
                    Value::Draw => "table: draw",
                    Value::Win(_) if p.turn() == color => "table: player wins",
                    Value::Loss(_) if p.turn() != color => "table: player wins",
                    _ => "table: player loses",
                }
            });
        let result = match (record.result, color) {
            (GameResult::BlackWins, Color::Black) | (GameResult::WhiteWins, Color::White) => "won",
            (GameResult::BlackWins, _) | (GameResult::WhiteWins, _) => "lost",
            _ => "drawn",
        };
        *counts.entry((verdict, result)).or_default() += 1;
    }
    println!("| first position the tables cover | {player} won | drawn | lost |");
    println!("|---|---:|---:|---:|");
    for verdict in [
        "table: player wins",
        "table: draw",
        "table: player loses",
        "never covered",
    ] {
        let n = |r| counts.get(&(verdict, r)).copied().unwrap_or(0);
        println!(
            "| {verdict} | {} | {} | {} |",
            n("won"),
            n("drawn"),
            n("lost")
        );
    }
}
