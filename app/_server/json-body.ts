import 'server-only';
import type { z } from 'zod';
import { AppError } from '@/lib/errors';
import { readJsonBody } from './read-body';

/** Reads a JSON request body (at most 2 MiB, counted in bytes as it streams) and validates it; bad input says where and what (422). */
export async function jsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const raw = await readJsonBody(request);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('BAD_INPUT', `body ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
