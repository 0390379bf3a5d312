/**
 * The few pieces the public page's first screen is built of, as plain elements styled by
 * src/web/public-app/public.css (no MUI on the first load: docs/decisions/0026-public-page-without-mui.md).
 * They look like the MUI components the rest of the product uses (Alert, Card, progress).
 */
import type { ReactNode, Ref } from 'react';
import { LOGO_HEIGHT } from '../../../lib/constants';
import { useLoadingBar } from '../../../lib/loading-bar-state';

/** Material icons' paths (the same drawings @mui/icons-material ships), 24×24. */
export const ICONS = {
  checkCircle:
    'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2m0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8m4.59-12.42L10 14.17l-2.59-2.58L6 13l4 4 8-8z',
  highlightOff:
    'M14.59 8 12 10.59 9.41 8 8 9.41 10.59 12 8 14.59 9.41 16 12 13.41 14.59 16 16 14.59 13.41 12 16 9.41zM12 2C6.47 2 2 6.47 2 12s4.47 10 10 10 10-4.47 10-10S17.53 2 12 2m0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8',
  uploadFile:
    'M14 2H6c-1.1 0-1.99.9-1.99 2L4 20c0 1.1.89 2 1.99 2H18c1.1 0 2-.9 2-2V8zm4 18H6V4h7v5h5zM8 15.01l1.41 1.41L11 14.84V19h2v-4.16l1.59 1.59L16 15.01 12.01 11z',
  translate:
    'm12.87 15.07-2.54-2.51.03-.03c1.74-1.94 2.98-4.17 3.71-6.53H17V4h-7V2H8v2H1v1.99h11.17C11.5 7.92 10.44 9.75 9 11.35 8.07 10.32 7.3 9.19 6.69 8h-2c.73 1.63 1.73 3.17 2.98 4.56l-5.09 5.02L4 19l5-5 3.11 3.11zM18.5 10h-2L12 22h2l1.12-3h4.75L21 22h2zm-2.62 7 1.62-4.33L19.12 17z',
  warning: 'M12 5.99 19.53 19H4.47zM12 2 1 21h22zm1 14h-2v2h2zm0-6h-2v4h2z',
  visibility:
    'M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5M12 17c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5m0-8c-1.66 0-3 1.34-3 3s1.34 3 3 3 3-1.34 3-3-1.34-3-3-3',
  visibilityOff:
    'M12 7c2.76 0 5 2.24 5 5 0 .65-.13 1.26-.36 1.83l2.92 2.92c1.51-1.26 2.7-2.89 3.43-4.75-1.73-4.39-6-7.5-11-7.5-1.4 0-2.74.25-3.98.7l2.16 2.16C10.74 7.13 11.35 7 12 7M2 4.27l2.28 2.28.46.46C3.08 8.3 1.78 10.02 1 12c1.73 4.39 6 7.5 11 7.5 1.55 0 3.03-.3 4.38-.84l.42.42L19.73 22 21 20.73 3.27 3zM7.53 9.8l1.55 1.55c-.05.21-.08.43-.08.65 0 1.66 1.34 3 3 3 .22 0 .44-.03.65-.08l1.55 1.55c-.67.33-1.41.53-2.2.53-2.76 0-5-2.24-5-5 0-.79.2-1.53.53-2.2m4.31-.78 3.15 3.15.02-.16c0-1.66-1.34-3-3-3z',
  error:
    'M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2M12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8',
} as const;

export function Icon({ name, className = '' }: { name: keyof typeof ICONS; className?: string }) {
  return (
    <svg className={`pp-icon ${className}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} />
    </svg>
  );
}

/** The product's logo mark (as the staff app's Brand draws it), for the plain pages' headers. */
export function LogoMark() {
  return (
    <svg viewBox="0 0 32 32" width={LOGO_HEIGHT} height={LOGO_HEIGHT} className="pp-brand" aria-hidden="true">
      <rect width="32" height="32" rx="6" fill="#c62828" />
      <path d="M9 9h14v3h-5.5v12h-3V12H9z" fill="#fff" />
    </svg>
  );
}

export interface AlertProps {
  severity: 'error' | 'warning';
  children: ReactNode;
  role?: string;
  ref?: Ref<HTMLDivElement>;
  tabIndex?: number;
  testId?: string;
}

/** As MUI's standard Alert: a tinted box with the severity's icon. */
export function Alert({ severity, children, role, ref, tabIndex, testId }: AlertProps) {
  return (
    <div className={`pp-alert pp-alert-${severity}`} role={role} ref={ref} tabIndex={tabIndex} data-testid={testId}>
      <Icon name={severity} className="pp-alert-icon" />
      <div className="pp-alert-message">{children}</div>
    </div>
  );
}

/** The top loading bar (docs/product.md §8), as src/web/lib/loading-bar.tsx drives it. */
export function ProgressBar({ loading, label }: { loading: boolean; label: string }) {
  const state = useLoadingBar(loading);
  if (!state.visible) return null;
  return (
    <div
      className="pp-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(state.value)}
      data-testid="loading-bar"
    >
      <div className="pp-progress-bar" style={{ width: `${state.value}%` }} />
    </div>
  );
}
