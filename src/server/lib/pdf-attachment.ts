/**
 * The embedded file of a PDF that pdfkit wrote (one `/Type /EmbeddedFile` stream, FlateDecode, not in an
 * object stream): how docs/examples/read-report.mjs reads test-report.json, for the verification page.
 */
import { inflateSync } from 'node:zlib';

/** The bytes of the first embedded file, or null when there is none or it cannot be read. */
export function embeddedFileBytes(pdf: Buffer): Buffer | null {
  const at = pdf.indexOf('/Type /EmbeddedFile');
  if (at < 0) return null;
  const dictStart = pdf.lastIndexOf('<<', at);
  const streamAt = pdf.indexOf('stream', at);
  if (dictStart < 0 || streamAt < 0) return null;
  const dict = pdf.subarray(dictStart, streamAt).toString('latin1');
  let begin = streamAt + 'stream'.length;
  if (pdf[begin] === 0x0d) begin++;
  if (pdf[begin] === 0x0a) begin++;
  const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
  if (!Number.isSafeInteger(length) || begin + length > pdf.length) return null;
  const raw = pdf.subarray(begin, begin + length);
  try {
    return /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw;
  } catch {
    return null;
  }
}
