/**
 * /api/v1/quality: the quality analysis of the test data for staff and admins (read access to machine
 * data). Every figure answers for a range of UTC days (at most QUALITY_MAX_DAYS).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  controlChartEnvelope,
  controlChartQuery,
  heldRequestsEnvelope,
  heldRequestsQuery,
  heldUnitsEnvelope,
  heldUnitsQuery,
  openFailuresEnvelope,
  openFailuresQuery,
  qualitySummaryEnvelope,
  qualitySummaryQuery,
  unitReleaseEnvelope,
} from '../../../shared/contract/quality';
import { sendCsv } from '../../lib/http-files';
import * as held from './held-units';
import * as service from './quality.service';

const read = { access: { action: 'read' as const, subject: 'MachineData' as const } };
const tags = ['quality'];
const HELD_UNITS_COLUMNS = ['serial', 'product', 'latestTestedAt', 'heldFor'] as const;

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
    async (req) => ({ data: await held.heldRequests(db, req.query) }),
  );

  app.get(
    '/api/v1/quality/control-chart',
    { schema: { tags, querystring: controlChartQuery, response: { 200: controlChartEnvelope } }, config: read },
    async (req) => ({ data: await service.controlChart(db, req.query) }),
  );

  // The worklist of held units (held-units.ts): a page, all of it as CSV, and one unit's answer.
  app.get(
    '/api/v1/held-units',
    { schema: { tags, querystring: heldUnitsQuery, response: { 200: heldUnitsEnvelope } }, config: read },
    async (req) => ({ data: await held.heldUnits(db, req.query) }),
  );

  app.get('/api/v1/held-units/export.csv', { schema: { tags, querystring: heldUnitsQuery }, config: read }, async (req, reply) => {
    const units = await held.allHeldUnits(db, req.query);
    return sendCsv(reply, 'held-units.csv', HELD_UNITS_COLUMNS, [units.map(held.csvRowOf)]);
  });

  app.get(
    '/api/v1/held-units/:serial',
    { schema: { tags, params: z.object({ serial: z.string().max(300) }), response: { 200: unitReleaseEnvelope } }, config: read },
    async (req) => ({ data: await held.unitRelease(db, req.params.serial) }),
  );
};
