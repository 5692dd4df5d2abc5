//! Game records: round trips, multi-game files, every error with its line,
//! and random legal games through `Display` and back.

use proptest::prelude::*;
use surakarta::random::SplitMix;
use surakarta::record::{
    MAX_COMMENT_LEN, MAX_RECORD_GAMES, MAX_RECORD_MOVES, MAX_RECORD_TAGS, MAX_RECORD_TEXT,
    MAX_VARIATION_DEPTH, RECORD_LINE_WIDTH,
};
use surakarta::{
    Color, Game, GameError, GameRecord, GameResult, Mark, Move, MoveAnnotation, MoveError,
    MoveText, Outcome, ParseGameResultError, ParseMoveError, ParseSquareError, Position,
    RecordError, RecordErrorKind, Rules, Square, Termination, Variation,
};

fn game(start: &str, rules: Rules, moves: &str) -> Game {
    let mut game = Game::new(start.parse().unwrap(), rules);
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

/// A move as written.
fn mt(text: &str) -> MoveText {
    text.parse().unwrap()
}

const START: &str = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1";

/// Writes the record, reads it back, and checks both agree with the game.
fn round_trip(game: &Game) -> GameRecord {
    let record = GameRecord::from_game(game);
    let text = record.to_string();
    let back: GameRecord = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, record, "{text}");
    assert_eq!(back.to_string(), text);
    assert_eq!(back.to_game().as_ref(), Ok(game), "{text}");
    record
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn round_trip_from_the_start_with_a_capture() {
    let g = game(START, Rules::ICGA, "b2-b3 e5-e4 b3-c4 c6xc4 b1-b2");
    let record = round_trip(&g);
    assert!(record.moves[3].is_capture());
    assert_eq!(record.result, GameResult::Unfinished);
    assert_eq!(
        record.to_string(),
        "[Rules \"icga\"]\n\
         [Start \"wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1\"]\n\
         [Result \"*\"]\n\
         \n\
         1. b2-b3 e5-e4 2. b3-c4 c6xc4 3. b1-b2 *\n"
    );
}

#[test]
fn round_trip_white_to_move_numbers_from_the_start_position() {
    // White to move at move 7: the first move is "7...", the next black move is 8.
    let g = game(
        "wb3w/w5/5w/6/6/b1w3 w 3 7",
        Rules::PKU,
        "a5-a4 b6-c6 a4-a3 c6-d6",
    );
    let record = round_trip(&g);
    let text = record.to_string();
    assert!(
        text.ends_with("\n7... a5-a4 8. b6-c6 a4-a3 9. c6-d6 *\n"),
        "{text}"
    );
    assert_eq!(record.tag("Rules"), Some("pku"));
    assert_eq!(record.tag("Start"), Some("wb3w/w5/5w/6/6/b1w3 w 3 7"));
    assert_eq!(record.start.turn(), Color::White);
}

#[test]
fn round_trip_finished_games() {
    // No pieces left: Black wins.
    let g = game(
        "6/6/2w3/6/1b4/b5 b",
        Rules::ICGA,
        "a1-b1 c4-c3 b1-c2 c3-d2 b2xd2",
    );
    let record = round_trip(&g);
    assert_eq!(record.result, GameResult::BlackWins);
    assert_eq!(record.tag("Result"), Some("1-0"));
    assert_eq!(record.tag("Termination"), Some("no pieces left"));

    // Threefold repetition: a draw.
    let shuffle = "b2-b3 e5-e4 b3-b2 e4-e5 ";
    let g = game(START, Rules::ICGA, &shuffle.repeat(2));
    let record = round_trip(&g);
    assert_eq!(record.result, GameResult::Draw);
    assert_eq!(record.tag("Termination"), Some("repetition"));

    // A custom rule set, written in its canonical form.
    let rules: Rules = "repetitions=5,no-capture=6".parse().unwrap();
    let g = game(START, rules, "b2-b3 e5-e4 b3-b2 e4-e5 b2-b3 e5-e4");
    let record = round_trip(&g);
    assert_eq!(record.tag("Rules"), Some("repetitions=5,no-capture=6"));
    assert_eq!(record.tag("Termination"), Some("no-capture limit"));
    assert_eq!(record.result, GameResult::Draw);
}

#[test]
fn long_games_wrap_at_80_columns() {
    let shuffle = "b2-b3 e5-e4 b3-b2 e4-e5 ";
    let g = game(START, Rules::PURE, &shuffle.repeat(12));
    let record = round_trip(&g);
    let text = record.to_string();
    let movetext: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
    assert!(movetext.len() > 3, "{text}");
    for line in &movetext {
        assert!(line.len() <= RECORD_LINE_WIDTH, "{line:?}");
        assert!(!line.ends_with(' ') && !line.ends_with('.'), "{line:?}");
    }
    assert!(movetext[0].starts_with("1. b2-b3 e5-e4 2. b3-b2 e4-e5 3. b2-b3"));
    assert!(
        movetext[movetext.len() - 1].ends_with("24. b3-b2 e4-e5 *"),
        "{text}"
    );
}

#[test]
fn input_forms_are_read_leniently() {
    let expected = game(START, Rules::ICGA, "b2-b3 e5-e4 b3-c4 c6xc4 b1-b2");
    let texts = [
        // No numbers, bare moves, one line.
        "b2b3 e5e4 b3c4 c6c4 b1b2 *",
        // Numbers joined to moves, "...", comments on and across lines, CRLF.
        "\u{feff}{opening}\r\n1.b2-b3 {a\r\nlong [comment]\r\n} e5-e4\r\n\r\n2. b3-c4 2... c6xc4{x}3.b1-b2 * {done}\r\n",
        // Numbers that are wrong are ignored; "N. ..." for a White move.
        "7. b2-b3 7. ... e5-e4 1. b3-c4 99... c6xc4 1. b1-b2 *\n\n\n",
    ];
    for text in texts {
        let record: GameRecord = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(record.tags.is_empty());
        assert_eq!(record.moves, expected.moves(), "{text:?}");
        assert_eq!(record.to_game().as_ref(), Ok(&expected));
        let plain = if text.contains('{') {
            "{ opening } 1. b2-b3 { a long [comment] } 1... e5-e4 2. b3-c4 c6xc4 { x }\n3. b1-b2 *\n"
        } else {
            "1. b2-b3 e5-e4 2. b3-c4 c6xc4 3. b1-b2 *\n"
        };
        assert_eq!(record.to_string(), plain);
    }

    // Spaces in tag lines, no blank line before the movetext, blank lines among
    // tags, escapes, and tag values in canonical form.
    let text = "  [Event   \"a \\\"big\\\" \\\\ match\" ]  \n\n\
                [Rules \" icga , no-capture=50 \"]\n\
                [Start \"ww3w/wb4/5w/6/6/b1w3   b\"]\n\
                [Result\"1-0\"]\n\
                1. b5xb6 1-0\n";
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.tag("Event"), Some("a \"big\" \\ match"));
    assert_eq!(record.tag("Rules"), Some("icga"));
    assert_eq!(record.tag("Start"), Some("ww3w/wb4/5w/6/6/b1w3 b 0 1"));
    assert_eq!(record.tag("event"), None);
    assert_eq!(record.result, GameResult::BlackWins);
    assert_eq!(record.moves, [Move::capture(sq("b5"), sq("b6"))]);
    assert_eq!(
        record.to_string(),
        "[Event \"a \\\"big\\\" \\\\ match\"]\n\
         [Rules \"icga\"]\n\
         [Start \"ww3w/wb4/5w/6/6/b1w3 b 0 1\"]\n\
         [Result \"1-0\"]\n\
         \n\
         1. b5xb6 1-0\n"
    );
    assert_eq!(record.to_string().parse::<GameRecord>(), Ok(record));
}

