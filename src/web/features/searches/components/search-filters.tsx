/**
 * The Searches list's filters: status, a date range and the visitor's email. Their values live in the URL
 * (useList). The email is applied on Enter or when the field is left, not at each key. Staff filter by a
 * whole address (the server ignores parts of one for them); the hint says so.
 */
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_STATUSES, type SearchRequest, type SearchSort } from '../../../../shared/contract/searches';
import type { ListState } from '../../../components/list-kit';
import type { SearchFilter } from '../api';
import { DateField } from '../../../components/form/date-field';
import { FilterSelect } from '../../../components/filter-select';

type List = ListState<SearchRequest, SearchSort, SearchFilter>;

function EmailFilter({ list, wholeAddress }: { list: List; wholeAddress: boolean }) {
  const { t } = useTranslation();
  const current = list.filters.email ?? '';
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  const apply = () => {
    const v = text.trim();
    if (v !== current) list.setFilter('email', v || undefined);
  };
  return (
    <TextField
      fullWidth
      size="small"
      type="email"
      id="filter-email"
      label={t('searches.list.email')}
      placeholder={wholeAddress ? t('searches.list.emailHintStaff') : undefined}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply();
      }}
      sx={{ gridColumn: { xs: '1 / -1', sm: 'span 2' } }}
    />
  );
}

export function SearchFilters({ list, wholeAddress }: { list: List; wholeAddress: boolean }) {
  const { t } = useTranslation();
  const active = Object.values(list.filters).some((v) => v !== undefined);
  const date = (name: 'from' | 'to') => (
    <DateField
      fullWidth
      size="small"
      id={`filter-${name}`}
      label={t(`searches.list.${name}`)}
      value={list.filters[name] ?? ''}
      onChange={(v) => list.setFilter(name, v || undefined)}
      max={name === 'from' ? list.filters.to : undefined}
      min={name === 'to' ? list.filters.from : undefined}
    />
  );
  return (
    <Box
      role="group"
      aria-label={t('searches.list.filters')}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(160px, 1fr))' },
        gap: 1.5,
        alignItems: 'center',
        width: '100%',
      }}
    >
      <FilterSelect
        fullWidth
        id="filter-status"
        label={t('searches.fields.status')}
        value={list.filters.status}
        onChange={(v) => list.setFilter('status', v)}
        all={t('searches.list.any')}
        options={SEARCH_STATUSES.map((s) => ({ value: s, label: t(`searches.statuses.${s}`) }))}
      />
      {date('from')}
      {date('to')}
      <EmailFilter list={list} wholeAddress={wholeAddress} />
      {active && (
        <Button
          size="small"
          color="inherit"
          sx={{ justifySelf: 'start' }}
          startIcon={<FilterAltOffOutlined />}
          onClick={() => list.setFilters({ status: undefined, from: undefined, to: undefined, email: undefined })}
        >
          {t('searches.list.clearFilters')}
        </Button>
      )}
    </Box>
  );
}
