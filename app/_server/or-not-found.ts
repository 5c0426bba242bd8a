import { notFound } from 'next/navigation';
import { AppError } from '@/lib/errors';

/** For pages: a NOT_FOUND from the domain becomes the 404 page; anything else is thrown on. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
}
