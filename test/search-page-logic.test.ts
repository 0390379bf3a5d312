/**
 * The public page's own logic, which runs in the browser without zod (decision 0006): the serial list
 * splits and limits as the report request does, the proof-of-work solver answers the server's ALTCHA
 * challenges, and a file's SHA-256 is the one the server stores. No database: plain functions.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SERIALS_PER_REQUEST, splitSerials as contractSplit } from '../src/shared/contract/public';
import { catalogues, translate as sharedTranslate } from '../src/shared/i18n/index';
import { findNumber, solveChallenge } from '../src/web/features/public/lib/proof-of-work';
import { MAX_SERIALS, parseSerialList, splitSerials } from '../src/web/features/public/lib/serial-list';
import { sha256Hex } from '../src/web/features/public/lib/sha256';

describe('serial list', () => {
  it('has the report request limit', () => {
    expect(MAX_SERIALS).toBe(MAX_SERIALS_PER_REQUEST);
  });

  it('splits exactly as the report request does', () => {
    const pieces = fc.constantFrom('VB2311-000123', ' vb2311-000124 ', '\n', '\r\n', ',', ';', '，', '；', ' ', 'abc', '00012', '、');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(splitSerials(text)).toEqual(contractSplit(text));
      }),
    );
  });

  it('normalises, drops repeats, keeps what is no serial apart, and counts distinct entries', () => {
    const list = parseSerialList(' vb2311-000123\nVB2311-000123 , vb 2311-000124;not a serial!\n\n');
    expect(list.serials).toEqual(['VB2311-000123', 'VB2311-000124']);
    expect(list.invalid).toEqual(['NOTASERIAL!']);
    expect(list.tooMany).toBe(false);
    const many = Array.from({ length: 21 }, (_, i) => `VB-${i + 1}`).join(',');
    expect(parseSerialList(many).tooMany).toBe(true);
    expect(parseSerialList(`${many},VB-1`).serials).toHaveLength(21);
    expect(parseSerialList(Array.from({ length: 20 }, (_, i) => `VB-${i + 1}`).join('\n')).tooMany).toBe(false);
  });
});

describe('proof-of-work', () => {
  const hmacKey = 'test-key';

  it('answers a challenge that altcha-lib verifies', async () => {
    const challenge = await createChallenge({ algorithm: 'SHA-256', hmacKey, maxnumber: 2000 });
    const payload = await solveChallenge(challenge);
    expect(payload).not.toBeNull();
    const decoded = JSON.parse(atob(payload!)) as { number: number; salt: string; signature: string };
    expect(decoded.salt).toBe(challenge.salt);
    expect(await verifySolution(payload!, hmacKey, false)).toBe(true);
  });

  it('finds nothing past maxnumber and stops when aborted', async () => {
    const challenge = await createChallenge({ algorithm: 'SHA-256', hmacKey, maxnumber: 2000, number: 1500 });
    expect(await findNumber({ ...challenge, maxnumber: 1000 })).toBeNull();
    const controller = new AbortController();
    controller.abort();
    expect(await solveChallenge(challenge, controller.signal)).toBeNull();
    expect(await findNumber(challenge)).toBe(1500);
  });
});

describe('file hash', () => {
  it('is the SHA-256 the server computes, in lower-case hex', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 a report');
    expect(await sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe("the public page's own translator", () => {
  it('fills {{name}}, picks _one/_other by count, falls back to English, then defaultValue, then the key', async () => {
    const { addStrings, translate } = await import('../src/web/features/public/lib/public-i18n');
    expect(translate('en', 'search.lookup.hint', { max: 20 })).toBe(sharedTranslate('en', 'search.lookup.hint', { max: 20 }));
    expect(translate('en', 'search.outcome.emailed', { count: 1, email: 'a@b.c' })).toBe(
      sharedTranslate('en', 'search.outcome.emailed_one', { email: 'a@b.c' }),
    );
    expect(translate('en', 'search.outcome.emailed', { count: 3, email: 'a@b.c' })).toBe(
      sharedTranslate('en', 'search.outcome.emailed_other', { count: 3, email: 'a@b.c' }),
    );
    expect(translate('en', 'errors.noSuchKey', { defaultValue: 'As the server said' })).toBe('As the server said');
    expect(translate('en', 'search.noSuchKey')).toBe('search.noSuchKey');
    // Chinese before its strings are here reads English; afterwards Chinese (one plural form: _other).
    addStrings('zh', { search: { only: 'zh {{x}}' } });
    expect(translate('zh', 'search.lookup.title')).toBe(sharedTranslate('en', 'search.lookup.title'));
    expect(translate('zh', 'search.only', { x: 1 })).toBe('zh 1');
    addStrings('zh', catalogues.zh as Parameters<typeof addStrings>[1]);
    expect(translate('zh', 'search.lookup.title')).toBe(sharedTranslate('zh', 'search.lookup.title'));
    expect(translate('zh', 'search.outcome.emailed', { count: 1, email: 'a@b.c' })).toBe(
      sharedTranslate('zh', 'search.outcome.emailed_other', { count: 1, email: 'a@b.c' }),
    );
  });

  it("has every key the first screen's code asks for, in both languages", async () => {
    const { PUBLIC_NAMESPACES } = await import('../src/web/features/public/lib/public-i18n');
    const dir = path.join(__dirname, '../src/web/features/public');
    const files = ['pages/search-page.tsx', ...fs.readdirSync(path.join(dir, 'components')).map((f) => `components/${f}`)];
    const keys = new Set<string>();
    for (const file of files) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      // Only the plain first screen uses useT; the MUI parts (react-i18next) read the same strings.
      for (const m of source.matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) keys.add(m[1]!);
    }
    expect(keys.size).toBeGreaterThan(20);
    for (const key of keys) {
      expect(PUBLIC_NAMESPACES as readonly string[], key).toContain(key.split('.')[0]);
      for (const language of ['en', 'zh'] as const) expect(hasKeyIn(catalogues[language], key), `${language} ${key}`).toBe(true);
    }
  });
});

function hasKeyIn(tree: unknown, key: string): boolean {
  let node = tree;
  for (const part of key.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  // a plural is key_other (and key_one in English)
  return typeof node === 'string' || (!key.endsWith('_other') && hasKeyIn(tree, `${key}_other`));
}
