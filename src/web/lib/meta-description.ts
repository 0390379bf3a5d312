/**
 * The page's `<meta name="description">` in the language it is shown in. index.html and verify.html carry
 * an English one, and the prerendered /search and /login their language's (scripts/vite-prerender.ts); a
 * screen drawn in the browser, or a change of language, writes its own here, as the document title is.
 */
export function setMetaDescription(text: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  if (meta.content !== text) meta.content = text;
}
