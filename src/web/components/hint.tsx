/**
 * The hints of a list's row buttons ("Edit", "Delete", "Open") and of the bar's customizer button: one MUI
 * Tooltip for the whole layout, shown beside whichever button the mouse rests on or the keyboard focuses,
 * instead of a Tooltip around every button. Each MUI Tooltip keeps its button in state, set as the button
 * mounts; a page of rows with two or three buttons each then made React draw the list a second and a third
 * time, synchronously, inside the commit that first showed it (21 tooltips on the products list, a fifth of that page's blocking time on a
 * phone: docs/decisions/0078-one-hint-for-a-list.md).
 *
 *   <IconButton aria-label={t('products.editNamed', { name })} {...hint(t('table.edit'))}>…</IconButton>
 *
 * A hint only shows what the button's accessible name already says: screen readers read that name, and on a
 * touch screen (where a Tooltip needed a long press) nothing is shown. HintHost is mounted once, by the
 * staff layout.
 */
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';

const HINT = 'data-hint';
/** MUI Tooltip's own delay before it shows; it hides at once. */
const ENTER_DELAY_MS = 100;

/** The attribute that gives an element its hint; nothing for an empty text. */
export const hint = (text: string | null | undefined): Record<string, string> => (text ? { [HINT]: text } : {});

const hinted = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>(`[${HINT}]`) : null);

export function HintHost() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Drawn from the first hint on: a Tooltip keeps its child in state, set as it mounts, which would add a
  // render to the commit that first draws the page.
  const [used, setUsed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wanted: HTMLElement | null = null;
    const want = (el: HTMLElement | null) => {
      if (el === wanted) return;
      clearTimeout(timer);
      wanted = el;
      setAnchor(null);
      if (el)
        timer = setTimeout(() => {
          setUsed(true);
          setAnchor(el);
        }, ENTER_DELAY_MS);
    };
    const onOver = (e: PointerEvent) => {
      if (e.pointerType === 'mouse' || e.pointerType === 'pen') want(hinted(e.target));
    };
    // Out of the window: nothing is under the pointer any more (within it, the next `pointerover` decides).
    const onOut = (e: PointerEvent) => {
      if (!e.relatedTarget) want(null);
    };
    // As MUI's Tooltip: shown for the keyboard's focus, not for a click's.
    const onFocusIn = (e: FocusEvent) => {
      const el = hinted(e.target);
      if (el?.matches(':focus-visible')) want(el);
    };
    const onFocusOut = (e: FocusEvent) => {
      if (hinted(e.target) === wanted) want(null);
    };
    const hide = () => want(null);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') want(null);
    };
    const listening = new AbortController();
    const { signal } = listening;
    document.addEventListener('pointerover', onOver, { signal });
    document.addEventListener('pointerout', onOut, { signal });
    document.addEventListener('focusin', onFocusIn, { signal });
    document.addEventListener('focusout', onFocusOut, { signal });
    document.addEventListener('pointerdown', hide, { signal });
    document.addEventListener('keydown', onKey, { signal });
    return () => {
      clearTimeout(timer);
      listening.abort();
    };
  }, []);
  // A button gone from the page (a row deleted, the next page drawn) takes its hint with it.
  const text = anchor?.isConnected ? (anchor.getAttribute(HINT) ?? '') : '';
  if (!used) return null;
  return (
    <Tooltip
      open={text !== ''}
      title={text}
      disableHoverListener
      disableFocusListener
      disableTouchListener
      slotProps={{ popper: { anchorEl: anchor, 'data-testid': 'hint' } as object }}
    >
      <span hidden />
    </Tooltip>
  );
}
