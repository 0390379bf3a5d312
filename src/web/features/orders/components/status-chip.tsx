import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { DeliveryStatus } from '../../../../shared/contract/orders';

const COLOR = { open: 'default', releasing: 'info', released: 'success', cancelled: 'default' } as const;

export function DeliveryStatusChip({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant={status === 'cancelled' ? 'filled' : 'outlined'}
      color={COLOR[status]}
      label={t(`orderScreens.deliveries.statuses.${status}`)}
      data-testid="delivery-status"
    />
  );
}
