/**
 * zod without its compiled fast path in the browser: zod probes `new Function` before compiling one, and
 * under the app's CSP (no 'unsafe-eval', lib/security-headers.ts) the browser reports that probe as a
 * violation on every staff page, though zod catches it. zod decides as it builds an object schema, so this
 * must run before any schema is built: it is imported first by the staff app (main-app.tsx) and by the public
 * page's request form (features/public/lib/request-form.ts), and built into zod's own chunk (vite.config.ts),
 * which every module using zod loads before it runs.
 */
import { z } from 'zod';

z.config({ jitless: true });
