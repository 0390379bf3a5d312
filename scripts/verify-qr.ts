/**
 * `npm run verify-qr -- <image, PDF, link or proof> [--keys <jwks.json file or URL>] [--offline]`: checks a
 * certificate's QR code as the offline verifier does (src/shared/offline-proof.ts; docs/integration.md).
 * A PNG or JPEG photo, or a PDF (page 1, through poppler's pdftoppm), is read with jsQR; a text is taken as
 * the code's content. The keys are the JWKS named by --keys, else the one published where the link points.
 * Online (without --offline) it also asks the server whether a newer certificate supersedes this one.
 *
 * Exit status: 0 genuine, 1 not genuine or no proof, 2 the input or the keys could not be read.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { checkProof, JWKS_PATH, proofKeysOf, splitQrText, type ProofCheck } from '../src/shared/offline-proof';
import verifier from '../src/shared/i18n/en/verifier.json';

class UsageError extends Error {}

function pixelsOf(file: string): { data: Uint8ClampedArray; width: number; height: number } {
  const ext = path.extname(file).toLowerCase();
  let image: { data: Uint8Array; width: number; height: number };
  if (ext === '.pdf') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-qr-'));
    try {
      execFileSync('pdftoppm', ['-r', '150', '-png', '-f', '1', '-l', '1', '-singlefile', file, path.join(dir, 'page')], {
        stdio: 'ignore',
      });
    } catch {
      throw new UsageError('Reading a PDF needs poppler-utils (pdftoppm); give a photo of the code instead.');
    }
    image = PNG.sync.read(fs.readFileSync(path.join(dir, 'page.png')));
    fs.rmSync(dir, { recursive: true, force: true });
  } else if (ext === '.png') image = PNG.sync.read(fs.readFileSync(file));
  else if (ext === '.jpg' || ext === '.jpeg') image = jpeg.decode(fs.readFileSync(file), { useTArray: true, formatAsRGBA: true });
  else throw new UsageError(`Not an image this reads (PNG, JPEG or PDF): ${file}`);
  return {
    data: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    width: image.width,
    height: image.height,
  };
}

function codeText(input: string): string {
  if (!fs.existsSync(input)) return input;
  const { data, width, height } = pixelsOf(input);
  const code = jsQR(data, width, height);
  if (!code) throw new UsageError(`No QR code found in ${input}.`);
  return code.data;
}

/**
 * The keys: --keys, else those published where the code's link points, said as such (a forged code could
 * point at a forger's keys; --keys with the manufacturer's address is the check to rely on).
 */
async function readKeys(keysArg: string | undefined, link: string | null): Promise<unknown> {
  const source = keysArg ?? (link ? new URL(JWKS_PATH, link).href : undefined);
  if (!source) throw new UsageError('No link in the code to find the keys at: give --keys <jwks.json file or URL>.');
  if (!keysArg)
    console.log(`Keys from ${source}, where the code points: rely on it only if that is the manufacturer's address (else --keys).`);
  try {
    if (/^https?:\/\//.test(source)) {
      const res = await fetch(source, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return await res.json();
    }
    return JSON.parse(fs.readFileSync(source, 'utf8'));
  } catch (err) {
    throw new UsageError(`Could not read the keys from ${source}: ${(err as Error).message}`);
  }
}

/** What the server says now of the certificate the link names (null: not asked, or not reachable). */
async function onlineState(link: string, number: string | null): Promise<string | null> {
  const url = new URL(link);
  const id = url.searchParams.get('report');
  if (!id) return null;
  try {
    const res = await fetch(new URL(`/api/v1/public/reports/${encodeURIComponent(id)}`, url), { signal: AbortSignal.timeout(10_000) });
    if (res.status === 404) return 'The server does not know this certificate.';
    if (!res.ok) return null;
    const { data } = (await res.json()) as { data: { number: string; supersededBy: { number: string; issuedAt: string } | null } };
    // The link is not signed: a genuine proof could be paired with another report's link.
    if (number && data.number !== number) return `The link names another report (${data.number}): this code was put together from two.`;
    return data.supersededBy
      ? `Superseded by certificate ${data.supersededBy.number} of ${data.supersededBy.issuedAt.slice(0, 10)}.`
      : 'The server confirms it is the current certificate.';
  } catch {
    return null;
  }
}

function describe(check: ProofCheck): string[] {
  if (check.status === 'genuine') {
    const c = check.claims;
    return [
      'Genuine: signed by the manufacturer.',
      `  certificate ${c.n}`,
      `  serial      ${c.s}`,
      `  issued      ${c.d}`,
      `  result      ${c.r}`,
      `  data SHA-256 (base64url) ${c.h}`,
      `  key         ${check.kid}`,
    ];
  }
  if (check.status === 'no-proof') return ['No proof in this code: it carries a link only. Open it to verify online.'];
  // The reasons in the words the offline verifier page uses (one catalogue for both).
  return [`${verifier.notGenuine}: ${verifier.reason[check.reason]}`];
}

async function main(argv: string[]): Promise<number> {
  const offline = argv.includes('--offline');
  const keysAt = argv.indexOf('--keys');
  const keysArg = keysAt >= 0 ? argv[keysAt + 1] : undefined;
  const input = argv.find((a, i) => !a.startsWith('--') && !(keysAt >= 0 && i === keysAt + 1));
  if (!input) throw new UsageError('Usage: npm run verify-qr -- <image, PDF, link or proof> [--keys <jwks.json file or URL>] [--offline]');
  const text = codeText(input);
  const { link } = splitQrText(text);
  const check = await checkProof(text, proofKeysOf(await readKeys(keysArg, link)));
  const lines = describe(check);
  if (link) lines.push(`Link: ${link}`);
  if (link && !offline) {
    const number = check.status === 'genuine' ? check.claims.n : null;
    lines.push((await onlineState(link, number)) ?? 'Not checked online (the server did not answer).');
  }
  if (offline) lines.push('Checked offline: a certificate issued since, superseding this one, cannot be known here.');
  console.log(lines.join('\n'));
  return check.status === 'genuine' ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof UsageError ? err.message : err);
    process.exit(2);
  },
);
