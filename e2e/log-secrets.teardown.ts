/**
 * After the whole e2e run: the server's log (DATA_DIR/server.log, written by e2e/serve-snapshot.mjs at
 * debug level, every request logged) must hold none of the run's passwords, no bench key (trc_live_…), and
 * no Cookie, Set-Cookie or Authorization header. Fails the run otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN } from './helpers';

export default async function logSecretsTeardown(): Promise<void> {
  const dir = process.env.E2E_DATA_DIR;
  const file = dir ? path.join(dir, 'server.log') : '';
  if (!file || !fs.existsSync(file)) return;
  const log = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  if (log.includes(ADMIN.password)) found.push("the administrator's password");
  if (/trc_live_[A-Za-z0-9_-]{8}/.test(log)) found.push('a bench key (trc_live_…)');
  if (/"(cookie|set-cookie|authorization)"\s*:/i.test(log)) found.push('a Cookie/Set-Cookie/Authorization header');
  if (/trc_session=[A-Za-z0-9_-]{8}/.test(log)) found.push('a session cookie value');
  if (found.length) throw new Error(`the e2e server log (${file}) contains ${found.join(', ')}`);
  const lines = log.split('\n').filter((l) => l.startsWith('{"level"'));
  const requests = lines.filter((l) => l.includes('"msg":"incoming request"'));
  if (requests.some((l) => !/"reqId":"[0-9a-f-]{36}"/.test(l))) throw new Error('an e2e request log line has no request id');
}
