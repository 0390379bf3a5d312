/**
 * The change history of a record (from the audit log) on its edit screen: who, when, and each field
 * before → after. `ns` is the i18n namespace holding `history.*` and `fields.*`:
 *   <HistoryCard query={useProductHistory(id)} ns="products" value={productValue} order={PRODUCT_FIELDS} />
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { HistoryEntry } from '../../shared/contract/record-history';
import { useAppAbility } from '../lib/ability';
import { errorMessage } from '../lib/errors';
import { formatDateTime } from './format';

export interface HistoryCardProps {
  query: UseQueryResult<HistoryEntry[]>;
  /** i18n namespace holding `history.*` and `fields.*` (e.g. products, serials) */
  ns: string;
  /** fields not worth showing (ids that another field names better) */
  hidden?: readonly string[];
  value: (t: TFunction, language: string, field: string, value: unknown) => string;
  /** the fields in the order of the form; others follow */
  order: readonly string[];
  /** the record's whole audit trail (the admin's audit screen filtered to it); shown to those who may read it */
  auditLink?: string;
}

export function HistoryCard({ query, ns, hidden = [], value, order, auditLink }: HistoryCardProps) {
  const canAudit = useAppAbility().can('read', 'AuditLog');
  const rank = (field: string) => {
    const i = order.indexOf(field);
    return i < 0 ? order.length : i;
  };
  const { t, i18n } = useTranslation();
  const entries = query.data ?? [];
  return (
    <Card component="section" aria-labelledby="history-title" sx={{ mt: 3 }}>
      <CardContent>
        <Typography id="history-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
          {t(`${ns}.history.title`)}
        </Typography>
        {auditLink && canAudit && (
          <Link
            component={RouterLink}
            to={auditLink}
            variant="body2"
            sx={{ display: 'inline-block', mb: 1.5 }}
            data-testid="history-audit-link"
          >
            {t('audit.viewAll')}
          </Link>
        )}
        {query.isPending && <Skeleton variant="rounded" height={64} />}
        {query.isError && <Alert severity="error">{errorMessage(t, query.error)}</Alert>}
        {query.isSuccess && entries.length === 0 && <Typography color="text.secondary">{t(`${ns}.history.empty`)}</Typography>}
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="history">
          {entries.map((e, i) => {
            const changes = e.changes.filter((c) => !hidden.includes(c.field)).sort((a, b) => rank(a.field) - rank(b.field));
            return (
              <Box component="li" key={e.id}>
                {i > 0 && <Divider sx={{ my: 1.5 }} />}
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={e.action === 'delete' ? 'error' : e.action === 'create' ? 'success' : 'primary'}
                    label={t(`${ns}.history.${e.action}`, { defaultValue: e.action })}
                  />
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {e.actor.name ?? e.actor.label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" component="time" dateTime={e.at}>
                    {formatDateTime(i18n.language, e.at)}
                  </Typography>
                </Box>
                {changes.length > 0 && (
                  <Box
                    component="dl"
                    sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mt: 1, fontSize: 14 }}
                  >
                    {changes.map((c) => (
                      <Fragment key={c.field}>
                        <Box component="dt" sx={{ color: 'text.secondary' }}>
                          {t(`${ns}.fields.${c.field}`, { defaultValue: c.field })}
                        </Box>
                        <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                          {'before' in c && 'after' in c ? (
                            <>
                              <Box component="del" sx={{ color: 'text.secondary' }}>
                                {value(t, i18n.language, c.field, c.before)}
                              </Box>
                              {' → '}
                              <Box component="ins" sx={{ textDecoration: 'none', fontWeight: 500 }}>
                                {value(t, i18n.language, c.field, c.after)}
                              </Box>
                            </>
                          ) : (
                            value(t, i18n.language, c.field, 'after' in c ? c.after : c.before)
                          )}
                        </Box>
                      </Fragment>
                    ))}
                  </Box>
                )}
              </Box>
            );
          })}
        </Box>
      </CardContent>
    </Card>
  );
}
