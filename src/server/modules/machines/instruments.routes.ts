/**
 * /api/v1/machines/{id}/instruments: a bench's pressure gauges and transducers and their calibrations (admin
 * only, as the benches themselves: the ability subject 'Machine').
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  calibrationInput,
  instrumentCreateInput,
  instrumentEnvelope,
  instrumentListEnvelope,
  instrumentUpdateInput,
} from '../../../shared/contract/instruments';
import { actorOf } from '../audit/actor';
import * as service from './instruments.service';

const can = (action: 'read' | 'create' | 'update') => ({ access: { action, subject: 'Machine' as const } });
// Any string: a malformed id is answered "not found" (404) by the service, not a 400.
const benchParams = z.object({ id: z.string() });
const instrumentParams = z.object({ id: z.string(), instrument: z.string() });

export const instrumentRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['machines'];

  app.get(
    '/api/v1/machines/:id/instruments',
    { schema: { tags, params: benchParams, response: { 200: instrumentListEnvelope } }, config: can('read') },
    async (req) => ({ data: await service.listInstruments(db, req.params.id) }),
  );

  app.post(
    '/api/v1/machines/:id/instruments',
    { schema: { tags, params: benchParams, body: instrumentCreateInput, response: { 201: instrumentEnvelope } }, config: can('create') },
    async (req, reply) => reply.status(201).send({ data: await service.createInstrument(db, actorOf(req), req.params.id, req.body) }),
  );

  app.patch(
    '/api/v1/machines/:id/instruments/:instrument',
    {
      schema: { tags, params: instrumentParams, body: instrumentUpdateInput, response: { 200: instrumentEnvelope } },
      config: can('update'),
    },
    async (req) => ({ data: await service.updateInstrument(db, actorOf(req), req.params.id, req.params.instrument, req.body) }),
  );

  // A recalibration: the earlier calibrations stay, so records keep the one in force on their test day.
  app.post(
    '/api/v1/machines/:id/instruments/:instrument/calibrations',
    { schema: { tags, params: instrumentParams, body: calibrationInput, response: { 201: instrumentEnvelope } }, config: can('update') },
    async (req, reply) =>
      reply.status(201).send({ data: await service.addCalibration(db, actorOf(req), req.params.id, req.params.instrument, req.body) }),
  );
};
