import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Lint with import-layer rules (the architecture, enforced):
 * - lib/ is the bottom floor: no Next, no React, nothing from app/, components/, workers/ or render/
 *   (job contracts live in lib/queue/jobs/, handlers in workers/).
 * - Prisma (and raw pg) only in lib/db/, the query layer: lib/db/infra/ (connections, migrations,
 *   the Prisma client) and lib/db/<domain>/ queries. Use-cases, pages, components and workers call
 *   its query functions; only entry points (cli/, bench/, seeds) and tests open lib/db/client.
 * - components/ never touch the database (type-only imports of lib/db shapes are fine) and import
 *   nothing from app/.
 * - render/ compositions import nothing from app/.
 * - process.env is read in lib/env.ts only (plus tooling configs, tests and scripts).
 */
const noPrisma = [
  {
    group: ['@prisma/client', '@prisma/client/*', '@prisma/adapter-pg'],
    message: 'Database access lives in lib/<domain>/queries/ (and lib/db/ infrastructure) only.',
  },
  { group: ['pg'], message: 'Database access lives in lib/<domain>/queries/ (and lib/db/ infrastructure) only.' },
];
const noDbClient = [
  {
    group: ['**/db/client', '@/lib/db/client'],
    message: 'The Prisma client is for lib/<domain>/queries/ (and entry points, tests): call a query function.',
  },
];
const frameworkImports = [
  { group: ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*'], message: 'lib/ is framework-free: no Next or React.' },
  { group: ['@/app/*', '@/components/*', '**/app/**', '**/components/**'], message: 'lib/ must not import from app/ or components/.' },
  {
    group: ['@/workers/*', '**/workers/**', '@/render/*', '**/render/**'],
    message: 'lib/ must not import from workers/ or render/ (job contracts are in lib/queue/jobs/).',
  },
];
// lib/db/ is infrastructure: the arrows point down to it, never from it into a domain room
const dbIsInfrastructure = [
  {
    group: [
      '../*',
      '!../env',
      '!../errors',
      '!../queue',
      '!../queue/boss',
      '!../queue/queue-schema',
      '!../queue/job-contract',
      '@/lib/*',
      '!@/lib/db',
    ],
    message:
      "lib/db/ is infrastructure only (connection, pools, COPY, migrations, embedded PostgreSQL): no domain imports; a domain's reads and writes live in lib/<domain>/queries/.",
  },
];
// edges parse, check access and call a use-case (lib/<domain>/<verb-noun>.ts), which calls its queries
const noQueries = {
  group: ['**/lib/*/queries/*', '@/lib/*/queries/*'],
  allowTypeImports: true,
  message:
    'Edges call a use-case (lib/<domain>/<verb-noun>.ts), never a queries/ module: the use-case decides, audits and requests its follow-up jobs, and every transport (pages, API, CLI, MCP, jobs) gets the same behaviour.',
};
// queries are plain, scoped reads and writes: the use-case beside them parses, refuses and audits
const plainQueries = [
  { group: ['zod'], message: 'Queries take parsed input: the zod schema lives in the use-case (or a pure schema module it shares).' },
  {
    group: ['**/errors', '@/lib/errors'],
    allowTypeImports: true,
    message: 'Queries refuse nothing: return null, false or a result, and let the use-case throw the AppError.',
  },
  {
    group: ['**/queries/audit', './audit'],
    allowTypeImports: true,
    message: 'Queries write no audit rows: take an AuditStep callback (lib/auth/queries/audit.ts) that the use-case fills.',
  },
];
const noApp = (who) => ({
  group: ['@/app/*', '**/app/**'],
  message: `${who} imports nothing from app/ (what both need lives in lib/, e.g. lib/http/ for the API edge).`,
});
const processEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'Read configuration through lib/env.ts (env()), the one place that parses process.env.',
};
const tests = ['**/*.test.ts', '**/test/**'];
// a zod failure becomes an AppError in one place: parseInput (lib/parse-input.ts) says where and what and fills details.field
const zodByHand = {
  selector: "MemberExpression[property.name='issues'][object.property.name='error']",
  message: 'Map a zod failure with parseInput(schema, raw, where) (lib/parse-input.ts), not by reading error.issues by hand.',
};
// one way to do each thing in the UI (each of these had drifted into copies)
const oneWay = [
  {
    selector: "TSTypeAliasDeclaration TSPropertySignature[key.name='ok'] TSLiteralType > Literal[value=true]",
    message: 'Server actions return ActionResult (lib/action-result.ts): import it rather than declaring another.',
  },
  {
    selector: "CallExpression[callee.name='setInterval']",
    message: 'Poll through TanStack Query: useQuery({ refetchInterval }), not setInterval.',
  },
  {
    selector: "JSXOpeningElement[name.name='table']",
    message: 'Tables are DataTable (components/ui/table.tsx): columns, row groups, a frameless variant, test ids.',
  },
  {
    selector: "NewExpression[callee.name='QueryClient']",
    message: 'QueryClients come from makeQueryClient (components/providers/make-query-client.ts).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'tmp/**',
      'next-env.d.ts',
      'bench/out/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/db/**', 'lib/*/queries/**', 'lib/env.ts', ...tests],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...frameworkImports, ...noPrisma, ...noDbClient] }],
      'no-restricted-syntax': ['error', processEnv, zodByHand],
    },
  },
  {
    // better-auth's Prisma adapter is handed the client itself
    files: ['lib/auth/better-auth.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...frameworkImports, ...noPrisma] }] },
  },
  {
    files: ['lib/**/*.test.ts', 'lib/**/test/**/*.ts'],
    ignores: ['lib/db/**', 'lib/*/queries/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...frameworkImports, ...noPrisma] }] },
  },
  {
    files: ['lib/*/queries/**/*.ts'],
    ignores: tests,
    rules: {
      'no-restricted-imports': ['error', { patterns: [...frameworkImports, ...plainQueries] }],
      'no-restricted-syntax': ['error', processEnv, zodByHand],
    },
  },
  {
    files: ['lib/db/**/*.ts'],
    ignores: ['lib/db/test/**', 'lib/db/client.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...frameworkImports, ...dbIsInfrastructure] }],
      'no-restricted-syntax': ['error', processEnv, zodByHand],
    },
  },
  {
    // React's hook rules with the React Compiler's checks (eslint-plugin-react-hooks 7,
    // recommended-latest: refs read in render, impure calls, setState in effects), and Next's own rules
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'render/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
    },
    settings: { next: { rootDir: '.' } },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noPrisma,
            {
              group: ['@/lib/db/*', '**/lib/db/*', '@/lib/*/queries/*', '**/lib/*/queries/*'],
              allowTypeImports: true,
              message: 'components/ never touch the database: pages load data and pass it down.',
            },
            {
              group: ['@/app/*', '**/app/**'],
              message: 'components/ import nothing from app/ (shared types live in lib/, e.g. lib/action-result.ts).',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', processEnv, ...oneWay],
    },
  },
  {
    files: ['components/ui/table.tsx'],
    rules: { 'no-restricted-syntax': ['error', processEnv] },
  },
  {
    files: ['components/providers/make-query-client.ts'],
    rules: { 'no-restricted-syntax': ['error', processEnv] },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: tests,
    rules: { 'no-restricted-imports': ['error', { patterns: [...noPrisma, ...noDbClient, noQueries] }] },
  },
  {
    files: ['cli/**/*.ts'],
    ignores: tests,
    rules: { 'no-restricted-imports': ['error', { patterns: [...noPrisma, noQueries, noApp('cli/')] }] },
  },
  {
    files: ['cli/**/*.test.ts', 'workers/**/*.test.ts', 'workers/test/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: noPrisma }] },
  },
  {
    files: ['workers/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', processEnv, zodByHand] },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', processEnv, zodByHand, ...oneWay] },
  },
  {
    files: ['render/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noPrisma,
            { group: ['@/app/*', '**/app/**'], message: 'Compositions import nothing from app/.' },
            {
              regex: '^(@/|(\\.\\./)+)components/',
              message:
                'render/ imports nothing from components/: the Player imports the composition; UI primitives shared with the pages live in render/ui/.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', processEnv],
    },
  },
);
