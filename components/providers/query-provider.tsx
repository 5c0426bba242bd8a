'use client';

import './zod-jitless';
import { QueryClientProvider, isServer, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { makeQueryClient } from './make-query-client';

let browserClient: QueryClient | undefined;

/** Browser: one QueryClient for the tab. Server render: a fresh one per request (never shared between users). */
function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(getQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
