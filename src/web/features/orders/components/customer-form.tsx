/**
 * Add a customer and edit one: name, code, address, country, language, the e-mail domains its people write
 * from (chips: type one and press Enter) and the contacts who receive the certificates. Checked by the route's
 * own schema (customerInput); the server's field errors land on their fields, a contact's on its row.
 */
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Controller, useFieldArray, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { customerInput, type Customer, type CustomerInput, type CustomerValues } from '../../../../shared/contract/orders';
import { LANGUAGES } from '../../../../shared/i18n/languages';
import { FormSelectField, FormTextField, RecordForm, useFieldErrorText, zodFormResolver } from '../../../components/form';

const LANGUAGE_OPTIONS = LANGUAGES.map((l) => ({ value: l, label: `app.languages.${l}` }));
const BASE_FIELDS = ['name', 'code', 'address', 'postcode', 'city', 'country', 'language', 'emailDomains', 'contacts'];
const CONTACT_FIELDS = ['name', 'email', 'language', 'receivesCertificates'];

type FormValues = Required<Pick<CustomerInput, 'name' | 'code' | 'address' | 'postcode' | 'city' | 'country' | 'language'>> & {
  emailDomains: string[];
  contacts: { name: string; email: string; language: 'en' | 'zh'; receivesCertificates: boolean }[];
};

const resolver = zodFormResolver(customerInput) as unknown as Resolver<FormValues, unknown, CustomerValues>;

function formValues(c?: Customer): FormValues {
  return {
    name: c?.name ?? '',
    code: c?.code ?? '',
    address: c?.address ?? '',
    postcode: c?.postcode ?? '',
    city: c?.city ?? '',
    country: c?.country ?? '',
    language: c?.language ?? 'en',
    emailDomains: c?.emailDomains ?? [],
    contacts: (c?.contacts ?? []).map(({ name, email, language, receivesCertificates }) => ({
      name,
      email,
      language,
      receivesCertificates,
    })),
  };
}

export function CustomerForm({
  customer,
  submitLabel,
  save,
  onSaved,
}: {
  customer?: Customer;
  submitLabel: string;
  save: (values: CustomerValues) => Promise<unknown>;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const form = useForm<FormValues, unknown, CustomerValues>({ resolver, defaultValues: formValues(customer) });
  const c = form.control;
  const contacts = useFieldArray({ control: c, name: 'contacts' });
  const domains = form.watch('emailDomains');
  const fields = [
    ...BASE_FIELDS,
    ...domains.map((_, i) => `emailDomains.${i}`),
    ...contacts.fields.flatMap((_, i) => CONTACT_FIELDS.map((f) => `contacts.${i}.${f}`)),
  ];
  const domainErrors = form.formState.errors.emailDomains;
  const domainError = domainErrors
    ? (domainErrors.message ??
      (Array.isArray(domainErrors) ? (domainErrors as ({ message?: string } | undefined)[]).find((e) => e?.message)?.message : undefined))
    : undefined;

  return (
    <RecordForm form={form} fields={fields} save={save} onSaved={onSaved} submitLabel={submitLabel} cancelTo="/customers">
      <Grid size={{ xs: 12, md: 8 }}>
        <FormTextField control={c} name="name" label="orderScreens.customers.fields.name" autoComplete="off" required />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={c}
          name="code"
          label="orderScreens.customers.fields.code"
          hint="orderScreens.customers.hints.code"
          autoComplete="off"
          required
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField control={c} name="address" label="orderScreens.customers.fields.address" multiline minRows={2} />
      </Grid>
      <Grid size={{ xs: 6, md: 4 }}>
        <FormTextField control={c} name="postcode" label="orderScreens.customers.fields.postcode" autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 6, md: 4 }}>
        <FormTextField control={c} name="city" label="orderScreens.customers.fields.city" autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          control={c}
          name="country"
          label="orderScreens.customers.fields.country"
          hint="orderScreens.customers.hints.country"
          autoComplete="off"
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormSelectField control={c} name="language" label="orderScreens.customers.fields.language" options={LANGUAGE_OPTIONS} />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <Controller
          control={c}
          name="emailDomains"
          render={({ field }) => (
            <Autocomplete
              multiple
              freeSolo
              options={[]}
              value={field.value}
              onChange={(_, v) => field.onChange(v.map((d) => d.trim().toLowerCase()).filter(Boolean))}
              onBlur={field.onBlur}
              renderValue={(value, getItemProps) =>
                value.map((d, index) => {
                  const { key, ...itemProps } = getItemProps({ index });
                  return <Chip key={key} size="small" label={d} {...itemProps} />;
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  id="field-emailDomains"
                  label={t('orderScreens.customers.fields.emailDomains')}
                  error={!!domainError}
                  helperText={errorText(domainError) ?? t('orderScreens.customers.hints.emailDomains')}
                />
              )}
            />
          )}
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500, mb: 1 }}>
          {t('orderScreens.customers.contacts.title')}
        </Typography>
        {contacts.fields.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('orderScreens.customers.contacts.none')}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          {contacts.fields.map((row, i) => (
            <Paper key={row.id} variant="outlined" sx={{ p: 1.5 }} data-testid="contact-row">
              <Grid container spacing={1.5} sx={{ alignItems: 'center' }}>
                <Grid size={{ xs: 12, md: 3.5 }}>
                  <FormTextField
                    control={c}
                    name={`contacts.${i}.name`}
                    label="orderScreens.customers.contacts.name"
                    size="small"
                    autoComplete="off"
                    required
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 3.5 }}>
                  <FormTextField
                    control={c}
                    name={`contacts.${i}.email`}
                    label="orderScreens.customers.contacts.email"
                    type="email"
                    size="small"
                    autoComplete="off"
                    required
                  />
                </Grid>
                <Grid size={{ xs: 6, md: 2 }}>
                  <FormSelectField
                    control={c}
                    name={`contacts.${i}.language`}
                    label="orderScreens.customers.contacts.language"
                    size="small"
                    options={LANGUAGE_OPTIONS}
                  />
                </Grid>
                <Grid size={{ xs: 6, md: 3 }} sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
                  <Controller
                    control={c}
                    name={`contacts.${i}.receivesCertificates`}
                    render={({ field }) => (
                      <FormControlLabel
                        control={<Checkbox checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} size="small" />}
                        label={t('orderScreens.customers.contacts.receivesCertificates')}
                        slotProps={{ typography: { variant: 'body2' } }}
                      />
                    )}
                  />
                  <IconButton
                    aria-label={t('orderScreens.customers.contacts.remove', { n: i + 1 })}
                    onClick={() => contacts.remove(i)}
                    size="small"
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
          onClick={() => contacts.append({ name: '', email: '', language: form.getValues('language') ?? 'en', receivesCertificates: true })}
          sx={{ mt: 1.5 }}
        >
          {t('orderScreens.customers.contacts.add')}
        </Button>
      </Grid>
    </RecordForm>
  );
}
