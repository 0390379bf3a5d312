/**
 * A serial number that opens that unit's test history (`/units/<serial>`). Any screen that shows a serial
 * can use it: `<SerialLink serial={r.startSerial} />`.
 */
import Link from '@mui/material/Link';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, whiteSpace: 'nowrap' } as const;

export function unitHistoryPath(serial: string): string {
  return `/units/${encodeURIComponent(serial)}`;
}

export function SerialLink({ serial, sx }: { serial: string; sx?: SxProps<Theme> }) {
  const { t } = useTranslation();
  return (
    <Link
      component={RouterLink}
      to={unitHistoryPath(serial)}
      title={t('machineScreens.units.open', { serial })}
      sx={[MONO, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {serial}
    </Link>
  );
}
