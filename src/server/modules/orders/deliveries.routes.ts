/**
 * /api/v1/deliveries: list, add, read, update while open, add units (JSON or CSV), remove a unit, cancel,
 * the witness of a 3.2 delivery, and the read-only release gate of the units.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, listEnvelope } from '../../../shared/contract/common';
import {
  delivery,
  deliveryCancelInput,
  deliveryDetail,
  deliveryGate,
  deliveryInput,
  deliveryListQuery,
  deliverySerialsInput,
  deliveryReleaseHeld,
  deliveryUnitTagInput,
} from '../../../shared/contract/orders';
import { DELIVERY_CSV_COLUMNS } from '../../../shared/contract/orders-csv';
import { AppError } from '../../../shared/errors';
import { actorOf, languageOf, successMessage } from '../audit/actor';
import { translate } from '../../../shared/i18n/index';
import { ensureMultipart, sendCsv, withoutIdleDeadline, withUploads } from '../../lib/http-files';
import { deliveryPages } from './deliveries.repo';
import { readDeliveryUnitsCsv } from './deliveries.csv';
import * as service from './deliveries.service';
import { correctUnitTag, DeliveryHeldError, startRelease } from './release.service';
import { orderIssuer } from './order-issuer';
import { recordWitness } from './witness.service';
import { deliveryWitnessInput } from '../../../shared/contract/witness';

const can = (action: 'read' | 'create' | 'update') => ({ access: { action, subject: 'Delivery' as const } });
const idParams = z.object({ id: z.string() });
const serialParams = z.object({ id: z.string(), serial: z.string() });
const changed = envelope(delivery).extend({ message: z.string(), messageKey: z.string() });
const changedDetail = envelope(deliveryDetail).extend({ message: z.string(), messageKey: z.string() });

export const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  await ensureMultipart(app);
  const db = app.ctx.db;
  const tags = ['deliveries'];

  app.get(
    '/api/v1/deliveries',
    { schema: { tags, querystring: deliveryListQuery, response: { 200: listEnvelope(delivery) } }, config: can('read') },
    async (req) => ({ data: await service.listDeliveries(db, req.query) }),
  );

  // The list as filtered and sorted, for a spreadsheet: no import (units are added to a delivery, not made here).
  app.get(
    '/api/v1/deliveries/export.csv',
    { schema: { tags, querystring: deliveryListQuery }, config: can('read') },
    async (req, reply) => {
      const rows = async function* () {
        for await (const page of deliveryPages(db, req.query))
          yield page.map((d) => {
            const cell: Record<(typeof DELIVERY_CSV_COLUMNS)[number], string | number | null> = {
              number: d.number,
              date: d.date,
              status: d.status,
              customer: d.customerName,
              purchaseOrder: d.purchaseOrderNumber,
              unitCount: d.unitCount,
              issuedCount: d.issuedCount,
              releasedAt: d.releasedAt,
              cancelReason: d.cancelReason,
            };
            return DELIVERY_CSV_COLUMNS.map((col) => cell[col]);
          });
      };
      return sendCsv(reply, 'deliveries.csv', DELIVERY_CSV_COLUMNS, rows());
    },
  );

  app.post(
    '/api/v1/deliveries',
    { schema: { tags, body: deliveryInput, response: { 201: changed } }, config: can('create') },
    async (req, reply) => {
      const d = await service.createDelivery(db, actorOf(req), req.body);
      return reply.status(201).send({ data: d, ...successMessage(req, 'orders.deliveryAdded') });
    },
  );

  app.get(
    '/api/v1/deliveries/:id',
    { schema: { tags, params: idParams, response: { 200: envelope(deliveryDetail) } }, config: can('read') },
    async (req) => ({ data: await service.getDelivery(db, req.params.id) }),
  );

  app.put(
    '/api/v1/deliveries/:id',
    { schema: { tags, params: idParams, body: deliveryInput, response: { 200: changed } }, config: can('update') },
    async (req) => ({
      data: await service.updateDelivery(db, actorOf(req), req.params.id, req.body),
      ...successMessage(req, 'orders.deliveryUpdated'),
    }),
  );

  app.post(
    '/api/v1/deliveries/:id/serials',
    // A batch of 10,000 units is about 600 KB of JSON.
    {
      schema: { tags, params: idParams, body: deliverySerialsInput, response: { 200: changedDetail } },
      config: can('update'),
      bodyLimit: 4 * 1024 * 1024,
    },
    async (req) => ({
      data: await service.addUnits(db, actorOf(req), req.params.id, req.body.units),
      ...successMessage(req, 'orders.unitsAdded'),
    }),
  );

  app.post(
    '/api/v1/deliveries/:id/serials.csv',
    { schema: { tags, params: idParams, response: { 200: changedDetail } }, config: can('update') },
    async (req) => {
      const actor = actorOf(req);
      const d = await withUploads(app.ctx.uploads, req, async (files) => {
        const file = files[0];
        if (!file)
          throw new AppError('invalid-argument', 'orders.import.noFile', { fields: [{ field: 'file', key: 'orders.import.noFile' }] });
        return withoutIdleDeadline(req, async () => {
          const { units, rowOf } = await readDeliveryUnitsCsv(file.upload.read());
          return service.addUnits(db, actor, req.params.id, units, (i, f) => `rows.${rowOf[i]}.${f}`);
        });
      });
      return { data: d, ...successMessage(req, 'orders.unitsAdded') };
    },
  );

  app.delete(
    '/api/v1/deliveries/:id/serials/:serial',
    { schema: { tags, params: serialParams, response: { 200: changedDetail } }, config: can('update') },
    async (req) => ({
      data: await service.removeUnit(db, actorOf(req), req.params.id, req.params.serial),
      ...successMessage(req, 'orders.unitRemoved'),
    }),
  );

  app.post(
    '/api/v1/deliveries/:id/cancel',
    { schema: { tags, params: idParams, body: deliveryCancelInput, response: { 200: changed } }, config: can('update') },
    async (req) => ({
      data: await service.cancelDelivery(db, actorOf(req), req.params.id, req.body.reason),
      ...successMessage(req, 'orders.deliveryCancelledDone'),
    }),
  );

  app.put(
    '/api/v1/deliveries/:id/serials/:serial',
    { schema: { tags, params: serialParams, body: deliveryUnitTagInput, response: { 200: changedDetail } }, config: can('update') },
    async (req) => ({
      data: await correctUnitTag(db, orderIssuer(app), actorOf(req), req.params.id, req.params.serial, req.body.tag),
      ...successMessage(req, 'orders.tagCorrected'),
    }),
  );

  app.put(
    '/api/v1/deliveries/:id/witness',
    { schema: { tags, params: idParams, body: deliveryWitnessInput, response: { 200: changed } }, config: can('update') },
    async (req) => ({
      data: await recordWitness(db, actorOf(req), req.params.id, req.body),
      ...successMessage(req, 'orders.witness.recorded'),
    }),
  );

  app.post(
    '/api/v1/deliveries/:id/release',
    {
      schema: { tags, params: idParams, response: { 202: changed, 409: deliveryReleaseHeld } },
      config: can('update'),
    },
    async (req, reply) => {
      try {
        const d = await startRelease(db, actorOf(req), req.params.id);
        app.ctx.releases.kick();
        return reply.status(202).send({ data: d, ...successMessage(req, 'orders.releaseStarted') });
      } catch (err) {
        // The held units with the gate's reasons, as the release screen lists them.
        if (err instanceof DeliveryHeldError) {
          const message = translate(languageOf(req), err.messageKey, err.params);
          return reply.status(409).send({ error: { status: 'FAILED_PRECONDITION', message, key: err.messageKey }, data: err.gate });
        }
        throw err;
      }
    },
  );

  app.get(
    '/api/v1/deliveries/:id/gate',
    { schema: { tags, params: idParams, response: { 200: envelope(deliveryGate) } }, config: can('read') },
    async (req) => ({ data: await service.deliveryGate(db, req.params.id) }),
  );
};
