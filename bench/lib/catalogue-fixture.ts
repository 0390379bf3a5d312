/**
 * The catalogue benchmark's world: a scratch database (PostgreSQL from BENCH_DATABASE_URL, or PGlite in
 * memory) seeded in SQL with generate_series, the real app listening on 127.0.0.1 plus a lookup route shaped
 * like the public one, a signed-in staff cookie, and a bare Fastify app as the peer for throughput.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { createMigratedDatabase, type TestDatabase } from '../../test/helpers/database';
import { createSession, SESSION_COOKIE } from '../../src/server/modules/auth/sessions';
import { findRangeBySerial } from '../../src/server/modules/serials/serials.service';
import { AppError } from '../../src/shared/errors';

export const SERIES = 100;
export const PRODUCTS = 1000;

export interface World {
  database: Database;
  app: FastifyInstance;
  bare: FastifyInstance;
  appUrl: string;
  bareUrl: string;
  cookie: string;
  close(): Promise<void>;
}

export function openScratch(kind: 'postgres' | 'pglite'): Promise<TestDatabase> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  return createMigratedDatabase(kind === 'postgres' ? serverUrl : undefined, { prefix: 'trc_bench', maxConnections: 10 });
}

/** Range g: series g % 100 (prefix Bnn-, width 8), slot g / 100 of 1,000 numbers, 100 to 700 units long. */
export function serialOf(g: number, offset: number): string {
  const prefix = `B${String(g % SERIES).padStart(2, '0')}-`;
  return prefix + String(Math.floor(g / SERIES) * 1000 + offset).padStart(8, '0');
}

export async function seed(database: Database, ranges: number, log: (l: string) => void): Promise<void> {
  const db = database.db;
  await db.execute(sql`INSERT INTO products (name, fluid, pressure_fc, temperature_max, temperature_min)
    SELECT 'Bench Product ' || lpad(g::text, 4, '0'), (ARRAY['water','steam','oil','gas','air','chemical'])[1 + g % 6], 1.6, 120, -10
    FROM generate_series(0, ${PRODUCTS - 1}) g`);
  const chunk = database.kind === 'postgres' ? 250_000 : 50_000;
  const started = performance.now();
  for (let from = 0; from < ranges; from += chunk) {
    const to = Math.min(ranges, from + chunk) - 1;
    await db.execute(sql`INSERT INTO serial_ranges (product_id, prefix, width, start_no, end_no, production_date, created_at, updated_at)
      SELECT p.id, 'B' || lpad((g % ${SERIES})::text, 2, '0') || '-', 8, (g / ${SERIES})::bigint * 1000,
             (g / ${SERIES})::bigint * 1000 + (g % 7) * 100 + 99, date '2020-01-01' + (g % 1500),
             now() - g * interval '1 second', now() - g * interval '1 second'
      FROM generate_series(${from}::int, ${to}::int) g
      JOIN (SELECT id, (row_number() OVER (ORDER BY name))::int - 1 AS rn FROM products) p ON p.rn = g % ${PRODUCTS}`);
  }
  await db.execute(database.kind === 'postgres' ? sql`VACUUM ANALYZE serial_ranges` : sql`ANALYZE serial_ranges`);
  await db.execute(sql`ANALYZE products`);
  log(`seeded ${ranges.toLocaleString('en')} ranges over ${PRODUCTS} products in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The real app with a route shaped like the public lookup (serial in, product summary out). */
export async function startWorld(database: Database): Promise<World> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/bench/lookup',
    { schema: { hide: true, body: z.object({ serial: z.string().max(200) }) }, config: { access: 'public' } },
    async (req) => {
      const hit = await findRangeBySerial(database.db, req.body.serial);
      if (!hit) throw new AppError('not-found', 'errors.serialNotFound');
      const { product: p, range } = hit;
      return { data: { serial: req.body.serial, product: { name: p.name, fluid: p.fluid, pressureFc: p.pressureFc, pressureWcb: p.pressureWcb, pressureSus: p.pressureSus, temperatureMax: p.temperatureMax, temperatureMin: p.temperatureMin }, productionDate: range.productionDate } };
    },
  );
  // The same pipeline without the database: separates the app's own per-request cost from the lookup's.
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/bench/noop',
    { schema: { hide: true, body: z.object({ serial: z.string().max(200) }) }, config: { access: 'public' } },
    async (req) => ({ data: { serial: req.body.serial } }),
  );
  const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });

  const bare = Fastify({ logger: false });
  bare.setValidatorCompiler(validatorCompiler);
  bare.setSerializerCompiler(serializerCompiler);
  bare.post('/bare', async (req) => ({ data: { serial: (req.body as { serial?: string } | null)?.serial ?? null } }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const inserted = await database.db.execute(sql`INSERT INTO users (name, email, password_hash, role)
    VALUES ('Bench', ${`bench-${randomBytes(4).toString('hex')}@example.com`}, 'x', 'staff') RETURNING id`);
  const [user] = (inserted as unknown as { rows: { id: string }[] }).rows;
  const cookie = `${SESSION_COOKIE}=${await createSession(database.db, user!.id)}`;
  return {
    database,
    app,
    bare,
    appUrl,
    bareUrl,
    cookie,
    close: async () => {
      await bare.close();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
