import 'server-only';
import { cache } from 'react';
import { makeQueryClient } from '@/components/providers/make-query-client';

/** One QueryClient per server request (React cache is request-scoped): prefetch, then dehydrate into the page. */
export const serverQueryClient = cache(makeQueryClient);
