/** Field errors of the API's envelope shown on the form's fields; what no field takes goes to a toast. */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api';
import { notifyError } from '../../lib/toast';
import { encodeFieldMessage } from './zod-resolver';

/**
 * Puts each server field error on its field (`fields` lists the form's field names). Returns true when
 * at least one landed on a field; otherwise the error is shown as a toast.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly string[]): boolean {
  let placed = false;
  if (error instanceof ApiError) {
    for (const f of error.fields) {
      if (!fields.includes(f.field)) continue;
      setError(f.field as Path<T>, { type: 'server', message: encodeFieldMessage(f.key, f.params) }, { shouldFocus: !placed });
      placed = true;
    }
  }
  if (!placed) notifyError(error);
  return placed;
}
