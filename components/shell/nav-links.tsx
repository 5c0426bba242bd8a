'use client';

import { usePathname } from 'next/navigation';
import { IntentLink } from '../ui/intent-link';

export function NavLinks({ items }: { items: { href: string; label: string }[] }) {
  const pathname = usePathname();
  // the most specific matching entry is the active one (/admin/sinks: Training sinks, not Admin)
  const matches = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  const current = items.filter((i) => matches(i.href)).sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <>
      {items.map((item) => {
        const active = item.href === current;
        return (
          <IntentLink
            key={item.href}
            href={item.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-3 py-1.5 text-sm ${active ? 'bg-zinc-100 font-medium text-zinc-900' : 'text-zinc-600 hover:text-zinc-900'}`}
          >
            {item.label}
          </IntentLink>
        );
      })}
    </>
  );
}
