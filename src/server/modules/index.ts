/**
 * Every domain's routes, registered under their prefix. A domain adds one line here and nothing else
 * outside its folder.
 */
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health/health.routes';

export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
}
