/**
 * Add or edit a material of the catalogue: specification, grade, the rating basis that picks a product's
 * rated pressure, and its material group. Checked with the schema the server uses (materialInput).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { usePhone } from '../../../lib/use-phone';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { materialInput, materialName, type Material, type MaterialInput } from '../../../../shared/contract/materials';
import { BODY_MATERIALS } from '../../../../shared/standards/requirement';
import { applyServerErrors, FormSelectField, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useSaveMaterial } from '../api';

const FIELDS = ['specification', 'grade', 'ratingBasis', 'materialGroup'] as const;

export function MaterialDialog({ material, onClose }: { material: Material | null; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = usePhone();
  const save = useSaveMaterial();
  const form = useForm<MaterialInput>({
    resolver: zodFormResolver(materialInput),
    defaultValues: material
      ? {
          specification: material.specification,
          grade: material.grade,
          ratingBasis: material.ratingBasis,
          materialGroup: material.materialGroup,
        }
      : { specification: '', grade: '', ratingBasis: 'wcb', materialGroup: '' },
  });
  const submit = form.handleSubmit(async (v) => {
    try {
      const saved = await save.mutateAsync({ id: material?.id, input: materialInput.parse(v) });
      notifySuccess(material ? 'materials.catalogue.updated' : 'materials.catalogue.added', { name: materialName(saved) });
      onClose();
    } catch (err) {
      if (!applyServerErrors(err, form.setError, FIELDS)) notifyError(err);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="material-dialog-title" fullScreen={phone} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="material-dialog-title">
          {material ? t('materials.catalogue.editTitle', { name: materialName(material) }) : t('materials.catalogue.add')}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('materials.catalogue.hint')}</DialogContentText>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <FormTextField
              control={form.control}
              name="specification"
              label="materials.fields.specification"
              hint="materials.fields.specificationHint"
              autoFocus
              autoComplete="off"
            />
            <FormTextField control={form.control} name="grade" label="materials.fields.grade" autoComplete="off" />
            <FormSelectField
              control={form.control}
              name="ratingBasis"
              label="materials.fields.ratingBasis"
              hint="materials.fields.ratingBasisHint"
              options={BODY_MATERIALS.map((m) => ({ value: m, label: `standards.materials.${m}` }))}
            />
            <FormTextField
              control={form.control}
              name="materialGroup"
              label="materials.fields.materialGroup"
              hint="materials.fields.materialGroupHint"
              autoComplete="off"
            />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.cancel')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="app.save" />
        </DialogActions>
      </Box>
    </Dialog>
  );
}
