/**
 * The top of a unit's page: whether the release gate would issue its certificate now and, if not, each
 * thing that holds it, with a link to the held-units list.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { HoldLine } from '../../../components/hold-line';
import { heldUnitsPath, useUnitRelease } from '../../quality/api';

const SEVERITY = { releasable: 'success', held: 'warning', noTests: 'info' } as const;

export function UnitRelease({ serial }: { serial: string }) {
  const { t } = useTranslation();
  const query = useUnitRelease(serial);
  const r = query.data;
  if (!r) return null;
  return (
    <Alert severity={SEVERITY[r.status]} sx={{ mb: 3 }} data-testid="unit-release" data-status={r.status}>
      <AlertTitle>{t(`quality.heldUnits.unit.${r.status}`)}</AlertTitle>
      {r.heldFor.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {r.heldFor.map((h, i) => (
            <li key={i}>
              <HoldLine h={h} />
            </li>
          ))}
        </Box>
      )}
      {r.status === 'held' && (
        <Link component={RouterLink} to={heldUnitsPath()} sx={{ display: 'inline-block', mt: 1 }}>
          {t('quality.heldUnits.all')}
        </Link>
      )}
    </Alert>
  );
}
