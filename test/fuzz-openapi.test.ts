// @engine-independent: request validation answers before any SQL, and PGlite is PostgreSQL's own code (scripts/test.mjs leaves it out of the PostgreSQL pass).
/**
 * Fuzzing driven by the app's own OpenAPI document (GET /api/openapi.json, read at run time, so routes added
 * later are walked too). For every operation fast-check draws requests from the operation's schemas, mostly
 * well-shaped with some fields wrong, plus malformed ones: wrong types, missing or extra fields, huge and odd
 * unicode strings, ids that exist, do not exist or are not ids at all, broken query strings, wrong content
 * types, invalid and deeply nested JSON, junk multipart uploads. Each is sent as an administrator, a staff
 * member, a bench (its key) and anonymously, same-origin or not. For every request:
 *  - no 5xx, and the app still answers afterwards (no crash);
 *  - a 4xx stored nothing: the row counts of the main tables are the same before and after it.
 * A request that ends its own session (sign-out, password change, self-disable…) gets a fresh session after
 * it. A third of the writes start from an existing record's own fields (read back through the API) with
 * one field spoilt or dropped, so that they reach past validation. FUZZ_SEED reproduces a run (the seed is printed), FUZZ_RUNS sets requests per operation (30).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/server/db/client';
import { createSession, SESSION_COOKIE } from '../src/server/lib/sessions';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN } from './helpers/catalogue';
import { createUser, randomIp } from './helpers/factories';
import { createBench, record } from './helpers/machine-data';
import { catalogue, testData } from './helpers/public';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 30));
/** The whole walk's time budget: an operation gets its share and stops drawing when it is spent. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 75_000);

/** Tables whose row count must not move on a refused request. Logs of refusals (audit log, recorded
 * searches, spent challenges, counters) are left out: writing those on a refusal is their purpose. */
const MAIN_TABLES = [
  'users',
  'password_resets',
  'machines',
  'test_records',
  'products',
  'serial_ranges',
  'mail_outbox',
  'settings',
  'reports',
];

type Role = 'admin' | 'staff' | 'bench' | 'anonymous';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; schema: JsonSchema }[];
  jsonBody?: JsonSchema;
}

interface Drawn {
  role: Role;
  origin: 'same' | 'none' | 'cross';
  path: string;
  query: string;
  body?: { payload: string | Buffer; contentType?: string };
}

let t: TestApp;
let operations: Operation[];
const sessions = {} as Record<'admin' | 'staff', { cookie: string; userId: string }>;
let benchKey = '';
/** ids, serials and codes that exist, so that some requests reach past "not found" */
let known: string[] = [];
let knownSerial = 'VB2311-000123';

async function newSession(role: 'admin' | 'staff'): Promise<void> {
  const user = await createUser(t.app.ctx.db, { role, name: `Fuzz ${role}` });
  sessions[role] = { cookie: `${SESSION_COOKIE}=${await createSession(t.app.ctx.db, user.id)}`, userId: user.id };
}

async function refreshKnown(): Promise<void> {
  const rows = rowsOf<{ v: string }>(
    await t.app.ctx.db.execute(sql`
      (SELECT id::text AS v FROM products LIMIT 3) UNION ALL (SELECT id::text FROM serial_ranges LIMIT 3)
      UNION ALL (SELECT id::text FROM machines LIMIT 3) UNION ALL (SELECT id::text FROM users LIMIT 5)
      UNION ALL (SELECT id::text FROM test_records LIMIT 3) UNION ALL (SELECT serial FROM test_records LIMIT 3)
      UNION ALL (SELECT id::text FROM search_requests LIMIT 3) UNION ALL (SELECT id::text FROM reports LIMIT 3)`),
  );
  known = [...new Set([...rows.map((r) => r.v), sessions.admin.userId, sessions.staff.userId])];
  const [serial] = rowsOf<{ serial: string }>(await t.app.ctx.db.execute(sql`SELECT serial FROM test_records LIMIT 1`));
  if (serial) knownSerial = serial.serial;
}

async function counts(): Promise<Record<string, number>> {
  const row = rowsOf<Record<string, string>>(
    await t.app.ctx.db.execute(sql.raw(`SELECT ${MAIN_TABLES.map((n) => `(SELECT count(*) FROM ${n})::int AS ${n}`).join(', ')}`)),
  )[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

// --- what to send ---------------------------------------------------------------------------------

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil',
  '\uFEFF',
  'Ａ１２３－４５６',
  '١٢٣٤',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'e\u0301\u0301\u0301',
  '🙂'.repeat(50),
  '../../etc/passwd',
  "'; DROP TABLE users;--",
  '%00',
  '%',
  '<script>alert(1)</script>',
  '${jndi:x}',
  '\r\nX-Injected: 1',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '2024-02-30',
  '9999-12-31T23:59:59Z',
  '0000-00-00',
  '=cmd|calc',
  'VB2311-000123',
];

const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)) },
);

