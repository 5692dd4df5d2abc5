// The analysis board of `surakarta serve` and of the static site: the
// page's behaviour.
//
// Everything the page knows about the game comes from its back end
// (backend.js: the server's JSON API of docs/serve.md, or the same answers
// from WebAssembly in the page): each position with its legal moves, their
// tablebase values and, judged by the game's rules over its moves, whether
// the game is over there (`position`); the conversion line (`probe`); the
// engine (`analyse`); records read and written (`parseRecord`,
// `writeRecord`); a whole game judged (`analyseGame`); and the picture of
// the board (`svg`, the same drawing `surakarta show --svg` writes).
//
// The page keeps the moves as a tree (tree.js: the main line and its
// variations), which node is shown, a game against the engine if one is on
// (its moves are the tree's main line from where it began, the engine's
// replies are analyses of the back end at a strength level, with an
// optional clock), and the last game analysis (drawn by analysis-view.js).
//
// No framework and no build step: plain DOM code (tree.js, analysis-view.js,
// then this file).

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
  /** The longest record text the page reads (the record reader's own limit is larger). */
  const MAX_RECORD_CHARS = 4 * 1024 * 1024;
  /** The most moves an address may carry. */
  const MAX_ADDRESS_MOVES = 2000;
  /** The longest think the page asks of the engine in a game (the server's default cap). */
  const MAX_THINK_MS = 30000;
  const Tree = window.SurakartaTree;
  const View = window.SurakartaAnalysisView;

  /** The rule sets the page offers (docs/rules.md): where they differ. */
  const RULES = {
    icga: { name: 'ICGA', text: 'the third occurrence of a position, or 50 plies without a capture, ends the game; then the side with more pieces wins (equal: a draw)' },
    pku: { name: 'PKU', text: '40 plies without a capture end the game, then the side with more pieces wins (equal: a draw); no repetition rule' },
    pure: { name: 'pure', text: 'no repetition or no-capture limit: only a side without pieces or moves ends the game' },
  };

  const state = {
    tree: Tree.newTree(START_FEN, 'icga'),
    node: null, // the node shown
    lineEnd: null, // the last node of the line the arrows follow
    info: null, // the position answer for the node shown
    svgText: '', // the SVG of the position shown (no move highlighted)
    points: new Map(), // square -> {x, y, el}: the hit targets of the board
    selected: null, // square of the piece picked up, or null
    hovered: null, // the move previewed on the board, or null
    showToken: 0, // bumped on every showPosition(); stale answers are dropped
    firstShownMs: null, // performance.now() when the first position was drawn
    analysis: null, // {fen, handle} while an analysis runs (handle.stop() ends it)
    editing: false,
    edit: { cells: new Array(36).fill('.'), side: 'b' },
    // How the address names the game: '?' (?fen=… / ?moves=…) or '#' (which
    // never reaches the host); the page keeps the form it was opened with.
    addressMark: '?',
    // The board seen from White's side (a1 top right); kept in localStorage.
    flipped: false,
    // A game against the engine, or null (see newGame).
    game: null,
    // The last game analysis: {result, nodes (the main line analysed, root
    // first)}, or a running one {handle, progress}.
    review: null,
    reviewRun: null,
  };
  state.node = state.tree.root;
  state.lineEnd = state.tree.root;

  // Caches: answers depend only on the question, so each is asked once.
  const positionCache = new Map(); // rules|start|moves -> Promise<position JSON>
  const svgCache = new Map(); // fen|move -> Promise<svg text>

  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------------
  // Talking to the back end (backend.js: the server, or WebAssembly)
  // ---------------------------------------------------------------------

  const backend = window.SurakartaBackend.current;

  /** The back end's call `name`, or an error saying it is missing (an older back end). */
  function call(name) {
    if (typeof backend[name] !== 'function') throw new Error('this back end cannot do that (' + name + ' is missing)');
    return backend[name].bind(backend);
  }

  /** The contract's game object of the position at `node`. */
  function gameAt(node) {
    return { rules: state.tree.rules, start: state.tree.start, moves: Tree.movesTo(node) };
  }

  /**
   * Whether the back end answers positions as games (its answers name the
   * rules): then a node's answer needs no notation. An older back end
   * answers the notation alone, so a node whose notation is not known yet
   * takes it from its parent's answer (the legal move's `fen`).
   */
  let answersGames = false;

  async function nodeFen(node) {
    if (node.fen || answersGames || !node.parent) return node.fen;
    const before = await nodePosition(node.parent);
    const m = before.moves.find((x) => x.move === node.move
      || x.from + x.to === node.move.replace(/[-x]/, ''));
    if (!m) throw new Error(node.move + ': not a legal move in ' + before.fen);
    node.fen = m.fen;
    return m.fen;
  }

  /** The position at `node` of the tree, judged over its game (cached). */
  function nodePosition(node) {
    const game = gameAt(node);
    const key = game.rules + '|' + game.start + '|' + game.moves.join(',');
    if (!positionCache.has(key)) {
      const p = nodeFen(node).then((fen) => backend.position(fen || game.start, { game })).then((info) => {
        if (info && info.rules) answersGames = true;
        return info;
      });
      positionCache.set(key, p);
      p.catch(() => positionCache.delete(key)); // errors are not cached
    }
    return positionCache.get(key);
  }

  /** A position alone, from its notation (the box, the editor): no history. */
  const fenPosition = (fen) => backend.position(fen);

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

  /** The notation of the position shown (null while it loads). */
  const currentFen = () => (state.info ? state.info.fen : state.node.fen);

  /** A clock's time as m:ss (tenths under ten seconds). */
  function clockText(ms) {
    const t = Math.max(0, ms);
    if (t < 10000) return '0:0' + (t / 1000).toFixed(1);
    const s = Math.floor(t / 1000);
    return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
  }

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
    const last = state.node.move;
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

  /** Shows the node `state.node`: board, lists, panels and the address. */
  function showPosition() {
    return showPositionNow().catch((e) => setStatus('Error: ' + e.message, true));
  }

  async function showPositionNow() {
    const token = ++state.showToken;
    const node = state.node;
    state.selected = null;
    state.hovered = null;
    state.info = null; // no clicks on the old position while the new one loads
    if (state.game) renderPlayPanel();
    if (state.analysis && state.analysis.node !== node) stopAnalysis('stopped: new position');
    renderMoveList();
    if (node.fen) $('fen-input').value = node.fen;
    $('board').setAttribute('aria-busy', 'true');

    let info;
    let svgText;
    try {
      // With the notation known, the picture is asked at the same time.
      const svgAsked = node.fen ? getSvg(node.fen) : null;
      info = await nodePosition(node);
      svgText = await (svgAsked && node.fen === info.fen ? svgAsked : getSvg(info.fen));
    } catch (e) {
      if (token !== state.showToken) return;
      setStatus('Error: ' + e.message, true);
      $('board').removeAttribute('aria-busy');
      return;
    }
    if (token !== state.showToken) return; // a later call took over

    state.info = info;
    state.svgText = svgText;
    // The back end writes the notation canonically; keep its form.
    node.fen = info.fen;
    $('fen-input').value = info.fen;
    $('fen-error').textContent = '';
    installSvg(svgText);
    const board = $('board');
    board.dataset.fen = info.fen;
    board.dataset.node = String(node.id);
    board.removeAttribute('aria-busy');
    drawOverlay();
    renderMoveList();
    renderStatus();
    renderTablebase(token);
    if (state.firstShownMs === null) state.firstShownMs = performance.now();
    renderEngineIdle();
    renderReviewCursor();
    updateAddress();
    afterShowInGame();
  }

  /** The status line: whose move, or the result. */
  function renderStatus() {
    const info = state.info;
    if (!info) return;
    const over = gameOverHere();
    if (over) {
      setStatus('Game over: ' + outcomeText(over));
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

  // ---------------------------------------------------------------------
  // The address: the game (start, moves, ply, rules) or a position
  // ---------------------------------------------------------------------

  /** A value for the address: slashes kept, spaces as '+', so it stays readable. */
  const addressValue = (text) => encodeURIComponent(text).replace(/%2F/g, '/').replace(/%20/g, '+').replace(/%2C/g, ',');

  /**
   * Writes the shown game into the address: `fen=F` while the tree holds
   * no move (a position alone, as links always had), otherwise
   * `game=START&moves=M1,M2,…&ply=N` (START empty for the start position,
   * `ply` absent at the line's end, `rules=` unless ICGA): the line the
   * arrows follow, at the node shown. In the form the page was opened with
   * (`#…` keeps the rest of the address; `?…` replaces it).
   */
  function updateAddress() {
    const tree = state.tree;
    const parts = [];
    if (!tree.root.children.length && !state.node.parent) {
      parts.push('fen=' + addressValue(state.node.fen || tree.start));
      if (tree.rules !== 'icga') parts.push('rules=' + tree.rules);
    } else {
      const line = Tree.movesTo(state.lineEnd);
      parts.push('game=' + (tree.start === START_FEN ? '' : addressValue(tree.start)));
      parts.push('moves=' + line.join(','));
      const d = Tree.depth(state.node);
      if (d !== line.length) parts.push('ply=' + d);
      if (tree.rules !== 'icga') parts.push('rules=' + tree.rules);
    }
    const query = parts.join('&');
    const where = state.addressMark === '#'
      ? window.location.pathname + window.location.search + '#' + query
      : window.location.pathname + '?' + query;
    history.replaceState(null, '', where);
  }

  /**
   * The game an address names, or null: {start, moves, ply, rules} from
   * `game=`/`moves=` (checked for form here, for legality by the back end)
   * or {start: fen} from `fen=`. Throws with a readable message.
   */
  function readAddress(params) {
    const rules = params.get('rules') || 'icga';
    if (!RULES[rules]) throw new Error('unknown rule set "' + rules.slice(0, 20) + '" (icga, pku or pure)');
    if (params.has('moves') || params.has('game')) {
      const text = params.get('moves') || '';
      const moves = text ? text.split(',') : [];
      if (moves.length > MAX_ADDRESS_MOVES) throw new Error('more than ' + MAX_ADDRESS_MOVES + ' moves');
      for (const m of moves) {
        if (!/^[a-f][1-6][-x]?[a-f][1-6]$/.test(m)) throw new Error('"' + m.slice(0, 12) + '" is not a move (like b2-b3)');
      }
      const plyText = params.get('ply');
      let ply = moves.length;
      if (plyText !== null) {
        if (!/^\d{1,5}$/.test(plyText) || Number(plyText) > moves.length) throw new Error('ply ' + plyText.slice(0, 12) + ' is not in 0..' + moves.length);
        ply = Number(plyText);
      }
      return { start: params.get('game') || START_FEN, moves, ply, rules };
    }
    if (params.has('fen')) return { start: params.get('fen'), moves: [], ply: 0, rules, fenOnly: true };
    return null;
  }

  /** Opens the game of the address; false (with the error shown) if it names no valid game. */
  async function openAddressGame(g) {
    try {
      if (g.fenOnly) {
        const info = await fenPosition(g.start);
        await newRoot(info.fen, g.rules);
        return true;
      }
      const start = (await fenPosition(g.start)).fen;
      const tree = Tree.newTree(start, g.rules);
      let node = tree.root;
      for (const m of g.moves) node = Tree.addMove(tree, node, m);
      // The back end checks every move of the line by answering its end.
      await nodePositionIn(tree, node);
      state.tree = tree;
      state.lineEnd = node;
      state.node = Tree.pathTo(node)[g.ply];
      syncRulesChoice();
      clearReview();
      await showPosition();
      return true;
    } catch (e) {
      await newRoot(START_FEN);
      $('fen-input').value = g.start;
      $('fen-error').textContent = 'The address names no valid ' + (g.fenOnly ? 'position' : 'game') + ': ' + e.message;
      return false;
    }
  }

  /**
   * The position at `node` of another tree (not shown yet): checks its
   * moves (an older back end: move by move from the start).
   */
  async function nodePositionIn(tree, node) {
    const game = { rules: tree.rules, start: tree.start, moves: Tree.movesTo(node) };
    const info = await backend.position(tree.start, { game });
    if ((info && info.rules) || !node.parent) return info;
    let at = info;
    for (const n of Tree.pathTo(node).slice(1)) {
      const m = at.moves.find((x) => x.move === n.move || x.from + x.to === n.move.replace(/[-x]/, ''));
      if (!m) throw new Error(n.move + ': not a legal move in ' + at.fen);
      n.fen = m.fen;
      at = await backend.position(m.fen);
    }
    return at;
  }

  // ---------------------------------------------------------------------
  // The moves: playing and moving about the tree
  // ---------------------------------------------------------------------

  /**
   * Plays `m` (a move object of the shown position): goes to the child
   * that plays it, or adds one (a variation when the node has a
   * continuation already; in a game against the engine its moves become
   * the main line).
   */
  function playMove(m, byEngine) {
    // Only a move of the position shown now (a stale row or click does nothing).
    if (state.editing || !m || !state.info || !state.info.moves.includes(m)) return;
    if (!byEngine && !humanMayMove()) return;
    const g = state.game;
    const inGame = !!(g && !g.over && state.node === g.head);
    let child;
    try {
      child = Tree.addMove(state.tree, state.node, m.move, { fen: m.fen }, inGame);
    } catch (e) {
      setStatus(e.message, true);
      return;
    }
    if (inGame) {
      clockMoveMade(fenFields(state.info.fen).side);
      g.head = child;
    }
    goToNode(child);
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

  /**
   * Plays a line of moves (an engine line up to a move) from the shown
   * node: the moves are added to the tree and the last one shown; the
   * back end checks them as it answers.
   */
  function playLine(moves) {
    if (state.editing || !state.info || gameRunning() || moves.length === 0) return;
    let node = state.node;
    try {
      for (const mv of moves) node = Tree.addMove(state.tree, node, mv);
    } catch (e) {
      setStatus(e.message, true);
      return;
    }
    goToNode(node);
  }

  /** Shows `node`; the arrows follow its line unless it lies on the one they follow. */
  function goToNode(node) {
    if (!node || node === state.node) return;
    if (!Tree.isAncestor(node, state.lineEnd)) {
      const line = Tree.lineThrough(node);
      state.lineEnd = line[line.length - 1];
    }
    state.node = node;
    showPosition();
  }

  /** The next node along the line the arrows follow, or null at its end. */
  function nextOnLine() {
    const n = state.node;
    if (n !== state.lineEnd && Tree.isAncestor(n, state.lineEnd)) {
      return Tree.pathTo(state.lineEnd)[Tree.depth(n) + 1];
    }
    return n.children[0] || null;
  }

  const undo = () => state.node.parent && goToNode(state.node.parent);
  const redo = () => goToNode(nextOnLine());
  const goFirst = () => goToNode(state.tree.root);
  const goLast = () => goToNode(Tree.lineThrough(state.lineEnd).pop());

  /** Starts a new tree at `fen` (under `rules`, or the rules chosen). */
  function newRoot(fen, rules) {
    stopReview();
    state.tree = Tree.newTree(fen, rules || state.tree.rules);
    state.node = state.tree.root;
    state.lineEnd = state.tree.root;
    syncRulesChoice();
    clearReview();
    return showPosition();
  }

  /** Promotes the variation of the node shown to the main line. */
  function promoteVariation() {
    if (gameRunning() || !Tree.variationStart(state.node)) return;
    Tree.promote(state.node);
    clearReview();
    renderMoveList();
    updateAddress();
  }

  /** Deletes the variation the node shown is in (from its first move), going to where it began. */
  function deleteVariation() {
    if (gameRunning()) return;
    const start = Tree.variationStart(state.node);
    if (!start) return;
    const parent = Tree.remove(state.tree, start);
    if (!Tree.isAncestor(state.tree.root, state.lineEnd)) state.lineEnd = Tree.lineThrough(parent).pop();
    state.node = null; // gone: goToNode shows the parent
    goToNode(parent);
  }

  // ---------------------------------------------------------------------
  // The move list: the main line, variations inline in parentheses
  // ---------------------------------------------------------------------

  /** Nested variations deeper than this are shown folded (a hostile record cannot overflow the stack). */
  const MAX_SHOWN_NESTING = 24;

  function renderMoveList() {
    const list = $('move-list');
    list.replaceChildren();
    const tree = state.tree;
    const root = tree.root;
    list.appendChild(el('button', {
      type: 'button', class: 'ply start' + (state.node === root ? ' current' : ''),
      'data-ply': 0, 'data-node': root.id, 'aria-current': state.node === root ? 'true' : null,
      onclick: () => goToNode(root),
    }, 'start'));
    if (tree.intro) list.appendChild(el('span', { class: 'comment' }, tree.intro));
    renderLine(list, root, true, 0);
    const inVariation = !!Tree.variationStart(state.node);
    const running = gameRunning();
    $('undo').disabled = !state.node.parent;
    $('first').disabled = !state.node.parent;
    $('redo').disabled = !nextOnLine();
    $('last').disabled = !nextOnLine();
    $('var-promote').disabled = !inVariation || running;
    $('var-delete').disabled = !inVariation || running;
    renderNodeNote();
    const cur = list.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Writes the line from `from` into `box`: each move, and after it the
   * variations of its position in parentheses (lichess style).
   */
  function renderLine(box, from, main, nesting) {
    let n = from;
    let needNumber = true;
    while (n.children.length) {
      const [next, ...others] = n.children;
      box.appendChild(moveButton(next, main, needNumber));
      needNumber = false;
      if (others.length) {
        for (const v of others) {
          const group = el('span', { class: 'variation', 'data-start': v.id });
          if (nesting >= MAX_SHOWN_NESTING) {
            group.append('( ', el('button', {
              type: 'button', class: 'ply var', 'data-node': v.id, onclick: () => goToNode(v),
            }, v.move + ' …'), ' )');
          } else {
            group.append('(');
            if (v.intro) group.appendChild(el('span', { class: 'comment' }, v.intro));
            group.appendChild(moveButton(v, false, true));
            renderLine(group, v, false, nesting + 1);
            group.append(')');
          }
          box.appendChild(group);
        }
        needNumber = true; // the main line goes on after the variations: number again
      }
      n = next;
    }
  }

  /** One move of the list: its number where needed, the move, its marks. */
  function moveButton(node, main, forceNumber) {
    const frag = document.createDocumentFragment();
    const num = Tree.moveNumber(state.tree, node);
    if (num.black || forceNumber) frag.appendChild(el('span', { class: 'num' }, num.label));
    const current = node === state.node;
    const review = node.review;
    const reviewMark = review && review.mark && !node.mark ? review.mark : null;
    frag.appendChild(el('button', {
      type: 'button',
      class: 'ply' + (main ? ' main' : ' var') + (current ? ' current' : '')
        + (reviewMark ? ' ' + (View.MARK_CLASS[reviewMark] || '') : ''),
      'data-node': node.id,
      'data-ply': main ? Tree.depth(node) : null,
      'aria-current': current ? 'true' : null,
      title: review && review.best && review.best !== node.move ? 'Best was ' + review.best : 'Go to the position after this move',
      onclick: () => goToNode(node),
    }, node.move));
    if (node.mark) frag.appendChild(el('span', { class: 'mark' }, node.mark));
    if (reviewMark) frag.appendChild(el('span', { class: 'mark review ' + View.MARK_CLASS[reviewMark] }, reviewMark));
    if (node.comment) frag.appendChild(el('span', { class: 'comment' }, node.comment));
    return frag;
  }

  /** Under the list: the shown move's comment and the analysis's verdict on it. */
  function renderNodeNote() {
    const box = $('node-note');
    const n = state.node;
    box.replaceChildren();
    const r = n.review;
    if (r && !gameRunning()) {
      let text = n.move + (r.mark || '') + ' (' + sideName(r.side) + '): ';
      text += r.mark ? 'lost ' + (100 * r.loss).toFixed(0) + '% of the win chance' : 'no mark';
      if (r.best && r.best !== n.move) text += '; best was ' + r.best;
      box.append(el('span', { class: 'review-note' }, text + '.'));
    }
    if (n.comment) box.append(el('span', { class: 'comment-note' }, ' ' + n.comment));
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

  /**
   * The tables' verdict in words, for the side to move: "Black wins"
   * with the value and DTC (plies to the next capture, the conversion).
   */
  function tablesHeadline(info) {
    const v = info.value;
    const mover = sideName(info.side_to_move);
    const other = sideName(info.side_to_move === 'white' ? 'black' : 'white');
    const dtc = v.dtc !== null && v.dtc !== undefined ? v.dtc : null;
    const head = v.wdl === 'draw' ? 'Draw' : (v.wdl === 'win' ? mover : other) + ' wins';
    const detail = v.wdl === 'draw'
      ? ' with best play (exact, tables; ' + mover + ' to move: draw)'
      : ' with best play (exact, tables; ' + mover + ' to move: ' + v.wdl
        + (dtc !== null ? ' in ' + dtc + ' (' + plural(dtc, 'ply', 'plies') + ' to the winning side\'s next capture)' : '') + ')';
    return [el('strong', { class: 'wdl ' + v.wdl }, head), detail];
  }

  function renderTablebase(token) {
    const info = state.info;
    const body = $('tb-moves').querySelector('tbody');
    body.replaceChildren();
    const valueBox = $('tb-value');
    const lineBox = $('tb-line');
    lineBox.textContent = '';
    const covered = info.value !== null && info.value !== undefined;
    // The tables hold the position, but the game's rules or history cut
    // their value off (the no-capture limit, a repetition, adjudication).
    const cutOff = !covered && !!info.tables_value && !!info.cutoff;
    const panel = $('tb-panel');
    const hidden = gameRunning();
    panel.classList.toggle('no-tables', !covered || hidden);
    panel.classList.toggle('hidden-values', hidden);
    const over = gameOverHere();

    if (over) {
      valueBox.textContent = 'Game over: ' + outcomeText(over) + '.';
    } else if (hidden) {
      valueBox.textContent = covered
        ? 'The tables\' values are hidden during the game; they show again when it is over.'
        : 'No tables for this position.';
    } else if (covered) {
      valueBox.replaceChildren(...tablesHeadline(info));
    } else if (cutOff) {
      const v = info.tables_value;
      valueBox.textContent = sideName(info.side_to_move) + ' to move: the tables say ' + v.wdl
        + (v.dtc !== null && v.dtc !== undefined ? ' in ' + v.dtc : '')
        + ' under the pure rules, but that is not this game\'s value: ' + info.cutoff + '.';
    } else {
      valueBox.textContent = 'No tables for this position.';
    }

    for (const m of info.moves) {
      const v = hidden ? null : m.value;
      const row = el('tr', {
        class: 'tb-row' + (v ? ' ' + v.wdl : ''), 'data-move': m.move, tabindex: 0,
        title: 'Play ' + m.move + (!hidden && !v && m.cutoff
          ? ' (tables: ' + m.tables_value.wdl + ' under the pure rules, not this game\'s value: ' + m.cutoff + ')'
          : ''),
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
    $('tb-moves').hidden = info.moves.length === 0 || !!over;

    if (over || hidden) return;
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

  /**
   * Where a score stands, in words: its unit and point of view ("in
   * pieces, for the side named; Black to move").
   */
  function scoreBasis(score, mover) {
    if (!score) return '';
    const tomove = sideName(mover) + ' to move';
    switch (score.kind) {
      case 'cp': return 'search evaluation in pieces (1.00 ≈ one piece); ' + tomove;
      case 'win': case 'loss': return 'a forced end of the game seen by the search, in plies; ' + tomove;
      default: return 'exact, from the tables; plies to the next capture; ' + tomove;
    }
  }

  /** The lines of an info event: its `lines`, or its one line. */
  const infoLines = (d) => (Array.isArray(d.lines) && d.lines.length
    ? d.lines
    : [{ multipv: 1, depth: d.depth, score: d.score, pv: d.pv || [] }]);

  /** The engine's lines (MultiPV): each with its score and its moves, a move's button plays the line to it. */
  function renderEngineLines(lines, mover) {
    const box = $('engine-pvs');
    box.replaceChildren();
    for (const line of lines) {
      const pv = (line.pv || []).slice(0, 24);
      const row = el('div', { class: 'pv-line', 'data-multipv': line.multipv },
        el('span', { class: 'pv-score', title: SCORE_HELP }, scoreText(line.score, mover)));
      pv.forEach((mv, i) => {
        row.append(' ', el('button', {
          type: 'button', class: 'pv-move', 'data-index': i, 'data-move': mv,
          title: 'Play the line to ' + mv,
          onclick: () => playLine(pv.slice(0, i + 1)),
        }, mv));
      });
      box.appendChild(row);
    }
    const best = lines[0];
    $('engine-eval').replaceChildren(
      best && best.score ? el('strong', {}, scoreText(best.score, mover)) : '',
      best && best.score ? ' (' + scoreBasis(best.score, mover) + ')' : '');
  }

  /** Starts an analysis of the shown position (with its game's history). */
  function startAnalysis() {
    if (state.editing || !state.info || gameRunning()) return;
    stopAnalysis(null);
    const node = state.node;
    const fen = state.info.fen;
    const mover = fenFields(fen).side;
    const movetime = Number($('engine-movetime').value);
    const multipv = Number($('engine-multipv').value);
    const a = { node, fen, handle: null };
    state.analysis = a;
    $('engine-lines').querySelector('tbody').replaceChildren();
    $('engine-pvs').replaceChildren();
    $('engine-eval').textContent = '';
    $('engine-best').textContent = '';
    setEngineState('running', 'running…');

    a.handle = backend.analyse(fen, { movetime, multipv, game: gameAt(node) }, {
      info(d) {
        if (state.analysis !== a) return;
        const row = el('tr', { class: 'iteration' },
          el('td', {}, String(d.depth)),
          el('td', { class: 'score', title: SCORE_HELP }, scoreText(d.score, mover)),
          el('td', {}, d.nodes !== undefined ? d.nodes.toLocaleString('en') : ''),
          el('td', { class: 'pv' }, moveTokens(d.pv || [])));
        const body = $('engine-lines').querySelector('tbody');
        body.insertBefore(row, body.firstChild); // newest on top
        renderEngineLines(infoLines(d), mover);
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
            ' · ' + scoreText(d.score, mover) + (d.depth ? ' · depth ' + d.depth : ''));
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
    const hidden = gameRunning();
    $('engine-panel').classList.toggle('hidden-values', hidden);
    $('engine-hidden').hidden = !hidden;
    if (state.analysis) return;
    $('engine-lines').querySelector('tbody').replaceChildren();
    $('engine-pvs').replaceChildren();
    $('engine-eval').textContent = '';
    $('engine-best').textContent = '';
    const s = $('engine-state');
    if (s.dataset.state === 'running' || s.dataset.state === 'done') setEngineState('idle', 'idle');
    else setEngineState(s.dataset.state || 'idle', s.textContent);
  }

  // ---------------------------------------------------------------------
  // Playing the computer
  // ---------------------------------------------------------------------
  //
  // state.game: {human: 'b'|'w', level (1..11) or null with strength
  // {movetime}/{depth} ("custom"), seed (the level's random choice, drawn
  // per game), clock: null or {base, inc (ms), left: {b, w}, running: side
  // or null, since (performance.now() when it started)}, start (the root
  // node: the game begins there), head (the game's last node: its moves are
  // the tree's main line to it), over: null or an outcome {result, winner,
  // reason}, thinking: {handle} while the engine searches its reply}.

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
    return !g.thinking && state.node === g.head && !!state.info && state.info.side_to_move[0] === g.human;
  }

  /** The end of the game at the shown node: the game's own (resignation, time) or the rules'. */
  function gameOverHere() {
    const g = state.game;
    if (g && g.over && state.node === g.head) return g.over;
    return state.info ? state.info.outcome || null : null;
  }

  /** The strength chosen in the Play panel: {level} or a custom {movetime}/{depth}. */
  function chosenStrength() {
    const [kind, value] = $('play-strength').value.split(':');
    if (kind === 'level') return { level: Number(value) };
    return kind === 'depth' ? { depth: Number(value), movetime: 10000 } : { movetime: Number(value) };
  }

  /** The clock chosen: null or {base, inc} in ms ("5+3": 5 minutes, 3 seconds a move). */
  function chosenClock() {
    const v = $('play-clock').value;
    const m = /^(\d+)\+(\d+)$/.exec(v);
    if (!m) return null;
    const base = Number(m[1]) * 60000;
    return { base, inc: Number(m[2]) * 1000, left: { b: base, w: base }, running: null, since: 0 };
  }

  /** A random seed for the level's choices (kept with the game). */
  function randomSeed() {
    const a = new Uint32Array(1);
    window.crypto.getRandomValues(a);
    return a[0];
  }

  /** The engine's name in the game's record and the panel. */
  function engineName(g) {
    if (g.level) return 'surakarta level ' + g.level;
    return 'surakarta ' + (g.strength.depth ? 'depth ' + g.strength.depth : g.strength.movetime + ' ms a move');
  }

  /** Starts a game from the start position or the position shown. */
  async function newGame() {
    if (state.editing) return;
    stopAnalysis('stopped: a game began');
    stopReview();
    stopThinking();
    let human = $('play-colour').value;
    if (human === 'random') human = Math.random() < 0.5 ? 'b' : 'w';
    const from = $('play-from').value === 'shown' && state.info ? state.info.fen : START_FEN;
    const strength = chosenStrength();
    const g = {
      human,
      level: strength.level || null,
      strength,
      seed: randomSeed(),
      clock: chosenClock(),
      start: null,
      head: null,
      over: null,
      thinking: null,
    };
    state.game = g;
    setFlipped(human === 'w');
    // A new tree: the game starts at its root, under the rules chosen.
    state.tree = Tree.newTree(from, $('rules-select').value);
    g.start = state.tree.root;
    g.head = state.tree.root;
    const me = 'You';
    state.tree.tags = {
      Event: 'Game against the engine',
      Black: human === 'b' ? me : engineName(g),
      White: human === 'w' ? me : engineName(g),
    };
    if (g.level) state.tree.tags.Seed = String(g.seed);
    if (g.clock) state.tree.tags.TimeControl = $('play-clock').value;
    state.node = state.tree.root;
    state.lineEnd = state.tree.root;
    syncRulesChoice();
    clearReview();
    renderClocks();
    await showPosition();
  }

  /** Leaves the game (a position or record loaded by hand): the board is for analysis. */
  function endGameForAnalysis() {
    stopThinking();
    state.game = null;
    renderClocks();
  }

  /** Ends the game with `over` ({result, winner, reason}); the board is for analysis again. */
  function finishGame(over) {
    const g = state.game;
    if (!g || g.over) return;
    stopThinking();
    if (g.clock && g.clock.running) clockStop();
    g.over = over;
    state.tree.tags.Result = over.result;
    if (over.reason) state.tree.tags.Termination = over.reason;
    state.tree.result = over.result;
    renderClocks();
    if (state.info) {
      renderStatus();
      renderTablebase(state.showToken); // the values show again
      renderEngineIdle();
      renderMoveList();
    }
    renderPlayPanel();
  }

  /** After a position is shown: end the game, or run the clock and let the engine reply. */
  function afterShowInGame() {
    const g = state.game;
    renderPlayPanel();
    if (!g || g.over || state.node !== g.head) return;
    if (state.info.outcome) {
      finishGame(state.info.outcome);
      return;
    }
    const mover = state.info.side_to_move[0];
    clockRun(mover);
    if (mover !== g.human && !g.thinking) engineReply();
  }

  /** How long the engine may think at its clock: remaining/30 + 0.8·increment, capped. */
  function thinkTime(g) {
    if (!g.clock) {
      if (g.level) return g.level >= 10 ? 2000 : 5000; // a level's depth ends it sooner
      return g.strength.movetime;
    }
    const side = g.human === 'b' ? 'w' : 'b';
    const left = clockLeft(side);
    const t = left / 30 + 0.8 * g.clock.inc;
    return Math.round(Math.max(50, Math.min(t, left / 2, MAX_THINK_MS)));
  }

  /** Asks the back end for the engine's move at the game's head and plays it. */
  function engineReply() {
    const g = state.game;
    const head = g.head;
    const fen = state.info.fen;
    const t = { handle: null };
    g.thinking = t;
    renderPlayPanel();
    const limits = { movetime: thinkTime(g), game: gameAt(head) };
    if (g.level) {
      limits.level = g.level;
      limits.seed = g.seed;
    } else if (g.strength.depth) {
      limits.depth = g.strength.depth;
    }
    t.handle = backend.analyse(fen, limits, {
      info() {},
      bestmove(d) {
        if (g.thinking !== t || state.game !== g || g.over) return;
        g.thinking = null;
        if (!d.move) {
          renderPlayPanel();
          return;
        }
        const m = state.node === head && state.info && state.info.fen === fen
          && state.info.moves.find((x) => x.move === d.move);
        if (m) {
          playWithPreview(m, true);
          return;
        }
        // The person looks at another position: the move joins the game all the same.
        clockMoveMade(fenFields(fen).side);
        try {
          g.head = Tree.addMove(state.tree, head, d.move, null, true);
        } catch (e) {
          setStatus(e.message, true);
          return;
        }
        goToNode(g.head);
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

  /** Resigns the game for the person. */
  function resign() {
    const g = state.game;
    if (!gameRunning()) return;
    const winner = g.human === 'b' ? 'white' : 'black';
    finishGame({ result: winner === 'black' ? '1-0' : '0-1', winner, reason: 'resignation' });
    if (state.node !== g.head) goToNode(g.head);
    else renderStatus();
  }

  /** The person's last move in the game (a node), or null. */
  function lastHumanMove() {
    const g = state.game;
    for (let n = g.head; n && n !== g.start; n = n.parent) {
      const byBlack = Tree.moveNumber(state.tree, n).black;
      if ((byBlack ? 'b' : 'w') === g.human) return n;
    }
    return null;
  }

  /**
   * Take back is possible during a game, and after one the rules ended
   * (not a resignation nor a fallen flag) while it is shown at its end.
   */
  function canTakeBack() {
    const g = state.game;
    if (!g || !lastHumanMove()) return false;
    if (!g.over) return true;
    return g.over.reason !== 'resignation' && !/time/.test(g.over.reason || '') && state.node === g.head;
  }

  /** Takes back the person's last move (and the engine's reply): the game goes back to before it. */
  function takeBack() {
    const g = state.game;
    if (!canTakeBack()) return;
    const n = lastHumanMove();
    stopThinking();
    if (g.clock) clockStop();
    g.over = null;
    delete state.tree.tags.Result;
    delete state.tree.tags.Termination;
    state.tree.result = '*';
    g.head = n.parent;
    if (state.node === g.head) showPosition();
    else goToNode(g.head);
  }

  function renderPlayPanel() {
    const g = state.game;
    const box = $('play-state');
    const running = gameRunning();
    $('play-resign').disabled = !running;
    $('play-takeback').disabled = !canTakeBack();
    $('engine-start').disabled = running || state.editing || !!state.analysis;
    $('edit-toggle').disabled = running;
    $('rules-select').disabled = running;
    $('review-start').disabled = running || !!state.reviewRun;
    if (!g) {
      box.dataset.state = 'idle';
      box.textContent = 'No game: the board is for analysis.';
      return;
    }
    const you = 'You play ' + sideName(g.human) + ' against ' + engineName(g)
      + (g.level ? ' (seed ' + g.seed + ')' : '') + '. ';
    if (g.over) {
      box.dataset.state = 'over';
      box.textContent = 'Game over: ' + outcomeText(g.over) + '. The board is for analysis again.';
    } else if (g.thinking) {
      box.dataset.state = 'thinking';
      box.textContent = you + 'The engine is thinking…';
    } else if (state.node !== g.head) {
      box.dataset.state = 'away';
      box.textContent = you + 'Go to the game\'s last move (End) to play on.';
    } else if (humanMayMove()) {
      box.dataset.state = 'your-move';
      box.textContent = you + 'Your move.';
    } else {
      box.dataset.state = 'waiting';
      box.textContent = you;
    }
  }

  // ---------------------------------------------------------------------
  // The clock
  // ---------------------------------------------------------------------

  /** Time left for `side` ('b'/'w') now, in ms. */
  function clockLeft(side) {
    const c = state.game && state.game.clock;
    if (!c) return Infinity;
    return c.left[side] - (c.running === side ? performance.now() - c.since : 0);
  }

  /** Starts `side`'s clock (stopping the other's). */
  function clockRun(side) {
    const c = state.game && state.game.clock;
    if (!c || c.running === side) return;
    if (c.running) clockStop();
    c.running = side;
    c.since = performance.now();
  }

  /** Stops the running clock, keeping its time. */
  function clockStop() {
    const c = state.game.clock;
    if (!c.running) return;
    c.left[c.running] -= performance.now() - c.since;
    c.running = null;
  }

  /** `side` has moved: its clock stops and gains the increment. */
  function clockMoveMade(side) {
    const c = state.game && state.game.clock;
    if (!c) return;
    if (c.running === side) clockStop();
    c.left[side] += c.inc;
  }

  /** Shows both clocks; a flag fall ends the game. */
  function renderClocks() {
    const g = state.game;
    const box = $('clocks');
    if (!g || !g.clock) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    for (const side of ['b', 'w']) {
      const left = clockLeft(side);
      const face = $('clock-' + side);
      face.textContent = sideName(side) + ' ' + clockText(left);
      face.classList.toggle('running', g.clock.running === side && !g.over);
      face.classList.toggle('low', left < 20000);
      face.dataset.ms = String(Math.max(0, Math.round(left)));
    }
    if (!g.over && g.clock.running && clockLeft(g.clock.running) <= 0) {
      const side = g.clock.running;
      clockStop();
      g.clock.left[side] = 0;
      const winner = side === 'b' ? 'white' : 'black';
      finishGame({ result: winner === 'black' ? '1-0' : '0-1', winner, reason: sideName(side) + '\'s time ran out' });
      if (state.node !== g.head) goToNode(g.head);
    }
  }

  // ---------------------------------------------------------------------
  // Rules
  // ---------------------------------------------------------------------

  /** The rules choice shows the tree's rule set (adding a record's own if it is none of the three). */
  function syncRulesChoice() {
    const select = $('rules-select');
    const rules = state.tree.rules;
    if (![...select.options].some((o) => o.value === rules)) {
      select.appendChild(el('option', { value: rules }, rules));
    }
    select.value = rules;
    const known = RULES[rules];
    $('rules-text').textContent = known ? known.text : 'the record\'s own rule set (docs/rules.md)';
  }

  /** A rule set chosen: the positions are judged again under it. */
  function chooseRules() {
    if (gameRunning()) return;
    state.tree.rules = $('rules-select').value;
    syncRulesChoice();
    clearReview();
    showPosition();
  }

  // ---------------------------------------------------------------------
  // Records: open (paste or a file) and export, with variations and comments
  // ---------------------------------------------------------------------

  function recordMessage(text, isError) {
    const box = $('record-error');
    box.textContent = text;
    box.classList.toggle('error', !!isError);
  }

  /** Opens the first game of a record text as the tree (its variations, marks, comments). */
  async function openRecord(text) {
    if (!text.trim()) {
      recordMessage('Paste a record or choose a file first.', true);
      return;
    }
    if (text.length > MAX_RECORD_CHARS) {
      recordMessage('The record is too long for the page (' + text.length + ' characters; at most ' + MAX_RECORD_CHARS + ').', true);
      return;
    }
    let tree;
    let count;
    try {
      const parsed = await call('parseRecord')(text);
      const games = parsed && Array.isArray(parsed.games) ? parsed.games : [];
      if (!games.length) throw new Error('no game in the text');
      count = games.length;
      tree = Tree.fromRecord(games[0], START_FEN);
      // The back end checks the main line by answering its end.
      await nodePositionIn(tree, Tree.mainLine(tree).pop());
    } catch (e) {
      recordMessage('Cannot open the record: ' + e.message, true);
      return;
    }
    if (state.editing) leaveEditor();
    stopAnalysis('stopped: a record was opened');
    stopReview();
    endGameForAnalysis();
    state.tree = tree;
    state.node = tree.root;
    state.lineEnd = Tree.mainLine(tree).pop();
    syncRulesChoice();
    clearReview();
    const plies = Tree.depth(state.lineEnd);
    recordMessage('Opened a game of ' + plies + ' ' + plural(plies, 'ply', 'plies')
      + ' (' + (tree.size - 1 - plies) + ' more in variations)'
      + (count > 1 ? '; the text holds ' + count + ' games, this is the first' : '') + '.');
    await showPosition();
  }

  /** The result to write: the game's end, the rules' end of the main line, or the record's. */
  async function recordResult() {
    const g = state.game;
    if (g && g.over) return g.over.result;
    const info = await nodePosition(Tree.mainLine(state.tree).pop());
    if (info.outcome) return info.outcome.result;
    return state.tree.result && ['1-0', '0-1', '1/2-1/2'].includes(state.tree.result) ? state.tree.result : '*';
  }

  /** The tree as record text (the back end writes it), into the record box. */
  async function exportRecord() {
    try {
      const result = await recordResult();
      const game = Tree.toRecord(state.tree, result);
      if (game.tags.Result !== undefined) game.tags.Result = result;
      const text = await call('writeRecord')(game);
      $('record-text').value = text;
      recordMessage('The game as a record (' + Tree.depth(Tree.mainLine(state.tree).pop()) + ' plies in the main line).');
      return text;
    } catch (e) {
      recordMessage('Cannot write the record: ' + e.message, true);
      return null;
    }
  }

  async function downloadRecord() {
    const text = await exportRecord();
    if (text === null) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = el('a', { href: url, download: 'surakarta-game.txt' });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function copyRecord() {
    const text = await exportRecord();
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
      recordMessage('The record is copied.');
    } catch (e) {
      const box = $('record-text');
      box.select();
      const ok = document.execCommand && document.execCommand('copy');
      recordMessage(ok ? 'The record is copied.' : 'Copy it from the box (the browser refused the clipboard).', !ok);
    }
  }

  function openRecordFile() {
    const file = $('record-file').files[0];
    if (!file) return;
    if (file.size > MAX_RECORD_CHARS) {
      recordMessage('The file is too big for the page (' + file.size + ' bytes).', true);
      return;
    }
    file.text().then((text) => {
      $('record-text').value = text;
      return openRecord(text);
    }, (e) => recordMessage('Cannot read the file: ' + e.message, true));
  }

  // ---------------------------------------------------------------------
  // Game analysis: every move of the main line judged
  // ---------------------------------------------------------------------

  /** Runs the back end's game analysis on the main line. */
  function startReview() {
    if (gameRunning() || state.reviewRun || state.editing) return;
    const nodes = Tree.mainLine(state.tree);
    if (nodes.length < 2) {
      $('review-state').textContent = 'No moves to analyse: play or open a game first.';
      return;
    }
    stopAnalysis('stopped: the game is analysed');
    clearReview();
    const game = { rules: state.tree.rules, start: state.tree.start, moves: nodes.slice(1).map((n) => n.move) };
    const movetime = Number($('review-movetime').value);
    const progress = $('review-progress');
    progress.max = nodes.length;
    progress.value = 0;
    progress.hidden = false;
    $('review-stop').disabled = false;
    $('review-start').disabled = true;
    $('review-state').textContent = 'Analysing ' + (nodes.length - 1) + ' moves…';
    let analyseGame;
    try {
      analyseGame = call('analyseGame');
    } catch (e) {
      $('review-state').textContent = 'The analysis failed: ' + e.message;
      endReviewRun();
      return;
    }
    const run = { handle: null };
    state.reviewRun = run;
    run.handle = analyseGame(game, { movetime }, {
      progress(p) {
        if (state.reviewRun !== run) return;
        progress.max = p.total;
        progress.value = p.done;
        $('review-state').textContent = 'Analysing: ' + p.done + ' of ' + p.total + ' positions…';
      },
      done(result) {
        if (state.reviewRun !== run) return;
        state.reviewRun = null;
        endReviewRun();
        showReview(result, nodes);
      },
      error(message) {
        if (state.reviewRun !== run) return;
        state.reviewRun = null;
        endReviewRun();
        $('review-state').textContent = 'The analysis failed: ' + message;
      },
    });
  }

  function endReviewRun() {
    $('review-progress').hidden = true;
    $('review-stop').disabled = true;
    $('review-start').disabled = gameRunning();
  }

  function stopReview() {
    const run = state.reviewRun;
    if (!run) return;
    state.reviewRun = null;
    run.handle.stop();
    endReviewRun();
    $('review-state').textContent = 'Stopped.';
  }

  /** Shows an analysis: marks in the move list, the graph, the totals. */
  function showReview(result, nodes) {
    state.review = { result, nodes };
    for (const p of result.plies) {
      const n = nodes[p.ply];
      if (n && n.move === p.move) n.review = p;
    }
    const out = $('review-out');
    out.hidden = false;
    const s = (side) => result[side];
    const marks = (x) => x.inaccuracies + x.mistakes + x.blunders;
    $('review-state').textContent = 'Analysed ' + result.plies.length + ' moves: Black '
      + marks(s('black')) + ' marked, White ' + marks(s('white')) + ' marked. Click the graph to go to a ply.';
    $('review-totals').replaceChildren(View.totals(result));
    renderReviewCursor();
    renderMoveList();
  }

  /** Draws the graph with the line at the shown node (if it is on the analysed line). */
  function renderReviewCursor() {
    const r = state.review;
    if (!r) return;
    const i = r.nodes.indexOf(state.node);
    $('review-graph').replaceChildren(View.graph(r.result, i, (ply) => {
      const n = r.nodes[ply];
      if (n && Tree.isAncestor(state.tree.root, n)) goToNode(n);
    }));
  }

  function clearReview() {
    if (state.review) for (const n of state.review.nodes) n.review = null;
    state.review = null;
    $('review-out').hidden = true;
    $('review-graph').replaceChildren();
    $('review-totals').replaceChildren();
    if (!state.reviewRun) $('review-state').textContent = '';
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
      const info = await fenPosition(fen);
      leaveEditor();
      endGameForAnalysis();
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
      const info = await fenPosition(text);
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
      case 'Home': goFirst(); break;
      case 'End': goLast(); break;
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
    $('first').addEventListener('click', goFirst);
    $('last').addEventListener('click', goLast);
    $('var-promote').addEventListener('click', promoteVariation);
    $('var-delete').addEventListener('click', deleteVariation);
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
    $('rules-select').addEventListener('change', chooseRules);
    $('record-open').addEventListener('click', () => openRecord($('record-text').value));
    $('record-file').addEventListener('change', openRecordFile);
    $('record-export').addEventListener('click', exportRecord);
    $('record-download').addEventListener('click', downloadRecord);
    $('record-copy').addEventListener('click', copyRecord);
    $('review-start').addEventListener('click', startReview);
    $('review-stop').addEventListener('click', stopReview);
    try { setFlipped(localStorage.getItem('surakarta.flipped') === '1'); } catch (e) { setFlipped(false); }
    syncRulesChoice();
    renderPlayPanel();
    setInterval(renderClocks, 100);
    document.addEventListener('keydown', onKey);
    window.addEventListener('pagehide', () => { stopAnalysis(null); stopThinking(); stopReview(); });

    // The address may name a game (?game=…&moves=…&ply=…) or a position
    // (?fen=…); or the same after '#', which a static host never sees.
    const query = new URLSearchParams(window.location.search);
    const hash = new URLSearchParams(window.location.hash.slice(1));
    let asked = null;
    try {
      asked = readAddress(query);
      if (!asked) {
        asked = readAddress(hash);
        if (asked) state.addressMark = '#';
      }
    } catch (e) {
      await newRoot(START_FEN);
      $('fen-error').textContent = 'The address names no valid game: ' + e.message;
      return;
    }
    if (asked) {
      await openAddressGame(asked);
      return;
    }
    await newRoot(START_FEN);
  }

  // For the browser test and the curious: a read-only look at the state.
  window.surakartaBoard = {
    get backend() { return backend.kind; },
    get firstShownMs() { return state.firstShownMs; }, // from navigation to the first board drawn
    get fen() { return state.info ? state.info.fen : null; },
    // The line the arrows follow, root first: [{fen (null until shown), move}].
    get plies() { return Tree.pathTo(state.lineEnd).map((n) => ({ fen: n.fen, move: n.move })); },
    get cursor() { return Tree.depth(state.node); }, // the shown node's index in plies
    get mainLine() { return Tree.movesTo(Tree.mainLine(state.tree).pop()); },
    get nodes() { return state.tree.size; },
    get rules() { return state.tree.rules; },
    get analysing() { return !!state.analysis; },
    // In a game, the person's move is awaited on the position shown.
    get awaitingMove() { return gameRunning() && !!state.info && humanMayMove(); },
    get reviewing() { return !!state.reviewRun; },
    get flipped() { return state.flipped; },
    get game() {
      const g = state.game;
      return g && {
        human: g.human, over: g.over, thinking: !!g.thinking, level: g.level, seed: g.seed,
        moves: Tree.movesTo(g.head), clock: g.clock && { b: clockLeft('b'), w: clockLeft('w') },
      };
    },
  };

  document.addEventListener('DOMContentLoaded', main);
})();
