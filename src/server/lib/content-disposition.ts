/**
 * A Content-Disposition value (RFC 6266). A plain ASCII name is sent as it is; any other name is sent twice:
 * an ASCII stand-in for clients that read only `filename`, and the whole name in UTF-8 (RFC 8187's
 * `filename*`) for the others.
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^A-Za-z0-9._-]+/g, '_');
  if (ascii === filename) return `${kind}; filename="${filename}"`;
  // encodeURIComponent leaves ' ( ) * ! as they are; RFC 8187's attr-char allows only "!" of them.
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
