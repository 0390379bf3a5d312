import fs from 'node:fs';
import { benchModel } from '../bench/lib/report-fixture';
import * as r from '../src/server/modules/reports/pdf/render-pdf';
for (const lang of ['en', 'zh'] as const) {
  const m = benchModel(lang);
  const fn = (r as any).renderReportPdf ?? (r as any).renderPdf;
  const bytes = await fn(m, {});
  fs.writeFileSync(`/tmp/fixture-${lang}.pdf`, bytes);
}
