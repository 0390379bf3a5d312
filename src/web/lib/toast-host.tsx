/** The toast container, mounted in its own root on first use; it follows the page's colour scheme. */
import { createRoot } from 'react-dom/client';
import { Slide, toast, ToastContainer } from 'react-toastify';
import { TOAST_AUTO_CLOSE_MS } from './constants';

let mounted: Promise<void> | undefined;

function mount(): Promise<void> {
  mounted ??= new Promise<void>((resolve) => {
    const host = document.createElement('div');
    host.id = 'toasts';
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
