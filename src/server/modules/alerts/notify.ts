/**
 * What an alert sets going when it is raised or acknowledged, in the same transaction: the emails of users
 * who chose them at once, and the staff webhooks' events.
 */
import type { AlertSinks } from './raise';
import { mailAlertNow } from './alert-mail';

export function alertSinks(deps: { baseUrl: string }): AlertSinks {
  return {
    async raised(tx, alert) {
      await mailAlertNow(tx, alert, deps.baseUrl);
    },
    async acknowledged() {},
  };
}
