/**
 * The form of Add Product and Edit a product: every field of docs/product.md §3 and the test standard with the
 * fields its requirement depends on, validated by the shared `productInput` schema (the route's own), units
 * as adornments, server field errors on their fields, and below them the requirement the product's tests
 * will be judged by, computed live from what is typed (RequirementTable).
 */
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  FLUIDS,
  PRESSURE_CLASSES,
  PRODUCT_FIELDS,
  productInput,
  type Product,
  type ProductInput,
  type ProductValues,
} from '../../../../shared/contract/products';
import { EDITIONS, editionFor, STANDARDS } from '../../../../shared/standards/requirement';
import { editionIn } from '../../../../shared/standards/requirement-view';
import { npsLabel } from '../../../../shared/standards/sizes';
import { LEAKAGE_RATES, SEAT_TYPES, TEST_STANDARD_IDS, VALVE_TYPES } from '../../../../shared/standards/types';
import { FormCheckbox, FormSelectField, FormTextField, RecordForm, zodFormResolver } from '../../../components/form';
import { judgedFromForm, type ProductFormValues } from './judged-product';
import { RequirementTable } from './requirement-table';

export const FLUID_OPTIONS = FLUIDS.map((f) => ({ value: f, label: `products.fluids.${f}` }));
const NOT_STATED = { value: '', label: 'standards.notStated' };
const VALVE_TYPE_OPTIONS = [NOT_STATED, ...VALVE_TYPES.map((v) => ({ value: v, label: `standards.valveTypes.${v}` }))];
const SEAT_TYPE_OPTIONS = [NOT_STATED, ...SEAT_TYPES.map((v) => ({ value: v, label: `standards.seatTypes.${v}` }))];
/** The rates a standard defines (EN 12266-1: A to G; ISO 5208 and API 6D: all ten). */
const leakageRateOptions = (rates: readonly string[]) => [
  NOT_STATED,
  ...LEAKAGE_RATES.filter((v) => rates.includes(v)).map((v) => ({ value: v, label: `standards.leakageRates.${v}` })),
];
/** The product form's own field beside PRODUCT_FIELDS (the CSV does not carry it). */
const FORM_FIELDS = [...PRODUCT_FIELDS, 'testEdition'] as const;
// Standard names are proper names, the same in every language (t() returns an unknown key as it is).
const STANDARD_OPTIONS = [
  { value: '', label: 'standards.none' },
  ...TEST_STANDARD_IDS.map((id) => ({ value: id, label: STANDARDS[id].name })),
];

type FormValues = ProductFormValues & { testEdition: string };

const num = (n: number | null) => (n === null ? '' : String(n));

export function productFormValues(p?: Product): FormValues {
  return {
    name: p?.name ?? '',
    nameZh: p?.nameZh ?? '',
    fluid: p?.fluid ?? '',
    connection: p?.connection ?? '',
    application: p?.application ?? '',
    applicationMedium: p?.applicationMedium ?? '',
    connectionZh: p?.connectionZh ?? '',
    applicationZh: p?.applicationZh ?? '',
    applicationMediumZh: p?.applicationMediumZh ?? '',
    pressureFc: num(p?.pressureFc ?? null),
    pressureWcb: num(p?.pressureWcb ?? null),
    pressureSus: num(p?.pressureSus ?? null),
    temperatureMax: num(p?.temperatureMax ?? null),
    temperatureMin: num(p?.temperatureMin ?? null),
    valveType: p?.valveType ?? '',
    nominalSize: num(p?.nominalSize ?? null),
    pressureClass: p?.pressureClass ?? '',
    seatType: p?.seatType ?? '',
    testStandard: p?.testStandard ?? '',
    leakageRate: p?.leakageRate ?? '',
    testEdition: p?.testEdition ?? '',
    gtin: p?.gtin ?? '',
    bidirectional: p?.bidirectional ?? false,
  };
}

/** The shared schema, except that an unchosen fluid reads "This field is required" like every empty field. */
function useProductResolver(): Resolver<FormValues, unknown, ProductValues> {
  return useMemo(() => {
    const base = zodFormResolver(productInput) as unknown as Resolver<FormValues, unknown, ProductValues>;
    return async (values, context, options) => {
      const result = await base(values, context, options);
      const fluid = result.errors.fluid;
      if (fluid && values.fluid === '') result.errors.fluid = { ...fluid, message: 'validation.required' };
      return result;
    };
  }, []);
}

