/**
 * The rules of settings: admins change them, staff read them; every change is audited (never the key, the
 * password or the logo's bytes); a change of either terms text starts a new terms version; the logo is
 * accepted by its content (PNG or JPEG magic bytes that pdfkit can actually read), not by its name.
 */
import {
  LOGO_MAX_BYTES,
  SETTINGS_TEXT_FIELDS,
  type PublicSettings,
  type Settings,
  type SettingsUpdateValues,
} from '../../../shared/contract/settings';
import type { Language } from '../../../shared/i18n/index';
import { translate } from '../../../shared/i18n/index';
import type { Db, Executor } from '../../db/client';
import { certificateInfo, generateSelfSigned, readPkcs12, sha256Hex, type SigningMaterial } from '../../lib/signing/certificate';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { checkImage, type ImageType } from '../../lib/image-check';
import { recheckHeld } from '../machines/instruments.service';
import * as repo from './settings.repo';

export const SETTINGS_ENTITY = 'settings';
/** The company name a new installation starts with (migration 0005): a placeholder, not the manufacturer. */
const DEFAULT_COMPANY_NAME = 'Test Report Center';
const SYSTEM: AuditActor = { id: null, label: 'system' };

function toSettings(v: repo.SettingsView): Settings {
  return {
    companyName: v.companyName,
    companyAddress: v.companyAddress,
    companyPostcode: v.companyPostcode,
    companyCity: v.companyCity,
    companyCountry: v.companyCountry,
    termsEn: v.termsEn,
    termsZh: v.termsZh,
    statementEn: v.statementEn,
    statementZh: v.statementZh,
    footerEn: v.footerEn,
    footerZh: v.footerZh,
    documentType: v.documentType,
    inspectorName: v.inspectorName,
    inspectorStatementEn: v.inspectorStatementEn,
    inspectorStatementZh: v.inspectorStatementZh,
    contact: v.contact,
    termsVersion: v.termsVersion,
    logo: v.logoType && v.logoSize ? { type: v.logoType, size: v.logoSize, sha256: v.logoSha256 ?? '' } : null,
    certificate: v.certPem && v.certSource ? certificateInfo(v.certPem, v.certSource) : null,
    updatedAt: v.updatedAt.toISOString(),
    searchRetentionDays: v.searchRetentionDays,
    benchRecordsOnly: v.benchRecordsOnly,
    requireCalibratedInstruments: v.requireCalibratedInstruments,
    recordRetentionYears: v.recordRetentionYears,
    missing: missingForReports(v),
  };
}

/** What a report or the public page would lack: the company named, its address, logo, signer and contact. */
function missingForReports(v: repo.SettingsView): Settings['missing'] {
  const out: Settings['missing'] = [];
  if (v.companyName.trim() === '' || v.companyName === DEFAULT_COMPANY_NAME) out.push('companyName');
  if (v.companyAddress.trim() === '') out.push('companyAddress');
  if (!v.logoType) out.push('logo');
  if (v.inspectorName.trim() === '') out.push('inspectorName');
  if (v.contact.trim() === '') out.push('contact');
  return out;
}

/** The settings as staff see them (no key, no logo bytes). */
export async function getSettings(db: Executor): Promise<Settings> {
  return toSettings(await repo.readSettings(db));
}

/** The settings and the revision that versions what a report shows (see reports' reuse key). */
export async function getSettingsWithRevision(db: Executor): Promise<{ settings: Settings; revision: number }> {
  const v = await repo.readSettings(db);
  return { settings: toSettings(v), revision: v.revision };
}

/** A text of settings, or the product's default wording when the admin left it empty. */
export function textOr(value: string, lang: Language, defaultKey: string): string {
  return value.trim() !== '' ? value : translate(lang, defaultKey);
}

/** The terms a visitor agrees to, in one language, with their version (the report request records it). */
export async function getTerms(db: Executor, lang: Language): Promise<{ text: string; version: number }> {
  const s = await repo.readSettings(db);
  return { text: textOr(lang === 'zh' ? s.termsZh : s.termsEn, lang, 'settings.defaults.terms'), version: s.termsVersion };
}

export async function getPublicSettings(db: Executor): Promise<PublicSettings> {
  const s = await repo.readSettings(db);
  return {
    companyName: s.companyName,
    logoUrl: s.logoSha256 && s.logoType ? `/api/v1/public/logo?v=${s.logoSha256.slice(0, 16)}` : null,
    terms: { en: textOr(s.termsEn, 'en', 'settings.defaults.terms'), zh: textOr(s.termsZh, 'zh', 'settings.defaults.terms') },
    termsVersion: s.termsVersion,
    contact: s.contact,
  };
}

