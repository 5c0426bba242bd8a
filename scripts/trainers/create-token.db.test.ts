import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiToken } from '../../lib/auth/authenticate-api-token';
import { createUser } from '../../lib/auth/create-user';
import { db } from '../../lib/db/client';
import { resetDatabase } from '../../lib/db/test/reset';
import { childEnv, env } from '../../lib/env';
import { createTokenWithCli } from './create-token';

/* The trainer demo and the trainers' tests make their tokens with the real `witness token create` (a child process on the same database). */
describe('createTokenWithCli', () => {
  beforeAll(resetDatabase);

  it('answers the token the command printed once (its user and scope), or the exit code and output of a refusal', async () => {
    const lead = await createUser({ email: 'lead@trainer.test', name: 'Lead', role: 'lead', password: 'long enough password' });
    const processEnv = childEnv({ DATABASE_URL: env().DATABASE_URL! });
    const made = await createTokenWithCli({ user: 'lead@trainer.test', scope: 'training', name: 'npm run trainer', env: processEnv });
    if (!made.ok) throw new Error(`exit ${made.code}: ${made.output}`);
    const caller = await authenticateApiToken(made.token);
    expect(caller.id).toBe(lead.id);
    expect(caller.token?.scope).toBe('training');
    expect(await db().apiToken.findFirst({ where: { userId: lead.id }, select: { name: true } })).toEqual({ name: 'npm run trainer' });

    const refused = await createTokenWithCli({ user: 'nobody@trainer.test', scope: 'all', env: processEnv });
    expect(refused).toMatchObject({ ok: false, code: expect.any(Number) });
    if (refused.ok) return;
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/nobody@trainer\.test/i);
  }, 60_000);
});
