import { inject } from 'vitest';

// Runs in each db test worker before its tests: point lib/env at the test database.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.WITNESS_SECRET ??= 'test-secret-test-secret-test-secret-0123456789';
process.env.WITNESS_DEMO = '0';