function junkValue(depth: number): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 2, -1e308, 1e308, Number.MIN_VALUE),
    oddString,
  );
  if (depth > 3) return leaf;
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(junkValue(depth + 1), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString')),
        junkValue(depth + 1),
        { maxKeys: 3 },
      ),
    },
  );
}

function stringFor(s: JsonSchema): fc.Arbitrary<string> {
  const max = s.maxLength ?? 60;
  const min = s.minLength ?? 0;
  const options: fc.Arbitrary<string>[] = [
    fc.string({ minLength: min, maxLength: Math.min(max, 60) }),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 30) }),
    fc.constant('y'.repeat(max + 1)),
    oddString,
    fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.emailAddress(),
  ];
  if (known.length) options.push(fc.constantFrom(...known));
  if (s.format === 'uuid') options.push(fc.uuid(), fc.uuid());
  return fc.oneof(...options);
}

function numberFor(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? -1e6;
  const hi = s.maximum ?? 1e6;
  const inRange = integer
    ? fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31) })
    : fc.double({ min: lo, max: hi, noNaN: true });
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(lo - 1, hi + 1, 0.5, -0, 2 ** 53 + 2, -1e308, 1e308) },
  );
}

/** A value shaped by `s` most of the time, or junk of any type. */
function valueFor(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: shaped(s ?? {}, depth) }, { weight: 1, arbitrary: junkValue(depth) });
}

function shaped(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((x) => valueFor(x, depth)));
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((ty) => shaped({ ...s, type: ty }, depth)));
  switch (type[0]) {
    case 'string':
      return stringFor(s);
    case 'integer':
      return numberFor(s, true);
    case 'number':
      return numberFor(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valueFor(s.items, depth + 1), { maxLength: 4 });
    case 'object': {
      if (depth > 3 || !s.properties) return fc.dictionary(fc.string({ maxLength: 6 }), junkValue(depth + 1), { maxKeys: 2 });
      const required = new Set(s.required ?? []);
      const fields = Object.entries(s.properties).map(([k, v]) =>
        fc.option(
          valueFor(v, depth + 1).map((x) => [k, x] as const),
          { freq: required.has(k) ? 12 : 2, nil: undefined },
        ),
      );
      const extra = fc.option(fc.tuple(fc.string({ maxLength: 10 }), junkValue(depth + 1)), { freq: 4, nil: undefined });
      return fc
        .tuple(fc.tuple(...fields), extra)
        .map(([fs, ex]) => Object.fromEntries([...fs.filter((f) => f !== undefined), ...(ex ? [ex] : [])]));
    }
    default:
      // No schema (e.g. a bench's records, checked by the route itself): real-looking records, some spoilt.
      return fc.oneof(
        junkValue(depth),
        fc
          .record({
            field: fc.constantFrom('serial', 'testType', 'testPressure', 'samples', 'testedAt', 'recordId', 'result'),
            value: junkValue(depth + 1),
            drop: fc.boolean(),
          })
          .map(({ field, value, drop }) => {
            const r = record({ serial: knownSerial });
            if (drop) delete r[field];
            else r[field] = value;
            return r;
          }),
        fc.constant(null).map(() => record({ serial: knownSerial })),
      );
  }
}

function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Multipart headers busboy cannot use with the body that follows: no boundary, one too long, a body cut short. */
const MULTIPART_TYPES = [
  'multipart/form-data',
  'multipart/form-data; boundary=',
  `multipart/form-data; boundary=${'b'.repeat(300)}`,
  'multipart/form-data; boundary=x',
  'multipart/mixed; boundary=x',
];
const TRUNCATED_PART =
  '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nname,fluid\r\n';

