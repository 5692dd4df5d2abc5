// The analysis board's back end: where the page's answers come from.
//
// The page (app.js) asks these things, each answered with the JSON objects
// of docs/serve.md: a position with its legal moves and their tablebase
// values, a tablebase probe with its conversion line, the picture of the
// board, an analysis that reports each iteration and then its best move,
// and game records read (parseRecord) and written (writeRecord). Two back
// ends answer them alike:
//
// - "http": `surakarta serve`'s API (`/api/position`, `/api/probe`,
//   `/api/svg`, `/api/analysis` as Server-Sent Events);
// - "wasm": the same answers computed in the page by the WebAssembly
//   module of the static site (scripts/build-web.sh): the board and tables
//   on the main thread, the engine in a Web Worker (engine-worker.js),
//   the tables up to 6 pieces loaded at start and larger classes fetched
//   when a position needs them.
//
// site.js names the back end (window.SURAKARTA_BACKEND); the server's
// site.js says "http", the static site's "wasm".

'use strict';

(function () {
  /** An error of the back end: its message and an HTTP-like status. */
  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  // -------------------------------------------------------------------
  // The server's HTTP API
  // -------------------------------------------------------------------

  /** Fetches `url` (with the `init` of `fetch`) and returns its JSON answer. */
  async function fetchJson(url, init) {
    let response;
    try {
      response = await fetch(url, init);
    } catch (e) {
      throw new ApiError('cannot reach the server (' + e.message + ')', 0);
    }
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!response.ok) {
      const message = body && body.error ? body.error : 'HTTP ' + response.status;
      throw new ApiError(message, response.status);
    }
    return body;
  }

  /** GETs `path` with the query `params` and returns the parsed JSON. */
  function getJson(path, params) {
    const url = path + '?' + new URLSearchParams(params).toString();
    return fetchJson(url, { headers: { Accept: 'application/json' } });
  }

  /** POSTs `body` (a string of content `type`) to `path`; returns the JSON answer. */
  function postJson(path, body, type) {
    return fetchJson(path, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': type },
      body,
    });
  }

  /** The query parameters of a game {rules, start, moves}. */
  function gameParams(game) {
    const params = { rules: game.rules || 'icga', moves: (game.moves || []).join(',') };
    if (game.start) params.start = game.start;
    return params;
  }

  /** The request of an analysis for the engine worker (`Board.analyseRequest`). */
  function analysisRequest(fen, limits) {
    const request = limits.game ? { game: limits.game } : { fen };
    request.movetime = Number(limits.movetime || 2000);
    for (const name of ['depth', 'nodes', 'level', 'seed', 'multipv']) {
      if (limits[name] !== undefined && limits[name] !== null) request[name] = Number(limits[name]);
    }
    return request;
  }

  function httpBackend() {
    return {
      kind: 'http',
      ready: Promise.resolve(),
      onStatus: null,
      /**
       * The answer for `fen`; with `opts.game` ({rules, start, moves}) the
       * game's current position under its rules, with its history.
       */
      position: (fen, opts) => getJson('/api/position', opts && opts.game ? gameParams(opts.game) : { fen }),
      probe: (fen) => getJson('/api/probe', { fen }),
      async svg(fen, move) {
        const params = { fen };
        if (move) params.move = move;
        const r = await fetch('/api/svg?' + new URLSearchParams(params).toString());
        if (!r.ok) {
          let message = 'HTTP ' + r.status;
          try {
            message = (await r.json()).error || message;
          } catch (e) { /* not JSON */ }
          throw new ApiError(message, r.status);
        }
        return r.text();
      },
      /**
       * Starts an analysis limited by `limits` ({movetime} in ms and/or
       * {depth}); `on.info(d)` per iteration, `on.bestmove(d)` at the end,
       * `on.error(message)` if it cannot run. Returns {stop()}.
       */
      analyse(fen, limits, on) {
        const params = limits.game ? gameParams(limits.game) : { fen };
        params.movetime = limits.movetime || 2000;
        for (const name of ['depth', 'nodes', 'level', 'seed', 'multipv']) {
          if (limits[name] !== undefined && limits[name] !== null) params[name] = limits[name];
        }
        const url = '/api/analysis?' + new URLSearchParams(params).toString();
        const es = new EventSource(url);
        let got = 0;
        let done = false;
        const parse = (e) => {
          try { return JSON.parse(e.data); } catch (err) { return null; }
        };
        es.addEventListener('info', (e) => {
          const d = parse(e);
          if (d) { got += 1; on.info(d); }
        });
        es.addEventListener('bestmove', (e) => {
          done = true;
          es.close(); // the stream ends here; do not let EventSource reconnect
          on.bestmove(parse(e) || {});
        });
        es.onerror = () => {
          if (done) return;
          // A refused stream (503: too many analyses, 400) or a dropped
          // connection: EventSource cannot read the body, so say what is likely.
          es.close();
          on.error(got === 0
            ? 'could not start (the server may be busy with other analyses)'
            : 'connection lost');
        };
        return { stop: () => es.close() }; // closing the stream stops the search
      },
      /**
       * Judges every move of `game` ({rules, start, moves}) with `limits`
       * ({movetime} ms a position, or {nodes}): `on.progress({done, total})`,
       * then `on.done(result)` (the JSON of `surakarta analyse --json` with
       * `record`) or `on.error(message)`. Returns {stop()}.
       */
      analyseGame(game, limits, on) {
        const params = gameParams(game);
        if (limits.nodes) params.nodes = limits.nodes;
        else params.movetime = limits.movetime || 500;
        const es = new EventSource('/api/game-analysis?' + new URLSearchParams(params).toString());
        let done = false;
        const parse = (e) => {
          try { return JSON.parse(e.data); } catch (err) { return null; }
        };
        es.addEventListener('progress', (e) => { const d = parse(e); if (d && on.progress) on.progress(d); });
        es.addEventListener('done', (e) => { done = true; es.close(); on.done(parse(e) || {}); });
        es.addEventListener('error', (e) => {
          if (done) return;
          const d = e && e.data ? parse(e) : null;
          done = true;
          es.close();
          on.error(d && d.error ? d.error : 'could not analyse the game (the server may be busy with other analyses)');
        });
        return { stop: () => { done = true; es.close(); } };
      },
      /** A record text's games: {games: [{tags, rules, start, result, intro, line}]}. */
      parseRecord: (text) => postJson('/api/record', text, 'text/plain; charset=utf-8'),
      /** A game of parseRecord's shape as record text. */
      async writeRecord(game) {
        const answer = await postJson('/api/record/text', JSON.stringify(game), 'application/json');
        return answer.text;
      },
    };
  }

  // -------------------------------------------------------------------
  // WebAssembly in the page
  // -------------------------------------------------------------------

  /** Loads a classic script once. */
  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new ApiError('cannot load ' + src, 0));
      document.head.appendChild(s);
    });
  }

  /** A size for people: 823 KB, 1.2 MB. */
  function sizeText(bytes) {
    if (bytes >= 1e6) return (bytes / 1e6).toFixed(1) + ' MB';
    return Math.max(1, Math.round(bytes / 1e3)) + ' KB';
  }

  /** An error of the WebAssembly board as an ApiError with a status. */
  function wasmError(e) {
    const message = e && e.message ? e.message : String(e);
    if (message.startsWith('not in the tables')) return new ApiError(message, 404);
    if (message.startsWith('position') || message.startsWith('move')) return new ApiError(message, 400);
    return new ApiError(message, 500);
  }

  function wasmBackend() {
    let board = null; // the main thread's wasm Board
    let manifest = { tables: [] }; // tables/manifest.json
    const loaded = new Map(); // class -> {name, bytes} of its file (sent to each worker)
    const failed = new Map(); // class -> why it could not be loaded
    const fetching = new Map(); // class -> Promise
    let worker = null; // {w, ready: Promise}

    const backend = {
      kind: 'wasm',
      onStatus: null,
    };
    const status = (text) => { if (backend.onStatus) backend.onStatus(text); };

    /** Fetches and loads one table file; rejects with a readable error. */
    async function loadTable(entry) {
      const r = await fetch('tables/' + entry.file);
      if (!r.ok) throw new ApiError('tables/' + entry.file + ': HTTP ' + r.status, r.status);
      const bytes = await r.arrayBuffer();
      // The board checks the file whole (header, length, checksum).
      board.addTable(entry.file, new Uint8Array(bytes));
      loaded.set(entry.class, { name: entry.file, bytes });
      if (worker) worker.w.postMessage({ type: 'tables', tables: [{ name: entry.file, bytes }] });
    }

    /** Loads the classes a position needs that the site has, saying so. */
    async function ensureTables(fen) {
      let missing;
      try {
        missing = board.missingClasses(fen);
      } catch (e) {
        return; // the position itself will say what is wrong
      }
      const wanted = missing
        .map((c) => manifest.tables.find((t) => t.class === c))
        .filter((t) => t && !failed.has(t.class));
      if (wanted.length === 0) return;
      const bytes = wanted.reduce((n, t) => n + t.bytes, 0);
      status('fetching tables ' + wanted.map((t) => t.class).join(', ') + ' (' + sizeText(bytes) + ')…');
      await Promise.all(wanted.map((t) => {
        if (!fetching.has(t.class)) {
          fetching.set(t.class, loadTable(t).catch((e) => {
            failed.set(t.class, e.message);
            status('could not load table ' + t.class + ': ' + e.message);
          }).finally(() => fetching.delete(t.class)));
        }
        return fetching.get(t.class);
      }));
      if (wanted.every((t) => loaded.has(t.class))) status('');
    }

    /** A fresh engine worker holding every table loaded so far. */
    function startWorker() {
      const w = new Worker('engine-worker.js');
      const ready = new Promise((resolve, reject) => {
        w.onmessage = (e) => {
          if (e.data.type === 'ready') resolve();
          else if (e.data.type === 'error') reject(new ApiError(e.data.message, 500));
        };
        w.onerror = (e) => reject(new ApiError('the engine worker failed: ' + e.message, 500));
      });
      w.postMessage({ type: 'tables', tables: [...loaded.values()] });
      worker = { w, ready };
    }

    backend.ready = (async () => {
      await loadScript('surakarta_wasm.js');
      // eslint-disable-next-line no-undef
      await wasm_bindgen({ module_or_path: 'surakarta_wasm_bg.wasm' });
      // eslint-disable-next-line no-undef
      board = new wasm_bindgen.Board();
      try {
        const r = await fetch('tables/manifest.json');
        if (r.ok) manifest = await r.json();
      } catch (e) { /* no tables: the board still plays */ }
      const start = manifest.tables.filter((t) => t.preload);
      if (start.length) status('loading the tables up to ' + Math.max(...start.map((t) => t.pieces)) + ' pieces (' + sizeText(start.reduce((n, t) => n + t.bytes, 0)) + ')…');
      await Promise.all(start.map((t) => loadTable(t).catch((e) => {
        failed.set(t.class, e.message);
        status('could not load table ' + t.class + ': ' + e.message);
      })));
      if (failed.size === 0) status('');
      startWorker();
    })();

    /** `ask(board)` once the module is ready, its errors as ApiErrors. */
    async function answer(ask) {
      await backend.ready;
      try {
        return ask(board);
      } catch (e) {
        throw wasmError(e);
      }
    }

    backend.position = async (fen, opts) => {
      await backend.ready;
      await ensureTables(fen);
      if (opts && opts.game) return answer((b) => JSON.parse(b.gamePosition(JSON.stringify(opts.game))));
      return answer((b) => JSON.parse(b.position(fen)));
    };
    backend.probe = (fen) => answer((b) => JSON.parse(b.probe(fen)));
    backend.svg = (fen, move) => answer((b) => b.svg(fen, move || undefined));
    backend.parseRecord = (text) => answer((b) => JSON.parse(b.readRecord(text)));
    backend.analyseGame = (game, limits, on) => {
      let stopped = false;
      let finished = false;
      let run = null;
      (async () => {
        await backend.ready;
        // The tables the game's positions need, in the page and the worker.
        for (const fen of limits.fens || []) {
          await ensureTables(fen);
        }
        run = worker;
        try {
          await run.ready;
        } catch (e) {
          if (!stopped) on.error(e.message);
          return;
        }
        if (stopped) return;
        run.w.onmessage = (e) => {
          if (stopped || finished) return;
          const d = e.data;
          if (d.type === 'progress') { if (on.progress) on.progress(d.data); }
          else if (d.type === 'done') { finished = true; on.done(d.data); }
          else if (d.type === 'error') { finished = true; on.error(d.message); }
        };
        const request = { game };
        if (limits.nodes) request.nodes = Number(limits.nodes);
        else request.movetime = Number(limits.movetime || 500);
        run.w.postMessage({ type: 'analyseGame', request });
      })();
      return {
        stop() {
          if (stopped || finished) return;
          stopped = true;
          if (run && worker === run) {
            run.w.terminate();
            startWorker();
          }
        },
      };
    };
    backend.writeRecord = (game) => answer((b) => b.writeRecord(JSON.stringify(game)));
    backend.analyse = (fen, limits, on) => {
      let stopped = false; // stopped by the page
      let finished = false; // the best move came
      let run = null; // the worker searching
      (async () => {
        await backend.ready;
        run = worker;
        try {
          await run.ready;
        } catch (e) {
          if (!stopped) on.error(e.message);
          return;
        }
        if (stopped) return;
        run.w.onmessage = (e) => {
          if (stopped || finished) return;
          const d = e.data;
          if (d.type === 'info') on.info(d.data);
          else if (d.type === 'bestmove') { finished = true; on.bestmove(d.data); }
          else if (d.type === 'error') { finished = true; on.error(d.message); }
        };
        run.w.postMessage({ type: 'analyse', request: analysisRequest(fen, limits) });
      })();
      return {
        // A search cannot be interrupted from outside its worker: the
        // worker is ended and a fresh one takes its place.
        stop() {
          if (stopped || finished) return;
          stopped = true;
          if (run && worker === run) {
            run.w.terminate();
            startWorker();
          }
        },
      };
    };
    return backend;
  }

  const kind = window.SURAKARTA_BACKEND === 'wasm' ? 'wasm' : 'http';
  window.SurakartaBackend = {
    ApiError,
    current: kind === 'wasm' ? wasmBackend() : httpBackend(),
  };
})();
