/** The CSV buttons of a catalogue list: template, export (the table's filter, search and sort) and import. */
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportDialog, type ImportDialogProps } from './import-dialog';

export function CsvActions({
  exportHref,
  canImport,
  ...dialog
}: Omit<ImportDialogProps, 'open' | 'onClose'> & { exportHref: string; canImport: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" href={`/api/v1${dialog.path}/template.csv`} download startIcon={<FileDownloadOutlined />} color="inherit">
        {t(`${dialog.ns}.import.template`)}
      </Button>
      <Button size="small" href={exportHref} download startIcon={<DownloadOutlined />} color="inherit" data-testid="export-csv">
        {t(`${dialog.ns}.import.export`)}
      </Button>
      {canImport && (
        <Button size="small" startIcon={<UploadOutlined />} color="inherit" onClick={() => setOpen(true)}>
          {t('products.import.open')}
        </Button>
      )}
      <ImportDialog {...dialog} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
