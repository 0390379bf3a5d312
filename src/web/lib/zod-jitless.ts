/**
 * zod without its compiled fast path in the browser: zod probes `new Function` before compiling one, and
 * under the app's CSP (no 'unsafe-eval', lib/security-headers.ts) the browser reports that probe as a
 * violation on every staff page, though zod catches it. Imported by the staff app (main-app.tsx) and built into
 * zod's own chunk (vite.config.ts), so that it runs before any module that parses.
 */
import { z } from 'zod';

z.config({ jitless: true });
