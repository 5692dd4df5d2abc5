//! The connections of the server: the accept loop, the cap on open
//! connections, the idle and header timeouts and the limits of a request
//! head (docs/serve.md, "Connections").
//!
//! Each accepted connection gets a [`Tracker`] in the [`Connections`]
//! registry: whether a request is being answered (from the moment its head
//! was read to the moment its answer's body is dropped), when the
//! connection last did anything, and since when a request head has been
//! arriving. A task per connection runs hyper's HTTP/1 connection and
//! closes it when it has been idle (no request being read or answered)
//! for the idle timeout, or when a head has taken longer than the header
//! timeout. hyper's own header-read timer starts when the server starts
//! waiting for a request, so it cannot tell an idle keep-alive connection
//! from a slow head; the tracker can. The header timeout is a deadline
//! from a head's first byte: the bytes that follow do not put it off, and
//! the task, asleep until an idle timeout, is woken to shorten its sleep
//! when a head starts.
//!
//! At the cap, a new connection makes room by closing the connection idle
//! the longest (a request being read but not yet complete counts as idle);
//! if every connection is answering a request, the new one is answered 503
//! with JSON and closed. An accept error (out of file descriptors) closes
//! the longest idle connection and waits a moment, never spins.
//!
//! [`HeadGuard`] sits between the socket and hyper: it counts the bytes of
//! each request head and, past [`MAX_LINE`] bytes on one line or
//! [`MAX_HEAD`] bytes in all, answers 414 or 431 with JSON itself (hyper's
//! own answers to overlong heads carry no body), reads and discards what
//! the client still sends for a moment so the answer is not lost to a
//! reset, and ends the connection. A request's body (the records posted
//! to `/api/record`) is skipped by its `Content-Length`; a chunked body,
//! whose end the guard would have to parse, is refused (411), and a
//! `Content-Length` that is not a number too (400).

use crate::serve::error::json_error_body;
use axum::body::Body;
use axum::http::StatusCode;
use axum::Router;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::service::Service as _;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};

/// The longest line of a request head (the request line, and so the
/// target with its query string, or one header), in bytes.
pub(crate) const MAX_LINE: usize = 16 * 1024;
/// The longest request head (request line and headers), in bytes.
pub(crate) const MAX_HEAD: usize = 64 * 1024;
/// How long the server goes on reading (and discarding) what a client
/// sends after its head was refused as too long, so that the client reads
/// the answer rather than a reset.
const DRAIN_TIME: Duration = Duration::from_secs(2);
/// The most bytes read and discarded that way.
const DRAIN_BYTES: u64 = 64 << 20;
/// The most connections refused at the cap that may still be open while
/// their 503 is sent.
const MAX_REFUSING: usize = 32;
/// How long the accept loop waits after an accept error (out of file
/// descriptors) before it tries again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The connection settings, checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConnectionLimits {
    /// The most connections open at once.
    pub(crate) max_connections: usize,
    /// How long a connection may stay open without a request being read
    /// or answered.
    pub(crate) idle_timeout: Duration,
    /// How long a request head may take to arrive, from its first byte.
    pub(crate) header_timeout: Duration,
}

/// Milliseconds since the server started (one clock for all trackers).
#[derive(Debug, Clone, Copy)]
struct Clock(Instant);

