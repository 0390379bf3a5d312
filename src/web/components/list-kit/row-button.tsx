/**
 * One button of a list's row: an icon, the hint the layout's one tooltip shows (../hint.tsx), and an
 * accessible name that names the row ("Edit VB-1"). It does one of three things: runs `onClick`, goes to a
 * screen (`to`, with router `state`), or opens a file in a new tab (`href`).
 *
 *   <RowButton icon={<OpenInNew fontSize="small" />} hint={t('searches.list.open')}
 *              label={t('searches.list.openRequest', { time })} onClick={() => open(r.id)} />
 */
import IconButton from '@mui/material/IconButton';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { hint } from '../hint';

export type RowButtonProps = {
  icon: ReactNode;
  /** the short hint shown on hover and keyboard focus ("Edit") */
  hint: string;
  /** the accessible name, which names the row */
  label: string;
} & ({ onClick: () => void } | { to: string; state?: unknown } | { href: string });

export function RowButton(props: RowButtonProps) {
  const common = { ...hint(props.hint), size: 'small', 'aria-label': props.label } as const;
  if ('to' in props) {
    return (
      <IconButton {...common} component={RouterLink} to={props.to} state={props.state}>
        {props.icon}
      </IconButton>
    );
  }
  if ('href' in props) {
    return (
      <IconButton {...common} component="a" href={props.href} target="_blank" rel="noopener">
        {props.icon}
      </IconButton>
    );
  }
  return (
    <IconButton {...common} onClick={props.onClick}>
      {props.icon}
    </IconButton>
  );
}
