/**
 * What an alert sets going when it is raised or acknowledged, in the same transaction: the emails of users
 * who chose them at once, and the staff webhooks' events (`alert.raised`, `alert.acknowledged`, and
 * `record.disagreement` beside a disagreement's alert). Receiving systems get the English summary, ids and
 * links into the product, never the records themselves.
 */
import type { Executor } from '../../db/client';
import type { AlertRow, WebhookEndpointRow } from '../../db/schema/index';
import type { AlertDetail } from '../../../shared/contract/alerts';
import { enqueueWebhookEvent } from '../webhooks/events';
import { mailAlertNow, namesOf, type AlertNames } from './alert-mail';
import { linksOf, summaryOf } from './alerts.service';
import { raiseAlert, type AlertSinks } from './raise';

async function webhookOf(tx: Executor, type: 'alert.raised' | 'alert.acknowledged', a: AlertRow, names: AlertNames): Promise<void> {
  const detail = a.detail as AlertDetail;
  const summary = summaryOf('en', a, detail, names);
  const links = { alert: `/alerts?kind=${a.kind}`, ...linksOf(a, detail) };
  const facts = {
    alertId: a.id,
    kind: a.kind,
    status: a.status,
    raisedAt: a.raisedAt.toISOString(),
    productId: a.productId,
    machineId: a.machineId,
    serial: a.serial,
    ...(type === 'alert.acknowledged' ? { acknowledgedAt: a.acknowledgedAt?.toISOString() ?? null, cause: a.cause, action: a.action } : {}),
  };
  await enqueueWebhookEvent(tx, { type, summary, data: facts, links });
  if (type === 'alert.raised' && a.kind === 'disagreement' && a.recordId !== null) {
    await enqueueWebhookEvent(tx, {
      type: 'record.disagreement',
      summary,
      data: {
        recordId: String(a.recordId),
        serial: a.serial,
        productId: a.productId,
        machineId: a.machineId,
        testType: detail.testType ?? null,
        reasons: detail.reasons ?? [],
      },
      links,
    });
  }
}

export function alertSinks(deps: { baseUrl: string }): AlertSinks {
  return {
    async raised(tx, alert) {
      // The names are read once for the emails and the webhook's summary.
      const names = await namesOf(tx, alert);
      await mailAlertNow(tx, alert, names, deps.baseUrl);
      await webhookOf(tx, 'alert.raised', alert, names);
    },
    async acknowledged(tx, alert) {
      await webhookOf(tx, 'alert.acknowledged', alert, await namesOf(tx, alert));
    },
  };
}

/** The webhook worker's callback: an endpoint switched off after failing for a day raises an alert. */
export function alertOnDisabledEndpoint(sinks: AlertSinks) {
  return async (tx: Executor, endpoint: WebhookEndpointRow): Promise<void> => {
    await raiseAlert(
      tx,
      {
        kind: 'webhookDisabled',
        dedupeKey: `webhookDisabled:${endpoint.id}:${endpoint.disabledAt?.toISOString() ?? new Date().toISOString()}`,
        detail: { webhookId: endpoint.id, url: endpoint.url },
      },
      sinks,
    );
  };
}
