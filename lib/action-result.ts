import type { AppErrorCode } from './errors';

/**
 * What every server action returns (app/_server/action.ts builds it; forms read it): the data,
 * or a user-facing error with its code and, when the error is about one input, that field.
 * Never a raw internal message.
 */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

export interface ActionError {
  code: AppErrorCode;
  message: string;
  /** the input field the error is about (from AppError details.field), for a form to show it there */
  field?: string;
}
