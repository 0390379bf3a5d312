/**
 * /api/v1/alerts: the alert inbox of staff and admins, its acknowledgement, and the thresholds of a
 * product (staff) or a bench (admins, as the benches themselves).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acknowledgeInput,
  alertCountEnvelope,
  alertEnvelope,
  alertListEnvelope,
  alertMailEnvelope,
  alertMailInput,
  alertsQuery,
  thresholdsEnvelope,
  thresholdsInput,
} from '../../../shared/contract/alerts';
import { AppError } from '../../../shared/errors';
import { requestLanguage } from '../../lib/request-language';
import { actorOf } from '../audit/actor';
import * as service from './alerts.service';
import { alertSinks } from './notify';

const can = (action: 'read' | 'update', subject: 'Alert' | 'Product' | 'Machine' = 'Alert') => ({ access: { action, subject } });
// Any string: a malformed id is answered "not found" (404), as an unknown one.
const idParams = z.object({ id: z.string() });
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const known = (id: string) => uuid.test(id);
const tags = ['alerts'];

export const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const sinks = alertSinks({ baseUrl: app.ctx.config.publicBaseUrl });
  const notFound = (key = 'alerts.notFound'): never => {
    throw new AppError('not-found', key);
  };

  app.get(
    '/api/v1/alerts',
    { schema: { tags, querystring: alertsQuery, response: { 200: alertListEnvelope } }, config: can('read') },
    async (req) => ({ data: await service.listAlerts(db, requestLanguage(req), req.query) }),
  );

  app.get('/api/v1/alerts/count', { schema: { tags, response: { 200: alertCountEnvelope } }, config: can('read') }, async () => ({
    data: { open: await service.openAlertCount(db) },
  }));

  // The signed-in user's own choice of alert email.
  app.get('/api/v1/alerts/email', { schema: { tags, response: { 200: alertMailEnvelope } }, config: can('read') }, async (req) => ({
    data: { alertMail: await service.alertMailOf(db, req.user!.id) },
  }));

  app.put(
    '/api/v1/alerts/email',
    { schema: { tags, body: alertMailInput, response: { 200: alertMailEnvelope } }, config: can('read') },
    async (req) => ({ data: { alertMail: await service.setAlertMail(db, actorOf(req), req.user!.id, req.body.alertMail) } }),
  );

  app.get(
    '/api/v1/alerts/:id',
    { schema: { tags, params: idParams, response: { 200: alertEnvelope } }, config: can('read') },
    async (req) => ({ data: known(req.params.id) ? await service.getAlert(db, requestLanguage(req), req.params.id) : notFound() }),
  );

  app.post(
    '/api/v1/alerts/:id/acknowledge',
    { schema: { tags, params: idParams, body: acknowledgeInput, response: { 200: alertEnvelope } }, config: can('update') },
    async (req) => {
      if (!known(req.params.id)) return { data: notFound() };
      const data = await service.acknowledgeAlert(db, requestLanguage(req), actorOf(req), req.params.id, req.body, sinks);
      app.ctx.webhooks.kick();
      return { data };
    },
  );

  app.get(
    '/api/v1/products/:id/alert-thresholds',
    { schema: { tags, params: idParams, response: { 200: thresholdsEnvelope } }, config: can('read', 'Product') },
    async (req) => ({
      data: known(req.params.id) ? await service.getThresholds(db, { productId: req.params.id }) : notFound('errors.notFound'),
    }),
  );

  app.put(
    '/api/v1/products/:id/alert-thresholds',
    { schema: { tags, params: idParams, body: thresholdsInput, response: { 200: thresholdsEnvelope } }, config: can('update', 'Product') },
    async (req) => ({
      data: known(req.params.id)
        ? await service.setThresholds(db, actorOf(req), { productId: req.params.id }, req.body)
        : notFound('errors.notFound'),
    }),
  );

  app.get(
    '/api/v1/machines/:id/alert-thresholds',
    { schema: { tags, params: idParams, response: { 200: thresholdsEnvelope } }, config: can('read', 'Machine') },
    async (req) => ({
      data: known(req.params.id) ? await service.getThresholds(db, { machineId: req.params.id }) : notFound('errors.notFound'),
    }),
  );

  app.put(
    '/api/v1/machines/:id/alert-thresholds',
    { schema: { tags, params: idParams, body: thresholdsInput, response: { 200: thresholdsEnvelope } }, config: can('update', 'Machine') },
    async (req) => ({
      data: known(req.params.id)
        ? await service.setThresholds(db, actorOf(req), { machineId: req.params.id }, req.body)
        : notFound('errors.notFound'),
    }),
  );
};
