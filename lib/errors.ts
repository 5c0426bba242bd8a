/**
 * The one application error. Every edge (server action, route handler, CLI, job handler)
 * maps it once: see `httpStatusFor`. Messages of AppError are written for users; any other
 * error is internal and its message never reaches a client.
 */
export const appErrorCodes = [
  'BAD_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_LARGE',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
export type AppErrorCode = (typeof appErrorCodes)[number];

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** safe, user-facing structured details (e.g. where a parse failed) */
  readonly details: unknown;

  constructor(code: AppErrorCode, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
  }
}

const httpStatus: Record<AppErrorCode, number> = {
  BAD_INPUT: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function httpStatusFor(code: AppErrorCode): number {
  return httpStatus[code];
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** What an edge may show a client: the AppError's own message, or a generic one. */
export function publicError(error: unknown): { code: AppErrorCode; message: string; details?: unknown } {
  if (isAppError(error)) {
    return error.details === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, details: error.details };
  }
  return { code: 'INTERNAL', message: 'Something went wrong on our side. It has been logged.' };
}
