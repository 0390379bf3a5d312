/**
 * The form of Add Product and Edit a product: every field of PRODUCT.md §3, validated by the shared
 * `productInput` schema (the route's own), units as adornments, server field errors on their fields.
 */
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import { useMemo } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FLUIDS, PRODUCT_FIELDS, TEST_STANDARDS, productInput, type Product, type ProductInput, type ProductValues } from '../../../../shared/contract/products';
import { FormSelectField, FormTextField, RecordForm, zodFormResolver } from '../../../components/form';

export const FLUID_OPTIONS = FLUIDS.map((f) => ({ value: f, label: `products.fluids.${f}` }));

type FormValues = Record<(typeof PRODUCT_FIELDS)[number], string>;

const num = (n: number | null) => (n === null ? '' : String(n));

export function productFormValues(p?: Product): FormValues {
  return {
    name: p?.name ?? '',
    fluid: p?.fluid ?? '',
    connection: p?.connection ?? '',
    application: p?.application ?? '',
    applicationMedium: p?.applicationMedium ?? '',
    pressureFc: num(p?.pressureFc ?? null),
    pressureWcb: num(p?.pressureWcb ?? null),
    pressureSus: num(p?.pressureSus ?? null),
    temperatureMax: num(p?.temperatureMax ?? null),
    temperatureMin: num(p?.temperatureMin ?? null),
    testStandard: p?.testStandard ?? '',
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
  const { t } = useTranslation();
  const resolver = useProductResolver();
  const form = useForm<FormValues, unknown, ProductValues>({ resolver, defaultValues: productFormValues(product) });
  const decimal = { inputMode: 'decimal' as const };
  const mpa = { htmlInput: decimal, input: { endAdornment: <InputAdornment position="end">{t('products.units.mpa')}</InputAdornment> } };
  const celsius = { htmlInput: decimal, input: { endAdornment: <InputAdornment position="end">{t('products.units.celsius')}</InputAdornment> } };

  const c = form.control;
  return (
    <RecordForm form={form} fields={PRODUCT_FIELDS} save={save} onSaved={onSaved} submitLabel={submitLabel} cancelTo="/products">
      <Grid size={{ xs: 12, md: 6 }}>
        <FormTextField control={c} name="name" label="products.fields.name" autoComplete="off" required />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
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
      <Grid size={{ xs: 12, md: 6 }}>
        {/* Free text with the usual standards offered as suggestions (a datalist: no extra component). */}
        <FormTextField
          control={c}
          name="testStandard"
          label="products.fields.testStandard"
          autoComplete="off"
          hint="products.testStandardHint"
          slotProps={{ htmlInput: { list: 'product-test-standards' } }}
        />
        <datalist id="product-test-standards">
          {TEST_STANDARDS.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </Grid>
    </RecordForm>
  );
}