function multipartJunk(content: string | Buffer, withFile: boolean): { payload: Buffer; contentType: string } {
  const boundary = `----fuzz${randomBytes(6).toString('hex')}`;
  const head = withFile
    ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fuzz.csv"\r\nContent-Type: text/csv\r\n\r\n`
    : `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\n`;
  return {
    payload: Buffer.concat([
      Buffer.from(head),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const csvJunk = fc.oneof(
  fc
    .array(
      fc.array(fc.oneof(oddString, fc.string({ maxLength: 20 })), { maxLength: 12 }).map((cells) => cells.join(',')),
      { maxLength: 6 },
    )
    .map((lines) => lines.join('\n')),
  fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
  fc.constantFrom('\uFEFF', 'a,b\n"unterminated', '\u0000\u0000', 'PK\u0003\u0004', '%PDF-1.4\n', '\x89PNG\r\n\x1a\n'),
);

function bodyFor(op: Operation): fc.Arbitrary<Drawn['body']> {
  const json = (v: unknown) => ({ payload: JSON.stringify(v) ?? 'null', contentType: 'application/json' });
  const malformed: fc.WeightedArbitrary<Drawn['body']>[] = [
    { weight: 2, arbitrary: junkValue(0).map(json) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"a":', '[1,]', '', 'nul', '\u0000', '{"a":1}{"b":2}', '"\uD800"', '{"__proto__":{"x":1}}')
        .map((p) => ({ payload: p, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>)
        .map(([d, k]) => ({ payload: deepJson(d, k), contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/xml',
            'application/json; charset=latin1',
            'application/octet-stream',
            'multipart/form-data',
          ),
          junkValue(0),
        )
        .map(([ct, v]) => ({ payload: JSON.stringify(v) ?? 'x=1', contentType: ct })),
    },
    { weight: 1, arbitrary: fc.tuple(csvJunk, fc.boolean()).map(([c, withFile]) => multipartJunk(c, withFile)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...MULTIPART_TYPES), csvJunk).map(([ct, c]) => ({ payload: c, contentType: ct })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  const ordinary: fc.WeightedArbitrary<Drawn['body']>[] = op.jsonBody
    ? [{ weight: 8, arbitrary: valueFor(op.jsonBody).map(json) }]
    : [
        { weight: 3, arbitrary: fc.tuple(csvJunk, fc.constant(true)).map(([c, f]) => multipartJunk(c, f)) },
        { weight: 1, arbitrary: fc.constant({ payload: '{}', contentType: 'application/json' }) },
      ];
  if (op.method === 'GET')
    return fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: junkValue(0).map(json) });
  return fc.oneof(...ordinary, ...malformed);
}

/** encodeURIComponent, which throws on a lone surrogate: then every UTF-8 byte percent-encoded. */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

function queryFor(op: Operation): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const one = (name: string, v: unknown): string[] =>
    Array.isArray(v) ? v.flatMap((x) => one(name, x)) : [`${enc(name)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`];
  const fields = params.map((p) =>
    fc.option(
      valueFor(p.schema).map((v) => one(p.name, v)),
      { freq: 2, nil: undefined },
    ),
  );
  const raw = fc.constantFrom(
    '%',
    '%E0%A4%A',
    'a[b]=1&a[c]=2',
    '__proto__[x]=1',
    'page=1&page=2',
    '&&&=',
    '=x',
    'q=%00',
    'q=%ED%A0%80',
    'q=%C0%AF',
    `q=${'%41'.repeat(3000)}`,
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(...fields).map((fs) =>
        fs
          .filter((f) => f !== undefined)
          .flat()
          .join('&'),
      ),
    },
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: fc.constant('') },
  );
}

function segmentFor(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(known.length ? known : ['x'])).map(enc) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: oddString.map((s) => enc(s.slice(0, 5000)) || '%20') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%ZZ',
        '%ED%A0%80',
        '%C0%AF',
        '..',
        '%2e%2e',
        '%2F',
        'a%00b',
        'null',
        '-1',
        '0',
        '99999999999999999999',
        randomUUID().toUpperCase(),
      ),
    },
  );
}

/** A body the route would take as it is (an existing record's own fields) and the path it belongs to. */
interface Template {
  path: string;
  body: Record<string, unknown>;
}

/**
 * For a write with a JSON body: the fields of an existing record read back through the API (GET on the same
 * path for PUT/PATCH …/{id}; the first item of the collection for POST), so that near-valid requests (one
 * field spoilt or dropped) reach past validation into the route's own checks.
 */
async function templateFor(op: Operation): Promise<Template | undefined> {
  if (!op.jsonBody?.properties || op.method === 'GET' || op.method === 'DELETE') return undefined;
  const fields = Object.keys(op.jsonBody.properties);
  const pick = (o: unknown) =>
    o && typeof o === 'object' ? Object.fromEntries(Object.entries(o).filter(([k]) => fields.includes(k))) : {};
  const read = async (url: string) => {
    const res = await t.app.inject({ url, headers: { cookie: sessions.admin.cookie } });
    return res.statusCode === 200 ? (res.json() as { data?: unknown }).data : undefined;
  };
  if (/^\/api\/v1\/[\w-]+\/\{id\}$/.test(op.path)) {
    for (const id of known) {
      const data = await read(op.path.replace('{id}', id));
      if (data) return { path: op.path.replace('{id}', id), body: pick(data) };
    }
    return undefined;
  }
  if (op.path.includes('{')) return undefined;
  // A collection's first item for POST; for PUT/PATCH on a single resource (e.g. the settings), itself.
  const data = (await read(op.path)) as { items?: unknown[] } | undefined;
  const base = data?.items ? data.items[0] : op.method === 'POST' ? undefined : data;
  return base ? { path: op.path, body: pick(base) } : undefined;
}

