/** /api/v1/machines: test benches and their API keys (admin only; the ability subject 'Machine'). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/contract/common';
import {
  importGrants,
  importGrantsInput,
  machine,
  machineCreateInput,
  machineDeleteOutcome,
  machineListEnvelope,
  machineListQuery,
  machineUpdateInput,
  machineWithKeyEnvelope,
} from '../../../shared/contract/machines';
import { translate } from '../../../shared/i18n/index';
import { requestLanguage } from '../../lib/request-language';
import { actorOf } from '../audit/actor';
import * as service from './machines.service';
import { readImportGrants, replaceImportGrants } from './import-grants';

const can = (action: 'read' | 'create' | 'update' | 'delete') => ({ access: { action, subject: 'Machine' as const } });
// Any string: a malformed id is answered "not found" (404) by the service, not a 400.
const idParams = z.object({ id: z.string() });
const deleted = envelope(machineDeleteOutcome).extend({ message: z.string(), messageKey: z.string() });

export const machineRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['machines'];

  app.get(
    '/api/v1/machines',
    { schema: { tags, querystring: machineListQuery, response: { 200: machineListEnvelope } }, config: can('read') },
    async (req) => ({ data: await service.listMachines(db, req.query) }),
  );

  app.post(
    '/api/v1/machines',
    { schema: { tags, body: machineCreateInput, response: { 201: machineWithKeyEnvelope } }, config: can('create') },
    async (req, reply) => reply.status(201).send({ data: await service.createMachine(db, actorOf(req), req.body) }),
  );

  app.patch(
    '/api/v1/machines/:id',
    { schema: { tags, params: idParams, body: machineUpdateInput, response: { 200: envelope(machine) } }, config: can('update') },
    async (req) => ({ data: await service.updateMachine(db, actorOf(req), req.params.id, req.body) }),
  );

  app.post(
    '/api/v1/machines/:id/rotate-key',
    { schema: { tags, params: idParams, response: { 200: machineWithKeyEnvelope } }, config: can('update') },
    async (req) => ({ data: await service.rotateKey(db, actorOf(req), req.params.id) }),
  );

  // Who may import test records in this bench's name (a CSV file's `machine` column).
  app.get(
    '/api/v1/machines/:id/import-grants',
    { schema: { tags, params: idParams, response: { 200: envelope(importGrants) } }, config: can('read') },
    async (req) => ({ data: await readImportGrants(db, req.params.id) }),
  );

  app.put(
    '/api/v1/machines/:id/import-grants',
    { schema: { tags, params: idParams, body: importGrantsInput, response: { 200: envelope(importGrants) } }, config: can('update') },
    async (req) => ({ data: await replaceImportGrants(db, actorOf(req), req.params.id, req.body.userIds) }),
  );

  app.delete(
    '/api/v1/machines/:id',
    { schema: { tags, params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      const outcome = await service.deleteMachine(db, actorOf(req), req.params.id);
      const key = outcome.outcome === 'deleted' ? 'machineData.machineDeleted' : 'machineData.disabledNotDeleted';
      const params = outcome.outcome === 'disabled' ? { count: outcome.recordCount } : undefined;
      return { data: outcome, message: translate(requestLanguage(req), key, params), messageKey: key };
    },
  );
};