impl Clock {
    fn now_ms(self) -> u64 {
        u64::try_from(self.0.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn instant(self, ms: u64) -> Instant {
        self.0 + Duration::from_millis(ms)
    }
}

/// What the server knows of one connection.
#[derive(Debug)]
struct Tracker {
    id: u64,
    clock: Clock,
    /// Requests being answered (their answer's body not yet dropped).
    in_flight: AtomicUsize,
    /// When the connection last read a byte or finished an answer.
    last_active_ms: AtomicU64,
    /// When the first byte of the request head being read arrived, plus
    /// one; 0 while no head is being read.
    head_started_ms: AtomicU64,
    /// Closed to make room for another connection.
    evicted: AtomicBool,
    /// Wakes the connection's task to close it.
    evict: Notify,
    /// Wakes the connection's task to work out its deadline again: a
    /// request head has started (its header timeout now runs) or an answer
    /// has ended (its idle timeout now runs).
    rearm: Notify,
}

impl Tracker {
    fn touch(&self) {
        self.last_active_ms
            .store(self.clock.now_ms(), Ordering::Relaxed);
    }

    /// When the connection's time is up, as things stand.
    fn deadline(&self, limits: &ConnectionLimits) -> Instant {
        if self.in_flight.load(Ordering::Relaxed) > 0 {
            // Answering: look again an idle timeout later.
            return Instant::now() + limits.idle_timeout;
        }
        match self.head_started_ms.load(Ordering::Relaxed) {
            0 => {
                self.clock
                    .instant(self.last_active_ms.load(Ordering::Relaxed))
                    + limits.idle_timeout
            }
            started => self.clock.instant(started - 1) + limits.header_timeout,
        }
    }
}

/// Counts a request as being answered while it lives.
#[derive(Debug)]
struct Busy(Arc<Tracker>);

impl Busy {
    fn new(tracker: Arc<Tracker>) -> Busy {
        tracker.in_flight.fetch_add(1, Ordering::Relaxed);
        Busy(tracker)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.0.rearm.notify_one();
    }
}

/// An answer's body that keeps its request counted as being answered
/// until hyper drops it (the answer written, or the client gone).
struct TrackedBody {
    body: Body,
    _busy: Busy,
}

impl hyper::body::Body for TrackedBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The open connections.
#[derive(Debug)]
pub(crate) struct Connections {
    limits: ConnectionLimits,
    clock: Clock,
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Tracker>>>,
    refusing: AtomicUsize,
}

impl Connections {
    /// No connections yet.
    pub(crate) fn new(limits: ConnectionLimits) -> Connections {
        Connections {
            limits,
            clock: Clock(Instant::now()),
            next_id: AtomicU64::new(0),
            open: Mutex::new(HashMap::new()),
            refusing: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Tracker>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A tracker for a new connection if there is room, making room by
    /// closing the connection idle the longest if needed; `None` if every
    /// connection is answering a request.
    fn admit(&self) -> Option<Arc<Tracker>> {
        let mut open = self.lock();
        let live = open
            .values()
            .filter(|t| !t.evicted.load(Ordering::Relaxed))
            .count();
        if live >= self.limits.max_connections && !Self::evict_in(&open) {
            return None;
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let tracker = Arc::new(Tracker {
            id,
            clock: self.clock,
            in_flight: AtomicUsize::new(0),
            last_active_ms: AtomicU64::new(self.clock.now_ms()),
            head_started_ms: AtomicU64::new(0),
            evicted: AtomicBool::new(false),
            evict: Notify::new(),
            rearm: Notify::new(),
        });
        open.insert(id, tracker.clone());
        Some(tracker)
    }

    /// Closes the connection idle the longest, if any is idle.
    fn evict_idle(&self) -> bool {
        Self::evict_in(&self.lock())
    }

    fn evict_in(open: &HashMap<u64, Arc<Tracker>>) -> bool {
        let oldest = open
            .values()
            .filter(|t| {
                !t.evicted.load(Ordering::Relaxed) && t.in_flight.load(Ordering::Relaxed) == 0
            })
            .min_by_key(|t| t.last_active_ms.load(Ordering::Relaxed));
        match oldest {
            Some(t) => {
                t.evicted.store(true, Ordering::Relaxed);
                t.evict.notify_one();
                true
            }
            None => false,
        }
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }
}

/// Accepts connections on `listener` and serves `router` on each until
/// `shutdown` turns true; then stops accepting, asks every connection to
/// close after its current answer, and returns when all are closed.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    connections: Arc<Connections>,
    mut shutdown: watch::Receiver<bool>,
) {
    let (closed_tx, closed_rx) = watch::channel(());
    let mut last_warning: Option<Instant> = None;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = shutdown.wait_for(|stop| *stop) => break,
        };
        match accepted {
            Ok((stream, _)) => match connections.admit() {
                Some(tracker) => {
                    let task = serve_connection(
                        stream,
                        tracker,
                        router.clone(),
                        connections.clone(),
                        shutdown.clone(),
                        closed_rx.clone(),
                    );
                    tokio::spawn(task);
                }
                None => refuse(stream, &connections),
            },
            Err(e) if is_connection_error(&e) => {}
            Err(e) => {
                // Out of file descriptors (or another passing failure):
                // make room, wait a moment, try again.
                connections.evict_idle();
                if last_warning.is_none_or(|t| t.elapsed() > Duration::from_secs(60)) {
                    eprintln!("warning: cannot accept a connection: {e}");
                    last_warning = Some(Instant::now());
                }
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
        }
    }
    drop(listener);
    drop(closed_rx);
    closed_tx.closed().await;
}

/// An error of one connection only (the client gave up before it was
/// accepted).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Answers a connection over the cap 503 with JSON and closes it (at most
/// [`MAX_REFUSING`] at once; beyond that it is closed at once).
fn refuse(stream: TcpStream, connections: &Arc<Connections>) {
    if connections.refusing.fetch_add(1, Ordering::Relaxed) >= MAX_REFUSING {
        connections.refusing.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    let message = format!(
        "the server has {} connections open (its --max-connections), each answering a request: try again in a moment",
        connections.limits.max_connections
    );
    let answer = raw_json_answer(StatusCode::SERVICE_UNAVAILABLE, &message);
    let connections = connections.clone();
    tokio::spawn(async move {
        let _ = tokio::time::timeout(DRAIN_TIME, write_and_drain(stream, answer)).await;
        connections.refusing.fetch_sub(1, Ordering::Relaxed);
    });
}

/// Writes `answer`, ends the writing side and discards what the client
/// still sends, until it closes.
async fn write_and_drain(mut stream: TcpStream, answer: Vec<u8>) {
    let mut at = 0;
    while at < answer.len() {
        if stream.writable().await.is_err() {
            return;
        }
        match stream.try_write(&answer[at..]) {
            Ok(n) => at += n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
    let _ = std::future::poll_fn(|cx| Pin::new(&mut stream).poll_shutdown(cx)).await;
    let mut scratch = [0u8; 4096];
    loop {
        if stream.readable().await.is_err() {
            return;
        }
        match stream.try_read(&mut scratch) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
}

/// A complete HTTP/1.1 answer with a JSON error body that closes the
/// connection (written without hyper).
fn raw_json_answer(status: StatusCode, message: &str) -> Vec<u8> {
    let body = json_error_body(message);
    format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes()
}

/// Serves one connection until it ends, times out, is evicted, or (after
/// `shutdown`) finishes its current answer.
async fn serve_connection(
    stream: TcpStream,
    tracker: Arc<Tracker>,
    router: Router,
    connections: Arc<Connections>,
    mut shutdown: watch::Receiver<bool>,
    _closed: watch::Receiver<()>,
) {
    let limits = connections.limits;
    let service = {
        let router = TowerToHyperService::new(router);
        let tracker = tracker.clone();
        hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let busy = Busy::new(tracker.clone());
            let answer = router.call(request);
            async move {
                let response = answer.await?;
                Ok::<_, std::convert::Infallible>(
                    response.map(|body| TrackedBody { body, _busy: busy }),
                )
            }
        })
    };
    let io = TokioIo::new(HeadGuard::new(stream, tracker.clone()));
    let connection = hyper::server::conn::http1::Builder::new().serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    let mut stopping = false;
    loop {
        let deadline = tracker.deadline(&limits);
        tokio::select! {
            _ = connection.as_mut() => break,
            () = tracker.evict.notified() => break,
            // A head started or an answer ended: the deadline has moved.
            () = tracker.rearm.notified() => {}
            () = tokio::time::sleep_until(deadline.into()) => {
                if tracker.deadline(&limits) <= Instant::now() {
                    break;
                }
            }
            _ = shutdown.wait_for(|stop| *stop), if !stopping => {
                stopping = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
    connections.remove(tracker.id);
}

/// Where a refused head's answer stands.
enum Refusal {
    /// Writing the answer (the bytes, how many are written).
    Writing(Vec<u8>, usize),
    /// Ending the writing side.
    Closing,
    /// Reading and discarding until the client closes, the time is up or
    /// enough was read.
    Draining(Pin<Box<tokio::time::Sleep>>, u64),
    /// Done: reads end.
    Done,
}

/// Where the bytes read stand in the request heads: each head's length
/// and its current line's, and the body after a head, which is skipped
/// (its length from the head's `Content-Length`).
#[derive(Debug, Default)]
struct Scan {
    /// Reading a request head (its first byte seen, its blank line not).
    in_head: bool,
    /// Bytes of the head so far.
    head_len: usize,
    /// Bytes of the current line so far (without CR and LF).
    line_len: usize,
    /// The current line is the head's first (the request line).
    first_line: bool,
    /// The first bytes of the current line, lowercased: enough to read a
    /// `Content-Length` or see a `Transfer-Encoding`.
    line_start: Vec<u8>,
    /// The head's `Content-Length`, once read.
    content_length: Option<u64>,
    /// The head has a `Transfer-Encoding` (a chunked body).
    chunked: bool,
    /// Bytes of the current body still to come.
    body_left: u64,
}

/// The bytes of a header line kept to recognise it (`content-length:` and
/// twenty digits fit).
const LINE_START: usize = 48;

impl Scan {
    /// Follows the heads through `bytes` (keeping `tracker`'s head start);
    /// the status and message of the refusal if one is too long, or has a
    /// body this guard cannot follow.
    fn scan(&mut self, bytes: &[u8], tracker: &Tracker) -> Option<(StatusCode, String)> {
        let mut i = 0;
        while i < bytes.len() {
            if self.body_left > 0 {
                let skip = self.body_left.min((bytes.len() - i) as u64);
                self.body_left -= skip;
                i += skip as usize;
                continue;
            }
            let b = bytes[i];
            i += 1;
            if !self.in_head {
                if b == b'\r' || b == b'\n' {
                    // Blank lines before a request are ignored.
                    continue;
                }
                self.in_head = true;
                self.head_len = 0;
                self.line_len = 0;
                self.first_line = true;
                self.line_start.clear();
                self.content_length = None;
                self.chunked = false;
                tracker
                    .head_started_ms
                    .store(tracker.clock.now_ms() + 1, Ordering::Relaxed);
                // The connection's task may be asleep until an idle
                // timeout: the header timeout is sooner.
                tracker.rearm.notify_one();
            }
            self.head_len += 1;
            match b {
                b'\n' if self.line_len == 0 => {
                    // The blank line: the head is complete, its body follows.
                    self.in_head = false;
                    tracker.head_started_ms.store(0, Ordering::Relaxed);
                    if self.chunked {
                        return Some((
                            StatusCode::LENGTH_REQUIRED,
                            "a request body must come with a Content-Length (not chunked)".into(),
                        ));
                    }
                    self.body_left = self.content_length.unwrap_or(0);
                }
                b'\n' => {
                    if !self.first_line {
                        if let Some(refusal) = self.header_line() {
                            return Some(refusal);
                        }
                    }
                    self.line_len = 0;
                    self.line_start.clear();
                    self.first_line = false;
                }
                b'\r' => {}
                _ => {
                    self.line_len += 1;
                    if self.line_start.len() < LINE_START {
                        self.line_start.push(b.to_ascii_lowercase());
                    }
                }
            }
            if self.line_len > MAX_LINE && self.first_line {
                return Some((
                    StatusCode::URI_TOO_LONG,
                    format!(
                        "the request line is over {MAX_LINE} bytes long (a query string may have at most {} bytes)",
                        crate::serve::query::MAX_QUERY
                    ),
                ));
            }
            if self.line_len > MAX_LINE {
                return Some((
                    StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                    format!("a header line is over {MAX_LINE} bytes long"),
                ));
            }
            if self.head_len > MAX_HEAD {
                return Some((
                    StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                    format!("the request head is over {MAX_HEAD} bytes long"),
                ));
            }
        }
        None
    }

    /// Reads the header line just ended: its `Content-Length`, or that it
    /// is a `Transfer-Encoding`; a length that is not a number is refused.
    fn header_line(&mut self) -> Option<(StatusCode, String)> {
        let line = &self.line_start;
        if line.starts_with(b"transfer-encoding:") {
            self.chunked = true;
        } else if let Some(value) = line.strip_prefix(b"content-length:") {
            let value = std::str::from_utf8(value).unwrap_or("").trim();
            match value.parse::<u64>() {
                Ok(n) if self.line_len < LINE_START => self.content_length = Some(n),
                _ => {
                    return Some((
                        StatusCode::BAD_REQUEST,
                        "the Content-Length is not a number of bytes".into(),
                    ))
                }
            }
        }
        None
    }
}

/// The socket as hyper sees it: counts each request head's bytes, keeps
/// the tracker's times, and answers an overlong head itself.
struct HeadGuard {
    stream: TcpStream,
    tracker: Arc<Tracker>,
    scan: Scan,
    /// The refusal of an overlong head, once there is one; the request
    /// stays counted as being answered until it is done.
    refusal: Option<(Refusal, Option<Busy>)>,
}

impl HeadGuard {
    fn new(stream: TcpStream, tracker: Arc<Tracker>) -> HeadGuard {
        HeadGuard {
            stream,
            tracker,
            scan: Scan::default(),
            refusal: None,
        }
    }

    /// Drives the refusal on; ready (with no bytes: the end) when done.
    fn poll_refusal(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Some((refusal, busy)) = &mut self.refusal else {
            return Poll::Ready(Ok(()));
        };
        loop {
            match refusal {
                Refusal::Writing(bytes, at) => {
                    match ready!(Pin::new(&mut self.stream).poll_write(cx, &bytes[*at..])) {
                        Ok(n) if n > 0 => {
                            *at += n;
                            if *at == bytes.len() {
                                *refusal = Refusal::Closing;
                            }
                        }
                        _ => *refusal = Refusal::Done,
                    }
                }
                Refusal::Closing => {
                    let _ = ready!(Pin::new(&mut self.stream).poll_shutdown(cx));
                    *refusal = Refusal::Draining(Box::pin(tokio::time::sleep(DRAIN_TIME)), 0);
                }
                Refusal::Draining(until, drained) => {
                    if until.as_mut().poll(cx).is_ready() {
                        *refusal = Refusal::Done;
                        continue;
                    }
                    let mut scratch = [0u8; 8192];
                    let mut buf = ReadBuf::new(&mut scratch);
                    match ready!(Pin::new(&mut self.stream).poll_read(cx, &mut buf)) {
                        Ok(()) if !buf.filled().is_empty() => {
                            *drained += buf.filled().len() as u64;
                            if *drained > DRAIN_BYTES {
                                *refusal = Refusal::Done;
                            }
                        }
                        _ => *refusal = Refusal::Done,
                    }
                }
                Refusal::Done => {
                    busy.take();
                    return Poll::Ready(Ok(()));
                }
            }
        }
    }
}

impl AsyncRead for HeadGuard {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.refusal.is_some() {
            return this.poll_refusal(cx);
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.stream).poll_read(cx, buf))?;
        let filled = &buf.filled()[before..];
        if !filled.is_empty() {
            this.tracker.touch();
            if let Some((status, message)) = this.scan.scan(filled, &this.tracker) {
                this.tracker.head_started_ms.store(0, Ordering::Relaxed);
                let busy = Busy::new(this.tracker.clone());
                this.refusal = Some((
                    Refusal::Writing(raw_json_answer(status, &message), 0),
                    Some(busy),
                ));
                // hyper gets nothing of the refused head; the next read
                // drives the refusal.
                buf.set_filled(before);
                return this.poll_refusal(cx);
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for HeadGuard {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, data)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard_scan(chunks: &[&[u8]]) -> Option<StatusCode> {
        // A tracker without a socket: scan only.
        let tracker = Arc::new(Tracker {
            id: 0,
            clock: Clock(Instant::now()),
            in_flight: AtomicUsize::new(0),
            last_active_ms: AtomicU64::new(0),
            head_started_ms: AtomicU64::new(0),
            evicted: AtomicBool::new(false),
            evict: Notify::new(),
            rearm: Notify::new(),
        });
        let mut state = Scan::default();
        chunks
            .iter()
            .find_map(|c| state.scan(c, &tracker).map(|(s, _)| s))
    }

    #[test]
    fn heads_are_measured_line_by_line_and_in_all() {
        let ok = b"GET /api/position?fen=6 HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(guard_scan(&[ok, ok, b"\r\n", ok]), None);
        let long_target = format!("GET /{} HTTP/1.1\r\n", "a".repeat(MAX_LINE));
        assert_eq!(
            guard_scan(&[ok, long_target.as_bytes()]),
            Some(StatusCode::URI_TOO_LONG)
        );
        let long_header = format!("GET / HTTP/1.1\r\nX: {}\r\n", "a".repeat(MAX_LINE));
        assert_eq!(
            guard_scan(&[long_header.as_bytes()]),
            Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        );
        let many = format!(
            "GET / HTTP/1.1\r\n{}",
            "X: 1234567\r\n".repeat(MAX_HEAD / 12)
        );
        assert_eq!(
            guard_scan(&[many.as_bytes()]),
            Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        );
        // Exactly the longest line, in pieces, is read; one byte more is not.
        let edge = format!("GET /{} HTTP/1.1", "a".repeat(MAX_LINE - 14));
        assert_eq!(edge.len(), MAX_LINE);
        let (a, b) = edge.as_bytes().split_at(100);
        assert_eq!(guard_scan(&[a, b, b"\r\n\r\n"]), None);
        assert_eq!(
            guard_scan(&[a, b, b"1\r\n\r\n"]),
            Some(StatusCode::URI_TOO_LONG)
        );
    }

    #[test]
    fn bodies_are_skipped_by_their_length_and_chunked_ones_refused() {
        // A body of long lines (a record) is not read as the next head; the
        // head after it is measured again.
        let body = format!("{}\n", "x".repeat(MAX_LINE + 10)).repeat(3);
        let post = format!(
            "POST /api/record HTTP/1.1\r\nHost: x\r\ncontent-LENGTH: {}\r\n\r\n{body}",
            body.len()
        );
        let (first, rest) = post.as_bytes().split_at(70);
        let ok = b"GET / HTTP/1.1\r\n\r\n";
        assert_eq!(guard_scan(&[first, rest, ok]), None);
        let long_target = format!("GET /{} HTTP/1.1\r\n", "a".repeat(MAX_LINE));
        assert_eq!(
            guard_scan(&[post.as_bytes(), long_target.as_bytes()]),
            Some(StatusCode::URI_TOO_LONG)
        );
        let chunked = b"POST /api/record HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n";
        assert_eq!(guard_scan(&[chunked]), Some(StatusCode::LENGTH_REQUIRED));
        for bad in ["-1", "12a", "99999999999999999999999", ""] {
            let head = format!("POST / HTTP/1.1\r\nContent-Length: {bad}\r\n\r\n");
            assert_eq!(
                guard_scan(&[head.as_bytes()]),
                Some(StatusCode::BAD_REQUEST),
                "{bad}"
            );
        }
    }
}
