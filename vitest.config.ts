import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // The files of a worker share its modules (the app, its fonts, drizzle, fastify): each file still builds
    // its own app on its own database, and no file mocks a module or keeps state in one, so loading them
    // once per worker instead of once per file changes no result (docs/decisions/0059-test-files-share-modules.md).
    isolate: false,
    // A migrated template database per run, copied for each test file (test/helpers/database.ts).
    globalSetup: ['test/global-setup.ts'],
    // Generous: CI runs the PGlite and PostgreSQL passes side by side on two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
