//! `surakarta serve` end to end: the real binary on a free loopback port,
//! spoken to over plain `TcpStream`s. Every answer is checked against the
//! CLI (`tb probe --json`, `show --svg`, `perft --divide`, `search --json`)
//! and every bad input of docs/serve.md against its status and message.

use crate::common::{run, scratch_dir, stderr, stdout, BIN};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Positions of at most four pieces (the test tables cover them), some
/// with captures, with either side to move.
const SMALL: [&str; 8] = [
    "6/6/2b3/6/2w3/6 b",
    "6/1w4/6/3b2/6/b4w b",
    "w5/6/2b3/6/3w2/5b w",
    "6/6/1bw3/6/6/6 w",
    "b5/6/6/6/6/4ww b",
    "w5/6/6/6/6/5b b",
    "1w4/6/6/6/6/4b1 b",
    "6/6/2w3/3b2/6/6 b",
];

/// A five-piece position: no table in the test tables.
const FIVE: &str = "ww4/w5/6/6/6/bb4 b";

/// White has no pieces: the game is over.
const FINISHED: &str = "6/6/6/6/2b3/6 w";

/// The tables up to four pieces, generated once for the whole file.
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // In cargo's scratch directory for integration tests, replaced
        // by each run.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-tables");
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().unwrap();
        let o = run(&["tb", "generate", "--pieces", "4", "--dir", d]);
        assert!(o.status.success(), "{}", stderr(&o));
        dir
    })
}

/// A running `surakarta serve --bind 127.0.0.1:0 ARGS`; killed when dropped.
struct Server {
    child: Option<Child>,
    /// `127.0.0.1:PORT`, read from the URL it printed.
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut command = Command::new(BIN);
        command.args(["serve", "--bind", "127.0.0.1:0"]).args(args);
        Server::spawn(command)
    }

    /// `surakarta serve --bind 127.0.0.1:0 ARGS` started by `sh` under
    /// `ulimit -n NOFILE` (at most NOFILE open files).
    #[cfg(unix)]
    fn start_with_nofile(nofile: u32, args: &[&str]) -> Server {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!(
                "ulimit -n {nofile} && exec \"$0\" serve --bind 127.0.0.1:0 \"$@\""
            ))
            .arg(BIN)
            .args(args);
        Server::spawn(command)
    }

    fn spawn(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start surakarta serve");
        let out = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(out).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("surakarta serve printed no URL within 60 s");
            }
        };
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not a URL: {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        assert_ne!(addr, "127.0.0.1:0", "the real port is printed");
        Server {
            child: Some(child),
            addr,
        }
    }

    fn get(&self, target: &str) -> Reply {
        get(&self.addr, target)
    }

    /// Asks for a one-ply analysis until one is accepted (a search just
    /// stopped gives back its slot and memory); fails the test if 503s go
    /// on for 3 s, naming `what` the stopped search still holds.
    fn wait_for_an_analysis(&self, what: &str) {
        let since = Instant::now();
        loop {
            let reply = self.get("/api/analysis?depth=1");
            if reply.status == 200 {
                return;
            }
            reply.error(503);
            assert!(
                since.elapsed() < Duration::from_secs(3),
                "the closed client's search still holds {what}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends `signal` (`INT`, `TERM`) and waits for the exit, at most 10 s.
    #[cfg(unix)]
    fn signal_and_wait(mut self, signal: &str) -> (ExitStatus, Duration) {
        let mut child = self.child.take().expect("running");
        let sent = Instant::now();
        let kill = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(kill.success());
        loop {
            if let Some(status) = child.try_wait().expect("wait") {
                return (status, sent.elapsed());
            }
            if sent.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("surakarta serve did not exit within 10 s of SIG{signal}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// An HTTP answer.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }

    fn json(&self) -> Value {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "{self:?}"
        );
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The `{"error": "…"}` of a refused request with this status.
    fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.text());
        let v = self.json();
        let obj = v.as_object().expect("an object");
        assert_eq!(obj.len(), 1, "{v}");
        obj["error"].as_str().expect("a message").to_string()
    }
}

/// Decodes a chunked body.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size line");
        let size_text = std::str::from_utf8(&raw[..end]).unwrap();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16)
            .expect("chunk size");
        raw = &raw[end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

/// Reads a whole answer (the server closes the connection after it).
fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end: {}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Reply {
        status,
        headers,
        body,
    }
}

/// Connects and sends `GET TARGET` (the connection closes after the answer).
fn send_get(addr: &str, target: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send the request");
    stream
}

fn get(addr: &str, target: &str) -> Reply {
    read_reply(&mut send_get(addr, target))
}

/// `POST target` with `body`, the answer read whole.
fn post(addr: &str, target: &str, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect to the server");
    write!(
        stream,
        "POST {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .expect("send the request head");
    // A server may answer (413) before it has read a body it refuses.
    let _ = stream.write_all(body);
    read_reply(&mut stream)
}

/// `text` URL-encoded for a query value.
fn enc(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The events of an SSE body: (name, data as JSON).
fn events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_string());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data = Some(serde_json::from_str(d).expect("event data is JSON"));
                }
            }
            Some((name?, data?))
        })
        .collect()
}

/// The one line `tb probe --json` prints for `fen`.
fn cli_probe(fen: &str) -> Value {
    let o = run(&[
        "tb",
        "probe",
        "--json",
        "--dir",
        tables().to_str().unwrap(),
        fen,
    ]);
    serde_json::from_str(stdout(&o).trim()).expect("tb probe --json")
}

/// The moves `perft 1 --divide` lists for `fen`.
fn cli_moves(fen: &str) -> Vec<String> {
    let o = run(&["perft", "1", "--divide", "--position", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
        .filter(|m| !m.starts_with("perft"))
        .collect()
}

/// The message the CLI prints (after `error: `) for a failed run.
fn cli_error(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2));
    stderr(&o)
        .trim()
        .strip_prefix("error: ")
        .expect("an error line")
        .to_string()
}

