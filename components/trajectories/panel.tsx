import type { ReactNode } from 'react';

/** A titled white card for the detail page's sections. */
export function Panel({
  title,
  id,
  actions,
  children,
  className = '',
}: {
  title: string;
  id: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`rounded-xl border border-zinc-200 bg-white shadow-sm ${className}`}>
      <div className="flex items-center justify-between gap-2 border-b border-zinc-100 px-4 py-2">
        <h2 id={id} className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
          {title}
        </h2>
        {actions}
      </div>
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}

/** Label / value rows inside a panel. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-zinc-500">{label}</dt>
          <dd className="min-w-0 break-words text-zinc-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
