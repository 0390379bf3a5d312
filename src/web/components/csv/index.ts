/** CSV for any list: template, export of what is shown, and import with a dry-run preview and progress. */
export { CsvActions, type CsvActionsProps } from './csv-actions';
export { ImportDialog, type ExtraFile, type ImportDialogProps, type ImportTexts } from './import-dialog';
export { uploadCsv, type UploadProgress } from './upload';
