/** The element of the staff screen's frame the server draws (src/server/web/staff-shell.ts) and the app removes (src/web/app/root-shell.tsx). */
export const STAFF_SHELL_ID = 'trc-shell';
