/**
 * Why the release gate holds a unit for its materials, in words: "Body: no heat assigned", "Bonnet: heat
 * W24-1190 is on hold" (docs/decisions/0053-materials-and-heats.md). The held panel and the delivery gate
 * say it alike.
 */
import type { TFunction } from 'i18next';

export function untracedText(t: TFunction, h: { part?: string; heat?: string | null }): string {
  const part = t(`materials.parts.${h.part ?? 'body'}`);
  return h.heat ? t('materials.held.heatOnHold', { part, heat: h.heat }) : t('materials.held.noHeat', { part });
}
