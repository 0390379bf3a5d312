/**
 * The material catalogue (staff): specification and grade, the rating basis that picks a product's rated
 * pressure, the material group and how many heats each has; add, edit and delete (a material that heats or
 * product parts use is refused by the server, and the dialog says why). The catalogue comes whole
 * (tens of grades), so search, sort and pages are worked out here.
 */
import Add from '@mui/icons-material/Add';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { materialName, type Material } from '../../../../shared/contract/materials';
import { DataTable, useListParams, type Column, type ListResult } from '../../../components/data-table';
import { formatNumber } from '../../../components/format';
import { RowActions, RowButton, useDeleteFlow } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { useAppAbility } from '../../../lib/ability';
import { useDeleteMaterial, useMaterials } from '../api';
import { MaterialDialog } from '../components/material-dialog';
import { pagedLocally } from '../components/paged-locally';

const SORTS = ['name', 'heatCount'] as const;

export default function MaterialsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAppAbility();
  const [params, setParams] = useListParams({ sorts: SORTS, defaultSort: 'name' });
  const materials = useMaterials();
  const remove = useDeleteMaterial();
  const [editing, setEditing] = useState<Material | 'new' | null>(null);
  const canEdit = ability.can('update', 'Material');
  const canDelete = ability.can('delete', 'Material');
  const del = useDeleteFlow<Material>({
    title: 'materials.catalogue.deleteTitle',
    text: (m) => t('materials.catalogue.deleteConfirm', { name: materialName(m) }),
    remove: (m) => remove.mutateAsync(m.id),
    done: 'materials.catalogue.deleted',
  });

  const query = useMemo(
    () =>
      pagedLocally(materials, params, {
        text: (m) => `${materialName(m)} ${m.materialGroup}`,
        compare: (a, b) => (params.sort === 'heatCount' ? a.heatCount - b.heatCount : materialName(a).localeCompare(materialName(b), lang)),
      }) as UseQueryResult<ListResult<Material>>,
    [materials, params, lang],
  );

  const columns: Column<Material>[] = [
    {
      id: 'name',
      label: 'materials.fields.material',
      sortable: true,
      card: 'title',
      render: (m) => (
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {materialName(m)}
        </Typography>
      ),
    },
    {
      id: 'ratingBasis',
      label: 'materials.fields.ratingBasis',
      card: 'key',
      render: (m) => t(`standards.materials.${m.ratingBasis}`),
    },
    { id: 'materialGroup', label: 'materials.fields.materialGroup', card: 'key', render: (m) => m.materialGroup || '—' },
    {
      id: 'heatCount',
      label: 'materials.fields.heatCount',
      sortable: true,
      align: 'right',
      card: 'key',
      render: (m) =>
        m.heatCount > 0 ? (
          <Typography component={RouterLink} to={`/heats?material=${m.id}`} variant="body2" sx={{ color: 'primary.main' }}>
            {formatNumber(lang, m.heatCount, 0)}
          </Typography>
        ) : (
          formatNumber(lang, 0, 0)
        ),
    },
  ];
  if (canEdit || canDelete)
    columns.push({
      id: 'actions',
      label: 'app.actions',
      align: 'right',
      render: (m) => (
        <RowActions
          onDelete={canDelete ? () => del.ask(m) : undefined}
          deleteLabel={t('materials.catalogue.deleteNamed', { name: materialName(m) })}
        >
          {canEdit && (
            <RowButton
              icon={<EditOutlined fontSize="small" />}
              hint={t('table.edit')}
              label={t('materials.catalogue.editNamed', { name: materialName(m) })}
              onClick={() => setEditing(m)}
            />
          )}
        </RowActions>
      ),
    });

  return (
    <>
      <PageHeader
        title="materials.catalogue.title"
        actions={
          <>
            <Button component={RouterLink} to="/heats" color="inherit">
              {t('materials.heats.title')}
            </Button>
            {ability.can('create', 'Material') && (
              <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
                {t('materials.catalogue.add')}
              </Button>
            )}
          </>
        }
      />
      <DataTable
        columns={columns}
        query={query}
        params={params}
        onParamsChange={setParams}
        getRowId={(m) => m.id}
        label="materials.catalogue.title"
        searchPlaceholder="materials.catalogue.searchPlaceholder"
        emptyText="materials.catalogue.empty"
      />
      {editing && <MaterialDialog material={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {del.dialog}
    </>
  );
}
