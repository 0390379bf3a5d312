/**
 * The certificate of a unit with four tests and no pressure–time charts is compact: one A4 page (it took four
 * when each test had its own block) carries the order, the materials with their heats, every test's judgement
 * with its instrument and conditions, the inspector's validation and the verification, in English and in
 * Chinese.
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
    it(`is one page with the order, heats, judgements, validation and verification in ${language}`, async () => {
      const file = tmpFile(await renderReportPdf(fourTests(language)), `four-${language}.pdf`);
      const pages = Number(/^Pages:\s+(\d+)$/m.exec(poppler('pdfinfo', [file]))?.[1]);
      expect(pages).toBe(1);
      const page = poppler('pdftotext', ['-layout', file, '-']);
      for (const s of ['PO-2026-0412', 'W24-1187', 'S24-0402', 'PG-01', 'CAL-2026-017']) expect(page).toContain(s);
      const conforms = language === 'zh' ? '符合' : 'Conforms';
      expect(page.split(conforms).length - 1).toBeGreaterThanOrEqual(4);
      // The inspector's validation, the release and its statement run on as sentences, and the verification.
      const raw = poppler('pdftotext', ['-raw', file, '-']).replace(/\s/g, '');
      const expected =
        language === 'zh'
          ? [
              '經授權檢驗代表確認：林美華，品保經理',
              '09:00UTC放行簽發檢驗證明書。授權檢驗代表獨立於製造部門',
              'https://reports.example.com/search?report=',
            ]
          : [
              'Mei-Hua Lin, QA Manager',
              '09:00 UTC. The authorised inspection representative is independent',
              'https://reports.example.com/search?report=',
            ];
      for (const s of expected) expect(raw).toContain(s.replace(/\s/g, ''));
    });
  }
});