#[test]
fn unfinished_games_take_any_result() {
    for result in GameResult::ALL {
        let text = format!("[Result \"{result}\"]\n\n1. b2-b3 {result}\n");
        let record: GameRecord = text.parse().unwrap();
        assert_eq!(record.result, result);
        assert_eq!(record.to_string().parse::<GameRecord>(), Ok(record));
    }
}

#[test]
fn game_results() {
    for (text, result) in [
        ("1-0", GameResult::BlackWins),
        ("0-1", GameResult::WhiteWins),
        ("1/2-1/2", GameResult::Draw),
        ("*", GameResult::Unfinished),
    ] {
        assert_eq!(text.parse::<GameResult>(), Ok(result));
        assert_eq!(result.as_str(), text);
        assert_eq!(result.to_string(), text);
    }
    for bad in ["", "1-1", "½-½", "1/2", " *", "0-1 "] {
        assert!(bad.parse::<GameResult>().is_err(), "{bad:?}");
    }
    let win = |c| Some(Outcome::win(c, Termination::NoMoves));
    assert_eq!(
        GameResult::from_outcome(win(Color::Black)),
        GameResult::BlackWins
    );
    assert_eq!(
        GameResult::from_outcome(win(Color::White)),
        GameResult::WhiteWins
    );
    let draw = Rules::adjudicate(3, 3, Termination::Repetition);
    assert_eq!(GameResult::from_outcome(Some(draw)), GameResult::Draw);
    assert_eq!(GameResult::from_outcome(None), GameResult::Unfinished);
}

#[test]
fn parse_all_reads_a_file_of_games() {
    let file = "\n\
        [Event \"one\"]\n\
        [Result \"1/2-1/2\"]\n\
        \n\
        1. b2-b3 e5-e4 1/2-1/2\n\
        \n\
        \n\
        [Event \"two\"]\n\
        [Start \"wb3w/w5/5w/6/6/b1w3 w 0 4\"]\n\
        \n\
        4... a5-a4\n\
        5. a1-b1 *\n\
        b2-c3 0-1\n\
        [Event \"four\"]\n\
        [Rules \"pure\"]\n\
        \n\
        *\n";
    let records = GameRecord::parse_all(file).unwrap();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0].tag("Event"), Some("one"));
    assert_eq!(records[0].moves.len(), 2);
    assert_eq!(records[0].result, GameResult::Draw);
    assert_eq!(records[1].start.turn(), Color::White);
    assert_eq!(records[1].moves.len(), 2);
    assert!(records[2].tags.is_empty());
    assert_eq!(records[2].result, GameResult::WhiteWins);
    assert_eq!(records[3].rules, Rules::PURE);
    assert!(records[3].moves.is_empty());

    let written = GameRecord::format_all(&records).unwrap();
    assert_eq!(GameRecord::parse_all(&written), Ok(records.clone()));
    assert!(written.contains("1/2-1/2\n\n[Event \"two\"]"), "{written}");

    assert_eq!(GameRecord::parse_all(""), Ok(vec![]));
    assert_eq!(GameRecord::parse_all("\n \n\t\n"), Ok(vec![]));
    assert_eq!(GameRecord::format_all(&[]).unwrap(), "");

    // A single record is exactly one game.
    let err = file.parse::<GameRecord>().unwrap_err();
    assert_eq!(
        err,
        RecordError {
            line: 8,
            kind: RecordErrorKind::ExtraGame
        }
    );
    let err = "\n\n".parse::<GameRecord>().unwrap_err();
    assert_eq!((err.line, err.kind), (1, RecordErrorKind::NoGame));
}

