/**
 * A proof-of-work challenge from the API, solved with node's synchronous SHA-256: the same work the public
 * page does in the browser (ALTCHA v1: SHA-256(salt + n) = challenge, n ≤ maxnumber), in ~25 ms instead of
 * the ~1 s altcha-lib's solver takes awaiting Web Crypto per number. For tests that need many requests.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { randomIp } from './factories';

export async function solvedChallengeFast(app: FastifyInstance, ip = randomIp()): Promise<string> {
  const res = await app.inject({ url: '/api/v1/public/challenge', remoteAddress: ip });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  const c = res.json().data as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  for (let n = 0; n <= c.maxnumber; n++) {
    if (
      createHash('sha256')
        .update(c.salt + n)
        .digest('hex') === c.challenge
    ) {
      return Buffer.from(
        JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature }),
      ).toString('base64');
    }
  }
  throw new Error('challenge not solved');
}
