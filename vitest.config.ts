import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // A migrated template database per run, copied for each test file (test/helpers/database.ts).
    globalSetup: ['test/global-setup.ts'],
    // Generous: CI runs the PGlite and PostgreSQL passes side by side on two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