#[test]
fn tags_and_hand_built_records() {
    let g = game(START, Rules::ICGA, "b2-b3");
    let mut record = GameRecord::from_game(&g);
    let names: Vec<&str> = record.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Rules", "Start", "Result"]);
    record.set_tag("White", "someone");
    record.set_tag("Rules", "ignored: written from the field");
    record.set_tag("White", "someone else");
    assert_eq!(record.tag("White"), Some("someone else"));
    assert_eq!(record.tags.len(), 4);
    record.rules = Rules::PKU;
    let back: GameRecord = record.to_string().parse().unwrap();
    assert_eq!(back.tag("Rules"), Some("pku"));
    assert_eq!(back.rules, Rules::PKU);

    // Fields that differ from the defaults are written even without tags; a
    // line break in a value is written as a space.
    let mut bare = GameRecord {
        tags: vec![("Note".into(), "two\nlines".into())],
        rules: Rules::PURE,
        start: "wb3w/w5/5w/6/6/b1w3 w 0 1".parse().unwrap(),
        moves: vec![],
        result: GameResult::Unfinished,
        intro: None,
        annotations: vec![],
    };
    let back: GameRecord = bare.to_string().parse().unwrap();
    assert_eq!(back.tag("Note"), Some("two lines"));
    assert_eq!((back.rules, back.start), (bare.rules, bare.start));

    // to_game checks hand-built records.
    bare.moves = vec![Move::step(sq("a1"), sq("a2"))];
    assert!(matches!(
        bare.to_game(),
        Err(GameError::Move(MoveError::NotYourPiece { .. }))
    ));
    let over = GameRecord {
        tags: vec![],
        rules: Rules::ICGA,
        start: "6/6/6/6/6/b5 w".parse().unwrap(),
        moves: vec![Move::step(sq("a1"), sq("a2"))],
        result: GameResult::BlackWins,
        intro: None,
        annotations: vec![],
    };
    assert!(matches!(over.to_game(), Err(GameError::GameOver(_))));
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "invalid tag name")]
fn set_tag_rejects_invalid_names_in_debug() {
    let mut record: GameRecord = "*".parse().unwrap();
    record.set_tag("Bad name", "x");
}

#[test]
#[cfg(not(debug_assertions))]
fn set_tag_ignores_invalid_names_in_release() {
    let mut record: GameRecord = "*".parse().unwrap();
    record.set_tag("Bad name", "x");
    record.set_tag("", "x");
    assert!(record.tags.is_empty());
}

/// Reads `text`, which must fail on `line` with `kind`.
#[track_caller]
fn fails(text: &str, line: usize, kind: RecordErrorKind) {
    let err = GameRecord::parse_all(text).unwrap_err();
    assert_eq!(err, RecordError { line, kind }, "{text:?}: {err}");
}

