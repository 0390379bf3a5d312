/**
 * What an entry changed, readably: for an update only the fields whose value differs (before struck
 * through, after beside it); for a create the values set, for a delete the values removed. Field names come
 * from the record's own namespace (products.fields.*, serials.fields.*), else the name itself, spaced.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../../shared/contract/audit';

const FIELD_NS: Record<string, string> = { product: 'products', serialRange: 'serials', machine: 'machineScreens' };
/** Timestamps every update moves: noise in a diff. */
const SKIP = new Set(['updatedAt']);

export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields an entry changed, in the order the record lists them. */
export function changesOf(e: Pick<AuditEntry, 'before' | 'after'>): FieldChange[] {
  const keys = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])].filter((k) => !SKIP.has(k));
  if (e.before && e.after)
    return keys.filter((k) => !same(e.before![k], e.after![k])).map((k) => ({ field: k, before: e.before![k], after: e.after![k] }));
  if (e.after) return keys.map((k) => ({ field: k, after: e.after![k] }));
  return keys.map((k) => ({ field: k, before: e.before![k] }));
}

export function fieldLabel(t: TFunction, entity: string, field: string): string {
  const spaced = field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
  const ns = FIELD_NS[entity];
  // The record's own field names first, then the audit trail's (account and bench fields), then the name.
  const common = t(`audit.fields.${field}`, { defaultValue: spaced });
  return ns ? t(`${ns}.fields.${field}`, { defaultValue: common }) : common;
}

function text(t: TFunction, v: unknown): string {
  if (v === null || v === undefined || v === '') return t('audit.diff.empty');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function AuditDiff({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const changes = changesOf(entry);
  if (changes.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('audit.diff.none')}
      </Typography>
    );
  }
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25, m: 0, fontSize: 14 }}
      data-testid="audit-diff"
    >
      {changes.map((c) => (
        <Fragment key={c.field}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            {fieldLabel(t, entry.entity, c.field)}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {'before' in c && 'after' in c ? (
              <>
                <Box component="del" sx={{ color: 'error.main' }} aria-label={`${t('audit.diff.before')}: ${text(t, c.before)}`}>
                  {text(t, c.before)}
                </Box>
                {' → '}
                <Box
                  component="ins"
                  sx={{ textDecoration: 'none', color: 'success.dark', fontWeight: 500 }}
                  aria-label={`${t('audit.diff.after')}: ${text(t, c.after)}`}
                >
                  {text(t, c.after)}
                </Box>
              </>
            ) : 'after' in c ? (
              <Box component="ins" sx={{ textDecoration: 'none' }}>
                {text(t, c.after)}
              </Box>
            ) : (
              <Box component="del" sx={{ color: 'text.secondary' }}>
                {text(t, c.before)}
              </Box>
            )}
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}
