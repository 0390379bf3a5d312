/** The menu of one bench in the list: rename, disable or enable, rotate the key, who may import, its instruments, delete. */
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import SpeedOutlined from '@mui/icons-material/SpeedOutlined';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Machine } from '../../../../shared/contract/machines';

export type BenchAction = 'rename' | 'toggle' | 'rotate' | 'grants' | 'instruments' | 'delete';

export function BenchActions({ machine, onAction }: { machine: Machine; onAction: (action: BenchAction, machine: Machine) => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (action: BenchAction) => {
    setAnchor(null);
    onAction(action, machine);
  };
  return (
    <>
      <IconButton
        aria-label={t('machineScreens.benches.actionsFor', { name: machine.name })}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        size="small"
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => pick('rename')}>
          <ListItemIcon>
            <EditOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('machineScreens.benches.rename')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => pick('toggle')}>
          <ListItemIcon>{machine.disabled ? <CheckCircleOutline fontSize="small" /> : <BlockOutlined fontSize="small" />}</ListItemIcon>
          <ListItemText>{t(machine.disabled ? 'machineScreens.benches.enable' : 'machineScreens.benches.disable')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => pick('rotate')}>
          <ListItemIcon>
            <KeyOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('machineScreens.benches.rotate')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => pick('grants')}>
          <ListItemIcon>
            <PeopleOutline fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('machineScreens.benches.grants')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => pick('instruments')}>
          <ListItemIcon>
            <SpeedOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('machineScreens.instruments.menu')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => pick('delete')} sx={{ color: 'error.main' }}>
          <ListItemIcon sx={{ color: 'inherit' }}>
            <DeleteOutline fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('app.delete')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