#[test]
fn every_error_names_its_line() {
    use RecordErrorKind::*;
    let syntax = |text: &str, problem| TagSyntax {
        text: text.into(),
        problem,
    };
    fails(
        "\n[Event x]\n\n*",
        2,
        syntax(
            "[Event x]",
            "expected a value in double quotes after the tag name",
        ),
    );
    fails(
        "[Event \"x\"\n\n*",
        1,
        syntax("[Event \"x\"", "expected ']' after the value"),
    );
    fails(
        "[A \"1\"]\n[Event \"x\"] z\n\n*",
        2,
        syntax("[Event \"x\"] z", "unexpected text after ']'"),
    );
    fails("[Ev-ent \"x\"]\n\n*", 1, TagName("Ev-ent".into()));
    fails("[ \"x\"]\n\n*", 1, TagName("".into()));
    fails("[Événement \"x\"]\n\n*", 1, TagName("Événement".into()));
    fails(
        "[A \"1\"]\n\n[Event \"x]\n\n*",
        3,
        UnterminatedQuote("Event".into()),
    );
    fails("[Event \"x\\\"]\n*", 1, UnterminatedQuote("Event".into()));
    fails(
        "[Event \"a\\nb\"]\n*",
        1,
        BadEscape {
            tag: "Event".into(),
            found: 'n',
        },
    );
    fails(
        "[Event \"a\"]\n[Site \"b\"]\n[Event \"c\"]\n*",
        3,
        DuplicateTag("Event".into()),
    );
    let many: String = (0..=MAX_RECORD_TAGS)
        .map(|i| format!("[T{i} \"\"]\n"))
        .collect();
    fails(&many, MAX_RECORD_TAGS + 1, TooManyTags);
    let rules_err = "ICGA".parse::<surakarta::Rules>().unwrap_err();
    fails("[Rules \"ICGA\"]\n\n*", 1, Rules(rules_err));
    let start_err = "6/6/6/6/6/b5 b".parse::<Position>().unwrap_err();
    fails(
        "[A \"\"]\n[Start \"6/6/6/6/6/b5 b\"]\n\n*",
        2,
        Start(start_err),
    );
    assert_eq!("1:0".parse::<GameResult>(), Err(ParseGameResultError));
    fails("[Result \"1:0\"]\n\n1:0", 1, ResultTag("1:0".into()));

    fails("1. b2-b3\n2.. e5-e4 *", 2, MoveNumber("2..".into()));
    fails("1 b2-b3 *", 1, MoveNumber("1".into()));
    fails("1.. b2-b3 *", 1, MoveNumber("1..".into()));
    fails("1/2 *", 1, MoveNumber("1/2".into()));
    fails(
        "1. b2-b3 e5-e4\n2. b3-b9 *",
        2,
        Move {
            ply: 3,
            text: "b3-b9".into(),
            error: MoveError::Syntax {
                text: "b3-b9".into(),
                error: ParseMoveError::Target(ParseSquareError::BadRank('9')),
            },
        },
    );
    fails(
        "b2-b3 hello *",
        1,
        Move {
            ply: 2,
            text: "hello".into(),
            error: MoveError::Syntax {
                text: "hello".into(),
                error: ParseMoveError::Separator('l'),
            },
        },
    );
    fails(
        "b2-b3 }\n*",
        1,
        Move {
            ply: 2,
            text: "}".into(),
            error: MoveError::Syntax {
                text: "}".into(),
                error: ParseMoveError::Length(1),
            },
        },
    );
    fails(
        "[Event \"e\"]\n\n1. b2-b3 e5-e4\n2. b3-b4 b4-b5 *",
        4,
        Move {
            ply: 4,
            text: "b4-b5".into(),
            error: MoveError::NotYourPiece {
                given: mt("b4-b5"),
                owner: Color::Black,
                turn: Color::White,
            },
        },
    );
    fails(
        "1. b2xb3 *",
        1,
        Move {
            ply: 1,
            text: "b2xb3".into(),
            error: MoveError::WrongKind {
                given: mt("b2xb3"),
                actual: surakarta::Move::step(sq("b2"), sq("b3")),
            },
        },
    );
    fails(
        "1. b1-b3 *",
        1,
        Move {
            ply: 1,
            text: "b1-b3".into(),
            error: MoveError::Illegal(mt("b1-b3")),
        },
    );
    let no_pieces = Outcome::win(Color::Black, Termination::NoPieces);
    fails(
        "[Start \"6/6/2w3/6/1b4/b5 b\"]\n\n1. a1-b1 c4-c3 2. b1-c2 c3-d2\n3. b2xd2 d2-d3 1-0",
        4,
        MoveAfterEnd {
            ply: 6,
            text: mt("d2-d3"),
            outcome: no_pieces,
        },
    );

    let pure_shuffle = format!(
        "[Rules \"pure\"]\n\n{}*",
        "b2-b3 e5-e4 b3-b2 e4-e5 ".repeat(MAX_RECORD_MOVES / 4 + 1)
    );
    fails(&pure_shuffle, 3, TooManyMoves);
    let mut huge = "*".to_string();
    huge.push_str(&" ".repeat(MAX_RECORD_TEXT));
    fails(&huge, 1, TooLong(MAX_RECORD_TEXT + 1));

    fails("b2-b3 {never\nclosed\n\n", 1, UnterminatedComment);
    fails("b2-b3\n* {after the result\n}", 2, UnterminatedComment);
    fails("[Event \"e\"]\n\nb2-b3\n\n", 3, MissingResult);
    fails("[Event \"e\"]\n", 1, MissingResult);
    fails("b2-b3 e5-e4\n[Event \"next\"]\n\n*", 1, MissingResult);
    fails(
        "b2-b3 *\ne5-e4 *",
        2,
        Move {
            ply: 1,
            text: "e5-e4".into(),
            error: MoveError::NotYourPiece {
                given: mt("e5-e4"),
                owner: Color::White,
                turn: Color::Black,
            },
        },
    );
    fails("b2-b3 * e5-e4", 1, TextAfterResult("e5-e4".into()));
    fails("b2-b3 1-0 {ok} 1-0", 1, TextAfterResult("1-0".into()));
    fails(
        "[Result \"1-0\"]\n\nb2-b3\ne5-e4 0-1",
        4,
        ResultMismatch {
            tag: GameResult::BlackWins,
            token: GameResult::WhiteWins,
        },
    );
    fails(
        "[Start \"6/6/2w3/6/1b4/b5 b\"]\n\n1. a1-b1 c4-c3 2. b1-c2 c3-d2\n3. b2xd2\n0-1",
        5,
        ResultContradicts {
            result: GameResult::WhiteWins,
            outcome: no_pieces,
        },
    );
    let repetition = surakarta::Rules::adjudicate(12, 12, Termination::Repetition);
    fails(
        &format!("{}*", "b2-b3 e5-e4 b3-b2 e4-e5 ".repeat(2)),
        1,
        ResultContradicts {
            result: GameResult::Unfinished,
            outcome: repetition,
        },
    );
}

#[test]
fn error_messages() {
    let msg = |text: &str| GameRecord::parse_all(text).unwrap_err().to_string();
    assert_eq!(
        msg("[Event \"e\"]\n\n1. b2-b3 e5-e4\n2. b3-b4 b4-b5 *"),
        "line 4: ply 4: b4-b5: the piece on b4 is black's, and it is white's move"
    );
    assert_eq!(
        msg("[Start \"6/6/2w3/6/1b4/b5 b\"]\n\na1-b1 c4-c3 b1-c2 c3-d2 b2xd2 0-1"),
        "line 3: the result 0-1 contradicts the end of the game: black wins (no pieces left), so the result is 1-0"
    );
    assert_eq!(
        msg("[Start \"6/6/2w3/6/1b4/b5 b\"]\n\na1-b1 c4-c3 b1-c2 c3-d2 b2xd2 d2-d3 1-0"),
        "line 3: ply 6: d2-d3 is played after the game ended: black wins (no pieces left)"
    );
    assert_eq!(
        msg("[Event \"a\\tb\"]"),
        "line 1: tag \"Event\": invalid escape '\\t' in the value (only \\\" and \\\\ are allowed)"
    );
    assert_eq!(
        msg("b2-b3"),
        "line 1: the movetext has no result token (1-0, 0-1, 1/2-1/2 or *) at its end"
    );
    assert_eq!(
        msg("[Result \"1-0\"]\n\n0-1"),
        "line 3: the result token 0-1 disagrees with the Result tag 1-0"
    );
    assert_eq!(
        msg("1.. *"),
        "line 1: invalid move number \"1..\": expected a number followed by '.' or '...', like 12. or 12..."
    );
    // Long input is cut in messages, which say how long it was.
    let cut = |c: &str, len: usize| format!("\"{}…\" ({len} bytes)", c.repeat(80));
    let long = format!("{} *", "x".repeat(1000));
    assert_eq!(
        msg(&long),
        format!(
            "line 1: ply 1: invalid move text {} (1000 characters, not 4 or 5): expected a step like b2-c3, a capture like b2xe5, or b2c3",
            cut("x", 1000)
        )
    );
    let name = "T".repeat(1 << 20);
    let twice = format!("[{name} \"1\"]\n[{name} \"2\"]\n\n*");
    assert_eq!(
        msg(&twice),
        format!("line 2: tag {} given twice", cut("T", 1 << 20))
    );
    let tag = format!("[Event \"x\"] {}\n\n*", "z".repeat(500));
    assert!(msg(&tag).contains("(512 bytes): unexpected text after ']'"));
    let rules = format!("[Rules \"{}\"]\n\n*", "r".repeat(300));
    assert!(msg(&rules).starts_with(&format!(
        "line 1: Rules tag: invalid rule set (unexpected {}): expected",
        cut("r", 300)
    )));
}

