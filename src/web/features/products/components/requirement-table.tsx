/**
 * The requirement a product's tests will be judged by, derived live from the form (deriveRequirement, the
 * one statement the server judges by too): per test type whether the standard requires it, the test
 * pressure for each body material the product has a rating for, the minimum hold and the allowed leakage.
 * Without a standard it says the bench's verdict stands; with fields missing, which ones. A table from
 * 600 px up; on a phone each test is a small block, so nothing scrolls sideways.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { usePhone } from '../../../lib/use-phone';
import { useTranslation } from 'react-i18next';
import {
  BODY_MATERIALS,
  deriveRequirement,
  missingForStandard,
  ratingOf,
  type BodyMaterial,
  type JudgedProduct,
  type TestRequirement,
} from '../../../../shared/standards/requirement';
import { editionIn } from '../../../../shared/standards/requirement-view';
import { locale } from '../../../components/format';
import {
  formatPressure,
  holdText,
  leakageRequirementText,
  pressureBasisText,
  pressureRequirementText,
} from '../../../components/standards/format';

interface Column {
  material: BodyMaterial | null;
  rated: number | null;
  tests: TestRequirement[];
}

export function RequirementTable({ product }: { product: JudgedProduct }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const phone = usePhone();

  const heading = (
    <Typography component="h2" variant="h6" id="requirement-title">
      {t('standards.requirement.title')}
    </Typography>
  );

  if (!product.testStandard) {
    return (
      <Box component="section" aria-labelledby="requirement-title" data-testid="requirement" sx={{ mt: 1 }}>
        {heading}
        <Alert severity="info" variant="outlined" sx={{ mt: 1 }} data-testid="requirement-note">
          {t('standards.requirement.noStandard')}
        </Alert>
      </Box>
    );
  }
  const missing = missingForStandard(product);
  if (missing.length > 0) {
    const names = new Intl.ListFormat(locale(lang), { type: 'conjunction' }).format(missing.map((f) => t(`products.fields.${f}`)));
    return (
      <Box component="section" aria-labelledby="requirement-title" data-testid="requirement" sx={{ mt: 1 }}>
        {heading}
        <Alert severity="warning" variant="outlined" sx={{ mt: 1 }} data-testid="requirement-note">
          {t('standards.requirement.missing', { fields: names })}
        </Alert>
      </Box>
    );
  }

  const rated = BODY_MATERIALS.filter((m) => ratingOf(product, m) !== null);
  const columns: Column[] = (rated.length > 0 ? rated : [null]).map((m) => {
    const r = deriveRequirement(product, m);
    return { material: m, rated: m ? ratingOf(product, m) : null, tests: r?.tests ?? [] };
  });
  const base = deriveRequirement(product, rated[0] ?? null);
  if (!base) return null;
  const standard = t('standards.standardEdition', {
    name: base.standard.name,
    edition: editionIn(base.standard, i18n.language),
  });
  const pressureLabel = (col: Column) =>
    col.material
      ? t('standards.requirement.pressureFor', { material: t(`standards.materialShort.${col.material}`) })
      : t('standards.requirement.pressure');
  const ratedLabel = (col: Column) =>
    col.rated === null ? null : t('standards.requirement.ratedAt', { value: formatPressure(lang, col.rated) });
  const testLabel = (test: TestRequirement) => t(`machineScreens.testTypes.${test.testType}`);
  const requiredLabel = (test: TestRequirement) =>
    t(test.required ? 'standards.requirement.requiredYes' : 'standards.requirement.requiredNo');
  const pressureOf = (col: Column, i: number) => {
    const test = col.tests[i];
    return test ? pressureRequirementText(t, lang, test) : '—';
  };
  // How the figure follows from the rating, under it: "1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3.0 MPa (ASME B16.34)".
  const basisOf = (col: Column, i: number) => {
    const test = col.tests[i];
    return test?.pressureBasis ? pressureBasisText(t, lang, test.pressureBasis, test.pressureMin) : null;
  };

  return (
    <Box component="section" aria-labelledby="requirement-title" data-testid="requirement" sx={{ mt: 1 }}>
      {heading}
      <Typography variant="body2" color="text.secondary" data-testid="requirement-standard">
        {standard}
      </Typography>
      {rated.length === 0 && (
        <Alert severity="warning" variant="outlined" sx={{ mt: 1 }}>
          {t('standards.requirement.noRating')}
        </Alert>
      )}
      {phone ? (
        <Box
          component="ul"
          aria-label={t('standards.requirement.tableLabel')}
          sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5, display: 'grid', gap: 1.5 }}
        >
          {base.tests.map((test, i) => (
            <Box
              component="li"
              key={test.testType}
              data-testid={`requirement-${test.testType}`}
              sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
            >
              <Typography variant="subtitle2" component="h3">
                {testLabel(test)} · {requiredLabel(test)}
              </Typography>
              <Box
                component="dl"
                sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25 }}
              >
                {columns.map((col) => (
                  <Line key={col.material ?? 'none'} label={pressureLabel(col)} value={pressureOf(col, i)} note={basisOf(col, i)} />
                ))}
                <Line label={t('standards.requirement.hold')} value={holdText(t, lang, test.holdMin, test.holdUnconfirmed)} />
                <Line
                  label={t('standards.requirement.leakage')}
                  value={leakageRequirementText(t, lang, test.leakage.kind, test.leakage.max)}
                />
              </Box>
            </Box>
          ))}
        </Box>
      ) : (
        <TableContainer sx={{ mt: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label={t('standards.requirement.tableLabel')} data-testid="requirement-table">
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>{t('standards.requirement.test')}</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>{t('standards.requirement.required')}</TableCell>
                {columns.map((col) => (
                  <TableCell key={col.material ?? 'none'} sx={{ fontWeight: 600 }}>
                    {pressureLabel(col)}
                    {ratedLabel(col) && (
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 400 }}>
                        {ratedLabel(col)}
                      </Typography>
                    )}
                  </TableCell>
                ))}
                <TableCell sx={{ fontWeight: 600 }}>{t('standards.requirement.hold')}</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>{t('standards.requirement.leakage')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {base.tests.map((test, i) => (
                <TableRow key={test.testType} data-testid={`requirement-${test.testType}`}>
                  <TableCell component="th" scope="row">
                    {testLabel(test)}
                  </TableCell>
                  <TableCell>{requiredLabel(test)}</TableCell>
                  {columns.map((col) => (
                    <TableCell key={col.material ?? 'none'}>
                      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                        {pressureOf(col, i)}
                      </Box>
                      <Note text={basisOf(col, i)} />
                    </TableCell>
                  ))}
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{holdText(t, lang, test.holdMin, test.holdUnconfirmed)}</TableCell>
                  <TableCell>{leakageRequirementText(t, lang, test.leakage.kind, test.leakage.max)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {base.notes.length > 0 && (
        <Box
          component="ul"
          sx={{ m: 0, mt: 1, pl: 2.5 }}
          aria-label={t('standards.requirement.notes.title')}
          data-testid="requirement-notes"
        >
          {base.notes.map((note) => (
            <Typography component="li" variant="caption" color="text.secondary" key={note} data-testid={`requirement-note-${note}`}>
              {t(`standards.requirement.notes.${note}`, {
                pressureClass: product.pressureClass ?? '',
                rate: product.seatType ? (base.standard.defaultLeakageRate?.[product.seatType] ?? '') : '',
              })}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

function Note({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="div" data-testid="pressure-basis">
      {text}
    </Typography>
  );
}

function Line({ label, value, note }: { label: string; value: string; note?: string | null }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {value}
        <Note text={note} />
      </Typography>
    </>
  );
}
