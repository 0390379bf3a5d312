/**
 * A test's requirement as the API, the report and its JSON show it (`TestRequirementView` of
 * src/shared/contract/machine-data.ts): the standard's name and edition beside the figures. One mapping
 * for every place that shows one, whether the figures come from the derivation (requirement.ts) or from
 * the stored rows of `product_requirements`.
 */
import type { PressureBasis, TestRequirement } from './requirement';
import type { StandardEdition } from './types';

export interface RequirementView {
  standard: StandardEdition['id'];
  standardName: string;
  edition: string;
  /** the kept edition's key ('10', '8'), to name it in another language */
  editionKey: string;
  required: boolean;
  pressureMin: number | null;
  pressureMax: number | null;
  unrated: boolean;
  /** how pressureMin follows from the rating ("1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3.0 MPa") */
  pressureBasis: PressureBasis | null;
  holdMin: number;
  /** no source available confirms holdMin: printed with a mark and a note */
  holdUnconfirmed: boolean;
  leakageKind: TestRequirement['leakage']['kind'];
  leakageMax: number | null;
}

/** The edition's wording in `language` (zh: Traditional Chinese; any other: English), as the registry holds both. */
export function editionIn(standard: Pick<StandardEdition, 'edition' | 'editionZh'>, language: string): string {
  return language === 'zh' ? standard.editionZh : standard.edition;
}

/** `language` picks the edition's wording (the report is written in one language; the API uses en). */
export function toRequirementView(
  standard: StandardEdition,
  test: Omit<TestRequirement, 'testType' | 'fluidTemperature'>,
  language: 'en' | 'zh' = 'en',
): RequirementView {
  return {
    standard: standard.id,
    standardName: standard.name,
    edition: editionIn(standard, language),
    editionKey: standard.editionKey,
    required: test.required,
    pressureMin: test.pressureMin,
    pressureMax: test.pressureMax,
    unrated: test.unrated,
    pressureBasis: test.pressureBasis,
    holdMin: test.holdMin,
    holdUnconfirmed: test.holdUnconfirmed,
    leakageKind: test.leakage.kind,
    leakageMax: test.leakage.max,
  };
}
