// The analysis board's game tree: the moves of a game with their
// variations, as lichess's analysis board keeps them.
//
// A node is the position after its move; the root is the start position
// (no move). A node's children are the moves played from it: the first is
// the main continuation, the others are variations. Each node may carry a
// mark ('!', '?', '!?', '?!', '??', '!!'), a comment and, after a game
// analysis, that analysis's verdict (`review`). A node's position notation
// (`fen`) is known once the page has asked the back end about it; it is null
// until then (the back end answers a node from its game: the start and the
// moves to it).
//
// Also here: the conversion between a tree and the `line` of the back end's
// record calls (parseRecord / writeRecord: nodes {move, mark, comment,
// variations}), and the move numbers of the move list.
//
// Plain data and functions, no DOM: window.SurakartaTree.

'use strict';

(function () {
  /** At most this many nodes in a tree (a hostile record cannot grow it without bound). */
  const MAX_NODES = 200000;

  let nextId = 1;

  function makeNode(parent, move, extra) {
    const e = extra || {};
    return {
      id: nextId++,
      move,
      fen: e.fen || null,
      parent,
      children: [],
      mark: e.mark || null,
      comment: e.comment || null,
      intro: e.intro || null, // a variation's opening comment (after its '(')
      review: null,
    };
  }

  /** A tree at `start` (position notation) under `rules` ('icga', 'pku', 'pure'). */
  function newTree(start, rules) {
    return { root: makeNode(null, null, { fen: start }), start, rules: rules || 'icga', tags: {}, intro: null, size: 1 };
  }

  /** The node's child playing `move`, or undefined. */
  const childFor = (node, move) => node.children.find((c) => c.move === move);

  /**
   * Adds `move` after `node` (or returns the child that already plays it).
   * A new child goes last (a variation) unless `first` (then it becomes the
   * main continuation). Throws when the tree is full.
   */
  function addMove(tree, node, move, extra, first) {
    const have = childFor(node, move);
    if (have) {
      if (extra && extra.fen && !have.fen) have.fen = extra.fen;
      if (first) promoteOnce(have);
      return have;
    }
    if (tree.size >= MAX_NODES) throw new Error('the game tree is full (' + MAX_NODES + ' moves)');
    const child = makeNode(node, move, extra);
    if (first) node.children.unshift(child);
    else node.children.push(child);
    tree.size += 1;
    return child;
  }

  /** The nodes from the root to `node`, both included. */
  function pathTo(node) {
    const out = [];
    for (let n = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The moves from the root to `node`. */
  const movesTo = (node) => pathTo(node).slice(1).map((n) => n.move);

  /** How many moves from the root to `node`. */
  function depth(node) {
    let d = 0;
    for (let n = node; n.parent; n = n.parent) d++;
    return d;
  }

  /** Is `a` on the path from the root to `b` (or `b` itself)? */
  function isAncestor(a, b) {
    for (let n = b; n; n = n.parent) if (n === a) return true;
    return false;
  }

  /** The line through `node`: its path, then the first children to the end. */
  function lineThrough(node) {
    const out = pathTo(node);
    let n = node;
    while (n.children.length) {
      n = n.children[0];
      out.push(n);
    }
    return out;
  }

  /** The main line: the root and its first children to the end. */
  const mainLine = (tree) => lineThrough(tree.root);

  /** Is `node` on the main line? */
  function onMainLine(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** Makes `node` its parent's first child (one level of promotion). */
  function promoteOnce(node) {
    const p = node.parent;
    if (!p) return;
    const i = p.children.indexOf(node);
    if (i > 0) {
      p.children.splice(i, 1);
      p.children.unshift(node);
    }
  }

  /** Makes the line through `node` the main line (every level up to the root). */
  function promote(node) {
    for (let n = node; n.parent; n = n.parent) promoteOnce(n);
  }

  /** How many nodes are in the subtree of `node` (itself included). */
  function subtreeSize(node) {
    let count = 0;
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      count++;
      stack.push(...n.children);
    }
    return count;
  }

  /**
   * Deletes the variation that `node` begins (its subtree) from the tree.
   * The root cannot be deleted. Returns the parent.
   */
  function remove(tree, node) {
    const p = node.parent;
    if (!p) return node;
    p.children.splice(p.children.indexOf(node), 1);
    tree.size -= subtreeSize(node);
    node.parent = null;
    return p;
  }

  /** The first node of the variation `node` is in (itself if it starts one), or null on the main line. */
  function variationStart(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return n;
    return null;
  }

  // -------------------------------------------------------------------
  // Move numbers
  // -------------------------------------------------------------------

  /**
   * The number label of the move of `node` in a list: "3." before a
   * Black move, "3…" before a White move, from the start position's side
   * and move number.
   */
  function moveNumber(tree, node) {
    const f = tree.start.trim().split(/\s+/);
    const whiteFirst = f[1] === 'w';
    const first = parseInt(f[3] || '1', 10) || 1;
    const d = depth(node) - 1; // plies before this move
    const plies = d + (whiteFirst ? 1 : 0); // plies since Black's first move of move `first`
    const number = first + Math.floor(plies / 2);
    const black = plies % 2 === 0;
    return { number, black, label: number + (black ? '.' : '…') };
  }

  // -------------------------------------------------------------------
  // Records (the back end's parseRecord / writeRecord shapes)
  // -------------------------------------------------------------------

  /**
   * The tree of a parsed record game {tags, rules, start, result, line}.
   * Throws if the record is too big for the page.
   */
  function fromRecord(game, defaultStart) {
    const tree = newTree(game.start || defaultStart, game.rules || 'icga');
    tree.tags = Object.assign({}, game.tags || {});
    tree.result = game.result || '*';
    tree.intro = typeof game.intro === 'string' ? game.intro : null;
    // Iterative: a hostile record cannot overflow the stack.
    const work = [[tree.root, game.line || []]];
    while (work.length) {
      const [from, line] = work.pop();
      let parent = from;
      for (const item of line) {
        if (!item || typeof item.move !== 'string') throw new Error('a record node without a move');
        const child = addMove(tree, parent, item.move, { mark: item.mark, comment: item.comment, intro: item.intro });
        // Reversed: the stack gives them back in their order.
        const vs = Array.isArray(item.variations) ? item.variations : [];
        for (let i = vs.length - 1; i >= 0; i--) work.push([parent, vs[i]]);
        parent = child;
      }
    }
    return tree;
  }

  /** The record `line` from `node` on: its main continuation, with the other children as variations. */
  function lineFrom(node) {
    const out = [];
    const stack = [{ from: node, into: out }];
    while (stack.length) {
      const { from, into } = stack.pop();
      let n = from;
      while (n.children.length) {
        const [main, ...others] = n.children;
        const item = { move: main.move, mark: main.mark || reviewMark(main), comment: main.comment || null, variations: [] };
        for (const o of others) {
          const first = { move: o.move, mark: o.mark || reviewMark(o), comment: o.comment || null, variations: [] };
          if (o.intro) first.intro = o.intro;
          const v = [first];
          item.variations.push(v);
          stack.push({ from: o, into: v });
        }
        into.push(item);
        n = main;
      }
    }
    return out;
  }

  const reviewMark = (n) => (n.review && n.review.mark) || null;

  /** The writeRecord game of a tree: {tags, rules, start, result, line}. */
  function toRecord(tree, result) {
    const game = {
      tags: Object.assign({}, tree.tags),
      rules: tree.rules,
      start: tree.start,
      result: result || '*',
      line: lineFrom(tree.root),
    };
    if (tree.intro) game.intro = tree.intro;
    return game;
  }

  window.SurakartaTree = {
    MAX_NODES,
    newTree,
    addMove,
    childFor,
    pathTo,
    movesTo,
    depth,
    isAncestor,
    lineThrough,
    mainLine,
    onMainLine,
    promote,
    remove,
    variationStart,
    moveNumber,
    fromRecord,
    toRecord,
  };
})();
