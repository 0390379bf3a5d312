/**
 * `npm run demo`: the first start on an empty database fills it with the demo data (generate.ts), the
 * customers, orders and deliveries (orders.ts), and two accounts, an administrator and a staff member, with generated passwords; they are printed, and kept in
 * DATA_DIR/demo-accounts.json (readable by its owner only) so that a later start can say where they are.
 * A later start changes nothing: it prints the accounts, where their passwords are and how to set new ones.
 */
import { demoAlerts } from './alerts';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { rowsOf, type Database } from '../db/client';
import { generatePassword, hashPassword } from '../lib/passwords';
import { recordAudit } from '../modules/audit/audit.writer';
import { auditView } from '../modules/auth/auth.service';
import { insertUser } from '../modules/auth/users.repo';
import { setDemoCompany } from './company';
import { generateData } from './generate';
import { generateOrders } from './orders';
import { demoMaterials } from './materials';
import { isSizeName, SIZES, type SizeName } from './sizes';

export const DEMO_ACCOUNTS = [
  { role: 'admin', name: 'Demo Administrator', email: 'admin@demo.example.com' },
  { role: 'staff', name: 'Demo Staff', email: 'staff@demo.example.com' },
] as const;

export const DEMO_SEED = 1;
const FILE = 'demo-accounts.json';

interface DemoFile {
  accounts: Array<{ role: string; email: string; password: string }>;
  serials: string[];
}

/** The admin command for this database: the demo's DATA_DIR is not the default one. */
function adminCli(config: Config): string {
  if (config.databaseUrl) return 'npm run admin --';
  const rel = path.relative(process.cwd(), config.dataDir);
  const dir = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : config.dataDir;
  return `DATA_DIR=${dir} npm run admin --`;
}

export function demoSizeFrom(env: NodeJS.ProcessEnv): SizeName {
  const v = env.DEMO_SIZE?.trim() || 'demo';
  if (!isSizeName(v) || v === 'bench' || v === 'decade') throw new Error(`Invalid DEMO_SIZE=${JSON.stringify(v)}: must be demo or small`);
  return v;
}

/**
 * Fills an empty database with the demo data; answers the lines to print. Refuses a database that holds
 * data but was not made by the demo: it would not mix demo products and accounts into a real one.
 */
export async function prepareDemo(database: Database, config: Config, sizeName: SizeName, log: (line: string) => void): Promise<string[]> {
  const file = path.join(config.dataDir, FILE);
  const [state] = rowsOf<{ users: number; products: number }>(
    await database.db.execute(sql`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM products)::int AS products`),
  );
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoFile;
    return [
      `Demo data kept from the first start (${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}).`,
      ...saved.accounts.map((a) => `  ${a.role.padEnd(5)} ${a.email}`),
      `Their passwords as generated are in ${file}; set a new one with:`,
      `  ${adminCli(config)} reset-password --email ${saved.accounts[0]?.email ?? DEMO_ACCOUNTS[0].email}`,
      `Try serial ${saved.serials[0]} on /search.`,
    ];
  }
  if ((state?.users ?? 0) > 0 || (state?.products ?? 0) > 0) {
    throw new Error(
      `the demo starts only on an empty database; this one already holds data (DATA_DIR=${config.dataDir}${config.databaseUrl ? ', DATABASE_URL' : ''})`,
    );
  }

  log(`Filling the demo database (${sizeName}, seed ${DEMO_SEED}); this takes a minute the first time…`);
  const data = await generateData(database.db, { size: SIZES[sizeName], seed: DEMO_SEED, log });
  await setDemoCompany(database.db, { id: null, label: 'demo data' });
  const materials = await demoMaterials(database.db, { id: null, label: 'demo data' });
  log(`Materials, product parts and ${materials.heats} heats with their mill certificates written; one heat is on hold`);
  const t0 = performance.now();
  const orders = await generateOrders(database.db, { id: null, label: 'demo data' }, data);
  const took = `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  log(
    orders.deliveries
      ? `${orders.customers} customers, 2 purchase orders and 3 deliveries written: one held, one ready, one being released (${took})`
      : `${orders.customers} customers written; the tested units allow no deliveries (${took})`,
  );
  const demo = await demoAlerts(database.db);
  log(`${demo.raised} alerts raised through the demo's past (Hydro Bench 2's drift among them), ${demo.acknowledged} acknowledged`);
  const accounts: DemoFile['accounts'] = [];
  for (const a of DEMO_ACCOUNTS) {
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    await database.db.transaction(async (tx) => {
      const row = await insertUser(tx, { name: a.name, email: a.email, passwordHash, role: a.role });
      await recordAudit(
        tx,
        { id: null, label: 'demo data' },
        { action: 'create', entity: 'user', entityId: row.id, after: auditView(row) },
      );
    });
    accounts.push({ role: a.role, email: a.email, password });
  }
  const serials = data.testedSerials.slice(0, 1).concat(data.testedSerials.slice(-3));
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ accounts, serials } satisfies DemoFile, null, 2)}\n`, { mode: 0o600 });
  return [
    'Demo accounts (passwords generated now; kept in ' + file + '):',
    ...accounts.map((a) => `  ${a.role.padEnd(5)} ${a.email}  password: ${a.password}`),
    `Try serial ${serials[0]} on /search (recent ones: ${serials.slice(1).join(', ')}).`,
    `A later \`npm run demo\` keeps all this; new passwords: ${adminCli(config)} reset-password --email <email>`,
  ];
}
