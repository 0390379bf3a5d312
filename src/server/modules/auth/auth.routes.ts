/** /api/v1/auth: first-run registration, sign-in and out, own profile and password, forgotten passwords. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordInput,
  forgotPasswordInput,
  loginInput,
  me,
  notice,
  registerInput,
  resetPasswordInput,
  setupStatus,
  updateMeInput,
} from '../../../shared/contract/auth';
import { envelope } from '../../../shared/contract/common';
import { AppError } from '../../../shared/errors';
import { translate } from '../../../shared/i18n/index';
import { requireUser } from '../../lib/access';
import { createCounterStore } from '../../lib/counters';
import { prepareDummyHash } from '../../lib/passwords';
import { requestLanguage } from '../../lib/request-language';
import { changeOwnPassword, login, meOf, needsFirstAdmin, registerFirstAdmin, updateMe, type RequestMeta } from './auth.service';
import { LoginLimiter } from './login-limits';
import { composeResetMail, requestPasswordReset, resetPassword, RESET_MAIL_KIND } from './password-reset';
import { clearSessionCookie, revokeSession, revokeUserSessions, setSessionCookie } from '../../lib/sessions';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Per IP: how often anyone may ask for reset links or try to register. */
export const FORGOT_PER_IP = { max: 10, timeWindow: FIFTEEN_MINUTES };
/** Per address: at most this many reset emails, so the form cannot be used to flood someone's inbox. */
export const FORGOT_PER_EMAIL = { max: 3, timeWindow: FIFTEEN_MINUTES };
export const REGISTER_PER_IP = { max: 10, timeWindow: FIFTEEN_MINUTES };

const meEnvelope = envelope(me);
const noticeEnvelope = envelope(notice);

function metaOf(req: FastifyRequest): RequestMeta {
  return { ip: req.ip, userAgent: req.headers['user-agent'] };
}

function noticeOf(req: FastifyRequest, key: string) {
  return { data: { ok: true as const, key, message: translate(requestLanguage(req), key) } };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const limiter = new LoginLimiter(createCounterStore(app.ctx.redis));
  prepareDummyHash();
  // The reset link is made when its email is sent, never stored (password-reset.ts).
  const stopComposing = app.ctx.mail.onCompose(RESET_MAIL_KIND, (workerDb, row, options) =>
    composeResetMail(workerDb, config, row, options),
  );
  app.addHook('onClose', async () => stopComposing());
  const forgotPerEmail = app.createRateLimit({
    ...FORGOT_PER_EMAIL,
    keyGenerator: (req) => `forgot-email:${(req.body as { email: string }).email}`,
  });

  // Runs before the error handler: a 429 of ours says when to come back, like the rate-limit plugin's.
  app.addHook('onError', async (_req, reply, err) => {
    if (err instanceof AppError && err.code === 'resource-exhausted' && err.params?.seconds !== undefined) {
      reply.header('retry-after', String(err.params.seconds));
    }
  });

  app.get(
    '/api/v1/auth/setup',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: envelope(setupStatus) } },
    },
    async () => ({ data: { needsFirstAdmin: await needsFirstAdmin(db) } }),
  );

  app.post(
    '/api/v1/auth/register',
    {
      config: { access: 'public', rateLimit: REGISTER_PER_IP },
      schema: { tags: ['auth'], body: registerInput, response: { 201: meEnvelope } },
    },
    async (req, reply) => {
      const { user, token } = await registerFirstAdmin(db, req.body, requestLanguage(req), metaOf(req));
      setSessionCookie(req, reply, token);
      return reply.status(201).send({ data: meOf(user) });
    },
  );

  app.post(
    '/api/v1/auth/login',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], body: loginInput, response: { 200: meEnvelope } },
    },
    async (req, reply) => {
      const { user, token } = await login(db, limiter, req.body, metaOf(req), req.sessionIdHash);
      setSessionCookie(req, reply, token);
      return { data: meOf(user) };
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], response: { 200: noticeEnvelope } },
    },
    async (req, reply) => {
      if (req.sessionIdHash) await revokeSession(db, req.sessionIdHash);
      clearSessionCookie(req, reply);
      return noticeOf(req, 'auth.logoutSuccess');
    },
  );

  app.get(
    '/api/v1/auth/me',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], response: { 200: meEnvelope } },
    },
    async (req) => ({ data: meOf(requireUser(req)) }),
  );

  // Who is signed in, or null: the app asks this when it starts, and a visitor is an answer, not an error (a
  // 401 there is logged as an error by every browser on the sign-in page). /auth/me keeps its 401.
  app.get(
    '/api/v1/auth/session',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: { 200: envelope(me.nullable()) } },
    },
    async (req) => ({ data: req.user ? meOf(req.user) : null }),
  );

  app.patch(
    '/api/v1/auth/me',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], body: updateMeInput, response: { 200: meEnvelope } },
    },
    async (req) => {
      const user = await updateMe(db, requireUser(req), req.body, req.ip);
      // Later messages of this request (none today) and the next ones speak the new language.
      req.user = user;
      return { data: meOf(user) };
    },
  );

  app.post(
    '/api/v1/auth/password',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], body: changePasswordInput, response: { 200: noticeEnvelope } },
    },
    async (req) => {
      await changeOwnPassword(db, limiter, requireUser(req), req.sessionIdHash, req.body, req.ip);
      return noticeOf(req, 'auth.passwordChanged');
    },
  );

  app.post(
    '/api/v1/auth/sessions/revoke-others',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], response: { 200: noticeEnvelope } },
    },
    async (req) => {
      await revokeUserSessions(db, requireUser(req).id, req.sessionIdHash ?? undefined);
      return noticeOf(req, 'auth.otherSessionsRevoked');
    },
  );

  app.post(
    '/api/v1/auth/forgot-password',
    {
      config: { access: 'public', rateLimit: FORGOT_PER_IP },
      schema: { tags: ['auth'], body: forgotPasswordInput, response: { 200: noticeEnvelope } },
    },
    async (req, reply) => {
      await checkLimit(reply, await forgotPerEmail(req));
      // Answered before looking the address up: the same work, and so the same time, for every address.
      const { email } = req.body;
      app.ctx.afterResponse.run('password reset request', () => requestPasswordReset(db, email, () => app.ctx.mail.kick()));
      return noticeOf(req, 'auth.resetLinkSent');
    },
  );

  app.post(
    '/api/v1/auth/reset-password',
    {
      config: { access: 'public', rateLimit: FORGOT_PER_IP },
      schema: { tags: ['auth'], body: resetPasswordInput, response: { 200: noticeEnvelope } },
    },
    async (req) => {
      await resetPassword(db, req.body.token, req.body.password, req.ip);
      return noticeOf(req, 'auth.passwordResetDone');
    },
  );
};

async function checkLimit(reply: FastifyReply, limit: { isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }) {
  if (limit.isAllowed || !limit.isExceeded) return;
  const seconds = Math.max(1, limit.ttlInSeconds ?? 60);
  reply.header('retry-after', String(seconds));
  throw new AppError('resource-exhausted', 'errors.tooManyRequests', { params: { seconds } });
}
