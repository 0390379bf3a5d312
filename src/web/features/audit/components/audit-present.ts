/**
 * An audit entry as a person reads it: the record type and field names as the screens name them, in the page
 * language; values as the screens show them (dates in the one date style, Yes/No, choices in words, units,
 * the product's name rather than its id); fields in the order of the record's form.
 */
import type { TFunction } from 'i18next';
import type { AuditEntry } from '../../../../shared/contract/audit';
import { PRODUCT_FIELDS } from '../../../../shared/contract/products';
import { formatDateTime, formatDay, formatNumber } from '../../../components/format';
import { productValue, rangeValue } from '../../../components/catalogue-values';
import { enumerate } from '../../../../shared/i18n/punctuation';

/** Where each record type's field names live: the namespace of its screen. */
const FIELD_NS: Record<string, string> = {
  product: 'products',
  serialRange: 'serials',
  machine: 'audit.benchFields',
  settings: 'settingsScreen',
  searchRequest: 'searches',
};

/** The fields of each record type in the order its form (or screen) lists them; others follow. */
const ORDER: Record<string, readonly string[]> = {
  product: PRODUCT_FIELDS,
  serialRange: ['productName', 'startSerial', 'endSerial', 'totalUnits', 'productionDate', 'bodyMaterial'],
  user: ['name', 'email', 'role', 'language', 'disabled'],
  machine: ['name', 'keyPrefix', 'disabled'],
};

/** Noise in a diff: timestamps every update moves, ids another field names better. */
const HIDDEN: Record<string, readonly string[]> = {
  '*': ['id', 'createdAt', 'updatedAt'],
  serialRange: ['productId'],
  searchRequest: ['outboxId'],
};

export interface PresentedChange {
  field: string;
  label: string;
  before?: string;
  after?: string;
}

export interface PresentedEntry {
  entity: string;
  action: string;
  changes: PresentedChange[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function entityLabel(t: TFunction, entity: string): string {
  return t(`audit.entities.${entity}`, { defaultValue: entity });
}

export function fieldLabel(t: TFunction, entity: string, field: string): string {
  const spaced = field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
  // The record's own field names first, then the audit trail's (account fields and the like), then the name.
  const common = t(`audit.fields.${field}`, { defaultValue: spaced });
  const ns = FIELD_NS[entity];
  if (!ns) return common;
  return t(`${ns}.fields.${field}`, { defaultValue: common });
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Any value as the screens write it: yes/no, dates, numbers with grouping, lists joined, choices in words. */
export function commonValue(t: TFunction, language: string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('terms.empty');
  if (typeof value === 'boolean') return t(value ? 'terms.yes' : 'terms.no');
  if (typeof value === 'number') return formatNumber(language, value);
  if (Array.isArray(value))
    return enumerate(
      language,
      value.map((v) => commonValue(t, language, field, v)),
    );
  if (typeof value === 'string') {
    if (field === 'role') return t(`app.roles.${value}`, { defaultValue: value });
    if (field === 'language') return t(`app.languages.${value}`, { defaultValue: value });
    if (field === 'status') return t(`searches.statuses.${value}`, { defaultValue: value });
    if (ISO_DAY.test(value)) return formatDay(language, value);
    if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) return formatDateTime(language, value);
    return value;
  }
  return JSON.stringify(value);
}

function valueOf(t: TFunction, language: string, entity: string, field: string, value: unknown): string {
  const empty = value === null || value === undefined || value === '';
  if (entity === 'product') {
    const text = productValue(t, language, field, value);
    return text === '—' ? t('terms.empty') : text;
  }
  if (entity === 'serialRange' && !(empty && field !== 'bodyMaterial')) {
    if (field === 'productionDate' && typeof value === 'string') return formatDay(language, value);
    return rangeValue(t, language, field, value);
  }
  if (field === 'logoSize' && typeof value === 'number') return t('audit.units.bytes', { value: formatNumber(language, value, 0) });
  if (field === 'searchRetentionDays' && typeof value === 'number')
    return t('audit.units.days', { value: formatNumber(language, value, 0) });
  if (field === 'recordRetentionYears')
    return typeof value === 'number' ? t('audit.units.years', { value: formatNumber(language, value, 0) }) : t('audit.units.keepAll');
  return commonValue(t, language, field, value);
}

/** The fields an entry changed, named, formatted and in form order. */
export function presentEntry(
  t: TFunction,
  language: string,
  e: Pick<AuditEntry, 'entity' | 'action' | 'before' | 'after'>,
): PresentedEntry {
  const hidden = new Set([...HIDDEN['*']!, ...(HIDDEN[e.entity] ?? [])]);
  const order = ORDER[e.entity] ?? [];
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  const keys = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])]
    .filter((k) => !hidden.has(k))
    .filter((k) => !(e.before && e.after) || !same(e.before[k], e.after[k]))
    .sort((a, b) => rank(a) - rank(b));
  const fmt = (v: unknown, k: string) => valueOf(t, language, e.entity, k, v);
  return {
    entity: entityLabel(t, e.entity),
    action: t(`audit.actions.${e.action}`, { defaultValue: e.action }),
    changes: keys.map((k) => ({
      field: k,
      label: fieldLabel(t, e.entity, k),
      ...(e.before ? { before: fmt(e.before[k], k) } : {}),
      ...(e.after ? { after: fmt(e.after[k], k) } : {}),
    })),
  };
}
