/**
 * Until React has taken the prerendered /search over, a tap on one of its buttons would be lost: the button
 * is drawn, its handler is not attached yet. A button marked `data-early-tap="<name>"` ("I have a delivery",
 * the language switch) is remembered instead: installed by the entry, the first script to run, this keeps the
 * last such tap on the document (`html[data-early-tap]`), and the button's component acts on it when it
 * starts and clears it.
 */
const ATTRIBUTE = 'data-early-tap';

export function remembersEarlyTaps(doc: Document): void {
  doc.addEventListener(
    'click',
    (e) => {
      if (doc.documentElement.dataset.ready || !(e.target instanceof Element)) return;
      const button = e.target.closest(`[${ATTRIBUTE}]`);
      const name = button?.getAttribute(ATTRIBUTE);
      if (name) doc.documentElement.setAttribute(ATTRIBUTE, name);
    },
    true,
  );
}

/** Whether `name` was tapped before the page was hydrated; asking clears it, so it acts once. */
export function takeEarlyTap(doc: Document, name: string): boolean {
  if (doc.documentElement.getAttribute(ATTRIBUTE) !== name) return false;
  doc.documentElement.removeAttribute(ATTRIBUTE);
  return true;
}
