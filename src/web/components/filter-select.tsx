/**
 * A list's filter of one value among a few, with a first choice that filters nothing ("All", "Any"). On a
 * phone (below 600 px, where lists draw as cards) it is the phone's own `<select>` in the same outlined field,
 * as the cards' sort and the page size are (row-cards.tsx): its picker suits a phone, and MUI's menu select
 * keeps its display element in state, set as it mounts, which drew the list a second time in the commit
 * that first showed it (docs/decisions/0078-one-hint-for-a-list.md). Wider, it is MUI's menu select.
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { usePhone } from '../lib/use-phone';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelectProps {
  id: string;
  label: string;
  /** the value chosen; undefined (or '') when the filter is off */
  value: string | undefined;
  /** the new value, or undefined for the first choice */
  onChange: (value: string | undefined) => void;
  /** the first choice's text: what the list shows with the filter off */
  all: string;
  options: readonly FilterOption[];
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

export function FilterSelect({ id, label, value, onChange, all, options, fullWidth, sx }: FilterSelectProps) {
  const phone = usePhone();
  const Item = phone ? 'option' : MenuItem;
  return (
    <TextField
      select
      size="small"
      fullWidth={fullWidth}
      id={id}
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value || undefined)}
      sx={sx}
      // The native select always shows its choice, the first one too: the label stays above it.
      slotProps={phone ? { select: { native: true }, inputLabel: { shrink: true } } : undefined}
    >
      <Item value="">{all}</Item>
      {options.map((o) => (
        <Item key={o.value} value={o.value}>
          {o.label}
        </Item>
      ))}
    </TextField>
  );
}
