/**
 * Choosing the interface language. Visitors keep it in the browser; the staff app registers a handler
 * that also stores it on the signed-in user's account (so a new sign-in elsewhere brings it back).
 */
import type { Language } from '../../shared/i18n/index';
import { changeLanguage } from './i18n';

type ChoiceHandler = (language: Language) => Promise<void> | void;
let onChosen: ChoiceHandler | undefined;

export function setLanguageChoiceHandler(handler: ChoiceHandler | undefined): void {
  onChosen = handler;
}

export async function chooseLanguage(language: Language): Promise<void> {
  await changeLanguage(language);
  await onChosen?.(language);
}
