/** /api/v1/purchase-orders: list, add, read, update, delete, CSV export and import (one row per item). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, listEnvelope } from '../../../shared/contract/common';
import { purchaseOrder, purchaseOrderInput, purchaseOrderListQuery, type PurchaseOrder } from '../../../shared/contract/orders';
import { PURCHASE_ORDER_CSV_COLUMNS } from '../../../shared/contract/orders-csv';
import { importQuery, importResult } from '../../../shared/contract/record-history';
import { actorOf, languageOf, successMessage } from '../audit/actor';
import { ensureMultipart, sendCsv, withUpload } from '../../lib/http-files';
import { importPurchaseOrders } from './purchase-orders.import';
import { purchaseOrderPages } from './purchase-orders.repo';
import * as service from './purchase-orders.service';

const can = (action: 'read' | 'create' | 'update' | 'delete') => ({ access: { action, subject: 'PurchaseOrder' as const } });
const idParams = z.object({ id: z.string() });
const changed = envelope(purchaseOrder).extend({ message: z.string(), messageKey: z.string() });
const deleted = envelope(z.object({ id: z.string() })).extend({ message: z.string(), messageKey: z.string() });

/** An order's CSV rows, one per item, in PURCHASE_ORDER_CSV_COLUMNS order. */
function csvRows(p: PurchaseOrder): (string | number)[][] {
  return p.items.map((it) => {
    const cell: Record<(typeof PURCHASE_ORDER_CSV_COLUMNS)[number], string | number> = {
      customer: p.customerCode,
      number: p.number,
      date: p.date,
      documentType: p.documentType,
      line: it.line,
      product: it.productName,
      quantity: it.quantity,
      buyerItemCode: it.buyerItemCode,
      description: it.description,
      tags: it.tags.join(' '),
    };
    return PURCHASE_ORDER_CSV_COLUMNS.map((col) => cell[col]);
  });
}

export const purchaseOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  await ensureMultipart(app);
  const db = app.ctx.db;
  const tags = ['purchase-orders'];

  app.get(
    '/api/v1/purchase-orders',
    { schema: { tags, querystring: purchaseOrderListQuery, response: { 200: listEnvelope(purchaseOrder) } }, config: can('read') },
    async (req) => ({ data: await service.listPurchaseOrders(db, req.query) }),
  );

  app.post(
    '/api/v1/purchase-orders',
    { schema: { tags, body: purchaseOrderInput, response: { 201: changed } }, config: can('create') },
    async (req, reply) => {
      const p = await service.createPurchaseOrder(db, actorOf(req), req.body);
      return reply.status(201).send({ data: p, ...successMessage(req, 'orders.purchaseOrderAdded') });
    },
  );

  app.get(
    '/api/v1/purchase-orders/export.csv',
    { schema: { tags, querystring: purchaseOrderListQuery }, config: can('read') },
    async (req, reply) => {
      const rows = async function* () {
        for await (const page of purchaseOrderPages(db, req.query)) yield page.flatMap(csvRows);
      };
      return sendCsv(reply, 'purchase-orders.csv', PURCHASE_ORDER_CSV_COLUMNS, rows());
    },
  );

  app.post(
    '/api/v1/purchase-orders/import',
    { schema: { tags, querystring: importQuery, response: { 200: envelope(importResult) } }, config: can('create') },
    async (req) => {
      const result = await withUpload(app.ctx.uploads, req, 'orders', (source) =>
        importPurchaseOrders(db, source, actorOf(req), { dryRun: req.query.dryRun, language: languageOf(req) }),
      );
      return { data: result };
    },
  );

  app.get(
    '/api/v1/purchase-orders/:id',
    { schema: { tags, params: idParams, response: { 200: envelope(purchaseOrder) } }, config: can('read') },
    async (req) => ({ data: await service.getPurchaseOrder(db, req.params.id) }),
  );

  app.put(
    '/api/v1/purchase-orders/:id',
    { schema: { tags, params: idParams, body: purchaseOrderInput, response: { 200: changed } }, config: can('update') },
    async (req) => ({
      data: await service.updatePurchaseOrder(db, actorOf(req), req.params.id, req.body),
      ...successMessage(req, 'orders.purchaseOrderUpdated'),
    }),
  );

  app.delete(
    '/api/v1/purchase-orders/:id',
    { schema: { tags, params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      await service.deletePurchaseOrder(db, actorOf(req), req.params.id);
      return { data: { id: req.params.id }, ...successMessage(req, 'orders.purchaseOrderDeleted') };
    },
  );
};
