/**
 * Rendering and signing one report: the CPU-heavy part of issuing (pdfkit layout, font subsetting, the
 * CMS signature), run in a worker thread of the app's report pool (render-worker.ts) so that the event
 * loop keeps answering (docs/decisions/0020). The job is plain data: it crosses to the worker by structured
 * clone, which turns Buffers into Uint8Arrays, so they are turned back here.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { Config } from '../../config';
import { mallocTrim } from '../../lib/malloc-trim';
import { WorkerPool } from '../../lib/worker-pool';
import type { PlaceholderOptions } from '../../lib/signing/signature-placeholder';
import type { SigningMaterial } from '../../lib/signing/certificate';
import { signatureLength, signPdf } from '../../lib/signing/signing';
import { renderReportPdf } from './pdf/render-pdf';
import type { ReportModel } from './report-model';

export interface RenderJob {
  model: ReportModel;
  /** the signature's visible fields; the space it needs is worked out from the certificate */
  signature: Omit<PlaceholderOptions, 'signatureLength'>;
  material: SigningMaterial;
}

/** Renders and signs `job`: the signed PDF. */
export async function renderAndSign(job: RenderJob): Promise<Buffer> {
  // A worker receives the images as Uint8Array (structured clone); pdfkit embeds a Buffer.
  const asBuffer = (b: Uint8Array | null | undefined) =>
    b && !Buffer.isBuffer(b) ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : (b ?? null);
  const release = job.model.release;
  const model: ReportModel = {
    ...job.model,
    company: { ...job.model.company, logo: asBuffer(job.model.company.logo) },
    release: release ? { ...release, stamp: asBuffer(release.stamp) } : null,
  };
  const unsigned = await renderReportPdf(model, { signature: { ...job.signature, signatureLength: signatureLength(job.material) } });
  return signPdf(unsigned, job.material);
}

/** How a report is rendered by issue.ts: through the app's pool (a reservation of it), or in this thread. */
export type RenderReport = (job: RenderJob) => Promise<Buffer>;

/**
 * The app's report pool: REPORT_WORKERS threads (defaultReportWorkers of config.ts; 0: in this thread,
 * through the same bounded queue), REPORT_QUEUE reports admitted at once (by engine when unset,
 * defaultReportQueue of config.ts). From the built server the worker
 * is render-worker.js beside this file's bundle mirror (scripts/build-server.mjs builds it as its own
 * entry); from source (tests, `npm run dev`) it is the .ts file, loaded through tsx as the rest of the
 * source is.
 */
export function createReportPool(config: Required<Config['reports']>): WorkerPool {
  return new WorkerPool({
    createWorker: startRenderWorker,
    size: config.workers,
    maxUnits: config.queue,
    retryAfterSeconds: 10,
    inline: (input) => renderAndSign(input as RenderJob),
    // A minute without reports gives back the threads' memory (docs/decisions/0033-server-memory.md).
    idleExitMs: 60_000,
    // What the exited thread's isolate freed stays in glibc's heap unless asked back (decision 0033, sixth section).
    afterIdleExit: () => void mallocTrim(),
  });
}

function startRenderWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./render-worker.js', import.meta.url));
  // From source: tsx's loader registered in the worker first (a worker does not inherit the hooks of the
  // thread that starts it, nor takes them from execArgv), then the .ts module.
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const worker = new URL('./render-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); })`;
  return new Worker(boot, { eval: true });
}

/** Renders `job` through `run` (a pool reservation's) and gives back a Buffer (a worker answers a Uint8Array). */
export function renderThrough(run: <T>(input: unknown, transfer?: ArrayBuffer[]) => Promise<T>): RenderReport {
  return async (job) => {
    const out = await run<Uint8Array>(job);
    return Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  };
}
