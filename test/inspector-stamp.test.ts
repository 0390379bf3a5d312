/**
 * An authorised inspector's stamp (decision 0058): admins upload it to the inspector's account (PNG or JPEG,
 * checked by content and size before it is stored, audited by its hash), read and remove it; staff cannot;
 * a certificate of a range the inspector released prints it beside their name, in both languages.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/server/db/schema/index';
import { issueReport } from '../src/server/modules/reports/issue';
import { STAMP_MAX_BYTES, STAMP_MAX_PIXELS } from '../src/shared/contract/staff';
import { buildTestApp, type TestApp } from './helpers/app';
import { ORIGIN, staffCookie } from './helpers/catalogue';
import { png } from './helpers/images';
import { certificatesOfType31, inspectorCookie, rangeIdOf } from './helpers/inspectors';
import { adminCookie } from './helpers/machine-data';
import { poppler, tmpFile, unitWithRecords } from './helpers/reports';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminCookie(t);
  await certificatesOfType31(t);
}, 60_000);
afterAll(() => t.close());

function putStamp(id: string, cookie: string, file: Buffer | null, filename = 'stamp.png') {
  const boundary = `----trc${Math.random().toString(16).slice(2)}`;
  const part = file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        file,
        Buffer.from('\r\n'),
      ]
    : [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nnone\r\n`)];
  return t.app.inject({
    method: 'PUT',
    url: `/api/v1/staff/${id}/stamp`,
    headers: { cookie, origin: ORIGIN, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([...part, Buffer.from(`--${boundary}--\r\n`)]),
  });
}
const api = (method: 'GET' | 'DELETE', url: string, cookie: string) => t.app.inject({ method, url, headers: { cookie, origin: ORIGIN } });

/** The images a PDF embeds, as pdfimages lists them: width × height. */
function images(pdf: Buffer): string[] {
  return poppler('pdfimages', ['-list', tmpFile(pdf)])
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const c = l.trim().split(/\s+/);
      return `${c[3]}x${c[4]}`;
    });
}

