/**
 * Chinese text put together in code takes full-width punctuation (src/shared/i18n/punctuation.ts): the
 * Chinese certificate's text, as pdftotext extracts it, has no ASCII comma, colon or semicolon after a
 * Chinese character nor before one; the Chinese report email lists serials with 、; the Chinese catalogues
 * hold none either, but for the CSV format they quote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueReport } from '../src/server/modules/reports/issue';
import { reportMail } from '../src/server/modules/public/report-mail';
import { renderEmail } from '../src/server/mail/layout';
import { colon, comma, enumerate, labelled, semicolon } from '../src/shared/i18n/punctuation';
import { buildTestApp, type TestApp } from './helpers/app';
import { curve, poppler, tmpFile, unitWithRecords, type Unit } from './helpers/reports';

/** An ASCII , : ; right after a Chinese character, or one followed by a space and a Chinese character. */
const HALF_WIDTH_IN_CHINESE = /\p{Script=Han}[,:;]|[,:;] ?\p{Script=Han}/u;
/** Catalogue texts that quote a format with an ASCII comma on purpose. */
const QUOTED_FORMATS = new Set(['orderScreens.entry.badLines']);

function offending(text: string): string[] {
  return text.split('\n').filter((line) => HALF_WIDTH_IN_CHINESE.test(line));
}

describe('the punctuation helper', () => {
  it('writes full-width marks in Chinese and ASCII ones with a space in English', () => {
    expect([comma('zh'), colon('zh'), semicolon('zh')]).toEqual(['，', '：', '；']);
    expect([comma('en'), colon('en'), semicolon('en')]).toEqual([', ', ': ', '; ']);
    expect(enumerate('zh', ['殼體', '閥座'])).toBe('殼體、閥座');
    expect(enumerate('en', ['Shell', 'Seat'])).toBe('Shell, Seat');
    expect(labelled('zh', '驗證碼', 'ABCD')).toBe('驗證碼：ABCD');
    expect(labelled('en', 'Code', 'ABCD')).toBe('Code: ABCD');
  });
});

describe('Chinese catalogues', () => {
  it('hold no ASCII comma, colon or semicolon between Chinese characters', () => {
    const dir = path.join(__dirname, '..', 'src', 'shared', 'i18n', 'zh');
    const found: string[] = [];
    const walk = (node: unknown, key: string) => {
      if (typeof node === 'string') {
        if (!QUOTED_FORMATS.has(key) && /\p{Script=Han}[,:;] ?\p{Script=Han}/u.test(node)) found.push(`${key}: ${node}`);
      } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) walk(v, key ? `${key}.${k}` : k);
      }
    };
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      walk(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), file.replace(/\.json$/, ''));
    }
    expect(found).toEqual([]);
  });
});

describe('screens', () => {
  it('join a translated label and its value through the helper, not with an ASCII colon', () => {
    // `${t('x')}: ${v}` or {t('x')}: {v} in a component would print "標籤: 值" on Chinese pages.
    const asciiAfterLabel = /\bt\('[\w.]+'(?:, \{[^}]*\})?\)\}?: [{$]/;
    const root = path.join(__dirname, '..', 'src', 'web');
    const found: string[] = [];
    for (const f of fs.readdirSync(root, { recursive: true }).map(String)) {
      if (!/\.tsx?$/.test(f)) continue;
      fs.readFileSync(path.join(root, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (asciiAfterLabel.test(line)) found.push(`src/web/${f}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

describe('Chinese emails', () => {
  it('list serials with 、 and label a link with ：', () => {
    const mail = reportMail(
      'a@example.com',
      'zh',
      [
        { serial: 'A-1', reportId: 'r1', filename: 'a.pdf' },
        { serial: 'A-2', reportId: 'r2', filename: 'b.pdf' },
      ],
      ['A-3', 'A-4'],
      'g',
    );
    expect(mail.text).toContain('A-1、A-2');
    expect(mail.text).toContain('A-3、A-4');
    expect(offending(mail.text)).toEqual([]);
    const { text } = renderEmail({
      language: 'zh',
      title: '重設密碼',
      paragraphs: ['請點選下方按鈕。'],
      action: { label: '重設密碼', url: 'https://x.test/r' },
    });
    expect(text).toContain('重設密碼：https://x.test/r');
  });
});

describe('the Chinese certificate', () => {
  let t: TestApp;
  let unit: Unit;

  beforeAll(async () => {
    t = await buildTestApp();
    unit = await unitWithRecords(
      t,
      [
        { recordId: 'SHELL-1', testType: 'shell', testPressure: 2.4, holdingSeconds: 60, samples: curve(2.4, 60) },
        // A failed seat test and its retest: the failed one is reported with its reasons.
        {
          recordId: 'SEAT-1',
          testType: 'seat',
          testPressure: 1.76,
          holdingSeconds: 30,
          result: 'fail',
          testedAt: '2024-05-01T09:00:00Z',
          samples: curve(1.76, 30),
        },
        {
          recordId: 'SEAT-2',
          testType: 'seat',
          testPressure: 1.76,
          holdingSeconds: 30,
          testedAt: '2024-05-01T10:00:00Z',
          leakageValue: 0,
          leakageUnit: 'mL/min',
          samples: curve(1.76, 30),
        },
      ],
      { testStandard: 'en-12266-1', valveType: 'ball', nominalSize: 50, seatType: 'soft', leakageRate: 'A', pressureWcb: '' },
    );
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  async function text(language: 'en' | 'zh'): Promise<string> {
    const r = await issueReport(t.app.ctx.db, { serial: unit.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    if (r.status !== 'issued') throw new Error(`expected issued, got ${r.status}`);
    return poppler('pdftotext', [tmpFile(r.report.bytes), '-']);
  }

  it('has no ASCII comma or colon between Chinese characters, the seat and its leakage rate joined with ，', async () => {
    const zh = await text('zh');
    expect(zh).toMatch(/軟密封[^\n]*，[^\n]*A/);
    expect(zh).toMatch(/：/);
    expect(offending(zh)).toEqual([]);
  });

  it('keeps the English marks in English', async () => {
    const en = await text('en');
    expect(en).toMatch(/Soft[^\n]*, [^\n]*A/i);
  });
});
