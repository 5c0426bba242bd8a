import { QueryClient } from '@tanstack/react-query';

/**
 * The one QueryClient factory, with the defaults of every client: the browser's (one for the
 * tab, components/providers/query-provider.tsx) and the server's (one per request, for a
 * prefetch dehydrated into the page: app/_server/query-client.ts).
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // data prefetched on the server is fresh for a while: no refetch right after hydration
      queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}
