/**
 * Public verification of issued reports (docs/product.md §3 Verification): `GET /api/v1/public/reports/:id`
 * (facts), `GET /api/v1/public/reports/:id.pdf` (the stored bytes), `…/by-code/:code`, `…/by-hash/:sha256`.
 * Rate-limited per address (shared through Redis when REDIS_URL is set), so ids and codes cannot be
 * enumerated at speed; unknown is a 404 that says nothing more.
 */
import { contentDisposition } from '../../lib/content-disposition';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportCodeParams, reportHashParams, reportIdParams, reportVerificationEnvelope } from '../../../shared/contract/reports';
import { requestLanguage } from '../../lib/request-language';
import * as service from './reports.service';

/** Per address and minute: a person checks a handful of reports; a script guessing codes is slowed to a crawl. */
export const VERIFY_RATE_LIMIT = { max: 60, timeWindow: 60_000 };

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, pdfs } = app.ctx;
  const tags = ['reports'];
  const config = { access: 'public' as const, rateLimit: VERIFY_RATE_LIMIT };

  // One route for both forms of the id: a parameter followed by a literal ".pdf" is not a route shape the
  // router offers, and the facts and the file share the lookup.
  app.get('/api/v1/public/reports/:id', { schema: { tags, params: reportIdParams }, config }, async (req, reply) => {
    const { id } = req.params;
    if (id.endsWith('.pdf')) {
      const pdf = await service.reportPdf(db, id.slice(0, -4), pdfs);
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition('download' in (req.query as object) ? 'attachment' : 'inline', pdf.filename))
        .header('etag', `"${pdf.sha256}"`)
        .header('cache-control', 'private, max-age=3600')
        .send(pdf.bytes);
    }
    return reportVerificationEnvelope.parse({ data: await service.verifyById(db, id, { language: requestLanguage(req), pdfs }) });
  });

  app.get(
    '/api/v1/public/reports/by-code/:code',
    { schema: { tags, params: reportCodeParams, response: { 200: reportVerificationEnvelope } }, config },
    async (req) => ({ data: await service.verifyByCode(db, req.params.code, { language: requestLanguage(req), pdfs }) }),
  );

  app.get(
    '/api/v1/public/reports/by-hash/:sha256',
    { schema: { tags, params: reportHashParams, response: { 200: reportVerificationEnvelope } }, config },
    async (req) => ({ data: await service.verifyByHash(db, req.params.sha256, { language: requestLanguage(req), pdfs }) }),
  );
};
