/**
 * The units the release gate holds back and why (serial, tag, product, reasons in words), read from the
 * delivery's gate or from the 409 of a refused release; after a refusal it says so first.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../../components/data-table';
import { mono } from './format';
import { holdTexts, type GateUnit } from './release-view';
import { RowsTable } from './rows-table';
import { productName } from '../../../../shared/product-name';

export function HeldUnitsCard({ held, refused }: { held: GateUnit[]; refused: boolean }) {
  const { t, i18n } = useTranslation();
  const columns: Column<GateUnit>[] = [
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
    { id: 'tag', label: 'orderScreens.units.tag', card: 'key', render: (u) => u.tag || '—', cardRender: (u) => u.tag || null },
    {
      id: 'product',
      label: 'orderScreens.units.product',
      card: 'key',
      render: (u) => productName({ name: u.productName, nameZh: u.productNameZh }, i18n.language),
    },
    {
      id: 'reasons',
      label: 'orderScreens.gate.reasons',
      card: 'key',
      render: (u) => (
        <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          {holdTexts(t, i18n.language, u).map((text) => (
            <Typography component="li" variant="body2" key={text}>
              {text}
            </Typography>
          ))}
        </Box>
      ),
    },
  ];
  return (
    <Card
      component="section"
      aria-labelledby="held-units-title"
      data-testid="held-units"
      id="held-units"
      // Scrolled to after a refused release: its title clears the app bar.
      sx={{ scrollMarginTop: 80 }}
    >
      <CardContent>
        <Typography id="held-units-title" variant="h6" component="h2" sx={{ mb: 0.5 }}>
          {t('orderScreens.gate.title', { count: held.length })}
        </Typography>
        {refused ? (
          <Alert severity="error" sx={{ my: 1.5 }} data-testid="release-refused">
            {t('orderScreens.release.refused')}
          </Alert>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('orderScreens.gate.hint')}
          </Typography>
        )}
        <RowsTable
          columns={columns}
          rows={held}
          getRowId={(u) => u.serial}
          label="orderScreens.gate.tableLabel"
          testId="held-units-table"
        />
      </CardContent>
    </Card>
  );
}
