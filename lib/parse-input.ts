import type { z } from 'zod';
import { AppError } from './errors';

/**
 * The one "zod failure -> AppError" of the code base: parses `raw` with `schema`, or throws
 * BAD_INPUT saying where and what (the first issue) with `details.field` set to the field's
 * path, so a form or an API client can point at it.
 *
 * `where` names the input for the message: `parseInput(q, raw, 'query parameter')` reads
 * "query parameter limit: …"; with `''` the message starts at the field ("quality: …", or
 * "input: …" for the input as a whole). `under` prefixes the path of an input that is part of
 * a larger one (`under: 'answers'` makes `quality` read `answers.quality`).
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, where: string, options: { under?: string } = {}): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // eslint-disable-next-line no-restricted-syntax -- the one mapping
  const issue = parsed.error.issues[0]!;
  const field = [options.under, ...issue.path.map(String)].filter(Boolean).join('.');
  const label = where ? (field ? `${where} ${field}` : where) : field || 'input';
  throw new AppError('BAD_INPUT', `${label}: ${issue.message}`, field ? { details: { field } } : {});
}

/** A URL search parameter's first value (Next gives `string | string[] | undefined`), for `z.preprocess` at page and route edges. */
export function firstValue(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : v;
}
