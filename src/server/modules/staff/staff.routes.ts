/** /api/v1/staff: admins manage the accounts of everyone who signs in. */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notice } from '../../../shared/contract/auth';
import { envelope, idParam, listEnvelope } from '../../../shared/contract/common';
import { staffInput, staffListQuery, staffMember, staffPasswordReset, staffUpdate } from '../../../shared/contract/staff';
import { AppError } from '../../../shared/errors';
import { translate } from '../../../shared/i18n/index';
import type { Access } from '../../lib/access';
import { requireUser } from '../../lib/access';
import { requestLanguage } from '../../lib/request-language';
import { actorOf } from '../auth/auth.service';
import { findUserById } from '../auth/auth.service';
import { listStaff } from './staff.repo';
import { addStaff, deleteStaff, setStaffPassword, toStaffMember, updateStaff } from './staff.service';

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
      return { data: { items: items.map(toStaffMember), total } };
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
      return { data: toStaffMember(row) };
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
      return { data: { ...toStaffMember(row), ...said(req, 'staff.updated') } };
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
};