function requestFor(op: Operation, template?: Template): fc.Arbitrary<Drawn> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const general = fc.record({
    role: fc.constantFrom<Role>('admin', 'admin', 'admin', 'staff', 'staff', 'bench', 'anonymous'),
    origin: fc.constantFrom<Drawn['origin']>('same', 'same', 'same', 'same', 'same', 'none', 'cross'),
    path: fc.tuple(...names.map(() => segmentFor())).map((values) => names.reduce((p, n, i) => p.replace(`{${n}}`, values[i]!), op.path)),
    query: queryFor(op),
    body: bodyFor(op),
  });
  if (!template || !op.jsonBody?.properties) return general;
  const props = op.jsonBody.properties;
  const keys = Object.keys(props);
  const nearValid = fc
    .record({
      role: fc.constantFrom<Role>('admin', 'staff'),
      key: fc.constantFrom(...keys),
      how: fc.constantFrom('spoil', 'spoil', 'drop', 'keep'),
      value: fc.oneof(...keys.map((k) => valueFor(props[k]).map((v) => [k, v] as const))),
    })
    .map(({ role, key, how, value }): Drawn => {
      const body: Record<string, unknown> = { ...template.body };
      if (how === 'drop') delete body[key];
      if (how === 'spoil') body[value[0]] = value[1];
      return {
        role,
        origin: 'same',
        path: template.path,
        query: '',
        body: { payload: JSON.stringify(body), contentType: 'application/json' },
      };
    });
  return fc.oneof({ weight: 2, arbitrary: general }, { weight: 1, arbitrary: nearValid });
}

// --- sending --------------------------------------------------------------------------------------

function inject(op: Operation, d: Drawn): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (d.role === 'admin' || d.role === 'staff') headers.cookie = sessions[d.role].cookie;
  if (d.role === 'bench') headers.authorization = `Bearer ${benchKey}`;
  if (d.origin === 'same') headers.origin = ORIGIN;
  if (d.origin === 'cross') headers.origin = 'https://evil.example';
  if (d.body?.contentType) headers['content-type'] = d.body.contentType;
  const options: InjectOptions = {
    method: op.method as InjectOptions['method'],
    url: d.query ? `${d.path}?${d.query}` : d.path,
    headers,
    remoteAddress: randomIp(),
    ...(d.body ? { payload: d.body.payload } : {}),
  };
  return t.app.inject(options);
}

/** Fresh sessions (and bench key) for any the last request ended: signed out, disabled, demoted, deleted. */
async function keepSignedIn(): Promise<void> {
  for (const role of ['admin', 'staff'] as const) {
    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: { cookie: sessions[role].cookie } });
    if (me.statusCode !== 200 || me.json().data?.role !== role) await newSession(role);
  }
  const bench = await t.app.inject({
    method: 'POST',
    url: '/api/v1/machine-data',
    headers: { authorization: `Bearer ${benchKey}` },
    payload: { records: [] },
  });
  if (bench.statusCode === 401) benchKey = (await createBench(t.app, sessions.admin.cookie)).key;
}

function describeRequest(op: Operation, d: Drawn): string {
  const body = d.body
    ? `${d.body.contentType ?? '(no type)'} ${String(d.body.payload).slice(0, 200)}${String(d.body.payload).length > 200 ? `… (${d.body.payload.length} chars)` : ''}`
    : '(no body)';
  return `${op.method} ${d.path}${d.query ? `?${d.query.slice(0, 200)}` : ''} as ${d.role}, origin ${d.origin}, body ${body}`;
}

beforeAll(async () => {
  t = await buildTestApp();
  await newSession('admin');
  await newSession('staff');
  // Something to find: a product and a range with test data (a bench and its records), a recorded search.
  const cat = await catalogue(t);
  await testData(t, cat.serial(1));
  benchKey = (await createBench(t.app, sessions.admin.cookie)).key;
  await t.app.inject({ method: 'POST', url: '/api/v1/public/lookup', payload: { serial: cat.serial(2) }, remoteAddress: randomIp() });
  await refreshKnown();
  const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<
      string,
      Record<string, { parameters?: Operation['parameters']; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, o]) => ({
        method: m.toUpperCase(),
        path: p,
        parameters: o.parameters ?? [],
        jsonBody: o.requestBody?.content?.['application/json']?.schema,
      })),
  );
  console.log(
    `fuzz-openapi: seed ${SEED} (FUZZ_SEED=${SEED} to reproduce), ${RUNS} requests per operation, ${operations.length} operations`,
  );
}, 180_000);
afterAll(() => t?.close());

