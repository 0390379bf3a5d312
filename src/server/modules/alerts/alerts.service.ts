/**
 * The alert inbox: the list with its summaries in the reader's language and links to what raised each, the
 * acknowledgement (assignable cause and corrective action, who and when, in the audit trail), the open
 * count of the dashboard, and the thresholds per product or bench.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client';
import { alerts, alertThresholds, machines, products, users, type AlertRow, type AlertThresholdRow } from '../../db/schema/index';
import { AppError } from '../../../shared/errors';
import { translate, type Language } from '../../../shared/i18n/index';
import type {
  AcknowledgeInput,
  AlertDetail,
  AlertMailChoice,
  AlertItem,
  AlertsQuery,
  Thresholds,
  ThresholdsInput,
} from '../../../shared/contract/alerts';
import { pageWindow } from '../../../shared/contract/common';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { RULE_BASELINE_DAYS, RULE_WINDOW_DAYS } from './record-checks';
import type { AlertSinks } from './raise';

interface Names {
  productName: string | null;
  productNameZh: string | null;
  machineName: string | null;
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const day = (iso: string) => iso.slice(0, 10);
const daysBefore = (iso: string, n: number) => new Date(Date.parse(iso) - n * 86_400_000).toISOString().slice(0, 10);

/** The alert in one sentence of the reader's language. */
export function summaryOf(lang: Language, row: Pick<AlertRow, 'kind' | 'serial'>, d: AlertDetail, names: Names): string {
  const t = (key: string, params: Record<string, unknown> = {}) => translate(lang, key, params);
  const product =
    (lang === 'zh' && names.productNameZh) || names.productName || t(row.kind === 'rule' ? 'alerts.everyProduct' : 'alerts.unknownProduct');
  const machine = names.machineName ?? t('alerts.unknownBench');
  const testType = d.testType ? t(`machineScreens.testTypes.${d.testType}`) : '';
  switch (row.kind) {
    case 'rule':
      return t('alerts.summary.rule', {
        measure: t(`quality.control.measures.${d.measure ?? 'testPressure'}`),
        product,
        testType,
        machine,
        rules: (d.rules ?? []).map((r) => t(`quality.control.rule.${r}`)).join(t('alerts.listSeparator')),
        value: d.value?.toFixed(3) ?? '',
        centre: d.centre?.toFixed(3) ?? '',
      });
    case 'yield':
      return t('alerts.summary.yield', {
        target: names.machineName ?? product,
        firstPass: d.firstPass ?? 0,
        units: d.units ?? 0,
        yield: pct((d.firstPass ?? 0) / Math.max(1, d.units ?? 1)),
        threshold: pct(d.threshold ?? 0),
      });
    case 'silence':
      return t('alerts.summary.silence', { machine, gap: d.gapMinutes ?? 0, hours: ((d.minutes ?? 0) / 60).toFixed(1) });
    case 'disagreement':
      return t('alerts.summary.disagreement', {
        serial: row.serial ?? '',
        testType,
        reasons: (d.reasons ?? []).map((r) => t(`standards.reason.${r}`)).join(t('alerts.listSeparator')),
      });
    case 'calibration':
      return t(d.overdue ? 'alerts.summary.calibrationOverdue' : 'alerts.summary.calibrationDue', {
        instrument: d.instrument ?? '',
        machine,
        dueOn: d.dueOn ?? '',
      });
    case 'deliveryHeld':
      return t('alerts.summary.deliveryHeld', { delivery: d.delivery ?? '', serial: row.serial ?? '' });
    case 'webhookDisabled':
      return t('alerts.summary.webhookDisabled', { url: d.url ?? '' });
  }
}

/** Where the facts behind an alert are, as paths of the web app. */
export function linksOf(row: AlertRow, d: AlertDetail): AlertItem['links'] {
  const links: AlertItem['links'] = {};
  if (row.kind === 'rule' && d.testType && d.at) {
    const q = new URLSearchParams({
      from: daysBefore(d.at, RULE_WINDOW_DAYS - 1),
      to: day(d.at),
      ...(row.productId ? { product: row.productId } : {}),
      type: d.testType,
      measure: d.measure ?? 'testPressure',
      ...(row.machineId ? { bench: row.machineId } : {}),
      baselineFrom: d.baselineFrom ?? daysBefore(d.at, RULE_WINDOW_DAYS + RULE_BASELINE_DAYS - 1),
      baselineTo: d.baselineTo ?? daysBefore(d.at, RULE_WINDOW_DAYS),
    });
    links.chart = `/machine-data/quality?${q.toString()}#control`;
  }
  if (row.recordId !== null) links.records = `/machine-data/${row.recordId}`;
  if (row.serial) links.unit = `/units/${encodeURIComponent(row.serial)}`;
  if (row.kind === 'disagreement') links.heldUnits = '/machine-data/held-units?reason=nonconforming';
  if (row.machineId && (row.kind === 'silence' || row.kind === 'calibration')) links.machine = '/machines';
  if (d.deliveryId) links.delivery = `/deliveries/${d.deliveryId}`;
  if (d.webhookId) links.webhook = '/settings/webhooks';
  return links;
}

