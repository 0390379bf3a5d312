/**
 * One test record: every field, the product's verdict with what its standard required beside what was
 * measured, the bench that sent it, when it arrived, its product and range (or that no range covers it
 * yet), and the pressure–time chart of its samples.
 */
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import type { TestRecordDetail } from '../../../../shared/contract/machine-data';
import { rangeLabel } from '../../../../shared/serial';
import { formatDate, formatDateTime, formatNumber } from '../../../components/format';
import { RecordView } from '../../../components/list-kit/record-view';
import { useTestRecord } from '../api';
import { backState } from '../components/back-to';
import { FieldList } from '../components/field-list';
import { RecordChartCard } from '../components/record-chart-card';
import { RequirementCheck } from '../components/requirement-check';
import { ResultChip, UnmatchedChip } from '../components/result-chip';
import { ScreenHeader } from '../components/screen-header';
import { SerialLink, unitHistoryPath } from '../../../components/serial-link';
import { leakage, mediumLabel, mpa, originLabel, seconds, testTypeLabel } from '../../../components/record-values';
import { productName } from '../../../../shared/product-name';

function RecordDetail({ record }: { record: TestRecordDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const f = (key: string) => t(`machineScreens.fields.${key}`);
  return (
    <Stack spacing={3}>
      <Card>
        <CardHeader
          title={t('machineScreens.record.test')}
          slotProps={{ title: { component: 'h2', variant: 'h6' } }}
          action={<ResultChip result={record.result} />}
        />
        <CardContent sx={{ pt: 0 }}>
          <FieldList
            items={[
              { label: f('serial'), value: <SerialLink serial={record.serial} />, testId: 'record-serial' },
              { label: f('recordId'), value: record.recordId },
              { label: f('testType'), value: testTypeLabel(t, record.testType) },
              { label: f('medium'), value: mediumLabel(t, record.medium) },
              { label: f('testPressure'), value: mpa(t, lang, record.testPressure) },
              { label: f('holdingSeconds'), value: seconds(t, lang, record.holdingSeconds) },
              { label: f('leakageValue'), value: leakage(t, lang, record) },
              { label: f('result'), value: t(`machineScreens.results.${record.result}`) },
              { label: f('testedAt'), value: formatDateTime(lang, record.testedAt) },
              { label: f('operator'), value: record.operator || '—' },
              { label: f('instrumentId'), value: record.instrumentId ?? '—', testId: 'record-instrument' },
              {
                label: f('fluidTemperature'),
                value: record.fluidTemperature === null ? '—' : `${formatNumber(lang, record.fluidTemperature, 1)} °C`,
                testId: 'record-fluid-temperature',
              },
              { label: f('side'), value: record.side ? t(`machineScreens.sides.${record.side}`) : '—', testId: 'record-side' },
            ]}
          />
        </CardContent>
      </Card>
      <RequirementCheck record={record} />
      <RecordChartCard record={record} />
      <Card>
        <CardHeader title={t('machineScreens.record.origin')} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
        <CardContent sx={{ pt: 0 }}>
          <FieldList
            items={[
              { label: f('machine'), value: originLabel(t, record), testId: 'record-bench' },
              ...(record.upload
                ? [
                    {
                      label: f('upload'),
                      value: t('machineScreens.record.uploadValue', {
                        file: record.upload.fileName,
                        by: record.upload.by,
                        at: formatDateTime(lang, record.upload.uploadedAt),
                      }),
                      testId: 'record-upload',
                    },
                    ...(record.upload.sha256
                      ? [{ label: f('uploadSha256'), value: record.upload.sha256, testId: 'record-upload-sha256' }]
                      : []),
                  ]
                : []),
              { label: f('receivedAt'), value: formatDateTime(lang, record.receivedAt) },
              {
                label: f('product'),
                value: record.productId ? (
                  <Link component={RouterLink} to={`/edit-product/${record.productId}`}>
                    {productName({ name: record.productName ?? '', nameZh: record.productNameZh }, lang)}
                  </Link>
                ) : (
                  <UnmatchedChip />
                ),
              },
              {
                label: f('range'),
                value: record.range ? (
                  <Link component={RouterLink} to={`/edit-serial-number/${record.range.id}`}>
                    {rangeLabel(record.range.startSerial, record.range.endSerial)}
                  </Link>
                ) : (
                  t('machineScreens.record.noRange')
                ),
              },
              ...(record.range ? [{ label: f('productionDate'), value: formatDate(i18n.language, record.range.productionDate) }] : []),
            ]}
          />
        </CardContent>
      </Card>
    </Stack>
  );
}

export default function RecordPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const query = useTestRecord(id);
  const location = useLocation();
  return (
    <>
      <ScreenHeader
        title={query.data ? t('machineScreens.record.heading', { recordId: query.data.recordId }) : t('machineScreens.record.title')}
      >
        {query.data && (
          <Button
            component={RouterLink}
            to={unitHistoryPath(query.data.serial)}
            state={backState(location)}
            startIcon={<HistoryOutlined />}
            variant="outlined"
          >
            {t('machineScreens.units.title')}
          </Button>
        )}
      </ScreenHeader>
      <RecordView query={query} backTo="/machine-data" backLabel="machineScreens.record.back" height={480}>
        {(record) => <RecordDetail record={record} />}
      </RecordView>
    </>
  );
}
