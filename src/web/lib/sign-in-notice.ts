/**
 * "Signed in", across the page load a sign-in ends in (src/web/login-app, decision 0074): the sign-in page
 * leaves a mark in this tab's session storage, and the staff app shows the message once as it starts.
 */
import { storageKey } from '../../shared/preferences';

const KEY = storageKey('signed-in');

export function rememberSignIn(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // storage disabled (private mode): the sign-in still works, without its message
  }
}

/** Whether a sign-in just led here; asking clears it, so the message shows once. */
export function takeSignInNotice(): boolean {
  try {
    const signedIn = sessionStorage.getItem(KEY) === '1';
    sessionStorage.removeItem(KEY);
    return signedIn;
  } catch {
    return false;
  }
}
