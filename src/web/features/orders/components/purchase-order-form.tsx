/**
 * Add a purchase order and edit one: the customer, the buyer's PO number and date, the certificate type it
 * asks for (empty: the default from Settings) and its items (line, product, quantity, the buyer's item code
 * and description, and optional tag numbers). Checked by the route's own schema (purchaseOrderInput).
 */
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ORDER_DOCUMENT_TYPES, purchaseOrderInput, type PurchaseOrder, type PurchaseOrderValues } from '../../../../shared/contract/orders';
import type { Product } from '../../../../shared/contract/products';
import type { ListResult } from '../../../components/data-table';
import { FormSelectField, FormTextField, RecordForm, useFieldErrorText, zodFormResolver } from '../../../components/form';
import { api } from '../../../lib/api';
import { productKeys } from '../../products/api';
import { useCustomerOptions } from '../api';
import { customerOption, RecordPicker, type PickedRecord } from './record-picker';

const DOCUMENT_TYPE_OPTIONS = [
  { value: '', label: 'orderScreens.purchaseOrders.defaultDocumentType' },
  ...ORDER_DOCUMENT_TYPES.map((d) => ({ value: d, label: d })),
];
const BASE_FIELDS = ['customerId', 'number', 'date', 'documentType', 'items'];
const ITEM_FIELDS = ['line', 'productId', 'quantity', 'buyerItemCode', 'description', 'tags'];

interface ItemValues {
  line: string;
  productId: string;
  quantity: string;
  buyerItemCode: string;
  description: string;
  tags: string[];
}
interface FormValues {
  customerId: string;
  number: string;
  date: string;
  documentType: string;
  items: ItemValues[];
}

const emptyItem = (line: number): ItemValues => ({
  line: String(line),
  productId: '',
  quantity: '1',
  buyerItemCode: '',
  description: '',
  tags: [],
});

function formValues(o?: PurchaseOrder): FormValues {
  return {
    customerId: o?.customerId ?? '',
    number: o?.number ?? '',
    date: o?.date ?? new Date().toISOString().slice(0, 10),
    documentType: o?.documentType ?? '',
    items: o
      ? o.items.map((it) => ({
          line: String(it.line),
          productId: it.productId,
          quantity: String(it.quantity),
          buyerItemCode: it.buyerItemCode,
          description: it.description,
          tags: it.tags,
        }))
      : [emptyItem(1)],
  };
}

/** The tags' error: the list's own (a tag twice in the order), else the first tag's (items.i.tags.j). */
function tagsError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { message?: unknown };
  if (typeof e.message === 'string') return e.message;
  for (const v of Object.values(error)) {
    const m = (v as { message?: unknown } | undefined)?.message;
    if (typeof m === 'string') return m;
  }
  return undefined;
}

/** The shared schema; an empty certificate type is left out (the default from Settings). */
const base = zodFormResolver(purchaseOrderInput) as unknown as Resolver<FormValues, unknown, PurchaseOrderValues>;
const resolver: Resolver<FormValues, unknown, PurchaseOrderValues> = (values, context, options) =>
  base({ ...values, documentType: values.documentType || undefined } as unknown as FormValues, context, options);

/** Every product by name, for the items' pickers (a valve maker's catalogue is a few hundred at most). */
function useAllProducts() {
  return useQuery({
    queryKey: [...productKeys.all, 'all-by-name'],
    queryFn: ({ signal }) => api.get<ListResult<Product>>('/products', { query: { pageSize: 'all', sort: 'name', order: 'asc' }, signal }),
    staleTime: 60_000,
  });
}

