/**
 * The benchmark's peer: the same report as HTML (same texts, tables, SVG chart from the shared chart
 * module, SVG QR code, Noto Sans TC from the same TTF), for headless Chromium to print to PDF.
 */
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { buildChart } from '../../src/shared/chart/index';
import { formatReportCode } from '../../src/shared/contract/reports';
import { docKey, formatDate, formatDateTime, formatDay, formatNumber, mpa, seconds, t } from '../../src/server/modules/reports/format';
import type { ReportModel, ReportTest } from '../../src/server/modules/reports/report-model';
import { orderRows } from '../../src/server/modules/reports/format-order';

const require = createRequire(import.meta.url);
const FONT = require.resolve('@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf');
const BOLD = require.resolve('@expo-google-fonts/noto-sans-tc/700Bold/NotoSansTC_700Bold.ttf');

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const rows = (r: Array<[string, string]>) =>
  `<table>${r.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;

function chartSvg(x: ReportTest): string {
  const c = buildChart(
    { samples: x.samples, testPressure: x.testPressure, holdingSeconds: x.holdingSeconds },
    { x: 0, y: 0, width: 250, height: 170 },
    { fontSize: 7, labels: { x: 'Time (s)', y: 'Pressure (MPa)' } },
  );
  const line = (l: { x1: number; y1: number; x2: number; y2: number }, stroke: string) =>
    `<line x1="${l.x1}" y1="${l.y1}" x2="${l.x2}" y2="${l.y2}" stroke="${stroke}" stroke-width="0.5"/>`;
  return `<svg viewBox="0 0 250 170" width="250pt" height="170pt" role="img">${c.hold ? `<rect x="${c.hold.x}" y="${c.hold.y}" width="${c.hold.width}" height="${c.hold.height}" fill="#e3f2fd"/>` : ''}${c.grid.map((g) => line(g, '#d0d0d0')).join('')}${line(c.xAxis.line, '#555')}${line(c.yAxis.line, '#555')}${c.reference ? line(c.reference, '#c62828') : ''}<polyline fill="none" stroke="#1565c0" stroke-width="0.8" points="${c.curve.map((p) => p.join(',')).join(' ')}"/>${c.texts.map((tx) => `<text x="${tx.x}" y="${tx.y}" font-size="7" text-anchor="${tx.anchor}">${esc(tx.text)}</text>`).join('')}</svg>`;
}

export async function reportHtml(m: ReportModel): Promise<string> {
  const lang = m.language;
  const qr = await QRCode.toString(m.verifyUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const p = m.product;
  const tests = m.tests
    .map((x) => {
      const r: Array<[string, string]> = [
        [t(lang, 'field.medium'), t(lang, `medium.${x.medium}`)],
        [t(lang, 'field.testPressure'), mpa(lang, x.testPressure)],
        [t(lang, 'field.holding'), seconds(lang, x.holdingSeconds)],
        [
          t(lang, 'field.leakage'),
          x.leakageValue === null ? t(lang, 'value.noLeakage') : `${formatNumber(lang, x.leakageValue, 4)} ${x.leakageUnit ?? ''}`,
        ],
        [t(lang, 'field.result'), t(lang, `result.${x.result}`)],
        [t(lang, 'field.testedAt'), formatDateTime(lang, x.testedAt)],
        [t(lang, 'field.bench'), x.bench ?? ''],
        [t(lang, 'field.operator'), x.operator],
        [t(lang, 'field.retests'), x.earlierTests > 0 ? t(lang, 'value.retests', { count: x.earlierTests }) : t(lang, 'value.noRetests')],
        [t(lang, 'field.peak'), x.checks ? mpa(lang, x.checks.peak) : ''],
        [t(lang, 'field.held'), x.checks ? seconds(lang, x.checks.heldSeconds) : ''],
        [t(lang, 'field.drop'), x.checks?.drop != null ? mpa(lang, x.checks.drop) : ''],
      ];
      return `<section class="test"><h3>${esc(t(lang, `test.${x.testType}`))} — ${esc(t(lang, `result.${x.result}`))}</h3><div class="row">${rows(r)}${chartSvg(x)}</div></section>`;
    })
    .join('');
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-Hant-TW' : 'en-GB'}"><head><meta charset="utf-8"><title>${esc(m.number)}</title><style>
@font-face { font-family: NotoTC; src: url('file://${FONT}'); font-weight: 400; }
@font-face { font-family: NotoTC; src: url('file://${BOLD}'); font-weight: 700; }
@page { size: A4; margin: 40pt 42pt 58pt; }
body { font-family: NotoTC; font-size: 9pt; color: #1a1a1a; }
table { border-collapse: collapse; width: 100%; } th, td { border: 0.5pt solid #b0b7c3; padding: 3pt 4pt; text-align: left; vertical-align: top; }
th { color: #555; font-size: 8.5pt; width: 40%; } h1 { font-size: 18pt; } h2 { font-size: 12pt; } h3 { font-size: 10.5pt; color: #1b5e20; }
.row { display: flex; gap: 12pt; } .row table { width: 262pt; } .facts { display: flex; gap: 16pt; } .facts svg { width: 92pt; height: 92pt; }
.test { break-inside: avoid; }
</style></head><body>
<header><strong style="font-size:13pt">${esc(m.company.name)}</strong><div>${esc(m.company.address)}</div></header><hr>
<h1>${esc(t(lang, `title.${docKey(m.documentType)}`))}</h1><p>${esc(t(lang, `documentType.${docKey(m.documentType)}`))}</p>
<div class="facts">${rows([
    [t(lang, 'field.number'), m.number],
    [t(lang, 'field.serial'), m.serial],
    [t(lang, 'field.product'), p.name],
    [t(lang, 'field.testStandard'), m.standard ? `${m.standard.name}, ${m.standard.edition}` : t(lang, 'value.none')],
    [t(lang, 'field.productionDate'), formatDay(lang, m.productionDate)],
    [t(lang, 'field.range'), `${m.range.start} – ${m.range.end}`],
    [t(lang, 'field.issuedAt'), formatDate(lang, m.issuedAt)],
    [t(lang, 'field.code'), formatReportCode(m.code)],
  ])}${qr}</div>
${m.order ? `<h2>${esc(t(lang, 'heading.order'))}</h2>${rows(orderRows(lang, m.order))}` : ''}
<h2>${esc(t(lang, 'heading.ratings'))}</h2>${rows([
    [t(lang, 'field.fluid'), t(lang, `fluid.${p.fluid}`)],
    [t(lang, 'field.connection'), p.connection],
    [t(lang, 'field.pressureFc'), mpa(lang, p.pressureFc)],
    [t(lang, 'field.pressureWcb'), mpa(lang, p.pressureWcb)],
    [t(lang, 'field.temperature'), t(lang, 'value.celsius', { min: p.temperatureMin, max: p.temperatureMax })],
  ])}
<h2>${esc(t(lang, 'heading.results'))}</h2>${tests}
<h2>${esc(t(lang, 'heading.statement'))}</h2><p>${esc(m.statement)}</p>
<h2>${esc(t(lang, 'heading.verify'))}</h2><p>${esc(t(lang, 'verifyText', { url: m.verifyPage }))}</p>
</body></html>`;
}

/** Chromium's footer, as the PDF's "Page N of M". */
export function footerTemplate(m: ReportModel): string {
  return `<div style="font-size:7.5pt;width:100%;padding:0 42pt;display:flex;justify-content:space-between;font-family:NotoTC"><span>${esc(m.footer)} · ${esc(m.number)}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;
}
