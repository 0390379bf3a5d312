/**
 * The rules of webhook endpoints: where they may point (https, not the product itself, not an address the
 * SSRF guard refuses), who they are for (a customer's endpoint takes that customer's events only), the
 * secret shown once, and every change audited without it (docs/decisions/0066-webhooks.md).
 */
import type { z } from 'zod';
import {
  webhookInput,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookUpdateValues,
  type WebhookValues,
  type WebhookWithSecret,
} from '../../../shared/contract/webhooks';
import { AppError } from '../../../shared/errors';
import type { Db } from '../../db/client';
import type { WebhookEndpointRow } from '../../db/schema/index';
import { isUuid } from '../../db/errors';
import { recordAudit, type AuditActor } from '../audit/audit.writer';
import { failWaiting } from './deliveries.repo';
import { enqueueTestEvent } from './events';
import { newSecret } from './signature';
import { isMetadataHost, literalAddress, refusal } from './ssrf-guard';
import * as repo from './webhooks.repo';

export const WEBHOOK_ENTITY = 'webhook';

/** What the rules of a target depend on: the operator's settings and the product's own host names. */
export interface TargetRules {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** host names of the product itself (its public base URL, the request's host) */
  selfHosts: string[];
}

function notFound(): AppError {
  return new AppError('not-found', 'webhooks.notFound');
}

function fieldError(field: string, key: string): AppError {
  return new AppError('invalid-argument', 'errors.invalidRequest', { fields: [{ field, key }] });
}

const bare = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

/** Why this URL may not be an endpoint, as a field error key, or null. DNS is the sender's to check, at each request. */
export function urlProblem(url: string, rules: TargetRules): string | null {
  const u = new URL(url);
  if (u.protocol !== 'https:' && !rules.allowHttp) return 'webhooks.validation.httpsRequired';
  const host = bare(u.hostname);
  if (rules.selfHosts.some((h) => bare(h) === host)) return 'webhooks.validation.selfUrl';
  if (isMetadataHost(host)) return 'webhooks.validation.blockedAddress';
  const literal = literalAddress(host);
  if (literal && refusal(literal, { allowPrivate: rules.allowPrivate })) return 'webhooks.validation.blockedAddress';
  return null;
}

/** What the audit log keeps: everything but the secret. */
function auditShape(row: WebhookEndpointRow): Record<string, unknown> {
  return {
    url: row.url,
    description: row.description,
    events: row.events,
    customerId: row.customerId,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
  };
}

async function checked(db: Db, v: WebhookValues, rules: TargetRules): Promise<void> {
  const problem = urlProblem(v.url, rules);
  if (problem) throw fieldError('url', problem);
  if (v.customerId && !(await repo.customerExists(db, v.customerId))) throw fieldError('customerId', 'webhooks.validation.customer');
}

async function shown(db: Db, row: WebhookEndpointRow): Promise<WebhookEndpoint> {
  return repo.toEndpoint(row, await repo.customerName(db, row.customerId));
}

async function rowOf(db: Db, id: string, forUpdate = false): Promise<WebhookEndpointRow> {
  const row = isUuid(id) ? await repo.findEndpoint(db, id, forUpdate) : undefined;
  if (!row) throw notFound();
  return row;
}

export async function listWebhooks(db: Db): Promise<WebhookEndpoint[]> {
  return repo.listEndpoints(db);
}

export async function getWebhook(db: Db, id: string): Promise<WebhookEndpoint> {
  return shown(db, await rowOf(db, id));
}

export async function createWebhook(db: Db, actor: AuditActor, v: WebhookValues, rules: TargetRules): Promise<WebhookWithSecret> {
  await checked(db, v, rules);
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    const created = await repo.insertEndpoint(tx, { ...v, secret });
    await recordAudit(tx, actor, { action: 'create', entity: WEBHOOK_ENTITY, entityId: created.id, after: auditShape(created) });
    return created;
  });
  return { ...(await shown(db, row)), secret };
}

/** The endpoint after a change must meet the whole form's rules: a customer's events need the customer, and the reverse. */
function merged(before: WebhookEndpointRow, v: WebhookUpdateValues): WebhookValues {
  const parsed = webhookInput.safeParse({
    url: v.url ?? before.url,
    events: v.events ?? before.events,
    customerId: v.customerId === undefined ? before.customerId : v.customerId || null,
    description: v.description ?? before.description,
    enabled: v.enabled ?? before.enabled,
  });
  if (parsed.success) return parsed.data;
  throw new AppError('invalid-argument', 'errors.invalidRequest', {
    fields: parsed.error.issues.map((i: z.core.$ZodIssue) => ({ field: i.path.join('.'), key: i.message })),
  });
}

export async function updateWebhook(
  db: Db,
  actor: AuditActor,
  id: string,
  v: WebhookUpdateValues,
  rules: TargetRules,
): Promise<WebhookEndpoint> {
  const current = await rowOf(db, id);
  const next = merged(current, v);
  await checked(db, next, rules);
  const row = await db.transaction(async (tx) => {
    const before = await rowOf(tx as Db, id, true);
    const enabling = next.enabled && !before.enabled;
    const disabling = !next.enabled && before.enabled;
    const after = await repo.updateEndpoint(tx, id, {
      url: next.url,
      description: next.description,
      events: next.events,
      customerId: next.customerId,
      enabled: next.enabled,
      // Enabled again: a fresh start, so the old run of failures does not switch it off at the next one.
      ...(enabling ? { disabledReason: null, resetFailures: true } : {}),
      ...(disabling ? { disabledReason: 'disabled by an administrator' } : {}),
    });
    if (disabling) await failWaiting(tx, id, 'disabled by an administrator');
    await recordAudit(tx, actor, {
      action: 'update',
      entity: WEBHOOK_ENTITY,
      entityId: id,
      before: auditShape(before),
      after: auditShape(after),
    });
    return after;
  });
  return shown(db, row);
}

export async function deleteWebhook(db: Db, actor: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await rowOf(tx as Db, id, true);
    await repo.deleteEndpoint(tx, id);
    await recordAudit(tx, actor, { action: 'delete', entity: WEBHOOK_ENTITY, entityId: id, before: auditShape(before) });
  });
}

/** A new secret, answered once; the old one stops signing at once (the receiver must be given the new one). */
export async function rotateSecret(db: Db, actor: AuditActor, id: string): Promise<WebhookWithSecret> {
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    const before = await rowOf(tx as Db, id, true);
    const after = await repo.updateEndpoint(tx, id, { secret });
    await recordAudit(tx, actor, {
      action: 'rotate-secret',
      entity: WEBHOOK_ENTITY,
      entityId: id,
      before: auditShape(before),
      after: auditShape(after),
    });
    return after;
  });
  return { ...(await shown(db, row)), secret };
}

export async function sendTestEvent(db: Db, actor: AuditActor, id: string): Promise<{ eventId: string }> {
  return db.transaction(async (tx) => {
    const endpoint = await rowOf(tx as Db, id);
    if (!endpoint.enabled) throw new AppError('failed-precondition', 'webhooks.disabledNoTest');
    const eventId = await enqueueTestEvent(tx, endpoint);
    await recordAudit(tx, actor, { action: 'test', entity: WEBHOOK_ENTITY, entityId: id, after: { eventId } });
    return { eventId };
  });
}

export async function listDeliveries(
  db: Db,
  id: string,
  q: { page: number; pageSize: number },
): Promise<{ items: WebhookAttempt[]; total: number }> {
  await rowOf(db, id);
  return repo.listAttempts(db, id, { limit: q.pageSize, offset: (q.page - 1) * q.pageSize });
}
