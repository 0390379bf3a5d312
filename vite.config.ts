/**
 * The web app's build: root is the repository (index.html here), output dist/web, which the Fastify server
 * serves. In development (`npm run dev`) /api goes to the API server on port 3000.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { GetModuleInfo } from 'rollup';
import { precompress } from './scripts/vite-precompress';
import { prerender } from './scripts/vite-prerender';
import { routePreloadsPlugin } from './scripts/vite-route-preloads';

const API_TARGET = process.env.API_TARGET ?? 'http://localhost:3000';

/** The public page, the sign-in page and the offline verifier: what a visitor without an account loads. */
const PUBLIC_SOURCES = /\/src\/web\/(public-app|login-app|verifier|features\/public)\//;

/** Whether a module is reached from the public page, the sign-in page or the verifier, through any importer. */
function publicReaches(id: string, getModuleInfo: GetModuleInfo): boolean {
  const seen = new Set<string>([id]);
  const queue = [id];
  while (queue.length > 0) {
    const info = getModuleInfo(queue.pop()!);
    for (const by of [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])]) {
      if (PUBLIC_SOURCES.test(by)) return true;
      if (!seen.has(by)) {
        seen.add(by);
        queue.push(by);
      }
    }
  }
  return false;
}

/**
 * Libraries every page needs share long-lived chunks; page code stays in the chunk of its lazy route, so
 * the public /search and the sign-in pages never download the staff screens.
 */
function manualChunks(id: string, { getModuleInfo }: { getModuleInfo: GetModuleInfo }): string | undefined {
  // Rollup's CommonJS helpers in a chunk of their own: left to Rollup they join the React chunk, and every
  // page importing a CommonJS package (the verifier's jsQR) would load React with them.
  if (id.includes('commonjsHelpers')) return 'commonjs-helpers';
  // zod's configuration runs in zod's own chunk, so it is set before any module can parse (lib/zod-jitless.ts).
  if (id.includes('src/web/lib/zod-jitless')) return 'zod';
  if (!id.includes('node_modules')) return undefined;
  if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
  // The router is the staff app's: the public page must not pull it in through a shared chunk.
  if (/node_modules\/(react-router|cookie|set-cookie-parser)\//.test(id)) return 'router';
  if (
    /node_modules\/(@emotion|@mui\/(system|styled-engine|utils|private-theming)|stylis|@babel\/runtime|clsx|prop-types|react-is|react-transition-group|dom-helpers)\//.test(
      id,
    )
  )
    return 'mui-core';
  if (/node_modules\/(i18next|react-i18next|html-parse-stringify|void-elements)\//.test(id)) return 'i18n';
  if (/node_modules\/zod\//.test(id)) return 'zod';
  // The MUI components and icons only staff screens use, in one chunk: left to Rollup, each set of screens
  // sharing a component made a chunk of its own, and a staff page loaded 83 files, most of 1-3 kB, whose
  // requests and evaluations a phone paid one by one (docs/decisions/0083-one-chunk-for-the-staff-components.md).
  // Those the public pages use stay split, so that no visitor's page loads the staff screens' components.
  if (/node_modules\/@mui\/(material|icons-material)\//.test(id) && !publicReaches(id, getModuleInfo)) return 'mui-staff';
  return undefined;
}

/**
 * React Router's production build for the built app. Its package exports only the development one (the
 * production one is left to its own Vite plugin, which this app does not use), whose extra checks and
 * warnings a phone runs as the router starts.
 */
const routerProduction = [
  { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
  {
    find: /^react-router\/dom$/,
    replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)),
  },
];

export default defineConfig(({ command }) => ({
  root: '.',
  resolve: { alias: command === 'build' ? routerProduction : [] },
  publicDir: 'public',
  // precompress: .br and .gz of each built asset, served by @fastify/static's preCompressed;
  // prerender: /search and /login drawn in each language (scripts/vite-prerender.ts)
  // route preloads: the modules each staff screen needs, which the server lists in its page (scripts/vite-route-preloads.ts)
  plugins: [react(), precompress(), prerender(), routePreloadsPlugin()],
  // JSON (the catalogues) as JSON.parse of a string, which a browser reads several times faster than the
  // same data written as an object literal; Vite's default does it only for files over 10 kB.
  json: { stringify: true, namedExports: false },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    // Fonts stay files: inlined (Vite's default for files under 4 kB) the small Roboto subsets (Greek, Cyrillic
    // extensions) went into the fonts' stylesheet as base64, 35 kB that every page's first paint waited for or,
    // written into the prerendered pages, carried, for letters they rarely show. As files, a page fetches a
    // subset only when it shows one of its letters (unicode-range).
    assetsInlineLimit: (file) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      // The staff app and public page (index.html), and the offline verifier (verify.html, its own small bundle).
      input: { index: 'index.html', verify: 'verify.html' },
      output: { manualChunks },
      // zod (and others) write prose mentioning @__PURE__ in comments; Rollup warns it cannot use them.
      // Harmless and not ours to fix: silence that one kind, for third-party code only.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && /node_modules/.test(warning.id ?? '')) return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': {
        target: API_TARGET,
        changeOrigin: true,
        // The API refuses cross-origin state changes; the dev proxy presents the request as same-origin.
        configure: (proxy) => {
          proxy.on('proxyReq', (proxyReq) => {
            proxyReq.removeHeader('origin');
            proxyReq.removeHeader('sec-fetch-site');
          });
        },
      },
    },
  },
}));
