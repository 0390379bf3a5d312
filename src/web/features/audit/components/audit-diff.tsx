/**
 * What an entry changed, readably (see audit-present.ts): for an update only the fields whose value differs
 * (before struck through, after beside it); for a create the values set, for a delete the values removed.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../../shared/contract/audit';
import { presentEntry } from './audit-present';
import { labelled } from '../../../../shared/i18n/punctuation';

export function AuditDiff({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const { changes } = presentEntry(t, i18n.language, entry);
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
            {c.label}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {c.before !== undefined && c.after !== undefined ? (
              <>
                <Box component="del" sx={{ color: 'error.main' }} aria-label={labelled(i18n.language, t('audit.diff.before'), c.before)}>
                  {c.before}
                </Box>
                {' → '}
                <Box
                  component="ins"
                  sx={{ textDecoration: 'none', color: 'success.dark', fontWeight: 500 }}
                  aria-label={labelled(i18n.language, t('audit.diff.after'), c.after)}
                >
                  {c.after}
                </Box>
              </>
            ) : c.after !== undefined ? (
              <Box component="ins" sx={{ textDecoration: 'none' }}>
                {c.after}
              </Box>
            ) : (
              <Box component="del" sx={{ color: 'text.secondary' }}>
                {c.before}
              </Box>
            )}
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}
