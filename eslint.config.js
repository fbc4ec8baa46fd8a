// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The layers of ../shared/ARCHITECTURE.md: ui → stores → turns → (agent | mcp | search | storage) → platform → domain. */
const LAYERS = ['app', 'ui', 'stores', 'turns', 'agent', 'mcp', 'search', 'storage', 'platform', 'domain'];
const ALLOWED = {
  app: LAYERS,
  ui: ['ui', 'stores', 'domain'],
  stores: ['stores', 'turns', 'agent', 'mcp', 'search', 'storage', 'platform', 'domain'],
  turns: ['turns', 'agent', 'mcp', 'search', 'storage', 'platform', 'domain'],
  agent: ['agent', 'platform', 'domain'],
  mcp: ['mcp', 'platform', 'domain'],
  search: ['search', 'domain'],
  storage: ['storage', 'platform', 'domain'],
  platform: ['platform', 'domain'],
  domain: ['domain'],
};
/** Packages only some layers may use. */
const PACKAGE_OWNERS = {
  react: ['app', 'ui'],
  'react-dom': ['app', 'ui'],
  zustand: ['stores'],
  idb: ['platform', 'storage'],
  '@modelcontextprotocol/sdk': ['mcp'],
  '@modelcontextprotocol/ext-apps': ['mcp', 'platform'],
  '@anthropic-ai/sdk': ['agent'],
  minisearch: ['search'],
};
/** Browser globals only platform/ (and the composition root) may touch; others receive them. */
const PLATFORM_GLOBALS = ['indexedDB', 'crypto', 'BroadcastChannel', 'fetch', 'localStorage', 'sessionStorage'].map(
  (name) => ({
    name,
    message: `Only src/platform/ touches ${name}; take it from the PlatformEnv instead.`,
  }),
);

function layerRules(layer) {
  const forbiddenLayers = LAYERS.filter((other) => !ALLOWED[layer].includes(other));
  const forbiddenPackages = Object.entries(PACKAGE_OWNERS)
    .filter(([, owners]) => !owners.includes(layer))
    .map(([pkg]) => pkg);
  return {
    files: [`src/${layer}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbiddenLayers.map((other) => ({
              // A sibling named like a layer (ui/features/chat/turns.ts) is not that layer.
              group: [`**/${other}/*`, `**/${other}`, `!./${other}`, `!./${other}/*`],
              message: `src/${layer}/ may not import src/${other}/ (layers: ui → stores → turns → agent|mcp|search|storage → platform → domain).`,
            })),
            ...forbiddenPackages.map((pkg) => ({
              group: [pkg, `${pkg}/*`],
              message: `Only src/${PACKAGE_OWNERS[pkg].join('/, src/')}/ may import ${pkg}.`,
            })),
          ],
        },
      ],
      ...(layer === 'platform' || layer === 'app' ? {} : { 'no-restricted-globals': ['error', ...PLATFORM_GLOBALS] }),
    },
  };
}

/** The relay's Node-only files: the server, its entry and its fetch that pins each connection's addresses. */
const RELAY_NODE_FILES = ['relay/node-server.ts', 'relay/main.ts', 'relay/pinned-fetch.ts'];

/** relay/ imports nothing from src/ but pure domain/ helpers, no app package, and (`isEdge`) no node: module. */
function relayRules(files, isEdge) {
  return {
    files: isEdge ? ['relay/**/*.ts'] : files,
    ignores: isEdge ? ['**/*.test.ts', ...RELAY_NODE_FILES] : [],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/*', '!**/src/domain', '**/src/*/**', '!**/src/domain/**', '**/test/**'],
              message: 'relay/ imports nothing from src/ but pure src/domain/ helpers.',
            },
            ...Object.keys(PACKAGE_OWNERS).map((pkg) => ({
              group: [pkg, `${pkg}/*`],
              message: 'relay/ is a small standalone server: no app packages.',
            })),
            ...(isEdge
              ? [
                  {
                    group: ['node:*', 'undici'],
                    message: `The relay handler runs on edge runtimes: only ${RELAY_NODE_FILES.join(', ')} use Node.`,
                  },
                ]
              : []),
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'vite.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/ui/**/*.tsx', 'src/app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...LAYERS.map(layerRules),
  // The CORS relay (relay/): outside the app; it may use pure domain/ helpers and nothing else of src/. Its handler
  // files run on edge runtimes too, so only the Node files (RELAY_NODE_FILES) may import node: modules and undici.
  relayRules(RELAY_NODE_FILES, false),
  relayRules([], true),
  {
    files: ['relay/main.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**/*.{ts,mjs}', '**/*.test.{ts,tsx}', 'vite.config.ts', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off', '@typescript-eslint/require-await': 'off' },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  // The service worker (src/service-worker/sw.js): plain JS that vite.config.ts writes to the build with its BUILD.
  {
    files: ['src/service-worker/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'script',
      ecmaVersion: 2022,
      globals: { ...globals.serviceworker },
    },
  },
  // Classic scripts the page loads as they are (public/theme-boot.js, before the first paint): plain JS, no modules.
  {
    files: ['public/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'script',
      ecmaVersion: 2022,
    },
  },
);
