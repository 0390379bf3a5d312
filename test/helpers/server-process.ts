/**
 * The real server as a child process (`tsx src/server/main.ts`), for what an in-process app cannot show:
 * being killed mid-request (test/import-kill.test.ts) and its own peak memory (the import benchmark).
 * PGlite under `dataDir`, or PostgreSQL at `databaseUrl`. The first administrator is registered over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** the server's log so far (stdout and stderr, the last 200 kB) */
  output(): string;
  /** signed-in administrator's cookie (`name=value`) */
  cookie: string;
  /** current and peak resident memory of the server process, MB (Linux /proc) */
  memory(): { rssMb: number; peakMb: number };
  /** forgets the peak so far (the next peak is of what follows) */
  resetPeak(): void;
  stop(): Promise<void>;
}

export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; raw?: boolean },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; raw?: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), ...(opts.raw ? { raw } : {}) });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The admin the harness registers, or signs in as on a database that has its users already. */
export const ADMIN = { name: 'Kill Test Admin', email: 'admin@example.com', password: 'Correct-Horse-Battery-9-Staple!' };

/** `appRoot`: another checkout to run (the benchmark's "before" figures); this one by default. */
/** `env`: further variables (REDIS_URL, SMTP_URL, LOG_LEVEL…); `port`: a fixed one (else a free one). */
export async function startServer(opts: {
  dataDir: string;
  databaseUrl?: string;
  appRoot?: string;
  env?: Record<string, string>;
  port?: number;
  /** node flags before the entry point (e.g. `npm start`'s `--max-semi-space-size=4`) */
  nodeFlags?: string[];
}): Promise<ServerProcess> {
  const appRoot = opts.appRoot ?? root;
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    PUBLIC_BASE_URL: url,
    LOG_LEVEL: 'warn',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'TRUST_PROXY']) delete env[name];
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  Object.assign(env, opts.env);
  // `node --import tsx`, not the tsx CLI: the CLI runs the server in a child of its own, whose pid and
  // memory would not be the ones seen here, and a SIGKILL to the CLI would leave the server running.
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), '--import', 'tsx', path.join(appRoot, 'src/server/main.ts')], {
    cwd: appRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let output = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-200_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // Generous: on a busy machine compiling the TypeScript and opening PGlite take a while.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const ok = await request(`${url}/healthz`, {}).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const headers = { 'content-type': 'application/json', origin: url };
  let res = await request(`${url}/api/v1/auth/register`, { method: 'POST', headers, body: JSON.stringify(ADMIN) });
  if (res.status !== 201) {
    res = await request(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
  }
  const setCookie = res.headers['set-cookie']?.[0];
  if (!setCookie) throw new Error(`could not sign in: ${res.status} ${res.body}`);

  const status = () => fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (text: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN);
  return {
    url,
    pid: child.pid!,
    child,
    output: () => output,
    cookie: setCookie.split(';')[0]!,
    memory: () => {
      const s = status();
      return { rssMb: kb(s, 'VmRSS') / 1024, peakMb: kb(s, 'VmHWM') / 1024 };
    },
    // Writing 5 to clear_refs resets the peak resident set size (VmHWM) of the process.
    resetPeak: () => fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Streams `file` to `url` as the `file` part of a multipart upload; `onSent` sees the bytes sent so far. */
export function uploadFile(
  url: string,
  cookie: string,
  file: string,
  onSent?: (bytes: number, total: number) => void,
): Promise<{ status: number; body: string }> {
  const boundary = '----trcupload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
          cookie,
          origin: target.origin,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const src = fs.createReadStream(file);
    src.on('data', (c) => {
      sent += c.length;
      onSent?.(sent, size);
    });
    src.on('end', () => req.end(tail));
    src.pipe(req, { end: false });
  });
}
