/**
 * A react-hook-form resolver over the shared zod contracts. Contract messages are i18n keys; a field error
 * keeps the key and its bounds (`{{max}}`, `{{min}}`) so that it is translated when shown, also after a
 * language switch. Server field errors use the same encoding (see applyServerErrors).
 */
import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

const SEPARATOR = '\u0001';

export function encodeFieldMessage(key: string, params?: Record<string, unknown>): string {
  const p = Object.fromEntries(Object.entries(params ?? {}).filter(([, v]) => typeof v === 'string' || typeof v === 'number'));
  return Object.keys(p).length ? `${key}${SEPARATOR}${JSON.stringify(p)}` : key;
}

export function decodeFieldMessage(message: string): { key: string; params: Record<string, unknown> } {
  const at = message.indexOf(SEPARATOR);
  if (at < 0) return { key: message, params: {} };
  try {
    return { key: message.slice(0, at), params: JSON.parse(message.slice(at + 1)) as Record<string, unknown> };
  } catch {
    return { key: message.slice(0, at), params: {} };
  }
}

export function zodFormResolver<S extends z.ZodType<FieldValues, FieldValues>>(schema: S): Resolver<z.input<S>, unknown, z.output<S>> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.') || 'root';
      if (flat[path]) continue;
      const bounds = issue as { minimum?: unknown; maximum?: unknown };
      flat[path] = {
        type: issue.code,
        message: encodeFieldMessage(issue.message, {
          min: Number(bounds.minimum ?? NaN) || undefined,
          max: Number(bounds.maximum ?? NaN) || undefined,
        }),
      };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}
