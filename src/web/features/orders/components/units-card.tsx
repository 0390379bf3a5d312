/**
 * The units a delivery ships: serial, line, tag, product, and once released each unit's certificate (its
 * PDF, as the Searches screen opens it). Remove while the delivery is open; Correct the tag once released.
 * A table from 600 px, cards below.
 */
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { DeliveryDetail } from '../../../../shared/contract/orders';
import type { Column } from '../../../components/data-table';
import { mono } from './format';
import { certificateHref } from './release-view';
import { RowsTable } from './rows-table';
import { productName } from '../../../../shared/product-name';

type Unit = DeliveryDetail['units'][number];

export function UnitsCard({
  delivery: d,
  canRemove,
  canTag,
  onRemove,
  onTag,
}: {
  delivery: DeliveryDetail;
  canRemove: boolean;
  canTag: boolean;
  onRemove: (serial: string) => void;
  onTag: (unit: Unit) => void;
}) {
  const { t, i18n } = useTranslation();
  const certificates = d.status === 'released' || d.status === 'releasing' || d.units.some((u) => u.reportId);
  const columns: Column<Unit>[] = [
    {
      id: 'serial',
      label: 'orderScreens.units.serial',
      card: 'title',
      render: (u) => (
        <Box component="span" sx={mono}>
          {u.serial}
        </Box>
      ),
    },
    { id: 'line', label: 'orderScreens.units.line', align: 'right', card: 'key', render: (u) => u.line },
    { id: 'tag', label: 'orderScreens.units.tag', card: 'key', render: (u) => u.tag || '—' },
    {
      id: 'product',
      label: 'orderScreens.units.product',
      card: 'key',
      render: (u) => productName({ name: u.productName, nameZh: u.productNameZh }, i18n.language),
    },
  ];
  if (certificates)
    columns.push({
      id: 'certificate',
      label: 'orderScreens.units.certificate',
      card: 'key',
      render: (u) =>
        u.reportId && u.reportNumber ? (
          <Link
            href={certificateHref(u.reportId)}
            target="_blank"
            rel="noopener"
            variant="body2"
            sx={{ whiteSpace: 'nowrap' }}
            aria-label={t('orderScreens.units.openCertificate', { number: u.reportNumber, serial: u.serial })}
          >
            {u.reportNumber}
          </Link>
        ) : (
          '—'
        ),
    });
  if (canRemove || canTag)
    columns.push({
      id: 'actions',
      label: 'app.actions',
      align: 'right',
      card: 'actions',
      render: (u) => (
        <Box sx={{ my: -0.5, whiteSpace: 'nowrap' }}>
          {canRemove && (
            <IconButton size="small" aria-label={t('orderScreens.units.remove', { serial: u.serial })} onClick={() => onRemove(u.serial)}>
              <DeleteOutline fontSize="small" />
            </IconButton>
          )}
          {canTag && (
            <IconButton size="small" aria-label={t('orderScreens.units.editTag', { serial: u.serial })} onClick={() => onTag(u)}>
              <EditOutlined fontSize="small" />
            </IconButton>
          )}
        </Box>
      ),
    });
  return (
    <Card component="section" aria-labelledby="units-title">
      <CardContent>
        <Typography id="units-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('orderScreens.units.title')}
        </Typography>
        {d.units.length === 0 ? (
          <Typography color="text.secondary">{t('orderScreens.units.none')}</Typography>
        ) : (
          <RowsTable columns={columns} rows={d.units} getRowId={(u) => u.serial} label="orderScreens.units.title" testId="delivery-units" />
        )}
      </CardContent>
    </Card>
  );
}