/// A start position for random games: the start, White to move, or sparse.
fn arb_start() -> impl Strategy<Value = Position> {
    prop::sample::select(vec![
        START,
        "wb3w/w5/5w/6/6/b1w3 w 0 1",
        "ww1w2/5w/3bww/6/1w2b1/b3bb b 7 12",
        "6/6/2w3/6/1b4/b5 b",
        "1w4/6/6/2b3/6/w4b w 0 3",
    ])
    .prop_map(|fen| fen.parse().unwrap())
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(vec![
        Rules::ICGA,
        Rules::PKU,
        Rules::PURE,
        "repetitions=2,no-capture=20".parse().unwrap(),
    ])
}

/// A tag name and a value of any characters (line breaks included).
fn arb_tag() -> impl Strategy<Value = (String, String)> {
    ("[A-Za-z0-9_]{1,10}", ".*|[\"\\\\\\[\\]{} ]*")
}

/// A move mark.
fn arb_mark() -> impl Strategy<Value = Mark> {
    prop::sample::select(Mark::ALL.to_vec())
}

/// A comment as it is kept: words of any characters but whitespace and `}`,
/// joined by single spaces.
fn arb_comment() -> impl Strategy<Value = String> {
    "[^\\s}]{1,10}( [^\\s}]{1,10}){0,12}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random legal games, with random extra tags, round-trip through the
    /// text, alone and in a file of two.
    #[test]
    fn random_games_round_trip(
        start in arb_start(),
        rules in arb_rules(),
        choices in prop::collection::vec(any::<u16>(), 0..300),
        tags in prop::collection::vec(arb_tag(), 0..4),
        intro in prop::option::of(arb_comment()),
        notes in prop::collection::vec((prop::option::of(arb_mark()), prop::option::of(arb_comment())), 0..300),
    ) {
        let mut game = Game::new(start, rules);
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        let mut record = GameRecord::from_game(&game);
        for (name, value) in &tags {
            if !matches!(name.as_str(), "Rules" | "Start" | "Result") {
                record.set_tag(name, &value.replace('\n', " "));
            }
        }
        record.intro = intro;
        for (i, (mark, comment)) in notes.into_iter().enumerate() {
            record.set_annotation(i, MoveAnnotation { mark, comment, ..MoveAnnotation::default() });
        }
        prop_assert!(record.annotations.len() <= record.moves.len());
        let text = record.to_string();
        let back: GameRecord = text.parse().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &record, "{}", text);
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(back.to_game(), Ok(game.clone()));
        prop_assert_eq!(record.result, GameResult::from_outcome(game.outcome()));
        let movetext = text.lines().skip_while(|l| l.starts_with('[')).skip(1);
        for line in movetext {
            prop_assert!(line.len() <= RECORD_LINE_WIDTH, "{:?}", line);
        }
        let two = GameRecord::format_all(&[record.clone(), back]).unwrap();
        prop_assert_eq!(GameRecord::parse_all(&two), Ok(vec![record.clone(), record]));
    }
}

/// Words for random comments: plain, with punctuation, and beyond ASCII.
const WORDS: [&str; 6] = ["better", "b2-c3!", "(threat)", "Übersicht", "a)b", "…"];

/// A random annotation: a mark, a comment and, while `depth` allows,
/// variations played from `before` (the game before the move annotated).
fn random_annotation(before: &Game, rng: &mut SplitMix, depth: u32) -> MoveAnnotation {
    let mut annotation = MoveAnnotation::default();
    if rng.below(3) == 0 {
        annotation.mark = Some(Mark::ALL[rng.below(Mark::ALL.len())]);
    }
    if rng.below(4) == 0 {
        let words = 1 + rng.below(3);
        let comment: Vec<&str> = (0..words).map(|_| WORDS[rng.below(WORDS.len())]).collect();
        annotation.comment = Some(comment.join(" "));
    }
    if depth > 0 && rng.below(3) == 0 {
        for _ in 0..1 + rng.below(2) {
            if let Some(v) = random_variation(before, rng, depth - 1) {
                annotation.variations.push(v);
            }
        }
    }
    annotation
}

