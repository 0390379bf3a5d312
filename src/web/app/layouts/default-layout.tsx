/**
 * The default layout of the staff screens: vertical or horizontal navigation (always vertical, as an
 * overlay, below 1280 px), a sticky/static/hidden navbar with optional blur, a sticky/static/hidden
 * footer, boxed or wide content, the customizer and the scroll-to-top button.
 */
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Fab from '@mui/material/Fab';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import { alpha } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import Zoom from '@mui/material/Zoom';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, Link as RouterLink } from 'react-router';
import { Brand } from '../../components/brand';
import { HintHost } from '../../components/hint';
import { LanguageMenu } from '../../components/language-menu';
import { OVERLAY_NAV_BREAKPOINT, SCROLL_TO_TOP_THRESHOLD } from '../../lib/constants';
import { usePreferences } from '../../lib/preferences';
import { Customizer, CustomizerButton } from './customizer';
import { HorizontalNav } from './horizontal-nav';
import { UserMenu } from './user-menu';
import { VerticalNav } from './vertical-nav';

function ScrollToTop() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const onScroll = () => setShown(window.scrollY > SCROLL_TO_TOP_THRESHOLD);
    // Read at the next frame, not as the page mounts: reading scrollY then forces the new page's layout
    // inside the task that drew it (100 ms on a throttled phone), where the frame lays it out anyway.
    const frame = requestAnimationFrame(onScroll);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  return (
    <Zoom in={shown}>
      <Fab
        size="small"
        color="primary"
        aria-label={t('app.scrollToTop')}
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: (theme) => theme.zIndex.speedDial }}
      >
        <KeyboardArrowUp />
      </Fab>
    </Zoom>
  );
}

function Footer() {
  const { t } = useTranslation();
  const { preferences } = usePreferences();
  if (preferences.footerType === 'hidden') return null;
  return (
    <Box
      component="footer"
      data-testid="footer"
      data-footer-type={preferences.footerType}
      sx={{
        position: preferences.footerType === 'sticky' ? 'sticky' : 'static',
        bottom: 0,
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
        px: 3,
        py: 1.5,
        mt: 'auto',
        zIndex: 1,
      }}
    >
      <Typography variant="body2" color="text.secondary">
        © {new Date().getFullYear()} {t('app.title')} ·{' '}
        <Link component={RouterLink} to="/search" color="inherit">
          {t('pages.search')}
        </Link>
      </Typography>
    </Box>
  );
}

export default function DefaultLayout() {
  const { t } = useTranslation();
  const { preferences } = usePreferences();
  const overlayNav = useMediaQuery(`(max-width:${OVERLAY_NAV_BREAKPOINT}.98px)`, { noSsr: true });
  const [navOpen, setNavOpen] = useState(false);
  const [customizerOpen, setCustomizerOpen] = useState(false);
  // Below the overlay breakpoint the navigation is vertical; the stored choice comes back above it.
  const horizontal = preferences.layout === 'horizontal' && !overlayNav;
  const navbarHidden = preferences.navbarType === 'hidden';

  return (
    <Box
      sx={{ display: 'flex', minHeight: '100dvh', bgcolor: 'background.default' }}
      data-testid="default-layout"
      data-layout={horizontal ? 'horizontal' : 'vertical'}
      data-skin={preferences.skin}
      data-content-width={preferences.contentWidth}
    >
      <Box
        component="a"
        href="#main-content"
        sx={{
          position: 'absolute',
          left: -9999,
          top: 8,
          zIndex: 2000,
          bgcolor: 'background.paper',
          color: 'primary.main',
          p: 1,
          '&:focus': { left: 8 },
        }}
      >
        {t('app.skipToContent')}
      </Box>
      {!horizontal && <VerticalNav overlay={overlayNav} open={navOpen} onClose={() => setNavOpen(false)} />}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {!navbarHidden && (
          <AppBar
            position={preferences.navbarType === 'sticky' ? 'sticky' : 'static'}
            color="inherit"
            elevation={0}
            data-testid="navbar"
            data-navbar-type={preferences.navbarType}
            data-blur={preferences.navbarBlur}
            sx={(theme) => ({
              borderBottom: 1,
              borderColor: 'divider',
              ...(preferences.navbarBlur && preferences.navbarType === 'sticky'
                ? { bgcolor: alpha(theme.palette.background.paper, 0.82), backdropFilter: 'blur(8px)' }
                : { bgcolor: 'background.paper' }),
            })}
          >
            <Toolbar sx={{ gap: 1 }}>
              {!horizontal && overlayNav && (
                <IconButton edge="start" aria-label={t('nav.open')} onClick={() => setNavOpen(true)}>
                  <MenuIcon />
                </IconButton>
              )}
              {horizontal && (
                <Box
                  component={RouterLink}
                  to="/dashboard"
                  aria-label={t('nav.home')}
                  sx={{ textDecoration: 'none', color: 'inherit', mr: 2 }}
                >
                  <Brand />
                </Box>
              )}
              {!horizontal && overlayNav && <Brand compact />}
              <Box sx={{ flex: 1 }} />
              <LanguageMenu />
              <CustomizerButton floating={false} onOpen={() => setCustomizerOpen(true)} />
              <UserMenu />
            </Toolbar>
            {horizontal && <HorizontalNav />}
          </AppBar>
        )}
        {navbarHidden && !horizontal && overlayNav && (
          <IconButton
            aria-label={t('nav.open')}
            onClick={() => setNavOpen(true)}
            sx={{ position: 'fixed', left: 8, top: 8, zIndex: 2, bgcolor: 'background.paper' }}
          >
            <MenuIcon />
          </IconButton>
        )}
        <Box component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, py: { xs: 2, md: 3 }, outline: 'none' }}>
          <Container maxWidth={false} sx={{ px: { xs: 2, md: 3 }, maxWidth: preferences.contentWidth === 'boxed' ? 1440 : 'none' }}>
            <Outlet />
          </Container>
        </Box>
        <Footer />
      </Box>
      {navbarHidden && <CustomizerButton floating onOpen={() => setCustomizerOpen(true)} />}
      <Customizer overlayNav={overlayNav} open={customizerOpen} onClose={() => setCustomizerOpen(false)} />
      <ScrollToTop />
      <HintHost />
    </Box>
  );
}
