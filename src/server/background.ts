/**
 * Work the server does besides answering requests (the mail outbox worker, housekeeping). Each piece
 * returns a stop function; main.ts stops them before closing the database.
 */
import type { FastifyInstance } from 'fastify';
import { createMailTransport } from './mail/transports';
import { startMailWorker } from './mail/worker';
import { mallocTrim } from './lib/malloc-trim';
import { purgeExpiredSessions } from './lib/sessions';
import { compactRequestCounts } from './modules/dashboard/dashboard.repo';
import { applySearchRetention } from './modules/public/search-retention';

export async function startBackgroundWork(app: FastifyInstance): Promise<() => Promise<void>> {
  const stops: (() => Promise<void> | void)[] = [];

  const housekeeping = setInterval(
    () => {
      purgeExpiredSessions(app.ctx.db).catch((err: unknown) => app.log.warn({ err }, 'session purge failed'));
    },
    15 * 60 * 1000,
  );
  housekeeping.unref();
  stops.push(() => clearInterval(housekeeping));

  // Visitors' addresses and IPs past the retention setting: at start and hourly (one idempotent UPDATE, so
  // several instances may run it at once).
  const retention = () =>
    applySearchRetention(app.ctx.db)
      .then((r) => {
        if (r.requests || r.emails) app.log.info(r, 'search retention: personal data cleared');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'search retention failed'));
  void retention();
  const retentionTimer = setInterval(() => void retention(), 60 * 60 * 1000);
  retentionTimer.unref();
  stops.push(() => clearInterval(retentionTimer));

  // The dashboard's request counts are appended per statement; fold them into a row per day every 5 minutes
  // (one statement, safe beside writers and other instances) so that reading them stays small.
  const compaction = setInterval(
    () => {
      compactRequestCounts(app.ctx.db).catch((err: unknown) => app.log.warn({ err }, 'request count compaction failed'));
    },
    5 * 60 * 1000,
  );
  compaction.unref();
  stops.push(() => clearInterval(compaction));

  // Freed C-heap memory back to the system every 15 s (lib/malloc-trim.ts): after an import or a report
  // burst the server returns to its idle size instead of keeping the freed blocks; a call with nothing to
  // give back takes 1–2 ms. The recently used PDFs left unused for 30 s go first (their bytes are freed at
  // V8's next collection and given back by a later call; docs/decisions/0033, seventh section).
  const trim = setInterval(() => {
    app.ctx.pdfs.dropIdle();
    mallocTrim();
  }, 15_000);
  trim.unref();
  stops.push(() => clearInterval(trim));

  const transport = createMailTransport(app.ctx.config, app.log);
  const mailWorker = startMailWorker({ db: app.ctx.db, transport, log: app.log, hub: app.ctx.mail });
  app.log.info(`mail: ${transport.description}`);
  stops.push(async () => {
    await mailWorker.stop();
    await transport.close();
  });

  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