/// A random variation played from `game`: 1 to 6 legal moves with random
/// annotations, nested at most `depth` more levels; `None` when `game` has
/// no move.
fn random_variation(game: &Game, rng: &mut SplitMix, depth: u32) -> Option<Variation> {
    let mut game = game.clone();
    let mut variation = Variation::default();
    if rng.below(5) == 0 {
        variation.intro = Some(WORDS[rng.below(WORDS.len())].to_string());
    }
    for _ in 0..1 + rng.below(6) {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let before = game.clone();
        let m = moves[rng.below(moves.len())];
        game.play(m).unwrap();
        variation.moves.push(m);
        variation
            .annotations
            .push(random_annotation(&before, rng, depth));
    }
    while variation
        .annotations
        .last()
        .is_some_and(MoveAnnotation::is_empty)
    {
        variation.annotations.pop();
    }
    (!variation.moves.is_empty()).then_some(variation)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Records with marks, comments and variations nested up to three deep
    /// round-trip: parse → write → parse gives the same record, and writing
    /// it again the same text, wrapped at the line width.
    #[test]
    fn records_with_variations_round_trip(
        start in arb_start(),
        rules in arb_rules(),
        plies in 0usize..60,
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix::new(seed);
        let mut game = Game::new(start, rules);
        let mut annotations = Vec::new();
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let before = game.clone();
            game.play(moves[rng.below(moves.len())]).unwrap();
            annotations.push(random_annotation(&before, &mut rng, 3));
        }
        let mut record = GameRecord::from_game(&game);
        for (i, annotation) in annotations.into_iter().enumerate() {
            record.set_annotation(i, annotation);
        }
        let text = record.to_string();
        let back: GameRecord = text.parse().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &record, "{}", text);
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(back.to_game(), Ok(game));
        let movetext = text.lines().skip_while(|l| l.starts_with('[')).skip(1);
        for line in movetext {
            prop_assert!(line.len() <= RECORD_LINE_WIDTH, "{:?}", line);
        }
    }
}

/// Variations as people write them: numbered or not, parentheses joined
/// to the moves, comments inside, nested; and every way a variation can be
/// wrong, with its line.
#[test]
fn variations_read_as_written_and_their_errors_are_named() {
    let text =
        "1. b2-b3 (1.b2-c3 e5-e4 (1...f5-e4?! {a (second) thought}) 2. c3-d4) e5-e4 2. b3-b4 *";
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.moves.len(), 3);
    let v = &record.annotations[0].variations[0];
    assert_eq!(v.moves.len(), 3);
    let inner = &v.annotations[1].variations[0];
    assert_eq!(inner.moves[0].to_string(), "f5-e4");
    assert_eq!(inner.annotations[0].mark, Some(Mark::Dubious));
    assert_eq!(
        inner.annotations[0].comment.as_deref(),
        Some("a (second) thought")
    );
    assert_eq!(
        record.to_string(),
        "1. b2-b3 ( 1. b2-c3 e5-e4 ( 1... f5-e4?! { a (second) thought } ) 2. c3-d4 )\n1... e5-e4 2. b3-b4 *\n"
    );
    // A variation's moves are checked from the position before the move
    // it replaces: e5-e4 is Black's, not White's.
    let bad = "1. b2-b3 e5-e4 (1... b3-b4) *"
        .parse::<GameRecord>()
        .unwrap_err();
    assert!(
        matches!(bad.kind, RecordErrorKind::Move { ply: 2, .. }),
        "{bad}"
    );
    for (text, kind) in [
        ("(1. b2-b3) *", RecordErrorKind::VariationWithoutMove),
        ("1. b2-b3 () *", RecordErrorKind::EmptyVariation),
        ("1. b2-b3 ) *", RecordErrorKind::UnopenedVariation),
        (
            "1. b2-b3 (1. b2-c3 *",
            RecordErrorKind::UnterminatedVariation,
        ),
        ("1. b2-b3 (1. b2-c3", RecordErrorKind::UnterminatedVariation),
    ] {
        assert_eq!(text.parse::<GameRecord>().unwrap_err().kind, kind, "{text}");
    }
    // The movetext example of docs/notation.md is canonical.
    let doc = include_str!("../../../../docs/notation.md");
    let section = &doc[doc.find("### Movetext").expect("section")..];
    let block = &section[section.find("```text\n").expect("example") + 8..];
    let block = &block[..block.find("```").expect("end of example")];
    let record: GameRecord = block.parse().unwrap();
    assert_eq!(record.annotations[0].variations.len(), 1);
    assert_eq!(record.to_string(), block);
    // Nesting is bounded, without recursion.
    let mut deep = String::from("1. b2-b3 e5-e4 ");
    for _ in 0..100 {
        deep.push_str("( 1... f5-e4 ");
    }
    let bad = deep.parse::<GameRecord>().unwrap_err();
    assert_eq!(bad.kind, RecordErrorKind::VariationTooDeep);
    // Parentheses after the result are text after the result.
    let bad = "1. b2-b3 * (1. b2-c3)".parse::<GameRecord>().unwrap_err();
    assert!(
        matches!(bad.kind, RecordErrorKind::TextAfterResult(_)),
        "{bad}"
    );
}

/// The example of docs/notation.md reads as three records and is exactly
/// what they write.
#[test]
fn the_documented_example_is_canonical() {
    let doc = include_str!("../../../../docs/notation.md");
    let section = &doc[doc.find("## Game records").expect("section")..];
    let block = &section[section.find("```text\n").expect("example") + 8..];
    let block = &block[..block.find("```").expect("end of example")];
    let records = GameRecord::parse_all(block).unwrap();
    assert_eq!(records.len(), 3);
    assert_eq!(GameRecord::format_all(&records).unwrap(), block);
    assert_eq!(records[0].result, GameResult::BlackWins);
    assert_eq!(records[0].tag("Black"), Some("surakarta depth=6"));
    assert_eq!(records[1].rules, Rules::ICGA);
    assert_eq!(records[2].start.turn(), Color::White);
}

