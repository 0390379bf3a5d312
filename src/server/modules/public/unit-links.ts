/**
 * What a unit's identification link answers a machine (docs/decisions/0061-identification-link.md), built
 * from the public lookup's answer and nothing else, so that it tells no more than the lookup does (no
 * purchaser, order or certificate id):
 * - a linkset (RFC 9264, its JSON form `application/linkset+json`) naming the public page, where the unit's
 *   test certificate is requested, the verifier and the data sheet, with GS1 Web Vocabulary link types;
 * - the data sheet, JSON-LD: a schema.org `Product` with the unit's serial, GTIN, ratings and production date.
 * Their anchor is the unit's identification link: the GS1 Digital Link when its product has a GTIN.
 */
import type { LookupResult } from '../../../shared/contract/public';
import { identificationLink, originOf } from '../../../shared/identification';

/** A target of a link (RFC 9264 §4.2.4): `href` and the attributes that describe it. */
export interface LinkTarget {
  href: string;
  type?: string;
  hreflang?: string[];
  title?: string;
  'title*'?: Array<{ value: string; language: string }>;
}

export interface Linkset {
  linkset: Array<{ anchor: string } & Record<string, string | LinkTarget[]>>;
}

const GS1 = 'https://gs1.org/voc/';
/** The languages the public page and the certificates are in. */
const LANGUAGES = ['en', 'zh-Hant-TW'];

/** The public page of a serial: it looks the serial up at once, in the visitor's language. */
export function publicPageOf(publicBaseUrl: string, serial: string): string {
  return `${originOf(publicBaseUrl)}/search?serial=${encodeURIComponent(serial)}`;
}

/** The unit's identification link: its GS1 Digital Link when its product has a GTIN, else `/id/<serial>`. */
function linkOf(publicBaseUrl: string, unit: LookupResult): string {
  return identificationLink(publicBaseUrl, unit.serial, unit.product.gtin);
}

/** The data sheet's address: the identification link asked for the GS1 link type "master data". */
export function dataSheetOf(publicBaseUrl: string, unit: LookupResult): string {
  return `${linkOf(publicBaseUrl, unit)}?linkType=gs1:masterData`;
}

function titled(en: string, zh: string): Pick<LinkTarget, 'title' | 'title*'> {
  return { title: en, 'title*': [{ value: zh, language: 'zh-Hant-TW' }] };
}

/** The unit's linkset: one context (the identification link) and its typed links. */
export function unitLinkset(publicBaseUrl: string, unit: LookupResult): Linkset {
  const page = publicPageOf(publicBaseUrl, unit.serial);
  const html = { type: 'text/html', hreflang: LANGUAGES };
  const pageLink: LinkTarget = { href: page, ...html, ...titled('Product and test certificate', '產品與測試報告') };
  const dataSheet = dataSheetOf(publicBaseUrl, unit);
  return {
    linkset: [
      {
        anchor: linkOf(publicBaseUrl, unit),
        [`${GS1}defaultLink`]: [pageLink],
        [`${GS1}pip`]: [pageLink],
        // The certificate itself is sent by email from the public page (its requests are limited and
        // recorded); the link says where, not the file (the decision record says why).
        [`${GS1}certificationInfo`]: [
          { href: page, ...html, ...titled('Request the test certificate by email', '以電子郵件索取測試報告') },
        ],
        [`${GS1}verificationService`]: [
          {
            href: `${originOf(publicBaseUrl)}/search`,
            ...html,
            ...titled('Verify a certificate: its file, code or link', '驗證報告：檔案、驗證碼或連結'),
          },
        ],
        [`${GS1}masterData`]: [{ href: dataSheet, type: 'application/ld+json', ...titled('Product data sheet', '產品資料表') }],
        describedby: [{ href: dataSheet, type: 'application/ld+json' }],
      },
    ],
  };
}

/**
 * The ratings a data sheet states, one table: the lookup's field, its name and its unit as UN/CEFACT common
 * codes (schema.org's unitCode asks for them: MPa is MPA, degrees Celsius CEL).
 */
const RATINGS = [
  ['pressureFc', 'Rated pressure, grey cast iron (FC)', 'MPA', 'MPa'],
  ['pressureWcb', 'Rated pressure, cast carbon steel (WCB)', 'MPA', 'MPa'],
  ['pressureSus', 'Rated pressure, stainless steel (SUS)', 'MPA', 'MPa'],
  ['temperatureMax', 'Maximum temperature', 'CEL', '°C'],
  ['temperatureMin', 'Minimum temperature', 'CEL', '°C'],
] as const satisfies ReadonlyArray<readonly [keyof LookupResult['product'], string, string, string]>;

/** The unit's data sheet as schema.org JSON-LD: what the public lookup shows, in both languages. */
export function unitDataSheet(publicBaseUrl: string, unit: LookupResult): Record<string, unknown> {
  const p = unit.product;
  const ratings = RATINGS.flatMap(([field, name, unitCode, unitText]) => {
    const value = p[field];
    return value === null || value === undefined ? [] : [{ name, value, unitCode, unitText }];
  });
  const both = (en: string | null | undefined, zh: string | null | undefined) =>
    [en ? { '@value': en, '@language': 'en' } : null, zh ? { '@value': zh, '@language': 'zh-Hant-TW' } : null].filter((x) => x !== null);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': linkOf(publicBaseUrl, unit),
    url: publicPageOf(publicBaseUrl, unit.serial),
    serialNumber: unit.serial,
    // schema.org's gtin takes any of the GTIN lengths; the GTIN-14 is the one the link carries.
    ...(p.gtin ? { gtin: p.gtin } : {}),
    name: both(p.name, p.nameZh),
    productionDate: unit.productionDate,
    additionalProperty: [
      { '@type': 'PropertyValue', name: 'Fluid', value: p.fluid },
      ...(p.connection || p.connectionZh
        ? [{ '@type': 'PropertyValue', name: 'Connection', value: both(p.connection, p.connectionZh) }]
        : []),
      ...(p.application || p.applicationZh
        ? [{ '@type': 'PropertyValue', name: 'Application', value: both(p.application, p.applicationZh) }]
        : []),
      ...(p.applicationMedium || p.applicationMediumZh
        ? [{ '@type': 'PropertyValue', name: 'Medium', value: both(p.applicationMedium, p.applicationMediumZh) }]
        : []),
      ...ratings.map((r) => ({ '@type': 'PropertyValue', ...r })),
    ],
  };
}
