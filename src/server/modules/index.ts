/**
 * Every domain's routes, registered under their prefix. A domain adds one line here and nothing else
 * outside its folder.
 */
import type { FastifyInstance } from 'fastify';
import { alertRoutes } from './alerts/alerts.routes';
import { auditRoutes } from './audit/audit.routes';
import { authRoutes } from './auth/auth.routes';
import { dashboardRoutes } from './dashboard/dashboard.routes';
import { healthRoutes } from './health/health.routes';
import { machineDataImportRoutes } from './machine-data/machine-data-import.routes';
import { machineDataRoutes } from './machine-data/machine-data.routes';
import { materialRoutes } from './materials/materials.routes';
import { machineRoutes } from './machines/machines.routes';
import { instrumentRoutes } from './machines/instruments.routes';
import { customerRoutes } from './orders/customers.routes';
import { deliveryRoutes } from './orders/deliveries.routes';
import { deliveryLinkRoutes } from './orders/delivery-links.routes';
import { publicDeliveryRoutes } from './public/delivery-links.routes';
import { purchaseOrderRoutes } from './orders/purchase-orders.routes';
import { qualityRoutes } from './quality/quality.routes';
import { productRoutes } from './products/products.routes';
import { reportRoutes } from './reports/reports.routes';
import { searchRoutes } from './public/searches.routes';
import { publicRoutes } from './public/public.routes';
import { serialRoutes } from './serials/serials.routes';
import { rangeReleaseRoutes } from './reports/range-release.routes';
import { settingsRoutes } from './settings/settings.routes';
import { staffRoutes } from './staff/staff.routes';
import { webhookRoutes } from './webhooks/webhooks.routes';

export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(staffRoutes);
  await app.register(auditRoutes);
  await app.register(productRoutes);
  await app.register(serialRoutes);
  await app.register(materialRoutes);
  await app.register(rangeReleaseRoutes);
  await app.register(machineRoutes);
  await app.register(instrumentRoutes);
  await app.register(machineDataRoutes);
  await app.register(machineDataImportRoutes);
  await app.register(settingsRoutes);
  await app.register(reportRoutes);
  await app.register(publicRoutes);
  await app.register(qualityRoutes);
  await app.register(searchRoutes);
  await app.register(dashboardRoutes);
  await app.register(customerRoutes);
  await app.register(purchaseOrderRoutes);
  await app.register(deliveryRoutes);
  await app.register(deliveryLinkRoutes);
  await app.register(publicDeliveryRoutes);
  await app.register(alertRoutes);
  await app.register(webhookRoutes);
}
