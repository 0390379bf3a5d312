/**
 * An uploaded image that a certificate prints (the company's logo, an inspector's stamp), checked by content
 * before it is stored: PNG or JPEG by its first bytes, within a byte limit, within a pixel limit read from its
 * header before anything decodes it (docs/decisions/0020), and readable by the PDF writer.
 */
import { AppError } from '../../shared/errors';
import { imageSize } from './image-size';
import { loadPdfkit } from './pdfkit';

export type ImageType = 'image/png' | 'image/jpeg';

/** The message keys of each way an upload fails, and the limits it is checked against. */
export interface ImageRules {
  maxBytes: number;
  maxPixels: number;
  keys: { missing: string; tooLarge: string; type: string; unreadable: string; dimensions: string };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function imageTypeOf(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

function fileError(key: string, code: 'invalid-argument' | 'out-of-range' = 'invalid-argument'): AppError {
  return new AppError(code, key, { fields: [{ field: 'file', key }] });
}

export async function checkImage(bytes: Buffer, rules: ImageRules): Promise<ImageType> {
  const { keys } = rules;
  if (bytes.length === 0) throw fileError(keys.missing);
  if (bytes.length > rules.maxBytes) throw fileError(keys.tooLarge, 'out-of-range');
  const type = imageTypeOf(bytes);
  if (!type) throw fileError(keys.type);
  try {
    // A file with the right first bytes can still be truncated or use a variant pdfkit cannot embed: find
    // out now rather than when the first report is issued.
    const PDFDocument = await loadPdfkit();
    const doc = new PDFDocument({ autoFirstPage: false }) as unknown as { openImage(b: Buffer): { width: number; height: number } };
    const img = doc.openImage(bytes);
    if (!(img.width > 0 && img.height > 0)) throw new Error('empty image');
  } catch {
    throw fileError(keys.unreadable);
  }
  // Opening reads the chunks and markers only; the pixels are decoded when a report embeds the image, so the
  // size its header declares is checked here, before any report does.
  const size = imageSize(bytes, type);
  if (!size || size.width === 0 || size.height === 0) throw fileError(keys.unreadable);
  if (size.width > rules.maxPixels || size.height > rules.maxPixels) {
    const params = { max: rules.maxPixels, width: size.width, height: size.height };
    throw new AppError('invalid-argument', keys.dimensions, { params, fields: [{ field: 'file', key: keys.dimensions, params }] });
  }
  return type;
}
