// The analysis board's view of a game analysis (the back end's
// analyseGame, the same JSON `surakarta analyse --json` prints): the
// evaluation graph (White's win chance by ply, the marked moves as coloured
// dots, an inline SVG) and each side's totals.
//
// Draws only: the numbers are the analysis's own (win chances, marks,
// losses, totals). window.SurakartaAnalysisView.

'use strict';

(function () {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const W = 600;
  const H = 120;

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  /** The mark's class name: inaccuracy, mistake, blunder. */
  const MARK_CLASS = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

  /**
   * White's win chance before the first move and after each move of the
   * analysis (`plies` [{side, win_chance_before, win_chance_after}], the
   * chances for the mover).
   */
  function whiteChances(plies) {
    if (plies.length === 0) return [0.5];
    const white = (p, c) => (p.side === 'white' ? c : 1 - c);
    const out = [white(plies[0], plies[0].win_chance_before)];
    for (const p of plies) out.push(white(p, p.win_chance_after));
    return out;
  }

  /**
   * The graph of an analysis as an SVG element: White's win chance by ply
   * (top: White wins, bottom: Black wins), a dot for each marked move,
   * a line at `current` (a ply number, or -1). Clicking calls `onPly(ply)`.
   */
  function graph(result, current, onPly) {
    const chances = whiteChances(result.plies);
    const n = Math.max(1, chances.length - 1);
    const x = (i) => (i / n) * W;
    const PAD = 5; // the dots at 0% and 100% stay whole
    const y = (c) => PAD + (1 - Math.min(1, Math.max(0, c))) * (H - 2 * PAD);
    const svg = svgEl('svg', {
      class: 'eval-graph', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none',
      role: 'img', 'aria-label': 'Evaluation graph: White\'s win chance by ply; click to go to a ply',
    });
    svg.appendChild(svgEl('rect', { class: 'black-side', x: 0, y: 0, width: W, height: H }));
    const pts = chances.map((c, i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`);
    svg.appendChild(svgEl('polygon', {
      class: 'white-area', points: `0,${H} ${pts.join(' ')} ${W},${H}`,
    }));
    svg.appendChild(svgEl('line', { class: 'mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
    svg.appendChild(svgEl('polyline', { class: 'curve', points: pts.join(' ') }));
    if (current >= 0 && current <= n) {
      svg.appendChild(svgEl('line', {
        class: 'cursor', x1: x(current), y1: 0, x2: x(current), y2: H, 'data-ply': current,
      }));
    }
    result.plies.forEach((p, i) => {
      const cls = MARK_CLASS[p.mark];
      if (!cls) return;
      const dot = svgEl('circle', {
        class: 'dot ' + cls, cx: x(i + 1), cy: y(chances[i + 1]), r: 4.5, 'data-ply': p.ply,
      });
      const title = svgEl('title', {});
      title.textContent = p.ply + '. ' + p.move + p.mark + (p.best && p.best !== p.move ? ' (best ' + p.best + ')' : '');
      dot.appendChild(title);
      svg.appendChild(dot);
    });
    svg.addEventListener('click', (e) => {
      const box = svg.getBoundingClientRect();
      if (!box.width) return;
      const ply = Math.round(((e.clientX - box.left) / box.width) * n);
      onPly(Math.max(0, Math.min(n, ply)));
    });
    return svg;
  }

  /** A side's totals as a table row. */
  function totalsRow(name, s) {
    const tr = document.createElement('tr');
    tr.dataset.side = name.toLowerCase();
    const cells = [name, s.inaccuracies, s.mistakes, s.blunders,
      (100 * s.average_loss).toFixed(1) + '%'];
    for (const c of cells) {
      const td = document.createElement(tr.children.length ? 'td' : 'th');
      td.textContent = String(c);
      tr.appendChild(td);
    }
    return tr;
  }

  /** The totals of both sides as a table. */
  function totals(result) {
    const table = document.createElement('table');
    table.className = 'totals';
    const head = document.createElement('thead');
    head.innerHTML = '<tr><th></th><th title="?! a loss of 5% to 10% of win chance">Inaccuracies ?!</th>'
      + '<th title="? a loss of 10% to 15%">Mistakes ?</th><th title="?? a loss of 15% or more">Blunders ??</th>'
      + '<th title="the mean loss of win chance over the side\'s moves">Mean loss</th></tr>';
    table.appendChild(head);
    const body = document.createElement('tbody');
    body.appendChild(totalsRow('Black', result.black));
    body.appendChild(totalsRow('White', result.white));
    table.appendChild(body);
    return table;
  }

  window.SurakartaAnalysisView = { graph, totals, whiteChances, MARK_CLASS };
})();
