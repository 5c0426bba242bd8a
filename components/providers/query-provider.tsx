'use client';

import './zod-jitless';
import { QueryClient, QueryClientProvider, isServer } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

/** Browser: one QueryClient for the tab. Server render: a fresh one per request (never shared between users). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // data prefetched on the server is fresh for a while: no refetch right after hydration
      queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 },
    },
  });
}

let browserClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(getQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
