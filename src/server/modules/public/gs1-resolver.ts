/**
 * `GET /.well-known/gs1resolver`: the resolver description file that the GS1-Conformant Resolver standard
 * (1.2.0) asks a resolver to publish at this well-known place, so that GS1's own resolver and a scanning
 * app can find out what this one answers (docs/decisions/0062-gs1-digital-link.md): its root, the primary
 * key it resolves (AI 01, the GTIN, with the serial as qualifier), the link types it knows and how.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../../shared/identification';
import { PUBLIC_LIMITS, quietRateLimit } from './public-limits';

/** The members of GS1's description file schema (ref.gs1.org/standards/resolver/1.2.0/description-file-schema) that apply here. */
export const resolverDescription = z.object({
  name: z.string(),
  resolverRoot: z.string(),
  supportedPrimaryKeys: z.array(z.string()),
  supportedLinkType: z.array(z.object({ namespace: z.string(), prefix: z.string() })),
  linkTypeDefaultCanBeLinkset: z.boolean(),
  linkTypeDefaultCanBeAll: z.boolean(),
  validatesAIcombination: z.boolean(),
  contact: z.string(),
});
export type ResolverDescription = z.infer<typeof resolverDescription>;

const PRODUCT = 'Test Report Center';
/** How long an instance reuses the description it built (the settings may change its name and contact). */
const KEEP_MS = 60_000;

export function resolverDescriptionOf(publicBaseUrl: string, settings: { companyName: string; contact: string }): ResolverDescription {
  const company = settings.companyName.trim();
  const root = originOf(publicBaseUrl);
  return {
    name: company && company !== PRODUCT ? `${PRODUCT}, ${company}` : PRODUCT,
    resolverRoot: root,
    supportedPrimaryKeys: ['01'],
    supportedLinkType: [{ namespace: 'https://gs1.org/voc/', prefix: 'gs1:' }],
    // The default answer is the public page (gs1:defaultLink); a linkset is asked for by `linkType=linkset`
    // or the Accept header, and this resolver has no setting that makes it the default.
    linkTypeDefaultCanBeLinkset: false,
    linkTypeDefaultCanBeAll: false,
    // Only GTIN + serial (01 and 21) is resolved, with the GTIN's check digit checked; any other path is 404.
    validatesAIcombination: true,
    // Settings' contact, as the public page shows it; until it is filled in, the public address.
    contact: settings.contact.trim() || root,
  };
}

/** Anonymous and cached briefly: by the client for five minutes, by the instance for a minute. */
export function registerGs1Resolver(
  app: FastifyInstance,
  deps: { settings: () => Promise<{ companyName: string; contact: string }> },
): void {
  const base = app.ctx.config.publicBaseUrl;
  let kept: { until: number; body: ResolverDescription } | null = null;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/.well-known/gs1resolver',
    {
      schema: { tags: ['public'], response: { 200: resolverDescription } },
      config: { access: 'anonymous', rateLimit: quietRateLimit(PUBLIC_LIMITS.lookupPerIp) },
      logLevel: 'warn',
    },
    async (_req, reply) => {
      const now = Date.now();
      if (!kept || kept.until <= now) kept = { until: now + KEEP_MS, body: resolverDescriptionOf(base, await deps.settings()) };
      return reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').send(kept.body);
    },
  );
}
