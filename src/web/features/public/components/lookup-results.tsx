/**
 * What step 1 found: for one serial, the product with its ratings or "Serial Number Not Found"; for
 * several, each serial found or not found. The heading takes the focus, so a screen reader reads the answer.
 */
import { useEffect, useRef } from 'react';
import { productName } from '../../../../shared/product-name';
import { useT } from '../lib/public-i18n';
import type { LookupRow } from '../lib/lookup';
import { Alert, Icon } from './plain';
import { ProductFacts } from './product-facts';

/** "Did you mean BF300-000002?": a button that looks the suggested serial up. */
function Suggestion({ serial, onPick }: { serial: string; onPick?: (serial: string) => void }) {
  const { t } = useT();
  return (
    <div className="pp-suggestion" data-testid="did-you-mean">
      {t('search.lookup.didYouMean')}{' '}
      <button type="button" className="pp-button pp-button-outlined pp-button-small" onClick={() => onPick?.(serial)}>
        {serial}
      </button>
      {t('search.lookup.didYouMeanEnd')}
    </div>
  );
}

/** A found unit whose report cannot be sent yet: said at once, with whom to contact. */
function NotYet({ contact }: { contact?: string }) {
  const { t } = useT();
  return (
    <Alert severity="warning" testId="report-not-yet">
      {t('search.lookup.notYet')} {contact ? t('search.lookup.notYetContact', { contact }) : t('search.lookup.notYetNoContact')}
    </Alert>
  );
}

export function LookupResults({ rows, onPick, contact }: { rows: LookupRow[]; onPick?: (serial: string) => void; contact?: string }) {
  const { t, language } = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [rows]);
  const found = rows.filter((r) => r.found).length;
  const single = rows.length === 1 ? rows[0]! : null;

  return (
    <section className="pp-results" aria-labelledby="lookup-result-heading" data-testid="lookup-results">
      <h3 id="lookup-result-heading" ref={heading} tabIndex={-1} className="pp-h6 pp-result-heading">
        {single
          ? single.found
            ? productName(single.result.product, language)
            : t('search.lookup.notFound')
          : t('search.lookup.summary', { found, total: rows.length })}
      </h3>
      {single?.found && (
        <>
          <p className="pp-body2 pp-secondary pp-serial-line">
            {t('search.lookup.serialLabel')} <strong>{single.serial}</strong>
          </p>
          {single.result.certificate === 'not-yet' && <NotYet contact={contact} />}
          <ProductFacts result={single.result} />
        </>
      )}
      {single && !single.found && (
        <Alert severity="warning" testId="not-found">
          {t('search.lookup.notFoundText', { serial: single.serial })}
          {single.suggestion && <Suggestion serial={single.suggestion} onPick={onPick} />}
        </Alert>
      )}
      {!single && (
        <ul className="pp-rows">
          {rows.map((row) => (
            <li key={row.serial} className="pp-row" data-testid="lookup-row">
              {row.found ? <Icon name="checkCircle" className="pp-success" /> : <Icon name="highlightOff" className="pp-error" />}
              <div className="pp-row-text">
                <p className="pp-row-serial">{row.serial}</p>
                <p className={`pp-body2${row.found ? '' : ' pp-error'}`}>
                  {row.found ? productName(row.result.product, language) : t('search.lookup.notFound')}
                </p>
                {row.found && row.result.certificate === 'not-yet' && (
                  <p className="pp-body2 pp-secondary" data-testid="row-not-yet">
                    {t('search.lookup.notYetShort')}
                  </p>
                )}
                {!row.found && row.suggestion && <Suggestion serial={row.suggestion} onPick={onPick} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
