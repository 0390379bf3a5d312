/**
 * The catalogue benchmark's world: a scratch database (PostgreSQL from BENCH_DATABASE_URL, or PGlite in
 * memory) seeded by the project's data generator (src/server/demo, through the CSV import services), the real app listening on 127.0.0.1 plus a lookup route shaped
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
import { rowsOf, type Database } from '../../src/server/db/client';
import { createMigratedDatabase, type TestDatabase } from '../../test/helpers/database';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { findRangeBySerial } from '../../src/server/modules/serials/serials.service';
import { AppError } from '../../src/shared/errors';
import { generateData } from '../../src/server/demo/generate';
import type { GeneratedRange } from '../../src/server/demo/ranges';
import { SIZES } from '../../src/server/demo/sizes';
import { formatSerial } from '../../src/shared/serial';

export const PRODUCTS = 1000;
export const BENCH_SEED = 7;

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

/**
 * A copy of `template` (CREATE DATABASE … TEMPLATE), migrated to this build: a bench run beside the data a
 * database holds already, e.g. the ten-year factory of `npm run bench -- decade` (`trc_decade`).
 */
export async function copyOfDatabase(template: string, log: (l: string) => void): Promise<TestDatabase> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const started = performance.now();
  const copy = await createMigratedDatabase(serverUrl, { prefix: 'trc_bench_copy', maxConnections: 10, template });
  log(`into a copy of ${template}, made in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return copy;
}

/**
 * The ranges a database holds already, recorded as `seed` records the ones it makes (to pick serials inside
 * and between them): those of the most common serial width. Answers how many.
 */
export async function rangesOf(database: Database, log: (l: string) => void): Promise<number> {
  const rows = rowsOf<{ prefix: string; width: number; start: string; end: string }>(
    await database.db.execute(sql`SELECT prefix, width, start_no::text AS start, end_no::text AS end FROM serial_ranges
      WHERE width = (SELECT width FROM serial_ranges GROUP BY width ORDER BY count(*) DESC LIMIT 1)
      ORDER BY prefix, start_no`),
  );
  where.prefix = new Uint16Array(rows.length);
  where.start = new Float64Array(rows.length);
  where.end = new Float64Array(rows.length);
  where.gapEnd = new Float64Array(rows.length);
  const prefixIds = new Map<string, number>();
  rows.forEach((r, i) => {
    let id = prefixIds.get(r.prefix);
    if (id === undefined) prefixIds.set(r.prefix, (id = prefixIds.size));
    where.prefix[i] = id;
    where.start[i] = Number(r.start);
    where.end[i] = Number(r.end);
    const next = rows[i + 1];
    where.gapEnd[i] = next && next.prefix === r.prefix ? Number(next.start) - 1 : Number(r.end) + 1000;
    where.width = r.width;
  });
  where.prefixes = [...prefixIds.keys()];
  const [named] = rowsOf<{ name: string }>(await database.db.execute(sql`SELECT name FROM products ORDER BY name OFFSET 42 LIMIT 1`));
  where.productName = named?.name ?? '';
  log(`the database's own ${rows.length.toLocaleString('en')} ranges of width ${where.width} (${prefixIds.size} series)`);
  return rows.length;
}

/** Where the seeded ranges are (typed arrays: a million ranges in a few MB), to pick serials to look up. */
const where = {
  prefixes: [] as string[],
  prefix: new Uint16Array(0),
  start: new Float64Array(0),
  end: new Float64Array(0),
  gapEnd: new Float64Array(0),
  width: 8,
  productName: '',
};

function serial(g: number, n: number): string {
  return formatSerial({ prefix: where.prefixes[where.prefix[g]!]!, width: where.width, number: BigInt(n) });
}

/** A serial inside range g (`offset` wraps within it). */
export function insideOf(g: number, offset: number): string {
  return serial(g, where.start[g]! + (offset % (where.end[g]! - where.start[g]! + 1)));
}

/** A serial no range holds: in the gap after range g, or past the end of its series when there is no gap. */
export function missOf(g: number, k: number): string {
  const gap = where.gapEnd[g]! - where.end[g]!;
  return serial(g, where.end[g]! + 1 + (k % Math.max(1, gap)));
}

/** A product name to search the list by, and a series prefix with how many ranges it has. */
export function searchTerms(): { productName: string; prefix: string; prefixRanges: number } {
  const p = where.prefix[0]!;
  return { productName: where.productName, prefix: where.prefixes[p]!, prefixRanges: where.prefix.filter((x) => x === p).length };
}

export async function seed(database: Database, ranges: number, log: (l: string) => void): Promise<void> {
  where.prefix = new Uint16Array(ranges);
  where.start = new Float64Array(ranges);
  where.end = new Float64Array(ranges);
  where.gapEnd = new Float64Array(ranges);
  const prefixIds = new Map<string, number>();
  const lastOf = new Map<number, number>();
  const onRange = (r: GeneratedRange) => {
    let id = prefixIds.get(r.prefix);
    if (id === undefined) prefixIds.set(r.prefix, (id = prefixIds.size));
    const last = lastOf.get(id);
    if (last !== undefined) where.gapEnd[last] = r.start - 1;
    lastOf.set(id, r.index);
    where.prefix[r.index] = id;
    where.start[r.index] = r.start;
    where.end[r.index] = r.end;
    where.gapEnd[r.index] = r.end + 1000;
    where.width = r.width;
  };
  const started = performance.now();
  const size = { ...SIZES.bench, products: PRODUCTS, ranges };
  const data = await generateData(database.db, { size, seed: BENCH_SEED, only: ['catalogue'], onRange, now: Date.UTC(2026, 10, 1) });
  where.prefixes = [...prefixIds.keys()];
  where.productName = data.products[42 % data.products.length]!.name;
  await database.db.execute(database.kind === 'postgres' ? sql`VACUUM ANALYZE serial_ranges` : sql`ANALYZE serial_ranges`);
  await database.db.execute(sql`ANALYZE products`);
  log(
    `seeded ${ranges.toLocaleString('en')} ranges over ${PRODUCTS} products with the data generator (CSV import path) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** The real app with a route shaped like the public lookup (serial in, product summary out). */
export async function startWorld(database: Database): Promise<World> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trc-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false });
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/v1/bench/lookup',
      { schema: { hide: true, body: z.object({ serial: z.string().max(200) }) }, config: { access: 'public' } },
      async (req) => {
        const hit = await findRangeBySerial(database.db, req.body.serial);
        if (!hit) throw new AppError('not-found', 'errors.serialNotFound');
        const { product: p, range } = hit;
        return {
          data: {
            serial: req.body.serial,
            product: {
              name: p.name,
              fluid: p.fluid,
              pressureFc: p.pressureFc,
              pressureWcb: p.pressureWcb,
              pressureSus: p.pressureSus,
              temperatureMax: p.temperatureMax,
              temperatureMin: p.temperatureMin,
            },
            productionDate: range.productionDate,
          },
        };
      },
    );
  // The same pipeline without the database: separates the app's own per-request cost from the lookup's.
  // Access 'anonymous', as the public lookup's: no session hook (src/server/lib/access.ts).
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/v1/bench/noop',
      { schema: { hide: true, body: z.object({ serial: z.string().max(200) }) }, config: { access: 'anonymous' } },
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
