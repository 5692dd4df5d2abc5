// The analysis board of `surakarta serve` and of the static site: the
// page's behaviour.
//
// Everything the page knows about the game comes from its back end
// (backend.js: the server's JSON API of docs/serve.md, or the same answers
// from WebAssembly in the page): the position and its legal moves with
// their tablebase values (`/api/position`), the conversion line
// (`/api/probe`), the engine (`/api/analysis`) and the picture of the board
// (`/api/svg`, the same drawing `surakarta show --svg` writes). The page
// keeps only the line of play (a list of positions and the moves between
// them), which ply is shown, and a game against the engine if one is on
// (the engine's replies are analyses of the back end, like the engine
// panel's).
//
// No framework and no build step: plain DOM code, one file.

'use strict';

(function () {
  // ---------------------------------------------------------------------
  // Constants and state
  // ---------------------------------------------------------------------

  const START_FEN = 'wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1';
  const FILES = 'abcdef';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  /** How long a capture's path stays on the board before the move is made (ms). */
  const CAPTURE_PREVIEW_MS = 250;

  const state = {
    // The line of play: plies[0] is the root position; plies[i] (i > 0) is
    // the position after the move plies[i].move. Each: {fen, move}.
    plies: [{ fen: START_FEN, move: null }],
    cursor: 0, // index into plies of the position shown
    info: null, // /api/position answer for the position shown
    svgText: '', // the SVG of the position shown (no move highlighted)
    points: new Map(), // square -> {x, y, el}: the hit targets of the board
    selected: null, // square of the piece picked up, or null
    hovered: null, // the move previewed on the board, or null
    showToken: 0, // bumped on every showPosition(); stale answers are dropped
    firstShownMs: null, // performance.now() when the first position was drawn
    analysis: null, // {fen, handle} while an analysis runs (handle.stop() ends it)
    editing: false,
    edit: { cells: new Array(36).fill('.'), side: 'b' },
    // How the address names the position: '?' (?fen=…) or '#' (#fen=…,
    // which never reaches the host); the page keeps the form it was opened
    // with.
    addressMark: '?',
    // The board seen from White's side (a1 top right); kept in localStorage.
    flipped: false,
    // A game against the engine, or null: {human: 'b'|'w', start: the ply
    // it began at, strength: {movetime, depth}, over: null or an outcome
    // {result, winner, reason}, thinking: {fen, handle} while the engine
    // searches its reply}.
    game: null,
  };

  /** The rule set both back ends judge positions by (Rules::default()). */
  const RULES = { name: 'ICGA', text: 'threefold repetition and 50 plies without a capture end the game, adjudicated by piece count' };

  // Caches: answers depend only on the question, so each is asked once.
  const positionCache = new Map(); // fen -> Promise<position JSON>
  const svgCache = new Map(); // fen|move -> Promise<svg text>

  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------------
  // Talking to the back end (backend.js: the server, or WebAssembly)
  // ---------------------------------------------------------------------

  const backend = window.SurakartaBackend.current;

  /** The position F with its legal moves and values (cached by notation). */
  function getPosition(fen) {
    if (!positionCache.has(fen)) {
      const p = backend.position(fen);
      positionCache.set(fen, p);
      p.catch(() => positionCache.delete(fen)); // errors are not cached
    }
    return positionCache.get(fen);
  }

  /** The SVG text of `fen`, with `move` highlighted if given (cached). */
  function getSvg(fen, move) {
    const key = fen + '|' + (move || '');
    if (!svgCache.has(key)) {
      const p = backend.svg(fen, move);
      svgCache.set(key, p);
      p.catch(() => svgCache.delete(key));
    }
    return svgCache.get(key);
  }

  // ---------------------------------------------------------------------
  // Small helpers
  // ---------------------------------------------------------------------

  /** The fields of a position's notation: {board, side, halfmove, number}. */
  function fenFields(fen) {
    const f = fen.trim().split(/\s+/);
    return {
      board: f[0] || '',
      side: f[1] || 'b',
      halfmove: f[2] || '0',
      number: parseInt(f[3] || '1', 10) || 1,
    };
  }

  /** Index 0..35 of a point name such as "c3" (a1 = 0, f6 = 35). */
  function squareIndex(sq) {
    return 6 * (parseInt(sq[1], 10) - 1) + FILES.indexOf(sq[0]);
  }

  /** Point name of an index 0..35. */
  function squareName(i) {
    return FILES[i % 6] + String(Math.floor(i / 6) + 1);
  }

  /** Builds an element with attributes and children (strings become text). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      node.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return node;
  }

  /**
   * A list of moves as text "b2-c3 e5-d4 …" that wraps only between moves
   * (each move is a span that does not break at its hyphen).
   */
  function moveTokens(moves, className) {
    const span = el('span', { class: className || 'moves' });
    moves.forEach((m, i) => {
      if (i > 0) span.append(' ');
      span.append(el('span', { class: 'tok' }, m));
    });
    return span;
  }

  /** Builds an SVG element with attributes. */
  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  const sideName = (s) => (s === 'b' || s === 'black' ? 'Black' : 'White');

  /** "win", "draw" or "loss" with DTC, as a short text. */
  function valueText(value) {
    if (!value) return 'no tables';
    if (value.wdl === 'draw') return 'draw';
    return value.wdl + (value.dtc !== null && value.dtc !== undefined ? ' in ' + value.dtc : '');
  }

  /**
   * An engine score as text, from the side to move's point of view:
   * `cp` in evaluation units, the others in plies (to the game's end for
   * win/loss, to the conversion for the tables' tbwin/tbloss).
   */
  function scoreText(score, mover) {
    if (!score) return '';
    const v = score.value;
    const me = sideName(mover || 'b');
    const other = sideName(mover === 'w' || mover === 'white' ? 'b' : 'w');
    switch (score.kind) {
      case 'cp':
        // The evaluation counts a piece as about 100 (docs/search.md,
        // docs/evaluation.md): shown in pieces.
        if (v === 0) return '0.00 (level)';
        return '+' + (Math.abs(v) / 100).toFixed(2) + ' for ' + (v > 0 ? me : other);
      case 'win': return me + ' wins in ' + v + ' ' + plural(v, 'ply', 'plies');
      case 'loss': return other + ' wins in ' + v + ' ' + plural(v, 'ply', 'plies');
      case 'tbwin': return me + ' wins (tables; capture in ' + v + ')';
      case 'tbloss': return other + ' wins (tables; capture in ' + v + ')';
      default: return score.kind + ' ' + v;
    }
  }

  const SCORE_HELP = 'Evaluation in pieces (1.00 ≈ one piece) for the side named; '
    + '"wins in N": the game ends in N plies; "(tables)": an exact tablebase win, N plies to the next capture';

  const plural = (n, one, many) => (n === 1 ? one : many);

  /** A finished game's result: "1-0 · Black wins (no pieces left)". */
  function outcomeText(o) {
    const who = o.winner ? sideName(o.winner) + ' wins' : 'draw';
    return o.result + ' · ' + who + (o.reason ? ' (' + o.reason + ')' : '');
  }

  const currentFen = () => state.plies[state.cursor].fen;

  // ---------------------------------------------------------------------
  // The board picture
  // ---------------------------------------------------------------------

  /**
   * Puts the SVG text into the board box and finds its points.
   *
   * The hit targets (`circle.point[data-square]`) are moved to the end of
   * the picture so they are on top of everything and take the clicks; the
   * page's own marks go into `g.overlay` just below them.
   */
  function installSvg(text) {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const parsed = doc.documentElement;
    if (!parsed || parsed.nodeName !== 'svg') {
      throw new Error('the server sent no SVG picture');
    }
    const svg = document.importNode(parsed, true);
    // Scale with the box: the viewBox keeps the proportions.
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('class', 'board-svg');
    svg.setAttribute('role', 'img');

    // Everything drawn on the board goes into one group, turned half a
    // circle about the board's centre when the board is flipped (the
    // background, title and caption stay; letters are turned back upright).
    const turn = svgEl('g', { class: 'turn' });
    for (const n of Array.from(svg.childNodes)) {
      if (n.nodeType !== 1) continue;
      const tag = n.localName;
      if (tag === 'title' || tag === 'defs' || (tag === 'rect' && !turn.firstChild)) continue;
      if (n.classList.contains('caption')) continue;
      turn.appendChild(n);
    }
    svg.appendChild(turn);
    const overlay = svgEl('g', { class: 'overlay' });
    turn.appendChild(overlay);
    const preview = svgEl('g', { class: 'preview' });
    turn.insertBefore(preview, overlay);

    state.points = new Map();
    for (const p of Array.from(svg.querySelectorAll('circle.point[data-square]'))) {
      turn.appendChild(p); // on top
      state.points.set(p.getAttribute('data-square'), {
        x: parseFloat(p.getAttribute('cx')),
        y: parseFloat(p.getAttribute('cy')),
        el: p,
      });
    }
    if (state.flipped) {
      const a = state.points.get('a1');
      const f = state.points.get('f6');
      const cx = a && f ? (a.x + f.x) / 2 : 270;
      const cy = a && f ? (a.y + f.y) / 2 : 270;
      turn.setAttribute('transform', `rotate(180 ${cx} ${cy})`);
      for (const t of Array.from(turn.querySelectorAll('text'))) {
        t.setAttribute('transform', `rotate(180 ${t.getAttribute('x')} ${t.getAttribute('y')})`);
      }
    }
    const box = $('board');
    box.dataset.flipped = state.flipped ? 'true' : 'false';
    box.replaceChildren(svg);
    return svg;
  }

  /** Distance between neighbouring points in SVG units (for ring sizes). */
  function pointSpacing() {
    const a = state.points.get('a1');
    const b = state.points.get('b1');
    return a && b ? Math.hypot(b.x - a.x, b.y - a.y) : 50;
  }

  /** The legal moves of the shown position that start on `sq`. */
  function movesFrom(sq) {
    if (!state.info) return [];
    return state.info.moves.filter((m) => m.from === sq);
  }

  /** Draws the selection and the legal targets into the overlay. */
  function drawOverlay() {
    const svg = $('board').querySelector('svg');
    if (!svg) return;
    const overlay = svg.querySelector('g.overlay');
    overlay.replaceChildren();
    const r = pointSpacing() * 0.44;

    // Which points hold a piece that may move: shown with a pointer cursor.
    const movable = new Set(state.editing || !state.info ? [] : state.info.moves.map((m) => m.from));
    for (const [sq, p] of state.points) {
      p.el.classList.toggle('movable', movable.has(sq));
      p.el.classList.remove('target', 'selected');
    }
    if (state.editing) return;

    // The move that led here: small squares on its origin and target.
    const last = state.plies[state.cursor].move;
    if (last) {
      for (const sq of [last.slice(0, 2), last.slice(-2)]) {
        const p = state.points.get(sq);
        if (!p) continue;
        overlay.appendChild(svgEl('rect', {
          class: 'last-move', x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r, rx: r * 0.25,
        }));
      }
    }
    if (!state.selected) return;

    const from = state.points.get(state.selected);
    if (from) {
      overlay.appendChild(svgEl('circle', {
        class: 'ring selected', cx: from.x, cy: from.y, r,
      }));
      from.el.classList.add('selected');
    }
    for (const m of movesFrom(state.selected)) {
      const to = state.points.get(m.to);
      if (!to) continue;
      overlay.appendChild(svgEl('circle', {
        class: 'ring target' + (m.capture ? ' capture' : ''),
        cx: to.x, cy: to.y, r: m.capture ? r : r * 0.45,
        'data-square': m.to,
      }));
      to.el.classList.add('target');
    }
  }

  /**
   * Shows `move` (a legal move of the shown position) on the board: its
   * marks and, for a capture, its path, taken from `/api/svg?fen=F&move=M`.
   * Only the parts of that picture that the plain picture lacks are copied
   * (the marks, the path and its arrow head), so the board does not flicker.
   */
  async function previewMove(move) {
    const fen = currentFen();
    const token = state.showToken;
    let text;
    try {
      text = await getSvg(fen, move);
    } catch (e) {
      return; // a preview is a nicety: no error shown
    }
    if (token !== state.showToken || state.hovered !== move) return;
    const svg = $('board').querySelector('svg');
    if (!svg) return;
    const preview = svg.querySelector('g.preview');
    const plain = new Set();
    new DOMParser().parseFromString(state.svgText, 'image/svg+xml')
      .documentElement.childNodes.forEach((n) => n.nodeType === 1 && plain.add(n.outerHTML));
    const moved = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    preview.replaceChildren();
    for (const n of Array.from(moved.childNodes)) {
      if (n.nodeType !== 1 || plain.has(n.outerHTML)) continue;
      const tag = n.localName;
      if (tag === 'title' || tag === 'text' || tag === 'rect') continue; // captions, background
      if (n.classList && n.classList.contains('point')) continue; // hit targets
      preview.appendChild(document.importNode(n, true));
    }
    svg.dataset.preview = move;
  }

  /** Removes a move preview. */
  function clearPreview() {
    state.hovered = null;
    const svg = $('board').querySelector('svg');
    if (!svg) return;
    const preview = svg.querySelector('g.preview');
    if (preview) preview.replaceChildren();
    delete svg.dataset.preview;
  }

  /** Starts previewing `move` as the pointer rests on it. */
  function hoverMove(move) {
    if (state.hovered === move) return;
    state.hovered = move;
    if (move) previewMove(move);
    else clearPreview();
  }

  // ---------------------------------------------------------------------
  // Showing a position
  // ---------------------------------------------------------------------

  /** Shows plies[cursor]: board, lists, panels and the address. */
  function showPosition() {
    return showPositionNow().catch((e) => setStatus('Error: ' + e.message, true));
  }

  async function showPositionNow() {
    const token = ++state.showToken;
    const fen = currentFen();
    state.selected = null;
    state.hovered = null;
    state.info = null; // no clicks on the old position while the new one loads
    if (state.analysis && state.analysis.fen !== fen) stopAnalysis('stopped: new position');
    renderMoveList();
    $('fen-input').value = fen;
    $('board').setAttribute('aria-busy', 'true');

    let info;
    let svgText;
    try {
      [info, svgText] = await Promise.all([getPosition(fen), getSvg(fen)]);
    } catch (e) {
      if (token !== state.showToken) return;
      setStatus('Error: ' + e.message, true);
      $('board').removeAttribute('aria-busy');
      return;
    }
    if (token !== state.showToken) return; // a later call took over

    state.info = info;
    state.svgText = svgText;
    // The server writes the notation canonically; keep its form.
    state.plies[state.cursor].fen = info.fen;
    $('fen-input').value = info.fen;
    $('fen-error').textContent = '';
    installSvg(svgText);
    const board = $('board');
    board.dataset.fen = info.fen;
    board.removeAttribute('aria-busy');
    drawOverlay();
    renderMoveList();
    renderStatus();
    renderTablebase(token);
    if (state.firstShownMs === null) state.firstShownMs = performance.now();
    renderEngineIdle();
    updateAddress();
    afterShowInGame();
  }

  /** The status line: whose move, or the result. */
  function renderStatus() {
    const info = state.info;
    if (!info) return;
    const over = gameOutcomeHere();
    if (over) {
      setStatus('Game over: ' + outcomeText(over));
    } else if (info.outcome) {
      setStatus('Game over: ' + outcomeText(info.outcome));
    } else {
      const n = info.moves.length;
      setStatus(sideName(info.side_to_move) + ' to move · ' + n + ' legal move' + (n === 1 ? '' : 's'));
    }
  }

  function setStatus(text, isError) {
    const s = $('status');
    s.textContent = text;
    s.classList.toggle('error', !!isError);
  }

  /**
   * Writes the shown position into the address: ?fen=…, or #fen=… when the
   * page was opened with that (the rest of the address is kept then).
   */
  function updateAddress() {
    // Slashes kept and spaces as '+', so the address stays readable:
    // /?fen=1w4/6/2b3/6/3w2/1b4+b+0+1
    const query = encodeURIComponent(currentFen()).replace(/%2F/g, '/').replace(/%20/g, '+');
    const where = state.addressMark === '#'
      ? window.location.pathname + window.location.search + '#fen=' + query
      : window.location.pathname + '?fen=' + query;
    history.replaceState(null, '', where);
  }

  // ---------------------------------------------------------------------
  // The line of play
  // ---------------------------------------------------------------------

  /** Plays `m` (a move object of the shown position). */
  function playMove(m, byEngine) {
    // Only a move of the position shown now (a stale row or click does nothing).
    if (state.editing || !m || !state.info || !state.info.moves.includes(m)) return;
    if (!byEngine && !humanMayMove()) return;
    const next = state.plies[state.cursor + 1];
    if (next && next.move === m.move) {
      state.cursor += 1; // the same move as the line already has: keep the rest
    } else {
      state.plies.length = state.cursor + 1; // a new branch replaces the rest
      state.plies.push({ fen: m.fen, move: m.move });
      state.cursor += 1;
    }
    showPosition();
  }

  /** Plays `m`, first showing a capture's path for a moment. */
  function playWithPreview(m, byEngine) {
    if (state.editing || !m || !state.info || !state.info.moves.includes(m)) return;
    if (!byEngine && !humanMayMove()) return;
    if (!m.capture) {
      playMove(m, byEngine);
      return;
    }
    const token = state.showToken;
    state.hovered = m.move;
    previewMove(m.move).then(() => {
      setTimeout(() => {
        if (token === state.showToken) playMove(m, byEngine);
      }, CAPTURE_PREVIEW_MS);
    });
  }

  function goTo(ply) {
    if (ply < 0 || ply >= state.plies.length || ply === state.cursor) return;
    state.cursor = ply;
    showPosition();
  }

  const undo = () => goTo(state.cursor - 1);
  const redo = () => goTo(state.cursor + 1);

  /** Starts a new line at `fen`. */
  function newRoot(fen) {
    state.plies = [{ fen, move: null }];
    state.cursor = 0;
    return showPosition();
  }

  /** The move list: numbered pairs, each ply a button that jumps there. */
  function renderMoveList() {
    const list = $('move-list');
    list.replaceChildren();
    list.appendChild(el('button', {
      type: 'button', class: 'ply start' + (state.cursor === 0 ? ' current' : ''),
      'data-ply': 0, 'aria-current': state.cursor === 0 ? 'true' : null,
      onclick: () => goTo(0),
    }, 'start'));
    for (let i = 1; i < state.plies.length; i++) {
      const before = fenFields(state.plies[i - 1].fen);
      if (before.side === 'b') {
        list.appendChild(el('span', { class: 'num' }, before.number + '.'));
      } else if (i === 1) {
        list.appendChild(el('span', { class: 'num' }, before.number + '…'));
      }
      const current = i === state.cursor;
      list.appendChild(el('button', {
        type: 'button', class: 'ply' + (current ? ' current' : ''),
        'data-ply': i, 'aria-current': current ? 'true' : null,
        title: 'Go to the position after this move',
        onclick: () => goTo(i),
      }, state.plies[i].move));
    }
    $('undo').disabled = state.cursor === 0;
    $('first').disabled = state.cursor === 0;
    $('redo').disabled = state.cursor >= state.plies.length - 1;
    $('last').disabled = state.cursor >= state.plies.length - 1;
    const cur = list.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  // ---------------------------------------------------------------------
  // Clicking the board
  // ---------------------------------------------------------------------

  function onBoardClick(event) {
    const point = event.target.closest && event.target.closest('[data-square]');
    if (!point || !$('board').contains(point)) return;
    const sq = point.getAttribute('data-square');
    if (state.editing) {
      cycleEditCell(sq);
      return;
    }
    if (!state.info || !humanMayMove()) return;
    if (state.selected) {
      const m = state.info.moves.find((x) => x.from === state.selected && x.to === sq);
      if (m) {
        state.selected = null;
        drawOverlay();
        playWithPreview(m);
        return;
      }
    }
    // Pick up a piece that can move; anything else just drops the selection.
    if (sq !== state.selected && movesFrom(sq).length > 0) state.selected = sq;
    else state.selected = null;
    clearPreview();
    drawOverlay();
  }

  function onBoardOver(event) {
    if (state.editing || !state.selected || !state.info) return;
    const point = event.target.closest && event.target.closest('[data-square]');
    const sq = point ? point.getAttribute('data-square') : null;
    const m = sq && state.info.moves.find((x) => x.from === state.selected && x.to === sq);
    hoverMove(m ? m.move : null);
  }

  // ---------------------------------------------------------------------
  // Tablebase panel
  // ---------------------------------------------------------------------

  function renderTablebase(token) {
    const info = state.info;
    const body = $('tb-moves').querySelector('tbody');
    body.replaceChildren();
    const valueBox = $('tb-value');
    const lineBox = $('tb-line');
    lineBox.textContent = '';
    const covered = info.value !== null && info.value !== undefined;
    const panel = $('tb-panel');
    panel.classList.toggle('no-tables', !covered);

    if (info.outcome) {
      valueBox.textContent = 'Game over: ' + outcomeText(info.outcome) + '.';
    } else if (covered) {
      valueBox.replaceChildren(
        sideName(info.side_to_move) + ' to move: ',
        el('strong', { class: 'wdl ' + info.value.wdl }, valueText(info.value)),
        info.value.wdl === 'draw' ? '' : ' (DTC, plies to conversion)');
    } else {
      valueBox.textContent = 'No tables for this position.';
    }

    for (const m of info.moves) {
      const v = m.value;
      const row = el('tr', {
        class: 'tb-row' + (v ? ' ' + v.wdl : ''), 'data-move': m.move, tabindex: 0,
        title: 'Play ' + m.move,
        onclick: () => playWithPreview(m),
        onkeydown: (e) => { if (e.key === 'Enter') playWithPreview(m); },
        onmouseenter: () => hoverMove(m.move),
        onmouseleave: () => hoverMove(null),
      },
      el('td', { class: 'mv' }, m.move),
      el('td', { class: 'wdl' }, v ? v.wdl : '—'),
      el('td', { class: 'dtc' }, v && v.dtc !== null && v.dtc !== undefined ? String(v.dtc) : '—'));
      body.appendChild(row);
    }
    $('tb-moves').hidden = info.moves.length === 0;

    if (info.outcome) return;
    if (!covered) {
      lineBox.textContent = 'Conversion line: no tables.';
      return;
    }
    lineBox.textContent = 'Conversion line: …';
    backend.probe(info.fen).then((probe) => {
      if (token !== state.showToken) return;
      const line = probe.line || [];
      lineBox.replaceChildren('Conversion line: ',
        line.length ? moveTokens(line, 'line-moves') : '—');
    }, (e) => {
      if (token !== state.showToken) return;
      lineBox.textContent = e.status === 404 ? 'Conversion line: no tables.' : 'Conversion line: ' + e.message;
    });
  }

  // ---------------------------------------------------------------------
  // Engine panel
  // ---------------------------------------------------------------------

  /** Starts an analysis of the shown position. */
  function startAnalysis() {
    if (state.editing || !state.info || gameRunning()) return;
    stopAnalysis(null);
    const fen = state.info.fen;
    const movetime = $('engine-movetime').value;
    const a = { fen, handle: null };
    state.analysis = a;
    $('engine-lines').querySelector('tbody').replaceChildren();
    $('engine-best').textContent = '';
    setEngineState('running', 'running…');

    a.handle = backend.analyse(fen, { movetime }, {
      info(d) {
        if (state.analysis !== a) return;
        const row = el('tr', { class: 'iteration' },
          el('td', {}, String(d.depth)),
          el('td', { class: 'score', title: SCORE_HELP }, scoreText(d.score, fenFields(fen).side)),
          el('td', {}, d.nodes !== undefined ? d.nodes.toLocaleString('en') : ''),
          el('td', { class: 'pv' }, moveTokens(d.pv || [])));
        const body = $('engine-lines').querySelector('tbody');
        body.insertBefore(row, body.firstChild); // newest on top
        setEngineState('running', 'running… depth ' + d.depth);
      },
      bestmove(d) {
        if (state.analysis !== a) return;
        state.analysis = null;
        const best = $('engine-best');
        if (d.move) {
          const m = state.info && state.info.fen === fen && state.info.moves.find((x) => x.move === d.move);
          best.replaceChildren('Best move: ',
            el('button', {
              type: 'button', class: 'linkish best-move', 'data-move': d.move,
              title: 'Play it', disabled: !m,
              onclick: () => m && playWithPreview(m),
              onmouseenter: () => m && hoverMove(d.move),
              onmouseleave: () => hoverMove(null),
            }, d.move),
            ' · ' + scoreText(d.score, fenFields(fen).side) + (d.depth ? ' · depth ' + d.depth : ''));
        } else {
          best.textContent = 'No move: the game is over.';
        }
        setEngineState('done', 'done');
      },
      error(message) {
        if (state.analysis !== a) return;
        state.analysis = null;
        setEngineState('error', message);
      },
    });
  }

  /** Stops the running analysis. */
  function stopAnalysis(message) {
    const a = state.analysis;
    if (!a) return;
    state.analysis = null;
    a.handle.stop();
    if (message) setEngineState('stopped', message);
  }

  function setEngineState(kind, text) {
    const s = $('engine-state');
    s.textContent = text;
    s.dataset.state = kind;
    const running = kind === 'running';
    $('engine-start').disabled = running || state.editing || gameRunning();
    $('engine-stop').disabled = !running;
  }

  /** After a move: the old analysis lines no longer belong here. */
  function renderEngineIdle() {
    if (state.analysis) return;
    $('engine-lines').querySelector('tbody').replaceChildren();
    $('engine-best').textContent = '';
    const s = $('engine-state');
    if (s.dataset.state === 'running' || s.dataset.state === 'done') setEngineState('idle', 'idle');
    else setEngineState(s.dataset.state || 'idle', s.textContent);
  }

  // ---------------------------------------------------------------------
  // Playing the computer
  // ---------------------------------------------------------------------

  /** A game is on: started and not over. */
  const gameRunning = () => !!(state.game && !state.game.over);

  /**
   * May the person play a move on the shown position? Always outside a
   * game; in a game only at its last position, on their turn, while the
   * engine is not thinking.
   */
  function humanMayMove() {
    const g = state.game;
    if (!g || g.over) return true;
    return !g.thinking && state.cursor === state.plies.length - 1 && state.info
      && state.info.side_to_move[0] === g.human;
  }

  /** The engine's strength chosen in the Play panel: {movetime} or {depth}. */
  function chosenStrength() {
    // A level selector (named engine levels) will join this one; until the
    // engine has levels, the strength is a search limit of docs/serve.md.
    const [kind, value] = $('play-strength').value.split(':');
    return kind === 'depth' ? { depth: Number(value), movetime: 10000 } : { movetime: Number(value) };
  }

  /**
   * The game's end at the shown position that the position alone does not
   * tell: resignation, or the rules' repetition (counted over the game's
   * line, adjudicated by piece count). Null if none.
   */
  function gameOutcomeHere() {
    const g = state.game;
    if (!g || !state.info) return null;
    if (g.over) return state.cursor === g.endPly ? g.over : null;
    if (state.cursor < g.start) return null;
    const key = (fen) => { const f = fenFields(fen); return f.board + ' ' + f.side; };
    const here = key(state.plies[state.cursor].fen);
    let seen = 0;
    for (let i = g.start; i <= state.cursor; i++) if (key(state.plies[i].fen) === here) seen++;
    if (seen < 3) return null;
    const b = state.info.black.length;
    const w = state.info.white.length;
    const winner = b > w ? 'black' : w > b ? 'white' : null;
    return { result: winner === 'black' ? '1-0' : winner === 'white' ? '0-1' : '1/2-1/2', winner, reason: 'repetition' };
  }

  /** After a position is shown: end the game, or let the engine reply. */
  function afterShowInGame() {
    const g = state.game;
    renderPlayPanel();
    if (!g || g.over || state.cursor !== state.plies.length - 1) return;
    const over = state.info.outcome || gameOutcomeHere();
    if (over) {
      g.over = over;
      g.endPly = state.cursor;
      renderStatus();
      renderPlayPanel();
      return;
    }
    if (state.info.side_to_move[0] !== g.human && !g.thinking) engineReply();
  }

  /** Asks the back end for the engine's move in the last position and plays it. */
  function engineReply() {
    const g = state.game;
    const fen = state.info.fen;
    const t = { fen, handle: null, score: null };
    g.thinking = t;
    renderPlayPanel();
    t.handle = backend.analyse(fen, g.strength, {
      info(d) { if (g.thinking === t) t.score = d.score; },
      bestmove(d) {
        if (g.thinking !== t) return;
        g.thinking = null;
        const m = d.move && state.info && state.info.fen === fen && state.info.moves.find((x) => x.move === d.move);
        if (!m) {
          renderPlayPanel();
          return;
        }
        g.lastScore = { score: d.score || t.score, side: fenFields(fen).side };
        playWithPreview(m, true);
      },
      error(message) {
        if (g.thinking !== t) return;
        g.thinking = null;
        renderPlayPanel();
        $('play-state').textContent = 'The engine could not move: ' + message;
        $('play-state').dataset.state = 'error';
      },
    });
  }

  function stopThinking() {
    const g = state.game;
    if (!g || !g.thinking) return;
    const t = g.thinking;
    g.thinking = null;
    t.handle.stop();
  }

  /** Starts a game from the start position or the position shown. */
  async function newGame() {
    if (state.editing) return;
    stopAnalysis('stopped: a game began');
    stopThinking();
    let human = $('play-colour').value;
    if (human === 'random') human = Math.random() < 0.5 ? 'b' : 'w';
    const from = $('play-from').value === 'shown' && state.info ? state.info.fen : START_FEN;
    state.game = {
      human, start: 0, strength: chosenStrength(), over: null, endPly: -1, thinking: null, lastScore: null,
    };
    setFlipped(human === 'w');
    // The game's clock of moves starts here: the line before it is dropped.
    await newRoot(from);
  }

  /** Leaves the game (a position loaded by hand): the board is for analysis. */
  function endGameForAnalysis() {
    stopThinking();
    state.game = null;
  }

  /** Resigns the game for the person. */
  function resign() {
    const g = state.game;
    if (!gameRunning()) return;
    stopThinking();
    const winner = g.human === 'b' ? 'white' : 'black';
    g.over = { result: winner === 'black' ? '1-0' : '0-1', winner, reason: 'resignation' };
    g.endPly = state.plies.length - 1;
    goTo(g.endPly);
    renderStatus();
    renderPlayPanel();
  }

  /** The index of the person's last move in the game's line, or -1. */
  function lastHumanMove() {
    const g = state.game;
    for (let i = state.plies.length - 1; i > g.start; i--) {
      if (fenFields(state.plies[i - 1].fen).side === g.human) return i;
    }
    return -1;
  }

  /** Takes back the person's last move and the engine's reply. */
  /**
   * Take back is possible during a game, and after one its rules ended
   * (not a resignation) while no analysis moves were added.
   */
  function canTakeBack() {
    const g = state.game;
    if (!g || lastHumanMove() < 0) return false;
    return !g.over || (g.over.reason !== 'resignation' && state.plies.length - 1 === g.endPly);
  }

  function takeBack() {
    const g = state.game;
    if (!canTakeBack()) return;
    const i = lastHumanMove();
    stopThinking();
    g.over = null;
    state.plies.length = i;
    state.cursor = i - 1;
    showPosition();
  }

  function renderPlayPanel() {
    const g = state.game;
    const box = $('play-state');
    $('play-resign').disabled = !gameRunning();
    $('play-takeback').disabled = !canTakeBack();
    const running = gameRunning();
    $('engine-start').disabled = running || state.editing || !!state.analysis;
    $('edit-toggle').disabled = running;
    if (!g) {
      box.dataset.state = 'idle';
      box.textContent = 'No game: the board is for analysis.';
      return;
    }
    const you = 'You play ' + sideName(g.human) + '. ';
    if (g.over) {
      box.dataset.state = 'over';
      box.textContent = 'Game over: ' + outcomeText(g.over) + '. The board is for analysis again.';
    } else if (g.thinking) {
      box.dataset.state = 'thinking';
      box.textContent = you + 'The engine is thinking…';
    } else if (state.cursor !== state.plies.length - 1) {
      box.dataset.state = 'away';
      box.textContent = you + 'Go to the last move (End) to play on.';
    } else {
      box.dataset.state = 'your-move';
      let text = you + 'Your move.';
      if (g.lastScore) text += ' The engine reckons ' + scoreText(g.lastScore.score, g.lastScore.side) + '.';
      box.textContent = text;
    }
  }

  // ---------------------------------------------------------------------
  // Flipping the board
  // ---------------------------------------------------------------------

  function setFlipped(on) {
    state.flipped = !!on;
    try { localStorage.setItem('surakarta.flipped', state.flipped ? '1' : '0'); } catch (e) { /* private mode */ }
    $('flip').setAttribute('aria-pressed', state.flipped ? 'true' : 'false');
  }

  function toggleFlip() {
    setFlipped(!state.flipped);
    if (state.editing) drawEditBoard();
    else if (state.svgText) {
      installSvg(state.svgText);
      drawOverlay();
    }
  }

  // ---------------------------------------------------------------------
  // Board editor
  // ---------------------------------------------------------------------

  function enterEditor() {
    if (state.editing || !state.info || gameRunning()) return;
    stopAnalysis('stopped: editing');
    state.editing = true;
    state.selected = null;
    clearPreview();
    const cells = new Array(36).fill('.');
    for (const sq of state.info.black) cells[squareIndex(sq)] = 'b';
    for (const sq of state.info.white) cells[squareIndex(sq)] = 'w';
    state.edit = { cells, side: state.info.side_to_move === 'white' ? 'w' : 'b' };
    document.querySelector(`input[name="edit-side"][value="${state.edit.side}"]`).checked = true;
    $('edit-error').textContent = '';
    $('editor').hidden = false;
    $('nav-bar').hidden = true;
    document.body.classList.add('editing');
    $('engine-start').disabled = true;
    setStatus('Editing the board: click points, choose the side to move, then Done');
    drawEditBoard();
  }

  function leaveEditor() {
    state.editing = false;
    $('editor').hidden = true;
    $('nav-bar').hidden = false;
    document.body.classList.remove('editing');
    $('engine-start').disabled = gameRunning();
    renderStatus();
  }

  /** The editor's placement in position notation (side to move added). */
  function editFen() {
    const ranks = [];
    for (let r = 5; r >= 0; r--) {
      let s = '';
      let empty = 0;
      for (let f = 0; f < 6; f++) {
        const c = state.edit.cells[6 * r + f];
        if (c === '.') { empty++; continue; }
        if (empty) { s += empty; empty = 0; }
        s += c;
      }
      if (empty) s += empty;
      ranks.push(s);
    }
    return ranks.join('/') + ' ' + state.edit.side + ' 0 1';
  }

  /**
   * Draws the editor's pieces on the shown picture: the picture's own
   * pieces are removed and circles drawn at the points, in the colours the
   * picture used (so any placement can be shown, valid or not).
   */
  function drawEditBoard() {
    const svg = installSvg(state.svgText);
    const style = {};
    for (const colour of ['black', 'white']) {
      const sample = svg.querySelector('circle.piece.' + colour);
      style[colour] = sample ? {
        fill: sample.getAttribute('fill'), stroke: sample.getAttribute('stroke'),
        'stroke-width': sample.getAttribute('stroke-width') || '2', r: sample.getAttribute('r'),
      } : null;
    }
    const r = pointSpacing() * 0.32;
    style.black = style.black || { fill: '#1e1e1e', stroke: '#000', 'stroke-width': 2, r };
    style.white = style.white || { fill: '#fbfbf6', stroke: '#2a2a2a', 'stroke-width': 2, r };
    svg.querySelectorAll('.piece, .mark, .capture-path').forEach((n) => n.remove());
    const caption = svg.querySelector('text.caption');
    if (caption) caption.textContent = 'editing · ' + sideName(state.edit.side) + ' to move';
    const layer = svgEl('g', { class: 'edit-pieces' });
    const preview = svg.querySelector('g.preview');
    preview.parentNode.insertBefore(layer, preview);
    for (let i = 0; i < 36; i++) {
      const c = state.edit.cells[i];
      const p = state.points.get(squareName(i));
      if (c === '.' || !p) continue;
      const colour = c === 'b' ? 'black' : 'white';
      const st = style[colour];
      layer.appendChild(svgEl('circle', {
        class: 'piece ' + colour, cx: p.x, cy: p.y, r: st.r || r,
        fill: st.fill, stroke: st.stroke, 'stroke-width': st['stroke-width'],
      }));
    }
    drawOverlay();
  }

  function cycleEditCell(sq) {
    const i = squareIndex(sq);
    const next = { '.': 'b', b: 'w', w: '.' };
    state.edit.cells[i] = next[state.edit.cells[i]];
    $('edit-error').textContent = '';
    drawEditBoard();
  }

  async function finishEditor() {
    const fen = editFen();
    try {
      const info = await getPosition(fen);
      leaveEditor();
      await newRoot(info.fen);
    } catch (e) {
      $('edit-error').textContent = e.message;
    }
  }

  // ---------------------------------------------------------------------
  // The position box
  // ---------------------------------------------------------------------

  async function loadFromBox(event) {
    if (event) event.preventDefault();
    const text = $('fen-input').value.trim();
    const box = $('fen-error');
    if (!text) {
      box.textContent = 'Type or paste a position, like ' + START_FEN;
      return;
    }
    try {
      const info = await getPosition(text);
      box.textContent = '';
      if (state.editing) leaveEditor();
      endGameForAnalysis();
      await newRoot(info.fen);
    } catch (e) {
      box.textContent = e.message;
    }
  }

  // ---------------------------------------------------------------------
  // Wiring
  // ---------------------------------------------------------------------

  function onKey(event) {
    const t = event.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (state.editing) return;
    switch (event.key) {
      case 'ArrowLeft': undo(); break;
      case 'ArrowRight': redo(); break;
      case 'Home': goTo(0); break;
      case 'End': goTo(state.plies.length - 1); break;
      case 'Escape': state.selected = null; clearPreview(); drawOverlay(); return;
      case 'f': case 'F': toggleFlip(); break;
      default: return;
    }
    event.preventDefault();
  }

  async function main() {
    backend.onStatus = (text) => { $('backend-status').textContent = text; };
    const board = $('board');
    board.addEventListener('click', onBoardClick);
    board.addEventListener('mouseover', onBoardOver);
    board.addEventListener('mouseleave', () => hoverMove(null));
    $('undo').addEventListener('click', undo);
    $('redo').addEventListener('click', redo);
    $('first').addEventListener('click', () => goTo(0));
    $('last').addEventListener('click', () => goTo(state.plies.length - 1));
    $('fen-form').addEventListener('submit', loadFromBox);
    $('engine-start').addEventListener('click', startAnalysis);
    $('engine-stop').addEventListener('click', () => stopAnalysis('stopped'));
    $('edit-toggle').addEventListener('click', enterEditor);
    $('edit-cancel').addEventListener('click', () => { leaveEditor(); showPosition(); });
    $('edit-done').addEventListener('click', finishEditor);
    $('edit-clear').addEventListener('click', () => {
      state.edit.cells.fill('.');
      drawEditBoard();
    });
    $('edit-start').addEventListener('click', () => {
      const cells = new Array(36).fill('.');
      for (let i = 0; i < 12; i++) { cells[i] = 'b'; cells[24 + i] = 'w'; }
      state.edit = { cells, side: 'b' };
      document.querySelector('input[name="edit-side"][value="b"]').checked = true;
      drawEditBoard();
    });
    document.querySelectorAll('input[name="edit-side"]').forEach((r) => r.addEventListener('change', () => {
      state.edit.side = r.value;
      drawEditBoard();
    }));
    $('flip').addEventListener('click', toggleFlip);
    $('play-new').addEventListener('click', newGame);
    $('play-resign').addEventListener('click', resign);
    $('play-takeback').addEventListener('click', takeBack);
    $('rules-name').textContent = RULES.name;
    $('rules-name').title = RULES.text;
    try { setFlipped(localStorage.getItem('surakarta.flipped') === '1'); } catch (e) { setFlipped(false); }
    renderPlayPanel();
    document.addEventListener('keydown', onKey);
    window.addEventListener('pagehide', () => { stopAnalysis(null); stopThinking(); });

    // The address may name a position: ?fen=… (or #fen=…, which a static
    // host never sees).
    const inQuery = new URLSearchParams(window.location.search).get('fen');
    const inHash = new URLSearchParams(window.location.hash.slice(1)).get('fen');
    if (!inQuery && inHash) state.addressMark = '#';
    const asked = inQuery || inHash;
    if (asked) {
      try {
        const info = await getPosition(asked);
        await newRoot(info.fen);
        return;
      } catch (e) {
        await newRoot(START_FEN);
        $('fen-input').value = asked;
        $('fen-error').textContent = 'The address names no valid position: ' + e.message;
        return;
      }
    }
    await newRoot(START_FEN);
  }

  // For the browser test and the curious: a read-only look at the state.
  window.surakartaBoard = {
    get backend() { return backend.kind; },
    get firstShownMs() { return state.firstShownMs; }, // from navigation to the first board drawn
    get fen() { return state.info ? state.info.fen : null; },
    get plies() { return state.plies.map((p) => ({ fen: p.fen, move: p.move })); },
    get cursor() { return state.cursor; },
    get analysing() { return !!state.analysis; },
    get flipped() { return state.flipped; },
    get game() {
      const g = state.game;
      return g && { human: g.human, over: g.over, thinking: !!g.thinking };
    },
  };

  document.addEventListener('DOMContentLoaded', main);
})();