export function getLogo(db: Executor) {
  return repo.readLogo(db);
}

/** Replaces the text fields; audited with what changed. */
export async function updateSettings(db: Db, actor: AuditActor, v: SettingsUpdateValues): Promise<Settings> {
  return db.transaction(async (tx) => {
    const before = await repo.readSettings(tx, true);
    const changed: ((typeof SETTINGS_TEXT_FIELDS)[number] | 'benchRecordsOnly' | 'requireCalibratedInstruments')[] =
      SETTINGS_TEXT_FIELDS.filter((f) => before[f] !== v[f]);
    if (v.benchRecordsOnly !== undefined && v.benchRecordsOnly !== before.benchRecordsOnly) changed.push('benchRecordsOnly');
    const instrumentsRule = v.requireCalibratedInstruments;
    if (instrumentsRule !== undefined && instrumentsRule !== before.requireCalibratedInstruments)
      changed.push('requireCalibratedInstruments');
    if (changed.length === 0) return toSettings(before);
    const bumpTerms = changed.includes('termsEn') || changed.includes('termsZh');
    await repo.updateSettings(tx, Object.fromEntries(changed.map((f) => [f, v[f]])), { bumpTerms });
    const after = await repo.readSettings(tx);
    await recordAudit(tx, actor, {
      action: 'update',
      entity: SETTINGS_ENTITY,
      entityId: 'settings',
      before: { ...Object.fromEntries(changed.map((f) => [f, before[f]])), ...(bumpTerms ? { termsVersion: before.termsVersion } : {}) },
      after: { ...Object.fromEntries(changed.map((f) => [f, after[f]])), ...(bumpTerms ? { termsVersion: after.termsVersion } : {}) },
    });
    // Switched off: the records held for their instrument are released and judged again. Switched on, it
    // judges the records that arrive from now on; those stored before keep their verdict.
    if (instrumentsRule === false && before.requireCalibratedInstruments) await recheckHeld(tx, 'all');
    return toSettings(after);
  });
}

/** The retentions, each changed on its own and audited under its own entity id. */
type Retention = { field: 'searchRetentionDays'; value: number } | { field: 'recordRetentionYears'; value: number | null };
const RETENTION_ENTITY: Record<Retention['field'], string> = {
  searchRetentionDays: 'search-retention',
  recordRetentionYears: 'record-retention',
};

async function updateRetention(db: Db, actor: AuditActor, r: Retention): Promise<Settings> {
  return db.transaction(async (tx) => {
    const before = await repo.readSettings(tx, true);
    if (before[r.field] === r.value) return toSettings(before);
    await repo.updateRetention(tx, r.field, r.value);
    await recordAudit(tx, actor, {
      action: 'update',
      entity: SETTINGS_ENTITY,
      entityId: RETENTION_ENTITY[r.field],
      before: { [r.field]: before[r.field] },
      after: { [r.field]: r.value },
    });
    return toSettings(await repo.readSettings(tx));
  });
}

/** How long search requests keep the visitor's address and IP (the retention job reads it); audited. */
export function updateSearchRetention(db: Db, actor: AuditActor, days: number): Promise<Settings> {
  return updateRetention(db, actor, { field: 'searchRetentionDays', value: days });
}

/**
 * How many years a unit's records stay in the working table after its last test (null: all of them); audited.
 * The archive job (machine-data/record-archive.ts) reads it.
 */
export function updateRecordRetention(db: Db, actor: AuditActor, years: number | null): Promise<Settings> {
  return updateRetention(db, actor, { field: 'recordRetentionYears', value: years });
}

/**
 * The logo's largest side in pixels: it prints at most 110 × 46 points, so 2000 pixels is sharper than any
 * print, and decoding it for a report costs at most 16 MB (docs/decisions/0020).
 */
export const LOGO_MAX_PIXELS = 2000;

/** Checks the logo by content (lib/image-check.ts): PNG or JPEG, at most 1 MB and LOGO_MAX_PIXELS a side. */
export function checkLogo(bytes: Buffer): Promise<ImageType> {
  return checkImage(bytes, {
    maxBytes: LOGO_MAX_BYTES,
    maxPixels: LOGO_MAX_PIXELS,
    keys: {
      missing: 'settings.logoMissing',
      tooLarge: 'settings.logoTooLarge',
      type: 'settings.logoType',
      unreadable: 'settings.logoUnreadable',
      dimensions: 'limits.logoDimensions',
    },
  });
}

