export { FormCheckbox, type FormCheckboxProps } from './form-checkbox';
export { FormTextField, useFieldErrorText, type FormTextFieldProps } from './form-text-field';
export { applyServerErrors } from './server-errors';
export { SubmitButton } from './submit-button';
export { useUnsavedChangesWarning } from './unsaved-changes';
export { decodeFieldMessage, encodeFieldMessage, zodFormResolver } from './zod-resolver';
export { FormSelectField } from './form-select-field';
export { RecordForm, useAfterSave, type RecordFormProps } from './record-form';
