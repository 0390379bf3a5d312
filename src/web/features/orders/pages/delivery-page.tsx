/**
 * One delivery: its header (order, customer, date, status; number and date editable while open), the units
 * it ships with Remove while open, the serial entry, the units the release gate holds back and why, and
 * Cancel delivery with a reason. A delivery of a 3.2 order records the witness of its tests. Release starts the certificates' issue (its progress read again while it
 * runs); a released delivery lists each unit's certificate, corrects a tag as a new certificate version,
 * and keeps the history of the buyer's links with Send again and Revoke.
 */
import EditOutlined from '@mui/icons-material/EditOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { deliveryCancelInput, type DeliveryDetail, type DeliveryGate } from '../../../../shared/contract/orders';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatNumber } from '../../../components/format';
import { applyServerErrors, FormTextField, SubmitButton, zodFormResolver } from '../../../components/form';
import { RecordView } from '../../../components/list-kit';
import { PageHeader } from '../../../components/page-header';
import { useAppAbility } from '../../../lib/ability';
import { notifyError, notifySuccess } from '../../../lib/toast';
import {
  deliveryKeys,
  useCancelDelivery,
  useDeliveryDetail,
  useDeliveryGate,
  usePurchaseOrder,
  useRemoveDeliveryUnit,
  useUpdateDelivery,
} from '../api';
import { DeliveryDialog } from '../components/delivery-dialog';
import { recordLink } from '../components/format';
import { HeldUnitsCard } from '../components/held-units-card';
import { LinksCard } from '../components/links-card';
import { Facts, ReleaseDialog, ReleaseStatus } from '../components/release-card';
import { canRelease } from '../components/release-view';
import { SerialEntryCard } from '../components/serial-entry-card';
import { DeliveryStatusChip } from '../components/status-chip';
import { TagDialog } from '../components/tag-dialog';
import { UnitsCard } from '../components/units-card';
import { WitnessCard } from '../components/witness-card';

export default function DeliveryPage() {
  const { id = '' } = useParams();
  const delivery = useDeliveryDetail(id);
  return (
    <>
      <PageHeader title="orderScreens.deliveries.page" />
      <RecordView query={delivery} backTo="/deliveries" backLabel="orderScreens.deliveries.backToList" height={420}>
        {(d) => <DeliveryView key={d.id} delivery={d} />}
      </RecordView>
    </>
  );
}

