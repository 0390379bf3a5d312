/**
 * Until React has taken the prerendered /search over, Enter in the serial field (a textarea, where Enter
 * would only start a new line) submits its form natively: a `GET /search?serial=…`, which the page looks
 * up at once when it starts. Installed by the entry, the first script to run; React's own handler takes
 * over once the page is hydrated (html[data-ready]). Shift+Enter still starts a new line.
 */
export function submitsNativelyOnEnter(doc: Document): void {
  doc.addEventListener(
    'keydown',
    (e) => {
      const field = e.target;
      if (doc.documentElement.dataset.ready || e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
      if (!(field instanceof HTMLTextAreaElement) || field.id !== 'serial-input' || !field.form) return;
      e.preventDefault();
      // Not also to React's listener on the container: a half-hydrated page must not search twice.
      e.stopPropagation();
      field.form.requestSubmit();
    },
    true,
  );
}
