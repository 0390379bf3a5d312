/** Two date fields for a range of UTC days, `<prefix>-from` and `<prefix>-to`, each bounded by the other. */
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/form/date-field';

export function DayFields({
  prefix,
  from,
  to,
  onChange,
  fullWidth,
}: {
  prefix: string;
  from: string;
  to: string;
  onChange: (patch: { from?: string; to?: string }) => void;
  fullWidth?: boolean;
}) {
  const { t } = useTranslation();
  const field = (name: 'from' | 'to') => (
    <DateField
      size="small"
      fullWidth={fullWidth}
      id={`${prefix}-${name}`}
      label={t(`quality.${name}`)}
      value={name === 'from' ? from : to}
      onChange={(v) => v && onChange({ [name]: v })}
      max={name === 'from' ? to : undefined}
      min={name === 'to' ? from : undefined}
    />
  );
  return (
    <>
      {field('from')}
      {field('to')}
    </>
  );
}
