// Lint: type-aware async discipline everywhere, and the process boundaries
// of docs/architecture.md enforced mechanically per folder.
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
    {
      group: ['**/electron/**', '**/preload/**', '**/renderer/**'],
      message: 'core/ and cli/ never import the desktop or renderer trees.',
    },
  ],
};

const NO_REQUIRE = { selector: 'CallExpression[callee.name="require"]', message: 'Use ES imports.' };
const NO_BARE_KILL = {
  selector: 'CallExpression[callee.property.name="kill"]',
  message:
    'Tests stop processes with stopProcess()/stopPid() from test/helpers/processes.ts, which wait for the exit (and escalate to SIGKILL); a signal under test goes through sendSignal().',
};
/** One receipts module (core/receipts/receipts.ts): nothing else in core/ builds a receipt or its activity line. */
const ONE_RECEIPTS_MODULE = [
  {
    selector: "Property[key.name='kind'][value.value='receipt']",
    message: 'Only core/receipts builds a receipt or its activity line; call the ReceiptPort (tell, sent, decided).',
  },
  {
    selector: "ImportSpecifier[imported.name='receiptText']",
    message: 'Receipt texts are written by core/receipts alone; call the ReceiptPort.',
  },
];

/**
 * core/ in layers (docs/architecture.md): a folder may import its own layer
 * and the ones below it, never one above. Each entry names the folders of a
 * layer and what they may not import. The cycle check (scripts/check-cycles.mjs)
 * keeps imports inside one layer from forming a circle.
 */
const up = (folders) => folders.map((f) => `**/${f}/**`);
const HOST = ['host'];
const FEATURES = ['messaging', 'sessions', 'wake'];
const INTEGRATIONS = ['stock', 'relay'];
const DOMAIN = [
  'registry',
  'policy',
  'delivery',
  'receipts',
  'journal',
  'settings',
  'idle',
  'teams',
  'tasks',
  'setup',
  'history',
];
const BASE = ['contract', 'transport', 'storage', 'client'];
const ENTRY = ['**/core/index.js', '../index.js', '../../index.js'];
const CORE_LAYERS = [
  {
    name: 'kit',
    folders: ['kit'],
    forbid: [...up(['protocol', ...BASE, ...DOMAIN, ...INTEGRATIONS, ...FEATURES, ...HOST])],
  },
  { name: 'protocol', folders: ['protocol'], forbid: up([...BASE, ...DOMAIN, ...INTEGRATIONS, ...FEATURES, ...HOST]) },
  {
    name: 'base (contract, transport, storage, client)',
    folders: BASE,
    forbid: up([...DOMAIN, ...INTEGRATIONS, ...FEATURES, ...HOST]),
  },
  { name: 'domain', folders: DOMAIN, forbid: up([...INTEGRATIONS, ...FEATURES, ...HOST]) },
  { name: 'integrations', folders: INTEGRATIONS, forbid: up([...FEATURES, ...HOST]) },
  { name: 'features', folders: FEATURES, forbid: up(HOST) },
];

const HUB_ONLY_VIA_ENTRY = {
  group: ['**/core/host/**'],
  message: 'Reach the hub through core/index.ts, never core/host/.',
};
const CORE_FORBIDDEN = [
  ...NODE_ONLY_FORBIDDEN.patterns,
  { group: ['**/cli/**'], message: 'core/ never imports cli/.' },
];
const coreRule = (extra) => ['error', { ...NODE_ONLY_FORBIDDEN, patterns: [...CORE_FORBIDDEN, ...extra] }];
const layerConfigs = CORE_LAYERS.map((layer) => ({
  files: layer.folders.map((f) => `core/${f}/**/*.ts`),
  rules: {
    'no-restricted-imports': coreRule([
      {
        group: [...layer.forbid, ...ENTRY],
        message: `core/ in layers: ${layer.name} may import only its own layer and the ones below (docs/architecture.md); take a port instead.`,
      },
    ]),
  },
}));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.tsbuild/**',
      'node_modules/**',
      'bench/.out/**',
      'test-results/**',
      '**/*.mjs',
      '**/*.cjs',
      'eslint.config.js',
    ],
  },
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
      'no-restricted-syntax': ['error', NO_REQUIRE],
    },
  },
  { files: ['core/**/*.ts', 'cli/**/*.ts'], rules: { 'no-restricted-imports': ['error', NODE_ONLY_FORBIDDEN] } },
  { files: ['core/**/*.ts'], rules: { 'no-restricted-imports': coreRule([]) } },
  {
    // A promise nobody awaits goes to drop(promise, what, log) (core/kit/drop.ts), never a bare `void`.
    files: ['core/**/*.ts', 'electron/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }] },
  },
  {
    files: ['core/**/*.ts'],
    ignores: ['core/receipts/**'],
    rules: { 'no-restricted-syntax': ['error', NO_REQUIRE, ...ONE_RECEIPTS_MODULE] },
  },
  ...layerConfigs,
  {
    // The Hub composes; the API above it is handed in by core/index.ts.
    files: ['core/host/hub.ts'],
    rules: {
      'no-restricted-imports': coreRule([
        {
          group: ['./api/*', './ui/*', ...ENTRY],
          message: 'host/hub.ts never imports the API layer (host/api, host/ui): core/index.ts passes it in.',
        },
      ]),
    },
  },
  {
    // Outside core/, only the composition roots and the public entry's users reach the hub.
    files: ['cli/**/*.ts', 'bench/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'preload/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [HUB_ONLY_VIA_ENTRY] }] },
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
            {
              name: 'electron',
              allowTypeImports: true,
              message: 'Only electron/main.ts imports Electron values; take a port instead.',
            },
            {
              name: 'electron-store',
              allowTypeImports: true,
              message: 'Only electron/main.ts creates the store; take a port instead.',
            },
            { name: 'react', message: 'The main process never imports react.' },
          ],
          patterns: [HUB_ONLY_VIA_ENTRY],
        },
      ],
    },
  },
  {
    // The preload runs sandboxed: Electron and our own zod-free files only, never an npm package.
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\.|electron$)', message: 'The preload imports no npm code.' },
            {
              group: ['**/core/contract/bridge*', '**/core/protocol/**'],
              message: 'Only the zod-free core/contract/operations names.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer reaches Electron only through the preload bridge.' }],
          patterns: [{ group: ['node:*'], message: 'The renderer runs in a browser: no Node built-ins.' }],
        },
      ],
    },
  },
  {
    // A test waits for every process it starts to exit before its directories go (test/helpers/processes.ts).
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    ignores: ['test/helpers/processes.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_REQUIRE, NO_BARE_KILL] },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
