/**
 * Issuing a delivery unit's certificate from a route or the background release: through the app's report
 * pool (a one-job reservation each, so that visitors' reports keep their room), with the app's link origin
 * and recently used PDFs.
 */
import type { FastifyInstance } from 'fastify';
import { issueReport } from '../reports/issue';
import { renderThrough } from '../reports/render-job';
import type { IssueWithOrder } from './release.service';

export function orderIssuer(app: FastifyInstance): IssueWithOrder {
  const render = renderThrough((input, transfer) => app.ctx.reportPool.run(input, transfer));
  return (db, input) => issueReport(db, { ...input, publicBaseUrl: app.ctx.config.publicBaseUrl, render, pdfs: app.ctx.pdfs });
}
