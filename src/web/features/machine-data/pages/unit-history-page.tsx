/**
 * A unit's history: every test of one serial, retests included, newest first, with its product and range.
 * Reached from the Machine Data list, a record, and any serial shown with SerialLink.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { usePhone } from '../../../lib/use-phone';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import type { TestRecord, UnitHistory } from '../../../../shared/contract/machine-data';
import { rangeLabel } from '../../../../shared/serial';
import { formatDate, formatDateTime, formatNumber } from '../../../components/format';
import { RecordView } from '../../../components/list-kit/record-view';
import { useUnitHistory } from '../api';
import { backState } from '../components/back-to';
import { FieldList } from '../components/field-list';
import { ResultChip, UnmatchedChip } from '../components/result-chip';
import { ScreenHeader } from '../components/screen-header';
import { VerdictChip } from '../components/verdict-chip';
import { MONO } from '../../../components/serial-link';
import { leakage, mediumLabel, mpa, originLabel, seconds, testTypeLabel } from '../../../components/record-values';
import { productName } from '../../../../shared/product-name';
import { UnitRelease } from '../components/unit-release';

/** Ids of records that repeat an earlier test of the same type on this unit (records are newest first). */
function retests(records: readonly TestRecord[]): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const r = records[i]!;
    if (seen.has(r.testType)) out.add(r.id);
    seen.add(r.testType);
  }
  return out;
}

/** A record's test time as a link to it; the name starts with the time shown (WCAG 2.5.3, Label in Name). */
function RecordLink({ record, text }: { record: TestRecord; text: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Link
      component={RouterLink}
      to={`/machine-data/${record.id}`}
      state={backState(location)}
      aria-label={t('machineScreens.list.openRecordAt', { when: text, recordId: record.recordId })}
    >
      {text}
    </Link>
  );
}

function Tests({ history }: { history: UnitHistory }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const phone = usePhone();
  const again = retests(history.records);
  const f = (key: string) => t(`machineScreens.fields.${key}`);
  const typeCell = (r: TestRecord) => (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      {testTypeLabel(t, r.testType)}
      {again.has(r.id) && <Chip size="small" variant="outlined" label={t('machineScreens.units.retest')} />}
    </Box>
  );

  if (history.records.length === 0) {
    return (
      <Typography color="text.secondary" role="status" sx={{ py: 4, textAlign: 'center' }}>
        {t('machineScreens.units.empty')}
      </Typography>
    );
  }
  if (phone) {
    return (
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={t('machineScreens.units.tests')}>
        {history.records.map((r) => (
          <Box component="li" key={r.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid="unit-test">
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 1 }}>
              <RecordLink record={r} text={formatDateTime(lang, r.testedAt)} />
              <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
                <ResultChip result={r.result} />
                <VerdictChip assessment={r.assessment} />
              </Box>
            </Box>
            {typeCell(r)}
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {[mediumLabel(t, r.medium), mpa(t, lang, r.testPressure), seconds(t, lang, r.holdingSeconds), originLabel(t, r)].join(' · ')}
            </Typography>
          </Box>
        ))}
      </Stack>
    );
  }
  // Seven columns, each holding what is read together (when and which record, the test and its medium,
  // the bench's result and the standard's verdict), so that the table fits beside the menu at 1440 px
  // and on a tablet; below 600 px each test is a card.
  const secondary = { display: 'block', color: 'text.secondary', fontSize: '0.8125rem' } as const;
  const heads: Array<{ key: string; label: string; align?: 'right' }> = [
    { key: 'testedAt', label: f('testedAt') },
    { key: 'testType', label: f('testType') },
    { key: 'testPressure', label: f('testPressure'), align: 'right' },
    { key: 'holdingSeconds', label: f('holdingSeconds'), align: 'right' },
    { key: 'leakageValue', label: f('leakageValue') },
    { key: 'result', label: `${f('result')} · ${t('standards.filter.verdict')}` },
    { key: 'machine', label: f('machine') },
  ];
  return (
    <TableContainer data-testid="unit-tests">
      <Table size="small" aria-label={t('machineScreens.units.tests')}>
        <TableHead>
          <TableRow>
            {heads.map((h) => (
              <TableCell key={h.key} sx={{ fontWeight: 600 }} align={h.align}>
                {h.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {history.records.map((r) => (
            <TableRow key={r.id} hover data-testid="unit-test">
              <TableCell>
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  <RecordLink record={r} text={formatDateTime(lang, r.testedAt)} />
                </Box>
                <Box component="span" sx={{ ...secondary, ...MONO, overflowWrap: 'anywhere' }} title={f('recordId')}>
                  {r.recordId}
                </Box>
              </TableCell>
              <TableCell>
                {typeCell(r)}
                <Box component="span" sx={secondary} title={f('medium')}>
                  {mediumLabel(t, r.medium)}
                </Box>
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatNumber(lang, r.testPressure)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatNumber(lang, r.holdingSeconds, 0)}
              </TableCell>
              <TableCell>{leakage(t, lang, r)}</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                  <ResultChip result={r.result} />
                  <VerdictChip assessment={r.assessment} />
                </Box>
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{originLabel(t, r)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function UnitDetail({ history }: { history: UnitHistory }) {
  const { t, i18n } = useTranslation();
  const f = (key: string) => t(`machineScreens.fields.${key}`);
  const passed = history.records.filter((r) => r.result === 'pass').length;
  return (
    <Stack spacing={3}>
      <Card>
        <CardHeader title={t('machineScreens.units.unit')} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
        <CardContent sx={{ pt: 0 }}>
          <FieldList
            items={[
              {
                label: f('serial'),
                value: (
                  <Box component="span" sx={MONO}>
                    {history.serial}
                  </Box>
                ),
              },
              {
                label: f('product'),
                value: history.product ? (
                  <Link component={RouterLink} to={`/edit-product/${history.product.id}`}>
                    {productName(history.product, i18n.language)}
                  </Link>
                ) : (
                  <UnmatchedChip />
                ),
                testId: 'unit-product',
              },
              {
                label: f('range'),
                value: history.range ? (
                  <Link component={RouterLink} to={`/edit-serial-number/${history.range.id}`}>
                    {rangeLabel(history.range.startSerial, history.range.endSerial)}
                  </Link>
                ) : (
                  t('machineScreens.units.noRange')
                ),
              },
              ...(history.range ? [{ label: f('productionDate'), value: formatDate(i18n.language, history.range.productionDate) }] : []),
              {
                label: t('machineScreens.units.summary'),
                value: t('machineScreens.units.summaryValue', {
                  count: formatNumber(i18n.language, history.records.length, 0),
                  passed: formatNumber(i18n.language, passed, 0),
                }),
              },
            ]}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader
          title={t('machineScreens.units.tests')}
          subheader={t('machineScreens.units.newestFirst')}
          slotProps={{ title: { component: 'h2', variant: 'h6' } }}
        />
        <CardContent sx={{ pt: 0 }}>
          <Tests history={history} />
        </CardContent>
      </Card>
    </Stack>
  );
}

export default function UnitHistoryPage() {
  const { t } = useTranslation();
  const { serial } = useParams();
  const query = useUnitHistory(serial);
  return (
    <>
      <ScreenHeader title={t('machineScreens.units.heading', { serial: query.data?.serial ?? serial ?? '' })} />
      {query.data && <UnitRelease serial={query.data.serial} />}
      <RecordView query={query} backTo="/machine-data" backLabel="machineScreens.record.back" height={420}>
        {(history) => <UnitDetail history={history} />}
      </RecordView>
    </>
  );
}
