/** /api/v1/customers: list, add, read, update, delete, CSV export and import. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, listEnvelope } from '../../../shared/contract/common';
import { customer, customerInput, customerListQuery } from '../../../shared/contract/orders';
import { CUSTOMER_CSV_COLUMNS, formatContacts } from '../../../shared/contract/orders-csv';
import { importQuery, importResult } from '../../../shared/contract/record-history';
import { actorOf, languageOf, successMessage } from '../audit/actor';
import { ensureMultipart, sendCsv, withUpload } from '../../lib/http-files';
import { importCustomers } from './customers.import';
import { customerPages } from './customers.repo';
import * as service from './customers.service';

const can = (action: 'read' | 'create' | 'update' | 'delete') => ({ access: { action, subject: 'Customer' as const } });
// Any string: a malformed id is answered 404 by the service, not a 400.
const idParams = z.object({ id: z.string() });
const changed = envelope(customer).extend({ message: z.string(), messageKey: z.string() });
const deleted = envelope(z.object({ id: z.string() })).extend({ message: z.string(), messageKey: z.string() });

export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  await ensureMultipart(app);
  const db = app.ctx.db;
  const tags = ['customers'];

  app.get(
    '/api/v1/customers',
    { schema: { tags, querystring: customerListQuery, response: { 200: listEnvelope(customer) } }, config: can('read') },
    async (req) => ({ data: await service.listCustomers(db, req.query) }),
  );

  app.post(
    '/api/v1/customers',
    { schema: { tags, body: customerInput, response: { 201: changed } }, config: can('create') },
    async (req, reply) => {
      const c = await service.createCustomer(db, actorOf(req), req.body);
      return reply.status(201).send({ data: c, ...successMessage(req, 'orders.customerAdded') });
    },
  );

  app.get('/api/v1/customers/export.csv', { schema: { tags, querystring: customerListQuery }, config: can('read') }, async (req, reply) => {
    const rows = async function* () {
      for await (const page of customerPages(db, req.query))
        yield page.map((c) =>
          CUSTOMER_CSV_COLUMNS.map((col) =>
            col === 'emailDomains' ? c.emailDomains.join(' ') : col === 'contacts' ? formatContacts(c.contacts) : c[col],
          ),
        );
    };
    return sendCsv(reply, 'customers.csv', CUSTOMER_CSV_COLUMNS, rows());
  });

  app.post(
    '/api/v1/customers/import',
    { schema: { tags, querystring: importQuery, response: { 200: envelope(importResult) } }, config: can('create') },
    async (req) => {
      const result = await withUpload(app.ctx.uploads, req, 'orders', (source) =>
        importCustomers(db, source, actorOf(req), { dryRun: req.query.dryRun, language: languageOf(req) }),
      );
      return { data: result };
    },
  );

  app.get(
    '/api/v1/customers/:id',
    { schema: { tags, params: idParams, response: { 200: envelope(customer) } }, config: can('read') },
    async (req) => ({ data: await service.getCustomer(db, req.params.id) }),
  );

  app.put(
    '/api/v1/customers/:id',
    { schema: { tags, params: idParams, body: customerInput, response: { 200: changed } }, config: can('update') },
    async (req) => ({
      data: await service.updateCustomer(db, actorOf(req), req.params.id, req.body),
      ...successMessage(req, 'orders.customerUpdated'),
    }),
  );

  app.delete(
    '/api/v1/customers/:id',
    { schema: { tags, params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      await service.deleteCustomer(db, actorOf(req), req.params.id);
      return { data: { id: req.params.id }, ...successMessage(req, 'orders.customerDeleted') };
    },
  );
};
