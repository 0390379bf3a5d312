/**
 * The buyer's side of a delivery link (docs/integration.md): `GET /api/v1/public/deliveries/{token}` (the
 * index), `GET /api/v1/public/deliveries/{token}.zip` (every newest signed PDF, index.json and index.csv,
 * streamed) and `POST /api/v1/public/delivery-links` ("I have a delivery": a link emailed to an address of
 * the buyer's), and `GET /api/v1/public/deliveries/{token}/{serial}.pdf?language=en|zh|bilingual` (one unit's
 * certificate in a rendering of the buyer's choice). Anonymous and rate-limited per address like the other public routes; an unknown, malformed
 * or revoked token is the same 404.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/contract/common';
import { deliveryLinkRequestInput, deliveryLinkRequestResult } from '../../../shared/contract/delivery-links';
import { AppError } from '../../../shared/errors';
import { contentDisposition } from '../../lib/content-disposition';
import { createCounterStore } from '../../lib/counters';
import { inboxKey } from '../../lib/email-address';
import { requestLanguage } from '../../lib/request-language';
import { writeZip, zipFits } from '../../lib/zip-stream';
import { ProofOfWork } from './proof-of-work';
import { limitKeys, PUBLIC_LIMITS, quietRateLimit } from './public-limits';
import { deliveryIndex, pdfNames, zipEntries, type DeliveryIndexWithSizes } from '../orders/delivery-index';
import { findDeliveryByToken } from '../orders/delivery-links';
import { requestDeliveryLink } from '../orders/delivery-links.service';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../../shared/contract/reports';
import { orderIssuer } from '../orders/order-issuer';
import { deliveryUnitOrder } from '../orders/release.service';

/** A token in a link must not leave with a click on a link to another site, nor stay in a cache. */
function keepPrivate(reply: FastifyReply): FastifyReply {
  return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
}

/** `{token}/{serial}.pdf`: a serial is letters, digits and a few separators, percent-encoded in the path. */
const UNIT_PDF = /^([^/]+)\/([^/]{1,200})\.pdf$/;

function fits(data: DeliveryIndexWithSizes): boolean {
  const names = pdfNames(data.index.units);
  // index.json and index.csv: a generous bound of a few hundred bytes a unit
  const indexes = { nameBytes: 10, size: 2 * 1024 + data.index.units.length * 2048 };
  return zipFits([
    indexes,
    indexes,
    ...data.pdfs.map((p, i) => ({ nameBytes: Buffer.byteLength(names[i]!), size: p.size })),
    ...data.index.millCertificates.map((m) => ({ nameBytes: Buffer.byteLength(m.file), size: m.bytes })),
  ]);
}

export const publicDeliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const limits = PUBLIC_LIMITS;
  const counters = createCounterStore(app.ctx.redis);
  const pow = new ProofOfWork(db);
  const tags = ['public'];
  const deps = { db, publicBaseUrl: app.ctx.config.publicBaseUrl, kick: () => app.ctx.mail.kick() };

  // A wildcard, not `:token`: a parameter past the router's length limit would be the router's own 404,
  // which differs from the answer of a token not found.
  app.get(
    '/api/v1/public/deliveries/*',
    {
      config: { access: 'anonymous', rateLimit: quietRateLimit(limits.deliveryPerIp) },
      schema: {
        tags,
        params: z.object({ '*': z.string() }),
        // A unit's certificate in a rendering of the buyer's choice (`{token}/{serial}.pdf`); the index and
        // the ZIP carry the release's own rendering and do not read it.
        querystring: z.object({ language: z.enum(REPORT_LANGUAGES, { error: 'validation.oneOf' }).optional() }),
      },
      // Runs after the app's security headers (src/server/lib/security-headers.ts), which set their own Referrer-Policy.
      onSend: (_req, reply, payload, done) => {
        keepPrivate(reply);
        done(null, payload);
      },
    },
    async (req, reply) => {
      const path = req.params['*'];
      const unitPdf = UNIT_PDF.exec(path);
      if (unitPdf) return unitCertificate(reply, unitPdf[1]!, unitPdf[2]!, req.query.language);
      const zip = path.endsWith('.zip');
      const d = await findDeliveryByToken(db, zip ? path.slice(0, -4) : path);
      if (!d) throw new AppError('not-found', 'deliveryLinks.linkNotFound');
      const data = await deliveryIndex(db, d);
      if (!zip) return reply.type('application/json; charset=utf-8').send({ data: data.index });
      if (!fits(data)) throw new AppError('out-of-range', 'deliveryLinks.tooLarge');
      // Written as the client reads (writeZip waits for 'drain'); the PDFs are read one at a time, and no
      // more once the client has gone (Fastify destroys `out` when the connection closes).
      const out = new PassThrough();
      writeZip(out, zipEntries(db, data)).catch((err: unknown) => {
        req.log.error({ err, deliveryId: d.id }, 'delivery ZIP stopped');
        out.destroy(err as Error);
      });
      return reply
        .type('application/zip')
        .header('content-disposition', contentDisposition('attachment', `delivery-${d.number}.zip`))
        .send(out);
    },
  );

  /**
   * One unit's certificate in another rendering (English, Chinese, or both side by side: one certificate, one
   * number, docs/decisions/0055-one-number-per-certificate.md), naming the buyer's order as the release's
   * does. Issued once, through the report pool like a visitor's request, then stored and served again.
   */
  const issueWithOrder = orderIssuer(app);
  async function unitCertificate(reply: FastifyReply, token: string, serial: string, asked: ReportLanguage | undefined) {
    const d = await findDeliveryByToken(db, token);
    if (!d) throw new AppError('not-found', 'deliveryLinks.linkNotFound');
    const unit = await deliveryUnitOrder(db, d.id, decodeURIComponent(serial));
    // Not one of the link's units: the same 404 as a link not found (nothing to learn about other deliveries).
    if (!unit) throw new AppError('not-found', 'deliveryLinks.linkNotFound');
    // Without a choice, the language the release issued its certificates in: the same file as the ZIP's.
    const language = asked ?? d.releaseLanguage ?? 'en';
    const issued = await issueWithOrder(db, { serial: unit.serial, language, order: unit.order });
    if (issued.status !== 'issued') throw new AppError('failed-precondition', 'deliveryLinks.unitHeld');
    return reply
      .type('application/pdf')
      .header('content-disposition', contentDisposition('inline', issued.report.filename))
      .send(issued.report.bytes);
  }

  app.post(
    '/api/v1/public/delivery-links',
    {
      config: { access: 'anonymous', rateLimit: quietRateLimit(limits.requestPerIp) },
      schema: { tags, body: deliveryLinkRequestInput, response: { 200: envelope(deliveryLinkRequestResult) } },
    },
    async (req, reply) => {
      const input = req.body;
      // As the report request (src/server/modules/public/public.routes.ts): the proof-of-work first, so that
      // counting an address costs a solved challenge; per IP by the route's rate limit, per inbox here, on
      // the report requests' count (emails to one inbox, whichever form asked for them).
      await pow.consume(input.challenge);
      await limitKeys(counters, reply, [`request-to:${inboxKey(input.email)}`], limits.requestPerRecipient);
      return { data: requestDeliveryLink({ ...deps, later: app.ctx.afterResponse }, input, requestLanguage(req)) };
    },
  );
};
