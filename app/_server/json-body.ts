import 'server-only';
import type { z } from 'zod';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';

const MAX_BYTES = 2 * 1024 * 1024;

/** Reads a JSON request body and validates it; bad input says where and what (422). */
export async function jsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const text = await request.text();
  if (text.length > MAX_BYTES) throw new AppError('TOO_LARGE', `The body is over ${MAX_BYTES / 1024 / 1024} MB`);
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new AppError('BAD_INPUT', 'The body is not valid JSON');
  }
  return parseInput(schema, raw, 'body');
}
