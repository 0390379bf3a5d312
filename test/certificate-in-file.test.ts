// @engine-independent: renders a PDF and reads it back; no database.
/**
 * The verifier's reading of which certificate a dropped PDF names (src/web/features/public/lib/
 * certificate-in-file.ts), on a certificate as the server renders it: a copy changed outside its embedded
 * data still names it; one whose embedded data was damaged, or a PDF of someone else, names none.
 */
import { describe, expect, it } from 'vitest';
import { benchModel } from '../bench/lib/report-fixture';
import { renderReportPdf } from '../src/server/modules/reports/pdf/render-pdf';
import { certificateNamedIn } from '../src/web/features/public/lib/certificate-in-file';

const arrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

describe('the certificate a PDF names', () => {
  it('is read from the embedded data of the file as issued and of a copy changed elsewhere', async () => {
    const model = { ...benchModel('zh'), id: 'AbCdEfGhIjKlMnOpQrStUv' };
    const pdf = await renderReportPdf(model);
    expect(await certificateNamedIn(arrayBuffer(pdf))).toBe(model.id);
    const changed = Buffer.from(pdf);
    const at = changed.indexOf('/Producer');
    changed[at + 2] = 'X'.charCodeAt(0); // one byte of the document information changed
    expect(await certificateNamedIn(arrayBuffer(changed))).toBe(model.id);
    expect(await certificateNamedIn(arrayBuffer(Buffer.concat([pdf, Buffer.from('\n% appended\n')])))).toBe(model.id);
  });

  it('is none when the embedded data was damaged, or the PDF carries none', async () => {
    const pdf = await renderReportPdf({ ...benchModel('en'), id: 'AbCdEfGhIjKlMnOpQrStUv' });
    const damaged = Buffer.from(pdf);
    const type = damaged.indexOf('/Type /EmbeddedFile');
    const stream = damaged.indexOf('stream', type) + 'stream\n'.length;
    for (let i = 10; i < 30; i++) damaged[stream + i] = 0xff - damaged[stream + i]!;
    expect(await certificateNamedIn(arrayBuffer(damaged))).toBeNull();
    expect(await certificateNamedIn(arrayBuffer(Buffer.from('%PDF-1.7\n%%EOF\n')))).toBeNull();
    expect(await certificateNamedIn(new ArrayBuffer(0))).toBeNull();
  });
});
