/**
 * /api/v1/public: the Test Report Center's API for anonymous visitors (docs/product.md §5). Lookup of a serial,
 * the proof-of-work challenge, and the report request. The report PDF and its verification are served by
 * the reports module. Access 'anonymous' (src/server/lib/access.ts): these routes never read the session,
 * so the lookup, the busiest route of the app, runs without the staff side's session hook.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/contract/common';
import { lookupAnswerData, lookupInput, powChallenge, reportRequestInput, reportRequestResult } from '../../../shared/contract/public';
import { addressKey } from '../../lib/client-key';
import { createCounterStore } from '../../lib/counters';
import { inboxKey } from '../../lib/email-address';
import { sendError } from '../../lib/error-handler';
import { requestLanguage } from '../../lib/request-language';
import { issueReport } from '../reports/issue';
import { renderThrough } from '../reports/render-job';
import { getSettings } from '../settings/settings.service';
import { registerReportMailOutcome } from './search-mail-outcome';
import { registerGs1Resolver } from './gs1-resolver';
import { registerIdentificationLink } from './identification-link';
import { CertificateAvailability, withCertificateState } from './certificate-availability';
import { LookupService, NotFoundRecorder, type VisitorMeta } from './lookup.service';
import { ProofOfWork } from './proof-of-work';
import { limitKeys, PUBLIC_LIMITS, quietRateLimit } from './public-limits';
import { registerReportMailComposer } from './report-mail';
import { orderCertificateFor } from '../orders/buyer-certificate';
import { requestReports } from './report-requests.service';

/** Text with a JSON type is sent as it is: no serialiser runs (the lookup's answers were checked when cached). */
function sendJsonText(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

function metaOf(req: FastifyRequest): VisitorMeta {
  return { ip: req.ip, userAgent: req.headers['user-agent'], language: requestLanguage(req) };
}

export const publicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const limits = PUBLIC_LIMITS;
  const counters = createCounterStore(app.ctx.redis);
  const lookups = new LookupService(db);
  const availability = new CertificateAvailability(db, app.ctx.afterResponse);
  const notFound = new NotFoundRecorder(db, app.ctx.afterResponse, app.log);
  const pow = new ProofOfWork(db);
  const stopFollowing = registerReportMailOutcome(app.ctx.mail);
  // A report email names its reports; their bytes are read when it is sent (report-mail.ts).
  const stopComposing = registerReportMailComposer(app.ctx.mail, app.ctx.pdfs);
  app.addHook('onClose', async () => {
    stopFollowing();
    stopComposing();
  });
  // /id/<serial> and /01/<GTIN>/21/<serial>, the nameplate's identification link: the lookup's answers and limits.
  registerIdentificationLink(app, { counters, lookups });
  // What a GS1 resolver publishes about itself (docs/decisions/0062-gs1-digital-link.md).
  registerGs1Resolver(app, { settings: () => getSettings(db) });

  app.post(
    '/api/v1/public/lookup',
    {
      config: { access: 'anonymous', rateLimit: quietRateLimit(limits.lookupPerIp) },
      // Its answers are a few hundred bytes, below compressOptions' threshold: the plugin's hooks would
      // only decide so on every request.
      compress: false,
      // No "incoming request" and "request completed" lines (two writes to the log per lookup), even at
      // LOG_LEVEL=debug, where other routes have them (lib/log.ts): the proxy's
      // access log has each request, not-found lookups are recorded (search_requests), and warnings and
      // errors are still logged (docs/decisions/0028).
      logLevel: 'warn',
      schema: { tags: ['public'], body: lookupInput, response: { 200: envelope(lookupAnswerData) } },
    },
    async (req, reply) => {
      const { serial } = req.body;
      // Per client and serial: a script looking one serial up again and again stops, without locking
      // everyone else out of that serial (docs/decisions/0021-abuse-limits.md).
      await limitKeys(counters, reply, [`lookup-serial:${addressKey(req.ip)}:${serial}`], limits.lookupPerSerial);
      const body = await lookups.answer(serial);
      // Found: whether its report can be sent now, said at once (certificate-availability.ts).
      if (body !== null) return sendJsonText(reply, withCertificateState(body, await availability.available(serial)));
      notFound.record(serial, metaOf(req));
      const suggestion = await lookups.nearMiss(serial);
      // The envelope a thrown AppError would get, without the exception: a fifth of lookups end here.
      if (suggestion) return sendError(req, reply, 'not-found', 'errors.serialNotFoundDidYouMean', { params: { suggestion } });
      return sendError(req, reply, 'not-found', 'errors.serialNotFound');
    },
  );

  app.get(
    '/api/v1/public/challenge',
    {
      config: { access: 'anonymous', rateLimit: quietRateLimit(limits.challengePerIp) },
      schema: { tags: ['public'], response: { 200: envelope(powChallenge) } },
    },
    async () => ({ data: await pow.challenge() }),
  );

  app.post(
    '/api/v1/public/report-requests',
    {
      config: { access: 'anonymous', rateLimit: quietRateLimit(limits.requestPerIp) },
      schema: { tags: ['public'], body: reportRequestInput, response: { 200: envelope(reportRequestResult) } },
    },
    async (req, reply) => {
      const input = req.body;
      // No room in the report pool now: 503 before anything else, the database included. Nothing is
      // reserved or counted here (the room is taken below, after the proof-of-work); during a burst the
      // refused requests cost a comparison each, not a statement on the embedded database's one
      // connection ahead of every lookup (docs/decisions/0020).
      app.ctx.reportPool.checkRoom(input.serials.length);
      // The proof-of-work first: counting an address or a serial must cost the caller a solved challenge,
      // or anyone could use up a stranger's allowance for free.
      await pow.consume(input.challenge);
      // Each serial may cost a report to render and sign, so each counts against the address's allowance.
      const client = addressKey(req.ip);
      await limitKeys(counters, reply, [`request-serials-ip:${client}`], limits.requestSerialsPerIp, input.serials.length);
      // The inbox, not the spelling: `Jane+1@` and `j.a.n.e@gmail.com` count as jane's (lib/email-address.ts).
      await limitKeys(counters, reply, [`request-to:${inboxKey(input.email)}`], limits.requestPerRecipient);
      await limitKeys(
        counters,
        reply,
        input.serials.map((s) => `request-serial:${client}:${s}`),
        limits.requestPerSerial,
      );
      // Room in the report pool for every serial named, taken before any work: a full pool is a 503 with
      // Retry-After now, not a request that waits behind everyone else's (docs/decisions/0020).
      const room = app.ctx.reportPool.reserve(input.serials.length);
      const render = renderThrough(room.run);
      const data = await requestReports(
        {
          db,
          issueReport: (database, request) =>
            issueReport(database, { ...request, publicBaseUrl: app.ctx.config.publicBaseUrl, render, pdfs: app.ctx.pdfs }),
          kick: () => app.ctx.mail.kick(),
          termsVersion: async () => (await getSettings(db)).termsVersion,
          contact: async () => (await getSettings(db)).contact,
          orderCertificateFor,
        },
        input,
        metaOf(req),
      ).finally(() => room.release());
      return { data };
    },
  );
};
