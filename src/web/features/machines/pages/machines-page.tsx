/**
 * Benches (admin): the test benches that post results, their key prefixes, status, last use and how many
 * records each sent; create, rename, disable or enable, rotate the key, grant staff imports in its name,
 * delete. A new or rotated key is
 * shown once (KeyDialog). A bench that has records is disabled by the server instead of deleted, and the
 * message says so.
 */
import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MACHINE_SORTS, type Machine, type MachineWithKey } from '../../../../shared/contract/machines';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, useListParams, type Column } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/toast';
import { useCreateMachine, useDeleteMachine, useMachineList, useRotateMachineKey, useUpdateMachine } from '../api';
import { BenchActions, type BenchAction } from '../components/bench-actions';
import { GrantsDialog } from '../components/grants-dialog';
import { InstrumentsDialog } from '../components/instruments-dialog';
import { KeyDialog } from '../components/key-dialog';
import { NameDialog } from '../components/name-dialog';
import { formatDateTime, formatNumber } from '../../../components/format';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, whiteSpace: 'nowrap' } as const;

type Open = { kind: 'create' } | { kind: BenchAction; machine: Machine } | null;

export default function MachinesPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useListParams({ sorts: MACHINE_SORTS, defaultSort: 'name' });
  const list = useMachineList(params);
  const create = useCreateMachine();
  const update = useUpdateMachine();
  const rotate = useRotateMachineKey();
  const remove = useDeleteMachine();
  const [open, setOpen] = useState<Open>(null);
  const [issued, setIssued] = useState<MachineWithKey | null>(null);

  const onAction = (kind: BenchAction, machine: Machine) => {
    if (kind !== 'toggle') return setOpen({ kind, machine });
    update.mutate(
      { id: machine.id, disabled: !machine.disabled },
      {
        onSuccess: () =>
          notifySuccess(machine.disabled ? 'machineScreens.benches.enabledDone' : 'machineScreens.benches.disabledDone', {
            name: machine.name,
          }),
        onError: notifyError,
      },
    );
  };

  const columns: Column<Machine>[] = [
    {
      id: 'name',
      label: 'machineScreens.benches.name',
      sortable: true,
      render: (m) => (
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {m.name}
        </Typography>
      ),
    },
    {
      id: 'keyPrefix',
      label: 'machineScreens.benches.keyPrefix',
      card: 'key',
      render: (m) => <Box component="span" sx={mono}>{`${m.keyPrefix}…`}</Box>,
    },
    {
      id: 'status',
      label: 'machineScreens.benches.status',
      card: 'key',
      render: (m) => (
        <Chip
          size="small"
          color={m.disabled ? 'default' : 'success'}
          label={t(m.disabled ? 'machineScreens.benches.disabled' : 'machineScreens.benches.active')}
        />
      ),
    },
    {
      id: 'lastUsedAt',
      label: 'machineScreens.benches.lastUsed',
      sortable: true,
      card: 'key',
      render: (m) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {m.lastUsedAt ? formatDateTime(lang, m.lastUsedAt) : t('machineScreens.benches.never')}
        </Box>
      ),
    },
    {
      id: 'recordCount',
      label: 'machineScreens.benches.records',
      sortable: true,
      align: 'right',
      card: 'key',
      render: (m) => formatNumber(lang, m.recordCount, 0),
    },
    { id: 'actions', label: 'app.actions', align: 'right', render: (m) => <BenchActions machine={m} onAction={onAction} /> },
  ];

  const target = open && open.kind !== 'create' ? open.machine : null;

  const confirmRotate = async () => {
    if (!target) return;
    try {
      const answer = await rotate.mutateAsync(target.id);
      setOpen(null);
      setIssued(answer);
    } catch (err) {
      notifyError(err);
    }
  };

  const confirmDelete = async () => {
    if (!target) return;
    try {
      const answer = await remove.mutateAsync(target.id);
      setOpen(null);
      if (answer.outcome === 'deleted') notifySuccess('machineScreens.benches.deleted', { name: target.name });
      else notifyInfo('machineScreens.benches.deletedDisabled', { name: target.name, count: answer.recordCount });
    } catch (err) {
      notifyError(err);
    }
  };

  return (
    <>
      <PageHeader
        title="machineScreens.benches.title"
        actions={
          <>
            <Button component={RouterLink} to="/machine-data" startIcon={<ArrowBack />} color="inherit">
              {t('machineScreens.benches.backToData')}
            </Button>
            <Button variant="contained" startIcon={<Add />} onClick={() => setOpen({ kind: 'create' })}>
              {t('machineScreens.benches.add')}
            </Button>
          </>
        }
      />
      <DataTable
        columns={columns}
        query={list}
        params={params}
        onParamsChange={setParams}
        getRowId={(m) => m.id}
        label="machineScreens.benches.title"
        searchPlaceholder="machineScreens.benches.searchPlaceholder"
        emptyText="machineScreens.benches.empty"
      />
      {open?.kind === 'create' && (
        <NameDialog
          title={t('machineScreens.benches.addTitle')}
          text={t('machineScreens.benches.addText')}
          submitLabel="machineScreens.benches.createKey"
          onSubmit={async (name) => {
            const answer = await create.mutateAsync(name);
            setOpen(null);
            setIssued(answer);
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'rename' && (
        <NameDialog
          title={t('machineScreens.benches.renameTitle', { name: open.machine.name })}
          submitLabel="app.save"
          initialName={open.machine.name}
          onSubmit={async (name) => {
            await update.mutateAsync({ id: open.machine.id, name });
            setOpen(null);
            notifySuccess('machineScreens.benches.renamed', { name });
          }}
          onClose={() => setOpen(null)}
        />
      )}
      <ConfirmDialog
        open={open?.kind === 'rotate'}
        title={t('machineScreens.benches.rotateTitle', { name: target?.name ?? '' })}
        text={t('machineScreens.benches.rotateText')}
        confirmLabel={t('machineScreens.benches.rotate')}
        busy={rotate.isPending}
        onConfirm={() => void confirmRotate()}
        onClose={() => setOpen(null)}
      />
      <ConfirmDialog
        open={open?.kind === 'delete'}
        title={t('machineScreens.benches.deleteTitle', { name: target?.name ?? '' })}
        text={t('machineScreens.benches.deleteText')}
        confirmLabel={t('app.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setOpen(null)}
      />
      {open?.kind === 'grants' && <GrantsDialog machine={open.machine} onClose={() => setOpen(null)} />}
      {open?.kind === 'instruments' && <InstrumentsDialog machine={open.machine} onClose={() => setOpen(null)} />}
      <KeyDialog issued={issued} onClose={() => setIssued(null)} />
    </>
  );
}
