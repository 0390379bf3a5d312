/** GET /api/v1/dashboard: the staff dashboard's figures (admins and staff). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { defineAbilitiesFor } from '../../../shared/abilities';
import { dashboardEnvelope } from '../../../shared/contract/dashboard';
import * as service from './dashboard.service';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  app.get(
    '/api/v1/dashboard',
    {
      schema: { tags: ['dashboard'], response: { 200: dashboardEnvelope } },
      config: { access: { action: 'read', subject: 'Dashboard' } },
    },
    async (req) => {
      const fullPersonalData = !!req.user && defineAbilitiesFor(req.user.role).can('manage', 'SearchRequest');
      return { data: await service.dashboard(db, { fullPersonalData }) };
    },
  );
};
