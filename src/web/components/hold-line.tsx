/** One thing the release gate holds a unit for, in a sentence of the page's language. */
import { useTranslation } from 'react-i18next';
import type { HeldFor } from '../../shared/contract/quality';
import { enumerate } from '../../shared/i18n/punctuation';
import { formatDateTime } from './format';
import { untracedText } from '../lib/untraced-text';

/** "Shell failed on 8 Nov 2026, not retested", "Backseat: leakage above the allowed (bench passed) …", "Seat: no test yet". */
export function HoldLine({ h }: { h: HeldFor }) {
  const { t, i18n } = useTranslation();
  if (h.kind === 'unreleased') return <>{t('quality.held.unreleased')}</>;
  if (h.kind === 'untraced') return <>{untracedText(t, h)}</>;
  const test = t(`machineScreens.testTypes.${h.testType}`);
  if (h.kind === 'missing') return <>{t('quality.held.missing', { test })}</>;
  if (h.kind === 'closure-one-side')
    return <>{t('quality.held.closureOneSide', { test, side: t(`machineScreens.sides.${h.side ?? 'A'}`) })}</>;
  const at = h.testedAt ? formatDateTime(i18n.language, h.testedAt) : '';
  const why = enumerate(
    i18n.language,
    h.reasons.map((r) => t(`standards.reason.${r}`)),
  );
  return <>{h.bench === 'pass' ? t('quality.held.nonconforming', { test, at, why }) : t('quality.held.failed', { test, at })}</>;
}
