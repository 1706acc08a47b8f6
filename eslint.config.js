// Lint: type-aware async discipline everywhere, and the process boundaries
// of STYLE.md enforced mechanically per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_ONLY_FORBIDDEN = {
  paths: [
    { name: 'electron', message: 'core/ and cli/ run under plain Node: never import electron.' },
    { name: 'electron-store', message: 'electron-store starts a download outside Electron: use conf in core/.' },
    { name: 'react', message: 'core/ and cli/ never import react.' },
    { name: 'react-dom', message: 'core/ and cli/ never import react-dom.' },
  ],
  patterns: [
    { group: ['electron/*', 'react/*', 'react-dom/*'], message: 'core/ and cli/ never import Electron or React.' },
    { group: ['**/electron/**', '**/preload/**', '**/renderer/**'], message: 'core/ and cli/ never import the desktop or renderer trees.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', '.tsbuild/**', 'node_modules/**', 'bench/.out/**', 'test-results/**', '**/*.mjs', '**/*.cjs', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      'no-restricted-syntax': ['error', { selector: 'CallExpression[callee.name="require"]', message: 'Use ES imports.' }],
    },
  },
  { files: ['core/**/*.ts', 'cli/**/*.ts'], rules: { 'no-restricted-imports': ['error', NODE_ONLY_FORBIDDEN] } },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...NODE_ONLY_FORBIDDEN, patterns: [...NODE_ONLY_FORBIDDEN.patterns, { group: ['**/cli/**'], message: 'core/ never imports cli/.' }] },
      ],
    },
  },
  {
    // Everything in electron/ but the composition root is tested under plain Node: Electron types only.
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', allowTypeImports: true, message: 'Only electron/main.ts imports Electron values; take a port instead.' },
            { name: 'electron-store', allowTypeImports: true, message: 'Only electron/main.ts creates the store; take a port instead.' },
            { name: 'react', message: 'The main process never imports react.' },
          ],
        },
      ],
    },
  },
  {
    // The preload runs sandboxed: Electron and our own zod-free files only, never an npm package.
    files: ['preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\.|electron$)', message: 'The preload imports no npm code.' }, { group: ['**/core/contract/bridge*', '**/core/protocol/**'], message: 'Only the zod-free core/contract/operations names.' }] }] },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'The renderer reaches Electron only through the preload bridge.' }], patterns: [{ group: ['node:*'], message: 'The renderer runs in a browser: no Node built-ins.' }] }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-unsafe-assignment': 'off', '@typescript-eslint/no-unsafe-member-access': 'off' },
  },
);
