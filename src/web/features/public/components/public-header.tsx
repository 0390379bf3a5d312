/** The top of the public page: the manufacturer's logo and name (from settings) and the language switch. */
import type { PublicSettings } from '../../../../shared/contract/settings';
import { LANGUAGES, type Language } from '../../../../shared/i18n/languages';
import { LOGO_HEIGHT } from '../../../lib/constants';
import { useEarlyTap } from '../lib/use-early-tap';
import { chooseLanguage, useT } from '../lib/public-i18n';
import { Icon } from './plain';

/** The language switch: a button naming the other language (there are two), in that language. */
export function LanguageSwitch() {
  const { t, language } = useT();
  const other = (LANGUAGES.find((l) => l !== language) ?? 'en') as Language;
  // Tapped before the page was hydrated: switched now, to the language the button named then.
  useEarlyTap('language', () => void chooseLanguage(other));
  return (
    <button
      type="button"
      className="pp-button pp-button-text"
      onClick={() => void chooseLanguage(other)}
      title={t('app.language')}
      data-testid="language-switch"
      data-early-tap="language"
    >
      <Icon name="translate" className="pp-button-icon" />
      <span lang={other}>{t(`app.languages.${other}`)}</span>
    </button>
  );
}

export function PublicHeader({ site }: { site: PublicSettings | null }) {
  const { t } = useT();
  return (
    <header className="pp-header">
      {site?.logoUrl ? (
        <img className="pp-logo" src={site.logoUrl} alt="" />
      ) : (
        <svg viewBox="0 0 32 32" width={LOGO_HEIGHT} height={LOGO_HEIGHT} className="pp-brand" aria-hidden="true">
          <rect width="32" height="32" rx="6" fill="#c62828" />
          <path d="M9 9h14v3h-5.5v12h-3V12H9z" fill="#fff" />
        </svg>
      )}
      <p className="pp-company" data-testid="company-name">
        {site?.companyName || t('app.title')}
      </p>
      <LanguageSwitch />
    </header>
  );
}
