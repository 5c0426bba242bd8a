import { afterEach, describe, expect, it } from 'vitest';
import { env, setEnv, snapshotEnv } from './env';

describe('snapshotEnv', () => {
  const before = process.env.DATABASE_URL;
  afterEach(() => {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  });

  it('puts back what a bench area set, and env() reads the restored values', () => {
    const restore = snapshotEnv();
    setEnv('DATABASE_URL', 'postgresql://bench@127.0.0.1:1/area');
    setEnv('WITNESS_DB_PORT', '1');
    expect(env().DATABASE_URL).toBe('postgresql://bench@127.0.0.1:1/area');
    restore();
    expect(process.env.DATABASE_URL).toBe(before);
    expect(env().DATABASE_URL).toBe(before);
    expect(env().WITNESS_DB_PORT).not.toBe(1);
  });
});
