import { z } from 'zod';
import { AppError } from '../errors';

/**
 * Cursors of the MCP tools' pages: opaque to the agent (base64url of a small JSON), made by the
 * tool that reads them back. A cursor that is not one the tool made is BAD_INPUT on /cursor.
 */
export const cursorInput = z.string().max(200).optional().describe('the nextCursor of the previous answer, for the next page');

export function makeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

export function readCursor<S extends z.ZodType>(cursor: string | undefined, schema: S): z.infer<S> | null {
  if (cursor === undefined || cursor === '') return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new AppError('BAD_INPUT', '/cursor: not a cursor this tool gave (pass nextCursor as it came)', { details: { field: '/cursor' } });
  return parsed.data;
}

const offsetCursor = z.object({ o: z.number().int().min(0) });

/** A page of an in-memory list: `limit` items from the cursor's offset, and the cursor of the next page (null: the last). */
export function pageOf<T>(
  items: readonly T[],
  cursor: string | undefined,
  limit: number,
): { page: T[]; nextCursor: string | null; total: number } {
  const offset = readCursor(cursor, offsetCursor)?.o ?? 0;
  const page = items.slice(offset, offset + limit);
  const next = offset + limit;
  return { page, nextCursor: next < items.length ? makeCursor({ o: next }) : null, total: items.length };
}

/** Text cut to `max` characters, saying how much was left out. */
export function clip(text: string | null, max: number): string | null {
  if (text === null) return null;
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