function DeliveryView({ delivery: d }: { delivery: DeliveryDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAppAbility();
  const open = d.status === 'open';
  const released = d.status === 'released';
  const mayUpdate = ability.can('update', 'Delivery');
  const canEdit = open && mayUpdate;
  const order = usePurchaseOrder(d.purchaseOrderId);
  const gate = useDeliveryGate(d.id, open);
  const held = (gate.data?.units ?? []).filter((u) => u.status !== 'pass');
  const update = useUpdateDelivery(d.id);
  const removeUnit = useRemoveDeliveryUnit(d.id);
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [releasing, setReleasing] = useState(false);
  const [refused, setRefused] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [tagging, setTagging] = useState<{ serial: string; tag: string } | null>(null);

  // A refused release answers the gate: the held units show at once, and the page goes to them.
  const onRefused = (g: DeliveryGate) => {
    qc.setQueryData(deliveryKeys.gate(d.id), g);
    setRefused(true);
  };
  useEffect(() => {
    if (refused) document.getElementById('held-units')?.scrollIntoView({ block: 'start' });
  }, [refused]);
  // When a release ends, the lists (status, counts) and the order's shipped counts are read again.
  const was = useRef(d.status);
  useEffect(() => {
    if (was.current === 'releasing' && d.status !== 'releasing') void qc.invalidateQueries({ queryKey: deliveryKeys.lists() });
    was.current = d.status;
  }, [d.status, qc]);

  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 2 }}>
            <Typography variant="h6" component="h2" data-testid="delivery-number" sx={{ fontWeight: 600 }}>
              {d.number}
            </Typography>
            <DeliveryStatusChip status={d.status} />
            <Box sx={{ flex: 1 }} />
            {canEdit && (
              <Button startIcon={<EditOutlined />} onClick={() => setEditing(true)} color="inherit">
                {t('orderScreens.deliveries.editHeader')}
              </Button>
            )}
            {canEdit && (
              <Button color="error" variant="outlined" onClick={() => setCancelling(true)}>
                {t('orderScreens.deliveries.cancel')}
              </Button>
            )}
            {canRelease(d, mayUpdate) && (
              <Button variant="contained" startIcon={<TaskAltOutlined />} onClick={() => setReleasing(true)}>
                {t('orderScreens.release.button')}
              </Button>
            )}
          </Box>
          <Facts
            items={[
              [
                'orderScreens.deliveries.fields.purchaseOrder',
                ability.can('update', 'PurchaseOrder') ? (
                  <Typography component={RouterLink} to={`/edit-purchase-order/${d.purchaseOrderId}`} sx={recordLink}>
                    {d.purchaseOrderNumber}
                  </Typography>
                ) : (
                  d.purchaseOrderNumber
                ),
              ],
              ['orderScreens.deliveries.fields.customer', d.customerName],
              ['orderScreens.deliveries.fields.date', formatDate(lang, d.date)],
              ['orderScreens.deliveries.fields.units', formatNumber(lang, d.units.length)],
            ]}
          />
          {d.status === 'cancelled' && d.cancelReason && (
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('orderScreens.deliveries.cancelledBecause', { reason: d.cancelReason })}
            </Alert>
          )}
        </CardContent>
      </Card>

      <ReleaseStatus delivery={d} />

      {order.data?.documentType === '3.2' && <WitnessCard delivery={d} canEdit={canEdit} />}

      {canEdit && <SerialEntryCard deliveryId={d.id} order={order.data} />}

      {open && held.length > 0 && <HeldUnitsCard held={held} refused={refused} />}

      <UnitsCard
        delivery={d}
        canRemove={canEdit}
        canTag={released && mayUpdate}
        onRemove={setRemoving}
        onTag={(u) => setTagging({ serial: u.serial, tag: u.tag })}
      />

      {(released || d.links.length > 0) && <LinksCard delivery={d} canUpdate={released && mayUpdate} />}

      {editing && (
        <DeliveryDialog
          title="orderScreens.deliveries.editHeader"
          submitLabel="app.save"
          initial={{ purchaseOrderId: d.purchaseOrderId, number: d.number, date: d.date }}
          initialOrder={{ id: d.purchaseOrderId, label: d.purchaseOrderNumber }}
          onClose={() => setEditing(false)}
          onSubmit={async (values) => {
            await update.mutateAsync(values);
            setEditing(false);
            notifySuccess('orderScreens.deliveries.updated');
          }}
        />
      )}
      {cancelling && <CancelDialog id={d.id} onClose={() => setCancelling(false)} />}
      {releasing && <ReleaseDialog delivery={d} onClose={() => setReleasing(false)} onRefused={onRefused} />}
      {tagging && <TagDialog deliveryId={d.id} unit={tagging} onClose={() => setTagging(null)} />}
      <ConfirmDialog
        open={removing !== null}
        title={t('orderScreens.units.removeTitle')}
        text={t('orderScreens.units.removeConfirm', { serial: removing ?? '' })}
        confirmLabel={t('orderScreens.units.removeButton')}
        busy={removeUnit.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          removeUnit.mutate(removing, {
            onSuccess: () => notifySuccess('orderScreens.units.removed', { serial: removing }),
            onError: notifyError,
            onSettled: () => setRemoving(null),
          });
        }}
      />
    </Stack>
  );
}

const cancelResolver = zodFormResolver(deliveryCancelInput);

function CancelDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const cancel = useCancelDelivery(id);
  const form = useForm({ resolver: cancelResolver, defaultValues: { reason: '' } });
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await cancel.mutateAsync(reason);
      notifySuccess('orderScreens.deliveries.cancelled');
      onClose();
    } catch (err) {
      applyServerErrors(err, form.setError, ['reason']);
    }
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="cancel-delivery-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit}>
        <DialogTitle id="cancel-delivery-title">{t('orderScreens.deliveries.cancelTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('orderScreens.deliveries.cancelText')}</DialogContentText>
          <FormTextField control={form.control} name="reason" label="orderScreens.deliveries.cancelReason" multiline minRows={2} required />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('app.close')}</Button>
          <SubmitButton saving={form.formState.isSubmitting} label="orderScreens.deliveries.cancelButton" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
