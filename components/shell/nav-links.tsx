'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

export function NavLinks({ items }: { items: { href: string; label: string }[] }) {
  const pathname = usePathname();
  // the most specific entry wins (e.g. /lead/agreement over /lead)
  const matches = items.filter((item) => pathname === item.href || pathname.startsWith(`${item.href}/`));
  const best = matches.sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <>
      {items.map((item) => {
        const active = item.href === best;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-3 py-1.5 text-sm ${active ? 'bg-zinc-100 font-medium text-zinc-900' : 'text-zinc-600 hover:text-zinc-900'}`}
          >
            {item.label}
          </Link>
        );
      })}
    </>
  );
}