describe('an inspector’s stamp', () => {
  it('is uploaded, read and removed by admins, audited by its hash; staff cannot', async () => {
    const inspector = await inspectorCookie(t, 'Chen Yu-Ting', 'Inspector');
    const stamp = png(240, 120, [180, 20, 20, 255]);
    const saved = await putStamp(inspector.id, admin, stamp);
    expect(saved.statusCode, saved.body).toBe(200);
    const sha256 = saved.json().data.stampSha256 as string;
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const read = await api('GET', `/api/v1/staff/${inspector.id}/stamp`, admin);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.rawPayload.equals(stamp)).toBe(true);
    expect((await api('GET', `/api/v1/staff/${inspector.id}`, admin)).json().data.stampSha256).toBe(sha256);
    const list = await api('GET', `/api/v1/staff?q=${encodeURIComponent('Chen Yu-Ting')}`, admin);
    expect(list.json().data.items[0].stampSha256).toBe(sha256);

    const staff = await staffCookie(t);
    expect((await putStamp(inspector.id, staff, stamp)).statusCode).toBe(403);
    expect((await api('GET', `/api/v1/staff/${inspector.id}/stamp`, staff)).statusCode).toBe(403);
    expect((await api('DELETE', `/api/v1/staff/${inspector.id}/stamp`, staff)).statusCode).toBe(403);

    const removed = await api('DELETE', `/api/v1/staff/${inspector.id}/stamp`, admin);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await api('GET', `/api/v1/staff/${inspector.id}/stamp`, admin)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/v1/staff/${inspector.id}/stamp`, admin)).statusCode).toBe(404);
    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, inspector.id)));
    expect(audit.find((a) => a.action === 'set-stamp')?.after).toEqual({ stampSha256: sha256 });
    expect(audit.find((a) => a.action === 'remove-stamp')?.before).toEqual({ stampSha256: sha256 });
  });

  it('refuses what is not a small PNG or JPEG, on the file field in both languages, and stores nothing', async () => {
    const inspector = await inspectorCookie(t, 'Huang Chih-Wei', 'Inspector');
    const zhAdmin = await staffCookie(t, { role: 'admin', language: 'zh' });
    const cases: Array<[Buffer | null, number, string, string]> = [
      [Buffer.from('%PDF-1.7 not an image'), 400, 'The stamp must be a PNG or JPEG image.', '印章必須是 PNG 或 JPEG 圖片。'],
      [Buffer.concat([png(2, 2).subarray(0, 40)]), 400, 'The stamp file is damaged', '印章檔案已損壞'],
      [
        png(STAMP_MAX_PIXELS + 1, 2),
        400,
        `at most ${STAMP_MAX_PIXELS} × ${STAMP_MAX_PIXELS} pixels`,
        `最大為 ${STAMP_MAX_PIXELS} × ${STAMP_MAX_PIXELS} 像素`,
      ],
      [Buffer.concat([png(2, 2), Buffer.alloc(STAMP_MAX_BYTES)]), 413, 'The stamp must be 512 KB or smaller.', '印章檔案不得超過 512 KB。'],
      [null, 400, 'Choose a stamp image (PNG or JPEG).', '請選擇印章圖片（PNG 或 JPEG）。'],
    ];
    for (const [file, status, en, zh] of cases) {
      for (const [cookie, text] of [
        [admin, en],
        [zhAdmin, zh],
      ] as const) {
        const res = await putStamp(inspector.id, cookie, file);
        expect(res.statusCode, res.body).toBe(status);
        const fields = res.json().error.fields as Array<{ field: string; message: string }>;
        expect(fields[0]?.field).toBe('file');
        expect(fields[0]?.message).toContain(text);
      }
    }
    expect((await api('GET', `/api/v1/staff/${inspector.id}/stamp`, admin)).statusCode).toBe(404);
    expect((await putStamp('00000000-0000-4000-8000-000000000000', admin, png(20, 10))).statusCode).toBe(404);
  });

  /** Releases the range holding `serial` as the inspector signed in with `cookie`: the range's id. */
  async function releaseRangeOf(serial: string, cookie: string): Promise<string> {
    const id = await rangeIdOf(t, serial);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/serial-ranges/${id}/release`, headers: { cookie, origin: ORIGIN } });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  it('prints beside the releasing inspector’s name on a 3.1, in English and in Chinese', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const inspector = await inspectorCookie(t, 'Lin Mei-Hua', 'QA Manager');
    expect((await putStamp(inspector.id, admin, png(300, 150, [200, 30, 30, 255]))).statusCode).toBe(200);
    const id = await releaseRangeOf(unit.serial, inspector.cookie);
    for (const language of ['en', 'zh'] as const) {
      const issued = await issueReport(t.app.ctx.db, { serial: unit.serial, language, publicBaseUrl: t.app.ctx.config.publicBaseUrl });
      if (issued.status !== 'issued') throw new Error(issued.status);
      expect(images(issued.report.bytes)).toContain('300x150');
      // The stamp is the one the range was released with: replaced, then removed, it stays on the
      // certificates of that release (the Chinese one is issued after both).
      if (language === 'en') {
        expect((await putStamp(inspector.id, admin, png(320, 160, [20, 30, 200, 255]))).statusCode).toBe(200);
        expect((await api('DELETE', `/api/v1/staff/${inspector.id}/stamp`, admin)).statusCode).toBe(200);
      }
    }
    const [release] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'serialRange'), eq(auditLog.entityId, id), eq(auditLog.action, 'release')));
    expect((release?.after as { stampSha256?: string }).stampSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is left off the certificates of a range released before the inspector had one', async () => {
    const unit = await unitWithRecords(t, [{ testType: 'shell' }, { testType: 'seat' }]);
    const inspector = await inspectorCookie(t, 'Wu Pei-Shan', 'Inspector');
    await releaseRangeOf(unit.serial, inspector.cookie);
    expect((await putStamp(inspector.id, admin, png(300, 150, [200, 30, 30, 255]))).statusCode).toBe(200);
    const issued = await issueReport(t.app.ctx.db, { serial: unit.serial, language: 'en', publicBaseUrl: t.app.ctx.config.publicBaseUrl });
    if (issued.status !== 'issued') throw new Error(issued.status);
    expect(images(issued.report.bytes)).not.toContain('300x150');
  });
});
