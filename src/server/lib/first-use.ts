/**
 * A CommonJS package required when it is first used rather than when the server starts. The packages that
 * only a signature, a QR code, an email or a Redis connection needs (node-forge, @signpdf, qrcode,
 * nodemailer, ioredis) held about 9 MB of the idle server's heap (docs/decisions/0033-server-memory.md).
 * A static import would not do: the server's bundle keeps every package external and hoists its imports to
 * the top, so they would load at start even from a module only a report reaches.
 *
 * The package is required synchronously (its first call pays the load, a few milliseconds), so the callers
 * keep their synchronous signatures; its types come from an `import type` of the same package.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter for what `make` makes: the first call makes it, later calls reuse it. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** A getter for `name`'s exports: the first call requires the package, later calls reuse it. */
export function packageOnFirstUse<T>(name: string): () => T {
  return onFirstUse(() => require(name) as T);
}
