// ESLint (flat config): TypeScript, React hooks, accessibility of the JSX, and the import
// boundaries between the parts of the repository (shared, server, client and its features). Formatting is Prettier's (.prettierrc),
// so eslint-config-prettier comes last and turns off every stylistic rule.
import { readdirSync } from 'node:fs';
import { defineConfig, globalIgnores } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/** client/features/<name>: each feature is its own island (read at lint time, so a new feature is covered too). */
/** Everything of server/ but one domain module (folders and top-level files), and the tools. */
const outside = (domain) => [
  ...readdirSync(new URL('./server', import.meta.url), { withFileTypes: true })
    .filter((d) => d.name !== domain)
    .map((d) => `./server/${d.name}`),
  './tools',
  './scripts',
];

const features = readdirSync(new URL('./client/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/**
 * The import boundaries (import/no-restricted-paths, paths from the repository root):
 * - shared/ is imported by both sides, so it imports nothing of server/ or client/;
 * - client/ runs in the browser and never imports server/ (the server may import client/ for SSR);
 * - a feature never imports another feature (what two features share goes to client/components or client/api);
 * - client/components are the shared building blocks and never import a feature;
 * - server/devices (the device domain) is entered through its index.ts only: the portal API, the
 *   agent API, the integration API, the bulk jobs and the credits never reach into its files;
 * - server/credits (the credits domain) likewise: the portal API and the integration API call it
 *   through its index.ts;
 * - tools/ (the simulator, the fleet generator, the demo) is not the product: server/ never imports
 *   it (server/index.ts loads the demo lazily, in demo mode, and says so where it does).
 */
const boundaries = [
  { target: './shared', from: './server', message: 'shared/ imports nothing of server/.' },
  { target: './shared', from: './client', message: 'shared/ imports nothing of client/.' },
  { target: './client', from: './server', message: 'client/ never imports server/ (it runs in the browser).' },
  ...features.map((name) => ({
    target: `./client/features/${name}`,
    from: './client/features',
    except: [`./${name}`],
    message: 'A feature never imports another feature: what they share goes to client/components or client/api.',
  })),
  { target: './client/components', from: './client/features', message: 'client/components never imports a feature.' },
  {
    target: outside('devices'),
    from: './server/devices',
    except: ['./index.ts'],
    message: 'The device domain is entered through server/devices/index.ts only.',
  },
  {
    target: outside('credits'),
    from: './server/credits',
    except: ['./index.ts'],
    message: 'The credits domain is entered through server/credits/index.ts only.',
  },
  { target: './server', from: './tools', message: 'server/ never imports tools/ (the simulator, the seed, the demo): they are not the product.' },
  { target: './shared', from: './tools', message: 'shared/ imports nothing of tools/.' },
  { target: './client', from: './tools', message: 'client/ never imports tools/.' },
];

export default defineConfig(
  globalIgnores(['dist/**', 'coverage/**', 'data/**', 'helm/**']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // Every source file: Node globals (server, scripts, tests, configuration files).
    languageOptions: { globals: { ...globals.node } },
    plugins: { import: importPlugin },
    settings: {
      // Imports are written without extensions (tsconfig "moduleResolution": "Bundler").
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] } },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: boundaries }],
      // A `_` prefix marks a name unused on purpose: Express's 4-argument error handler (`_next`),
      // a rest destructuring that drops a key (`{ password: _, ...rest }`), a prop kept for the signature.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // CommonJS on purpose (the jest transform of .sql files): require() is its import.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The React client (and the test helpers that render it): browser globals, hooks rules, accessibility.
    files: ['client/**/*.{ts,tsx}', 'tests/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.flat.recommended.rules },
  },
  {
    // Tests read a hook's value through a probe component that stores it in a module variable
    // (`let hook; function Probe() { hook = useListParams(schema); return null; }`): on purpose there.
    files: ['**/*.test.tsx'],
    rules: { 'react-hooks/globals': 'off' },
  },
  {
    ...jsxA11y.flatConfigs.recommended,
    files: ['client/**/*.tsx', 'tests/**/*.tsx'],
  },
  prettier,
);
