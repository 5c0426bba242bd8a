import tseslint from 'typescript-eslint';

/**
 * Lint with import-layer rules (the architecture, enforced):
 * - lib/ is framework-free: no Next, no React, nothing from app/ or components/.
 * - Prisma (and raw pg) only in lib/db/: pages, components, workers and the CLI call its query functions.
 * - components/ never touch the database (type-only imports of lib/db shapes are fine).
 * - render/ compositions import nothing from app/.
 * - process.env is read in lib/env.ts only (plus tooling configs, tests and scripts).
 */
const noPrisma = [
  {
    group: ['@prisma/client', '@prisma/client/*', '@prisma/adapter-pg'],
    message: 'Database access lives in lib/db/ query functions only.',
  },
  { group: ['pg'], message: 'Database access lives in lib/db/ query functions only.' },
];
const frameworkImports = [
  { group: ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*'], message: 'lib/ is framework-free: no Next or React.' },
  { group: ['@/app/*', '@/components/*', '**/app/**', '**/components/**'], message: 'lib/ must not import from app/ or components/.' },
];
const processEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'Read configuration through lib/env.ts (env()), the one place that parses process.env.',
};

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
    ignores: ['lib/db/**', 'lib/env.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...frameworkImports, ...noPrisma] }],
      'no-restricted-syntax': ['error', processEnv],
    },
  },
  {
    files: ['lib/db/**/*.ts'],
    ignores: ['lib/db/test/**', 'lib/db/client.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: frameworkImports }], 'no-restricted-syntax': ['error', processEnv] },
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
              group: ['@/lib/db/*', '**/lib/db/*'],
              allowTypeImports: true,
              message: 'components/ never touch the database: pages load data and pass it down.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', processEnv],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'workers/**/*.ts', 'cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: noPrisma }] },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'workers/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', processEnv] },
  },
  {
    files: ['render/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...noPrisma, { group: ['@/app/*', '**/app/**'], message: 'Compositions import nothing from app/.' }] },
      ],
      'no-restricted-syntax': ['error', processEnv],
    },
  },
);
