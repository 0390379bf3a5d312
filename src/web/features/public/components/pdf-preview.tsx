/**
 * The report shown on the page with pdf.js, so that it also shows on phones whose browsers do not display
 * PDFs inline. pdf.js and its worker arrive with this chunk, which loads only when a report was issued.
 * One page at a time, drawn at the width of its box and the screen's pixel density; Previous/Next and
 * "Page N of M" (announced), and a download link to the same file.
 */
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfPreviewProps {
  /** same-origin path of the PDF */
  url: string;
  filename: string;
  /** accessible name of the rendered page, e.g. the report's serial */
  title: string;
}

export default function PdfPreview({ url, filename, title }: PdfPreviewProps) {
  const { t } = useTranslation();
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [page, setPage] = useState(1);
  const [failed, setFailed] = useState(false);
  const [rendering, setRendering] = useState(true);
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const task = getDocument({ url, isEvalSupported: false });
    let loaded: PDFDocumentProxy | null = null;
    setDoc(null);
    setPage(1);
    setFailed(false);
    task.promise.then(
      (d) => {
        loaded = d;
        setDoc(d);
      },
      () => setFailed(true),
    );
    return () => {
      void (loaded ? loaded.destroy() : task.destroy());
    };
  }, [url]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!doc || !canvas.current || width === 0) return;
    let task: RenderTask | null = null;
    let cancelled = false;
    setRendering(true);
    void doc.getPage(page).then((p) => {
      if (cancelled || !canvas.current) return;
      const base = p.getViewport({ scale: 1 });
      const scale = width / base.width;
      const ratio = window.devicePixelRatio || 1;
      const viewport = p.getViewport({ scale: scale * ratio });
      const c = canvas.current;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      c.style.width = `${width}px`;
      c.style.height = `${Math.floor(viewport.height / ratio)}px`;
      task = p.render({ canvas: c, viewport });
      task.promise.then(
        () => !cancelled && setRendering(false),
        () => undefined,
      );
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, page, width]);

  const pages = doc?.numPages ?? 0;
  return (
    <Box component="section" aria-labelledby="preview-heading" data-testid="pdf-preview">
      <Typography id="preview-heading" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {t('search.preview.title')}
      </Typography>
      {failed && <Alert severity="error">{t('search.preview.failed')}</Alert>}
      <Box
        ref={box}
        sx={{
          position: 'relative',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflow: 'hidden',
          bgcolor: '#fff',
          minHeight: 200,
        }}
      >
        <canvas ref={canvas} role="img" aria-label={t('search.preview.pageImage', { title, page, pages })} style={{ display: 'block' }} />
        {(!doc || rendering) && !failed && (
          <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <CircularProgress aria-label={t('app.loading')} />
          </Box>
        )}
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="outlined" startIcon={<ChevronLeft />} disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {t('search.preview.previous')}
        </Button>
        <Typography aria-live="polite" data-testid="page-indicator" sx={{ px: 1, whiteSpace: 'nowrap' }}>
          {pages ? t('search.preview.pageOf', { page, pages }) : '…'}
        </Typography>
        <Button variant="outlined" endIcon={<ChevronRight />} disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          {t('search.preview.next')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" startIcon={<FileDownloadOutlined />} href={url} download={filename}>
          {t('search.preview.download')}
        </Button>
      </Stack>
    </Box>
  );
}
