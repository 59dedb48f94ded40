// ESLint flat config: type-aware typescript-eslint, named exports, React hooks (`npm run lint`, which
// also runs scripts/check-imports.mjs for import cycles and the area boundaries of DESIGN.md).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

// The few Node globals the plain JavaScript files (scripts/, this file) use.
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'URL', 'Buffer', 'fetch', 'FormData', 'Blob', 'AbortSignal'].map((name) => [
    name,
    'readonly',
  ]),
);

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/test-results/**',
      '.e2e-data/**',
      'apps/server/src/db/migrations/**',
      // Type declarations of plain JavaScript scripts (no tsconfig project holds them).
      'scripts/*.d.mts',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the nearest tsconfig.json; the root vitest.config.ts belongs to none.
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: root,
      },
    },
    rules: {
      // Named exports only (DESIGN.md); cycles and area boundaries: scripts/check-imports.mjs.
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true, namedFrom: true, namespaceFrom: true } }],
      // Fastify handlers and vitest fixtures return their result from an `async` function without awaiting.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read untyped JSON replies (`res.json()` is `any`); checking them field by field is what the
    // assertions do, so the no-unsafe-* family is only noise there.
    files: ['**/*.test.{ts,tsx}', '**/src/test/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Every string the API accepts refuses NUL and lone surrogates (issue 8 §3): contracts build strings
    // and free JSON with text() and jsonValue() from text.ts, never bare zod.
    files: ['packages/contracts/src/**/*.ts'],
    ignores: ['packages/contracts/src/text.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='z'][property.name=/^(string|unknown|any|json|email|uuid|guid|url|httpUrl|hostname|e164|jwt|iso|stringbool|stringFormat|templateLiteral)$/]",
          message: 'Use text() (or jsonValue()) from packages/contracts/src/text.ts: it refuses NUL and unpaired surrogates.',
        },
        {
          selector: "MemberExpression[object.object.name='z'][object.property.name='coerce'][property.name='string']",
          message: 'Use text() from packages/contracts/src/text.ts: it refuses NUL and unpaired surrogates.',
        },
      ],
    },
  },
  {
    // Tools load their config through a default export.
    files: ['**/*.config.{ts,mts,js,mjs}'],
    rules: { 'no-restricted-exports': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Plain JavaScript (scripts/, this file): no type information to lint with.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: nodeGlobals },
  },
);
