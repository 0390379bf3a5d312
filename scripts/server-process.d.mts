// Types of scripts/server-process.mjs, for the TypeScript that starts the built server (the user guide's
// demo server, e2e/user-guide.spec.ts).
export declare const LEAN_MALLOC: { MALLOC_ARENA_MAX: string; MALLOC_MMAP_THRESHOLD_: string };
export declare const LEAN_NODE_FLAGS: string[];