export async function setLogo(db: Db, actor: AuditActor, bytes: Buffer): Promise<Settings> {
  const type = await checkLogo(bytes);
  const sha256 = sha256Hex(bytes);
  return db.transaction(async (tx) => {
    const before = await repo.readSettings(tx, true);
    await repo.updateSettings(tx, { logo: bytes, logoType: type, logoSha256: sha256 });
    await recordAudit(tx, actor, {
      action: 'update',
      entity: SETTINGS_ENTITY,
      entityId: 'logo',
      before: before.logoSha256 ? { logoType: before.logoType, logoSha256: before.logoSha256, logoSize: before.logoSize } : null,
      after: { logoType: type, logoSha256: sha256, logoSize: bytes.length },
    });
    return toSettings(await repo.readSettings(tx));
  });
}

export async function removeLogo(db: Db, actor: AuditActor): Promise<Settings> {
  return db.transaction(async (tx) => {
    const before = await repo.readSettings(tx, true);
    if (!before.logoSha256) return toSettings(before);
    await repo.updateSettings(tx, { logo: null, logoType: null, logoSha256: null });
    await recordAudit(tx, actor, {
      action: 'delete',
      entity: SETTINGS_ENTITY,
      entityId: 'logo',
      before: { logoType: before.logoType, logoSha256: before.logoSha256, logoSize: before.logoSize },
    });
    return toSettings(await repo.readSettings(tx));
  });
}

function certAudit(v: { certSource: string | null; certFingerprint: string | null }) {
  return v.certFingerprint ? { source: v.certSource, fingerprintSha256: v.certFingerprint } : null;
}

/** Replaces the signing certificate with the company's PKCS#12 (the password is used here and forgotten). */
export async function uploadCertificate(db: Db, actor: AuditActor, bytes: Buffer, password: string): Promise<Settings> {
  const m = readPkcs12(bytes, password);
  return replaceCertificate(db, actor, m, 'uploaded');
}

/** A new self-signed certificate (e.g. after the company name changed, or to drop an uploaded one). */
export async function regenerateCertificate(db: Db, actor: AuditActor): Promise<Settings> {
  const s = await repo.readSettings(db);
  return replaceCertificate(db, actor, generateSelfSigned(s.companyName), 'generated');
}

async function replaceCertificate(db: Db, actor: AuditActor, m: SigningMaterial, source: 'generated' | 'uploaded'): Promise<Settings> {
  return db.transaction(async (tx) => {
    const before = await repo.readSettings(tx, true);
    await repo.updateSettings(tx, { certSource: source, certPem: m.certPem, keyPem: m.keyPem, certFingerprint: m.fingerprint });
    await recordAudit(tx, actor, {
      action: 'update',
      entity: SETTINGS_ENTITY,
      entityId: 'certificate',
      before: certAudit(before),
      after: { source, fingerprintSha256: m.fingerprint, subject: certificateInfo(m.certPem, source).subject },
    });
    return toSettings(await repo.readSettings(tx));
  });
}

/**
 * The certificate and key the signer uses; generated self-signed for the company on first use. Two
 * instances generating at once: the first stored wins and both sign with it.
 */
export async function signingMaterial(db: Db): Promise<SigningMaterial> {
  const found = await repo.readSigningMaterial(db);
  if (found) return found;
  const s = await repo.readSettings(db);
  const made = generateSelfSigned(s.companyName);
  await db.transaction(async (tx) => {
    if (await repo.storeGeneratedCertificate(tx, made)) {
      await recordAudit(tx, SYSTEM, {
        action: 'create',
        entity: SETTINGS_ENTITY,
        entityId: 'certificate',
        after: { source: 'generated', fingerprintSha256: made.fingerprint, subject: certificateInfo(made.certPem, 'generated').subject },
      });
    }
  });
  const stored = await repo.readSigningMaterial(db);
  if (!stored) throw new Error('signing certificate missing after generation');
  return stored;
}

/**
 * The company as the mail's sender (mail/transports.ts Sender): its name once Settings names it (the
 * placeholder of a new installation is not a company), and its contact as Reply-To when that is an address.
 * Read at most every 10 s: a batch of messages shares one read.
 */
export function mailSender(db: Executor): () => Promise<{ name: string; replyTo: string }> {
  let cached: { at: number; value: { name: string; replyTo: string } } | null = null;
  return async () => {
    if (cached && Date.now() - cached.at < 10_000) return cached.value;
    const s = await getSettings(db);
    const name = s.companyName.trim() === DEFAULT_COMPANY_NAME ? '' : s.companyName.trim();
    const contact = s.contact.trim();
    const value = { name, replyTo: /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/.test(contact) ? contact : '' };
    cached = { at: Date.now(), value };
    return value;
  };
}
