import type { ReactNode } from 'react';

/** The one badge: a small label with a tone (background, text and ring classes). */
export function Badge({
  children,
  className = 'bg-zinc-100 text-zinc-700 ring-zinc-200',
  title,
}: {
  children: ReactNode;
  className?: string;
  title?: string;
}) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${className}`}
    >
      {children}
    </span>
  );
}

/** A value's badge from a table of its tones (and titles), the value itself as the text: a status, a mode, a split. */
export function ValueBadge<V extends string>({ value, tones }: { value: V; tones: Record<V, { tone: string; title?: string }> }) {
  const { tone, title } = tones[value];
  return (
    <Badge className={tone} title={title}>
      {value}
    </Badge>
  );
}
