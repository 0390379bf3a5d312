/**
 * /api/v1/quality: the quality analysis of the test data for staff and admins (read access to machine
 * data). Every figure answers for a range of UTC days (at most QUALITY_MAX_DAYS).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  controlChartEnvelope,
  controlChartQuery,
  heldRequestsEnvelope,
  heldRequestsQuery,
  openFailuresEnvelope,
  openFailuresQuery,
  qualitySummaryEnvelope,
  qualitySummaryQuery,
} from '../../../shared/contract/quality';
import * as service from './quality.service';

const read = { access: { action: 'read' as const, subject: 'MachineData' as const } };
const tags = ['quality'];

export const qualityRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/api/v1/quality/summary',
    { schema: { tags, querystring: qualitySummaryQuery, response: { 200: qualitySummaryEnvelope } }, config: read },
    async (req) => ({ data: await service.summary(db, req.query) }),
  );

  app.get(
    '/api/v1/quality/open-failures',
    { schema: { tags, querystring: openFailuresQuery, response: { 200: openFailuresEnvelope } }, config: read },
    async (req) => ({ data: await service.openFailures(db, req.query) }),
  );

  app.get(
    '/api/v1/quality/held-requests',
    { schema: { tags, querystring: heldRequestsQuery, response: { 200: heldRequestsEnvelope } }, config: read },
    async (req) => ({ data: await service.heldRequests(db, req.query) }),
  );

  app.get(
    '/api/v1/quality/control-chart',
    { schema: { tags, querystring: controlChartQuery, response: { 200: controlChartEnvelope } }, config: read },
    async (req) => ({ data: await service.controlChart(db, req.query) }),
  );
};
