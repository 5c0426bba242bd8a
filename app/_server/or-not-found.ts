import { forbidden, notFound } from 'next/navigation';
import { AppError, type AppErrorCode } from '@/lib/errors';

/**
 * How a page answers a use-case's refusal, in one place: NOT_FOUND is the 404 page (every one, or
 * with `notFoundField` only one naming that field, `details.field`, e.g. a project the caller may
 * not see, answered like one that does not exist); FORBIDDEN is the 403 page where the page's
 * use-case checks the caller (`forbiddenPage`, as requirePageProjectRole does); a code in `show`
 * is handed back for the page to explain; anything else is thrown on (the error page).
 */
interface PageRefusals {
  show?: readonly AppErrorCode[];
  notFoundField?: string;
  forbiddenPage?: boolean;
}

function answerRefusal(error: unknown, { show = [], notFoundField, forbiddenPage = false }: PageRefusals): AppError {
  if (!(error instanceof AppError)) throw error;
  const field = (error.details as { field?: string } | undefined)?.field;
  if (error.code === 'NOT_FOUND' && (notFoundField === undefined || field === notFoundField)) notFound();
  if (error.code === 'FORBIDDEN' && forbiddenPage) forbidden();
  if (show.includes(error.code)) return error;
  throw error;
}

/** For pages: a NOT_FOUND from the domain becomes the 404 page; anything else is thrown on. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw answerRefusal(error, {});
  }
}

/** For pages whose use-case checks the caller: NOT_FOUND the 404 page, FORBIDDEN the 403 page. */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw answerRefusal(error, { forbiddenPage: true });
  }
}

/**
 * For pages that explain some refusals themselves (a bad filter, an unknown name in a link):
 * `work`'s data, or the AppError to show when its code is among `show`.
 */
export async function orErrorPage<T>(
  work: () => Promise<T>,
  options: { show: readonly AppErrorCode[]; notFoundField?: string },
): Promise<{ data: T; error: null } | { data: null; error: AppError }> {
  try {
    return { data: await work(), error: null };
  } catch (error) {
    return { data: null, error: answerRefusal(error, options) };
  }
}
