// Which back end answers this page (backend.js): `surakarta serve`'s HTTP
// API. The static site (scripts/build-web.sh) writes its own site.js that
// names WebAssembly instead.
window.SURAKARTA_BACKEND = 'http';
