import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { isRouteMeta } from '../lib/route-meta';

/**
 * The introduction of the screen titled `title`: its route's, when the route names one and this is that
 * route's own heading. The route holds it because the server draws it into the screen's frame before the
 * app has started (docs/decisions/0080-the-frame-carries-the-introduction.md).
 */
function useRouteIntro(title: string): string | undefined {
  const handle = useMatches().at(-1)?.handle;
  return isRouteMeta(handle) && handle.titleKey === title ? handle.introKey : undefined;
}

/**
 * The heading of a staff screen: its title (an i18n key, the same as the document title), the line under it
 * (`subtitle`, else the route's introduction) and actions.
 */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  const { t } = useTranslation();
  const intro = useRouteIntro(title);
  const line = subtitle ?? intro;
  return (
    <Box
      sx={{ display: 'flex', alignItems: { xs: 'flex-start', sm: 'center' }, flexDirection: { xs: 'column', sm: 'row' }, gap: 2, mb: 3 }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t(title)}
        </Typography>
        {line && <Typography color="text.secondary">{t(line)}</Typography>}
      </Box>
      {actions && <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions}</Box>}
    </Box>
  );
}
