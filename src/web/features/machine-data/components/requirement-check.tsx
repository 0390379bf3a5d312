/**
 * A record's "Required vs measured": what its product's standard asked of the test (the requirement the
 * server judged it by) beside what the bench measured, each line marked OK or Not met, the reasons in words
 * and the standard's name and edition. Without a requirement it says why the bench's result stands. A table
 * from 600 px up; on a phone each line is a small block.
 */
import { editionOf, STANDARDS } from '../../../../shared/standards/requirement';
import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { usePhone } from '../../../lib/use-phone';
import { useTranslation } from 'react-i18next';
import type { TestRecordDetail } from '../../../../shared/contract/machine-data';
import type { ReasonCode } from '../../../../shared/standards/reasons';
import { formatNumber } from '../../../components/format';
import { holdText, leakageRequirementText, pressureBasisText, pressureRequirementText } from '../../../components/standards/format';
import { useProduct } from '../../products/api';
import { leakage, mpa } from '../../../components/record-values';
import { VerdictChip } from './verdict-chip';

interface Line {
  id: string;
  label: string;
  required: string;
  /** how the required figure was reached, under it ("1.5 × 1.96 MPa = 2.94 MPa, rounded up to 3.0 MPa") */
  basis?: string | null;
  measured: string;
  ok: boolean;
}

function Basis({ text }: { text?: string | null }) {
  if (!text) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="div" data-testid="pressure-basis">
      {text}
    </Typography>
  );
}

const PRESSURE_REASONS: ReasonCode[] = ['pressure-low', 'pressure-high', 'no-rating'];
const LEAKAGE_REASONS: ReasonCode[] = ['leakage-high', 'leakage-unit', 'leakage-not-recorded'];

function Status({ ok }: { ok: boolean }) {
  const { t } = useTranslation();
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        whiteSpace: 'nowrap',
        fontWeight: ok ? 400 : 600,
        color: ok ? 'success.main' : 'error.main',
      }}
      data-status={ok ? 'ok' : 'not-met'}
    >
      {ok ? <CheckCircleOutline fontSize="small" /> : <CancelOutlined fontSize="small" />}
      {t(ok ? 'standards.check.ok' : 'standards.check.notMet')}
    </Box>
  );
}

/** Why there is no requirement: no range (so no product), no standard on the product, or a test type it does not judge. */
function NotAssessed({ record }: { record: TestRecordDetail }) {
  const { t } = useTranslation();
  const product = useProduct(record.productId ?? undefined);
  const key = !record.productId
    ? 'standards.check.notAssessedUnmatched'
    : product.data?.testStandard
      ? 'standards.check.notAssessedType'
      : 'standards.check.notAssessed';
  return (
    <Typography color="text.secondary" data-testid="requirement-check-note">
      {t(key)}
    </Typography>
  );
}

