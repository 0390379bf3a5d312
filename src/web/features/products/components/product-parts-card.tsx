/**
 * A product's parts on its edit screen: body, bonnet, closure member, stem, seat and bolting, each with its
 * material from the catalogue or none. The body's material picks the rated pressure the certificate prints;
 * a range assigns heats to the parts named here. Saved on its own (PUT /products/{id}/parts).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { materialName, PARTS, partsInput, type Part } from '../../../../shared/contract/materials';
import { SubmitButton } from '../../../components/form';
import { errorMessage } from '../../../lib/errors';
import { notifySuccess } from '../../../lib/toast';
import { useMaterials, useProductParts, useSaveProductParts } from '../../materials/api';

type Chosen = Partial<Record<Part, string>>;

export function ProductPartsCard({ productId, canEdit }: { productId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const materials = useMaterials();
  const parts = useProductParts(productId);
  const save = useSaveProductParts(productId);
  const [chosen, setChosen] = useState<Chosen>({});
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (parts.data) setChosen(Object.fromEntries(parts.data.map((p) => [p.part, p.materialId])));
  }, [parts.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const input = partsInput.parse({ parts: PARTS.filter((p) => chosen[p]).map((part) => ({ part, materialId: chosen[part]! })) });
    try {
      await save.mutateAsync(input);
      notifySuccess('materials.productParts.saved');
    } catch (err) {
      setFailure(errorMessage(t, err));
    }
  };

  const list = materials.data ?? [];
  return (
    <Card sx={{ mt: 3 }} component="section" aria-labelledby="product-parts-title">
      <CardContent>
        <Typography id="product-parts-title" variant="h6" component="h2">
          {t('materials.productParts.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('materials.productParts.hint')}
        </Typography>
        {list.length === 0 && materials.isSuccess ? (
          <Alert severity="info">
            {t('materials.productParts.noCatalogue')} <RouterLink to="/materials">{t('materials.catalogue.title')}</RouterLink>
          </Alert>
        ) : (
          <Box component="form" noValidate onSubmit={submit} aria-label={t('materials.productParts.title')}>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
              {PARTS.map((part) => (
                <TextField
                  key={part}
                  select
                  id={`part-${part}`}
                  label={t(`materials.parts.${part}`)}
                  value={chosen[part] ?? ''}
                  disabled={!canEdit || parts.isPending}
                  onChange={(e) => setChosen((c) => ({ ...c, [part]: e.target.value || undefined }))}
                >
                  <MenuItem value="">{t('materials.productParts.none')}</MenuItem>
                  {list.map((m) => (
                    <MenuItem key={m.id} value={m.id}>
                      {materialName(m)}
                    </MenuItem>
                  ))}
                </TextField>
              ))}
            </Box>
            {failure && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {failure}
              </Alert>
            )}
            {canEdit && (
              <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
                <SubmitButton saving={save.isPending} label="materials.productParts.save" />
              </Stack>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
