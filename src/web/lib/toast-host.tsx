/** The toast container, mounted in its own root on first use; it follows the page's colour scheme. */
import { createRoot } from 'react-dom/client';
import { Slide, toast, ToastContainer } from 'react-toastify';
import { APP_BAR_HEIGHT, PHONE, PHONE_LANDSCAPE } from '../../shared/layout-sizes';
import { TOAST_AUTO_CLOSE_MS } from './constants';

let mounted: Promise<void> | undefined;

/**
 * Notices open below the app's bar, not over it: at the top right they covered the customizer's button and the
 * account menu (the sign-in's notice for its 3 s, and longer while the pointer rests on it), so a click meant
 * for either closed the notice instead. The bar's heights are the theme's (src/shared/layout-sizes.ts). Below
 * 481 px react-toastify's notices span the screen, so they sit on the bar's edge there.
 */
const BELOW_THE_BAR = `
#toasts { --bar: ${APP_BAR_HEIGHT.wide}px; --gap: 8px; }
@media ${PHONE} { #toasts { --bar: ${APP_BAR_HEIGHT.phone}px; } }
@media ${PHONE_LANDSCAPE} { #toasts { --bar: ${APP_BAR_HEIGHT.phoneLandscape}px; } }
@media (max-width: 480px) { #toasts { --gap: 0px; } }
#toasts .Toastify__toast-container--top-right { top: calc(env(safe-area-inset-top) + var(--bar) + var(--gap)); }
`;

function mount(): Promise<void> {
  mounted ??= new Promise<void>((resolve) => {
    const host = document.createElement('div');
    host.id = 'toasts';
    const placement = document.createElement('style');
    placement.textContent = BELOW_THE_BAR;
    document.head.appendChild(placement);
    document.body.appendChild(host);
    const dark = () => document.documentElement.style.colorScheme === 'dark';
    createRoot(host).render(
      <ToastContainer
        position="top-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        closeOnClick
        pauseOnHover
        draggable={false}
        newestOnTop
        theme={dark() ? 'dark' : 'light'}
        transition={Slide}
      />,
    );
    setTimeout(resolve, 0);
  });
  return mounted;
}

export async function showToast(kind: 'success' | 'error' | 'info', text: string): Promise<void> {
  await mount();
  toast[kind](text, { theme: document.documentElement.style.colorScheme === 'dark' ? 'dark' : 'light' });
}
