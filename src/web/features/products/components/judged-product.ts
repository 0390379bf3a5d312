/**
 * What the requirement depends on, read from the product form's text as it is typed: each field through
 * its own rule of the shared schema, so that the live requirement reads a value exactly as saving would;
 * a value that is not valid yet counts as not set.
 */
import { productFields, type PRODUCT_FIELDS } from '../../../../shared/contract/products';
import type { JudgedProduct } from '../../../../shared/standards/requirement';

export type ProductFormValues = Record<Exclude<(typeof PRODUCT_FIELDS)[number], 'bidirectional'>, string> & {
  /** a checkbox: the valve seals in both directions */
  bidirectional: boolean;
  /** the edition the product is tested to, where its standard keeps more than one ('' = in force on each test's day) */
  testEdition?: string;
};

type JudgedField = keyof JudgedProduct;

function read<K extends JudgedField>(name: K, value: string | undefined): JudgedProduct[K] | null {
  const result = productFields.shape[name].safeParse(value ?? '');
  return result.success ? (result.data as JudgedProduct[K]) : null;
}

export function judgedFromForm(v: Partial<ProductFormValues>): JudgedProduct {
  return {
    testStandard: read('testStandard', v.testStandard) ?? '',
    valveType: read('valveType', v.valveType),
    nominalSize: read('nominalSize', v.nominalSize),
    seatType: read('seatType', v.seatType),
    leakageRate: read('leakageRate', v.leakageRate),
    testEdition: read('testEdition', v.testEdition) ?? '',
    pressureClass: read('pressureClass', v.pressureClass) ?? '',
    pressureFc: read('pressureFc', v.pressureFc),
    pressureWcb: read('pressureWcb', v.pressureWcb),
    pressureSus: read('pressureSus', v.pressureSus),
  };
}
