/** The top of the public page: the manufacturer's logo and name (from settings) and the language switch. */
import type { PublicSettings } from '../../../../shared/contract/settings';
import { LANGUAGES, type Language } from '../../../../shared/i18n/languages';
import { useEarlyTap } from '../lib/use-early-tap';
import { chooseLanguage, useT } from '../lib/public-i18n';
import { Icon, LogoMark } from './plain';

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
      {site?.logoUrl ? <img className="pp-logo" src={site.logoUrl} alt="" /> : <LogoMark />}
      <p className="pp-company" data-testid="company-name">
        {site?.companyName || t('app.title')}
      </p>
      <LanguageSwitch />
    </header>
  );
}
