/**
 * The signature field and its placeholder, written by pdfkit as it builds the document (the approach of
 * @signpdf/placeholder-pdfkit, whose peer range stops at pdfkit 0.11; this is its logic for pdfkit 0.20).
 * SubFilter ETSI.CAdES.detached makes it a PAdES signature; the widget is invisible but printable (PDF/A
 * wants the print flag on every annotation) and the form has no NeedAppearances (PDF/A forbids it).
 */
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SIG_FLAGS, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

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

export function addSignaturePlaceholder(doc: Doc, o: PlaceholderOptions): void {
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
  if (!doc._acroform) doc.initForm();
  const form = doc._root.data.AcroForm;
  form.data = {
    Type: 'AcroForm',
    SigFlags: SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY,
    Fields: form.data.Fields,
    DR: form.data.DR,
  };
  const widget = doc.ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: [0, 0, 0, 0],
    F: ANNOT_PRINT | ANNOT_LOCKED,
    V: signature,
    T: new String('Signature1'),
    P: doc.page.dictionary,
  });
  doc.page.annotations.push(widget);
  form.data.Fields.push(widget);
  signature.end();
  widget.end();
}
