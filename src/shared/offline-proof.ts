/**
 * A certificate's offline proof (docs/decisions/0063-offline-verification.md): its QR code carries the
 * verification link and, after `#`, a compact JWS (RFC 7515) signed with Ed25519 ("EdDSA", RFC 8037). The
 * claims are the facts an inspector compares with the paper; the keys are published as a JWKS at
 * `/.well-known/jwks.json`. The fragment never reaches a server, so the link works as before when opened.
 *
 * Checked with WebCrypto only, so the same code runs in the offline verifier page, in Node (the server's
 * tests, `npm run verify-qr`) and in any integrator's JavaScript.
 */

export const JWKS_PATH = '/.well-known/jwks.json';

/** What a certificate states, in short names to keep the code readable at its printed size. */
export interface ProofClaims {
  /** certificate number */
  n: string;
  /** serial number */
  s: string;
  /** date of issue, YYYY-MM-DD (UTC) */
  d: string;
  /** the result: `pass` when every test printed passed (judged by the standard where one applies) */
  r: 'pass' | 'fail';
  /** SHA-256 of the certificate's embedded data file (its EN 10168 JSON), base64url */
  h: string;
}

export interface ProofKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export type NotGenuineReason = 'malformed' | 'unknown-key' | 'bad-signature' | 'bad-claims';

export type ProofCheck =
  | { status: 'genuine'; claims: ProofClaims; kid: string; link: string | null }
  | { status: 'not-genuine'; reason: NotGenuineReason; link: string | null }
  /** a code with a link and no proof: a certificate issued before proofs, or another code */
  | { status: 'no-proof'; link: string | null };

const B64URL = /^[A-Za-z0-9_-]+$/;
const RESULTS = ['pass', 'fail'] as const;
/** A QR code holds under 3 KB; anything longer is not one of ours. */
const MAX_TEXT = 4096;

export function base64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The header every proof carries: `alg` first, as RFC 7515's examples, and the key's id. */
export function proofHeader(kid: string): string {
  return base64url(new TextEncoder().encode(JSON.stringify({ alg: 'EdDSA', kid })));
}

export function proofClaimsPart(claims: ProofClaims): string {
  const ordered: ProofClaims = { n: claims.n, s: claims.s, d: claims.d, r: claims.r, h: claims.h };
  return base64url(new TextEncoder().encode(JSON.stringify(ordered)));
}

/** What the QR code encodes: the link, then the proof after `#`. */
export function proofQrText(verifyUrl: string, jws: string): string {
  return `${verifyUrl}#${jws}`;
}

/** The link and the proof of a scanned text: `<link>#<jws>`, a bare link, or a bare JWS. */
export function splitQrText(text: string): { link: string | null; jws: string | null } {
  const t = text.trim();
  const hash = t.indexOf('#');
  const head = hash < 0 ? t : t.slice(0, hash);
  const tail = hash < 0 ? '' : t.slice(hash + 1);
  const isLink = /^https?:\/\//i.test(head);
  if (isLink) return { link: head, jws: tail || null };
  return { link: null, jws: t || null };
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}

function claimsOf(value: unknown): ProofClaims | null {
  if (!value || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  const text = (k: string, max: number) => typeof c[k] === 'string' && (c[k] as string).length > 0 && (c[k] as string).length <= max;
  if (!text('n', 64) || !text('s', 64) || !text('h', 64)) return null;
  if (typeof c.d !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(c.d)) return null;
  if (!RESULTS.includes(c.r as ProofClaims['r'])) return null;
  return { n: c.n as string, s: c.s as string, d: c.d, r: c.r as ProofClaims['r'], h: c.h as string };
}

/**
 * Checks a scanned text against `keys` (the published JWKS's). Never throws: anything that is not a proof
 * signed by one of the keys is `not-genuine` with the reason, a link alone is `no-proof`.
 */
export async function checkProof(
  text: string,
  keys: readonly ProofKey[],
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<ProofCheck> {
  if (text.length > MAX_TEXT) return { status: 'not-genuine', reason: 'malformed', link: null };
  const { link, jws } = splitQrText(text);
  if (!jws) return { status: 'no-proof', link };
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((p) => p.length > 0 && B64URL.test(p)))
    return { status: 'not-genuine', reason: 'malformed', link };
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  let header: unknown;
  let payload: unknown;
  let signature: Uint8Array;
  try {
    header = parseJson(fromBase64url(headerPart));
    payload = parseJson(fromBase64url(claimsPart));
    signature = fromBase64url(signaturePart);
  } catch {
    return { status: 'not-genuine', reason: 'malformed', link };
  }
  const h = header as { alg?: unknown; kid?: unknown; crit?: unknown } | null;
  // RFC 7515 §4.1.11: a header naming extensions we do not understand must be refused.
  if (!h || h.alg !== 'EdDSA' || typeof h.kid !== 'string' || h.crit !== undefined || signature.length !== 64)
    return { status: 'not-genuine', reason: 'malformed', link };
  const jwk = keys.find((k) => k.kid === h.kid);
  if (!jwk) return { status: 'not-genuine', reason: 'unknown-key', link };
  let valid = false;
  try {
    const key = await subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
    const signed = new TextEncoder().encode(`${headerPart}.${claimsPart}`);
    valid = await subtle.verify({ name: 'Ed25519' }, key, signature as BufferSource, signed);
  } catch {
    valid = false;
  }
  if (!valid) return { status: 'not-genuine', reason: 'bad-signature', link };
  const claims = claimsOf(payload);
  if (!claims) return { status: 'not-genuine', reason: 'bad-claims', link };
  return { status: 'genuine', claims, kid: h.kid, link };
}

/** The keys of a JWKS document, keeping only Ed25519 signing keys (anything else is ignored, not an error). */
export function proofKeysOf(jwks: unknown): ProofKey[] {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.filter(
    (k): k is ProofKey =>
      !!k && typeof k === 'object' && k.kty === 'OKP' && k.crv === 'Ed25519' && typeof k.x === 'string' && typeof k.kid === 'string',
  );
}
