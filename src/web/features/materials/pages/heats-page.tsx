/**
 * Heats (staff): each cast or lot with its material, supplier, mill certificate (number, type, the PDF) and
 * status, filtered by material and status; add or edit one with its certificate upload, open the stored
 * certificate, delete one no unit uses. A heat on hold holds the units made from it (the release gate).
 */
import Add from '@mui/icons-material/Add';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { HEAT_SORTS, HEAT_STATUSES, materialName, type Heat } from '../../../../shared/contract/materials';
import type { Column } from '../../../components/data-table';
import { formatDay, formatNumber } from '../../../components/format';
import { listPrefetch, ListView, RowActions, RowButton, useDeleteFlow, useList, type UseListOptions } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { certificateHref, heatKeys, useDeleteHeat, useMaterials } from '../api';
import { HeatDialog } from '../components/heat-dialog';
import { hint } from '../../../components/hint';
import { FilterSelect } from '../../../components/filter-select';

type HeatSort = (typeof HEAT_SORTS)[number];
const isStatus = (v: string) => ((HEAT_STATUSES as readonly string[]).includes(v) ? v : undefined);
const FILTERS = [
  { url: 'material', api: 'materialId' },
  { url: 'status', parse: isStatus },
] as const;

const LIST: UseListOptions<HeatSort, 'material' | 'status'> = {
  key: heatKeys.lists(),
  path: '/heats',
  sorts: HEAT_SORTS,
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
  filters: FILTERS,
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function HeatsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAppAbility();
  const materials = useMaterials();
  const list = useList<Heat, HeatSort, 'material' | 'status'>(LIST);
  const remove = useDeleteHeat();
  const [editing, setEditing] = useState<Heat | 'new' | null>(null);
  const canEdit = ability.can('update', 'Material');
  const canDelete = ability.can('delete', 'Material');
  const del = useDeleteFlow<Heat>({
    title: 'materials.heats.deleteTitle',
    text: (h) => t('materials.heats.deleteConfirm', { number: h.number }),
    remove: (h) => remove.mutateAsync(h.id),
    done: 'materials.heats.deleted',
  });

  const columns: Column<Heat>[] = [
    {
      id: 'number',
      label: 'materials.fields.heatNumber',
      sortable: true,
      card: 'title',
      render: (h) => (
        <Typography variant="body2" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
          {h.number}
        </Typography>
      ),
    },
    { id: 'material', label: 'materials.fields.material', card: 'key', render: (h) => h.material },
    { id: 'supplier', label: 'materials.fields.supplier', card: 'key', render: (h) => h.supplier || '—' },
    {
      id: 'certificate',
      label: 'materials.fields.certificate',
      card: 'key',
      render: (h) => (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
          {`${h.certificateType} ${h.certificateNumber || ''}`.trim()}
          {h.file ? (
            <RowButton
              icon={<PictureAsPdfOutlined fontSize="small" />}
              hint={t('materials.heats.openCertificate')}
              label={t('materials.heats.openCertificateOf', { number: h.number })}
              href={certificateHref(h.id)}
            />
          ) : (
            <Typography component="span" variant="body2" color="text.secondary">
              {t('materials.heats.noFile')}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      id: 'date',
      label: 'materials.fields.date',
      sortable: true,
      card: 'key',
      render: (h) => <Box sx={{ whiteSpace: 'nowrap' }}>{h.date ? formatDay(lang, h.date) : '—'}</Box>,
    },
    {
      id: 'status',
      label: 'materials.fields.status',
      card: 'key',
      render: (h) => (
        <Chip
          {...hint(h.status === 'hold' ? h.holdNote : '')}
          size="small"
          variant="outlined"
          color={h.status === 'hold' ? 'error' : 'success'}
          sx={{ color: 'text.primary', borderWidth: 2 }}
          label={t(`materials.statuses.${h.status}`)}
        />
      ),
    },
    {
      id: 'used',
      label: 'materials.fields.used',
      align: 'right',
      card: 'key',
      render: (h) =>
        t('materials.heats.usedText', { ranges: formatNumber(lang, h.rangeCount, 0), units: formatNumber(lang, h.unitCount, 0) }),
    },
  ];
  if (canEdit || canDelete)
    columns.push({
      id: 'actions',
      label: 'app.actions',
      align: 'right',
      render: (h) => (
        <RowActions
          onDelete={canDelete ? () => del.ask(h) : undefined}
          deleteLabel={t('materials.heats.deleteNamed', { number: h.number })}
        >
          {canEdit && (
            <RowButton
              icon={<EditOutlined fontSize="small" />}
              hint={t('table.edit')}
              label={t('materials.heats.editNamed', { number: h.number })}
              onClick={() => setEditing(h)}
            />
          )}
        </RowActions>
      ),
    });

  const filterSx = { minWidth: 200, width: { xs: '100%', sm: 'auto' } };
  return (
    <ListView
      list={list}
      columns={columns}
      ns="materials.heats"
      title="materials.heats.title"
      headerActions={
        <>
          <Button component={RouterLink} to="/materials" color="inherit">
            {t('materials.catalogue.title')}
          </Button>
          {ability.can('create', 'Material') && (
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
              {t('materials.heats.add')}
            </Button>
          )}
        </>
      }
      filters={
        <>
          <FilterSelect
            id="heat-material-filter"
            label={t('materials.fields.material')}
            value={list.filters.material}
            onChange={(v) => list.setFilter('material', v)}
            all={t('materials.heats.allMaterials')}
            options={(materials.data ?? []).map((m) => ({ value: m.id, label: materialName(m) }))}
            sx={filterSx}
          />
          <FilterSelect
            id="heat-status-filter"
            label={t('materials.fields.status')}
            value={list.filters.status}
            onChange={(v) => list.setFilter('status', v)}
            all={t('materials.heats.allStatuses')}
            options={HEAT_STATUSES.map((s) => ({ value: s, label: t(`materials.statuses.${s}`) }))}
            sx={filterSx}
          />
        </>
      }
    >
      {editing && (
        <HeatDialog heat={editing === 'new' ? null : editing} materialId={list.filters.material} onClose={() => setEditing(null)} />
      )}
      {del.dialog}
    </ListView>
  );
}
