// The analysis board (placeholder; see docs/serve.md).
