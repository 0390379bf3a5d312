/**
 * pdfkit, loaded on first use rather than when the server starts: with fontkit and its tables it is the
 * largest package of the server's module graph (about 6 MB of heap), and a server that has not drawn a
 * PDF yet, or never does (its reports are rendered by the pool's worker threads), need not hold it
 * (docs/decisions/0033-server-memory.md). The same ESM build as a static `import PDFDocument from 'pdfkit'`.
 */
import type PDFDocumentClass from 'pdfkit';
import { onFirstUse } from './first-use';

export type PdfDocumentConstructor = typeof PDFDocumentClass;

/** pdfkit's PDFDocument; the first call imports the package, later calls reuse it. */
export const loadPdfkit: () => Promise<PdfDocumentConstructor> = onFirstUse(() => import('pdfkit').then((m) => m.default));
