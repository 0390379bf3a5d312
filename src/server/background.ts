/**
 * Work the server does besides answering requests (the mail outbox worker, housekeeping). Each piece
 * returns a stop function; main.ts stops them before closing the database.
 */
import type { FastifyInstance } from 'fastify';
import { createMailTransport } from './mail/transports';
import { startMailWorker } from './mail/worker';
import { mallocTrim } from './lib/malloc-trim';
import { purgeExpiredSessions } from './lib/sessions';
import { compactRequestCounts, pruneOpenDisagreements } from './modules/dashboard/dashboard.repo';
import { applySearchRetention } from './modules/public/search-retention';
import { recheckStoredSamples } from './modules/machine-data/record-sample-recheck';
import { archiveOldRecords } from './modules/machine-data/record-archive';
import { rejudgeOnStandardsChange } from './modules/standards/standards.service';
import { startReleaseWorker } from './modules/orders/release-worker';
import { sendDeliveryLink } from './modules/orders/delivery-links';
import { orderIssuer } from './modules/orders/order-issuer';
import { mailSender } from './modules/settings/settings.service';
import { startAlertEvaluator } from './modules/alerts/evaluator';
import { alertOnDisabledEndpoint, alertSinks } from './modules/alerts/notify';
import { mailDailyDigest } from './modules/alerts/alert-mail';
import { startWebhookWorker } from './modules/webhooks/worker';

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

  // Records of units last tested before the operator's retention (none by default) move to the archive, at
  // start and hourly, a minute of moving at most per run (machine-data/record-archive.ts); a run that stops
  // at its minute goes on at the next hour.
  const archive = () =>
    archiveOldRecords(app.ctx.db)
      .then((r) => {
        if (r.moved) app.log.info(r, 'record archive: records of units past the retention moved');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'record archive failed'));
  void archive();
  const archiveTimer = setInterval(() => void archive(), 60 * 60 * 1000);
  archiveTimer.unref();
  stops.push(() => clearInterval(archiveTimer));

  // A changed standards data file (a figure, a table row): every product's requirement is derived again and
  // the records whose requirement changed are judged again, once (docs/decisions/0045-standards-tables.md).
  const rejudged = rejudgeOnStandardsChange(app.ctx.db)
    .then((changed) => {
      if (changed) app.log.info({ products: changed.length }, 'standards data changed: requirements derived again, records judged again');
    })
    .catch((err: unknown) => app.log.warn({ err }, 'standards re-judgement failed'));

  // Records stored before their samples took part in the verdict are judged again with them, once, at start
  // (docs/decisions/0037-samples-decide-the-hold.md).
  const rechecked = recheckStoredSamples(app.ctx.db)
    .then((n) => {
      if (n > 0) app.log.info({ records: n }, 'stored samples checked again against their records');
    })
    .catch((err: unknown) => app.log.warn({ err }, 'sample re-check failed'));

  // The dashboard's request counts are appended per statement; fold them into a row per day every 5 minutes
  // (one statement, safe beside writers and other instances) so that reading them stays small. The kept open
  // disagreements lose any row that a retest stored at the same moment left closed (decision 0071).
  const compaction = setInterval(
    () => {
      compactRequestCounts(app.ctx.db).catch((err: unknown) => app.log.warn({ err }, 'request count compaction failed'));
      pruneOpenDisagreements(app.ctx.db).catch((err: unknown) => app.log.warn({ err }, 'open disagreement pruning failed'));
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

  // Deliveries being released: their certificates, then the buyer's link; at start this resumes a release a
  // stopped server left halfway (docs/decisions/0044-delivery-release.md).
  const releases = startReleaseWorker({
    db: app.ctx.db,
    issue: orderIssuer(app),
    sendLink: (tx, input) => sendDeliveryLink(tx, { ...input, source: 'release', publicBaseUrl: app.ctx.config.publicBaseUrl }),
    wakeup: app.ctx.releases,
    log: app.log,
    kickMail: () => app.ctx.mail.kick(),
    concurrency: Math.max(1, app.ctx.config.reports.workers),
  });
  stops.push(() => releases.stop());

  // Alerts: a round every minute, or a few seconds after records are stored (docs/decisions/0065); the
  // daily digest goes with the first round of each UTC day, from whichever instance gets there first.
  const baseUrl = app.ctx.config.publicBaseUrl;
  const sinks = alertSinks({ baseUrl });
  const alerts = startAlertEvaluator({
    db: app.ctx.db,
    sinks,
    wakeup: app.ctx.alerts,
    log: app.log,
    // The first round after the start's own re-judgements: alerts read records as they are judged now.
    startAfter: Promise.allSettled([rejudged, rechecked]),
    afterRound: async () => {
      if ((await mailDailyDigest(app.ctx.db, baseUrl)) > 0) app.ctx.mail.kick();
      // The round's alerts may have written webhook deliveries: sent now rather than at the next poll.
      app.ctx.webhooks.kick();
    },
  });
  stops.push(() => alerts.stop());

  const transport = createMailTransport(app.ctx.config, app.log);
  const mailWorker = startMailWorker({ db: app.ctx.db, transport, log: app.log, hub: app.ctx.mail, sender: mailSender(app.ctx.db) });
  app.log.info(`mail: ${transport.description}`);
  stops.push(async () => {
    await mailWorker.stop();
    await transport.close();
  });

  // Signed webhooks from their outbox (docs/decisions/0066-webhooks.md); several instances share the work.
  const webhooks = startWebhookWorker({
    db: app.ctx.db,
    log: app.log,
    publicBaseUrl: app.ctx.config.publicBaseUrl,
    allowPrivate: app.ctx.config.webhooks.allowPrivate,
    timeoutMs: app.ctx.config.webhooks.timeoutMs,
    wakeup: app.ctx.webhooks,
    // An endpoint switched off after failing for a day raises an alert, so that someone looks at it.
    onEndpointDisabled: alertOnDisabledEndpoint(sinks),
  });
  stops.push(() => webhooks.stop());

  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
