/** The element around every route: document title and description, scrolling on navigation and the loading bar. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigation, useRouteError } from 'react-router';
import { STAFF_SHELL_ID } from '../../shared/staff-shell-id';
import { HASH_SCROLL_OFFSET } from '../lib/constants';
import { errorMessage } from '../lib/errors';
import { LoadingBar } from '../lib/loading-bar';
import { setMetaDescription } from '../lib/meta-description';
import { isRouteMeta, type RouteMeta } from '../lib/route-meta';

export function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteMeta(handle)) return handle;
  }
  return undefined;
}

/** The document title and meta description of the route, in the language the app is shown in. */
function useDocumentTitle(): void {
  const meta = useRouteMeta();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = meta ? t(meta.titleKey) : t('app.title');
    setMetaDescription(t(meta?.descriptionKey ?? 'app.meta.staff'));
  }, [meta, t, i18n.language]);
}

/** A hash target scrolls into view smoothly, 60 px below the top (under the sticky navbar); other navigation starts at the top. */
function useScrollOnNavigate(): void {
  const location = useLocation();
  const first = useRef(true);
  useEffect(() => {
    // The page as loaded keeps the browser's own scroll (the top, or where a reload left it); scrolling it
    // here would also force its first layout inside the task that drew it.
    const loaded = first.current;
    first.current = false;
    if (location.hash) {
      const id = decodeURIComponent(location.hash.slice(1));
      const frame = requestAnimationFrame(() => {
        const el = document.getElementById(id);
        if (el) window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - HASH_SCROLL_OFFSET, behavior: 'smooth' });
      });
      return () => cancelAnimationFrame(frame);
    }
    if (!loaded) window.scrollTo({ top: 0 });
    return undefined;
  }, [location.pathname, location.hash]);
}

/**
 * For tests and the web-page bench: the app has taken over the page (hydrated the prerendered /login, or
 * drawn it). The frame the server drew for a staff screen (src/server/web/staff-shell.ts) goes in the same
 * commit, before the browser paints: the screen replaces it, and the two are never seen together.
 */
function useMarkStarted(): void {
  useLayoutEffect(() => {
    document.documentElement.dataset.ready = 'true';
    document.getElementById(STAFF_SHELL_ID)?.remove();
  }, []);
}

export function RootShell() {
  const navigation = useNavigation();
  useMarkStarted();
  useDocumentTitle();
  useScrollOnNavigate();
  return (
    <>
      <LoadingBar loading={navigation.state === 'loading'} />
      <Outlet />
    </>
  );
}

export function InitialLoading() {
  return <LoadingBar loading />;
}

export function RouteError() {
  useMarkStarted();
  const error = useRouteError();
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ p: 4, maxWidth: 640, mx: 'auto', mt: 8 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => window.location.reload()}>
            {t('app.reload')}
          </Button>
        }
      >
        {errorMessage(t, error)}
      </Alert>
    </Box>
  );
}
