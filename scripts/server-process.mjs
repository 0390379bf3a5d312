// How the built server runs as a process, for `npm start` (scripts/start.mjs) and the browser tests' server
// (e2e/serve-snapshot.mjs), so that the tests run it as users do.

// The server's memory at rest (docs/decisions/0033-server-memory.md, measured there). glibc's malloc keeps
// what a thread freed in that thread's arena (up to 8 per core) and big blocks inside its heaps, where they
// are never given back: WebAssembly compilation of the embedded database's PostgreSQL, done on V8's worker
// threads, left 60–75 MB of such free memory in the process. Two arenas, and blocks of 128 KB and more
// mapped on their own (unmapped when freed), keep that memory returned. A value set by the operator wins.
export const LEAN_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
// V8's young generation: 4 MB semi-spaces instead of 16 (an idle server held 10 MB in 32 MB of young
// generation; more frequent minor collections cost the ingestion bench ~5–10% of the app's CPU per record
// with 50 samples, none without). No --enable-source-maps: it makes node parse
// and keep the source map of every package that ships one (9 MB of heap); the bundle in dist/server is
// readable, unminified JavaScript, and NODE_OPTIONS=--enable-source-maps turns the maps back on.
export const LEAN_NODE_FLAGS = ['--max-semi-space-size=4'];