function itemOf(lang: Language, row: AlertRow, names: Names): AlertItem {
  const d = row.detail as AlertDetail;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    raisedAt: row.raisedAt.toISOString(),
    summary: summaryOf(lang, row, d, names),
    productId: row.productId,
    productName: (lang === 'zh' && names.productNameZh) || names.productName,
    machineId: row.machineId,
    machineName: names.machineName,
    serial: row.serial,
    recordId: row.recordId === null ? null : String(row.recordId),
    detail: d,
    links: linksOf(row, d),
    acknowledged:
      row.status === 'acknowledged' && row.acknowledgedAt
        ? { at: row.acknowledgedAt.toISOString(), by: row.acknowledgedByLabel ?? '', cause: row.cause ?? '', action: row.action ?? '' }
        : null,
  };
}

const selection = {
  alert: alerts,
  productName: sql<string | null>`${products.name}::text`,
  productNameZh: sql<string | null>`nullif(${products.nameZh}, '')`,
  machineName: sql<string | null>`${machines.name}::text`,
};

export async function listAlerts(db: Db, lang: Language, q: AlertsQuery): Promise<{ items: AlertItem[]; total: number }> {
  const where: SQL[] = [];
  if (q.kind) where.push(eq(alerts.kind, q.kind));
  if (q.status) where.push(eq(alerts.status, q.status));
  if (q.productId) where.push(eq(alerts.productId, q.productId));
  if (q.machineId) where.push(eq(alerts.machineId, q.machineId));
  const filter = where.length ? and(...where) : undefined;
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await Promise.all([
    db
      .select(selection)
      .from(alerts)
      .leftJoin(products, eq(products.id, alerts.productId))
      .leftJoin(machines, eq(machines.id, alerts.machineId))
      .where(filter)
      .orderBy(desc(alerts.raisedAt), desc(alerts.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(alerts).where(filter),
  ]);
  return { items: rows.map((r) => itemOf(lang, r.alert, r)), total: total?.n ?? 0 };
}

async function oneAlert(db: Executor, lang: Language, id: string): Promise<AlertItem | null> {
  const [r] = await db
    .select(selection)
    .from(alerts)
    .leftJoin(products, eq(products.id, alerts.productId))
    .leftJoin(machines, eq(machines.id, alerts.machineId))
    .where(eq(alerts.id, id));
  return r ? itemOf(lang, r.alert, r) : null;
}

export async function getAlert(db: Db, lang: Language, id: string): Promise<AlertItem> {
  const item = await oneAlert(db, lang, id);
  if (!item) throw new AppError('not-found', 'alerts.notFound');
  return item;
}

/** Acknowledges an open alert once: a second acknowledgement (or two at once) is refused, not overwritten. */
export async function acknowledgeAlert(
  db: Db,
  lang: Language,
  actor: AuditActor,
  id: string,
  input: AcknowledgeInput,
  sinks: AlertSinks,
): Promise<AlertItem> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(alerts)
      .set({
        status: 'acknowledged',
        acknowledgedAt: sql`now()`,
        acknowledgedBy: actor.id,
        acknowledgedByLabel: actor.label,
        cause: input.cause,
        action: input.action,
      })
      .where(and(eq(alerts.id, id), eq(alerts.status, 'open')))
      .returning();
    if (!row) {
      const exists = await oneAlert(tx, lang, id);
      if (!exists) throw new AppError('not-found', 'alerts.notFound');
      throw new AppError('failed-precondition', 'alerts.alreadyAcknowledged');
    }
    await recordAudit(tx, actor, {
      action: 'acknowledge',
      entity: 'alert',
      entityId: id,
      before: { status: 'open' },
      after: { status: 'acknowledged', kind: row.kind, cause: input.cause, action: input.action },
    });
    await sinks.acknowledged(tx, row);
    return (await oneAlert(tx, lang, id))!;
  });
}

