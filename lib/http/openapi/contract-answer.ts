import type { z } from 'zod';

/**
 * A route's answer body typed by the contract's schema for it (api-contract.ts): the identity at
 * run time, a compile error when a route builds a shape its published schema does not allow (the
 * API tests check the answers themselves against the generated document: check-response.ts).
 */
export function shaped<S extends z.ZodType>(_schema: S, body: z.input<S>): z.input<S> {
  return body;
}
