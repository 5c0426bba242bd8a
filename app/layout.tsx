import type { Metadata } from 'next';
import localFont from 'next/font/local';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/providers/query-provider';
import './globals.css';

const inter = localFont({ src: './fonts/inter-latin-wght.woff2', variable: '--font-inter', display: 'swap', weight: '100 900' });
const jetbrains = localFont({
  src: [
    { path: './fonts/jetbrains-mono-latin-400.woff2', weight: '400' },
    { path: './fonts/jetbrains-mono-latin-700.woff2', weight: '700' },
  ],
  variable: '--font-jetbrains',
  display: 'swap',
});

export const metadata: Metadata = {
  title: { default: 'Witness', template: '%s · Witness' },
  description: 'Eval and review studio for AI agents',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // every page renders per request: its scripts carry that request's CSP nonce (proxy.ts)
  await connection();
  return (
    <html lang="en" className={`${inter.variable} ${jetbrains.variable}`}>
      <body className="min-h-screen font-sans">
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
