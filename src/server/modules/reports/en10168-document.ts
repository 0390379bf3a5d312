/**
 * The certificate as an EN 10168 document in the structure of the public material-identity EN 10168 JSON schema
 * (v0.5.0; docs/standards-sources.md "EN 10168", decision 0067): `RefSchemaUrl` and a `Certificate` of
 * CommercialTransaction (A), ProductDescription (B), OtherTests (D) and Validation (Z), so that a system that
 * reads such documents imports ours without a mapping of its own. The flat keys of test-report.json stay as
 * they are; this document repeats their content in the schema's shapes.
 *
 * Only what the product holds is written. The schema asks for things it does not hold, and those stay out
 * rather than being made up (decision 0067 lists them): an address's postcode, city and country until staff
 * give them apart, the manufacturer's mark when the logo is not a PNG, and the purchaser and order
 * on a certificate without an order. The material tests (C: chemistry, tensile, impact) are the mill's, on the
 * heat's own certificate, and not repeated here.
 */
import type { ReportLanguage } from '../../../shared/contract/reports';
import { isInspectionCertificate } from '../../../shared/contract/settings';
import { standardWithEdition, verdictText } from './format';
import type { ReportModel } from './report-model';

export const EN10168_SCHEMA_URL = 'https://schemas.materialidentity.org/en10168-schemas/v0.5.0/schema.json';

/** The schema's OtherProductTests take D51–D99: 49 entries. */
const OTHER_PRODUCT_TESTS = 49;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// The schema names its rendering languages by its own codes; the certificate's Chinese is "CN" there.
const LANGUAGES: Record<ReportLanguage, string[]> = { en: ['EN'], zh: ['CN'], bilingual: ['EN', 'CN'] };

type Json = Record<string, unknown>;

/**
 * A Company: its name, its address lines as `Street` (the schema takes one to three; a longer address's
 * remaining lines join the third), and its postcode, city and country where staff gave them apart (Settings,
 * the customer): the printed address keeps them inside its free lines, and splitting those would be a guess.
 */
function company(c: { name: string; address: string; postcode: string; city: string; country: string }): Json {
  const { name, address, country } = c;
  const lines = address
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const street = lines.length > 3 ? [...lines.slice(0, 2), lines.slice(2).join(', ')] : lines;
  return {
    Name: name,
    ...(street.length ? { Street: street } : {}),
    ...some('ZipCode', c.postcode),
    ...some('City', c.city),
    ...(country && /^[A-Z]{2}$/.test(country) ? { Country: country } : {}),
  };
}

/** A string field written only when there is something to write. */
const some = (key: string, v: string | null | undefined): Json => (v ? { [key]: v } : {});

function commercialTransaction(m: ReportModel): Json {
  const o = m.order;
  return {
    A01: company(m.company),
    A02: `EN 10204 ${m.documentType.slice(-3)}`,
    A03: m.number,
    // The manufacturer's mark: the schema takes it as a base64 PNG; a JPEG logo or none leaves it out.
    ...(m.company.logo && m.company.logo.subarray(0, 8).equals(PNG_SIGNATURE) ? { A04: m.company.logo.toString('base64') } : {}),
    A05: m.company.name,
    ...(o
      ? {
          A06: company(o.purchaser),
          A07: o.purchaseOrder.number,
          ...some('A09', o.item.buyerItemCode),
          A97: String(o.item.line),
          A98: o.delivery.number,
        }
      : {}),
  };
}

function productDescription(m: ReportModel): Json {
  const p = m.product;
  // B02 as text (the schema's second form; the first, with norms and a B09 shape, is for mill products).
  const properties = [
    p.valveType,
    p.nominalSize !== null ? `DN ${p.nominalSize}` : null,
    p.pressureClass || null,
    p.seatType ? `seat ${p.seatType}` : null,
    ...m.materials.map((x) => {
      const material = x.material ?? x.heat?.material ?? null;
      return material ? `${x.part} ${material}` : null;
    }),
  ].filter((x): x is string => Boolean(x));
  if (!m.materials.length && m.bodyMaterial) properties.push(`body ${m.bodyMaterial}`);
  const heats = m.materials.filter((x) => x.heat).map((x) => `${x.part} heat ${x.heat!.number}`);
  const requirements = [
    m.standard ? standardWithEdition('en', m.standard) : null,
    p.leakageRate ? `leakage rate ${p.leakageRate}` : null,
  ].filter((x): x is string => Boolean(x));
  return {
    B01: p.name,
    B02: properties.join('; '),
    ...(requirements.length ? { B03: requirements.join('; ') } : {}),
    B06: m.order?.tag ? `${m.serial}; tag ${m.order.tag}` : m.serial,
    B07: [m.serial, ...heats].join('; '),
    B08: 1,
  };
}

/** Each pressure test (D50–D99 are "other product tests"): its test pressure, and the measured leakage if any. */
function otherTests(m: ReportModel): Json | null {
  const method = m.standard ? standardWithEdition('en', m.standard) : null;
  const entries: Json[] = [];
  for (const x of m.tests) {
    const common = { Interpretation: verdictText(m.language, x), ...some('Method', method) };
    entries.push({ Key: `${x.testType} test pressure`, Value: String(x.testPressure), Unit: 'MPa', Type: 'number', ...common });
    if (x.leakageValue !== null) {
      entries.push({
        Key: `${x.testType} test leakage`,
        Value: String(x.leakageValue),
        ...some('Unit', x.leakageUnit),
        Type: 'number',
        ...common,
      });
    }
  }
  if (!entries.length) return null;
  // More than 49 entries (not seen on one valve) do not fit the designated codes: the flat D51_pressureTests has all.
  const codes = entries.slice(0, OTHER_PRODUCT_TESTS).map((e, i) => [`D${51 + i}`, e] as const);
  return { OtherProductTests: Object.fromEntries(codes) };
}

function validation(m: ReportModel): Json {
  const inspection = isInspectionCertificate(m.documentType);
  const witness = m.order?.witness;
  const supplementary: Json = {};
  if (witness) {
    supplementary.Z05 = {
      Key: 'Witness',
      Value: `${witness.name}, ${witness.organisation}`,
      Interpretation: witness.witnessedOn,
      Type: 'string',
    };
  }
  return {
    Z01: m.statement,
    Z02: m.issuedAt.toISOString().slice(0, 10),
    // The inspection representative with the title the release recorded (the schema asks for both).
    ...(inspection && m.release ? { Z03: { Name: m.inspectorName, Title: m.release.title } } : {}),
    ...(Object.keys(supplementary).length ? { SupplementaryInformation: supplementary } : {}),
  };
}

export function en10168Document(m: ReportModel): Json {
  const tests = otherTests(m);
  return {
    RefSchemaUrl: EN10168_SCHEMA_URL,
    Certificate: {
      CertificateLanguages: LANGUAGES[m.language],
      CommercialTransaction: commercialTransaction(m),
      ProductDescription: productDescription(m),
      ...(tests ? { OtherTests: tests } : {}),
      Validation: validation(m),
    },
  };
}
