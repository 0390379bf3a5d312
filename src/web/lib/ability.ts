/** CASL abilities of the signed-in user, from the rules `/auth/me` returns (defined once in src/shared/abilities.ts). */
import { AbilityProvider, Can, useAbility } from '@casl/react';
import { abilityFromRules, type AppAbility } from '../../shared/abilities';

export const NO_ABILITIES: AppAbility = abilityFromRules([]);
export { AbilityProvider, Can };

export function useAppAbility(): AppAbility {
  return useAbility<AppAbility>() ?? NO_ABILITIES;
}

export function abilityFromMe(me: { abilities: Record<string, unknown>[] } | null | undefined): AppAbility {
  if (!me) return NO_ABILITIES;
  return abilityFromRules(me.abilities as unknown as AppAbility['rules']);
}
