/**
 * The form of Add Serial Number and Update a serial number, validated by the shared `serialRangeInput`
 * schema. Total Units is computed as the user types (the server checks it again) and says why it cannot
 * be computed; the server's overlap error lands on Starting Serial and names the colliding range. Body
 * Material offers the materials the chosen product has a pressure rating for: the one its units follow.
 */
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BODY_MATERIALS, ratingOf, type BodyMaterial } from '../../../../shared/standards/requirement';
import { serialRangeInput, type SerialRange, type SerialRangeInput, type SerialRangeValues } from '../../../../shared/contract/serials';
import { FormSelectField, FormTextField, RecordForm, useFieldErrorText, zodFormResolver } from '../../../components/form';
import { formatNumber } from '../../../components/format';
import { useProduct } from '../../products/api';
import { useProductOptions } from '../../products/api';
import { ProductPicker, type ProductOption } from '../../../components/product-picker';
import { computeTotalUnits } from './total-units';

const FIELDS = ['productId', 'startSerial', 'endSerial', 'totalUnits', 'productionDate', 'bodyMaterial'] as const;
type FormValues = Record<(typeof FIELDS)[number], string>;

/** Today in the browser's time zone, for the date picker's upper bound. */
function localToday(): string {
  const d = new Date();
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/** Total Units is derived: its own error only matters when both serials are fine. */
function useRangeResolver(): Resolver<FormValues, unknown, SerialRangeValues> {
  return useMemo(() => {
    const base = zodFormResolver(serialRangeInput) as unknown as Resolver<FormValues, unknown, SerialRangeValues>;
    return async (values, context, options) => {
      const result = await base(values, context, options);
      if (result.errors.startSerial || result.errors.endSerial) delete result.errors.totalUnits;
      return result;
    };
  }, []);
}

export function SerialRangeForm({
  range,
  submitLabel,
  save,
  onSaved,
}: {
  range?: SerialRange;
  submitLabel: string;
  save: (values: SerialRangeInput) => Promise<unknown>;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useFieldErrorText();
  const resolver = useRangeResolver();
  const [product, setProduct] = useState<ProductOption | null>(range ? { id: range.productId, name: range.productName } : null);
  const form = useForm<FormValues, unknown, SerialRangeValues>({
    resolver,
    defaultValues: {
      productId: range?.productId ?? '',
      startSerial: range?.startSerial ?? '',
      endSerial: range?.endSerial ?? '',
      totalUnits: range ? String(range.totalUnits) : '',
      productionDate: range?.productionDate ?? '',
      bodyMaterial: range?.bodyMaterial ?? '',
    },
  });
  const chosen = useProduct(product?.id);
  const material = useWatch({ control: form.control, name: 'bodyMaterial' }) ?? '';
  const rated: BodyMaterial[] = chosen.data ? BODY_MATERIALS.filter((m) => ratingOf(chosen.data, m) !== null) : [];
  // The chosen material stays on offer while the product loads, and the range's own if its product's rating was removed since.
  const keep = (m: BodyMaterial) => m === material && (!chosen.data || (m === range?.bodyMaterial && chosen.data.id === range.productId));
  const offered = BODY_MATERIALS.filter((m) => rated.includes(m) || keep(m));
  const offeredKey = offered.join();
  const materialOptions = [
    { value: '', label: 'standards.notStated' },
    ...offered.map((m) => ({ value: m, label: `standards.materials.${m}` })),
  ];

  // The body's heat sets the range's material on the server (saving the heats, or the material's rating
  // basis): a field the user has not touched follows it.
  const savedMaterial = range?.bodyMaterial ?? '';
  useEffect(() => {
    if (!form.getFieldState('bodyMaterial').isDirty && form.getValues('bodyMaterial') !== savedMaterial)
      form.resetField('bodyMaterial', { defaultValue: savedMaterial });
  }, [savedMaterial, form]);

  // Another product: a material it has no rating for is dropped.
  useEffect(() => {
    if (chosen.data && material && !offeredKey.split(',').includes(material)) form.setValue('bodyMaterial', '', { shouldDirty: true });
  }, [chosen.data, material, offeredKey, form]);
  const [start, end] = useWatch({ control: form.control, name: ['startSerial', 'endSerial'] });
  const total = computeTotalUnits(start ?? '', end ?? '');
  const totalText = total.kind === 'units' ? String(total.units) : '';

  useEffect(() => {
    if (form.getValues('totalUnits') !== totalText) form.setValue('totalUnits', totalText);
  }, [form, totalText]);

  const totalError = form.formState.errors.totalUnits?.message;
  const totalHelper = total.kind === 'reason' ? t(total.key, total.params) : totalError ? errorText(totalError) : t('serials.total.hint');

  return (
    <RecordForm form={form} fields={FIELDS} save={save} onSaved={onSaved} submitLabel={submitLabel} cancelTo="/serial-numbers">
      <Grid size={{ xs: 12, md: 6 }}>
        <Controller
          control={form.control}
          name="productId"
          render={({ field, fieldState }) => (
            <ProductPicker
              useOptions={useProductOptions}
              id="field-productId"
              label={t('serials.fields.product')}
              value={product}
              onChange={(v) => {
                setProduct(v);
                field.onChange(v?.id ?? '');
              }}
              onBlur={field.onBlur}
              error={!!fieldState.error}
              helperText={errorText(fieldState.error?.message)}
              required
            />
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <FormTextField
          control={form.control}
          name="productionDate"
          label="serials.fields.productionDate"
          type="date"
          required
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: localToday() } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={form.control}
          name="startSerial"
          label="serials.fields.startSerial"
          autoComplete="off"
          required
          hint="serials.form.serialHint"
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={form.control}
          name="endSerial"
          label="serials.fields.endSerial"
          autoComplete="off"
          required
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextField
          id="field-totalUnits"
          label={t('serials.fields.totalUnits')}
          value={total.kind === 'units' ? formatNumber(i18n.language, Number(total.units), 0) : ''}
          placeholder="—"
          fullWidth
          error={total.kind === 'reason' || !!totalError}
          helperText={totalHelper}
          slotProps={{
            input: { readOnly: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'total-units', 'aria-live': 'polite', 'aria-readonly': true },
            formHelperText: { id: 'field-totalUnits-helper-text', role: total.kind === 'reason' ? 'status' : undefined },
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <FormSelectField
          control={form.control}
          name="bodyMaterial"
          label="serials.fields.bodyMaterial"
          options={materialOptions}
          // Not disabled before a product is chosen (only "Not stated" is offered then): a disabled field's hint
          // would be too faint to read (WCAG contrast), and it is the hint that says to pick a product first.
          hint={product ? 'serials.form.bodyMaterialHint' : 'serials.form.bodyMaterialPickProduct'}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        />
      </Grid>
    </RecordForm>
  );
}
