/** The one settings row. Reads never select the private key except readSigningMaterial (the signer's). */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { settingsTable, type SettingsRow } from '../../db/schema/index';

/** Every column but the logo bytes and the private key. */
const publicColumns = {
  companyName: settingsTable.companyName,
  companyAddress: settingsTable.companyAddress,
  companyPostcode: settingsTable.companyPostcode,
  companyCity: settingsTable.companyCity,
  companyCountry: settingsTable.companyCountry,
  termsEn: settingsTable.termsEn,
  termsZh: settingsTable.termsZh,
  termsVersion: settingsTable.termsVersion,
  statementEn: settingsTable.statementEn,
  statementZh: settingsTable.statementZh,
  footerEn: settingsTable.footerEn,
  footerZh: settingsTable.footerZh,
  documentType: settingsTable.documentType,
  inspectorName: settingsTable.inspectorName,
  inspectorStatementEn: settingsTable.inspectorStatementEn,
  inspectorStatementZh: settingsTable.inspectorStatementZh,
  contact: settingsTable.contact,
  logoType: settingsTable.logoType,
  logoSha256: settingsTable.logoSha256,
  logoSize: sql<number | null>`octet_length(${settingsTable.logo})`.mapWith(Number),
  certSource: settingsTable.certSource,
  certPem: settingsTable.certPem,
  certFingerprint: settingsTable.certFingerprint,
  revision: settingsTable.revision,
  updatedAt: settingsTable.updatedAt,
  searchRetentionDays: settingsTable.searchRetentionDays,
  benchRecordsOnly: settingsTable.benchRecordsOnly,
  requireCalibratedInstruments: settingsTable.requireCalibratedInstruments,
  recordRetentionYears: settingsTable.recordRetentionYears,
};
export type SettingsView = { [K in keyof typeof publicColumns]: K extends 'logoSize' ? number | null : SettingsRow[K & keyof SettingsRow] };

const one = eq(settingsTable.singleton, true);

/** `forUpdate`: lock the row until the transaction ends (changes read-modify-write it). */
export async function readSettings(db: Executor, forUpdate = false): Promise<SettingsView> {
  const q = db.select(publicColumns).from(settingsTable).where(one);
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw new Error('settings row missing: migration 0005 inserts it');
  return row as SettingsView;
}

export async function readLogo(db: Executor): Promise<{ logo: Buffer; type: 'image/png' | 'image/jpeg'; sha256: string } | null> {
  const [row] = await db
    .select({ logo: settingsTable.logo, type: settingsTable.logoType, sha256: settingsTable.logoSha256 })
    .from(settingsTable)
    .where(one);
  return row?.logo && row.type ? { logo: row.logo, type: row.type, sha256: row.sha256 ?? '' } : null;
}

export async function readSigningMaterial(db: Executor): Promise<{ certPem: string; keyPem: string; fingerprint: string } | null> {
  const [row] = await db
    .select({ certPem: settingsTable.certPem, keyPem: settingsTable.keyPem, fingerprint: settingsTable.certFingerprint })
    .from(settingsTable)
    .where(one);
  return row?.certPem && row.keyPem ? { certPem: row.certPem, keyPem: row.keyPem, fingerprint: row.fingerprint ?? '' } : null;
}

type Changes = Partial<Omit<SettingsRow, 'singleton' | 'revision' | 'updatedAt' | 'searchRetentionDays'>>;

/** The search-request retention: not on reports, so the revision (which versions reports) stays. */
/** One of the retentions (neither is printed on a report: the revision stays). */
export async function updateRetention(
  db: Executor,
  field: 'searchRetentionDays' | 'recordRetentionYears',
  value: number | null,
): Promise<void> {
  await db
    .update(settingsTable)
    .set({ [field]: value, updatedAt: sql`now()` })
    .where(one);
}

/** Applies `changes` and bumps the revision (reports issued after it are new reports). */
export async function updateSettings(db: Executor, changes: Changes, opts: { bumpTerms?: boolean } = {}): Promise<void> {
  await db
    .update(settingsTable)
    .set({
      ...changes,
      revision: sql`${settingsTable.revision} + 1`,
      ...(opts.bumpTerms ? { termsVersion: sql`${settingsTable.termsVersion} + 1` } : {}),
      updatedAt: sql`now()`,
    })
    .where(one);
}

/** Stores a generated certificate only if none exists yet (two instances starting at once: one wins). */
export async function storeGeneratedCertificate(
  db: Executor,
  v: { certPem: string; keyPem: string; fingerprint: string },
): Promise<boolean> {
  const rows = await db
    .update(settingsTable)
    .set({
      certSource: 'generated',
      certPem: v.certPem,
      keyPem: v.keyPem,
      certFingerprint: v.fingerprint,
      revision: sql`${settingsTable.revision} + 1`,
    })
    .where(sql`${settingsTable.singleton} and ${settingsTable.certPem} is null`)
    .returning({ ok: settingsTable.singleton });
  return rows.length > 0;
}
