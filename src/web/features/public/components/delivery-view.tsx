/**
 * `/search?delivery=<token>`: the delivery a buyer's link opens (docs/product.md, "Orders and deliveries"):
 * customer, PO and delivery, and every unit with its newest certificate: the PDF, its verification on this
 * page (`/search?report=<id>`, as a report's QR code opens it) and earlier versions; all of them as one ZIP.
 * A table from 600 px, one card a unit below (public.css). Loaded only when the address names a delivery.
 */
import { useEffect, useRef, useState } from 'react';
import type { PublicDeliveryIndex } from '../../../../shared/contract/delivery-links';
import { formatDay, formatNumber } from '../../../components/format';
import { errorMessage } from '../../../lib/errors';
import { useT } from '../lib/public-i18n';
import { deliveryZipPath, fetchDelivery, isNotFound, unitPdfPath } from '../api';
import { Alert, ProgressBar } from './plain';
import { productName } from '../../../../shared/product-name';

type State =
  { kind: 'loading' } | { kind: 'found'; index: PublicDeliveryIndex } | { kind: 'not-found' } | { kind: 'failed'; message: string };

/** The page's address carries the token: it must not leave with a click on a link to another site. */
function useNoReferrer(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'referrer';
    meta.content = 'no-referrer';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

export default function DeliveryView({ token }: { token: string }) {
  const { t, language } = useT();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const heading = useRef<HTMLHeadingElement>(null);
  useNoReferrer();

  useEffect(() => {
    let live = true;
    fetchDelivery(token).then(
      (index) => live && setState({ kind: 'found', index }),
      (err: unknown) => live && setState(isNotFound(err) ? { kind: 'not-found' } : { kind: 'failed', message: errorMessage(t, err) }),
    );
    return () => {
      live = false;
    };
    // Asked again in another language: error messages are worded by the server.
  }, [token, language]);

  useEffect(() => {
    if (state.kind !== 'loading') heading.current?.focus();
  }, [state.kind]);

  if (state.kind === 'loading') return <ProgressBar loading label={t('app.loading')} />;
  if (state.kind !== 'found')
    return (
      <>
        <h3 ref={heading} tabIndex={-1} className="pp-h6 pp-result-heading">
          {t('search.delivery.notFoundTitle')}
        </h3>
        <Alert severity={state.kind === 'not-found' ? 'warning' : 'error'} role="alert" testId="delivery-not-found">
          {state.kind === 'not-found' ? t('search.delivery.notFound') : state.message}
        </Alert>
      </>
    );

  const { index } = state;
  return (
    <section aria-labelledby="delivery-heading" data-testid="delivery">
      <h3 id="delivery-heading" ref={heading} tabIndex={-1} className="pp-h6 pp-result-heading">
        {t('search.delivery.title', { number: index.delivery.number })}
      </h3>
      <dl className="pp-facts pp-delivery-facts">
        <div className="pp-fact">
          <dt className="pp-body2 pp-secondary">{t('search.delivery.customer')}</dt>
          <dd>{index.customer.name}</dd>
        </div>
        <div className="pp-fact">
          <dt className="pp-body2 pp-secondary">{t('search.delivery.purchaseOrder')}</dt>
          <dd>{index.purchaseOrder.number}</dd>
        </div>
        <div className="pp-fact">
          <dt className="pp-body2 pp-secondary">{t('search.delivery.date')}</dt>
          <dd>{formatDay(language, index.delivery.date)}</dd>
        </div>
        <div className="pp-fact">
          <dt className="pp-body2 pp-secondary">{t('search.delivery.units')}</dt>
          <dd>{formatNumber(language, index.units.length, 0)}</dd>
        </div>
      </dl>
      <p className="pp-delivery-download">
        <a className="pp-button pp-button-contained" href={deliveryZipPath(token)} download data-testid="delivery-zip">
          {t('search.delivery.downloadAll')}
        </a>
        <span className="pp-body2 pp-secondary">{t('search.delivery.downloadHint')}</span>
      </p>
      <UnitTable index={index} token={token} />
    </section>
  );
}

function UnitTable({ index, token }: { index: PublicDeliveryIndex; token: string }) {
  const { t, language } = useT();
  const col = (key: string) => t(`search.delivery.columns.${key}`);
  return (
    <table className="pp-units" data-testid="delivery-units">
      <thead>
        <tr>
          {['serial', 'tag', 'line', 'product', 'verdict', 'certificate', 'files'].map((k) => (
            <th key={k} scope="col">
              {col(k)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {index.units.map((u) => (
          <tr key={u.serial} data-testid="delivery-unit">
            <th scope="row" data-label={col('serial')} className="pp-unit-serial">
              {u.serial}
            </th>
            <td data-label={col('tag')}>{u.tag || '—'}</td>
            {/* one element a cell: on a phone the cell is a grid of its label and this */}
            <td data-label={col('line')}>
              <span>
                {u.line}
                {u.buyerItemCode && <span className="pp-secondary"> · {u.buyerItemCode}</span>}
              </span>
            </td>
            <td data-label={col('product')}>{productName({ name: u.product, nameZh: u.productZh }, language)}</td>
            <td data-label={col('verdict')} className={u.verdict === 'pass' ? 'pp-success' : 'pp-error'}>
              {t(`search.delivery.verdicts.${u.verdict}`, { defaultValue: u.verdict })}
            </td>
            <td data-label={col('certificate')}>
              <span>
                {u.reportNumber}
                {u.superseded.length > 0 && (
                  <span className="pp-body2 pp-secondary pp-unit-earlier">
                    {t('search.delivery.earlier', { numbers: u.superseded.map((s) => s.reportNumber).join(', ') })}
                  </span>
                )}
              </span>
            </td>
            <td data-label={col('files')} className="pp-unit-files">
              <span>
                <a href={`/api/v1/public/reports/${encodeURIComponent(u.reportId)}.pdf`} target="_blank" rel="noreferrer">
                  {t('search.delivery.pdf')}
                </a>
                <a href={`/search?report=${encodeURIComponent(u.reportId)}`}>{t('search.delivery.verify')}</a>
                <span className="pp-body2 pp-secondary pp-unit-renderings" data-testid="unit-renderings">
                  {t('search.delivery.renderings')}{' '}
                  <a href={unitPdfPath(token, u.serial, 'en')} lang="en" target="_blank" rel="noreferrer">
                    {t('app.languages.en')}
                  </a>
                  {' · '}
                  <a href={unitPdfPath(token, u.serial, 'zh')} lang="zh-Hant-TW" target="_blank" rel="noreferrer">
                    {t('app.languages.zh')}
                  </a>
                  {' · '}
                  <a
                    href={unitPdfPath(token, u.serial, 'bilingual')}
                    title={t('search.delivery.bilingualTitle')}
                    target="_blank"
                    rel="noreferrer"
                  >
                    {t('search.delivery.bilingual')}
                  </a>
                </span>
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
