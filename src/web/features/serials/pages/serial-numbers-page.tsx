import QrCode2 from '@mui/icons-material/QrCode2';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SERIAL_RANGE_SORTS, type SerialRange, type SerialRangeSort } from '../../../../shared/contract/serials';
import { rangeLabel } from '../../../../shared/serial';
import type { Column, RowHeight } from '../../../components/data-table';
import { formatDate, formatNumber } from '../../../components/format';
import { listPrefetch, ListView, RowButton, useList, type UseListOptions, useRecordActions } from '../../../components/list-kit';
import { useAppAbility } from '../../../lib/ability';
import { productKeys, useProduct } from '../../products/api';
import { serialKeys, useDeleteSerialRange } from '../api';
import { LabelsDialog } from '../components/labels-dialog';
import { ReleaseDialog } from '../components/release-dialog';
import { useProductOptions } from '../../products/api';
import { ProductPicker, type ProductOption } from '../../../components/product-picker';
import { labelled } from '../../../../shared/i18n/punctuation';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, whiteSpace: 'nowrap' } as const;

/**
 * A range's least height: a one-line row in the table (73 px at 1440), a card of its product, serials, units,
 * day and material (195 px at 390). The skeletons take these heights, so the page of ranges pushes nothing
 * down as it arrives (on a phone three short skeletons gave way to ten cards: a layout shift of 0.11).
 */
const ROW_HEIGHT: RowHeight = { table: 73, card: 195 };

/** `product` in the address (what a shared link carries), `productId` for the API. */
const FILTERS = [{ url: 'product', api: 'productId' }] as const;

const named = (r: SerialRange) => rangeLabel(r.startSerial, r.endSerial);

const LIST: UseListOptions<SerialRangeSort, 'product'> = {
  key: serialKeys.lists(),
  path: '/serial-ranges',
  sorts: SERIAL_RANGE_SORTS,
  defaultSort: 'productName',
  filters: FILTERS,
};

/** The list this address shows, asked for as the screen's code arrives (src/web/app/router.tsx). */
export const prefetch = listPrefetch(LIST);

export default function SerialNumbersPage() {
  const { t, i18n } = useTranslation();
  const ability = useAppAbility();
  const list = useList<SerialRange, SerialRangeSort, 'product'>(LIST);
  const productId = list.filters.product;
  const filterProduct = useProduct(productId);
  // The picked option shows at once; after a reload the name comes from the product's record.
  const [picked, setPicked] = useState<ProductOption | null>(null);
  const selected: ProductOption | null = !productId
    ? null
    : picked?.id === productId
      ? picked
      : filterProduct.data
        ? { id: filterProduct.data.id, name: filterProduct.data.name }
        : null;
  const remove = useDeleteSerialRange();
  const actions = useRecordActions<SerialRange>({
    ns: 'serials',
    name: (r) => ({ range: named(r) }),
    confirm: (r) => ({ range: `${named(r)} (${r.productName})` }),
    editTo: ability.can('update', 'SerialRange') ? (r) => `/edit-serial-number/${r.id}` : undefined,
    remove: ability.can('delete', 'SerialRange') ? (r) => remove.mutateAsync(r.id) : undefined,
  });
  const lang = i18n.language;
  const [labelsFor, setLabelsFor] = useState<SerialRange | null>(null);
  const [releaseFor, setReleaseFor] = useState<SerialRange | null>(null);

  const columns = useMemo<Column<SerialRange>[]>(() => {
    const cols: Column<SerialRange>[] = [
      {
        id: 'productName',
        label: 'serials.fields.productName',
        sortable: true,
        card: 'title',
        render: (r) => (
          <Typography variant="body2" sx={{ fontWeight: 500, minWidth: 140 }}>
            {r.productName}
          </Typography>
        ),
      },
      {
        id: 'startSerial',
        label: 'serials.fields.startSerial',
        sortable: true,
        card: 'key',
        render: (r) => (
          <Box component="span" sx={mono}>
            {r.startSerial}
          </Box>
        ),
      },
      {
        id: 'endSerial',
        label: 'serials.fields.endSerial',
        sortable: true,
        card: 'key',
        render: (r) => (
          <Box component="span" sx={mono}>
            {r.endSerial}
          </Box>
        ),
      },
      {
        id: 'totalUnits',
        label: 'serials.fields.totalUnits',
        sortable: true,
        align: 'right',
        card: 'key',
        render: (r) => formatNumber(lang, r.totalUnits, 0),
      },
      {
        id: 'productionDate',
        label: 'serials.fields.productionDate',
        sortable: true,
        card: 'key',
        render: (r) => (
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {formatDate(lang, r.productionDate)}
          </Box>
        ),
      },
      {
        id: 'bodyMaterial',
        label: 'serials.fields.bodyMaterial',
        card: 'key',
        render: (r) =>
          r.bodyMaterial ? (
            <Box component="span" title={t(`standards.materials.${r.bodyMaterial}`)} sx={{ whiteSpace: 'nowrap' }}>
              {t(`standards.materialShort.${r.bodyMaterial}`)}
            </Box>
          ) : (
            '—'
          ),
        cardRender: (r) => (r.bodyMaterial ? t(`standards.materials.${r.bodyMaterial}`) : null),
      },
    ];
    const labels: Column<SerialRange> = {
      id: 'labels',
      label: 'labels.print',
      align: 'right',
      card: 'actions',
      render: (r) => (
        <RowButton
          icon={<QrCode2 fontSize="small" />}
          hint={t('labels.print')}
          label={labelled(i18n.language, t('labels.print'), named(r))}
          onClick={() => setLabelsFor(r)}
        />
      ),
    };
    // The release by an authorised inspector: the gate's summary, and who released the range and when.
    const release: Column<SerialRange> = {
      id: 'release',
      label: 'serials.release.action',
      align: 'right',
      card: 'actions',
      render: (r) => (
        <RowButton
          icon={<VerifiedOutlined fontSize="small" />}
          hint={t('serials.release.action')}
          label={labelled(i18n.language, t('serials.release.action'), named(r))}
          onClick={() => setReleaseFor(r)}
        />
      ),
    };
    return [...cols, release, labels, ...actions.columns];
  }, [t, lang, actions.columns]);

  return (
    <ListView
      list={list}
      columns={columns}
      ns="serials"
      title="pages.serialNumbers"
      rowHeight={ROW_HEIGHT}
      add={ability.can('create', 'SerialRange') ? { to: '/add-serial-number', label: 'pages.addSerialNumber' } : undefined}
      filters={
        <Box sx={{ minWidth: 240, flex: { xs: '1 1 100%', sm: '0 0 260px' } }}>
          <ProductPicker
            useOptions={useProductOptions}
            id="product-filter"
            label={t('serials.list.productFilter')}
            value={selected}
            onChange={(p) => {
              setPicked(p);
              list.setFilter('product', p?.id);
            }}
            size="small"
          />
        </Box>
      }
      csv={{
        canImport: ability.can('create', 'SerialRange'),
        fieldLabel: (f) => (f === 'product' ? 'serials.fields.productName' : `serials.fields.${f}`),
        invalidate: [serialKeys.all, productKeys.all],
      }}
    >
      {actions.dialog}
      <LabelsDialog range={labelsFor} onClose={() => setLabelsFor(null)} />
      <ReleaseDialog key={releaseFor?.id ?? ''} range={releaseFor} onClose={() => setReleaseFor(null)} />
    </ListView>
  );
}
