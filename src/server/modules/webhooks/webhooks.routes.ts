/**
 * /api/v1/webhooks: endpoints, their secrets, a test event and the delivery log (administrators only: the
 * ability subject 'Webhook').
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { okEnvelope } from '../../../shared/contract/common';
import {
  webhookAttemptsEnvelope,
  webhookAttemptsQuery,
  webhookEnvelope,
  webhookInput,
  webhookListEnvelope,
  webhookTestEnvelope,
  webhookUpdateInput,
  webhookWithSecretEnvelope,
} from '../../../shared/contract/webhooks';
import { actorOf } from '../audit/actor';
import * as service from './webhooks.service';

const can = (action: 'read' | 'create' | 'update' | 'delete') => ({ access: { action, subject: 'Webhook' as const } });
// Any string: a malformed id is answered "not found" (404) by the service, not a 400.
const params = z.object({ id: z.string() });

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['webhooks'];
  const { allowHttp, allowPrivate } = app.ctx.config.webhooks;
  // The product's own hosts: an endpoint there would have the product call itself.
  const rules = (req: FastifyRequest): service.TargetRules => ({
    allowHttp,
    allowPrivate,
    selfHosts: [new URL(app.ctx.config.publicBaseUrl).hostname, req.hostname].filter(Boolean),
  });

  app.get('/api/v1/webhooks', { schema: { tags, response: { 200: webhookListEnvelope } }, config: can('read') }, async () => ({
    data: await service.listWebhooks(db),
  }));

  // The answer carries the secret, this once.
  app.post(
    '/api/v1/webhooks',
    { schema: { tags, body: webhookInput, response: { 201: webhookWithSecretEnvelope } }, config: can('create') },
    async (req, reply) => reply.status(201).send({ data: await service.createWebhook(db, actorOf(req), req.body, rules(req)) }),
  );

  app.get('/api/v1/webhooks/:id', { schema: { tags, params, response: { 200: webhookEnvelope } }, config: can('read') }, async (req) => ({
    data: await service.getWebhook(db, req.params.id),
  }));

  app.patch(
    '/api/v1/webhooks/:id',
    { schema: { tags, params, body: webhookUpdateInput, response: { 200: webhookEnvelope } }, config: can('update') },
    async (req) => ({ data: await service.updateWebhook(db, actorOf(req), req.params.id, req.body, rules(req)) }),
  );

  app.delete('/api/v1/webhooks/:id', { schema: { tags, params, response: { 200: okEnvelope } }, config: can('delete') }, async (req) => {
    await service.deleteWebhook(db, actorOf(req), req.params.id);
    return { data: { ok: true as const } };
  });

  app.post(
    '/api/v1/webhooks/:id/rotate-secret',
    { schema: { tags, params, response: { 200: webhookWithSecretEnvelope } }, config: can('update') },
    async (req) => ({ data: await service.rotateSecret(db, actorOf(req), req.params.id) }),
  );

  app.post(
    '/api/v1/webhooks/:id/test',
    { schema: { tags, params, response: { 202: webhookTestEnvelope } }, config: can('update') },
    async (req, reply) => {
      const result = await service.sendTestEvent(db, actorOf(req), req.params.id);
      app.ctx.webhooks.kick();
      return reply.status(202).send({ data: result });
    },
  );

  app.get(
    '/api/v1/webhooks/:id/deliveries',
    { schema: { tags, params, querystring: webhookAttemptsQuery, response: { 200: webhookAttemptsEnvelope } }, config: can('read') },
    async (req) => ({ data: await service.listDeliveries(db, req.params.id, req.query) }),
  );
};
