import DeleteOutline from '@mui/icons-material/DeleteOutline';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_SORTS, type StaffMember } from '../../../../shared/contract/staff';
import type { Column } from '../../../components/data-table';
import { formatDate } from '../../../components/format';
import { listPrefetch, ListView, useDeleteFlow, useList, type UseListOptions } from '../../../components/list-kit';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useMe } from '../../auth/api';
import { staffKeys, useDeleteStaff, useUpdateStaff } from '../api';
import { PasswordDialog, RoleDialog } from '../components/staff-dialogs';
import { InspectorDialog } from '../components/inspector-fields';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';

type Dialog = { kind: 'role' | 'inspector' | 'password' | 'delete'; member: StaffMember } | null;

function RowActions({ member, self, onOpen }: { member: StaffMember; self: boolean; onOpen: (d: Dialog) => void }) {
  const { t } = useTranslation();
  const update = useUpdateStaff();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const toggleDisabled = async () => {
    close();
    try {
      await update.mutateAsync({ id: member.id, disabled: !member.disabled });
      notifySuccess('staff.updated');
    } catch (err) {
      notifyError(err);
    }
  };
  return (
    <>
      <IconButton
        aria-label={t('staffScreens.actionsFor', { name: member.name })}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        size="small"
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close}>
        <MenuItem
          disabled={self}
          onClick={() => {
            close();
            onOpen({ kind: 'role', member });
          }}
        >
          <ListItemIcon>
            <SwapHoriz fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('staffScreens.changeRole')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onOpen({ kind: 'inspector', member });
          }}
        >
          <ListItemIcon>
            <VerifiedUserOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('staffScreens.inspectorAction')}</ListItemText>
        </MenuItem>
        <MenuItem disabled={self} onClick={() => void toggleDisabled()}>
          <ListItemIcon>{member.disabled ? <PersonOutline fontSize="small" /> : <PersonOffOutlined fontSize="small" />}</ListItemIcon>
          <ListItemText>{t(member.disabled ? 'staffScreens.enable' : 'staffScreens.disable')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onOpen({ kind: 'password', member });
          }}
        >
          <ListItemIcon>
            <KeyOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('staffScreens.resetPassword')}</ListItemText>
        </MenuItem>
        <MenuItem
          disabled={self}
          onClick={() => {
            close();
            onOpen({ kind: 'delete', member });
          }}
          sx={{ color: 'error.main' }}
        >
          <ListItemIcon sx={{ color: 'inherit' }}>
            <DeleteOutline fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('app.delete')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}

const LIST: UseListOptions<(typeof STAFF_SORTS)[number], string> = {
  key: staffKeys.lists(),
  path: '/staff',
  sorts: STAFF_SORTS,
  defaultSort: 'name',
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function StaffsPage() {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const list = useList<StaffMember, (typeof STAFF_SORTS)[number]>(LIST);
  const remove = useDeleteStaff();
  const [dialog, setDialog] = useState<Dialog>(null);
  // A refusal (the last administrator) is shown in the dialog with the server's reason.
  const del = useDeleteFlow<StaffMember>({
    title: 'staffScreens.deleteTitle',
    text: (m) => t('staffScreens.deleteText', { name: m.name, email: m.email }),
    remove: (m) => remove.mutateAsync(m.id),
    done: 'staff.deleted',
  });
  const ask = del.ask;
  const open = useCallback((d: Dialog) => (d?.kind === 'delete' ? ask(d.member) : setDialog(d)), [ask]);

  const columns = useMemo<Column<StaffMember>[]>(
    () => [
      {
        id: 'name',
        label: 'staffScreens.name',
        sortable: true,
        card: 'title',
        render: (m) => (
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {m.name}
            {m.id === me?.user.id && (
              <Typography component="span" variant="body2" color="text.secondary">
                {' '}
                ({t('staffScreens.you')})
              </Typography>
            )}
          </Typography>
        ),
      },
      {
        id: 'email',
        label: 'staffScreens.email',
        sortable: true,
        card: 'title',
        render: (m) => m.email,
        cardRender: (m) => (
          <Typography variant="body2" color="text.secondary">
            {m.email}
          </Typography>
        ),
      },
      {
        id: 'role',
        label: 'staffScreens.role',
        sortable: true,
        card: 'key',
        render: (m) => (
          <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
            <Chip size="small" variant="outlined" color={m.role === 'admin' ? 'primary' : 'default'} label={t(`app.roles.${m.role}`)} />
            {m.inspector && (
              <Chip
                size="small"
                color="secondary"
                variant="outlined"
                label={t('staffScreens.inspectorChip')}
                title={m.inspectorTitle ? `${t('staffScreens.inspector')} · ${m.inspectorTitle}` : t('staffScreens.inspector')}
              />
            )}
          </Stack>
        ),
      },
      {
        id: 'disabled',
        label: 'staffScreens.status',
        sortable: true,
        card: 'key',
        render: (m) => (
          <Chip
            size="small"
            color={m.disabled ? 'default' : 'success'}
            label={t(m.disabled ? 'staffScreens.disabled' : 'staffScreens.active')}
          />
        ),
      },
      {
        id: 'createdAt',
        label: 'staffScreens.createdAt',
        sortable: true,
        card: 'key',
        render: (m) => formatDate(i18n.language, m.createdAt),
      },
      {
        id: 'actions',
        label: 'app.actions',
        align: 'right',
        render: (m) => <RowActions member={m} self={m.id === me?.user.id} onOpen={open} />,
      },
    ],
    [t, i18n.language, me?.user.id, open],
  );

  return (
    <ListView
      list={list}
      columns={columns}
      title="pages.staffs"
      add={{ to: '/add-staff', label: 'pages.addStaff' }}
      searchPlaceholder="staffScreens.searchPlaceholder"
      emptyText="staffScreens.empty"
    >
      {dialog?.kind === 'role' && <RoleDialog member={dialog.member} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'inspector' && <InspectorDialog member={dialog.member} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'password' && <PasswordDialog member={dialog.member} onClose={() => setDialog(null)} />}
      {del.dialog}
    </ListView>
  );
}