#[test]
fn pages_are_embedded_with_their_types() {
    let server = Server::start(&[]);
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/serve");
    for (target, file, kind) in [
        ("/", "index.html", "text/html; charset=utf-8"),
        (
            "/?fen=6%2F6%2F2b3%2F6%2F2w3%2F6+b",
            "index.html",
            "text/html; charset=utf-8",
        ),
        ("/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/tree.js", "tree.js", "text/javascript; charset=utf-8"),
        (
            "/analysis-view.js",
            "analysis-view.js",
            "text/javascript; charset=utf-8",
        ),
        ("/style.css", "style.css", "text/css; charset=utf-8"),
    ] {
        let reply = server.get(target);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(reply.header("content-type"), Some(kind), "{target}");
        assert_eq!(
            reply.body,
            std::fs::read(assets.join(file)).unwrap(),
            "{target}"
        );
    }
}

/// The value a move has for its mover, from `tb probe --json` of the
/// position after it: the other side's result, one ply further (a capture
/// converts: distance 1).
fn mover_value(after: &Value, capture: bool) -> Value {
    let wdl = match after["wdl"].as_str().unwrap() {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    };
    let dtc = match (wdl, capture) {
        ("draw", _) => Value::Null,
        (_, true) => 1.into(),
        (_, false) => (after["dtc"].as_u64().unwrap() + 1).into(),
    };
    serde_json::json!({ "wdl": wdl, "dtc": dtc })
}

/// The position of the value in the list's order: wins by rising
/// distance, draws, losses by falling distance, none last.
fn order_key(value: &Value) -> (u8, i64) {
    let dtc = value["dtc"].as_i64().unwrap_or(0);
    match value["wdl"].as_str() {
        Some("win") => (0, dtc),
        Some("draw") => (1, 0),
        Some("loss") => (2, -dtc),
        _ => (3, 0),
    }
}

#[test]
fn position_moves_values_and_order_match_the_cli() {
    let server = Server::start(&["--tb", tables().to_str().unwrap()]);
    for fen in SMALL {
        let reply = server.get(&format!("/api/position?fen={}", enc(fen)));
        assert_eq!(reply.status, 200, "{}", reply.text());
        let v = reply.json();
        let probe = cli_probe(fen);
        assert_eq!(v["fen"], probe["position"], "{fen}");
        assert_eq!(v["outcome"], Value::Null);
        assert_eq!(v["tables_value"]["wdl"], probe["wdl"], "{fen}");
        assert_eq!(v["tables_value"]["dtc"], probe["dtc"], "{fen}");
        let turn = if fen.ends_with(" b") {
            "black"
        } else {
            "white"
        };
        assert_eq!(v["side_to_move"], turn);
        let count = |c: char| fen.split(' ').next().unwrap().matches(c).count();
        assert_eq!(v["black"].as_array().unwrap().len(), count('b'));
        assert_eq!(v["white"].as_array().unwrap().len(), count('w'));

        let moves = v["moves"].as_array().unwrap();
        let mut listed: Vec<String> = moves
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect();
        listed.sort();
        let mut legal = cli_moves(fen);
        legal.sort();
        assert_eq!(listed, legal, "{fen}");

        for m in moves {
            let text = m["move"].as_str().unwrap();
            let capture = m["capture"].as_bool().unwrap();
            assert_eq!(capture, text.contains('x'));
            assert_eq!(m["from"].as_str().unwrap(), &text[..2]);
            assert_eq!(m["to"].as_str().unwrap(), &text[3..]);
            // The position after it and its value, from the CLI.
            let after = cli_probe(m["fen"].as_str().unwrap());
            assert_eq!(after["position"], m["fen"]);
            // The tables' value under the pure rules; the game's (ICGA) is
            // the same or, where the rules cut it off, null with the reason.
            assert_eq!(
                m["tables_value"],
                mover_value(&after, capture),
                "{fen} {text}"
            );
            assert!(
                m["value"] == m["tables_value"] && m["cutoff"].is_null()
                    || m["value"].is_null() && m["cutoff"].is_string(),
                "{fen} {text}: {m}"
            );
            if capture {
                let path: Vec<&str> = m["path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap())
                    .collect();
                // The path `show --move` prints, arcs (`~`) left out.
                let o = run(&["show", fen, "--move", text, "--no-color"]);
                let shown = stdout(&o);
                let line = shown
                    .lines()
                    .find_map(|l| l.strip_prefix("path: "))
                    .expect("show prints the path");
                let points: Vec<&str> = line
                    .split(" (")
                    .next()
                    .unwrap()
                    .split(' ')
                    .filter(|p| *p != "~")
                    .collect();
                assert_eq!(path, points, "{fen} {text}");
            } else {
                assert_eq!(m["path"], Value::Null);
            }
        }
        // Best first by the tables' values, ties in notation order.
        for pair in moves.windows(2) {
            let (a, b) = (
                order_key(&pair[0]["tables_value"]),
                order_key(&pair[1]["tables_value"]),
            );
            assert!(
                a < b || (a == b && pair[0]["move"].as_str() < pair[1]["move"].as_str()),
                "{fen}: {} before {}",
                pair[0],
                pair[1]
            );
        }
        // The first move is as good as the tables' best move.
        if let Some(first) = moves.first() {
            let best = moves
                .iter()
                .find(|m| m["move"] == probe["best_move"])
                .expect("the best move is listed");
            assert_eq!(first["tables_value"], best["tables_value"], "{fen}");
        }
    }
}

#[test]
fn position_without_tables_start_and_finished_games() {
    let server = Server::start(&[]);
    let v = server.get("/api/position").json();
    assert_eq!(v["fen"], "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1");
    assert_eq!(v["side_to_move"], "black");
    assert_eq!(v["black"].as_array().unwrap().len(), 12);
    assert_eq!(v["white"].as_array().unwrap().len(), 12);
    assert_eq!(v["white"][0], "a5");
    assert_eq!(v["outcome"], Value::Null);
    assert_eq!(v["value"], Value::Null);
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["value"], Value::Null);
            m["move"].as_str().unwrap()
        })
        .collect();
    // No values: notation order, and the start's legal moves.
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let mut legal = cli_moves("wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b");
    legal.sort();
    assert_eq!(moves, legal);

    let v = server
        .get(&format!("/api/position?fen={}", enc(FINISHED)))
        .json();
    assert_eq!(
        v["outcome"],
        serde_json::json!({"result": "1-0", "winner": "black", "termination": "no-pieces", "reason": "no pieces left"})
    );
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["white"], serde_json::json!([]));
}

