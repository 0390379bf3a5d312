import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../src/server/lib/content-disposition';

describe('contentDisposition', () => {
  it('sends a plain ASCII name as it is', () => {
    expect(contentDisposition('inline', 'test-report-VB-000123.pdf')).toBe('inline; filename="test-report-VB-000123.pdf"');
  });

  it('sends any other name twice: an ASCII stand-in and the whole name in UTF-8', () => {
    expect(contentDisposition('attachment', 'delivery-出貨 7 (a)*.zip')).toBe(
      `attachment; filename="delivery-_7_a_.zip"; filename*=UTF-8''delivery-%E5%87%BA%E8%B2%A8%207%20%28a%29%2A.zip`,
    );
  });

  it('never lets a quote or a line break into the header', () => {
    const value = contentDisposition('attachment', 'a"b\r\nSet-Cookie: x.csv');
    expect(value).not.toMatch(/[\r\n]/);
    expect(value.split('"')).toHaveLength(3);
  });
});
