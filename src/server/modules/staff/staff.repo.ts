/** The staff list query and the inspectors' stamps; single-user reads and writes are in auth/users.repo.ts. */
import { asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { pageWindow, type ListQuery } from '../../../shared/contract/common';
import type { STAFF_SORTS } from '../../../shared/contract/staff';
import { rowsOf, type Executor } from '../../db/client';
import { inspectorStamps, stampImages, users, type UserRow } from '../../db/schema/index';

// Names sort ignoring case, the same on PGlite (C collation) as on a PostgreSQL with a locale.
const SORT_COLUMNS = {
  name: sql`lower(${users.name})`,
  email: users.email,
  role: users.role,
  disabled: users.disabled,
  createdAt: users.createdAt,
} as const;

/** `%` and `_` in a search typed by the user are literal characters, not wildcards. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listStaff(
  db: Executor,
  query: ListQuery<(typeof STAFF_SORTS)[number]>,
): Promise<{ items: Array<{ user: UserRow; stampSha256: string | null }>; total: number }> {
  const where: SQL | undefined = query.q
    ? or(ilike(users.name, likePattern(query.q)), ilike(users.email, likePattern(query.q)))
    : undefined;
  const column = SORT_COLUMNS[query.sort ?? 'name'];
  const direction = query.order === 'desc' ? desc : asc;
  const { limit, offset } = pageWindow(query);
  const [items, [totalRow]] = await Promise.all([
    // id breaks ties, so that paging through equal names neither repeats nor skips anyone.
    db
      .select({ user: users, stampSha256: inspectorStamps.sha256 })
      .from(users)
      .leftJoin(inspectorStamps, eq(inspectorStamps.userId, users.id))
      .where(where)
      .orderBy(direction(column), asc(users.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { items, total: totalRow?.n ?? 0 };
}

export async function stampSha256Of(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db.select({ sha256: inspectorStamps.sha256 }).from(inspectorStamps).where(eq(inspectorStamps.userId, userId));
  return row?.sha256 ?? null;
}

export async function readStamp(db: Executor, userId: string): Promise<{ image: Buffer; type: string; sha256: string } | null> {
  const [row] = await db
    .select({ image: inspectorStamps.image, type: inspectorStamps.type, sha256: inspectorStamps.sha256 })
    .from(inspectorStamps)
    .where(eq(inspectorStamps.userId, userId));
  return row ?? null;
}

export async function upsertStamp(db: Executor, userId: string, s: { image: Buffer; type: 'image/png' | 'image/jpeg'; sha256: string }) {
  await db
    .insert(inspectorStamps)
    .values({ userId, ...s })
    .onConflictDoUpdate({ target: inspectorStamps.userId, set: { ...s, updatedAt: sql`now()` } });
}

/** Whether there was a stamp to delete. */
export async function deleteStamp(db: Executor, userId: string): Promise<boolean> {
  const rows = await db.delete(inspectorStamps).where(eq(inspectorStamps.userId, userId)).returning({ id: inspectorStamps.userId });
  return rows.length > 0;
}

/**
 * Keeps the inspector's stamp of now among the stamps of releases (stamp_images, by its hash): its SHA-256,
 * or null when they have none.
 */
export async function keepStampOf(db: Executor, userId: string): Promise<string | null> {
  const rows = rowsOf<{ sha256: string }>(
    await db.execute(sql`WITH s AS (SELECT sha256, image, type FROM inspector_stamps WHERE user_id = ${userId}::uuid),
      kept AS (INSERT INTO stamp_images (sha256, image, type) SELECT sha256, image, type FROM s ON CONFLICT (sha256) DO NOTHING)
      SELECT sha256 FROM s`),
  );
  return rows[0]?.sha256 ?? null;
}

export async function readStampImage(db: Executor, sha256: string): Promise<Buffer | null> {
  const [row] = await db.select({ image: stampImages.image }).from(stampImages).where(eq(stampImages.sha256, sha256));
  return row?.image ?? null;
}
