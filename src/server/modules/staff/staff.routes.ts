/**
 * /api/v1/staff: admins manage the accounts of everyone who signs in, and an inspector's stamp
 * (`/api/v1/staff/{id}/stamp`: PUT multipart with the image as `file`, GET, DELETE).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notice } from '../../../shared/contract/auth';
import { envelope, idParam, listEnvelope } from '../../../shared/contract/common';
import { STAMP_MAX_BYTES, staffInput, staffListQuery, staffMember, staffPasswordReset, staffUpdate } from '../../../shared/contract/staff';
import { AppError } from '../../../shared/errors';
import { translate } from '../../../shared/i18n/index';
import type { Access } from '../../lib/access';
import { requireUser } from '../../lib/access';
import { requestLanguage } from '../../lib/request-language';
import { actorOf } from '../auth/auth.service';
import { findUserById } from '../auth/auth.service';
import { ensureMultipart, readSmallUpload } from '../../lib/http-files';
import { listStaff, stampSha256Of } from './staff.repo';
import { addStaff, deleteStaff, setStaffPassword, toStaffMember, updateStaff } from './staff.service';
import { getStamp, removeStamp, setStamp } from './staff-stamp.service';

const ADMIN: Access = { action: 'manage', subject: 'Staff' };
const memberEnvelope = envelope(staffMember);
/** A change's result and its message ("Staff Added Successfully"), so the web app can toast it. */
const memberWithNotice = envelope(staffMember.extend({ message: notice.shape.message, key: notice.shape.key }));
const noticeEnvelope = envelope(notice);

function said(req: FastifyRequest, key: string) {
  return { key, message: translate(requestLanguage(req), key) };
}

export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/api/v1/staff',
    {
      config: { access: ADMIN },
      schema: { tags: ['staff'], querystring: staffListQuery, response: { 200: listEnvelope(staffMember) } },
    },
    async (req) => {
      const { items, total } = await listStaff(db, req.query);
      return { data: { items: items.map((i) => toStaffMember(i.user, i.stampSha256)), total } };
    },
  );

  app.post(
    '/api/v1/staff',
    {
      config: { access: ADMIN },
      schema: { tags: ['staff'], body: staffInput, response: { 201: memberWithNotice } },
    },
    async (req, reply) => {
      const row = await addStaff(db, actorOf(requireUser(req), req.ip), req.body);
      return reply.status(201).send({ data: { ...toStaffMember(row), ...said(req, 'staff.added') } });
    },
  );

  app.get(
    '/api/v1/staff/:id',
    {
      config: { access: ADMIN },
      schema: { tags: ['staff'], params: idParam, response: { 200: memberEnvelope } },
    },
    async (req) => {
      const row = await findUserById(db, req.params.id);
      if (!row) throw new AppError('not-found', 'errors.userNotFound');
      return { data: toStaffMember(row, await stampSha256Of(db, row.id)) };
    },
  );

  app.patch(
    '/api/v1/staff/:id',
    {
      config: { access: ADMIN },
      schema: { tags: ['staff'], params: idParam, body: staffUpdate, response: { 200: memberWithNotice } },
    },
    async (req) => {
      const user = requireUser(req);
      const row = await updateStaff(db, user, actorOf(user, req.ip), req.params.id, req.body);
      return { data: { ...toStaffMember(row, await stampSha256Of(db, row.id)), ...said(req, 'staff.updated') } };
    },
  );

  app.post(
    '/api/v1/staff/:id/password',
    {
      config: { access: ADMIN },
      schema: { tags: ['staff'], params: idParam, body: staffPasswordReset, response: { 200: noticeEnvelope } },
    },
    async (req) => {
      const user = requireUser(req);
      await setStaffPassword(db, user, actorOf(user, req.ip), req.sessionIdHash, req.params.id, req.body.password);
      return { data: { ok: true as const, ...said(req, 'staff.passwordSet') } };
    },
  );

  app.delete(
    '/api/v1/staff/:id',
    {
      config: { access: ADMIN },
      schema: { tags: ['staff'], params: idParam, response: { 200: noticeEnvelope } },
    },
    async (req) => {
      const user = requireUser(req);
      await deleteStaff(db, user, actorOf(user, req.ip), req.params.id);
      return { data: { ok: true as const, ...said(req, 'staff.deleted') } };
    },
  );

  await ensureMultipart(app);
  const stampSaved = envelope(z.object({ stampSha256: z.string(), message: notice.shape.message, key: notice.shape.key }));

  app.put(
    '/api/v1/staff/:id/stamp',
    { config: { access: ADMIN }, schema: { tags: ['staff'], params: idParam, response: { 200: stampSaved } } },
    async (req) => {
      const upload = await readSmallUpload(req, STAMP_MAX_BYTES);
      if (upload.tooLarge)
        throw new AppError('out-of-range', 'staff.stamp.tooLarge', { fields: [{ field: 'file', key: 'staff.stamp.tooLarge' }] });
      if (!upload.bytes)
        throw new AppError('invalid-argument', 'staff.stamp.missing', { fields: [{ field: 'file', key: 'staff.stamp.missing' }] });
      const bytes = upload.bytes;
      const user = requireUser(req);
      const stampSha256 = await setStamp(db, actorOf(user, req.ip), req.params.id, bytes);
      return { data: { stampSha256, ...said(req, 'staff.stamp.saved') } };
    },
  );

  app.get('/api/v1/staff/:id/stamp', { config: { access: ADMIN }, schema: { tags: ['staff'], params: idParam } }, async (req, reply) => {
    const stamp = await getStamp(db, req.params.id);
    return reply.type(stamp.type).header('cache-control', 'private, no-cache').header('etag', `"${stamp.sha256}"`).send(stamp.image);
  });

  app.delete(
    '/api/v1/staff/:id/stamp',
    { config: { access: ADMIN }, schema: { tags: ['staff'], params: idParam, response: { 200: noticeEnvelope } } },
    async (req) => {
      const user = requireUser(req);
      await removeStamp(db, actorOf(user, req.ip), req.params.id);
      return { data: { ok: true as const, ...said(req, 'staff.stamp.removed') } };
    },
  );
};