#[test]
fn leading_tags_and_a_result_the_rules_did_not_decide() {
    let mut game = Game::new(Position::new(), Rules::ICGA);
    game.play_text("b2-b3").unwrap();
    let mut record = GameRecord::from_game_tagged(
        &game,
        &[
            ("Event", "test"),
            ("Black", "a \"quoted\" name"),
            ("White", "b"),
        ],
    );
    let names: Vec<&str> = record.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["Event", "Black", "White", "Rules", "Start", "Result"]
    );
    assert_eq!(record.result, GameResult::Unfinished);
    record.set_result(GameResult::from_winner(Some(Color::White)), "black resigns");
    let text = record.to_string();
    assert!(
        text.contains("[Result \"0-1\"]") && text.ends_with("0-1\n"),
        "{text}"
    );
    let back: GameRecord = text.parse().unwrap();
    assert_eq!(back, record);
    assert_eq!(back.tag("Termination"), Some("black resigns"));
    assert_eq!(back.tag("Black"), Some("a \"quoted\" name"));
    assert_eq!(GameResult::from_winner(None), GameResult::Draw);
    assert_eq!(
        GameResult::from_winner(Some(Color::Black)),
        GameResult::BlackWins
    );
}

#[test]
fn marks_and_comments() {
    let text = "{ Two\n  lines }\n1. b2-b3?! {first} {second} e5-e4 {\n spans\nlines }\n2. b3-b4!! e4-e3?? * { after the result: skipped }\n";
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.intro.as_deref(), Some("Two lines"));
    assert_eq!(record.annotations.len(), 4);
    assert_eq!(record.annotations[0].mark, Some(Mark::Dubious));
    assert_eq!(
        record.annotations[0].comment.as_deref(),
        Some("first second")
    );
    assert_eq!(record.annotations[1].mark, None);
    assert_eq!(
        record.annotations[1].comment.as_deref(),
        Some("spans lines")
    );
    assert_eq!(record.annotation(2).mark, Some(Mark::Brilliant));
    assert_eq!(record.annotation(3).mark, Some(Mark::Blunder));
    assert_eq!(
        record.to_string(),
        "{ Two lines } 1. b2-b3?! { first second } 1... e5-e4 { spans lines } 2. b3-b4!!\ne4-e3?? *\n"
    );
    assert_eq!(record.to_string().parse::<GameRecord>(), Ok(record.clone()));

    // Marks only, empty comments: nothing at the end is kept.
    let plain: GameRecord = "1. b2-b3 {} e5-e4 { } *".parse().unwrap();
    assert!(plain.annotations.is_empty() && plain.intro.is_none());
    let one: GameRecord = "1. b2-b3! e5-e4 *".parse().unwrap();
    assert_eq!(one.annotations.len(), 1);

    // Errors: a bad mark, a comment too long; `}` in a comment is written as `)`.
    let bad = "1. b2-b3??? *".parse::<GameRecord>().unwrap_err();
    assert!(
        matches!(bad.kind, RecordErrorKind::BadMark { ply: 1, .. }),
        "{bad}"
    );
    let bad = "1. b2-b3?x *".parse::<GameRecord>().unwrap_err();
    assert!(matches!(bad.kind, RecordErrorKind::Move { .. }), "{bad}");
    let long = format!("1. b2-b3 {{ {} }} *", "x".repeat(MAX_COMMENT_LEN + 1));
    let bad = long.parse::<GameRecord>().unwrap_err();
    assert_eq!(bad.kind, RecordErrorKind::CommentTooLong);
    let long = format!("1. b2-b3 {{\n{}", "x \n".repeat(MAX_COMMENT_LEN * 3));
    let bad = long.parse::<GameRecord>().unwrap_err();
    assert_eq!(bad.kind, RecordErrorKind::CommentTooLong);
    let mut braces = one.clone();
    braces.set_annotation(
        0,
        MoveAnnotation {
            comment: Some("a}b".into()),
            ..MoveAnnotation::default()
        },
    );
    assert!(braces.to_string().contains("{ a)b }"), "{braces}");
    braces.set_annotation(0, MoveAnnotation::default());
    assert!(braces.annotations.is_empty());
}

/// A file of empty games (`*` lines) is read up to `MAX_RECORD_GAMES`
/// games; one more is an error on its line, naming the limit, and the
/// reader stops there.
#[test]
fn a_file_holds_at_most_max_record_games() {
    let most = "*\n".repeat(MAX_RECORD_GAMES);
    assert_eq!(
        GameRecord::parse_all(&most).unwrap().len(),
        MAX_RECORD_GAMES
    );
    // A 16 MiB file of `*` lines: 8 million games, refused at the limit.
    let flood = "*\n".repeat(MAX_RECORD_TEXT / 2);
    let error = GameRecord::parse_all(&flood).unwrap_err();
    assert_eq!(
        error,
        RecordError {
            line: MAX_RECORD_GAMES + 1,
            kind: RecordErrorKind::TooManyGames(MAX_RECORD_GAMES),
        }
    );
    assert_eq!(
        error.to_string(),
        format!(
            "line {}: more than 100000 games in one text",
            MAX_RECORD_GAMES + 1
        )
    );
    // One game at a time, and fewer on request.
    let mut games = GameRecord::records(&flood).max_games(3);
    assert!(games.by_ref().take(3).all(|g| g.is_ok()));
    assert_eq!(
        games.next().unwrap().unwrap_err().kind,
        RecordErrorKind::TooManyGames(3)
    );
    assert!(games.next().is_none());
    let too_long = " ".repeat(MAX_RECORD_TEXT + 1);
    let mut games = GameRecord::records(&too_long);
    assert_eq!(
        games.next().unwrap().unwrap_err().kind,
        RecordErrorKind::TooLong(MAX_RECORD_TEXT + 1)
    );
    assert!(games.next().is_none());
}

