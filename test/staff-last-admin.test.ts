import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../src/server/db/schema/index';
import { translate } from '../src/shared/i18n/index';
import { toSessionUser } from '../src/server/lib/sessions';
import { deleteStaff, updateStaff } from '../src/server/modules/staff/staff.service';
import { buildTestApp, type TestApp } from './helpers/app';
import { createUser, randomIp, signedInUser } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
// Each case counts admins from zero; deleting the users is much quicker than a fresh database.
beforeEach(async () => {
  await t.app.ctx.db.delete(users);
});

async function activeAdmins(): Promise<number> {
  const [row] = await t.app.ctx.db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.disabled, false)));
  return row!.n;
}

describe('the last active admin', () => {
  it('two admins demoting each other at once: one succeeds, the other is told the last admin must stay', async () => {
    const a = await signedInUser(t.app, { role: 'admin' });
    const b = await signedInUser(t.app, { role: 'admin' });
    const demote = (actor: string, target: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/staff/${target}`,
        headers: { cookie: actor },
        payload: { role: 'staff' },
        remoteAddress: randomIp(),
      });
    const results = await Promise.all([demote(a.cookie, b.user.id), demote(b.cookie, a.user.id)]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    // The loser is refused by the rule, or, if the winner finished before the loser was even authenticated,
    // by the end of its session (it is no longer an admin). Either way one admin stays.
    const refused = results.find((r) => r.statusCode !== 200)!;
    expect([401, 409]).toContain(refused.statusCode);
    if (refused.statusCode === 409) {
      expect(refused.json().error).toMatchObject({
        status: 'FAILED_PRECONDITION',
        key: 'staff.lastAdmin',
        message: 'The last active administrator cannot be deleted, demoted or disabled',
      });
    }
    expect(await activeAdmins()).toBe(1);
  });

  // Through the API an admin acting on another admin implies two active admins; the guard still has to
  // hold for any caller (the CLI, a future bulk action), so the service is exercised directly here.
  it('can be neither demoted, disabled nor deleted by anyone', async () => {
    const only = await createUser(t.app.ctx.db, { role: 'admin' });
    const ghost = toSessionUser({ ...only, id: '00000000-0000-4000-8000-000000000000', email: 'ghost@example.com' });
    const actor = { id: null, label: 'test' };
    for (const run of [
      () => updateStaff(t.app.ctx.db, ghost, actor, only.id, { role: 'staff' }),
      () => updateStaff(t.app.ctx.db, ghost, actor, only.id, { disabled: true }),
      () => deleteStaff(t.app.ctx.db, ghost, actor, only.id),
    ]) {
      await expect(run()).rejects.toMatchObject({ code: 'failed-precondition', messageKey: 'staff.lastAdmin' });
    }
    expect(await activeAdmins()).toBe(1);
    expect(translate('en', 'staff.lastAdmin')).toBe('The last active administrator cannot be deleted, demoted or disabled');
    // A disabled admin does not count as one who stays.
    await createUser(t.app.ctx.db, { role: 'admin', disabled: true });
    await expect(deleteStaff(t.app.ctx.db, ghost, actor, only.id)).rejects.toMatchObject({ messageKey: 'staff.lastAdmin' });
  });

  it('another admin can go while one active admin stays', async () => {
    const a = await signedInUser(t.app, { role: 'admin' });
    const b = await createUser(t.app.ctx.db, { role: 'admin' });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/staff/${b.id}`,
      headers: { cookie: a.cookie },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(await activeAdmins()).toBe(1);
  });
});
