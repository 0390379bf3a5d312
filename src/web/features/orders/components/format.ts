/** Shared looks of the order screens. */
export const recordLink = {
  fontWeight: 500,
  color: 'text.primary',
  textDecoration: 'none',
  '&:hover': { textDecoration: 'underline' },
} as const;

export const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, whiteSpace: 'nowrap' } as const;
