import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAppError, publicError } from '../errors';

/**
 * A tool's failure as an MCP tool error (`isError: true`), mapped once here: the AppError's code
 * and message, which say where and what ("/criteria/2: unknown criterion 'x'"), and the field (a
 * JSON pointer or a name) when it has one; anything else is "Something went wrong on our side"
 * (logged to stderr, never a stack in the answer).
 */
export function toolErrorResult(error: unknown): CallToolResult {
  if (!isAppError(error)) console.error('[mcp]', error);
  const body = publicError(error);
  const details = (body.details ?? {}) as { field?: unknown; retryAfterSeconds?: unknown; scope?: unknown };
  const field = typeof details.field === 'string' ? details.field : undefined;
  // a message that does not name its field yet gets it in front ("/answers/q: …")
  const message = field && !body.message.startsWith(field) && field.startsWith('/') ? `${field}: ${body.message}` : body.message;
  const error_ = {
    code: body.code,
    message,
    ...(field ? { field } : {}),
    ...(typeof details.retryAfterSeconds === 'number' ? { retryAfterSeconds: details.retryAfterSeconds } : {}),
    ...(typeof details.scope === 'string' ? { scope: details.scope } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: error_ }) }] };
}

/** A tool's answer: one text content with its JSON (compact: answers are kept small). */
export function toolResult(answer: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
}
