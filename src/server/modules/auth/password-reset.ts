/**
 * Forgotten passwords. The request only queues a message; the link's 32 random bytes are made when the
 * message is sent (composeResetMail), and only their SHA-256 is stored, valid for 30 minutes and once.
 * So the outbox row, a backup of it, the log and DATA_DIR never hold a usable link; the link is a URL
 * fragment (`#token=`), which browsers do not send, so it never reaches a request log either. Without
 * SMTP_URL, messages are .eml files on this server's disk: there the link is left out and the email says
 * to ask an administrator.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { AppError } from '../../../shared/errors';
import { translate, type Language } from '../../../shared/i18n/index';
import type { Config } from '../../config';
import type { Db, Executor } from '../../db/client';
import { mailOutbox, passwordResets, type OutboxRow, type UserRow } from '../../db/schema/index';
import { randomToken, sha256 } from '../../lib/crypto';
import { assertPasswordAcceptable, hashPassword } from '../../lib/passwords';
import type { ComposedMail, ComposeOptions } from '../../mail/composers';
import { renderEmail } from '../../mail/layout';
import { enqueueMail } from '../../mail/outbox';
import { recordAudit } from '../audit/audit.writer';
import { revokeUserSessions } from '../../lib/sessions';
import { findUserByEmail, findUserById, updateUser } from './users.repo';

export const RESET_TTL_MS = 30 * 60 * 1000;
export const RESET_MAIL_KIND = 'password-reset';

type LinkState = { link: string } | 'pending' | 'withheld';

function resetEmail(user: Pick<UserRow, 'name' | 'language'>, state: LinkState): ComposedMail {
  const lang: Language = user.language;
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, `auth.resetEmail.${key}`, params);
  const greeting = t('greeting', { name: user.name });
  const content =
    typeof state === 'object'
      ? { paragraphs: [greeting, t('body')], action: { label: t('action'), url: state.link } }
      : { paragraphs: [greeting, t(state === 'pending' ? 'pending' : 'withheld')] };
  const { html, text } = renderEmail({ language: lang, title: t('title'), footer: t('ignore'), ...content });
  return { subject: t('subject'), text, html };
}

/**
 * Queues the reset email of an active account; does nothing for unknown or disabled ones. `kick` wakes
 * the app's mail workers (`app.ctx.mail.kick`).
 */
export async function requestPasswordReset(db: Db, email: string, kick: () => void): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.disabled) return;
  // The stored body is a stand-in without any link; the real one is made when it is sent.
  const { subject, text, html } = resetEmail(user, 'pending');
  await enqueueMail(db, {
    kind: RESET_MAIL_KIND,
    to: user.email,
    language: user.language,
    subject: subject!,
    text,
    html,
    ref: { userId: user.id },
  });
  // The person is waiting for this email now.
  kick();
}

/**
 * The content of a reset email at the moment it is sent (registered as the kind's mail composer): a new
 * link for an account that is still active, or null when the account was disabled or deleted meanwhile.
 */
export async function composeResetMail(
  db: Db,
  config: Pick<Config, 'publicBaseUrl'>,
  row: OutboxRow,
  options: ComposeOptions,
): Promise<ComposedMail | null> {
  const user = row.ref.userId ? await findUserById(db, row.ref.userId) : undefined;
  if (!user || user.disabled) return null;
  if (options.keepsCopy) return resetEmail(user, 'withheld');
  const token = randomToken(32);
  await db.insert(passwordResets).values({ tokenHash: sha256(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
  return resetEmail(user, { link: `${config.publicBaseUrl}/reset-password#token=${encodeURIComponent(token)}` });
}

/**
 * Ends every open link of a user and drops reset emails still waiting to be sent: after a password
 * change, a password set by an administrator, disabling or deleting, a link asked for earlier must not
 * work (it may sit in a mailbox that someone else reads).
 */
export async function endPendingResets(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  await tx
    .update(mailOutbox)
    .set({ status: 'failed', lastError: 'No longer needed: the password or the account changed', lockedUntil: null })
    .where(and(eq(mailOutbox.kind, RESET_MAIL_KIND), eq(mailOutbox.status, 'queued'), sql`${mailOutbox.ref}->>'userId' = ${userId}`));
}

/**
 * Sets the new password for a valid link. The row is locked so the same link cannot be spent twice at
 * once; every open link of the user is spent with it and every session of the user ends.
 */
export async function resetPassword(db: Db, token: string, password: string, ip: string): Promise<void> {
  const invalid = () => new AppError('invalid-argument', 'auth.resetLinkInvalid');
  const tokenHash = sha256(token);
  const [candidate] = await db
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
    .limit(1);
  if (!candidate) throw invalid();
  await assertPasswordAcceptable(password);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(passwordResets)
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
      .for('update');
    const user = row && (await findUserById(tx, row.userId));
    if (!row || !user || user.disabled) throw invalid();
    await endPendingResets(tx, user.id);
    await updateUser(tx, user.id, { passwordHash });
    await revokeUserSessions(tx, user.id);
    await recordAudit(tx, { id: user.id, label: user.email, ip }, { action: 'reset-password', entity: 'user', entityId: user.id });
  });
}
