/**
 * Machine Data (staff, admin): every test record in the shared list (cards on phones), searched by serial
 * and filtered by product, result, the product's verdict, test type, bench, matched/unmatched and tested-at dates, all kept in the
 * URL; CSV export of what is shown, the shared CSV import (records, and optionally their samples), and a
 * way to the Benches screen for admins. A row opens the record; its serial opens the unit's history. The
 * record id is left to the record's screen: nine columns do not fit beside the navigation.
 */
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import OpenInNew from '@mui/icons-material/OpenInNewOutlined';
import RouterOutlined from '@mui/icons-material/RouterOutlined';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { TestRecord } from '../../../../shared/contract/machine-data';
import type { Column } from '../../../components/data-table';
import { formatDateTime, formatNumber } from '../../../components/format';
import { listPrefetch, ListView, RowButton } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { machineKeys } from '../../machines/api';
import { productKeys } from '../../products/api';
import { TEST_RECORD_LIST, machineDataKeys, useTestRecordList } from '../api';
import { backState } from '../components/back-to';
import { RecordFilters } from '../components/record-filters';
import { ResultChip, UnmatchedChip } from '../components/result-chip';
import { SerialLink } from '../../../components/serial-link';
import { VerdictChip } from '../components/verdict-chip';
import { originLabel, testTypeLabel } from '../../../components/record-values';
import { productName } from '../../../../shared/product-name';

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(TEST_RECORD_LIST);

export default function MachineDataPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAppAbility();
  const location = useLocation();
  const list = useTestRecordList();
  const state = backState(location);
  const recordPath = (r: TestRecord) => `/machine-data/${r.id}`;

  const columns: Column<TestRecord>[] = [
    {
      id: 'serial',
      label: 'machineScreens.fields.serial',
      sortable: true,
      card: 'title',
      render: (r) => <SerialLink serial={r.serial} />,
    },
    {
      id: 'testedAt',
      label: 'machineScreens.fields.testedAt',
      sortable: true,
      card: 'key',
      render: (r) => (
        <Link component={RouterLink} to={recordPath(r)} state={state} sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(lang, r.testedAt)}
        </Link>
      ),
    },
    {
      id: 'product',
      label: 'machineScreens.fields.product',
      card: 'key',
      render: (r) =>
        r.productName ? (
          <Typography variant="body2" sx={{ minWidth: 120 }}>
            {productName({ name: r.productName, nameZh: r.productNameZh }, lang)}
          </Typography>
        ) : (
          <UnmatchedChip />
        ),
    },
    { id: 'testType', label: 'machineScreens.fields.testType', sortable: true, card: 'key', render: (r) => testTypeLabel(t, r.testType) },
    {
      id: 'testPressure',
      label: 'machineScreens.list.pressure',
      cardLabel: 'machineScreens.fields.testPressure',
      sortable: true,
      align: 'right',
      render: (r) => formatNumber(lang, r.testPressure),
    },
    { id: 'result', label: 'machineScreens.fields.result', sortable: true, card: 'key', render: (r) => <ResultChip result={r.result} /> },
    { id: 'verdict', label: 'standards.filter.verdict', card: 'key', render: (r) => <VerdictChip assessment={r.assessment} /> },
    {
      id: 'machine',
      label: 'machineScreens.fields.machine',
      render: (r) =>
        r.machineId ? (
          <Link
            component="button"
            type="button"
            variant="body2"
            onClick={() => list.setFilter('bench', r.machineId ?? undefined)}
            aria-label={t('machineScreens.list.filterByBench', { name: r.machineName ?? '' })}
            sx={{ textAlign: 'left' }}
          >
            {r.machineName}
          </Link>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {originLabel(t, r)}
          </Typography>
        ),
    },
    {
      id: 'actions',
      label: 'app.actions',
      align: 'right',
      card: 'actions',
      render: (r) => (
        <RowButton
          icon={<OpenInNew fontSize="small" />}
          hint={t('machineScreens.list.open')}
          label={t('machineScreens.list.openRecord', { recordId: r.recordId })}
          to={recordPath(r)}
          state={state}
        />
      ),
    },
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      getRowId={(r) => r.id}
      title="pages.machineData"
      headerActions={
        <>
          <Button component={RouterLink} to="/machine-data/quality" variant="outlined" startIcon={<InsightsOutlined />}>
            {t('quality.tab')}
          </Button>
          {ability.can('read', 'Machine') && (
            <Button component={RouterLink} to="/machines" variant="outlined" startIcon={<RouterOutlined />}>
              {t('machineScreens.benches.title')}
            </Button>
          )}
        </>
      }
      searchPlaceholder="machineScreens.list.searchPlaceholder"
      emptyText="machineScreens.list.empty"
      filters={<RecordFilters list={list} />}
      // Nine columns: tighter cells keep the actions on screen at 1280 px without sideways scrolling.
      sx={{ '& .MuiTableCell-root': { px: 1.25 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}
      csv={{
        canImport: ability.can('create', 'MachineData'),
        texts: { title: 'machineScreens.import.title', valid: 'machineScreens.import.valid', stored: 'machineScreens.import.stored' },
        fieldLabel: (f) => `machineScreens.fields.${f}`,
        invalidate: [machineDataKeys.all, machineKeys.all, productKeys.all],
        extraFiles: [{ field: 'samples', label: 'machineScreens.import.samplesFile', accept: '.csv,text/csv' }],
      }}
    />
  );
}
