//! A bounded load test of `surakarta serve`: N clients, each on its own
//! keep-alive HTTP/1.1 connection, ask `/api/position` and `/api/probe`
//! for a mix of positions for S seconds, and every answer is checked.
//!
//! ```sh
//! surakarta tb generate --pieces 6 --dir target/serve6
//! surakarta serve --tb target/serve6 --bind 127.0.0.1:8080 &
//! cargo run --release -p surakarta-cli --example serve_load -- \
//!     --addr 127.0.0.1:8080 --clients 200 --seconds 30
//! ```
//!
//! Before the load, each target is asked once on one connection; that
//! answer must be status 200 and JSON, and is spot-checked against the
//! rules crate (the position's text, its number of legal moves; the probe's
//! position). Under load every answer must be status 200 with exactly those
//! bytes (the server's answers are deterministic), so each answer is
//! checked in full. Prints requests per second, latency percentiles and
//! the error count; exits 1 if there was any error. Only ever talks to the
//! address given (use a loopback one); stops after `--seconds` or
//! `--max-requests`, whichever comes first.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use surakarta::random::{random_position, SplitMix};
use surakarta::{Color, Position};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The settings, from the command line.
struct Settings {
    addr: String,
    clients: usize,
    seconds: u64,
    positions: usize,
    max_pieces: u32,
    seed: u64,
    max_requests: u64,
    threads: usize,
}

fn usage() -> ! {
    eprintln!(
        "usage: serve_load --addr HOST:PORT [--clients 200] [--seconds 30] [--positions 64] \
         [--max-pieces 6] [--seed 1] [--max-requests 10000000] [--threads 1]"
    );
    std::process::exit(2)
}

fn settings() -> Settings {
    let mut s = Settings {
        addr: String::new(),
        clients: 200,
        seconds: 30,
        positions: 64,
        max_pieces: 6,
        seed: 1,
        max_requests: 10_000_000,
        threads: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_else(|| usage());
        let number = || value.parse::<u64>().unwrap_or_else(|_| usage());
        match args[i].as_str() {
            "--addr" => {
                s.addr = value
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .into()
            }
            "--clients" => s.clients = number() as usize,
            "--seconds" => s.seconds = number(),
            "--positions" => s.positions = number() as usize,
            "--max-pieces" => s.max_pieces = number() as u32,
            "--seed" => s.seed = number(),
            "--max-requests" => s.max_requests = number(),
            "--threads" => s.threads = number() as usize,
            _ => usage(),
        }
        i += 2;
    }
    if s.addr.is_empty()
        || s.clients == 0
        || s.seconds == 0
        || s.positions == 0
        || !(2..=24).contains(&s.max_pieces)
        || s.threads == 0
    {
        usage();
    }
    s
}

/// The positions asked about: the start position, then random positions
/// of 2 to `max_pieces` pieces (both sides present, either to move).
fn positions(count: usize, max_pieces: u32, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix::new(seed);
    let mut out = vec![Position::new()];
    while out.len() < count {
        let total = 2 + rng.below((max_pieces - 1) as usize) as u32;
        let black = 1 + rng.below((total - 1) as usize) as u32;
        let turn = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        if let Ok(p) = random_position(&mut rng, black.min(12), (total - black).min(12), turn) {
            out.push(p);
        }
    }
    out
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

/// One keep-alive connection.
struct Connection {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Connection {
    async fn open(addr: &str) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            stream,
            buf: Vec::with_capacity(16 * 1024),
        })
    }

    /// Sends `GET target` and reads the answer: (status, body).
    async fn get(&mut self, host: &str, target: &str) -> std::io::Result<(u16, Vec<u8>)> {
        let request = format!("GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n");
        self.stream.write_all(request.as_bytes()).await?;
        self.buf.clear();
        let bad =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
        let mut chunk = [0u8; 16 * 1024];
        let head_end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let n = self.stream.read(&mut chunk).await?;
            if n == 0 {
                return Err(bad("connection closed"));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        };
        let head = std::str::from_utf8(&self.buf[..head_end]).map_err(|_| bad("head"))?;
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("status line"))?;
        let length: usize = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .ok_or_else(|| bad("no content-length"))?;
        while self.buf.len() < head_end + length {
            let n = self.stream.read(&mut chunk).await?;
            if n == 0 {
                return Err(bad("connection closed in the body"));
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
        Ok((status, self.buf[head_end..head_end + length].to_vec()))
    }
}

/// A target and the answer it must get.
struct Target {
    path: String,
    expected: Vec<u8>,
}

