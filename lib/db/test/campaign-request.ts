import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { db } from '../client';
import { AppError } from '../../errors';
import { defaultReviewRubric } from '../../review/default-rubric';

/** Setup the campaign request tests share (lib/campaigns/campaign-sampling.db.test.ts, create-campaign-from-request.db.test.ts). */

/** A user of `role` with `expertise`, made directly (the tests need no invite). */
export async function user(role: 'lead' | 'reviewer', expertise: string[] = []) {
  const id = randomUUID();
  await db().user.create({ data: { id, email: `${id}@x.test`, name: `${role} ${id.slice(0, 4)}`, role, expertise } });
  return { id, expertise };
}

/** A single-item request of project `p` with the default rubric, named `name`. */
export function campaignRequest(name: string) {
  return {
    project: 'p',
    name,
    mode: 'single' as const,
    overlap: 2,
    rubric: { name: 'Agent run review', definition: defaultReviewRubric() },
  };
}

/** The AppError a rejected promise carries: its message and the field it names. */
export async function refusal(promise: Promise<unknown>): Promise<{ message: string; field: unknown }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { message: (error as AppError).message, field: ((error as AppError).details as { field?: string } | undefined)?.field };
  }
  throw new Error('expected a refusal');
}
