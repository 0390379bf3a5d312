/**
 * An authorised inspector's stamp (docs/decisions/0058-inspector-stamp.md): an image checked by content before
 * it is stored (lib/image-check.ts), one per account, audited by its hash. It prints on certificates issued
 * after it is saved; a certificate already issued keeps what it printed.
 */
import { createHash } from 'node:crypto';
import { STAMP_MAX_BYTES, STAMP_MAX_PIXELS } from '../../../shared/contract/staff';
import { AppError } from '../../../shared/errors';
import type { Db, Executor } from '../../db/client';
import { checkImage } from '../../lib/image-check';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { findUserById } from '../auth/auth.service';
import { deleteStamp, keepStampOf, readStamp, readStampImage, stampSha256Of, upsertStamp } from './staff.repo';

const notFound = () => new AppError('not-found', 'errors.userNotFound');

export function checkStamp(bytes: Buffer) {
  return checkImage(bytes, {
    maxBytes: STAMP_MAX_BYTES,
    maxPixels: STAMP_MAX_PIXELS,
    keys: {
      missing: 'staff.stamp.missing',
      tooLarge: 'staff.stamp.tooLarge',
      type: 'staff.stamp.type',
      unreadable: 'staff.stamp.unreadable',
      dimensions: 'staff.stamp.dimensions',
    },
  });
}

/** Stores the stamp of account `id`: its SHA-256 (hex). */
export async function setStamp(db: Db, actor: AuditActor, id: string, bytes: Buffer): Promise<string> {
  const type = await checkStamp(bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db.transaction(async (tx) => {
    if (!(await findUserById(tx, id))) throw notFound();
    const before = await stampSha256Of(tx, id);
    await upsertStamp(tx, id, { image: bytes, type, sha256 });
    await recordAudit(tx, actor, {
      action: 'set-stamp',
      entity: 'user',
      entityId: id,
      before: { stampSha256: before },
      after: { stampSha256: sha256 },
    });
  });
  return sha256;
}

export async function removeStamp(db: Db, actor: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await findUserById(tx, id))) throw notFound();
    const before = await stampSha256Of(tx, id);
    if (!(await deleteStamp(tx, id))) throw new AppError('not-found', 'staff.stamp.none');
    await recordAudit(tx, actor, { action: 'remove-stamp', entity: 'user', entityId: id, before: { stampSha256: before }, after: null });
  });
}

export async function getStamp(db: Db, id: string) {
  const stamp = await readStamp(db, id);
  if (!stamp) throw new AppError('not-found', 'staff.stamp.none');
  return stamp;
}

/**
 * The stamp an inspector releases a range with: their stamp of now, kept as it is for the certificates of
 * that release (stamp_images); null when they have none.
 */
export const keepStampForRelease = (db: Executor, userId: string): Promise<string | null> => keepStampOf(db, userId);

/** The stamp a release was made with, by its hash; null: the image is not kept. */
export const releaseStampImage = (db: Executor, sha256: string): Promise<Buffer | null> => readStampImage(db, sha256);
