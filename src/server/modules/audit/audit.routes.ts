/** GET /api/v1/audit-log: admins read who changed what, newest first, optionally for one record. */
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditEntry, auditListQuery } from '../../../shared/contract/audit';
import { listEnvelope, pageWindow } from '../../../shared/contract/common';
import { auditLog } from '../../db/schema/index';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('/api/v1/audit-log', {
    config: { access: { action: 'read', subject: 'AuditLog' } },
    schema: { tags: ['audit'], querystring: auditListQuery, response: { 200: listEnvelope(auditEntry) } },
  }, async (req) => {
    const q = req.query;
    const filters: SQL[] = [];
    if (q.entity) filters.push(eq(auditLog.entity, q.entity));
    if (q.entityId) filters.push(eq(auditLog.entityId, q.entityId));
    const where = filters.length ? and(...filters) : undefined;
    const direction = q.order === 'asc' ? asc : desc;
    const { limit, offset } = pageWindow(q);
    const [rows, [totalRow]] = await Promise.all([
      db.select().from(auditLog).where(where).orderBy(direction(auditLog.at), direction(auditLog.id)).limit(limit).offset(offset),
      db.select({ n: count() }).from(auditLog).where(where),
    ]);
    return {
      data: {
        items: rows.map((r) => ({ ...r, at: r.at.toISOString() })),
        total: totalRow?.n ?? 0,
      },
    };
  });
};
