/**
 * Searches (staff, admin): every public request (a lookup that found nothing, or a report request of one or
 * more serials) in the shared list (cards on phones), searched by serial and filtered by status, dates and
 * the visitor's email, all in the URL; CSV export of what is shown. Visitors' addresses come masked from
 * the server for staff. A row opens the request (its id in the URL as `request`) with the delivery
 * history; a sent or failed report email can be sent again, after a confirmation.
 */
import OpenInNew from '@mui/icons-material/OpenInNewOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { SearchRequest } from '../../../../shared/contract/searches';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { Column } from '../../../components/data-table';
import { formatDateTime } from '../../../components/format';
import { listPrefetch, ListView, RowButton } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { SEARCH_LIST, searchKeys, useResend, useSearchList } from '../api';
import { RequestDialog } from '../components/request-dialog';
import { SearchFilters } from '../components/search-filters';
import { StatusChip, StatusCounts } from '../components/status-chip';
import { labelled } from '../../../../shared/i18n/punctuation';

const pdfHref = (reportId: string) => `/api/v1/public/reports/${encodeURIComponent(reportId)}.pdf`;

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(SEARCH_LIST);

export default function SearchesPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAppAbility();
  const list = useSearchList();
  const [search, setSearch] = useSearchParams();
  const openId = search.get('request') ?? undefined;
  const resend = useResend();
  const [confirming, setConfirming] = useState<{ id: string; createdAt: string } | null>(null);
  const canResend = ability.can('update', 'SearchRequest');
  const none = t('searches.list.none');

  const open = (id: string | undefined) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set('request', id);
      else next.delete('request');
      return next;
    });

  const doResend = async () => {
    if (!confirming) return;
    try {
      await resend.mutateAsync(confirming.id);
      notifySuccess('searches.resent');
    } catch (err) {
      notifyError(err);
    } finally {
      setConfirming(null);
    }
  };

  const time = (r: SearchRequest) => formatDateTime(lang, r.createdAt);
  const columns: Column<SearchRequest>[] = [
    {
      id: 'createdAt',
      label: 'searches.fields.createdAt',
      sortable: true,
      card: 'title',
      render: (r) => (
        <Link component="button" type="button" variant="body2" onClick={() => open(r.id)} sx={{ whiteSpace: 'nowrap', textAlign: 'left' }}>
          {time(r)}
        </Link>
      ),
    },
    {
      id: 'serials',
      label: 'searches.fields.serials',
      card: 'key',
      render: (r) => (
        <Box sx={{ fontFamily: 'monospace', fontSize: '0.8125rem', overflowWrap: 'anywhere', minWidth: 120 }}>
          {r.serials.map((s) => (
            <div key={s.serial}>{s.serial}</div>
          ))}
        </Box>
      ),
    },
    { id: 'found', label: 'searches.fields.found', card: 'key', render: (r) => (r.found ? t('searches.list.yes') : t('searches.list.no')) },
    {
      id: 'recipientEmail',
      label: 'searches.fields.recipientEmail',
      card: 'key',
      render: (r) =>
        r.recipientEmail ? (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} title={r.emailMasked ? t('searches.list.masked') : undefined}>
            {r.recipientEmail}
          </Typography>
        ) : (
          none
        ),
    },
    {
      id: 'language',
      label: 'searches.fields.language',
      render: (r) => (
        <>
          {t(`searches.languages.${r.language}`)}
          {r.termsVersion !== null && (
            <Typography variant="caption" component="div" color="text.secondary">
              {t('searches.fields.termsVersion')} {r.termsVersion}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'status',
      label: 'searches.fields.status',
      card: 'key',
      render: (r) => (
        <Box sx={{ minWidth: 110 }}>
          <StatusChip status={r.status} />
          <StatusCounts serials={r.serials} />
          {r.attempts > 0 && (
            <Typography variant="caption" component="div" color="text.secondary">
              {labelled(i18n.language, t('searches.fields.attempts'), String(r.attempts))}
            </Typography>
          )}
          {r.lastError && (
            <Typography variant="caption" component="div" color="text.secondary" sx={{ maxWidth: 220, overflowWrap: 'anywhere' }}>
              {r.lastError}
            </Typography>
          )}
        </Box>
      ),
    },
    { id: 'sentAt', label: 'searches.fields.sentAt', render: (r) => (r.sentAt ? formatDateTime(lang, r.sentAt) : none) },
    {
      id: 'reports',
      label: 'searches.fields.reports',
      card: 'key',
      render: (r) => {
        const issued = r.serials.filter((s) => s.reportId);
        if (issued.length === 0) return none;
        return issued.map((s) => (
          <div key={s.serial}>
            <Link
              href={pdfHref(s.reportId!)}
              target="_blank"
              rel="noopener"
              variant="body2"
              aria-label={t('searches.detail.openReport', { serial: s.serial })}
            >
              PDF
            </Link>
          </div>
        ));
      },
    },
    {
      id: 'actions',
      label: 'app.actions',
      align: 'right',
      card: 'actions',
      render: (r) => (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5 }}>
          {canResend && r.canResend && (
            <RowButton
              icon={<SendOutlined fontSize="small" />}
              hint={t('searches.list.resend')}
              label={t('searches.list.resendRequest', { time: time(r) })}
              onClick={() => setConfirming({ id: r.id, createdAt: r.createdAt })}
            />
          )}
          <RowButton
            icon={<OpenInNew fontSize="small" />}
            hint={t('searches.list.open')}
            label={t('searches.list.openRequest', { time: time(r) })}
            onClick={() => open(r.id)}
          />
        </Box>
      ),
    },
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      title="searches.title"
      searchPlaceholder="searches.list.searchPlaceholder"
      emptyText="searches.list.empty"
      filters={<SearchFilters list={list} wholeAddress={!ability.can('manage', 'SearchRequest')} />}
      sx={{ '& .MuiTableCell-root': { px: 1.25 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}
      csv={{
        canImport: false,
        templateHref: null,
        texts: { title: 'searches.title', valid: 'searches.title', stored: 'searches.title' },
        fieldLabel: (f) => `searches.fields.${f}`,
        invalidate: [searchKeys.all],
      }}
    >
      <RequestDialog id={openId} onClose={() => open(undefined)} onResend={(r) => setConfirming({ id: r.id, createdAt: r.createdAt })} />
      <ConfirmDialog
        open={!!confirming}
        title={t('searches.detail.confirmTitle')}
        text={t('searches.detail.confirmText')}
        confirmLabel={t('searches.list.resend')}
        busy={resend.isPending}
        onConfirm={() => void doResend()}
        onClose={() => setConfirming(null)}
      />
    </ListView>
  );
}
