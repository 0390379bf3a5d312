/** The vertical navigation: a permanent drawer (full or collapsed to icons) or, below 1280 px, an overlay. */
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { ThemeProvider, useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Brand } from '../../components/brand';
import { usePreferences } from '../../lib/preferences';
import { createSemiDarkTheme } from '../../lib/theme';
import { useIsNavActive, useNavItems, type NavItem } from './nav-items';

export const NAV_WIDTH = 260;
export const NAV_COLLAPSED_WIDTH = 72;

function VerticalNavLink({ item, collapsed, onNavigate }: { item: NavItem; collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const active = useIsNavActive(item.to);
  const button = (
    <ListItemButton
      component={RouterLink}
      to={item.to}
      selected={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      sx={{
        borderRadius: 1.5,
        mx: 1.5,
        mb: 0.5,
        minHeight: 44,
        justifyContent: collapsed ? 'center' : 'flex-start',
        px: collapsed ? 1 : 2,
        '&.Mui-selected': { bgcolor: 'primary.main', color: 'primary.contrastText', '& .MuiListItemIcon-root': { color: 'inherit' } },
        '&.Mui-selected:hover': { bgcolor: 'primary.dark' },
      }}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 40, color: 'inherit' }}>{item.icon}</ListItemIcon>
      {!collapsed && <ListItemText primary={t(item.label)} />}
    </ListItemButton>
  );
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      {collapsed ? (
        <Tooltip title={t(item.label)} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  );
}

function NavContent({ collapsed, overlay, onClose }: { collapsed: boolean; overlay: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { setPreference } = usePreferences();
  const items = useNavItems();
  return (
    <Box component="nav" aria-label={t('nav.main')} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: collapsed ? 'center' : 'space-between',
          px: collapsed ? 1 : 2.5,
          minHeight: 64,
        }}
      >
        <RouterLinkBrand collapsed={collapsed} />
        {!overlay && !collapsed && (
          <IconButton
            size="small"
            color="inherit"
            aria-label={t('nav.collapse')}
            onClick={() => setPreference('verticalNavCollapsed', true)}
          >
            <ChevronLeft />
          </IconButton>
        )}
      </Box>
      <List sx={{ flex: 1, pt: 1 }}>
        {items.map((item) => (
          <VerticalNavLink key={item.to} item={item} collapsed={collapsed} onNavigate={overlay ? onClose : undefined} />
        ))}
      </List>
      {!overlay && collapsed && (
        <Box sx={{ display: 'flex', justifyContent: 'center', pb: 2 }}>
          <IconButton
            size="small"
            color="inherit"
            aria-label={t('nav.expand')}
            onClick={() => setPreference('verticalNavCollapsed', false)}
          >
            <ChevronRight />
          </IconButton>
        </Box>
      )}
    </Box>
  );
}

function RouterLinkBrand({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  return (
    <Box component={RouterLink} to="/dashboard" aria-label={t('nav.home')} sx={{ textDecoration: 'none', color: 'inherit', minWidth: 0 }}>
      <Brand compact={collapsed} />
    </Box>
  );
}

export function VerticalNav({ overlay, open, onClose }: { overlay: boolean; open: boolean; onClose: () => void }) {
  const { preferences } = usePreferences();
  const base = useTheme();
  const semiDark = preferences.semiDark && base.palette.mode === 'light';
  const navTheme = useMemo(() => (semiDark ? createSemiDarkTheme(base) : base), [semiDark, base]);
  const collapsed = !overlay && preferences.verticalNavCollapsed;
  const width = collapsed ? NAV_COLLAPSED_WIDTH : NAV_WIDTH;
  const paperSx = {
    width,
    boxSizing: 'border-box' as const,
    bgcolor: 'background.paper',
    color: 'text.primary',
    borderRight: 1,
    borderColor: 'divider',
    overflowX: 'hidden' as const,
  };

  return (
    <ThemeProvider theme={navTheme}>
      {overlay ? (
        <Drawer
          variant="temporary"
          open={open}
          onClose={onClose}
          ModalProps={{ keepMounted: false }}
          slotProps={{ paper: { sx: paperSx } }}
        >
          <NavContent collapsed={false} overlay onClose={onClose} />
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          sx={{ width, flexShrink: 0 }}
          slotProps={{ paper: { sx: paperSx, elevation: 0 } }}
          data-testid="vertical-nav"
        >
          <NavContent collapsed={collapsed} overlay={false} onClose={onClose} />
        </Drawer>
      )}
    </ThemeProvider>
  );
}
