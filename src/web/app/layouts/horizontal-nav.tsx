/** The horizontal navigation: a row of links under the navbar (1280 px and wider). */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useIsNavActive, useNavItems, type NavItem } from './nav-items';

function HorizontalNavLink({ item }: { item: NavItem }) {
  const { t } = useTranslation();
  const active = useIsNavActive(item.to);
  return (
    <Button
      component={RouterLink}
      to={item.to}
      startIcon={item.icon}
      aria-current={active ? 'page' : undefined}
      variant={active ? 'contained' : 'text'}
      color={active ? 'primary' : 'inherit'}
      sx={{ whiteSpace: 'nowrap', px: 2 }}
    >
      {t(item.label)}
    </Button>
  );
}

export function HorizontalNav() {
  const { t } = useTranslation();
  const items = useNavItems();
  return (
    <Box
      component="nav"
      aria-label={t('nav.main')}
      data-testid="horizontal-nav"
      sx={{ display: 'flex', gap: 1, px: 3, py: 1, overflowX: 'auto', borderTop: 1, borderColor: 'divider' }}
    >
      {items.map((item) => (
        <HorizontalNavLink key={item.to} item={item} />
      ))}
    </Box>
  );
}
