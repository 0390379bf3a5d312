/**
 * Until React has taken the prerendered /search over, a tap on a button that opens part of the page (one
 * marked `data-early-open="<name>"`, such as "I have a delivery") would be lost: the button is drawn, its
 * handler is not attached yet. Installed by the entry, the first script to run, this remembers the tap on
 * the document (`html[data-early-open]`); the part's component opens itself when it starts and clears it.
 */
const ATTRIBUTE = 'data-early-open';

export function remembersEarlyOpens(doc: Document): void {
  doc.addEventListener(
    'click',
    (e) => {
      if (doc.documentElement.dataset.ready || !(e.target instanceof Element)) return;
      const opener = e.target.closest(`[${ATTRIBUTE}]`);
      const name = opener?.getAttribute(ATTRIBUTE);
      if (name) doc.documentElement.setAttribute(ATTRIBUTE, name);
    },
    true,
  );
}

/** Whether `name` was tapped before the page was hydrated; asking clears it, so it opens once. */
export function takeEarlyOpen(doc: Document, name: string): boolean {
  if (doc.documentElement.getAttribute(ATTRIBUTE) !== name) return false;
  doc.documentElement.removeAttribute(ATTRIBUTE);
  return true;
}
