/** A found unit as step 1 shows it: product name, its ratings with units, and the production date. */
import { formatDay, formatNumber } from '../../../components/format';
import { useT, type Translate } from '../lib/public-i18n';
import type { LookupResult } from '../lib/public-types';
import { productText } from '../../../../shared/product-name';

type Fact = [label: string, value: string];

/** A YYYY-MM-DD date as that day everywhere: read as UTC midnight, shown in UTC (not the visitor's zone). */
export function calendarDate(lang: string, ymd: string): string {
  return formatDay(lang, ymd.slice(0, 10));
}

function facts(t: Translate, lang: string, r: LookupResult): Fact[] {
  const p = r.product;
  const mpa = (n: number | null | undefined) => (n == null ? null : `${formatNumber(lang, n)} MPa`);
  const out: Array<[string, string | null | undefined]> = [
    ['search.product.fluid', p.fluid ? t(`search.fluids.${p.fluid}`, { defaultValue: p.fluid }) : null],
    ['search.product.connection', productText(p, 'connection', lang)],
    ['search.product.application', productText(p, 'application', lang)],
    ['search.product.applicationMedium', productText(p, 'applicationMedium', lang)],
    ['search.product.pressureFc', mpa(p.pressureFc)],
    ['search.product.pressureWcb', mpa(p.pressureWcb)],
    ['search.product.pressureSus', mpa(p.pressureSus)],
    ['search.product.temperatureMax', p.temperatureMax == null ? null : `${formatNumber(lang, p.temperatureMax)} °C`],
    ['search.product.temperatureMin', p.temperatureMin == null ? null : `${formatNumber(lang, p.temperatureMin)} °C`],
    ['search.product.productionDate', r.productionDate ? calendarDate(lang, r.productionDate) : null],
  ];
  return out.filter((f): f is Fact => !!f[1]).map(([k, v]) => [t(k), v]);
}

/** A definition list of label–value pairs, two columns from 600 px, one on a phone (public.css). */
export function FactList({ items }: { items: Fact[] }) {
  return (
    <dl className="pp-facts">
      {items.map(([label, value]) => (
        <div key={label} className="pp-fact">
          <dt className="pp-body2 pp-secondary">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ProductFacts({ result }: { result: LookupResult }) {
  const { t, language } = useT();
  return <FactList items={facts(t, language, result)} />;
}
