/**
 * Forgotten passwords: a link with 32 random bytes, of which only the SHA-256 is stored, valid for 30
 * minutes and once. The request always gets the same answer, whether or not the account exists.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { AppError } from '../../../shared/errors';
import { translate } from '../../../shared/i18n/index';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { passwordResets } from '../../db/schema/index';
import { randomToken, sha256 } from '../../lib/crypto';
import { assertPasswordAcceptable, hashPassword } from '../../lib/passwords';
import { renderEmail } from '../../mail/layout';
import { enqueueMail } from '../../mail/outbox';
import { kickMailWorkers } from '../../mail/worker';
import { recordAudit } from '../audit/audit.writer';
import { revokeUserSessions } from './sessions';
import { findUserByEmail, findUserById, updateUser } from './users.repo';

export const RESET_TTL_MS = 30 * 60 * 1000;

/** Writes the reset row and queues its email in one transaction; does nothing for unknown or disabled accounts. */
export async function requestPasswordReset(db: Db, config: Pick<Config, 'publicBaseUrl'>, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.disabled) return;
  const token = randomToken(32);
  const link = `${config.publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const lang = user.language;
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, `auth.resetEmail.${key}`, params);
  const { html, text } = renderEmail({
    language: lang,
    title: t('title'),
    paragraphs: [t('greeting', { name: user.name }), t('body')],
    action: { label: t('action'), url: link },
    footer: t('ignore'),
  });
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    });
    await enqueueMail(tx, {
      kind: 'password-reset',
      to: user.email,
      language: lang,
      subject: t('subject'),
      text,
      html,
      ref: { userId: user.id },
    });
  });
  // After the commit, so the worker finds the row: the person is waiting for this email now.
  kickMailWorkers();
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
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await updateUser(tx, user.id, { passwordHash });
    await revokeUserSessions(tx, user.id);
    await recordAudit(tx, { id: user.id, label: user.email, ip }, { action: 'reset-password', entity: 'user', entityId: user.id });
  });
}