export function PurchaseOrderForm({
  order,
  submitLabel,
  save,
  onSaved,
}: {
  order?: PurchaseOrder;
  submitLabel: string;
  save: (values: PurchaseOrderValues) => Promise<unknown>;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const form = useForm<FormValues, unknown, PurchaseOrderValues>({ resolver, defaultValues: formValues(order) });
  const c = form.control;
  const items = useFieldArray({ control: c, name: 'items' });
  const products = useAllProducts();
  const productOptions = useMemo(() => (products.data?.items ?? []).map((p) => ({ id: p.id, label: p.name })), [products.data]);
  const fields = [...BASE_FIELDS, ...items.fields.flatMap((_, i) => ITEM_FIELDS.map((f) => `items.${i}.${f}`))];
  const initialCustomer = order ? customerOption({ id: order.customerId, name: order.customerName, code: order.customerCode }) : null;
  const itemsError = form.formState.errors.items?.root?.message ?? form.formState.errors.items?.message;

  return (
    <RecordForm form={form} fields={fields} save={save} onSaved={onSaved} submitLabel={submitLabel} cancelTo="/purchase-orders">
      <Grid size={{ xs: 12, md: 6 }}>
        <Controller
          control={c}
          name="customerId"
          render={({ field, fieldState }) => (
            <CustomerField
              initial={initialCustomer}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errorText(fieldState.error?.message)}
            />
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <FormTextField control={c} name="number" label="orderScreens.purchaseOrders.fields.number" autoComplete="off" required />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <FormTextField control={c} name="date" type="date" label="orderScreens.purchaseOrders.fields.date" required />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <FormSelectField
          control={c}
          name="documentType"
          label="orderScreens.purchaseOrders.fields.documentType"
          options={DOCUMENT_TYPE_OPTIONS}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500, mb: 1 }}>
          {t('orderScreens.purchaseOrders.items.title')}
        </Typography>
        {itemsError && (
          <Typography variant="body2" color="error" role="alert" sx={{ mb: 1 }}>
            {errorText(itemsError)}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          {items.fields.map((row, i) => (
            <Paper key={row.id} variant="outlined" sx={{ p: 1.5 }} data-testid="item-row">
              <Grid container spacing={1.5} sx={{ alignItems: 'flex-start' }}>
                <Grid size={{ xs: 4, md: 1.2 }}>
                  <FormTextField
                    control={c}
                    name={`items.${i}.line`}
                    label="orderScreens.purchaseOrders.items.line"
                    size="small"
                    slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                    required
                  />
                </Grid>
                <Grid size={{ xs: 8, md: 4 }}>
                  <Controller
                    control={c}
                    name={`items.${i}.productId`}
                    render={({ field, fieldState }) => (
                      <Autocomplete
                        id={`field-items.${i}.productId`}
                        size="small"
                        options={productOptions}
                        loading={products.isPending}
                        loadingText={t('app.loading')}
                        noOptionsText={t('orderScreens.picker.none')}
                        value={productOptions.find((p) => p.id === field.value) ?? null}
                        onChange={(_, v) => field.onChange(v?.id ?? '')}
                        onBlur={field.onBlur}
                        getOptionLabel={(o) => o.label}
                        isOptionEqualToValue={(a, b) => a.id === b.id}
                        renderInput={(params) => (
                          <TextField
                            {...params}
                            required
                            label={t('orderScreens.purchaseOrders.items.product')}
                            error={!!fieldState.error}
                            helperText={errorText(fieldState.error?.message)}
                          />
                        )}
                      />
                    )}
                  />
                </Grid>
                <Grid size={{ xs: 4, md: 1.4 }}>
                  <FormTextField
                    control={c}
                    name={`items.${i}.quantity`}
                    label="orderScreens.purchaseOrders.items.quantity"
                    size="small"
                    slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                    required
                  />
                </Grid>
                <Grid size={{ xs: 8, md: 2.2 }}>
                  <FormTextField
                    control={c}
                    name={`items.${i}.buyerItemCode`}
                    label="orderScreens.purchaseOrders.items.buyerItemCode"
                    size="small"
                    autoComplete="off"
                  />
                </Grid>
                <Grid size={{ xs: 10, md: 2.6 }}>
                  <FormTextField
                    control={c}
                    name={`items.${i}.description`}
                    label="orderScreens.purchaseOrders.items.description"
                    size="small"
                    autoComplete="off"
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 11.4 }} sx={{ order: { xs: 1, md: 0 } }}>
                  <Controller
                    control={c}
                    name={`items.${i}.tags`}
                    render={({ field, fieldState }) => {
                      const message = tagsError(fieldState.error);
                      return (
                        <Autocomplete
                          multiple
                          freeSolo
                          size="small"
                          options={[]}
                          value={field.value}
                          onChange={(_, v) => field.onChange([...new Set(v.map((tag) => tag.trim()).filter(Boolean))])}
                          onBlur={field.onBlur}
                          renderValue={(value, getItemProps) =>
                            value.map((tag, index) => {
                              const { key, ...itemProps } = getItemProps({ index });
                              return <Chip key={key} size="small" label={tag} {...itemProps} />;
                            })
                          }
                          renderInput={(params) => (
                            <TextField
                              {...params}
                              id={`field-items.${i}.tags`}
                              label={t('orderScreens.purchaseOrders.items.tags')}
                              error={!!message}
                              helperText={errorText(message) ?? t('orderScreens.purchaseOrders.items.tagsHint')}
                            />
                          )}
                        />
                      );
                    }}
                  />
                </Grid>
                <Grid size={{ xs: 2, md: 0.6 }} sx={{ display: 'flex', justifyContent: 'flex-end' }}>
                  <IconButton
                    aria-label={t('orderScreens.purchaseOrders.items.remove', { n: i + 1 })}
                    onClick={() => items.remove(i)}
                    size="small"
                    sx={{ mt: 0.5 }}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Grid>
              </Grid>
            </Paper>
          ))}
        </Box>
        <Button
          startIcon={<AddOutlined />}
          onClick={() => {
            const lines = form.getValues('items').map((it) => Number(it.line) || 0);
            items.append(emptyItem(Math.max(0, ...lines) + 1));
          }}
          sx={{ mt: 1.5 }}
        >
          {t('orderScreens.purchaseOrders.items.add')}
        </Button>
      </Grid>
    </RecordForm>
  );
}

function CustomerField({
  initial,
  value,
  onChange,
  onBlur,
  error,
}: {
  initial: PickedRecord | null;
  value: string;
  onChange: (id: string) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState(initial);
  const selected = value && picked?.id === value ? picked : null;
  return (
    <RecordPicker
      id="field-customerId"
      label={t('orderScreens.purchaseOrders.fields.customer')}
      value={selected}
      onChange={(v) => {
        setPicked(v);
        onChange(v?.id ?? '');
      }}
      onBlur={onBlur}
      useOptions={useCustomerOptions}
      toOption={customerOption}
      error={!!error}
      helperText={error}
      required
    />
  );
}
