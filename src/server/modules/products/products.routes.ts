/** /api/v1/products: list, add, read, update, delete, history, CSV template, export and import. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, listEnvelope } from '../../../shared/contract/common';
import { PRODUCT_CSV_COLUMNS, product, productCsvCell, productInput, productListQuery } from '../../../shared/contract/products';
import { historyEntry, importQuery, importResult } from '../../../shared/contract/record-history';
import { actorOf, languageOf, successMessage } from '../audit/actor';
import { ensureMultipart, sendCsv, withUpload } from '../../lib/http-files';
import { importProducts } from './products.import';
import { productPages } from './products.repo';
import * as service from './products.service';

const can = (action: 'read' | 'create' | 'update' | 'delete') => ({ access: { action, subject: 'Product' as const } });
// Any string: a malformed id is answered "Product Not Found" (404) by the service, not a 400.
const idParams = z.object({ id: z.string() });
const changed = envelope(product).extend({ message: z.string(), messageKey: z.string() });
const deleted = envelope(z.object({ id: z.string() })).extend({ message: z.string(), messageKey: z.string() });

export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  await ensureMultipart(app);
  const db = app.ctx.db;
  const tags = ['products'];

  app.get(
    '/api/v1/products',
    { schema: { tags, querystring: productListQuery, response: { 200: listEnvelope(product) } }, config: can('read') },
    async (req) => ({ data: await service.listProducts(db, req.query) }),
  );

  app.post(
    '/api/v1/products',
    { schema: { tags, body: productInput, response: { 201: changed } }, config: can('create') },
    async (req, reply) => {
      const p = await service.createProduct(db, actorOf(req), req.body);
      return reply.status(201).send({ data: p, ...successMessage(req, 'products.added') });
    },
  );

  app.get('/api/v1/products/export.csv', { schema: { tags, querystring: productListQuery }, config: can('read') }, async (req, reply) => {
    const rows = async function* () {
      for await (const page of productPages(db, req.query)) yield page.map((p) => PRODUCT_CSV_COLUMNS.map((c) => productCsvCell(p[c])));
    };
    return sendCsv(reply, 'products.csv', PRODUCT_CSV_COLUMNS, rows());
  });

  app.get('/api/v1/products/template.csv', { schema: { tags }, config: can('read') }, async (_req, reply) => {
    // Keyed by field, so the example follows PRODUCT_CSV_COLUMNS whatever its order.
    const example: Record<(typeof PRODUCT_CSV_COLUMNS)[number], string | number> = {
      name: 'Gate Valve DN50',
      nameZh: '閘閥 DN50',
      fluid: 'water',
      connection: 'Flange',
      application: 'Waterworks',
      applicationMedium: 'Water',
      connectionZh: '法蘭',
      applicationZh: '自來水',
      applicationMediumZh: '水',
      pressureFc: 1.6,
      pressureWcb: 2.5,
      pressureSus: 4,
      temperatureMax: 120,
      temperatureMin: -10,
      valveType: 'gate',
      nominalSize: 50,
      pressureClass: 'PN16',
      seatType: 'metal',
      testStandard: 'en-12266-1',
      leakageRate: 'D',
      // Empty: a GTIN is the manufacturer's own, assigned by GS1; an example one would be imported as if it were.
      gtin: '',
      bidirectional: 'false',
    };
    return sendCsv(reply, 'products-template.csv', PRODUCT_CSV_COLUMNS, [[PRODUCT_CSV_COLUMNS.map((c) => example[c])]]);
  });

  app.post(
    '/api/v1/products/import',
    { schema: { tags, querystring: importQuery, response: { 200: envelope(importResult) } }, config: can('create') },
    async (req) => {
      const result = await withUpload(app.ctx.uploads, req, 'products', (source) =>
        importProducts(app.ctx.db, source, actorOf(req), { dryRun: req.query.dryRun, language: languageOf(req) }),
      );
      return { data: result };
    },
  );

  app.get(
    '/api/v1/products/:id',
    { schema: { tags, params: idParams, response: { 200: envelope(product) } }, config: can('read') },
    async (req) => ({ data: await service.getProduct(db, req.params.id) }),
  );

  app.put(
    '/api/v1/products/:id',
    { schema: { tags, params: idParams, body: productInput, response: { 200: changed } }, config: can('update') },
    async (req) => {
      const p = await service.updateProduct(db, actorOf(req), req.params.id, req.body);
      return { data: p, ...successMessage(req, 'products.updated') };
    },
  );

  app.delete(
    '/api/v1/products/:id',
    { schema: { tags, params: idParams, response: { 200: deleted } }, config: can('delete') },
    async (req) => {
      await service.deleteProduct(db, actorOf(req), req.params.id);
      return { data: { id: req.params.id }, ...successMessage(req, 'products.deleted') };
    },
  );

  app.get(
    '/api/v1/products/:id/history',
    { schema: { tags, params: idParams, response: { 200: envelope(z.array(historyEntry)) } }, config: can('read') },
    async (req) => ({ data: await service.productHistory(db, req.params.id) }),
  );
};
