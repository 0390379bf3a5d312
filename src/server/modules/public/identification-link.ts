/**
 * The identification link (docs/decisions/0061-identification-link.md): `GET /id/<serial>`, what a
 * nameplate's QR code opens, and its GS1 Digital Link form `GET /01/<GTIN>/21/<serial>` for a product with a
 * GTIN (docs/decisions/0062-gs1-digital-link.md). A browser is sent on to the public page, which looks the
 * serial up at once (307, with a Link header naming the linkset); `Accept: application/linkset+json` or
 * `?linkType=linkset` answers the unit's linkset (RFC 9264), `?linkType=gs1:masterData` (or
 * `Accept: application/ld+json`) its data sheet. The answers are built from the public lookup's and limited
 * like it: per address, and per address and serial on the lookup's own counter. Anything that is not a unit
 * answers the lookup's 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LookupResult } from '../../../shared/contract/public';
import { normaliseGtin } from '../../../shared/gtin';
import { identificationLink } from '../../../shared/identification';
import { normaliseSerial, parseSerial, SERIAL_MAX_LENGTH } from '../../../shared/serial';
import { addressKey } from '../../lib/client-key';
import type { CounterStore } from '../../lib/counters';
import { sendError } from '../../lib/error-handler';
import type { LookupService } from './lookup.service';
import { limitKeys, PUBLIC_LIMITS, quietRateLimit } from './public-limits';
import { unitDataSheet, unitLinkset } from './unit-links';

type Asked = 'page' | 'linkset' | 'data-sheet';

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

/**
 * The GTIN and serial of a Digital Link's path after `/01/`: `<GTIN>/21/<serial>`, the serial to the end
 * (it may hold a slash); null for any other shape (no serial, other qualifiers first).
 */
export function digitalLinkParts(path: string): { gtin: string; serial: string } | null {
  // Any GTIN text of a bounded length: a malformed one still takes the lookup's path (see the route).
  const match = /^([^/]{1,40})\/21\/(.+)$/s.exec(path);
  return match ? { gtin: match[1]!, serial: match[2]! } : null;
}

const query = z.object({ linkType: z.string().max(200).optional() });

/** The path's serial, normalised; '' (no serial, the lookup's 404) when it is far longer than any serial. */
const serialOf = (path: string) => (path.length <= SERIAL_MAX_LENGTH * 3 ? normaliseSerial(path) : '');

/**
 * Registered by the public routes, with their counters and lookup cache: a serial looked up through its
 * identification link counts on the lookup's own per-serial limit and reads the lookup's cached answers.
 */
export function registerIdentificationLink(app: FastifyInstance, deps: { counters: CounterStore; lookups: LookupService }): void {
  const { counters, lookups } = deps;
  const base = app.ctx.config.publicBaseUrl;
  const options = {
    schema: { tags: ['public'], querystring: query },
    config: { access: 'anonymous' as const, rateLimit: quietRateLimit(PUBLIC_LIMITS.lookupPerIp) },
    // As the lookup's: the proxy's access log has each request (docs/decisions/0028).
    logLevel: 'warn' as const,
  };

  const notFound = (req: FastifyRequest, reply: FastifyReply) => sendError(req, reply, 'not-found', 'errors.serialNotFound');

  /** The unit's lookup answer (cached), counted on the lookup's per-serial limit; null when no unit. */
  const unitOf = async (req: FastifyRequest, reply: FastifyReply, serial: string): Promise<LookupResult | null> => {
    if (!parseSerial(serial)) return null;
    await limitKeys(counters, reply, [`lookup-serial:${addressKey(req.ip)}:${serial}`], PUBLIC_LIMITS.lookupPerSerial);
    const body = await lookups.answer(serial);
    return body === null ? null : (JSON.parse(body) as { data: LookupResult }).data;
  };

  /**
   * A browser: to the public page, relative so that a report host name stays the host the visitor came to
   * (the page looks the serial up, and says there when it is not a unit), naming the linkset of `link`.
   */
  const toPage = (reply: FastifyReply, link: string, serial: string) =>
    reply
      .header('link', `<${link}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`)
      .redirect(`/search?serial=${encodeURIComponent(serial)}`, 307);

  /** A machine: the linkset or the data sheet, which any web page may read (GS1's resolvers answer CORS). */
  const toMachine = (reply: FastifyReply, asked: Exclude<Asked, 'page'>, unit: LookupResult) => {
    reply.header('access-control-allow-origin', '*');
    if (asked === 'linkset') return reply.type('application/linkset+json').send(JSON.stringify(unitLinkset(base, unit)));
    return reply.type('application/ld+json').send(JSON.stringify(unitDataSheet(base, unit)));
  };

  app.withTypeProvider<ZodTypeProvider>().get('/id/*', options, async (req, reply) => {
    const asked = askedFor(req.headers.accept, req.query.linkType);
    reply.header('vary', 'Accept');
    const serial = serialOf((req.params as { '*': string })['*']);
    if (asked === 'page') return toPage(reply, identificationLink(base, serial), serial);
    const unit = await unitOf(req, reply, serial);
    if (unit === null) return notFound(req, reply);
    return toMachine(reply, asked, unit);
  });

  app.withTypeProvider<ZodTypeProvider>().get('/01/*', options, async (req, reply) => {
    const asked = askedFor(req.headers.accept, req.query.linkType);
    reply.header('vary', 'Accept');
    const parts = digitalLinkParts((req.params as { '*': string })['*']);
    // A GTIN in any of its lengths, compared as GTIN-14; a wrong check digit is no GTIN.
    const gtin = parts ? normaliseGtin(parts.gtin) : null;
    // One path whatever is wrong (a malformed GTIN or path, a wrong check digit, a GTIN not of the unit's
    // product, an unknown serial): the lookup's cached answer decides, and every miss is the lookup's 404.
    // The answer carries the product's GTIN, so the check costs no query of its own.
    const unit = await unitOf(req, reply, parts ? serialOf(parts.serial) : '');
    if (unit === null || gtin === null || unit.product.gtin !== gtin) return notFound(req, reply);
    if (asked === 'page') return toPage(reply, identificationLink(base, unit.serial, gtin), unit.serial);
    return toMachine(reply, asked, unit);
  });
}
