/**
 * The CSV buttons of a list: Download template (`/api/v1<path>/template.csv`), Export CSV (what the table
 * shows: its filters, search and sort) and Import CSV (opens ImportDialog; only when `canImport`).
 *
 *   <CsvActions path="/products" exportHref={list.exportHref} canImport={ability.can('create', 'Product')}
 *     texts={{ title: 'products.import.title', valid: 'products.import.valid', stored: 'products.import.stored' }}
 *     fieldLabel={(f) => `products.fields.${f}`} invalidate={[productKeys.all]} />
 *
 * ListView renders it from its `csv` prop. `importPath` and `templateHref` default from `path`.
 */
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportDialog, type ImportDialogProps } from './import-dialog';

export interface CsvActionsProps extends Omit<ImportDialogProps, 'open' | 'onClose' | 'importPath'> {
  /** the list endpoint under /api/v1, e.g. `/products` */
  path: string;
  /** from useList (`list.exportHref`) or exportHref() */
  exportHref: string;
  canImport: boolean;
  /** default `<path>/import` */
  importPath?: string;
  /** default `/api/v1<path>/template.csv`; null hides the button */
  templateHref?: string | null;
}

export function CsvActions({ path, exportHref, canImport, importPath, templateHref, ...dialog }: CsvActionsProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const template = templateHref === undefined ? `/api/v1${path}/template.csv` : templateHref;
  return (
    <>
      {template && (
        <Button size="small" href={template} download startIcon={<FileDownloadOutlined />} color="inherit" data-testid="csv-template">
          {t('table.csv.template')}
        </Button>
      )}
      <Button size="small" href={exportHref} download startIcon={<DownloadOutlined />} color="inherit" data-testid="export-csv">
        {t('table.csv.export')}
      </Button>
      {canImport && (
        <>
          <Button size="small" startIcon={<UploadOutlined />} color="inherit" onClick={() => setOpen(true)} data-testid="csv-import">
            {t('table.csv.import')}
          </Button>
          <ImportDialog {...dialog} importPath={importPath ?? `${path}/import`} open={open} onClose={() => setOpen(false)} />
        </>
      )}
    </>
  );
}
