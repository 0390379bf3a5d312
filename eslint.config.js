import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WEB_NOT_SERVER = {
  group: ['**/server/**', '**/server'],
  message: 'The web app must not import server code; put shared code in src/shared.',
};

/** From a file `depth` folders below src/web/features: a path into another feature other than its api. */
function otherFeatureInternals(depth) {
  return {
    regex: `^(\\.\\./){${depth}}[a-z0-9-]+/(?!api$)`,
    message:
      "A feature must not import another feature's internals (only its api); move what both use to src/web/components or src/web/lib.",
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // No source file grows past 400 lines, comments and blank lines counted: a file that long holds more than
  // one concern and is split by concern.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  // The three sides: web never imports server, shared imports neither.
  {
    files: ['src/web/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [WEB_NOT_SERVER] }] },
  },
  // A web feature (src/web/features/X) uses another feature only through that feature's api.ts; what two
  // features share lives in src/web/components or src/web/lib. One entry per depth below features/, since
  // `../../x` is another feature from features/X/components/ but src/web/x from features/X/.
  ...[1, 2, 3].map((depth) => ({
    files: [`src/web/features/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: [WEB_NOT_SERVER, otherFeatureInternals(depth)] }] },
  })),
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/web/**', '**/server', '**/web'], message: 'src/shared must not import server or web code.' },
          ],
        },
      ],
    },
  },
  // Server layers: lib/ and db/ sit below the modules and never import one.
  {
    files: ['src/server/lib/**', 'src/server/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**', '**/modules'],
              message: 'src/server/lib and src/server/db must not import a module; pass what they need in, or move it down.',
            },
          ],
        },
      ],
    },
  },
  // A module reads another module's data through that module's service, never its *.repo file.
  {
    files: ['src/server/modules/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+[a-z0-9-]+/[a-z0-9.-]+\\.repo$',
              message: "A module must not import another module's repo; use that module's service.",
            },
          ],
        },
      ],
    },
  },
);