export function RequirementCheck({ record }: { record: TestRecordDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const phone = usePhone();
  const a = record.assessment;
  const req = a.requirement;
  const title = t('standards.check.title');
  const header = (subheader?: string) => (
    <CardHeader
      title={title}
      subheader={subheader}
      slotProps={{ title: { component: 'h2', variant: 'h6' }, subheader: { 'data-testid': 'requirement-check-standard' } as object }}
      action={<VerdictChip assessment={a} />}
    />
  );

  if (!req || a.verdict === 'not-assessed') {
    return (
      <Card data-testid="requirement-check">
        {header()}
        <CardContent sx={{ pt: 0 }}>
          <NotAssessed record={record} />
        </CardContent>
      </Card>
    );
  }

  const has = (codes: ReasonCode[]) => a.reasons.some((r) => codes.includes(r));
  const holdRequired = `${t('standards.holdMin', { value: formatNumber(lang, req.holdMin, 0) })}${req.holdUnconfirmed ? ' *' : ''}`;
  const lines: Line[] = [
    {
      id: 'pressure',
      label: t('standards.check.pressure'),
      required: pressureRequirementText(t, lang, req),
      basis: req.pressureBasis ? pressureBasisText(t, lang, req.pressureBasis, req.pressureMin) : null,
      measured: mpa(t, lang, record.testPressure),
      ok: !has(PRESSURE_REASONS),
    },
    {
      id: 'hold-stated',
      label: t('standards.check.holdStated'),
      required: holdRequired,
      measured: holdText(t, lang, record.holdingSeconds),
      ok: record.holdingSeconds >= req.holdMin,
    },
    ...(a.heldSeconds !== null
      ? [
          {
            id: 'hold-samples',
            label: t('standards.check.holdSamples'),
            required: holdRequired,
            measured: holdText(t, lang, a.heldSeconds),
            ok: a.heldSeconds >= req.holdMin,
          },
        ]
      : []),
    {
      id: 'leakage',
      label: t('standards.check.leakage'),
      required: leakageRequirementText(t, lang, req.leakageKind, req.leakageMax),
      measured: record.leakageValue === null ? t('standards.check.noLeakage') : leakage(t, lang, record),
      ok: !has(LEAKAGE_REASONS),
    },
  ];

  return (
    <Card data-testid="requirement-check">
      {header(
        t('standards.standardEdition', {
          name: req.standardName,
          edition: i18n.language === 'zh' ? (editionOf(req.standard, req.editionKey) ?? STANDARDS[req.standard]).editionZh : req.edition,
        }),
      )}
      <CardContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          {a.disagreement && (
            <Alert severity="warning" variant="outlined">
              {t('standards.check.disagreement')}
            </Alert>
          )}
          {phone ? (
            <Box
              component="ul"
              aria-label={t('standards.check.tableLabel')}
              sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}
            >
              {lines.map((l) => (
                <Box
                  component="li"
                  key={l.id}
                  data-testid={`check-${l.id}`}
                  sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
                >
                  <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 0.5 }}>
                    <Typography variant="subtitle2" component="h3">
                      {l.label}
                    </Typography>
                    <Status ok={l.ok} />
                  </Box>
                  <Box
                    component="dl"
                    sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25 }}
                  >
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {t('standards.check.required')}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                      {l.required}
                      <Basis text={l.basis} />
                    </Typography>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {t('standards.check.measured')}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                      {l.measured}
                    </Typography>
                  </Box>
                </Box>
              ))}
            </Box>
          ) : (
            <TableContainer>
              <Table size="small" aria-label={t('standards.check.tableLabel')} data-testid="requirement-check-table">
                <TableHead>
                  <TableRow>
                    {(['item', 'required', 'measured', 'status'] as const).map((k) => (
                      <TableCell key={k} sx={{ fontWeight: 600 }}>
                        {t(`standards.check.${k}`)}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {lines.map((l) => (
                    <TableRow key={l.id} data-testid={`check-${l.id}`}>
                      <TableCell component="th" scope="row">
                        {l.label}
                      </TableCell>
                      <TableCell>
                        {l.required}
                        <Basis text={l.basis} />
                      </TableCell>
                      <TableCell>{l.measured}</TableCell>
                      <TableCell>
                        <Status ok={l.ok} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {a.reasons.length > 0 && (
            <Box>
              <Typography variant="subtitle2" component="h3">
                {t('standards.check.reasons')}
              </Typography>
              <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 3 }} data-testid="requirement-reasons">
                {a.reasons.map((r) => (
                  <Typography component="li" variant="body2" key={r}>
                    {t(`standards.reason.${r}`)}
                  </Typography>
                ))}
              </Box>
            </Box>
          )}
          {req.holdUnconfirmed && (
            <Typography variant="caption" color="text.secondary" data-testid="hold-unconfirmed">
              {t('standards.requirement.notes.hold-unconfirmed')}
            </Typography>
          )}
          {!req.required && (
            <Typography variant="body2" color="text.secondary">
              {t('standards.check.notRequired')}
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
