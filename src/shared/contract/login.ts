/**
 * The sign-in's schema, for the route (src/server/modules/auth) and the sign-in page's form alike. Only zod and
 * the shared fields: the sign-in page (src/web/login-app) loads this without the rest of the contract.
 */
import { z } from 'zod';
import { emailField, MSG } from './common';

/** A password being checked (sign-in, current password): only present and bounded. */
export function existingPasswordField() {
  return z.string({ error: MSG.required }).min(1, { error: MSG.required, abort: true }).max(1024, { error: MSG.invalid });
}

export const loginInput = z.object({
  email: emailField(),
  password: existingPasswordField(),
});
export type LoginInput = z.input<typeof loginInput>;
