/** The audit trail's filters (user, record type, days) and the chip of a one-record filter; all in the URL. */
import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { AUDIT_ENTITIES } from '../../../../shared/contract/audit';
import { useAuditActors, type AuditFilters as Filters } from '../api';
import { entityLabel } from './audit-present';
import { DateField } from '../../../components/form/date-field';
import { labelled } from '../../../../shared/i18n/punctuation';
import { FilterSelect } from '../../../components/filter-select';

interface Props {
  filters: Filters;
  set: (patch: Partial<Filters>) => void;
}

export function AuditFilters({ filters, set }: Props) {
  const { t, i18n } = useTranslation();
  const actors = useAuditActors();
  const actorOptions = actors.data ?? [];
  if (filters.actor && !actorOptions.includes(filters.actor)) actorOptions.push(filters.actor);
  const entities: string[] = [...AUDIT_ENTITIES];
  if (filters.entity && !entities.includes(filters.entity)) entities.push(filters.entity);
  const active = Object.values(filters).some((v) => v !== undefined);
  const date = (name: 'from' | 'to') => (
    <DateField
      size="small"
      fullWidth
      id={`audit-${name}`}
      label={t(`audit.filters.${name}`)}
      value={filters[name] ?? ''}
      onChange={(v) => set({ [name]: v || undefined })}
      max={name === 'from' ? filters.to : undefined}
      min={name === 'to' ? filters.from : undefined}
    />
  );
  return (
    <Box
      role="group"
      aria-label={t('audit.title')}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: '2fr 1.2fr 1fr 1fr auto' },
        gap: 1.5,
        alignItems: 'center',
        mb: 2,
      }}
    >
      <FilterSelect
        fullWidth
        id="audit-actor"
        label={t('audit.filters.user')}
        value={filters.actor}
        onChange={(v) => set({ actor: v })}
        all={t('audit.filters.any')}
        options={actorOptions.map((a) => ({ value: a, label: a }))}
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
      />
      <FilterSelect
        fullWidth
        id="audit-entity"
        label={t('audit.filters.entity')}
        value={filters.entity}
        onChange={(v) => set({ entity: v, entityId: undefined })}
        all={t('audit.filters.any')}
        options={entities.map((e) => ({ value: e, label: entityLabel(t, e) }))}
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
      />
      {date('from')}
      {date('to')}
      {active && (
        <Button
          size="small"
          color="inherit"
          startIcon={<FilterAltOffOutlined />}
          onClick={() => set({ actor: undefined, entity: undefined, entityId: undefined, from: undefined, to: undefined })}
          sx={{ justifySelf: 'start' }}
        >
          {t('audit.filters.clear')}
        </Button>
      )}
      {filters.entityId && (
        <Chip
          sx={{ gridColumn: '1 / -1', justifySelf: 'start', maxWidth: '100%' }}
          label={labelled(i18n.language, t('audit.filters.record'), `${entityLabel(t, filters.entity ?? '')} ${filters.entityId}`)}
          onDelete={() => set({ entityId: undefined })}
          data-testid="audit-record-filter"
        />
      )}
    </Box>
  );
}