#[test]
fn probe_is_the_object_of_tb_probe_json() {
    let server = Server::start(&["--tb", tables().to_str().unwrap()]);
    for fen in SMALL.iter().chain([&FINISHED]) {
        let v = server.get(&format!("/api/probe?fen={}", enc(fen))).json();
        assert_eq!(v, cli_probe(fen), "{fen}");
    }
    // A class without tables: 404 with tb probe's message.
    let message = server
        .get(&format!("/api/probe?fen={}", enc(FIVE)))
        .error(404);
    assert_eq!(message, cli_probe(FIVE)["error"].as_str().unwrap());
    // The start position: no table either.
    assert!(server.get("/api/probe").error(404).contains("12v12"));

    let bare = Server::start(&[]);
    let message = bare
        .get(&format!("/api/probe?fen={}", enc(SMALL[0])))
        .error(404);
    assert!(message.contains("--tb"), "{message}");
}

#[test]
fn svg_is_the_picture_of_show_svg_with_hit_targets() {
    let server = Server::start(&[]);
    let dir = scratch_dir("serve-svg");
    for (fen, mv) in [
        ("wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b", None),
        ("ww3w/wb4/5w/6/6/b1w3 b", None),
        ("ww3w/wb4/5w/6/6/b1w3 b", Some("b5xb6")),
        ("ww3w/wb4/5w/6/6/b1w3 b", Some("b5-c4")),
        ("ww3w/wb4/5w/6/6/b1w3 b", Some("b5c4")),
    ] {
        let file = dir.join("board.svg");
        let mut args = vec!["show", fen, "--svg", file.to_str().unwrap(), "--no-color"];
        let mut target = format!("/api/svg?fen={}", enc(fen));
        if let Some(m) = mv {
            args.extend(["--move", m]);
            target.push_str(&format!("&move={m}"));
        }
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let reply = server.get(&target);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("content-type"), Some("image/svg+xml"));
        let svg = reply.text();
        assert_eq!(svg, std::fs::read_to_string(&file).unwrap(), "{target}");
        assert_eq!(
            svg.matches("<circle class=\"point\" data-square=\"")
                .count(),
            36
        );
        for sq in ["a1", "c3", "f6"] {
            assert!(svg.contains(&format!("data-square=\"{sq}\"")));
        }
        // On top: after every piece and mark.
        let first = svg.find("class=\"point\"").unwrap();
        assert!(svg.rfind("class=\"piece").unwrap() < first);
        if mv.is_some() {
            assert!(svg.rfind("class=\"mark").unwrap() < first);
        }
    }
    // Without fen: the start position.
    let start = server.get("/api/svg").text();
    assert!(start.contains("<title>wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1</title>"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analysis_streams_iterations_then_the_search_answer() {
    let server = Server::start(&[]);
    let fen = "ww3w/wb4/5w/6/6/b1w3 b";
    let reply = server.get(&format!(
        "/api/analysis?fen={}&movetime=30000&depth=4",
        enc(fen)
    ));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let events = events(&reply.text());
    let (last, infos) = events.split_last().expect("events");
    assert_eq!(last.0, "bestmove");
    let depths: Vec<u64> = infos
        .iter()
        .map(|(name, data)| {
            assert_eq!(name, "info");
            for key in ["score", "nodes", "nps", "time_ms", "pv"] {
                assert!(data.get(key).is_some(), "{key} in {data}");
            }
            data["depth"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    // One thread, a fresh engine: the same search as `search --json`.
    let o = run(&["search", "--position", fen, "--depth", "4", "--json"]);
    let cli: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let best = &last.1;
    assert_eq!(best["move"], cli["best_move"]);
    assert_eq!(best["score"], cli["score"]);
    assert_eq!(best["depth"], cli["depth"]);
    assert_eq!(best["pv"], cli["pv"]);
    assert_eq!(best["nodes"], cli["nodes"]);
    assert_eq!(infos.last().unwrap().1["pv"], cli["pv"]);
    let kinds = ["cp", "win", "loss", "tbwin", "tbloss"];
    assert!(kinds.contains(&best["score"]["kind"].as_str().unwrap()));

    // A finished game: `bestmove` with no move, at once.
    let started = Instant::now();
    let reply = server.get(&format!("/api/analysis?fen={}", enc(FINISHED)));
    let events = self::events(&reply.text());
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].0, "bestmove");
    assert_eq!(events[0].1["move"], Value::Null);
    assert!(started.elapsed() < Duration::from_secs(5));

    // With tables: the tables' move and score (a tablebase win).
    let with_tb = Server::start(&["--tb", tables().to_str().unwrap()]);
    let reply = with_tb.get(&format!(
        "/api/analysis?fen={}&movetime=1000",
        enc(SMALL[2])
    ));
    let events = self::events(&reply.text());
    let best = &events.last().unwrap().1;
    assert_eq!(best["move"], cli_probe(SMALL[2])["best_move"]);
    assert_eq!(best["score"]["kind"], "tbwin");
}

#[test]
fn bad_input_is_a_400_with_the_cli_message() {
    let server = Server::start(&["--max-movetime", "5000"]);
    // Malformed notation: the message `search --position` prints.
    let expected = cli_error(&["search", "--position", "xyz", "--depth", "1"]);
    for path in ["/api/position", "/api/probe", "/api/svg", "/api/analysis"] {
        assert_eq!(
            server.get(&format!("{path}?fen=xyz")).error(400),
            expected,
            "{path}"
        );
    }
    for fen in [
        "",
        "%FF%FE",
        "wwwwwww/6/6/6/6/6%20b",
        "6/6/6/6/6/6%20b",
        "%00",
    ] {
        server.get(&format!("/api/position?fen={fen}")).error(400);
    }
    // An illegal move, and a malformed one.
    let fen = "ww3w/wb4/5w/6/6/b1w3 b";
    for mv in ["b5-b3", "b5xa1", "zz", "c1-c2"] {
        let message = server
            .get(&format!("/api/svg?fen={}&move={}", enc(fen), enc(mv)))
            .error(400);
        let cli = cli_error(&["show", fen, "--move", mv, "--no-color"]);
        assert_eq!(
            cli.strip_prefix("--move: ").unwrap(),
            message.strip_prefix("move: ").unwrap(),
            "{mv}"
        );
    }
    // Absurd parameters.
    for (query, needle) in [
        ("movetime=0", "movetime 0 is out of range: give 1 to 5000"),
        (
            "movetime=abc",
            "movetime \"abc\" is not a whole number: give 1 to 5000",
        ),
        ("movetime=5001", "give 1 to 5000"),
        ("movetime=-5", "give 1 to 5000"),
        ("movetime=99999999999999999999999", "give 1 to 5000"),
        ("depth=0", "depth 0 is out of range: give 1 to 64"),
        ("depth=65", "depth 65 is out of range: give 1 to 64"),
        ("depth=", "give 1 to 64"),
        ("depth=3&depth=4", "more than once"),
    ] {
        let message = server.get(&format!("/api/analysis?{query}")).error(400);
        assert!(message.contains(needle), "{query}: {message}");
    }
    // The CLI's words for the same depth.
    assert_eq!(
        server.get("/api/analysis?depth=65").error(400),
        cli_error(&["search", "--depth", "65"]).replace("--depth", "depth")
    );
    // Over 8,192 bytes of query.
    let long = format!("fen={}", "6".repeat(8189));
    assert_eq!(long.len(), 8193);
    for path in ["/api/position", "/api/probe", "/api/svg", "/api/analysis"] {
        let message = server.get(&format!("{path}?{long}")).error(400);
        assert!(message.contains("8192"), "{message}");
    }
    // Exactly 8,192 bytes is read (and then is a bad position).
    let message = server
        .get(&format!("/api/position?fen={}", "6".repeat(8188)))
        .error(400);
    assert!(message.starts_with("invalid position"), "{message}");

    // Unknown paths and methods.
    for path in [
        "/nope",
        "/api",
        "/api/positions",
        "/app.js/x",
        "/api/position/",
    ] {
        assert!(!server.get(path).error(404).is_empty(), "{path}");
    }
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "POST /api/position HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    read_reply(&mut stream).error(405);
    // Garbage instead of HTTP: the connection is refused, the server lives.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.write_all(b"\x00\x01garbage\r\n\r\n").unwrap();
    let mut sink = Vec::new();
    let _ = stream.read_to_end(&mut sink);
    assert_eq!(server.get("/api/position").status, 200);
}

/// Sends the analysis request and reads until its first `info` event
/// arrived (the search runs); returns the open stream.
fn open_analysis(addr: &str, query: &str) -> TcpStream {
    let mut stream = send_get(addr, &format!("/api/analysis?{query}"));
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("event: info") {
        let n = stream.read(&mut buf).expect("read the stream");
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200"));
    stream
}

#[test]
fn full_server_answers_503_and_a_closed_client_stops_its_search() {
    let server = Server::start(&["--max-analyses", "1"]);
    let first = open_analysis(&server.addr, "movetime=30000");
    // The one slot is taken.
    let message = server.get("/api/analysis?movetime=100").error(503);
    assert!(message.contains("--max-analyses"), "{message}");
    // The other routes still answer.
    assert_eq!(server.get("/api/position").status, 200);

    // The client goes away: its search stops, the slot is free again long
    // before the 30 s it asked for.
    drop(first);
    server.wait_for_an_analysis("the slot");
}

#[cfg(unix)]
#[test]
fn sigint_and_sigterm_stop_the_analyses_and_exit_0() {
    for signal in ["INT", "TERM"] {
        let server = Server::start(&[]);
        let addr = server.addr.clone();
        let mut stream = open_analysis(&addr, "movetime=30000");
        let (status, took) = server.signal_and_wait(signal);
        assert_eq!(status.code(), Some(0), "SIG{signal}");
        assert!(took < Duration::from_secs(3), "SIG{signal}: {took:?}");
        // The open analysis was stopped: its stream ends with `bestmove`.
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest);
        let text = String::from_utf8_lossy(&rest);
        assert!(text.contains("event: bestmove"), "SIG{signal}: {text}");
        // And the port is closed.
        assert!(TcpStream::connect(&addr).is_err());
    }
}

#[test]
fn bad_arguments_exit_2() {
    for (args, needle) in [
        (
            vec!["--max-analyses", "0"],
            "--max-analyses 0 is out of range",
        ),
        (
            vec!["--max-movetime", "0"],
            "--max-movetime 0 is out of range",
        ),
        (vec!["--threads", "0"], "--threads 0 is out of range"),
        (vec!["--hash", "0"], "hash"),
        (
            vec!["--tb", "/nonexistent/surakarta-tables"],
            "surakarta-tables",
        ),
    ] {
        let mut all = vec!["serve", "--bind", "127.0.0.1:0"];
        all.extend(args);
        crate::common::assert_cli_error(&run(&all), needle);
    }
    // A port already taken.
    let server = Server::start(&[]);
    let o = run(&["serve", "--bind", &server.addr]);
    crate::common::assert_cli_error(&o, "cannot listen on");
    // Not an address: clap's error.
    let o = run(&["serve", "--bind", "localhost"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Opens `count` connections that send nothing.
fn open_idle(addr: &str, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| TcpStream::connect(addr).expect("connect"))
        .collect()
}

/// Whether the server has closed `stream` (end of stream or reset), waiting
/// at most `wait` for it.
fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    stream
        .set_read_timeout(Some(wait.max(Duration::from_millis(1))))
        .unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            // An answer (a 4xx for a cut request): read on to the end.
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn idle_and_slow_connections_are_closed_while_requests_are_served() {
    let server = Server::start(&["--idle-timeout", "1", "--header-timeout", "1"]);
    let opened = Instant::now();
    let mut idle = open_idle(&server.addr, 300);
    // Slow clients: one byte of a request every 150 ms, for longer than the
    // header timeout.
    let slow: Vec<TcpStream> = open_idle(&server.addr, 100);
    let request = b"GET /api/position HTTP/1.1\r\nHost: x\r\n\r\n";
    let writers: Vec<TcpStream> = slow.iter().map(|s| s.try_clone().unwrap()).collect();
    let trickle = std::thread::spawn(move || {
        let mut writers = writers;
        for &byte in request.iter().take(12) {
            for w in &mut writers {
                let _ = w.write_all(&[byte]);
            }
            std::thread::sleep(Duration::from_millis(150));
        }
    });
    // Normal requests keep being answered meanwhile.
    while opened.elapsed() < Duration::from_millis(1500) {
        assert_eq!(server.get("/api/position").status, 200);
        std::thread::sleep(Duration::from_millis(100));
    }
    // Every idle connection is closed within the idle timeout (1 s, plus
    // a margin for a loaded machine).
    let deadline = opened + Duration::from_secs(8);
    for (i, stream) in idle.iter_mut().enumerate() {
        let wait = deadline.saturating_duration_since(Instant::now());
        assert!(
            closed_within(stream, wait),
            "idle connection {i} still open"
        );
    }
    // And every slow one within the header timeout, its head unfinished.
    for (i, mut stream) in slow.into_iter().enumerate() {
        let wait = deadline.saturating_duration_since(Instant::now());
        assert!(
            closed_within(&mut stream, wait),
            "slow connection {i} still open"
        );
    }
    trickle.join().unwrap();
    assert_eq!(server.get("/api/position").status, 200);
}

#[test]
fn connections_over_the_cap_make_room_or_are_refused_with_json() {
    let server = Server::start(&["--max-connections", "8", "--idle-timeout", "60"]);
    let mut idle = open_idle(&server.addr, 20);
    for _ in 0..5 {
        assert_eq!(server.get("/api/position").status, 200);
    }
    // The oldest idle connections made room for the new ones.
    let closed = idle
        .iter_mut()
        .filter_map(|s| closed_within(s, Duration::from_millis(200)).then_some(()))
        .count();
    assert!(closed >= 12, "only {closed} of 20 idle connections closed");

    // Every connection busy (two analyses running): a third is refused at
    // once, with JSON.
    let busy = Server::start(&["--max-connections", "2", "--max-analyses", "2"]);
    let _first = open_analysis(&busy.addr, "movetime=30000");
    let _second = open_analysis(&busy.addr, "movetime=30000");
    let message = busy.get("/api/position").error(503);
    assert!(message.contains("--max-connections"), "{message}");
}

#[cfg(unix)]
#[test]
fn a_server_short_of_file_descriptors_still_answers() {
    let server = Server::start_with_nofile(128, &["--idle-timeout", "60"]);
    let _idle = open_idle(&server.addr, 150);
    for _ in 0..5 {
        let mut stream = send_get(&server.addr, "/api/position");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        assert_eq!(read_reply(&mut stream).status, 200);
    }
}

#[test]
fn an_overlong_request_head_gets_a_json_error() {
    let server = Server::start(&[]);
    // A 1 MB query string, a 30 KB one, and 100 KB of headers.
    for (target, header, status) in [
        (
            format!("/api/position?fen={}", "6".repeat(1 << 20)),
            String::new(),
            414,
        ),
        (
            format!("/api/position?fen={}", "6".repeat(30_000)),
            String::new(),
            414,
        ),
        (
            "/api/position".to_string(),
            (0..10)
                .map(|i| format!("X-Pad-{i}: {}\r\n", "a".repeat(10_000)))
                .collect(),
            431,
        ),
    ] {
        let mut stream = TcpStream::connect(&server.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let request =
            format!("GET {target} HTTP/1.1\r\nHost: x\r\n{header}Connection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let message = read_reply(&mut stream).error(status);
        assert!(message.contains("bytes"), "{message}");
    }
    // A query string of 10,000 bytes reaches the API: its own 400.
    let message = server
        .get(&format!("/api/position?fen={}", "6".repeat(10_000)))
        .error(400);
    assert!(message.contains("1000"), "{message}");
    assert_eq!(server.get("/api/position").status, 200);
}

#[test]
fn analyses_share_one_memory_budget() {
    let server = Server::start(&[
        "--hash",
        "64",
        "--analysis-memory",
        "100",
        "--max-analyses",
        "3",
    ]);
    let first = open_analysis(&server.addr, "movetime=30000");
    let message = server.get("/api/analysis?movetime=100").error(503);
    assert!(message.contains("--analysis-memory"), "{message}");
    assert!(message.contains("100 MiB"), "{message}");
    // The first one ends: its memory is free again.
    drop(first);
    server.wait_for_an_analysis("its memory");
    // A budget below one table, or above what the machine has, is refused.
    for (args, needle) in [
        (
            vec!["--hash", "64", "--analysis-memory", "63"],
            "--analysis-memory 63",
        ),
        (
            vec!["--analysis-memory", "0"],
            "'--analysis-memory <MIB>': out of range",
        ),
        (
            vec!["--analysis-memory", "16000000"],
            "--analysis-memory 16000000",
        ),
    ] {
        let mut all = vec!["serve", "--bind", "127.0.0.1:0"];
        all.extend(args);
        crate::common::assert_cli_error(&run(&all), needle);
    }
}

/// A copy of three-piece tables with one byte of `2v1.sktb`'s payload
/// flipped (the header still reads: the tables open).
fn damaged_tables() -> PathBuf {
    let dir = scratch_dir("serve-damaged");
    let d = dir.to_str().unwrap();
    let o = run(&["tb", "generate", "--pieces", "3", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = dir.join("2v1.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 7;
    bytes[at] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    dir
}

#[test]
fn table_errors_reach_the_client() {
    let dir = damaged_tables();
    let server = Server::start(&["--tb", dir.to_str().unwrap()]);
    // White to move with two pieces against one: class 2v1.
    let damaged = "6/6/2b3/6/1w4/w5 w";
    let probe = server
        .get(&format!("/api/probe?fen={}", enc(damaged)))
        .error(500);
    assert!(probe.contains("2v1.sktb"), "{probe}");
    let v = server
        .get(&format!("/api/position?fen={}", enc(damaged)))
        .json();
    assert_eq!(v["value"], Value::Null);
    let error = v["tablebase_error"].as_str().expect("a table error");
    assert!(error.contains("2v1.sktb"), "{v}");
    // A class the damage does not touch: no error.
    let v = server
        .get(&format!("/api/position?fen={}", enc("6/6/6/6/1bw3/6 b")))
        .json();
    assert_eq!(v["tablebase_error"], Value::Null);
    assert_eq!(v["value"]["wdl"], "win");
    // The analysis says how many probes failed: White to move with one
    // piece against two (1v2), whose quiet moves lead to 2v1.
    let before_damaged = "6/6/2w3/6/1b4/b5 w";
    let reply = server.get(&format!(
        "/api/analysis?fen={}&depth=2",
        enc(before_damaged)
    ));
    let events = events(&reply.text());
    let best = &events.last().unwrap().1;
    assert!(best["tb_errors"].as_u64().unwrap() > 0, "{best}");
    let reply = server.get(&format!(
        "/api/analysis?fen={}&depth=2",
        enc("6/6/6/6/1bw3/6 b")
    ));
    let events = self::events(&reply.text());
    assert_eq!(events.last().unwrap().1["tb_errors"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_finished_game_has_an_outcome_not_a_score() {
    let server = Server::start(&[]);
    // Black has no pieces; Black has more pieces when the no-capture
    // limit ends the game.
    for fen in ["6/6/6/6/6/w5 b", "bb4/6/6/6/6/w5 b 50 30"] {
        let o = run(&["search", "--position", fen, "--depth", "3", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let cli: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert!(cli["outcome"].is_object(), "{cli}");
        let started = Instant::now();
        let reply = server.get(&format!("/api/analysis?fen={}&movetime=5000", enc(fen)));
        let events = events(&reply.text());
        assert_eq!(events.len(), 1, "{events:?}");
        let (name, best) = &events[0];
        assert_eq!(name, "bestmove");
        assert_eq!(best["move"], Value::Null, "{fen}");
        assert_eq!(best["score"], Value::Null, "{fen}");
        assert_eq!(best["outcome"], cli["outcome"], "{fen}");
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{fen}: searched"
        );
        let v = server
            .get(&format!("/api/position?fen={}", enc(fen)))
            .json();
        assert_eq!(v["outcome"], cli["outcome"], "{fen}");
        assert_eq!(v["moves"], serde_json::json!([]));
    }
    // A game that goes on: a score, no outcome.
    let reply = server.get("/api/analysis?depth=1");
    let events = events(&reply.text());
    let best = &events.last().unwrap().1;
    assert_eq!(best["outcome"], Value::Null);
    assert_eq!(best["score"]["kind"], "cp");
}

/// Reads one answer of a kept-alive connection: its head, then as many
/// body bytes as its `content-length` says.
fn read_kept_alive_reply(stream: &mut TcpStream) -> u16 {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        stream
            .read_exact(&mut byte)
            .expect("read the answer's head");
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).to_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no content-length: {head}"));
    let mut body = vec![0u8; length];
    stream
        .read_exact(&mut body)
        .expect("read the answer's body");
    head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap()
}

/// Sends a header line every 0.3 s on `stream` until the server closes it
/// (or 20 s pass); the time from the first line to the close.
fn trickle_until_closed(mut stream: TcpStream) -> Duration {
    let started = Instant::now();
    let mut reader = stream.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        stream.write_all(b"GET /api/position HTTP/1.1\r\n").unwrap();
        for i in 0..66 {
            std::thread::sleep(Duration::from_millis(300));
            if stream
                .write_all(format!("X-Slow-{i}: 1\r\n").as_bytes())
                .is_err()
            {
                break;
            }
        }
    });
    let closed = closed_within(&mut reader, Duration::from_secs(25));
    let elapsed = started.elapsed();
    assert!(closed, "still open after {elapsed:?}");
    let _ = reader.shutdown(std::net::Shutdown::Both);
    writer.join().unwrap();
    elapsed
}

/// The header timeout is a deadline from a head's first byte: header lines
/// trickling in do not put it off, on a new connection or on a kept-alive
/// one after an answer, however long the idle timeout.
#[test]
fn a_trickling_request_head_is_closed_at_the_header_timeout() {
    let server = Server::start(&["--header-timeout", "1", "--idle-timeout", "30"]);
    let fresh: Vec<_> = (0..10)
        .map(|_| {
            let stream = TcpStream::connect(&server.addr).expect("connect");
            std::thread::spawn(move || trickle_until_closed(stream))
        })
        .collect();
    let mut kept = TcpStream::connect(&server.addr).expect("connect");
    kept.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(kept, "GET /api/position HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    assert_eq!(read_kept_alive_reply(&mut kept), 200);
    let kept = trickle_until_closed(kept);
    // One second, and a wide margin for a loaded machine: far from 30.
    for (i, client) in fresh.into_iter().enumerate() {
        let elapsed = client.join().unwrap();
        assert!(elapsed < Duration::from_secs(8), "client {i}: {elapsed:?}");
    }
    assert!(kept < Duration::from_secs(8), "kept-alive: {kept:?}");
    assert_eq!(server.get("/api/position").status, 200);
}

/// Records read and written through `/api/record` and `/api/record/text`:
/// variations, marks and comments survive the round trip; a bad record, a
/// bad game, a body too large and a GET are refused with JSON.
#[test]
fn records_are_read_and_written_with_their_variations() {
    let server = Server::start(&[]);
    let text = "[Event \"Club\"]\n\n1. b2-b3?! { usual: b2-c3 } ( 1. b2-c3 e5-e4 ) 1... e5-e4 2. b3-b4 *\n";
    let reply = post(&server.addr, "/api/record", text.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    let games = reply.json();
    let game = &games["games"][0];
    assert_eq!(game["tags"]["Event"], "Club");
    assert_eq!(game["rules"], "icga");
    assert_eq!(game["line"].as_array().unwrap().len(), 3);
    assert_eq!(game["line"][0]["mark"], "?!");
    assert_eq!(game["line"][0]["comment"], "usual: b2-c3");
    assert_eq!(game["line"][0]["variations"][0][1]["move"], "e5-e4");

    let reply = post(
        &server.addr,
        "/api/record/text",
        game.to_string().as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let written = reply.json()["text"].as_str().unwrap().to_string();
    assert!(written.contains("( 1. b2-c3 e5-e4 )"), "{written}");
    let again = post(&server.addr, "/api/record", written.as_bytes()).json();
    assert_eq!(again["games"][0]["line"], game["line"]);

    let bad = post(&server.addr, "/api/record", b"1. b2-b3 ( 1... e5-e4 ) *");
    let message = bad.error(400);
    assert!(message.starts_with("record: line 1: ply 1:"), "{message}");
    let illegal =
        serde_json::json!({"line": [{"move": "b2-b3", "variations": [[{"move": "b3-b4"}]]}]});
    let message = post(
        &server.addr,
        "/api/record/text",
        illegal.to_string().as_bytes(),
    )
    .error(400);
    assert!(message.contains("ply 1"), "{message}");
    let message = post(&server.addr, "/api/record/text", b"{\"line\": 3}").error(400);
    assert_eq!(message, "game: line: expected an array of moves");
    let message = post(&server.addr, "/api/record/text", b"not json").error(400);
    assert!(message.starts_with("game: not JSON"), "{message}");
    let huge = vec![b' '; 300 * 1024];
    let message = post(&server.addr, "/api/record", &huge).error(413);
    assert_eq!(message, "the body is larger than 256 KiB");
    server.get("/api/record").error(405);
}

/// The record routes bound their work: a body of empty games is refused
/// past the page's games limit, sixteen such bodies at once are all
/// answered (400, or 503 when the record workers stay busy) and the server
/// goes on; a `Content-Length` over the limit is a 413 before any body; a
/// tag name that would write other tag lines, and empty moves, are 400s;
/// the deepest variations read back through both routes.
#[test]
fn record_work_is_bounded() {
    let server = Server::start(&[]);
    let flood = "*\n".repeat(128 * 1024);
    let message = post(&server.addr, "/api/record", flood.as_bytes()).error(400);
    assert_eq!(
        message,
        "record: line 2001: more than 2000 games in one text"
    );
    let floods: Vec<_> = (0..16)
        .map(|_| {
            let addr = server.addr.clone();
            let flood = flood.clone();
            std::thread::spawn(move || post(&addr, "/api/record", flood.as_bytes()).status)
        })
        .collect();
    for flood in floods {
        let status = flood.join().expect("every request is answered");
        assert!(status == 400 || status == 503, "{status}");
    }
    assert_eq!(server.get("/api/position").status, 200);

    // Only the head: the 413 comes without waiting for a body.
    let mut stream = TcpStream::connect(&server.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "POST /api/record HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        300 * 1024
    )
    .unwrap();
    let reply = read_reply(&mut stream);
    assert_eq!(reply.error(413), "the body is larger than 256 KiB");

    let injected = serde_json::json!({
        "tags": {"X\"]\n[Start \"6/6/2w3/6/1b4/b5 b\"]\n[B": "x"},
        "line": [{"move": "b2-b3"}],
    });
    let message = post(
        &server.addr,
        "/api/record/text",
        injected.to_string().as_bytes(),
    )
    .error(400);
    assert!(
        message.contains("a tag name is letters, digits and '_'"),
        "{message}"
    );

    for moves in [",,,", "b2-b3,,e5-e4", "b2-b3,", ",b2-b3"] {
        let message = server
            .get(&format!("/api/position?moves={}", enc(moves)))
            .error(400);
        assert!(message.contains("is empty"), "{moves}: {message}");
    }
    assert_eq!(server.get("/api/position?moves=").status, 200);

    let depth = surakarta::record::MAX_VARIATION_DEPTH;
    let deep = format!(
        "1. b2-b3 {}{} *\n",
        "( 1. b2-c3 ".repeat(depth),
        ")".repeat(depth)
    );
    let reply = post(&server.addr, "/api/record", deep.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    let game = reply.json()["games"][0].to_string();
    let reply = post(&server.addr, "/api/record/text", game.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// A game named by its rules, start and moves: the position's answer and
/// the analysis see its history and rules; levels, seeds and several lines
/// are taken, and every bad value is a 400 naming it.
#[test]
fn games_levels_and_lines_reach_the_answers() {
    let server = Server::start(&[]);
    // Two repetitions under icga end the game; under pure they do not.
    let moves = "b2-b3,e5-e4,b3-b2,e4-e5,b2-b3,e5-e4,b3-b2,e4-e5";
    let over = server
        .get(&format!("/api/position?rules=icga&moves={moves}"))
        .json();
    assert_eq!(over["outcome"]["termination"], "repetition", "{over}");
    assert_eq!(over["rules"], "icga");
    let on = server
        .get(&format!("/api/position?rules=pure&moves={moves}"))
        .json();
    assert!(on["outcome"].is_null(), "{on}");
    assert_eq!(on["fen"], "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 8 5");
    let events_of = |query: &str| {
        let reply = server.get(&format!("/api/analysis?{query}"));
        assert_eq!(reply.status, 200, "{}", reply.text());
        events(&reply.text())
    };
    let ended = events_of(&format!("rules=icga&moves={moves}&depth=2"));
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].1["outcome"]["termination"], "repetition");

    // Three lines, best first, each from another root move.
    let lines = events_of("depth=2&multipv=3");
    let (name, last) = &lines[lines.len() - 2];
    assert_eq!(name, "info");
    let found = last["lines"].as_array().unwrap();
    assert_eq!(found.len(), 3, "{last}");
    let firsts: std::collections::HashSet<&str> =
        found.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3);
    assert_eq!(found[0]["multipv"], 1);
    assert_eq!(found[0]["pv"], last["pv"]);

    // A level's move is the CLI's for the same level and seed.
    for seed in [0u64, 5] {
        let events = events_of(&format!("depth=20&level=2&seed={seed}"));
        let best = &events.last().unwrap().1;
        let o = run(&[
            "search",
            "--depth",
            "20",
            "--level",
            "2",
            "--level-seed",
            &seed.to_string(),
            "--json",
        ]);
        let cli: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(best["move"], cli["best_move"], "seed {seed}");
    }

    for (query, needle) in [
        ("moves=b2-b3,b3-b4", "moves: ply 2 \"b3-b4\""),
        ("rules=chess", "rules: "),
        ("start=6%2F6", "start: "),
        ("level=12", "level 12 is out of range: give 1 to 11"),
        ("level=0", "level 0 is out of range"),
        ("seed=-1", "seed \"-1\" is not a whole number"),
        ("multipv=9", "multipv 9 is out of range: give 1 to 8"),
    ] {
        let message = server.get(&format!("/api/analysis?{query}")).error(400);
        assert!(message.contains(needle), "{query}: {message}");
    }
    let too_many = vec!["b2-b3,e5-e4,b3-b2,e4-e5"; 257].join(",");
    let message = server
        .get(&format!("/api/position?rules=pure&moves={too_many}"))
        .error(400);
    assert_eq!(message, "moves: more than 1024 moves");
}

/// `/api/game-analysis` judges a game as `surakarta analyse --json` does
/// (here from the tables alone, so exactly), streams its progress, adds the
/// annotated record, and refuses a bad game.
#[test]
fn game_analysis_is_the_cli_analysis_with_progress() {
    let dir = tables();
    let server = Server::start(&["--tb", dir.to_str().unwrap()]);
    let start = "6/6/2w3/6/1b4/b5 b";
    let moves = "a1-b1,c4-c3,b1-c2,c3-d2,b2xd2";
    let reply = server.get(&format!(
        "/api/game-analysis?rules=icga&start={}&moves={moves}&nodes=2000",
        enc(start)
    ));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let events = events(&reply.text());
    let progress: Vec<&Value> = events
        .iter()
        .filter(|(name, _)| name == "progress")
        .map(|(_, d)| d)
        .collect();
    assert_eq!(progress.len(), 6, "{events:?}");
    assert_eq!(progress[5]["done"], 6);
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done");

    let work = scratch_dir("game-analysis");
    let record = work.join("game.txt");
    std::fs::write(
        &record,
        format!("[Start \"{start}\"]\n\n1. a1-b1 c4-c3 2. b1-c2 c3-d2 3. b2xd2 1-0\n"),
    )
    .unwrap();
    let o = run(&[
        "analyse",
        record.to_str().unwrap(),
        "--tb",
        dir.to_str().unwrap(),
        "--nodes",
        "2000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cli: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(done["plies"], cli["plies"]);
    assert_eq!(done["black"], cli["black"]);
    let text = done["record"].as_str().unwrap();
    assert!(text.contains("3. b2xd2"), "{text}");

    let message = server
        .get("/api/game-analysis?moves=b2-b3,b3-b4")
        .error(400);
    assert!(message.starts_with("moves: ply 2"), "{message}");
    let message = server.get("/api/game-analysis?nodes=0").error(400);
    assert!(message.contains("nodes 0 is out of range"), "{message}");
    std::fs::remove_dir_all(work).ok();
}
