import 'server-only';
import type { z } from 'zod';
import type { ActionError, ActionResult } from '@/lib/action-result';
import type { Area } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';
import { AppError, publicError } from '@/lib/errors';
import { withWellFormedText } from '@/lib/http/lone-surrogates';
import { findNulByte } from '@/lib/http/nul-bytes';
import { requireActionUser } from './current-user';

/**
 * Wraps a server action: checks the role on the server, refuses a NUL, makes text well-formed,
 * validates input with zod, and maps errors once (AppError -> its message; anything else -> a generic message, logged).
 */
export function defineAction<S extends z.ZodType, T>(
  area: Area,
  schema: S,
  run: (input: z.infer<S>, user: SessionUser) => Promise<T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input: unknown) => {
    try {
      const user = await requireActionUser(area);
      const nul = findNulByte(input);
      if (nul) return { ok: false, error: { code: 'BAD_INPUT', message: 'must not contain a NUL character', field: nul } };
      // an unpaired UTF-16 surrogate reads as U+FFFD, as in API bodies (lib/http/lone-surrogates.ts)
      const parsed = schema.safeParse(withWellFormedText(input));
      if (!parsed.success) {
        // eslint-disable-next-line no-restricted-syntax -- the action edge: a form gets the message and the field apart (parseInput prefixes the field)
        const issue = parsed.error.issues[0]!;
        return { ok: false, error: { code: 'BAD_INPUT', message: issue.message, field: issue.path.join('.') || undefined } };
      }
      return { ok: true, data: await run(parsed.data, user) };
    } catch (error) {
      return { ok: false, error: toActionError(error, '[action]') };
    }
  };
}

/**
 * Maps any error once for a client: an AppError to its code and message (and the input field
 * it is about, from details.field); anything else to a generic message, logged under `tag`.
 */
export function toActionError(error: unknown, tag: string): ActionError {
  if (!(error instanceof AppError)) console.error(tag, error);
  const { code, message, details } = publicError(error);
  const field =
    details && typeof details === 'object' && typeof (details as { field?: unknown }).field === 'string'
      ? (details as { field: string }).field
      : undefined;
  return field ? { code, message, field } : { code, message };
}
