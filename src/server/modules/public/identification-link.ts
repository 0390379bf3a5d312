/**
 * The identification link (docs/decisions/0061-identification-link.md): `GET /id/<serial>`, what a
 * nameplate's QR code opens. A browser is sent on to the public page, which looks the serial up at once
 * (307, with a Link header naming the linkset); `Accept: application/linkset+json` or `?linkType=linkset`
 * answers the unit's linkset (RFC 9264), `?linkType=gs1:masterData` (or `Accept: application/ld+json`) its
 * data sheet. The answers are built from the public lookup's and limited like it: per address, and per
 * address and serial on the lookup's own counter. Anything that is not a unit answers the lookup's 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LookupResult } from '../../../shared/contract/public';
import { identificationLink } from '../../../shared/identification';
import { normaliseSerial, parseSerial, SERIAL_MAX_LENGTH } from '../../../shared/serial';
import { addressKey } from '../../lib/client-key';
import type { CounterStore } from '../../lib/counters';
import { sendError } from '../../lib/error-handler';
import type { LookupService } from './lookup.service';
import { limitKeys, PUBLIC_LIMITS, quietRateLimit } from './public-limits';
import { unitDataSheet, unitLinkset } from './unit-links';

export type Asked = 'page' | 'linkset' | 'data-sheet';

/** What a request to an identification link asks for, GS1 resolver style: the link type, else the Accept header. */
export function askedFor(accept: string | undefined, linkType: string | undefined): Asked {
  if (linkType === 'linkset' || linkType === 'all') return 'linkset';
  if (linkType === 'gs1:masterData' || linkType === 'https://gs1.org/voc/masterData') return 'data-sheet';
  if (linkType) return 'page';
  const types = (accept ?? '').toLowerCase();
  if (types.includes('application/linkset+json')) return 'linkset';
  if (types.includes('application/ld+json')) return 'data-sheet';
  return 'page';
}

const query = z.object({ linkType: z.string().max(200).optional() });

/**
 * Registered by the public routes, with their counters and lookup cache: a serial looked up through its
 * identification link counts on the lookup's own per-serial limit and reads the lookup's cached answers.
 */
export function registerIdentificationLink(app: FastifyInstance, deps: { counters: CounterStore; lookups: LookupService }): void {
  const { counters, lookups } = deps;
  const base = app.ctx.config.publicBaseUrl;

  const notFound = (req: FastifyRequest, reply: FastifyReply) => sendError(req, reply, 'not-found', 'errors.serialNotFound');

  app.withTypeProvider<ZodTypeProvider>().get(
    '/id/*',
    {
      schema: { tags: ['public'], querystring: query },
      config: { access: 'anonymous', rateLimit: quietRateLimit(PUBLIC_LIMITS.lookupPerIp) },
      // As the lookup's: the proxy's access log has each request (docs/decisions/0028).
      logLevel: 'warn',
    },
    async (req, reply) => {
      const path = (req.params as { '*': string })['*'];
      const asked = askedFor(req.headers.accept, req.query.linkType);
      reply.header('vary', 'Accept');
      const serial = path.length <= SERIAL_MAX_LENGTH * 3 ? normaliseSerial(path) : '';
      if (asked === 'page') {
        // Relative, so that a report host name stays the host the visitor came to; the public page looks
        // the serial up (a serial that is not a unit is said there, with the typo help).
        return reply
          .header('link', `<${identificationLink(base, serial)}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`)
          .redirect(`/search?serial=${encodeURIComponent(serial)}`, 307);
      }
      if (!parseSerial(serial)) return notFound(req, reply);
      await limitKeys(counters, reply, [`lookup-serial:${addressKey(req.ip)}:${serial}`], PUBLIC_LIMITS.lookupPerSerial);
      const body = await lookups.answer(serial);
      if (body === null) return notFound(req, reply);
      const unit = (JSON.parse(body) as { data: LookupResult }).data;
      if (asked === 'linkset') return reply.type('application/linkset+json').send(JSON.stringify(unitLinkset(base, unit)));
      return reply.type('application/ld+json').send(JSON.stringify(unitDataSheet(base, unit)));
    },
  );
}
