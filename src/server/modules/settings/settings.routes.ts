/**
 * /api/v1/settings (admin writes, staff reads; the ability subject 'Settings') and the public parts the
 * public page needs: `GET /api/v1/public/settings` (company name, logo link, terms and their version) and
 * `GET /api/v1/public/logo`. Uploads are multipart: the logo as `file`; the certificate as `file` (PKCS#12)
 * with its `password`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CERTIFICATE_MAX_BYTES,
  certificatePassword,
  LOGO_MAX_BYTES,
  publicSettingsEnvelope,
  recordArchiveEnvelope,
  recordRetentionInput,
  searchRetentionInput,
  settingsEnvelope,
  settingsUpdateInput,
  verificationKeysEnvelope,
} from '../../../shared/contract/settings';
import { JWKS_PATH } from '../../../shared/offline-proof';
import { AppError } from '../../../shared/errors';
import { ensureMultipart, readSmallUpload } from '../../lib/http-files';
import { actorOf, successMessage } from '../audit/actor';
import { isLocalAddress } from '../../../shared/public-address';
import * as service from './settings.service';
import * as keys from './verification-keys.service';
import { archiveInfo } from '../machine-data/record-archive';

const can = (action: 'read' | 'update') => ({ access: { action, subject: 'Settings' as const } });
const saved = settingsEnvelope.extend({ message: z.string(), messageKey: z.string() });

const noFile = (key: string) => new AppError('invalid-argument', key, { fields: [{ field: 'file', key }] });

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const tags = ['settings'];
  // Each upload is read with its own limit (readSmallUpload).
  await ensureMultipart(app);

  const publicAddress = { url: app.ctx.config.publicBaseUrl, local: isLocalAddress(app.ctx.config.publicBaseUrl) };
  app.get('/api/v1/settings', { schema: { tags, response: { 200: settingsEnvelope } }, config: can('read') }, async () => ({
    data: { ...(await service.getSettings(db)), publicAddress },
  }));

  app.put(
    '/api/v1/settings',
    { schema: { tags, body: settingsUpdateInput, response: { 200: saved } }, config: can('update') },
    async (req) => ({ data: await service.updateSettings(db, actorOf(req), req.body), ...successMessage(req, 'settings.saved') }),
  );

  app.put(
    '/api/v1/settings/search-retention',
    { schema: { tags, body: searchRetentionInput, response: { 200: saved } }, config: can('update') },
    async (req) => ({
      data: await service.updateSearchRetention(db, actorOf(req), req.body.days),
      ...successMessage(req, 'settings.saved'),
    }),
  );

  app.put(
    '/api/v1/settings/record-retention',
    { schema: { tags, body: recordRetentionInput, response: { 200: saved } }, config: can('update') },
    async (req) => ({
      data: await service.updateRecordRetention(db, actorOf(req), req.body.years),
      ...successMessage(req, 'settings.saved'),
    }),
  );

  app.get(
    '/api/v1/settings/record-archive',
    { schema: { tags, response: { 200: recordArchiveEnvelope } }, config: can('read') },
    async () => ({ data: await archiveInfo(db) }),
  );

  app.put('/api/v1/settings/logo', { schema: { tags, response: { 200: saved } }, config: can('update') }, async (req) => {
    const up = await readSmallUpload(req, LOGO_MAX_BYTES);
    if (up.tooLarge)
      throw new AppError('out-of-range', 'settings.logoTooLarge', { fields: [{ field: 'file', key: 'settings.logoTooLarge' }] });
    if (!up.bytes) throw noFile('settings.logoMissing');
    return { data: await service.setLogo(db, actorOf(req), up.bytes), ...successMessage(req, 'settings.logoSaved') };
  });

  app.delete('/api/v1/settings/logo', { schema: { tags, response: { 200: saved } }, config: can('update') }, async (req) => ({
    data: await service.removeLogo(db, actorOf(req)),
    ...successMessage(req, 'settings.logoRemoved'),
  }));

  app.get('/api/v1/settings/logo', { schema: { tags }, config: can('read') }, async (_req, reply) => {
    const logo = await service.getLogo(db);
    if (!logo) throw new AppError('not-found', 'settings.noLogo');
    return reply.type(logo.type).header('cache-control', 'private, no-cache').send(logo.logo);
  });

  app.put('/api/v1/settings/certificate', { schema: { tags, response: { 200: saved } }, config: can('update') }, async (req) => {
    const up = await readSmallUpload(req, CERTIFICATE_MAX_BYTES);
    if (up.tooLarge) {
      throw new AppError('out-of-range', 'settings.certificateTooLarge', {
        fields: [{ field: 'file', key: 'settings.certificateTooLarge' }],
      });
    }
    if (!up.bytes || up.bytes.length === 0) throw noFile('settings.certificateMissing');
    const password = certificatePassword.safeParse(up.fields.password ?? '');
    if (!password.success)
      throw new AppError('invalid-argument', 'validation.tooLong', { fields: [{ field: 'password', key: 'validation.tooLong' }] });
    return {
      data: await service.uploadCertificate(db, actorOf(req), up.bytes, password.data),
      ...successMessage(req, 'settings.certificateSaved'),
    };
  });

  app.post('/api/v1/settings/certificate/generate', { schema: { tags, response: { 200: saved } }, config: can('update') }, async (req) => ({
    data: await service.regenerateCertificate(db, actorOf(req)),
    ...successMessage(req, 'settings.certificateGenerated'),
  }));

  // The offline proofs' keys (docs/decisions/0063-offline-verification.md): listed for staff, rotated by an
  // admin, published to anyone as a JWKS (RFC 7517) with the standard members only.
  app.get(
    '/api/v1/settings/verification-keys',
    { schema: { tags, response: { 200: verificationKeysEnvelope } }, config: can('read') },
    async () => ({ data: await keys.publishedKeys(db) }),
  );

  app.post(
    '/api/v1/settings/verification-keys/rotate',
    {
      schema: { tags, response: { 200: verificationKeysEnvelope.extend({ message: z.string(), messageKey: z.string() }) } },
      config: can('update'),
    },
    async (req) => ({ data: await keys.rotateKey(db, actorOf(req)), ...successMessage(req, 'settings.keyRotated') }),
  );

  app.get(
    JWKS_PATH,
    { schema: { tags: ['public'] }, config: { access: 'anonymous', rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (_req, reply) => {
      const published = (await keys.keysToPublish(db)).map(({ kty, crv, x, kid, alg, use }) => ({ kty, crv, x, kid, alg, use }));
      // Short-lived in caches: a rotation is seen within minutes; the offline verifier keeps its own copy.
      return reply
        .type('application/jwk-set+json')
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send(JSON.stringify({ keys: published }));
    },
  );

  app.get(
    '/api/v1/public/settings',
    { schema: { tags, response: { 200: publicSettingsEnvelope } }, config: { access: 'public' } },
    async () => ({
      data: await service.getPublicSettings(db),
    }),
  );

  app.get('/api/v1/public/logo', { schema: { tags }, config: { access: 'public' } }, async (_req, reply) => {
    const logo = await service.getLogo(db);
    if (!logo) throw new AppError('not-found', 'settings.noLogo');
    // The page links the logo with its hash (`?v=`), so a changed logo is a new address.
    return reply.type(logo.type).header('cache-control', 'public, max-age=86400').send(logo.logo);
  });
};
