import fs from 'node:fs';
import { benchModel } from '../bench/lib/report-fixture';
import { renderReportPdf } from '../src/server/modules/reports/pdf/render-pdf';
for (const lang of ['en', 'zh'] as const) {
  const m = benchModel(lang);
  const tests = m.tests.map((t) => ({ ...t, samples: [], checks: null }));
  while (tests.length < 4) tests.push({ ...tests[0]!, testType: 'air-seat' as const });
  const bytes = await renderReportPdf({ ...m, tests }, {});
  fs.writeFileSync(`/tmp/onepage-${lang}.pdf`, bytes);
}
