// The engine of the static analysis board, off the page's main thread.
//
// Loads the WebAssembly module, takes the table files the page sends
// ({type: 'tables', tables: [{name, bytes}]}) and searches on request
// ({type: 'analyse', request}: the request of `Board.analyseRequest`, a
// position or a game with its limits, level and lines), posting {type: 'info', data} for each
// iteration and {type: 'bestmove', data} at the end (the objects of
// /api/analysis, docs/serve.md), or {type: 'error', message}; and judges a
// whole game ({type: 'analyseGame', request}), posting {type: 'progress',
// data: {done, total}} per position and {type: 'done', data} at the end. The page
// stops a search by ending this worker.

'use strict';

importScripts('surakarta_wasm.js');

const pending = [];
let board = null;

function handle(msg) {
  try {
    if (msg.type === 'tables') {
      for (const t of msg.tables) board.addTable(t.name, new Uint8Array(t.bytes));
    } else if (msg.type === 'analyse') {
      const best = board.analyseRequest(JSON.stringify(msg.request), (info) => {
        self.postMessage({ type: 'info', data: JSON.parse(info) });
        return false;
      });
      self.postMessage({ type: 'bestmove', data: JSON.parse(best) });
    } else if (msg.type === 'analyseGame') {
      const done = board.analyseGame(JSON.stringify(msg.request), (d, total) => {
        self.postMessage({ type: 'progress', data: { done: d, total } });
      });
      self.postMessage({ type: 'done', data: JSON.parse(done) });
    }
  } catch (e) {
    self.postMessage({ type: 'error', message: e && e.message ? e.message : String(e) });
  }
}

self.onmessage = (e) => {
  if (board) handle(e.data);
  else pending.push(e.data);
};

// eslint-disable-next-line no-undef
wasm_bindgen({ module_or_path: 'surakarta_wasm_bg.wasm' }).then(() => {
  // eslint-disable-next-line no-undef
  board = new wasm_bindgen.Board();
  while (pending.length) handle(pending.shift());
  self.postMessage({ type: 'ready' });
}, (e) => {
  self.postMessage({ type: 'error', message: 'cannot start the engine: ' + (e && e.message ? e.message : e) });
});
