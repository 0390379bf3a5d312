/**
 * The certificate of a unit with four tests and no pressure–time charts is compact: its first page carries
 * the order, the materials with their heats and every test's judgement, and the whole fits two A4 pages (it
 * took four when each test had its own block), in English and in Chinese, with each test's instrument and
 * conditions and the inspector's validation.
 */
import { describe, expect, it } from 'vitest';
import { renderReportPdf } from '../src/server/modules/reports/pdf/render-pdf';
import type { ReportModel } from '../src/server/modules/reports/report-model';
import { benchModel } from '../bench/lib/report-fixture';
import { poppler, tmpFile } from './helpers/reports';

function fourTests(language: 'en' | 'zh'): ReportModel {
  const m = benchModel(language);
  const tests = (['shell', 'seat', 'backseat', 'air-seat'] as const).map((testType) => {
    const base = m.tests.find((x) => x.testType === testType) ?? {
      ...m.tests[1]!,
      testType,
      recordId: `R-${testType}`,
      medium: 'air' as const,
    };
    return { ...base, samples: [], checks: null };
  });
  return {
    ...m,
    documentType: 'inspection-certificate-3.1',
    inspectorName: language === 'zh' ? '林美華' : 'Mei-Hua Lin',
    release: {
      title: language === 'zh' ? '品保經理' : 'QA Manager',
      releasedAt: new Date('2026-03-03T09:00:00Z'),
      statement:
        language === 'zh'
          ? '授權檢驗代表獨立於製造部門，符合 EN 10204 對 3.1 檢驗證明書的要求。'
          : 'The authorised inspection representative is independent of the manufacturing department, as EN 10204 requires of a 3.1 inspection certificate.',
    },
    tests,
  };
}

describe('a certificate of four tests without charts', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`puts the order, heats and judgements on its first page in ${language}`, async () => {
      const file = tmpFile(await renderReportPdf(fourTests(language)), `four-${language}.pdf`);
      const pages = Number(/^Pages:\s+(\d+)$/m.exec(poppler('pdfinfo', [file]))?.[1]);
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(2);
      const first = poppler('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-']);
      for (const s of ['PO-2026-0412', 'W24-1187', 'S24-0402']) expect(first).toContain(s);
      const conforms = language === 'zh' ? '符合' : 'Conforms';
      expect(first.split(conforms).length - 1).toBeGreaterThanOrEqual(4);
      // The rest of what a 3.1 delivery certificate prints: the instrument and the inspector's validation.
      const all = poppler('pdftotext', ['-layout', file, '-']);
      for (const s of ['PG-01', 'CAL-2026-017', language === 'zh' ? '林美華' : 'Mei-Hua Lin']) expect(all).toContain(s);
    });
  }
});
