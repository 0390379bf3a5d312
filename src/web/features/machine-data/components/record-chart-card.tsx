/**
 * The record page's pressure–time card: the chart of the record's samples, or, for a record sent without
 * samples (a bench may send only the summary values), a line saying so instead of an empty "0 samples" chart.
 */
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TestRecordDetail } from '../../../../shared/contract/machine-data';
import { formatNumber } from '../../../components/format';
import { PressureChart } from './pressure-chart';

export function RecordChartCard({ record }: { record: Pick<TestRecordDetail, 'samples' | 'testPressure' | 'holdingSeconds'> }) {
  const { t, i18n } = useTranslation();
  const none = record.samples.length === 0;
  return (
    <Card>
      <CardHeader
        title={t('machineScreens.chart.title')}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
        subheader={
          none ? undefined : t('machineScreens.chart.samples', { formatted: formatNumber(i18n.language, record.samples.length, 0) })
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {none ? (
          <Typography color="text.secondary" data-testid="record-no-samples">
            {t('machineScreens.chart.noSamples')}
          </Typography>
        ) : (
          <PressureChart samples={record.samples} testPressure={record.testPressure} holdingSeconds={record.holdingSeconds} />
        )}
      </CardContent>
    </Card>
  );
}
