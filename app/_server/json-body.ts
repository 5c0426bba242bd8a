import 'server-only';
import type { z } from 'zod';
import { parseInput } from '@/lib/parse-input';
import { readJsonBody } from '@/lib/http/read-body';

/** Reads a JSON request body (at most 2 MiB, counted in bytes as it streams) and validates it; bad input says where and what (422). */
export async function jsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const raw = await readJsonBody(request);
  return parseInput(schema, raw, 'body');
}
