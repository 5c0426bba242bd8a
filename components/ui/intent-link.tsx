'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';

/**
 * A link whose page is prefetched when the pointer or the keyboard's focus comes to it (the
 * reader's intent), not when it comes into view, as Next's links do. Studio pages are dynamic:
 * a viewport prefetch is a server render of the linked page, and a long trajectory page showed
 * a dozen of them (the menu, the breadcrumb, the raw-source tab, the transcript's next page) on
 * the same cores while its video started, and the trajectories list one a row. Hovering leaves
 * the server a few hundred ms before the click. The studio's one link (repo-conventions.test.ts).
 */
export function IntentLink({
  href,
  onMouseEnter,
  onFocus,
  ...rest
}: Omit<ComponentProps<typeof Link>, 'prefetch' | 'href'> & { href: string }) {
  const router = useRouter();
  return (
    <Link
      {...rest}
      href={href}
      prefetch={false}
      onMouseEnter={(e) => {
        router.prefetch(href);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        router.prefetch(href);
        onFocus?.(e);
      }}
    />
  );
}