/// 18,000 moves under rules that never end the game, each with a
/// one-move variation: read whole (each variation from the position
/// before its move), written, and read back. Reading is linear in the
/// moves (the unit tests of `record::parse` count the moves played).
#[test]
fn a_variation_at_every_move_of_a_long_game() {
    let rules: Rules = "repetitions=4000000000,no-capture=0".parse().unwrap();
    let cycle = "b2-b3 ( b2-c3 ) e5-e4 ( f5-f4 ) b3-b2 ( b3-b4 ) e4-e5 ( e4-e3 ) ";
    let text = format!("[Rules \"{rules}\"]\n\n{} *\n", cycle.repeat(4500));
    let record: GameRecord = text.parse().unwrap();
    assert_eq!(record.moves.len(), 18_000);
    assert_eq!(record.annotations.len(), 18_000);
    let alternatives = ["b2-c3", "f5-f4", "b3-b4", "e4-e3"];
    for (i, a) in record.annotations.iter().enumerate() {
        assert_eq!(a.variations.len(), 1);
        assert_eq!(a.variations[0].moves[0].to_string(), alternatives[i % 4]);
    }
    let game = record.to_game().unwrap();
    let position = game.position();
    assert!(position.same_placement(&Position::new()), "{position}");
    assert_eq!((position.fullmoves(), position.halfmoves()), (9001, 18_000));
    let written = record.to_text().unwrap();
    assert_eq!(written.parse::<GameRecord>(), Ok(record));
}

/// Whatever a writer is given, `to_text` and `format_all` refuse what the
/// reader would refuse, with the reader's error and the game's number.
#[test]
fn writers_refuse_what_readers_refuse() {
    let write_error = |record: &GameRecord| record.to_text().unwrap_err().kind;
    let base = || GameRecord::from_game(&game(START, Rules::ICGA, "b2-b3 e5-e4"));

    let mut tagged = base();
    for i in 0..MAX_RECORD_TAGS - 3 {
        tagged.set_tag(&format!("T{i}"), "x");
    }
    assert_eq!(tagged.tags.len(), MAX_RECORD_TAGS);
    let text = tagged.to_text().unwrap();
    assert_eq!(text.parse::<GameRecord>(), Ok(tagged.clone()));
    tagged.set_tag("One_more", "x");
    assert_eq!(write_error(&tagged), RecordErrorKind::TooManyTags);

    let mut injected = base();
    injected
        .tags
        .push(("X\"]\n[Start \"6/6/6/6/6/b5 b\"]\n[B".into(), "x".into()));
    assert!(matches!(
        write_error(&injected),
        RecordErrorKind::TagName(_)
    ));
    let mut twice = base();
    twice.tags.push(("Rules".into(), "pku".into()));
    assert!(matches!(
        write_error(&twice),
        RecordErrorKind::DuplicateTag(_)
    ));

    let mut long_comment = base();
    long_comment.set_annotation(
        0,
        MoveAnnotation {
            comment: Some("x".repeat(MAX_COMMENT_LEN + 1)),
            ..MoveAnnotation::default()
        },
    );
    assert_eq!(write_error(&long_comment), RecordErrorKind::CommentTooLong);

    let b2c3 = game(START, Rules::ICGA, "b2-c3").moves()[0];
    let mut deep = base();
    let mut variation = Variation {
        moves: vec![b2c3],
        ..Variation::default()
    };
    for _ in 1..MAX_VARIATION_DEPTH {
        // The same move replaced again and again: legal at every depth.
        let mut outer = Variation {
            moves: vec![b2c3],
            ..Variation::default()
        };
        outer.annotations = vec![MoveAnnotation {
            variations: vec![variation],
            ..MoveAnnotation::default()
        }];
        variation = outer;
    }
    let nested = MoveAnnotation {
        variations: vec![variation],
        ..MoveAnnotation::default()
    };
    deep.set_annotation(0, nested.clone());
    let text = deep.to_text().unwrap();
    assert_eq!(text.parse::<GameRecord>(), Ok(deep.clone()));
    let mut deeper = base();
    deeper.set_annotation(
        0,
        MoveAnnotation {
            variations: vec![Variation {
                moves: vec![b2c3],
                annotations: vec![nested],
                ..Variation::default()
            }],
            ..MoveAnnotation::default()
        },
    );
    assert_eq!(write_error(&deeper), RecordErrorKind::VariationTooDeep);
    assert_eq!(
        deeper.to_string().parse::<GameRecord>().unwrap_err().kind,
        RecordErrorKind::VariationTooDeep
    );
    let mut empty = base();
    empty.set_annotation(
        0,
        MoveAnnotation {
            variations: vec![Variation::default()],
            ..MoveAnnotation::default()
        },
    );
    assert_eq!(write_error(&empty), RecordErrorKind::EmptyVariation);

    let mut many = GameRecord::from_game(&Game::new(Position::new(), Rules::PURE));
    many.moves = vec![b2c3; MAX_RECORD_MOVES + 1];
    assert_eq!(write_error(&many), RecordErrorKind::TooManyMoves);

    let mut huge = base();
    let value = "v".repeat(MAX_RECORD_TEXT / 900);
    for i in 0..900 {
        huge.set_tag(&format!("T{i}"), &value);
    }
    assert!(matches!(write_error(&huge), RecordErrorKind::TooLong(n) if n > MAX_RECORD_TEXT));

    let games = vec![GameRecord::from_game(&Game::default()); MAX_RECORD_GAMES + 1];
    let error = GameRecord::format_all(&games).unwrap_err();
    assert_eq!(error.kind, RecordErrorKind::TooManyGames(MAX_RECORD_GAMES));
    let error = GameRecord::format_all(&[base(), injected]).unwrap_err();
    assert_eq!(error.game, 2);
    assert!(
        error.to_string().starts_with("game 2: invalid tag name"),
        "{error}"
    );
}
