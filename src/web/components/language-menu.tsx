/** The language switch: for a visitor it is stored in the browser, for a signed-in user on the account too. */
import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../shared/i18n/index';
import { useSetLanguage } from '../lib/use-set-language';

export function LanguageMenu({ variant = 'icon' }: { variant?: 'icon' | 'text' }) {
  const { t, i18n } = useTranslation();
  const setLanguage = useSetLanguage();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (l: Language) => {
    setAnchor(null);
    void setLanguage(l);
  };
  return (
    <>
      {variant === 'icon' ? (
        <Tooltip title={t('app.language')}>
          <IconButton aria-label={t('app.language')} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)} color="inherit">
            <TranslateIcon />
          </IconButton>
        </Tooltip>
      ) : (
        <Button startIcon={<TranslateIcon />} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)} color="inherit">
          {t(`app.languages.${i18n.language}`)}
        </Button>
      )}
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((l) => (
          <MenuItem key={l} selected={i18n.language === l} onClick={() => choose(l)} lang={l}>
            {t(`app.languages.${l}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
