/** The top of the public page: the manufacturer's logo and name (from settings) and the language switch. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { PublicSettings } from '../../../../shared/contract/settings';
import { Brand } from '../../../components/brand';
import { LanguageMenu } from '../../../components/language-menu';

export function PublicHeader({ site }: { site: PublicSettings | null }) {
  const { t } = useTranslation();
  return (
    <Box
      component="header"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        px: { xs: 2, sm: 3 },
        py: 1.25,
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {site?.logoUrl ? (
        <Box component="img" src={site.logoUrl} alt="" sx={{ height: 32, maxWidth: 120, objectFit: 'contain' }} />
      ) : (
        <Brand compact />
      )}
      <Typography component="p" sx={{ fontWeight: 700, flex: 1, minWidth: 0 }} noWrap data-testid="company-name">
        {site?.companyName || t('app.title')}
      </Typography>
      <LanguageMenu />
    </Box>
  );
}
