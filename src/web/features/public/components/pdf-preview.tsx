/**
 * The report shown on the page with pdf.js, so that it also shows on phones whose browsers do not display
 * PDFs inline. pdf.js and its worker arrive with this chunk, which loads only when a report was issued.
 * One page at a time, drawn at the width of its box times the zoom and the screen's pixel density;
 * Previous/Next and "Page N of M" (announced), zoom out/in (the box scrolls both ways when zoomed), and a
 * download link to the same file. On a phone the page spans the screen's whole width and the download
 * button comes first, full width; on a wider screen the layout is the desktop's.
 */
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import ZoomIn from '@mui/icons-material/ZoomIn';
import ZoomOut from '@mui/icons-material/ZoomOut';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Zoom steps, as multiples of the box's width. */
export const ZOOM_STEPS = [1, 1.5, 2, 3] as const;
/** A canvas above this many pixels fails on some phones (and costs memory on all): the density gives way first. */
const MAX_CANVAS_PIXELS = 16_000_000;

/** The device pixels per CSS pixel to draw at: the screen's density, lowered when the canvas would be too big. */
export function drawingRatio(cssWidth: number, cssHeight: number, deviceRatio: number): number {
  const fit = Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, cssWidth * cssHeight));
  return Math.max(0.5, Math.min(deviceRatio || 1, fit));
}

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
  const [zoom, setZoom] = useState(0);

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
      const cssWidth = Math.floor(width * ZOOM_STEPS[zoom]!);
      const scale = cssWidth / base.width;
      const ratio = drawingRatio(cssWidth, base.height * scale, window.devicePixelRatio);
      const viewport = p.getViewport({ scale: scale * ratio });
      const c = canvas.current;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      c.style.width = `${cssWidth}px`;
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
  }, [doc, page, width, zoom]);

  const pages = doc?.numPages ?? 0;
  const download = (large: boolean) => (
    <Button
      variant="contained"
      size={large ? 'large' : 'medium'}
      fullWidth={large}
      startIcon={<FileDownloadOutlined />}
      href={url}
      download={filename}
    >
      {t('search.preview.download')}
    </Button>
  );
  return (
    <Box component="section" aria-labelledby="preview-heading" data-testid="pdf-preview">
      <Typography id="preview-heading" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {t('search.preview.title')}
      </Typography>
      {/* On a phone the download comes first: it is what the visitor came for, and the page may be long. */}
      <Box sx={{ display: { xs: 'block', sm: 'none' }, mb: 1.5 }} data-testid="download-first">
        {download(true)}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75 }}>
          {t('visitor.preview.downloadHint')}
        </Typography>
      </Box>
      {failed && <Alert severity="error">{t('search.preview.failed')}</Alert>}
      <Box
        ref={box}
        data-testid="preview-viewport"
        sx={{
          position: 'relative',
          // On a phone the page spans the screen: out of the card's and the page's padding (2 + 1.5 units).
          mx: { xs: -3.5, sm: 0 },
          border: 1,
          borderLeft: { xs: 0, sm: 1 },
          borderRight: { xs: 0, sm: 1 },
          borderColor: 'divider',
          borderRadius: { xs: 0, sm: 1 },
          overflow: zoom > 0 ? 'auto' : 'hidden',
          maxHeight: zoom > 0 ? '80dvh' : undefined,
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
        <Stack
          direction="row"
          sx={{ alignItems: 'center', display: { xs: 'flex', sm: 'none' } }}
          role="group"
          aria-label={t('visitor.preview.zoomLevel', { percent: ZOOM_STEPS[zoom]! * 100 })}
        >
          <IconButton
            aria-label={t('visitor.preview.zoomOut')}
            title={t('visitor.preview.zoomOut')}
            disabled={zoom === 0}
            onClick={() => setZoom((z) => z - 1)}
          >
            <ZoomOut />
          </IconButton>
          <Typography variant="body2" data-testid="zoom-level" sx={{ minWidth: 44, textAlign: 'center' }}>
            {ZOOM_STEPS[zoom]! * 100}%
          </Typography>
          <IconButton
            aria-label={t('visitor.preview.zoomIn')}
            title={t('visitor.preview.zoomIn')}
            disabled={zoom === ZOOM_STEPS.length - 1}
            onClick={() => setZoom((z) => z + 1)}
          >
            <ZoomIn />
          </IconButton>
        </Stack>
        <Box sx={{ display: { xs: 'none', sm: 'block' } }}>{download(false)}</Box>
      </Stack>
    </Box>
  );
}