export function ProductForm({
  product,
  submitLabel,
  save,
  onSaved,
}: {
  product?: Product;
  submitLabel: string;
  save: (values: ProductInput) => Promise<unknown>;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const resolver = useProductResolver();
  const form = useForm<FormValues, unknown, ProductValues>({ resolver, defaultValues: productFormValues(product) });
  const decimal = { inputMode: 'decimal' as const };
  const mpa = { htmlInput: decimal, input: { endAdornment: <InputAdornment position="end">{t('products.units.mpa')}</InputAdornment> } };
  const celsius = {
    htmlInput: decimal,
    input: { endAdornment: <InputAdornment position="end">{t('products.units.celsius')}</InputAdornment> },
  };

  const c = form.control;
  const values = useWatch({ control: c }) as FormValues;
  const judged = judgedFromForm(values);
  const edition = judged.testStandard ? (editionFor(judged) ?? STANDARDS[judged.testStandard]) : null;
  const usesLeakageRate = !!edition?.usesLeakageRate;
  // API 6D sets its own rate by seat when the product names none: the rate is then optional.
  const rateRequired = usesLeakageRate && !edition?.defaultLeakageRate;
  const editions = judged.testStandard ? EDITIONS[judged.testStandard] : [];
  const editionOptions = [
    { value: '', label: 'standards.editionInForce' },
    ...editions.map((e) => ({ value: e.editionKey, label: editionIn(e, i18n.language) })),
  ];

  // A leakage rate only means something under EN 12266-1 / ISO 5208 / API 6D: switching to another standard drops it.
  useEffect(() => {
    if (!usesLeakageRate && form.getValues('leakageRate') !== '') form.setValue('leakageRate', '', { shouldDirty: true });
  }, [form, usesLeakageRate]);
  // An edition belongs to its standard: another standard starts from the edition in force.
  const editionKept = editions.some((e) => e.editionKey === values.testEdition);
  useEffect(() => {
    if (!editionKept && form.getValues('testEdition') !== '') form.setValue('testEdition', '', { shouldDirty: true });
  }, [form, editionKept]);

  const nps = judged.nominalSize === null ? null : npsLabel(judged.nominalSize);

  return (
    <RecordForm form={form} fields={FORM_FIELDS} save={save} onSaved={onSaved} submitLabel={submitLabel} cancelTo="/products">
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField control={c} name="name" label="products.fields.name" autoComplete="off" required />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField control={c} name="nameZh" label="products.fields.nameZh" autoComplete="off" hint="products.nameZhHint" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormSelectField control={c} name="fluid" label="products.fields.fluid" options={FLUID_OPTIONS} required />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField control={c} name="connection" label="products.fields.connection" autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField control={c} name="application" label="products.fields.application" autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField control={c} name="applicationMedium" label="products.fields.applicationMedium" autoComplete="off" />
      </Grid>
      {(['connectionZh', 'applicationZh', 'applicationMediumZh'] as const).map((name) => (
        <Grid key={name} size={{ xs: 12, md: 4 }}>
          <FormTextField control={c} name={name} label={`products.fields.${name}`} autoComplete="off" hint="products.textZhHint" />
        </Grid>
      ))}
      {(['pressureFc', 'pressureWcb', 'pressureSus'] as const).map((name) => (
        <Grid key={name} size={{ xs: 12, sm: 4 }}>
          <FormTextField control={c} name={name} label={`products.fields.${name}`} autoComplete="off" slotProps={mpa} />
        </Grid>
      ))}
      {(['temperatureMax', 'temperatureMin'] as const).map((name) => (
        <Grid key={name} size={{ xs: 12, sm: 6 }}>
          <FormTextField control={c} name={name} label={`products.fields.${name}`} autoComplete="off" slotProps={celsius} required />
        </Grid>
      ))}
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <FormSelectField
          control={c}
          name="valveType"
          label="products.fields.valveType"
          options={VALVE_TYPE_OPTIONS}
          required={!!judged.testStandard}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <FormTextField
          control={c}
          name="nominalSize"
          label="products.fields.nominalSize"
          autoComplete="off"
          required={!!judged.testStandard}
          slotProps={{
            htmlInput: { inputMode: 'numeric' },
            input: {
              endAdornment: nps ? (
                <InputAdornment position="end" data-testid="nominal-size-nps">
                  {nps}
                </InputAdornment>
              ) : undefined,
            },
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {/* Free text with the usual classes offered as suggestions (a datalist: no extra component). */}
        <FormTextField
          control={c}
          name="pressureClass"
          label="products.fields.pressureClass"
          autoComplete="off"
          hint="products.pressureClassHint"
          slotProps={{ htmlInput: { list: 'product-pressure-classes', autoCapitalize: 'characters' } }}
        />
        <datalist id="product-pressure-classes">
          {PRESSURE_CLASSES.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <FormSelectField
          control={c}
          name="seatType"
          label="products.fields.seatType"
          options={SEAT_TYPE_OPTIONS}
          required={!!judged.testStandard}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <FormSelectField
          control={c}
          name="testStandard"
          label="products.fields.testStandard"
          options={STANDARD_OPTIONS}
          hint="products.testStandardHint"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        />
      </Grid>
      {usesLeakageRate && (
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <FormSelectField
            control={c}
            name="leakageRate"
            label="products.fields.leakageRate"
            options={leakageRateOptions(edition?.leakageRates ?? [])}
            hint={rateRequired ? 'products.leakageRateHint' : 'products.leakageRateOptionalHint'}
            required={rateRequired}
          />
        </Grid>
      )}
      {editions.length > 1 && (
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <FormSelectField
            control={c}
            name="testEdition"
            label="products.fields.testEdition"
            options={editionOptions}
            hint="products.testEditionHint"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          />
        </Grid>
      )}
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        {/* Digits only, but text: a GTIN-12's leading zero is part of it. */}
        <FormTextField
          control={c}
          name="gtin"
          label="products.fields.gtin"
          autoComplete="off"
          hint="products.gtinHint"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 40 } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 8 }}>
        {/* A valve sealing in both directions has its closure tests judged on each side (closure-sides.ts). */}
        <FormCheckbox control={c} name="bidirectional" label="products.fields.bidirectional" hint="products.bidirectionalHint" />
      </Grid>
      <Grid size={12}>
        <RequirementTable product={judged} />
      </Grid>
    </RecordForm>
  );
}
