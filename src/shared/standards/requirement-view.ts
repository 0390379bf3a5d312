/**
 * A test's requirement as the API, the report and its JSON show it (`TestRequirementView` of
 * src/shared/contract/machine-data.ts): the standard's name and edition beside the figures. One mapping
 * for every place that shows one, whether the figures come from the derivation (requirement.ts) or from
 * the stored rows of `product_requirements`.
 */
import type { TestRequirement } from './requirement';
import type { StandardEdition } from './types';

export interface RequirementView {
  standard: StandardEdition['id'];
  standardName: string;
  edition: string;
  required: boolean;
  pressureMin: number | null;
  pressureMax: number | null;
  unrated: boolean;
  holdMin: number;
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
  test: Omit<TestRequirement, 'testType'>,
  language: 'en' | 'zh' = 'en',
): RequirementView {
  return {
    standard: standard.id,
    standardName: standard.name,
    edition: editionIn(standard, language),
    required: test.required,
    pressureMin: test.pressureMin,
    pressureMax: test.pressureMax,
    unrated: test.unrated,
    holdMin: test.holdMin,
    leakageKind: test.leakage.kind,
    leakageMax: test.leakage.max,
  };
}
