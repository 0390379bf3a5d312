/**
 * The signature field and its placeholder, written by pdfkit as it builds the document (the approach of
 * @signpdf/placeholder-pdfkit, whose peer range stops at pdfkit 0.11; this is its logic for pdfkit 0.20,
 * through pdfkit's public form API). SubFilter ETSI.CAdES.detached makes it a PAdES signature; the widget
 * is invisible but printable (PDF/A wants the print flag on every annotation).
 *
 * pdfkit's form dictionary always says NeedAppearances, which PDF/A forbids, and has no signature flags;
 * it offers no way to change either. `finishSignatureForm` does, on the finished bytes, by overwriting
 * that one entry with SigFlags and spaces of the same length, so no offset in the file moves.
 */
import type * as SignpdfUtils from '@signpdf/utils';
import { packageOnFirstUse } from '../first-use';

const signpdfUtils = packageOnFirstUse<typeof SignpdfUtils>('@signpdf/utils');

export interface PlaceholderOptions {
  name: string;
  reason: string;
  location: string;
  contactInfo: string;
  signingTime: Date;
  /** bytes reserved for the CMS signature (hex doubles it in the file) */
  signatureLength: number;
}

const ANNOT_PRINT = 4;
const ANNOT_LOCKED = 128;
const FIELD_NAME = 'Signature1';

export function addSignaturePlaceholder(doc: PDFKit.PDFDocument, o: PlaceholderOptions): void {
  const { SUBFILTER_ETSI_CADES_DETACHED, DEFAULT_BYTE_RANGE_PLACEHOLDER } = signpdfUtils();
  // pdfkit writes String objects as PDF text strings and primitive strings as names.
  const signature = doc.ref({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ETSI_CADES_DETACHED,
    ByteRange: [0, DEFAULT_BYTE_RANGE_PLACEHOLDER, DEFAULT_BYTE_RANGE_PLACEHOLDER, DEFAULT_BYTE_RANGE_PLACEHOLDER],
    Contents: Buffer.alloc(o.signatureLength),
    Reason: new String(o.reason),
    M: o.signingTime,
    ContactInfo: new String(o.contactInfo),
    Name: new String(o.name),
    Location: new String(o.location),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' } },
  });
  doc.initForm();
  // The signature field, merged with its invisible widget on the last page.
  const field = doc.formField(FIELD_NAME);
  Object.assign(field.data, {
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: [0, 0, 0, 0],
    F: ANNOT_PRINT | ANNOT_LOCKED,
    V: signature,
    P: doc.page.dictionary,
  });
  (doc.page.annotations as PDFKit.PDFKitReference[]).push(field);
  field.end('');
  signature.end('');
}

const NEED_APPEARANCES = Buffer.from('/NeedAppearances true');

/** The finished document's form dictionary with SigFlags in place of NeedAppearances (see above). */
export function finishSignatureForm(pdf: Buffer): Buffer {
  const at = pdf.lastIndexOf(NEED_APPEARANCES);
  if (at < 0) throw new Error('The document has no form dictionary to carry the signature flags.');
  const { SIG_FLAGS } = signpdfUtils();
  const flags = `/SigFlags ${SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY}`;
  pdf.write(flags.padEnd(NEED_APPEARANCES.length, ' '), at, 'latin1');
  return pdf;
}
