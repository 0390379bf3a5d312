/**
 * /api/v1/search-requests (staff and admins; the ability subject 'SearchRequest'): the list, its CSV export,
 * a request with its delivery history, and a resend (limited per request and per staff member:
 * resend-limits.ts). The visitor's address is masked in the server for
 * anyone who may not manage search requests (staff); no parameter changes that.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SEARCH_EXPORT_COLUMNS,
  searchListEnvelope,
  searchListQuery,
  searchRequestDetailEnvelope,
  searchResendEnvelope,
  type SearchRequest,
} from '../../../shared/contract/searches';
import { defineAbilitiesFor } from '../../../shared/abilities';
import { actorOf, successMessage } from '../audit/actor';
import { requireUser } from '../../lib/access';
import { createCounterStore } from '../../lib/counters';
import { sendCsv } from '../../lib/http-files';
import { checkResendAllowed, countResend } from './resend-limits';
import * as service from './searches.service';

const can = (action: 'read' | 'update') => ({ access: { action, subject: 'SearchRequest' as const } });
const idParams = z.object({ id: z.string().max(100) });

/** Full personal data for those who may manage search requests (admins), a mask for the rest. */
function viewerOf(req: FastifyRequest): service.Viewer {
  return { fullPersonalData: !!req.user && defineAbilitiesFor(req.user.role).can('manage', 'SearchRequest') };
}

function csvRow(r: SearchRequest): (string | number | null)[] {
  const cells: Record<(typeof SEARCH_EXPORT_COLUMNS)[number], string | number | null> = {
    createdAt: r.createdAt,
    id: r.id,
    source: r.source,
    serials: r.serials.map((x) => x.serial).join(' '),
    found: r.found ? 'yes' : 'no',
    recipientEmail: r.recipientEmail,
    language: r.language,
    termsVersion: r.termsVersion,
    status: r.status,
    attempts: r.attempts,
    lastError: r.lastError,
    sentAt: r.sentAt,
    reports: r.serials.flatMap((x) => (x.reportId ? [x.reportId] : [])).join(' '),
  };
  return SEARCH_EXPORT_COLUMNS.map((c) => cells[c]);
}

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['searches'];
  const counters = createCounterStore(app.ctx.redis);

  app.get(
    '/api/v1/search-requests',
    { schema: { tags, querystring: searchListQuery, response: { 200: searchListEnvelope } }, config: can('read') },
    async (req) => ({ data: await service.listSearches(db, req.query, viewerOf(req)) }),
  );

  app.get(
    '/api/v1/search-requests/export.csv',
    { schema: { tags, querystring: searchListQuery }, config: can('read') },
    async (req, reply) => {
      const viewer = viewerOf(req);
      const rows = async function* () {
        for await (const page of service.searchPages(db, req.query, viewer)) yield page.map(csvRow);
      };
      return sendCsv(reply, 'searches.csv', SEARCH_EXPORT_COLUMNS, rows());
    },
  );

  app.get(
    '/api/v1/search-requests/:id',
    { schema: { tags, params: idParams, response: { 200: searchRequestDetailEnvelope } }, config: can('read') },
    async (req) => ({ data: await service.getSearch(db, req.params.id, viewerOf(req)) }),
  );

  app.post(
    '/api/v1/search-requests/:id/resend',
    { schema: { tags, params: idParams, response: { 200: searchResendEnvelope } }, config: can('update') },
    async (req, reply) => {
      const user = requireUser(req);
      await checkResendAllowed(counters, reply, req.params.id, user.id);
      const data = await service.resendSearch(db, app.ctx.mail, req.params.id, actorOf(req), viewerOf(req));
      await countResend(counters, req.params.id, user.id);
      return { data, ...successMessage(req, 'searches.resent') };
    },
  );
};
