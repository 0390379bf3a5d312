/**
 * Staff's part of the buyer's links: `POST /api/v1/deliveries/{id}/links` emails a new link to the
 * customer's certificate contacts (a released delivery only), `POST /api/v1/deliveries/{id}/links/revoke`
 * ends every link. Both answer the delivery as its page shows it, with the message. The link emails'
 * composer is registered here, whoever queues them (the release, staff, a visitor's request).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/contract/common';
import { deliveryDetail } from '../../../shared/contract/orders';
import { actorOf, successMessage } from '../audit/actor';
import { registerDeliveryLinkMail } from './delivery-link-mail';
import { resendDeliveryLink, revokeLinks } from './delivery-links.service';

const idParams = z.object({ id: z.string() });
const changedDetail = envelope(deliveryDetail).extend({ message: z.string(), messageKey: z.string() });
const config = { access: { action: 'update' as const, subject: 'Delivery' as const } };

export const deliveryLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const deps = { db, publicBaseUrl: app.ctx.config.publicBaseUrl, kick: () => app.ctx.mail.kick() };
  const stopMail = registerDeliveryLinkMail(app.ctx.mail, app.ctx.config.publicBaseUrl);
  app.addHook('onClose', async () => stopMail());
  const tags = ['deliveries'];

  app.post(
    '/api/v1/deliveries/:id/links',
    { schema: { tags, params: idParams, response: { 200: changedDetail } }, config },
    async (req) => ({
      data: await resendDeliveryLink(deps, actorOf(req), req.params.id),
      ...successMessage(req, 'deliveryLinks.linkSent'),
    }),
  );

  app.post(
    '/api/v1/deliveries/:id/links/revoke',
    { schema: { tags, params: idParams, response: { 200: changedDetail } }, config },
    async (req) => ({
      data: await revokeLinks(db, actorOf(req), req.params.id),
      ...successMessage(req, 'deliveryLinks.linksRevoked'),
    }),
  );
};
