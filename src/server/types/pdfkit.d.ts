/**
 * What pdfkit 0.20 offers and @types/pdfkit (0.17) does not yet declare, limited to what the report PDF,
 * the nameplate labels and the signature placeholder use: a font parsed by fontkit, a structure element built from a function
 * alone,
 * the PDF/A-3 relationship of an attached file, the page dictionary of a structure element. Merged into
 * the global PDFKit namespace that @types/pdfkit declares; public API only, no private fields.
 */
declare namespace PDFKit {
  /** A font already parsed by fontkit (pdfkit recognises one by its `layout` method). */
  interface ParsedFont {
    layout(text: string, ...rest: unknown[]): unknown;
  }
  namespace Mixins {
    interface PDFFont {
      font(src: ParsedFont, family: string, size?: number): this;
      registerFont(name: string, src: ParsedFont, family?: string): this;
    }
    interface PDFMarking {
      struct(tag: string, children: PDFStructureElementChild | PDFStructureElementChild[]): PDFStructureElement;
    }
    interface PDFAttachmentOptions {
      /** PDF/A-3's AFRelationship of the attached file (Data, Source, Alternative, Supplement, Unspecified) */
      relationship?: 'Data' | 'Source' | 'Alternative' | 'Supplement' | 'Unspecified';
    }
  }
  interface PDFStructureElement {
    /** the element's dictionary: its attributes (A) are set through `data` */
    dictionary: PDFKitReference & { data: Record<string, unknown> };
  }
}
