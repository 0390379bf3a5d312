/** Sign-in, first-run registration, password and profile: the schemas of routes and forms alike. */
import { z } from 'zod';
import { ROLES } from '../abilities';
import { LANGUAGES } from '../i18n/index';
import { emailField, MSG, requiredText } from './common';
import { existingPasswordField } from './login';

// The sign-in's schema lives on its own, so that the sign-in page can check a form without the catalogues and
// abilities this module brings (src/web/login-app).
export { existingPasswordField, loginInput, type LoginInput } from './login';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** A new password: 8 to 128 characters. The server also refuses the commonest passwords. */
export function newPasswordField() {
  return (
    z
      .string({ error: MSG.required })
      .min(1, { error: MSG.required, abort: true })
      .min(PASSWORD_MIN, { error: 'validation.passwordTooShort', abort: true })
      .max(PASSWORD_MAX, { error: 'validation.passwordTooLong', abort: true })
      // Eight spaces or "aaaaaaaa" pass a length rule and nothing else: one distinct character is no password.
      .refine((p) => p.trim() !== '' && new Set(p).size > 1, { error: 'validation.passwordTooSimple' })
  );
}

/** PostgreSQL text cannot hold U+0000; refusing it here keeps such input a 400, not a database error. */

/** A person's name: trimmed, 1 to 120 characters. */
export function nameField() {
  return requiredText(120);
}

export const languageField = z.enum(LANGUAGES, { error: 'validation.oneOf' });
export const roleField = z.enum(ROLES, { error: 'validation.oneOf' });

export const user = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: roleField,
  language: languageField,
  preferences: z.record(z.string(), z.unknown()),
  disabled: z.boolean(),
  /** an authorised inspection representative (may release serial ranges), and the title printed beside the name */
  inspector: z.boolean(),
  inspectorTitle: z.string(),
});
export type User = z.infer<typeof user>;

export const registerInput = z.object({
  name: nameField(),
  email: emailField(),
  password: newPasswordField(),
});
export type RegisterInput = z.input<typeof registerInput>;

export const forgotPasswordInput = z.object({ email: emailField() });
export type ForgotPasswordInput = z.input<typeof forgotPasswordInput>;

export const resetPasswordInput = z.object({
  token: z.string({ error: MSG.required }).min(1, { error: MSG.required }).max(200, { error: MSG.invalid }),
  password: newPasswordField(),
});
export type ResetPasswordInput = z.input<typeof resetPasswordInput>;

export const changePasswordInput = z.object({
  currentPassword: existingPasswordField(),
  newPassword: newPasswordField(),
});
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

/** Preferences are the web app's to define; the server only bounds their size. */
export const preferencesField = z
  .record(z.string().max(64), z.unknown())
  .refine((p) => JSON.stringify(p).length <= 8192, { error: MSG.invalid })
  // JSON.stringify writes U+0000 as the escape \u0000, which jsonb refuses.
  .refine((p) => !JSON.stringify(p).includes('\\u0000'), { error: MSG.invalid });

export const updateMeInput = z
  .object({
    name: nameField(),
    language: languageField,
    preferences: preferencesField,
  })
  .partial();
export type UpdateMeInput = z.input<typeof updateMeInput>;

/** `/auth/me`: the user and the CASL rules of their role, so the web app shows what they may do. */
export const me = z.object({
  user,
  abilities: z.array(z.record(z.string(), z.unknown())),
  /** true while no account exists: the web app offers /register */
  needsFirstAdmin: z.boolean().optional(),
});
export type Me = z.infer<typeof me>;

/** `GET /auth/setup`: whether /register may still create the first admin. */
export const setupStatus = z.object({ needsFirstAdmin: z.boolean() });

/** An action's outcome when there is nothing else to return: the message key and its text in the request's language. */
export const notice = z.object({ ok: z.literal(true), key: z.string(), message: z.string() });
export type Notice = z.infer<typeof notice>;
