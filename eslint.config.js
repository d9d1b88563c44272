import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'test-results/', 'bench/results/', 'clients/typescript/dist/', 'clients/typescript/node_modules/'] },
  js.configs.recommended,
  // Type-aware rules: every TypeScript file is linted with the types tsc sees.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
      // Off: Fastify plugins, hooks and handlers, and SQLite's side of the async Store interface, are async by contract (a throw becomes a rejection) without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // node:test awaits the promises of test() and describe() itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
  {
    // Off in tests only: assertions read parsed bodies (res.json(), JSON.parse) as any on purpose, and the assertion is the check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (the CLI shim, configuration, browser assets): no types to check.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tool configuration in CommonJS (dependency-cruiser reads .cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Served to browsers by the dashboard and the API reference.
    files: ['src/dashboard/assets/**/*.js', 'src/http/public/**/*.js'],
    languageOptions: { globals: { document: 'readonly', navigator: 'readonly', Element: 'readonly', window: 'readonly' } },
  },
);
