import 'server-only';
import { QueryClient } from '@tanstack/react-query';
import { cache } from 'react';

/** One QueryClient per server request (React cache is request-scoped): prefetch, then dehydrate into the page. */
export const serverQueryClient = cache(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } }));
