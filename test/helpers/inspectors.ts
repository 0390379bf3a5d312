/** Helpers of the tests that need a released range: an authorised inspector's session, and the release of a unit's range. */
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { getSettings, updateSettings } from '../../src/server/modules/settings/settings.service';
import { settingsUpdateInput } from '../../src/shared/contract/settings';
import { findRangeHolding } from '../../src/server/modules/serials/serials.service';
import { parseSerial } from '../../src/shared/serial';
import type { TestApp } from './app';
import { createUser } from './factories';

/** A signed-in authorised inspector (staff role), named and titled as given. */
export async function inspectorCookie(t: TestApp, name = 'Lin Mei-Hua', title = 'QA Manager'): Promise<{ cookie: string; id: string }> {
  const user = await createUser(t.app.ctx.db, { role: 'staff', name, inspectorTitle: title });
  return { cookie: `${SESSION_COOKIE}=${await createSession(t.app.ctx.db, user.id)}`, id: user.id };
}

/** The id of the range holding a serial. */
export async function rangeIdOf(t: TestApp, serial: string): Promise<string> {
  const held = await findRangeHolding(t.app.ctx.db, parseSerial(serial)!);
  if (!held) throw new Error(`no range holds ${serial}`);
  return held.range.id;
}

/** Releases the range holding `serial` as an authorised inspector (a 3.1 certificate needs it); a released range is left as it is. */
export async function releaseRangeOf(t: TestApp, serial: string, inspector?: { cookie: string }): Promise<void> {
  const cookie = (inspector ?? (await inspectorCookie(t))).cookie;
  const id = await rangeIdOf(t, serial);
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/serial-ranges/${id}/release`, headers: { cookie } });
  if (res.statusCode !== 200 && res.statusCode !== 409) throw new Error(`range release: ${res.statusCode} ${res.body}`);
}

/** Sets the Settings' document type to 3.1, with a name in Settings for certificates of ranges from before inspectors were kept. */
export async function certificatesOfType31(t: TestApp): Promise<void> {
  const before = await getSettings(t.app.ctx.db);
  await updateSettings(
    t.app.ctx.db,
    { id: null, label: 'test' },
    settingsUpdateInput.parse({ ...before, documentType: 'inspection-certificate-3.1', inspectorName: 'Settings Person' }),
  );
}
