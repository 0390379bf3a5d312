/** The user menu: who is signed in, account settings, language and sign-out. */
import Check from '@mui/icons-material/Check';
import Logout from '@mui/icons-material/Logout';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES } from '../../../shared/i18n/index';
import { useLogout, useMe } from '../../features/auth/api';
import { notifySuccess } from '../../lib/toast';
import { chooseLanguage } from '../../lib/language';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0]![0]}${parts[parts.length - 1]![0]}` : (parts[0] ?? '?').slice(0, 2)).toUpperCase();
}

export function UserMenu() {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const user = me?.user;
  if (!user) return null;
  const shown = initials(user.name);
  const close = () => setAnchor(null);

  const signOut = async () => {
    close();
    await logout.mutateAsync().catch(() => undefined);
    notifySuccess('auth.logoutSuccess');
    void navigate('/login', { replace: true });
  };

  return (
    <>
      {/* The name starts with the initials the button shows, so that a voice command saying what is seen
          finds it (WCAG 2.5.3, axe label-content-name-mismatch). */}
      <IconButton
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={t('app.userMenu', { initials: shown })}
        aria-haspopup="menu"
        sx={{ p: 0.5 }}
      >
        <Avatar sx={{ width: 36, height: 36, bgcolor: 'primary.main', color: 'primary.contrastText', fontSize: 15 }}>{shown}</Avatar>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240 } } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap>
            {user.name}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user.email} · {t(`app.roles.${user.role}`)}
          </Typography>
        </Box>
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            void navigate('/account-settings/profile');
          }}
        >
          <ListItemIcon>
            <ManageAccountsOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('pages.accountSettings')}</ListItemText>
        </MenuItem>
        <Divider />
        <ListSubheader sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>{t('app.language')}</ListSubheader>
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l}
            lang={l}
            selected={i18n.language === l}
            onClick={() => {
              close();
              void chooseLanguage(l);
            }}
          >
            <ListItemIcon>{i18n.language === l ? <Check fontSize="small" /> : null}</ListItemIcon>
            <ListItemText>{t(`app.languages.${l}`)}</ListItemText>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem onClick={() => void signOut()}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('app.signOut')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
