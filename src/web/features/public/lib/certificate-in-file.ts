/**
 * Which certificate a PDF names, read from the data it carries (the associated file test-report.json of
 * PDF/A-3, written by src/server/lib/pdf-kit/pdf-attachment.ts): for a file whose hash is not one issued, so
 * that the verifier can say "this file is not the one issued as certificate …" and offer the genuine one.
 * In the browser, without a PDF library: the embedded file's stream is found by its dictionary and inflated
 * with the platform's DecompressionStream. Null when the file names none or that part of it was damaged.
 */
/** A verification id as REPORT_ID_RE (shared/contract/reports.ts) has it, without loading zod into the public page. */
const REPORT_ID = /^[A-Za-z0-9_-]{22}$/;

/** The verification id the file's embedded data names, or null. */
export async function certificateNamedIn(bytes: ArrayBuffer): Promise<string | null> {
  try {
    const json = JSON.parse(await embeddedData(new Uint8Array(bytes))) as { verification?: { id?: unknown } };
    const id = json.verification?.id;
    return typeof id === 'string' && REPORT_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

async function embeddedData(bytes: Uint8Array): Promise<string> {
  // Latin-1 keeps one character per byte, so that text positions are byte positions.
  const text = new TextDecoder('latin1').decode(bytes);
  const type = /\/Type\s*\/EmbeddedFile\b/.exec(text);
  if (!type) throw new Error('no embedded file');
  const dictStart = text.lastIndexOf('<<', type.index);
  const open = /stream\r?\n/g;
  open.lastIndex = type.index;
  const streamAt = open.exec(text);
  if (!streamAt || dictStart < 0) throw new Error('no stream');
  const dict = text.slice(dictStart, streamAt.index);
  const start = streamAt.index + streamAt[0].length;
  const length = /\/Length\s+(\d+)\b/.exec(dict);
  const end = length ? start + Number(length[1]) : text.indexOf('endstream', start);
  const data = bytes.slice(start, end);
  if (!/\/Filter\s*\/FlateDecode\b/.test(dict)) return new TextDecoder().decode(data);
  const inflated = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Response(inflated).text();
}
