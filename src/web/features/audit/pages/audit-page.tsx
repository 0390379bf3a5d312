/**
 * The audit trail (admin): who changed what and when, newest first, with each change as a readable diff;
 * filtered by user, record type, one record and days, all kept in the URL. A row names its record and
 * links to it while it exists.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Fragment, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { AuditEntry } from '../../../../shared/contract/audit';
import { formatDateTime, formatNumber } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { errorMessage } from '../../../lib/errors';
import { useAuditLog, type AuditFilters as Filters } from '../api';
import { AuditDiff } from '../components/audit-diff';
import { AuditFilters } from '../components/audit-filters';
import { entityLabel } from '../components/audit-present';
import { labelled } from '../../../../shared/i18n/punctuation';

const KEYS = ['actor', 'entity', 'entityId', 'from', 'to'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Where a record is edited, while it exists. */
function recordPath(e: AuditEntry): string | null {
  if (e.action === 'delete') return null;
  if (e.entity === 'product') return `/edit-product/${e.entityId}`;
  if (e.entity === 'serialRange') return `/edit-serial-number/${e.entityId}`;
  if (e.entity === 'machine') return '/machines';
  if (e.entity === 'user') return '/staffs';
  if (e.entity === 'test-record') return '/machine-data';
  if (e.entity === 'settings') return '/settings';
  return null;
}

function useFilters() {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => {
    const f: Filters = {};
    for (const k of KEYS) {
      const v = search.get(k)?.trim();
      if (!v || v.length > 254) continue;
      if ((k === 'from' || k === 'to') && !DATE.test(v)) continue;
      f[k] = v;
    }
    return f;
  }, [search]);
  const set = useCallback(
    (patch: Partial<Filters>) =>
      setSearch((prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      }),
    [setSearch],
  );
  return { filters, set };
}

export default function AuditPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { filters, set } = useFilters();
  const query = useAuditLog(filters);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  return (
    <>
      <PageHeader title="audit.title" />
      <AuditFilters filters={filters} set={set} />
      <Card>
        <CardContent>
          {query.isPending && <Skeleton variant="rounded" height={120} />}
          {query.isError && <Alert severity="error">{errorMessage(t, query.error)}</Alert>}
          {query.isSuccess && items.length === 0 && <Typography color="text.secondary">{t('audit.empty')}</Typography>}
          <Box
            component="ol"
            sx={{ listStyle: 'none', p: 0, m: 0, opacity: query.isPlaceholderData ? 0.6 : 1 }}
            data-testid="audit-entries"
          >
            {items.map((e, i) => {
              const path = recordPath(e);
              return (
                <Fragment key={e.id}>
                  {i > 0 && <Divider component="li" aria-hidden sx={{ my: 1.5 }} />}
                  <Box
                    component="li"
                    sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: 'minmax(220px, 1fr) 2fr' } }}
                    data-testid="audit-entry"
                  >
                    <Box sx={{ minWidth: 0 }}>
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                        <Chip
                          size="small"
                          variant="outlined"
                          color={e.action === 'delete' ? 'error' : e.action === 'create' ? 'success' : 'primary'}
                          label={t(`audit.actions.${e.action}`, { defaultValue: e.action })}
                        />
                        <Typography variant="body2" sx={{ fontWeight: 500 }}>
                          {entityLabel(t, e.entity)}
                        </Typography>
                      </Box>
                      <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                        <Link
                          component="button"
                          type="button"
                          variant="body2"
                          onClick={() => set({ actor: e.actorLabel })}
                          aria-label={labelled(i18n.language, t('audit.filters.user'), e.actorLabel)}
                        >
                          {e.actorLabel}
                        </Link>
                      </Typography>
                      <Typography variant="caption" color="text.secondary" component="time" dateTime={e.at} sx={{ display: 'block' }}>
                        {formatDateTime(lang, e.at)}
                      </Typography>
                      <Box sx={{ display: 'flex', gap: 1.5, mt: 0.5, flexWrap: 'wrap' }}>
                        <Link
                          component="button"
                          type="button"
                          variant="caption"
                          onClick={() => set({ entity: e.entity, entityId: e.entityId })}
                        >
                          {t('audit.viewAll')}
                        </Link>
                        {path && (
                          <Link component={RouterLink} to={path} variant="caption">
                            {t('audit.openRecord')}
                          </Link>
                        )}
                      </Box>
                    </Box>
                    <AuditDiff entry={e} />
                  </Box>
                </Fragment>
              );
            })}
          </Box>
          {query.hasNextPage && (
            <Button sx={{ mt: 2 }} onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {t('audit.more', { shown: formatNumber(lang, items.length, 0), total: formatNumber(lang, total, 0) })}
            </Button>
          )}
        </CardContent>
      </Card>
    </>
  );
}
