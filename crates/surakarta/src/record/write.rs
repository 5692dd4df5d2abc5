//! Writing records: the canonical text that reading gives back as an equal
//! record.

use super::{GameRecord, RECORD_LINE_WIDTH};
use crate::color::Color;
use crate::position::Position;
use crate::rules::Rules;
use core::fmt;

impl GameRecord {
    /// Writes records as one file that [`GameRecord::parse_all`] reads back:
    /// each record's text, separated by blank lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Game, GameRecord};
    ///
    /// let mut game = Game::default();
    /// game.play_text("b2-b3")?;
    /// let records = vec![GameRecord::from_game(&game), GameRecord::from_game(&Game::default())];
    /// let text = GameRecord::format_all(&records);
    /// assert_eq!(GameRecord::parse_all(&text)?, records); // reads back as equal records
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn format_all(records: &[GameRecord]) -> String {
        let mut out = String::new();
        for (i, record) in records.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&record.to_string());
        }
        out
    }
}

impl fmt::Display for GameRecord {
    /// The canonical text: the tags in order, one a line (the `Rules`,
    /// `Start` and `Result` tags with the values of the fields; a `Rules` or
    /// `Start` tag is added at the end when absent and the field is not the
    /// default), a blank line, then the numbered moves and the result token,
    /// wrapped at [`RECORD_LINE_WIDTH`] columns. Every line ends with a line
    /// break. A line break inside a tag value is written as a space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules.to_string();
        let start = self.start.to_string();
        for (name, value) in &self.tags {
            let value = match name.as_str() {
                "Rules" => &rules,
                "Start" => &start,
                "Result" => self.result.as_str(),
                _ => value.as_str(),
            };
            write_tag(f, name, value)?;
        }
        if self.tag("Rules").is_none() && self.rules != Rules::default() {
            write_tag(f, "Rules", &rules)?;
        }
        if self.tag("Start").is_none() && self.start != Position::new() {
            write_tag(f, "Start", &start)?;
        }
        if !self.tags.is_empty() || self.rules != Rules::default() || self.start != Position::new()
        {
            f.write_str("\n")?;
        }

        let mut line = String::new();
        let mut unit = String::new();
        let mut number = self.start.fullmoves();
        let mut turn = self.start.turn();
        let last = self.moves.len();
        for i in 0..=last {
            unit.clear();
            if let Some(m) = self.moves.get(i) {
                use fmt::Write;
                match turn {
                    Color::Black => write!(unit, "{number}. {m}")?,
                    Color::White if i == 0 => write!(unit, "{number}... {m}")?,
                    Color::White => write!(unit, "{m}")?,
                }
                if turn == Color::White {
                    number = number.saturating_add(1);
                }
                turn = !turn;
            } else {
                unit.push_str(self.result.as_str());
            }
            if !line.is_empty() && line.len() + 1 + unit.len() > RECORD_LINE_WIDTH {
                f.write_str(&line)?;
                f.write_str("\n")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&unit);
        }
        f.write_str(&line)?;
        f.write_str("\n")
    }
}

/// Writes `[name "value"]` and a line break, escaping `"` and `\`.
fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    f.write_str("[")?;
    f.write_str(name)?;
    f.write_str(" \"")?;
    for ch in value.chars() {
        match ch {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str(" ")?,
            c => fmt::Write::write_char(f, c)?,
        }
    }
    f.write_str("\"]\n")
}
