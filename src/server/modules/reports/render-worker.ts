/**
 * The report pool's worker thread (render-job.ts): renders and signs one report per message. Built as its
 * own entry by scripts/build-server.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { renderAndSign, type RenderJob } from './render-job';

const port = parentPort!;
port.on('message', async ({ id, input }: { id: number; input: RenderJob }) => {
  try {
    const bytes = await renderAndSign(input);
    // A copy of its own, so that its memory moves to the app's thread instead of being copied again.
    const out = new Uint8Array(bytes);
    port.postMessage({ id, ok: true, value: out }, [out.buffer]);
  } catch (err) {
    port.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
