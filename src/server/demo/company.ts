/**
 * The demo's manufacturer: a fictional company with an address, a contact, an inspection representative
 * and a logo drawn here (a PNG made with node:zlib, so nothing is shipped or downloaded), set through the
 * settings service as an admin would.
 */
import { deflateSync } from 'node:zlib';
import { getSettings, setLogo, updateSettings } from '../modules/settings/settings.service';
import type { AuditActor } from '../modules/audit/audit.writer';
import type { Db } from '../db/client';

export const DEMO_COMPANY = {
  companyName: 'Formosa Flow Valves Co., Ltd. 福爾摩沙流體閥門股份有限公司',
  companyAddress: 'No. 88, Gongye 3rd Rd., Xitun Dist.\nTaichung City 407, Taiwan',
  inspectorName: 'Lin Mei-Hua (QA Manager)',
  contact: 'quality@formosa-flow.example · +886 4 2359 0000',
};

/** The terms a visitor agrees to on the public report page, as the demo's manufacturer would word them. */
export const DEMO_TERMS = {
  termsEn:
    'Formosa Flow Valves issues the test report of the valve whose serial number you enter: the results of its pressure tests at our works before delivery. ' +
    'The report states those results only; it is not a warranty, and the valve’s warranty is that of your purchase contract.\n' +
    'Your email address is used only to send you the report. It is kept with your request as a record of delivery and erased after the retention period.',
  termsZh:
    '福爾摩沙流體閥門依您輸入的序號，核發該閥門的測試報告：即出廠前於本公司完成的壓力測試結果。' +
    '報告僅說明這些結果，並非保固；閥門的保固依您的採購合約。\n' +
    '您的電子郵件地址僅用於寄送報告，並與申請一併儲存作為寄送紀錄，於保留期限後刪除。',
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 240 × 80 logo: a red valve wheel (a ring with spokes) beside a dark bar, on white. */
export function demoLogo(): Buffer {
  const w = 240;
  const h = 80;
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3, 255);
    row[0] = 0;
    for (let x = 0; x < w; x++) {
      const dx = x - 40;
      const dy = y - 40;
      const r = Math.hypot(dx, dy);
      const angle = Math.atan2(dy, dx);
      const spoke = r < 30 && Math.abs(Math.sin(angle * 3)) < 0.12;
      const ring = r >= 26 && r <= 34;
      const hub = r <= 7;
      const bar = x >= 86 && x <= 230 && ((y >= 24 && y <= 36) || (y >= 46 && y <= 54 && x <= 190));
      const [cr, cg, cb] = ring || spoke || hub ? [198, 40, 40] : bar ? [55, 71, 79] : [255, 255, 255];
      row[1 + x * 3] = cr;
      row[2 + x * 3] = cg;
      row[3 + x * 3] = cb;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Names the demo's manufacturer in the settings (company, address, signer, contact, terms, logo). */
export async function setDemoCompany(db: Db, actor: AuditActor): Promise<void> {
  const current = await getSettings(db);
  const { missing: _m, logo: _l, certificate: _c, termsVersion: _t, updatedAt: _u, searchRetentionDays: _s, ...texts } = current;
  await updateSettings(db, actor, { ...texts, ...DEMO_COMPANY, ...DEMO_TERMS });
  await setLogo(db, actor, demoLogo());
}
