import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import apiLayersRule from './apps/api/lint/api-layers.js';

const apiModules = {
  files: ['apps/api/src/**/*.ts'],
  plugins: { parley: { rules: { 'api-layers': apiLayersRule } } },
  rules: { 'parley/api-layers': 'error' },
};

const crossFeature = 'Features do not import each other or the app layer; they meet in src/app.';
/** Depth-aware: from features/<f>/x.ts a sibling feature is ../<g>; from features/<f>/<dir>/x.ts it is ../../<g>. */
const webFeatures = [
  {
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./(?!\\.\\./)|^(\\.\\./)+app(/|$)', message: crossFeature }] },
      ],
    },
  },
  {
    files: ['apps/web/src/features/*/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./\\.\\./(?!\\.\\./)|^(\\.\\./)+app(/|$)', message: crossFeature }] },
      ],
    },
  },
];

/**
 * The extension's layers (apps/extension/README.md): entrypoints wire, `app` composes; `features/*` do not import each
 * other or app; `ui` imports no feature or app; `platform` (messaging, storage, tabs, the background's API client)
 * imports no feature, app or ui; `sites` (per-site knowledge) imports no feature or app. Depth-aware like the web
 * rules: a file `depth` folders below src/ reaches src/<layer> as `../` × depth + layer (or through WXT's `@/`, `~/`).
 */
const extensionSrc = 'apps/extension/src';
const extensionLayers = (layer, banned, message, { siblings = false } = {}) =>
  [1, 2, 3, 4].map((depth) => {
    const patterns = [
      { regex: `^(\\.\\./){${depth}}(${banned.join('|')})(/|$)`, message },
      { regex: `^(@|~)/(${banned.join('|')})(/|$)|^(@@|~~)/src/(${banned.join('|')})(/|$)`, message },
    ];
    // From features/<f>/…/x.ts, going up to features/ and down again is another feature.
    if (siblings) patterns.push({ regex: depth === 1 ? '^\\./' : `^(\\.\\./){${depth - 1}}(?!\\.\\./)`, message });
    return {
      files: [`${extensionSrc}/${layer}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    };
  });
const extensionRules = [
  ...extensionLayers(
    'features',
    ['app', 'features'],
    'Extension features do not import each other or src/app; they meet in src/app.',
    { siblings: true },
  ),
  ...extensionLayers('ui', ['app', 'features'], 'The shared src/ui imports no feature and no app code.'),
  ...extensionLayers(
    'platform',
    ['app', 'features', 'ui'],
    'src/platform (messaging, storage, tabs, API) imports no feature, app or ui.',
  ),
  ...extensionLayers('sites', ['app', 'features'], 'Site knowledge (src/sites) imports no feature and no app code.'),
];

const packagesStayDown = {
  files: ['packages/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@parley/api', '@parley/web', '@parley/extension', '**/apps/**'],
            message: 'Packages never import apps.',
          },
        ],
      },
    ],
  },
};

const contractIsLeaf = {
  files: ['packages/contract/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@parley/*', 'react', 'react-dom', 'fastify', 'drizzle-orm'],
            message: 'The contract depends on zod only.',
          },
        ],
      },
    ],
  },
};

const noEnvOutsideConfig = {
  files: ['apps/api/src/**/*.ts'],
  ignores: [
    'apps/api/src/config.ts',
    'apps/api/src/server.ts',
    'apps/api/src/cli.ts',
    'apps/api/src/test/**',
    'apps/api/src/**/*.test.ts',
  ],
  rules: {
    'no-restricted-properties': [
      'error',
      { object: 'process', property: 'env', message: 'Read configuration once in config.ts.' },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.output/**',
      '**/.wxt/**',
      'data/**',
      'apps/api/drizzle/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'packages/ui/**/*.{ts,tsx}', 'apps/extension/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['apps/api/src/cli.ts', 'bench/**', 'scripts/**', 'e2e/**', '.ci/**'], rules: { 'no-console': 'off' } },
  apiModules,
  ...webFeatures,
  ...extensionRules,
  packagesStayDown,
  contractIsLeaf,
  noEnvOutsideConfig,
);
