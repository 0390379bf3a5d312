/** /api/v1/serial-ranges/{id}/release: what the gate says of a range, and its release by an authorised inspector. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rangeReleaseEnvelope } from '../../../shared/contract/range-release';
import { requireUser } from '../../lib/access';
import { actorOf, successMessage } from '../audit/actor';
import { releaseRange, releaseView } from './range-release.service';

// Any string: a malformed id is a 404 from the service, not a 400.
const idParams = z.object({ id: z.string() });
const released = rangeReleaseEnvelope.extend({ message: z.string(), messageKey: z.string() });

export const rangeReleaseRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['serial-ranges'];

  app.get(
    '/api/v1/serial-ranges/:id/release',
    {
      schema: { tags, params: idParams, response: { 200: rangeReleaseEnvelope } },
      config: { access: { action: 'read', subject: 'SerialRange' } },
    },
    async (req) => ({ data: await releaseView(db, req.params.id) }),
  );

  // Any staff account reaches the service, which answers 403 unless the account is an authorised inspector.
  app.post(
    '/api/v1/serial-ranges/:id/release',
    {
      schema: { tags, params: idParams, response: { 200: released } },
      config: { access: { action: 'read', subject: 'SerialRange' } },
    },
    async (req) => {
      const data = await releaseRange(db, requireUser(req), actorOf(req), req.params.id);
      return { data, ...successMessage(req, 'serials.release.done') };
    },
  );
};
