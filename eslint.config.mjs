import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'This layer must not depend on the VS Code API (see docs/architecture.md).' }],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'dist-vsix/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: [
      'src/api/**/*.ts',
      'src/core/**/*.ts',
      'src/webview/**/*.ts',
      'src/usage/webview/**/*.ts',
      'src/usage/protocol.ts',
      'src/engagements/webview/**/*.ts',
      'src/engagements/detailsProtocol.ts',
    ],
    rules: noVscode,
  },
  {
    // A file is as long as its concept needs (docs/architecture.md); a function stays readable.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The integration suite tests the running extension: from src it may import types only
    // (a value import would bundle a second copy of the code into the test and test that).
    files: ['test/integration/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '../../src/*'],
              allowTypeImports: true,
              message:
                'Integration tests import only types from src; reach the running extension through its commands and exports.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
  {
    // The npm-start-only demo seeder and the e2e probe are plain CommonJS extensions (no build step).
    files: ['scripts/demo-seeder/**/*.js', 'test/e2e/fixtures/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', process: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