/// Asks each target once and checks the answer against the rules crate
/// (`/api/probe` only for positions the tables of up to `max_pieces`
/// pieces cover).
async fn expected_answers(addr: &str, positions: &[Position], max_pieces: u32) -> Vec<Target> {
    let mut conn = Connection::open(addr)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to {addr}: {e}"));
    let mut targets = Vec::new();
    for p in positions {
        let fen = p.to_string();
        let pieces = p.pieces(Color::Black).len() + p.pieces(Color::White).len();
        // The start position is asked for its moves only: no table has it.
        let apis: &[&str] = if pieces <= max_pieces {
            &["position", "probe"]
        } else {
            &["position"]
        };
        for &api in apis {
            let path = format!("/api/{api}?fen={}", enc(&fen));
            let (status, body) = conn.get(addr, &path).await.expect("request");
            let text = String::from_utf8_lossy(&body);
            assert_eq!(status, 200, "{path}: {text}");
            let v: serde_json::Value =
                serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
            if api == "position" {
                assert_eq!(v["fen"], fen.as_str(), "{path}");
                let moves = v["moves"].as_array().expect("moves").len();
                let legal = if p.outcome().is_some() {
                    0
                } else {
                    p.legal_moves().len()
                };
                assert_eq!(moves, legal, "{path}");
            } else {
                assert_eq!(v["position"], fen.as_str(), "{path}");
                assert!(v["wdl"].is_string(), "{path}");
            }
            targets.push(Target {
                path,
                expected: body,
            });
        }
    }
    targets
}

/// What one client saw.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u32>,
    errors: u64,
    first_error: Option<String>,
}

async fn client(
    id: usize,
    addr: Arc<String>,
    targets: Arc<Vec<Target>>,
    deadline: Instant,
    budget: Arc<AtomicU64>,
) -> Tally {
    let mut tally = Tally::default();
    let mut rng = SplitMix::new(0x5eed ^ id as u64);
    let mut conn = None;
    while Instant::now() < deadline {
        if budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_err()
        {
            break;
        }
        let target = &targets[rng.below(targets.len())];
        let started = Instant::now();
        let result = async {
            if conn.is_none() {
                conn = Some(Connection::open(&addr).await?);
            }
            match &mut conn {
                Some(c) => c.get(&addr, &target.path).await,
                None => unreachable!(),
            }
        }
        .await;
        let micros = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        let problem = match result {
            Ok((200, body)) if body == target.expected => None,
            Ok((status, body)) => Some(format!(
                "{}: status {status}, {} bytes differ from the expected answer",
                target.path,
                body.len()
            )),
            Err(e) => {
                conn = None;
                Some(format!("{}: {e}", target.path))
            }
        };
        match problem {
            None => tally.latencies_us.push(micros),
            Some(p) => {
                tally.errors += 1;
                tally.first_error.get_or_insert(p);
            }
        }
    }
    tally
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

fn main() {
    let s = settings();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(s.threads)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let positions = positions(s.positions, s.max_pieces, s.seed);
        let targets = Arc::new(expected_answers(&s.addr, &positions, s.max_pieces).await);
        println!(
            "{} targets (the start position's moves; {} random positions of 2 to {} pieces, \
             /api/position and /api/probe), checked; {} clients for {} s",
            targets.len(),
            positions.len() - 1,
            s.max_pieces,
            s.clients,
            s.seconds
        );
        let addr = Arc::new(s.addr.clone());
        let budget = Arc::new(AtomicU64::new(s.max_requests));
        let started = Instant::now();
        let deadline = started + Duration::from_secs(s.seconds);
        let tasks: Vec<_> = (0..s.clients)
            .map(|id| {
                tokio::spawn(client(
                    id,
                    addr.clone(),
                    targets.clone(),
                    deadline,
                    budget.clone(),
                ))
            })
            .collect();
        let mut latencies = Vec::new();
        let mut errors = 0;
        let mut first_error = None;
        for task in tasks {
            let tally = task.await.expect("client task");
            latencies.extend(tally.latencies_us);
            errors += tally.errors;
            if first_error.is_none() {
                first_error = tally.first_error;
            }
        }
        let elapsed = started.elapsed().as_secs_f64();
        latencies.sort_unstable();
        let ok = latencies.len() as u64;
        println!(
            "{} requests in {elapsed:.1} s: {:.0} requests/s; latency ms p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}; errors {errors}",
            ok + errors,
            (ok + errors) as f64 / elapsed,
            percentile(&latencies, 0.50),
            percentile(&latencies, 0.90),
            percentile(&latencies, 0.99),
            percentile(&latencies, 1.0),
        );
        if let Some(e) = first_error {
            println!("first error: {e}");
        }
        if errors > 0 {
            std::process::exit(1);
        }
    });
}