export async function alertMailOf(db: Db, userId: string): Promise<AlertMailChoice> {
  const [u] = await db.select({ alertMail: users.alertMail }).from(users).where(eq(users.id, userId));
  return u?.alertMail ?? 'none';
}

export async function setAlertMail(db: Db, actor: AuditActor, userId: string, choice: AlertMailChoice): Promise<AlertMailChoice> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ alertMail: users.alertMail }).from(users).where(eq(users.id, userId)).for('update');
    await tx.update(users).set({ alertMail: choice, updatedAt: new Date() }).where(eq(users.id, userId));
    await recordAudit(tx, actor, {
      action: 'update',
      entity: 'user',
      entityId: userId,
      before: { alertMail: before?.alertMail ?? null },
      after: { alertMail: choice },
    });
    return choice;
  });
}

export async function openAlertCount(db: Executor): Promise<number> {
  const [r] = await db.select({ n: count() }).from(alerts).where(eq(alerts.status, 'open'));
  return r?.n ?? 0;
}

function thresholdsOf(row: AlertThresholdRow | undefined): Thresholds {
  return {
    yieldUnits: row?.yieldUnits ?? null,
    yieldMinPercent: row?.yieldMin != null ? Math.round(Number(row.yieldMin) * 10000) / 100 : null,
    silenceMinutes: row?.silenceMinutes ?? null,
    workDays: row?.workDays ?? [1, 2, 3, 4, 5],
    workStart: (row?.workStart ?? '08:00').slice(0, 5),
    workEnd: (row?.workEnd ?? '17:00').slice(0, 5),
    timeZone: row?.timeZone ?? 'Asia/Taipei',
    baselineFrom: row?.baselineFrom ?? null,
    baselineTo: row?.baselineTo ?? null,
  };
}

export type ThresholdTarget = { productId: string } | { machineId: string };
const targetWhere = (t: ThresholdTarget) =>
  'productId' in t ? eq(alertThresholds.productId, t.productId) : eq(alertThresholds.machineId, t.machineId);

async function targetExists(db: Executor, t: ThresholdTarget): Promise<boolean> {
  const rows =
    'productId' in t
      ? await db.select({ id: products.id }).from(products).where(eq(products.id, t.productId))
      : await db.select({ id: machines.id }).from(machines).where(eq(machines.id, t.machineId));
  return rows.length > 0;
}

export async function getThresholds(db: Db, t: ThresholdTarget): Promise<Thresholds> {
  if (!(await targetExists(db, t))) throw new AppError('not-found', 'errors.notFound');
  const [row] = await db.select().from(alertThresholds).where(targetWhere(t));
  return thresholdsOf(row);
}

export async function setThresholds(db: Db, actor: AuditActor, t: ThresholdTarget, input: ThresholdsInput): Promise<Thresholds> {
  if ('productId' in t && input.silenceMinutes !== null)
    throw new AppError('invalid-argument', 'errors.invalidRequest', {
      fields: [{ field: 'silenceMinutes', key: 'alerts.validation.silenceBench' }],
    });
  return db.transaction(async (tx) => {
    if (!(await targetExists(tx, t))) throw new AppError('not-found', 'errors.notFound');
    const [before] = await tx.select().from(alertThresholds).where(targetWhere(t)).for('update');
    const values = {
      yieldUnits: input.yieldUnits,
      yieldMin: input.yieldMinPercent === null ? null : input.yieldMinPercent / 100,
      silenceMinutes: input.silenceMinutes,
      workDays: [...new Set(input.workDays)].sort(),
      workStart: input.workStart,
      workEnd: input.workEnd,
      timeZone: input.timeZone,
      baselineFrom: input.baselineFrom,
      baselineTo: input.baselineTo,
      updatedAt: new Date(),
    };
    const [row] = before
      ? await tx.update(alertThresholds).set(values).where(eq(alertThresholds.id, before.id)).returning()
      : await tx
          .insert(alertThresholds)
          .values({ ...values, ...t })
          .returning();
    await recordAudit(tx, actor, {
      action: before ? 'update' : 'create',
      entity: 'alertThresholds',
      entityId: row!.id,
      before: before ? { ...thresholdsOf(before), ...t } : null,
      after: { ...thresholdsOf(row), ...t },
    });
    return thresholdsOf(row);
  });
}