describe('OpenAPI fuzz', () => {
  it('walks the operations of the document', () => {
    const keys = operations.map((o) => `${o.method} ${o.path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/v1/public/lookup',
        'POST /api/v1/machine-data',
        'PATCH /api/v1/staff/{id}',
        'POST /api/v1/auth/logout',
      ]),
    );
    expect(operations.length).toBeGreaterThan(50);
  });

  it('refuses a malformed multipart body with 400 on every upload route (they were 500s)', async () => {
    const uploads = operations.filter(
      (o) => ['POST', 'PUT'].includes(o.method) && /import|logo|certificate$/.test(o.path) && !o.path.includes('{'),
    );
    expect(uploads.length).toBeGreaterThanOrEqual(4);
    const wrong: string[] = [];
    for (const op of uploads) {
      for (const [contentType, payload] of [
        ...MULTIPART_TYPES.map((ct) => [ct, 'false']),
        ['multipart/form-data; boundary=x', TRUNCATED_PART],
        ['multipart/form-data', ''],
      ]) {
        const res = await t.app.inject({
          method: op.method as 'POST',
          url: op.path,
          headers: { cookie: sessions.admin.cookie, origin: ORIGIN, 'content-type': contentType! },
          payload,
        });
        if (res.statusCode !== 400 && res.statusCode !== 415)
          wrong.push(`${op.method} ${op.path} ${contentType} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        else if (
          res.statusCode === 400 &&
          contentType!.startsWith('multipart/form-data') &&
          res.json().error.key !== 'errors.malformedUpload'
        )
          wrong.push(`${op.method} ${op.path} ${contentType} → ${res.json().error.key}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers every drawn request without a 5xx, and stores nothing from a refused one', async () => {
    const problems: string[] = [];
    const perOperation = BUDGET_MS / operations.length;
    const statuses = new Map<number, number>();
    let sent = 0;
    const templated: string[] = [];
    for (const [i, op] of operations.entries()) {
      await refreshKnown();
      const template = await templateFor(op);
      if (template) templated.push(`${op.method} ${op.path}`);
      const drawn = fc.sample(requestFor(op, template), { seed: SEED + i, numRuns: RUNS });
      const started = performance.now();
      for (const d of drawn) {
        if (performance.now() - started > perOperation) break;
        const before = await counts();
        let res: LightMyRequestResponse;
        try {
          res = await inject(op, d);
        } catch (err) {
          problems.push(`${describeRequest(op, d)} → threw ${(err as Error).message}`);
          continue;
        }
        await t.app.ctx.afterResponse.idle();
        sent++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        // A full report pool answers 503 with Retry-After (docs/decisions/0020): the answer asked of a busy
        // server, not a fault; every other 5xx is one.
        const busy = res.statusCode === 503 && res.headers['retry-after'] !== undefined;
        if (res.statusCode >= 500 && !busy) problems.push(`${describeRequest(op, d)} → ${res.statusCode} ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400 && res.statusCode < 500) {
          const after = await counts();
          const moved = MAIN_TABLES.filter((n) => before[n] !== after[n]).map((n) => `${n} ${before[n]}→${after[n]}`);
          if (moved.length) problems.push(`${describeRequest(op, d)} → ${res.statusCode} but stored: ${moved.join(', ')}`);
        }
        if (op.method !== 'GET') await keepSignedIn();
      }
      const alive = await t.app.inject({ url: '/healthz' });
      if (alive.statusCode !== 200) problems.push(`after ${op.method} ${op.path}: /healthz ${alive.statusCode}`);
    }
    console.log(`fuzz-openapi: near-valid writes from an existing record for ${templated.length} operations (${templated.join(', ')})`);
    console.log(
      `fuzz-openapi: ${sent} requests, statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    // Every problem in the log too: a CI log keeps what an assertion message cuts short.
    for (const p of problems) console.log(`fuzz-openapi problem: ${p}`);
    expect(sent).toBeGreaterThan(operations.length);
    // The first problems in the assertion's own line, so that a CI log cut short still says what failed.
    expect(problems, `seed ${SEED}: ${problems.length} problems; first: ${problems.slice(0, 2).join(' | ').slice(0, 600)}`).toEqual([]);
  }, 240_000);
});
