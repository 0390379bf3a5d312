import fs from 'node:fs';
import { benchModel } from '../bench/lib/report-fixture';
import { renderReportPdf } from '../src/server/modules/reports/pdf/render-pdf';
for (const lang of ['en', 'zh'] as const) {
  const m = benchModel(lang);
  const bytes = await renderReportPdf({ ...m, documentType: 'inspection-certificate-3.1', inspectorName: 'Lin Mei-Hua',
    release: { title: lang === 'zh' ? '品保經理' : 'QA Manager', releasedAt: new Date('2026-03-04T09:12:00Z'), statement: lang === 'zh' ? '授權檢驗代表獨立於製造部門。' : 'The authorised inspection representative is independent of the manufacturing department.' } }, {});
  fs.writeFileSync(`/tmp/r31-${lang}.pdf`, bytes);
}
