/**
 * The sign-in form's check: the route's own schema (src/shared/contract/login.ts), so that the form refuses
 * what the server would, with the same message keys. Loaded after the page is hydrated, not with it: zod is
 * most of its size.
 */
// First: zod decides as it builds a schema whether to probe `new Function`, which the CSP refuses (lib/zod-jitless.ts).
import '../lib/zod-jitless';
import { loginInput, type LoginInput } from '../../shared/contract/login';
import type { FieldError } from '../../shared/errors';

/** A field's message: an i18n key and the values it names. */
export interface FieldMessage {
  key: string;
  params?: Record<string, string | number>;
}

export type LoginFields = keyof LoginInput;
export type LoginFieldErrors = Partial<Record<LoginFields, FieldMessage>>;

const FIELDS: readonly LoginFields[] = ['email', 'password'];

/** The first message of each field that fails the schema; empty when the values may be sent. */
export function checkLogin(values: LoginInput): LoginFieldErrors {
  const result = loginInput.safeParse(values);
  const errors: LoginFieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (FIELDS.includes(field as LoginFields)) errors[field as LoginFields] ??= { key: issue.message };
  }
  return errors;
}

/** The server's field errors of the form's fields (its 400 names them as the schema does). */
export function serverFieldErrors(fields: readonly FieldError[]): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  for (const f of fields) {
    if (FIELDS.includes(f.field as LoginFields)) errors[f.field as LoginFields] ??= { key: f.key, params: f.params };
  }
  return errors;
}
