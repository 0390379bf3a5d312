/**
 * The report's data as an associated file (PDF/A-3 "Data"): what pdfkit's `doc.file` writes (EmbeddedFile
 * stream with size, dates and MD5 checksum, Filespec with AFRelationship, the EmbeddedFiles name tree and the
 * catalog's AF array), with the checksum from node:crypto: pdfkit computes MD5 in JavaScript, a
 * millisecond for the 40 KB of a report's samples.
 */
import { createHash } from 'node:crypto';

export interface Attachment {
  name: string;
  data: Buffer;
  /** a MIME type of letters, digits, '.', '+', '-' and one '/' */
  type: string;
  relationship: 'Data' | 'Source' | 'Alternative' | 'Supplement' | 'Unspecified';
  description: string;
  date: Date;
}

/** The parts of pdfkit's document (not in its types) that `doc.file` itself uses. */
interface AttachingDoc {
  ref(data: object): { end(chunk?: Uint8Array): void };
  addNamedEmbeddedFile(name: string, ref: object): void;
  _root: { data: { AF?: object[] } };
}

export function attachFile(doc: PDFKit.PDFDocument, a: Attachment): void {
  const pdf = doc as unknown as AttachingDoc;
  if (!/^[A-Za-z0-9.+-]+\/[A-Za-z0-9.+-]+$/.test(a.type)) throw new Error(`attachFile: unsupported type ${a.type}`);
  const file = pdf.ref({
    Type: 'EmbeddedFile',
    Params: {
      CreationDate: a.date,
      ModDate: a.date,
      // pdfkit writes String objects as PDF strings (a bare string would be a name).
      CheckSum: new String(createHash('md5').update(a.data).digest('hex')),
      Size: a.data.byteLength,
    },
    // A PDF name: '/' is a delimiter, written as #2F.
    Subtype: a.type.replace('/', '#2F'),
  });
  file.end(a.data);
  const spec = pdf.ref({
    Type: 'Filespec',
    AFRelationship: a.relationship,
    F: new String(a.name),
    EF: { F: file },
    UF: new String(a.name),
    Desc: new String(a.description),
  });
  spec.end();
  pdf.addNamedEmbeddedFile(a.name, spec);
  (pdf._root.data.AF ??= []).push(spec);
}
