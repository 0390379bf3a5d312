/**
 * The language switch of the screens: a button naming the other language (there are two), shown in that
 * language. Visitors keep the choice in the browser; for a signed-in user it is stored on the account too.
 */
import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../shared/i18n/index';
import { chooseLanguage } from '../lib/language';

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const other = (LANGUAGES.find((l) => l !== i18n.language) ?? 'en') as Language;
  return (
    <Button
      color="inherit"
      size="small"
      startIcon={<TranslateIcon />}
      onClick={() => void chooseLanguage(other)}
      title={t('app.language')}
      data-testid="language-switch"
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
    >
      <span lang={other}>{t(`app.languages.${other}`)}</span>
    </Button>
  );
}
