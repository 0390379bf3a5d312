/** The staff list query; single-user reads and writes are in auth/users.repo.ts. */
import { asc, count, desc, ilike, or, sql, type SQL } from 'drizzle-orm';
import { pageWindow, type ListQuery } from '../../../shared/contract/common';
import type { STAFF_SORTS } from '../../../shared/contract/staff';
import type { Executor } from '../../db/client';
import { users, type UserRow } from '../../db/schema/index';

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
): Promise<{ items: UserRow[]; total: number }> {
  const where: SQL | undefined = query.q
    ? or(ilike(users.name, likePattern(query.q)), ilike(users.email, likePattern(query.q)))
    : undefined;
  const column = SORT_COLUMNS[query.sort ?? 'name'];
  const direction = query.order === 'desc' ? desc : asc;
  const { limit, offset } = pageWindow(query);
  const [items, [totalRow]] = await Promise.all([
    // id breaks ties, so that paging through equal names neither repeats nor skips anyone.
    db.select().from(users).where(where).orderBy(direction(column), asc(users.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { items, total: totalRow?.n ?? 0 };
}
