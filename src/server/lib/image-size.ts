/**
 * The pixel size a PNG or JPEG declares in its header, read without decoding it: a small file can declare
 * a huge image (a 875 KB PNG of 15000 × 15000 pixels decodes to 900 MB), and the logo is decoded for every
 * report, so its size is checked before anything decodes it (docs/decisions/0020).
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** PNG: the IHDR chunk comes first, right after the 8-byte signature: length, "IHDR", width, height. */
function pngSize(b: Buffer): ImageSize | null {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Start-of-frame markers (C0–CF except DHT C4, JPG C8 and DAC CC): they carry the frame's size. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG: walks the segments after SOI to the first start-of-frame: precision, height, width. */
function jpegSize(b: Buffer): ImageSize | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    // Fill bytes and markers without a length (TEM, RST0–7).
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (i + 9 > b.length) return null;
      return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    }
    // Start of scan before any frame, or end of image: no size.
    if (marker === 0xda || marker === 0xd9) return null;
    i += 2 + length;
  }
  return null;
}

export function imageSize(bytes: Buffer, type: 'image/png' | 'image/jpeg'): ImageSize | null {
  return type === 'image/png' ? pngSize(bytes) : jpegSize(bytes);
}
