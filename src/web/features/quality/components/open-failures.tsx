/**
 * The failures nobody retested: a list someone must act on. Each links to the unit's history (to see the
 * retest once it happens) and to the failed record. Rows wrap as cards on a phone; nothing scrolls sideways.
 */
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../components/format';
import { SerialLink } from '../../../components/serial-link';
import { testTypeLabel } from '../../../components/record-values';
import { useOpenFailures, type QualityRange } from '../api';
import { RowList } from '../../../components/row-list';
import { productName } from '../../../../shared/product-name';

export function OpenFailures({ range }: { range: QualityRange }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <RowList
      query={useOpenFailures(range)}
      testId="open-failures"
      emptyKey="quality.open.empty"
      moreKey="quality.open.more"
      columns="minmax(140px, 1fr) 1fr 1.4fr 1.2fr auto"
      skeletonHeight={80}
    >
      {(f) => (
        <>
          <SerialLink serial={f.serial} />
          <Typography variant="body2">{testTypeLabel(t, f.testType)}</Typography>
          <Typography variant="body2" color="text.secondary" component="time" dateTime={f.failedAt}>
            {formatDateTime(lang, f.failedAt)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {[
              f.productName ? productName({ name: f.productName, nameZh: f.productNameZh }, lang) : t('quality.breakdown.unmatched'),
              f.machineName ?? t('quality.breakdown.uploaded'),
            ].join(' · ')}
          </Typography>
          <Link
            component={RouterLink}
            to={`/machine-data/${f.id}`}
            variant="body2"
            aria-label={`${t('quality.open.record')} ${f.recordId}`}
          >
            {t('quality.open.record')}
          </Link>
        </>
      )}
    </RowList>
  );
}
